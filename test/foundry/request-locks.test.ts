/**
 * Locks belong to the request (router.ts, locks.ts): a query declares every key it writes,
 * the router takes them once, in sorted order, and hands a LockScope down; nothing below the
 * handler takes a lock, and a write to an undeclared key is a clear error.
 */
import { describe, expect, it, vi } from "vitest";
import { QueryRouter, defineQuery, type AskingUser, type QueryEnvironment } from "../../src/foundry/requests/router";
import { oneGMClaims } from "../support/gm-router";
import { LockScope, LockScopeError, LockTable } from "../../src/foundry/requests/locks";
import { TurnEngine, combatLock } from "../../src/foundry/combat/engine";
import { turnWorld, worldCombatant } from "../support/combat-world";

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
