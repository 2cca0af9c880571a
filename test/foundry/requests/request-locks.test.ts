/**
 * Locks belong to the request (router.ts, locks.ts): a query declares every key it writes,
 * the router takes them once, in sorted order, and hands a LockScope down; nothing below the
 * handler takes a lock, and a write to an undeclared key is a clear error.
 */
import { describe, expect, it, vi } from "vitest";
import { QueryRouter, defineQuery, type AskingUser, type QueryEnvironment, type RequestClaim } from "../../../src/foundry/requests/router";
import { oneGMClaims } from "../../support/gm-router";
import { LockScope, LockScopeError, LockTable } from "../../../src/foundry/requests/locks";
import { TurnEngine } from "../../../src/foundry/combat/engine";
import { combatLock } from "../../../src/foundry/combat/turn-host";
import { turnWorld, worldCombatant } from "../../support/combat-world";

const gm: AskingUser = { id: "gm0000000000000a", isGM: true, active: true, name: "Judge" };

function gmEnv(): QueryEnvironment {
  let n = 0;
  return {
    self: () => gm,
    user: (id) => (id === gm.id ? gm : undefined),
    isActiveGM: () => true,
    gmConnected: () => true,
    post: () => Promise.reject(new Error("the GM posts nothing")),
    answer: () => Promise.reject(new Error("the GM waits for nothing")),
    reply: () => Promise.resolve(),
    newId: () => `local${String(++n)}`,
    ...oneGMClaims(),
  };
}

describe("locks belong to the request", () => {
  it("the router takes every declared key at once, sorted, and hands the scope down (the handler sees them held)", async () => {
    const table = new LockTable(1000);
    const seen: string[][] = [];
    const query = defineQuery({
      name: "declares",
      parse: (raw: unknown) => raw,
      lockKeys: () => Promise.resolve(["card:b", "actor:a", "combat:c", "actor:a"]),
      authorize: () => undefined,
      handle(_user, _p, context) {
        seen.push([...context.scope.keys]);
        expect(["actor:a", "card:b", "combat:c"].every((k) => table.busy(k))).toBe(true);
        return Promise.resolve(null);
      },
    });
    const router = new QueryRouter(gmEnv(), null, table);
    expect(await router.runLocally(query, {})).toEqual({ ok: true, value: null });
    expect(seen).toEqual([["actor:a", "card:b", "combat:c"]]);
    expect(table.busy("actor:a")).toBe(false);
  });

  it("a write below the handler to a key the query did not declare is a clear error, never a wait", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const query = defineQuery({
      name: "undeclared",
      parse: (raw: unknown) => raw,
      lockKeys: () => ["card:x"],
      authorize: () => undefined,
      handle: (_user, _p, context) => context.scope.within(["actor:someone"], () => Promise.resolve(1)),
    });
    const router = new QueryRouter(gmEnv(), null, new LockTable(1000));
    const started = Date.now();
    const result = await router.runLocally(query, {});
    spy.mockRestore();
    expect(result).toMatchObject({ ok: false, reason: "failed" });
    expect(result.ok ? "" : result.message).toContain('writes "actor:someone" without holding its lock');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("the turn engine writes only inside a scope that holds its combat's lock, and takes none itself", async () => {
    const world = turnWorld([worldCombatant("hero000000000001", null)], {}, "combat1");
    const outside = new TurnEngine(world.host, "combat1", new LockScope(["actor:x"]));
    await expect(outside.applyStun("hero000000000001", 1)).rejects.toBeInstanceOf(LockScopeError);
    const reader = new TurnEngine(world.host, "combat1");
    await expect(reader.applyStun("hero000000000001", 1)).rejects.toThrow(/only inside a request/);
    // Under a scope that holds the combat, the engine writes at once: it waits on no lock of its own.
    const inside = new TurnEngine(world.host, "combat1", new LockScope([combatLock("combat1")]));
    await Promise.all([inside.applyStun("hero000000000001", 1), inside.applyStun("hero000000000001", 2)]);
    expect(world.writes.length).toBeGreaterThan(0);
  });
});

describe("a request is claimed in the world", () => {
  const alice: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };

  /** A GM's environment whose claim records the test lays out (others' first, then this GM's as it writes them). */
  function claimingEnv(others: RequestClaim[]): { env: QueryEnvironment; written: string[]; finished: string[] } {
    const written: string[] = [];
    const finished: string[] = [];
    const env: QueryEnvironment = {
      ...gmEnv(),
      user: (id) => (id === gm.id ? gm : id === alice.id ? alice : undefined),
      claims: (id) => [...others, ...written.filter((w) => w === id).map(() => ({ self: true, live: true, done: finished.includes(id) }))],
      claim: (id) => (written.push(id), Promise.resolve()),
      finishClaim: (id) => (finished.push(id), Promise.resolve()),
    };
    return { env, written, finished };
  }

  function counting(): { query: ReturnType<typeof defineQuery<unknown, number>>; runs: () => number } {
    let runs = 0;
    const query = defineQuery<unknown, number>({ name: "count", parse: (raw: unknown) => raw, lockKeys: () => ["k"], authorize: () => undefined, handle: () => Promise.resolve(++runs) });
    return { query, runs: () => runs };
  }

  const record = (answered = false) => ({ id: "req0000000000001", authorId: alice.id, query: "count", payload: {}, answered });

  it("an unclaimed request is claimed, run once, and its claim marked done after the answer", async () => {
    const { env, written, finished } = claimingEnv([]);
    const { query, runs } = counting();
    const router = new QueryRouter(env, null);
    router.register(query);
    expect(await router.receive(record())).toEqual({ ok: true, value: 1 });
    expect([written, finished, runs()]).toEqual([["req0000000000001"], ["req0000000000001"], 1]);
  });

  it("a request another connected GM claimed is left to it; one claimed by a GM who left is finished here", async () => {
    for (const [other, expected] of [[{ self: false, live: true, done: false }, 0], [{ self: false, live: false, done: false }, 1]] as const) {
      const { env } = claimingEnv([other]);
      const { query, runs } = counting();
      const router = new QueryRouter(env, null);
      router.register(query);
      await router.receive(record());
      expect(runs()).toBe(expected);
    }
  });

  it("a request whose claim is done is never run again, even when its author wrote its answer back to null", async () => {
    const { env } = claimingEnv([{ self: false, live: false, done: true }]);
    const { query, runs } = counting();
    const router = new QueryRouter(env, null);
    router.register(query);
    expect(await router.receive(record(false))).toBeNull();
    expect(runs()).toBe(0);
  });

  it("two GMs claiming at once: the one whose claim is not first in the server's order backs off", async () => {
    // Another live GM's claim came before this GM's, and this GM saw none before it claimed (written at once).
    let others: RequestClaim[] = [];
    const { env, written } = claimingEnv([]);
    const racing: QueryEnvironment = { ...env, claims: (id) => [...others, ...env.claims(id)], claim: (id) => ((others = [{ self: false, live: true, done: false }]), env.claim(id)) };
    const { query, runs } = counting();
    const router = new QueryRouter(racing, null);
    router.register(query);
    expect(await router.receive(record())).toBeNull();
    expect([written, runs()]).toEqual([["req0000000000001"], 0]);
  });
});
