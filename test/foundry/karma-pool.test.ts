/**
 * The group Karma pool on the strict table (test/support/strict-table.ts): players put Karma in
 * and draw it out through the active GM; the pool is a world setting only a GM may write; the
 * server checks ownership and authorship; requests race. Expected numbers come from the rules'
 * `contributeToPool` / `drawFromPool`, never copies.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, ServerRefusal, StrictTable, installTableGlobals, seatCast } from "../support/strict-table";
import { FakeActor } from "../support/exchange-world";
import { karmaPoolQuery } from "../../src/foundry/karma-pool";
import { readKarmaPool } from "../../src/foundry/core/settings";
import { KARMA_POOL_DRAW_LIMIT, replayKarmaLog, type KarmaLogEntry } from "../../src/rules/index";

let table: StrictTable;
let n = 0;
const requestId = () => `pool${String(++n).padStart(12, "0")}`;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 11 });
  seatCast(table);
  table.server.settings.set("case.karmaPool", true);
  table.server.settings.set("case.karmaPoolDrawLimit", KARMA_POOL_DRAW_LIMIT);
  table.server.settings.set("case.karmaPoolState", { total: 0, contributed: {}, requests: [] });
  await table.connectAll();
});

afterEach(async () => {
  // Let the connections' userConnected deliveries finish before the globals go.
  await table.settle();
  vi.unstubAllGlobals();
});

/** Karma and its log as the server holds them. */
function karmaOf(actorId: string): { value: number; log: KarmaLogEntry[] } {
  const source = table.server.actors.get(actorId);
  const system = FakeActor.build(source?.type ?? "hero", source?.system ?? {}) as unknown as { karma: { value: number }; karmaLog: KarmaLogEntry[] };
  return { value: system.karma.value, log: system.karmaLog };
}

function pool() {
  return readKarmaPool(table.server.settings.get("case.karmaPoolState"));
}

const ask = (action: "contribute" | "draw", actorId: string, amount: number) => ({ requestId: requestId(), actorUuid: `Actor.${actorId}`, action, amount });

describe("karma pool on the strict table", () => {
  it("karma pool: a player contributes from their hero and another draws: Karma, logs and the GM-held pool agree", async () => {
    const { alice, bob } = table.clients;
    const start = { kestrel: karmaOf(CAST.kestrel).value, wren: karmaOf(CAST.wren).value };
    expect(await alice.click(karmaPoolQuery, ask("contribute", CAST.kestrel, 12))).toMatchObject({ ok: true, value: { karma: start.kestrel - 12, total: 12 } });
    expect(await bob.click(karmaPoolQuery, ask("draw", CAST.wren, 5))).toMatchObject({ ok: true, value: { karma: start.wren + 5, total: 7 } });
    await table.settle();
    expect(pool()).toMatchObject({ total: 7, contributed: { [`Actor.${CAST.kestrel}`]: 12, [`Actor.${CAST.wren}`]: -5 } });
    const kestrel = karmaOf(CAST.kestrel);
    expect(kestrel.value).toBe(start.kestrel - 12);
    expect(kestrel.log).toEqual([expect.objectContaining({ kind: "contribute", amount: 12, balanceAfter: start.kestrel - 12, reason: "Into the group pool" })]);
    expect(replayKarmaLog(start.kestrel, kestrel.log)).toBe(kestrel.value);
    expect(karmaOf(CAST.wren).log).toEqual([expect.objectContaining({ kind: "draw", amount: 5, reason: "From the group pool" })]);
  });

  it("karma pool: a player may not move another hero's Karma, nor write the pool themselves; the server refuses, nothing changes", async () => {
    const { alice, bob } = table.clients;
    const before = karmaOf(CAST.kestrel).value;
    expect(await bob.click(karmaPoolQuery, ask("contribute", CAST.kestrel, 10))).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await bob.click(karmaPoolQuery, ask("draw", CAST.kestrel, 1))).toMatchObject({ ok: false, reason: "forbidden" });
    await expect(alice.run(() => game.settings.set("case", "karmaPoolState", { total: 9999, contributed: {}, requests: [] }))).rejects.toThrow(ServerRefusal);
    await table.settle();
    expect(karmaOf(CAST.kestrel).value).toBe(before);
    expect(pool().total).toBe(0);
  });

  it("karma pool: more than the pool holds, more than the hero has, or past the contributed limit is refused; so is everything when the setting is off", async () => {
    const { alice, bob, gm } = table.clients;
    const kestrel = karmaOf(CAST.kestrel).value;
    expect(await alice.click(karmaPoolQuery, ask("contribute", CAST.kestrel, kestrel + 1))).toMatchObject({ ok: false, reason: "malformed" });
    expect(await bob.click(karmaPoolQuery, ask("draw", CAST.wren, 1))).toMatchObject({ ok: false, reason: "malformed" });
    expect(await alice.click(karmaPoolQuery, ask("contribute", CAST.kestrel, 10))).toMatchObject({ ok: true });
    table.server.settings.set("case.karmaPoolDrawLimit", "contributed");
    expect(await bob.click(karmaPoolQuery, ask("draw", CAST.wren, 1))).toMatchObject({ ok: false, reason: "malformed" });
    expect(await alice.click(karmaPoolQuery, ask("draw", CAST.kestrel, 10))).toMatchObject({ ok: true, value: { total: 0 } });
    table.server.settings.set("case.karmaPool", false);
    expect(await gm.click(karmaPoolQuery, ask("contribute", CAST.wren, 1))).toMatchObject({ ok: false, reason: "forbidden" });
    await table.settle();
    expect(karmaOf(CAST.kestrel).value).toBe(kestrel);
    expect(pool().total).toBe(0);
  });

  it("karma pool: contributions racing from two players all land (the pool's lock), and a replayed request moves nothing twice", async () => {
    const { alice, bob, gm } = table.clients;
    const start = karmaOf(CAST.kestrel).value + karmaOf(CAST.wren).value;
    const results = await Promise.all([
      alice.click(karmaPoolQuery, ask("contribute", CAST.kestrel, 3)),
      bob.click(karmaPoolQuery, ask("contribute", CAST.wren, 4)),
      alice.click(karmaPoolQuery, ask("contribute", CAST.kestrel, 5)),
      bob.click(karmaPoolQuery, ask("contribute", CAST.wren, 6)),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    await table.settle();
    expect(pool().total).toBe(18);
    expect(karmaOf(CAST.kestrel).value + karmaOf(CAST.wren).value).toBe(start - 18);
    // The GM handles the same request twice (a retry of one request message): the hero and the pool change once.
    const again = ask("contribute", CAST.wren, 2);
    expect(await gm.run(() => gm.router.runLocally(karmaPoolQuery, again, "retriedrequest01"))).toMatchObject({ ok: true });
    expect(await gm.run(() => gm.router.runLocally(karmaPoolQuery, again, "retriedrequest01"))).toMatchObject({ ok: true });
    await table.settle();
    expect(pool().total).toBe(20);
    expect(karmaOf(CAST.kestrel).value + karmaOf(CAST.wren).value).toBe(start - 20);
  });
});

describe("karma pool: what a player chooses in the payload", () => {
  it("karma pool: an id a player puts in the payload is not the replay key: two draws are two draws, and the pool pays each once", async () => {
    const { alice, bob } = table.clients;
    expect(await bob.click(karmaPoolQuery, ask("contribute", CAST.wren, 30))).toMatchObject({ ok: true });
    const start = karmaOf(CAST.kestrel).value;
    const forged = { requestId: "samesamesamesame", actorUuid: `Actor.${CAST.kestrel}`, action: "draw", amount: 10 };
    expect(await alice.click(karmaPoolQuery, forged)).toMatchObject({ ok: true, value: { total: 20 } });
    expect(await alice.click(karmaPoolQuery, forged)).toMatchObject({ ok: true, value: { total: 10 } });
    await table.settle();
    // Everything drawn came out of the pool: Kestrel gained what the pool lost.
    expect(pool().total).toBe(10);
    expect(karmaOf(CAST.kestrel).value).toBe(start + 20);
  });
});

describe("karma pool: the stored pool", () => {
  it("karma pool: a broken stored pool is a clear error, never read as empty", () => {
    expect(readKarmaPool(undefined)).toEqual({ total: 0, contributed: {}, requests: [] });
    expect(() => readKarmaPool({ total: -4, contributed: {} })).toThrow(/total \(-4\)/);
    expect(() => readKarmaPool({ total: 4, contributed: { a: "lots" } })).toThrow(/contributions/);
    expect(() => readKarmaPool("forty")).toThrow(/not an object/);
  });
});
