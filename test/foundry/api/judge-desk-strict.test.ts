/**
 * The Judge's desk on the strict table (test/support/strict-table.ts): Award Karma and Heal
 * between real clients, through JSON, with the server checking who may write what. A player
 * can award no Karma, and can heal only their own character, never someone else's; the GM can
 * do both, from either GM client.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, seatCast } from "../../support/strict-table";
import { FakeActor } from "../../support/exchange-world";
import { awardKarmaQuery, restQuery } from "../../../src/foundry/api/campaign-api";
import { healQuery } from "../../../src/foundry/api/heal-api";
import { applyDamageApiQuery } from "../../../src/foundry/api/damage-api";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 23 });
  seatCast(table);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Karma as the server holds it. */
function karma(actorId: string): number {
  const source = table.server.actors.get(actorId);
  return FakeActor.build(source?.type ?? "hero", source?.system ?? {}).karma.value;
}

describe("award button", () => {
  it("award button on the strict table: a player cannot award Karma, to their own character or another's; the GM can", async () => {
    const { gm, alice } = table.clients;
    const before = { kestrel: karma(CAST.kestrel), wren: karma(CAST.wren) };
    const mine = await alice.click(awardKarmaQuery, { requestId: "award00000000001", actorUuids: [`Actor.${CAST.kestrel}`], amount: 50, reason: "I deserve it" });
    const theirs = await alice.click(awardKarmaQuery, { requestId: "award00000000002", actorUuids: [`Actor.${CAST.wren}`], kind: "kill", reason: "Wren killed" });
    await table.settle();
    expect([mine, theirs].map((r) => (r.ok ? "ok" : r.reason))).toEqual(["forbidden", "forbidden"]);
    expect([karma(CAST.kestrel), karma(CAST.wren)]).toEqual([before.kestrel, before.wren]);
    const given = await gm.click(awardKarmaQuery, { requestId: "award00000000003", actorUuids: [`Actor.${CAST.kestrel}`, `Actor.${CAST.wren}`], amount: 20, reason: "Rescue" });
    await table.settle();
    expect(given.ok).toBe(true);
    expect([karma(CAST.kestrel), karma(CAST.wren)]).toEqual([before.kestrel + 20, before.wren + 20]);
  });
});

describe("heal through the lock", () => {
  it("heal through the lock on the strict table: a player heals their own character, never someone else's; two GMs' heals both land", async () => {
    const { gm, gm2, alice } = table.clients;
    const hurt = await gm.click(applyDamageApiQuery, { requestId: "dmg0000000000001", tokenUuids: [`Actor.${CAST.kestrel}`, `Actor.${CAST.wren}`], amount: 40 });
    await table.settle();
    expect(hurt.ok).toBe(true);
    const start = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren) };
    const results = await Promise.all([
      alice.click(healQuery, { requestId: "heal000000000001", actorUuids: [`Actor.${CAST.kestrel}`], mode: "amount", amount: 5 }),
      alice.click(healQuery, { requestId: "heal000000000002", actorUuids: [`Actor.${CAST.wren}`], mode: "amount", amount: 5 }),
      gm.click(healQuery, { requestId: "heal000000000003", actorUuids: [`Actor.${CAST.wren}`], mode: "amount", amount: 7 }),
      gm2.click(healQuery, { requestId: "heal000000000004", actorUuids: [`Actor.${CAST.wren}`], mode: "amount", amount: 11 }),
    ]);
    await table.settle();
    expect(results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["ok", "forbidden", "ok", "ok"]);
    expect(table.health(CAST.kestrel)).toBe(start.kestrel + 5);
    expect(table.health(CAST.wren)).toBe(start.wren + 7 + 11);
  });
});

describe("team sheet", () => {
  it("team sheet on the strict table: a member's player asking rest, heal or award for the whole team is refused, nothing changes; the Judge's requests land", async () => {
    const { gm, alice } = table.clients;
    const team = [`Actor.${CAST.kestrel}`, `Actor.${CAST.wren}`];
    await gm.click(applyDamageApiQuery, { requestId: "dmg0000000000002", tokenUuids: team, amount: 30 });
    await table.settle();
    const start = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren), karma: karma(CAST.wren) };
    const refused = await Promise.all([
      alice.click(restQuery, { requestId: "rest000000000001", actorUuids: team, days: 1, care: "none" }),
      alice.click(healQuery, { requestId: "heal000000000005", actorUuids: team, mode: "amount", amount: 10 }),
      alice.click(awardKarmaQuery, { requestId: "award00000000004", actorUuids: team, amount: 10, reason: "Team" }),
    ]);
    await table.settle();
    expect(refused.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["forbidden", "forbidden", "forbidden"]);
    expect([table.health(CAST.kestrel), table.health(CAST.wren), karma(CAST.wren)]).toEqual([start.kestrel, start.wren, start.karma]);
    const healed = await gm.click(healQuery, { requestId: "heal000000000006", actorUuids: team, mode: "amount", amount: 10 });
    await table.settle();
    expect(healed.ok).toBe(true);
    expect([table.health(CAST.kestrel), table.health(CAST.wren)]).toEqual([start.kestrel + 10, start.wren + 10]);
  });
});
