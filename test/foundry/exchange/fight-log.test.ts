/**
 * The fight log on the strict table (issue 23, item 2): the Judge reads the log of a running
 * combat from the attack cards its turn made (with the GM's record: an NPC's Health is whole),
 * Undo shows in it, and a player can neither ask for it nor open or export it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, itemUuid, seatCast, seatCombat, type StrictClient } from "../../support/strict-table";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, defendQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { fightLogQuery } from "../../../src/foundry/exchange/fight-log";
import { combatantSystemFrom, NEUTRAL_STATS } from "../../../src/foundry/combat/state";
import { createCombatantTurn, type FightLog } from "../../../src/rules/index";

const COMBAT = "combat0000000001";
let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 29 });
  seatCast(table);
  // A running combat in its resolve phase: Kestrel (Alice's hero) acts first, then Doctor Gravel (an NPC).
  seatCombat(table, COMBAT, [CAST.kestrel, CAST.gravel]);
  const combat = table.server.combats.get(COMBAT);
  if (!combat) throw new Error("No combat.");
  combat.system = { ...combat.system, phase: "resolve", round: 1, order: combat.combatants.map((c) => c._id), cursor: 0 };
  combat.combatants.forEach((c) => (c.system = JSON.parse(JSON.stringify(combatantSystemFrom(createCombatantTurn("x", NEUTRAL_STATS), ""))) as Record<string, unknown>));
  // Gravel is low: the Haymaker's 20 takes him to 0.
  (table.server.actors.get(CAST.gravel)?.system as { health: { value: number } }).health.value = 15;
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function logOf(c: StrictClient) {
  const answer = await c.click(fightLogQuery, { combatId: COMBAT });
  await table.settle();
  return answer;
}

describe("fight log", () => {
  it("fight log on the strict table: the Judge reads who hit whom, what got through and who was taken out, then the Undo; a player is refused", async () => {
    const { gm, gm2, alice } = table.clients;
    const made = await alice.click(attackQuery, { itemUuid: itemUuid(CAST.kestrel, "punch"), targetUuids: [`Actor.${CAST.gravel}`], input: {} });
    await table.settle();
    if (!made.ok || !made.value) throw new Error(`The attack was refused: ${JSON.stringify(made)}`);
    const messageId = made.value.messageId;
    table.dice.push(60); // yellow on Kestrel's Unearthly Fighting: a Blunt Attack's Slam result
    expect(await gm.click(defendQuery, { messageId, targetKey: "0", defence: "none" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(await gm.click(applyDamageQuery, { messageId, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();

    const read = await logOf(gm2);
    expect(read.ok).toBe(true);
    const log = (read.ok ? read.value : null) as FightLog;
    expect(log.rows.map((r) => [r.attacker.name, r.target.name, r.source, r.result, r.through, r.health, r.status, r.takenOut])).toEqual([
      ["Kestrel, the Unbreakable Sentinel of the Northern Reach", "Doctor Gravel", "Haymaker", "slam", 20, { before: 15, after: 0 }, "applied", true],
    ]);
    expect([log.takenOut, log.foesBeaten, log.rescues]).toEqual([["Doctor Gravel"], 1, 0]);

    // A player may not read it: the Judge's numbers of an NPC are in it.
    const refused = await logOf(alice);
    expect(refused.ok ? "ok" : refused.reason).toBe("forbidden");
    const opened = await alice.run(async () => (await import("../../../src/foundry/api/fight-log-api")).loadFightLog(COMBAT));
    expect(opened).toBeNull();
    expect(alice.notified.at(-1)).toEqual({ level: "error", text: "Only a GM may do this." });

    // Undo: the row reads undone, and nobody was taken out any more.
    expect(await gm.click(undoDamageQuery, { messageId, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    const after = await logOf(gm);
    const undone = (after.ok ? after.value : null) as FightLog;
    expect(undone.rows.map((r) => [r.status, r.health, r.takenOut])).toEqual([["undone", null, false]]);
    expect([undone.takenOut, undone.foesBeaten]).toEqual([[], 0]);
  });
});
