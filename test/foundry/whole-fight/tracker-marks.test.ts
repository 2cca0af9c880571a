/**
 * The tracker's Hide and Defeated toggles on the strict table (test/support/strict-table.ts):
 * a second GM's click goes to the active GM as a turn query (combat/queries.ts
 * `markCombatantQuery`), which writes the combatant (and, for Defeated, the actor's defeated
 * status) under the combat's and the actors' locks; a player's is refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, TABLE_USERS, installTableGlobals, seatCast, seatCombat } from "../../support/strict-table";
import { markCombatantQuery } from "../../../src/foundry/combat/queries";

const COMBAT = "combat0000000001";
/** The combatants seatCombat makes, in the order of the actors given: Kestrel, then Gravel. */
const KESTREL_CBT = "cbt0000000000000";
const GRAVEL_CBT = "cbt0000000000001";

let table: StrictTable;

afterEach(() => {
  vi.unstubAllGlobals();
});

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 29 });
  seatCast(table);
  seatCombat(table, COMBAT, [CAST.kestrel, CAST.gravel]);
  await table.connectAll();
});

function serverCombatant(id: string) {
  const c = table.server.combats.get(COMBAT)?.combatants.find((x) => x._id === id);
  if (!c) throw new Error(`No combatant ${id}.`);
  return c;
}

/** Who wrote each combatant update the server applied. */
function combatantWriters(): string[] {
  return table.server.applied.filter((a) => a.write.op === "updateCombatants").map((a) => a.user);
}

describe("the tracker's Hide and Defeated toggles through the router", () => {
  it("a second GM's Hide is written by the active GM, and shown again the same way", async () => {
    const { gm2 } = table.clients;
    expect(await gm2.click(markCombatantQuery, { combatId: COMBAT, combatantId: GRAVEL_CBT, mark: "hidden", on: true })).toEqual({ ok: true, value: { changed: true } });
    await table.settle();
    expect(serverCombatant(GRAVEL_CBT).hidden).toBe(true);
    expect(await gm2.click(markCombatantQuery, { combatId: COMBAT, combatantId: GRAVEL_CBT, mark: "hidden", on: false })).toMatchObject({ ok: true });
    await table.settle();
    expect(serverCombatant(GRAVEL_CBT).hidden).toBe(false);
    expect(combatantWriters()).toEqual([TABLE_USERS.gm.id, TABLE_USERS.gm.id]);
  });

  it("a second GM's Defeated marks the combatant and its actor's defeated status, by the active GM; a player's is refused", async () => {
    const { gm2, alice } = table.clients;
    expect(await alice.click(markCombatantQuery, { combatId: COMBAT, combatantId: KESTREL_CBT, mark: "defeated", on: true })).toMatchObject({ ok: false, reason: "forbidden" });
    await table.settle();
    expect(serverCombatant(KESTREL_CBT).defeated).toBe(false);
    expect(await gm2.click(markCombatantQuery, { combatId: COMBAT, combatantId: KESTREL_CBT, mark: "defeated", on: true })).toMatchObject({ ok: true });
    await table.settle();
    expect(serverCombatant(KESTREL_CBT).defeated).toBe(true);
    expect(table.server.actors.get(CAST.kestrel)?.effects.flatMap((e) => e.statuses)).toContain("dead");
    expect(combatantWriters()).toEqual([TABLE_USERS.gm.id]);
    expect(table.server.applied.filter((a) => a.write.op === "createEffect").map((a) => a.user)).toEqual([TABLE_USERS.gm.id]);
  });
});
