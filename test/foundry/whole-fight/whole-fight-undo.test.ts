/**
 * A whole fight's Undo and the trust the GM puts in players' documents, on the strict table
 * (test/support/strict-table.ts): one server, two GMs and two players, everything through JSON,
 * the server checking who may write what. The strict table cannot advance a CASE turn yet, so
 * the combat is set up directly in its resolve phase (seatCombat, then the phase and the order).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, CAST_SCENE, CAST_TOKENS, installTableGlobals, itemUuid, placeCast, seatCast, seatCombat, type StrictClient, StrictTable } from "../../support/strict-table";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, consequenceQuery, defendQuery, escapeQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { applyToSelectedQuery } from "../../../src/foundry/exchange/apply-to-selected";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { cardForViewer } from "../../../src/foundry/exchange/card-store";
import { turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { statusId } from "../../../src/foundry/status-effects";
import { docRankOf, docRollFor } from "../../support/rules-doc";
import type { ExchangeState } from "../../../src/rules/index";

const SCENE = CAST_SCENE;
const COMBAT = "combat0000000001";
const TOKEN = CAST_TOKENS;
const CBT = { kestrel: "cbt0000000000000", gravel: "cbt0000000000001" } as const;
const tokenUuid = (id: string) => `Scene.${SCENE}.Token.${id}`;
let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 21 });
  seatCast(table);
  // A 20 × 7 square scene: Gravel at (2, 3), Kestrel at (4, 3), Wren and Shade to the north.
  placeCast(table, { gravel: [2, 3], kestrel: [4, 3], wren: [4, 1], shade: [6, 1] });
  // A running combat in its resolve phase, nobody has acted yet; Wren stays out of it. The
  // haymakers come one after another whoever's action it is (the acting order is
  // whole-fight-turn.test.ts's), so attacks are not the turn's here.
  seatCombat(table, COMBAT, [CAST.kestrel, CAST.gravel]);
  const combat = table.server.combats.get(COMBAT);
  if (!combat) throw new Error("No combat.");
  combat.system = { ...combat.system, phase: "resolve", order: [CBT.gravel, CBT.kestrel], cursor: 0 };
  table.server.settings.set("case.attacksInTurn", false);
  await table.connectAll();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function card(id: string): ExchangeState {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return readExchange(source.system.exchange);
}

const tokenAt = (id: string) => {
  const t = table.server.scenes.get(SCENE)?.tokens.find((x) => x._id === id);
  return t ? { x: t.x / 100, y: t.y / 100 } : null;
};

/** What the server holds of an actor: Health, lost ranks, CASE conditions, the ledger's entries. */
function actorState(actorId: string): { health: number; lost: number; statuses: string[] } {
  const source = table.server.actors.get(actorId);
  if (!source) throw new Error(`No actor ${actorId}.`);
  const system = source.system as { lostEnduranceRanks?: number };
  return { health: table.health(actorId), lost: system.lostEnduranceRanks ?? 0, statuses: source.effects.flatMap((e) => e.statuses).sort() };
}

/** The combatant's turn as the GM's engine reads it. */
const combatant = (c: StrictClient, id: string) => c.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state().combatants.get(id));

/** The writes the server applied to one actor since `from`, with a field among their keys. */
function writesOf(actorId: string, field: string, from: number): number {
  return table.server.applied.slice(from).filter((w) => w.write.collection === "Actor" && w.write.id === actorId && w.write.op === "update" && field in w.write.data).length;
}

/** Gravel's Haymaker (Blunt Attack, 20 damage) on a token; resolves to the card's id. */
async function haymaker(on: string): Promise<string> {
  const result = await table.clients.gm.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "punch"), targetUuids: [tokenUuid(on)], input: {} });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

const ok = { ok: true, value: null };
/** A d100 of `color` on the column of the rank holding `value`. */
const roll = (value: number, color: "white" | "green" | "yellow" | "red") => docRollFor(docRankOf(value).index, color);

describe("whole fight", () => {
  it.each([1, 3, 6, 7])("undo after checks: Undo after Slam?, Stun? and Kill? restores Health, conditions, the lost rank, the slam move, the hold and the defence count, once, across a GM hand-over (the GM's tab closes after %i writes of the undo)", async (cutAfter) => {
    const { gm, gm2, alice, bob } = table.clients;
    table.server.settings.set("case.slamMovesTokens", true);
    // Kestrel is low: Gravel's yellow Haymaker (a Slam result) takes her to 0, so Kill? is due too.
    const kestrelSource = table.server.actors.get(CAST.kestrel);
    if (!kestrelSource) throw new Error("No Kestrel.");
    (kestrelSource.system as { health: { value: number } }).health.value = 15;
    for (const c of [gm, gm2, alice, bob]) {
      c.drop();
      await c.connect();
    }
    const onKestrel = await haymaker(TOKEN.kestrel);
    const onWren = await haymaker(TOKEN.wren);
    // Kestrel already weaved once this turn (a miss that stays): her count is 1 before the weave.
    const missed = await haymaker(TOKEN.kestrel);
    table.dice.push(roll(30, "white"), roll(40, "white"));
    expect(await alice.click(defendQuery, { messageId: missed, targetKey: "0", defence: "weave" })).toEqual(ok);
    await table.settle();
    expect(combatant(gm, CBT.kestrel)?.defencesUsed).toBe(1);
    // Alice weaves (white: no shift, but a defence counted in the turn); the to-hit is yellow on Gravel's Fighting 40.
    table.dice.push(roll(30, "white"), roll(40, "yellow"));
    expect(await alice.click(defendQuery, { messageId: onKestrel, targetKey: "0", defence: "weave" })).toEqual(ok);
    // Bob takes it: red, a Stun result.
    table.dice.push(roll(40, "red"));
    expect(await bob.click(defendQuery, { messageId: onWren, targetKey: "0", defence: "none" })).toEqual(ok);
    await table.settle();
    expect(combatant(gm, CBT.kestrel)?.defencesUsed).toBe(2);
    const start = { kestrel: actorState(CAST.kestrel), wren: actorState(CAST.wren), token: tokenAt(TOKEN.kestrel) };
    expect(start.kestrel.health).toBe(15);
    // The GM applies both; Alice rolls Slam? (green: one area, d10 7) and Kill? (white: a rank); Bob rolls Stun? (green: one turn).
    expect(await gm.click(applyDamageQuery, { messageId: onKestrel, targetKey: "0" })).toEqual(ok);
    expect(await gm.click(applyDamageQuery, { messageId: onWren, targetKey: "0" })).toEqual(ok);
    await table.settle();
    table.dice.push(roll(100, "green"), 7);
    expect(await alice.click(consequenceQuery, { messageId: onKestrel, targetKey: "0", check: "slam" })).toEqual(ok);
    table.dice.push(roll(100, "white"));
    expect(await alice.click(consequenceQuery, { messageId: onKestrel, targetKey: "0", check: "kill" })).toEqual(ok);
    table.dice.push(roll(100, "green"), 1);
    expect(await bob.click(consequenceQuery, { messageId: onWren, targetKey: "0", check: "stun" })).toEqual(ok);
    await table.settle();
    // Everything the checks did is on the table.
    expect(actorState(CAST.kestrel)).toMatchObject({ health: 0, lost: 1 });
    expect(actorState(CAST.kestrel).statuses).toEqual(expect.arrayContaining([statusId("slammed"), statusId("dying"), statusId("unconscious")]));
    expect(tokenAt(TOKEN.kestrel)).not.toEqual(start.token);
    expect(actorState(CAST.wren).statuses).toContain(statusId("stunned"));

    // The Judge undoes Kestrel's row and the tab closes part-way (7: just after the turn gave the weave back); the Co-Judge takes over and finishes it.
    const log = table.server.applied.length;
    gm.dropAfterWrites(cutAfter);
    const cut = await gm.click(undoDamageQuery, { messageId: onKestrel, targetKey: "0" });
    expect(cut.ok).toBe(false);
    await table.settle();
    expect(gm2.connected).toBe(true);
    expect(actorState(CAST.kestrel)).toEqual(start.kestrel);
    expect(tokenAt(TOKEN.kestrel)).toEqual(start.token);
    // The weave is given back once (the one on the miss stays), and the row is voided.
    expect(combatant(gm2, CBT.kestrel)?.defencesUsed).toBe(1);
    const row = card(onKestrel).targets[0];
    expect(row?.phase).toBe("undone");
    expect(row?.consequences).toEqual([]);
    // Once: Health and the rank were written once by the undo, however the work was split.
    expect(writesOf(CAST.kestrel, "system.health.value", log)).toBe(1);
    expect(writesOf(CAST.kestrel, "system.lostEnduranceRanks", log)).toBe(1);

    // Wren's row: the Co-Judge undoes the stun too (the turn's stun: exchange-queries.test.ts).
    expect(await gm2.click(undoDamageQuery, { messageId: onWren, targetKey: "0" })).toEqual(ok);
    await table.settle();
    expect(actorState(CAST.wren)).toEqual(start.wren);

    // Gravel's Iron Grip on Wren: red, a Full Hold (Strength 100 over Wren's 30 deals damage); the Co-Judge applies it and undoes it.
    const grip = await gm2.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "grab"), targetUuids: [tokenUuid(TOKEN.wren)], input: {} });
    if (!grip.ok || !grip.value) throw new Error("The grip was refused.");
    const onWrenHeld = grip.value.messageId;
    table.dice.push(roll(40, "red"));
    expect(await bob.click(defendQuery, { messageId: onWrenHeld, targetKey: "0", defence: "none" })).toEqual(ok);
    await table.settle();
    expect(card(onWrenHeld).targets[0]?.toHit?.result).toBe("fullHold");
    expect(actorState(CAST.wren).statuses).toContain(statusId("fullHold"));
    expect(await gm2.click(applyDamageQuery, { messageId: onWrenHeld, targetKey: "0" })).toEqual(ok);
    await table.settle();
    expect(table.health(CAST.wren)).toBeLessThan(start.wren.health);
    expect(await gm2.click(undoDamageQuery, { messageId: onWrenHeld, targetKey: "0" })).toEqual(ok);
    await table.settle();
    // The hold this card set is gone with the hit.
    expect(actorState(CAST.wren)).toEqual(start.wren);

    // A second Undo on either row is "already done", and changes nothing.
    const after = table.server.applied.length;
    for (const id of [onKestrel, onWren, onWrenHeld]) expect(await gm2.click(undoDamageQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    // Nor may the voided row be applied again: to hit again, attack again.
    expect(await gm2.click(applyDamageQuery, { messageId: onKestrel, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    await table.settle();
    expect(table.server.applied.slice(after).filter((w) => w.write.collection !== "ChatMessage")).toEqual([]);
    expect(actorState(CAST.kestrel)).toEqual(start.kestrel);
    expect(combatant(gm2, CBT.kestrel)?.defencesUsed).toBe(1);
  });

  it("redirect: no flag written by a player on their own actor moves damage to anyone else, makes a card say applied, or blocks the row", async () => {
    const { gm, gm2, alice } = table.clients;
    const onKestrel = await haymaker(TOKEN.kestrel);
    // A second Haymaker, for the GM's Apply to selected after the first row's Undo voided it.
    const again = await haymaker(TOKEN.kestrel);
    for (const id of [onKestrel, again]) {
      table.dice.push(roll(40, "green"));
      expect(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual(ok);
    }
    await table.settle();
    const dealt = card(onKestrel).targets[0]?.damage?.dealt ?? 0;
    expect(dealt).toBeGreaterThan(0);
    const start = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren), shade: table.health(CAST.shade), gravel: table.health(CAST.gravel) };
    // Alice writes, on her own Kestrel, what the old redirect pass trusted (a token list and its
    // mark) and ledger entries for the row's next Apply and Undo, then reloads.
    const revision = Number(table.server.messages.get(onKestrel)?.system.revision);
    const fake = (step: string, r = revision) => ({ id: `${onKestrel}:${String(r)}:0:${step}`, field: "system.health.value", before: start.kestrel, after: start.kestrel });
    await alice.run(() =>
      alice.actors.get(CAST.kestrel)?.update({
        "flags.case.redirects": Object.fromEntries([onKestrel, again].map((id) => [`${id}-0`, [tokenUuid(TOKEN.wren), tokenUuid(TOKEN.shade), tokenUuid(TOKEN.gravel)]])),
        "flags.case.ledger": [{ id: `${onKestrel}:0:redirect`, field: "system.health.value", before: start.kestrel, after: start.kestrel }, fake("apply"), fake("undo", revision + 1)],
      }),
    );
    alice.drop();
    await alice.connect();
    // The Judge reloads; the Co-Judge, active meanwhile, looks for work GMs left unfinished.
    gm.drop();
    await table.settle();
    await gm.connect();
    await table.settle();
    expect({ wren: table.health(CAST.wren), shade: table.health(CAST.shade), gravel: table.health(CAST.gravel) }).toEqual({ wren: start.wren, shade: start.shade, gravel: start.gravel });
    expect(card(onKestrel).targets[0]?.phase).toBe("resolved");
    expect(card(again).targets[0]?.phase).toBe("resolved");
    // The row is not blocked, and its Apply writes Kestrel's Health (the fake entry does not make it look done).
    expect(await gm2.click(applyDamageQuery, { messageId: onKestrel, targetKey: "0" })).toEqual(ok);
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(start.kestrel - dealt);
    expect(card(onKestrel).targets[0]?.applied).toMatchObject({ healthBefore: start.kestrel, healthAfter: start.kestrel - dealt });
    // Its Undo gives the Health back (the fake undo entry does not make it look done either).
    expect(await gm2.click(undoDamageQuery, { messageId: onKestrel, targetKey: "0" })).toEqual(ok);
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(start.kestrel);
    // The GM's own Apply to selected goes where the GM says, not where Alice's list says.
    expect(await gm2.click(applyToSelectedQuery, { messageId: again, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.shade)] })).toEqual(ok);
    await table.settle();
    expect({ kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren), shade: table.health(CAST.shade), gravel: table.health(CAST.gravel) }).toEqual({ ...start, shade: start.shade - dealt });
  });

  it("sealed numbers: an NPC row's Health and an NPC attacker's rank and Strength reach no player; the GM reads them", async () => {
    const { gm, alice, bob } = table.clients;
    const gravel = table.server.actors.get(CAST.gravel);
    if (!gravel) throw new Error("No Gravel.");
    (gravel.system as { health: { value: number } }).health.value = 337;
    for (const c of [gm, alice, bob]) {
      c.drop();
      await c.connect();
    }
    // Gravel (an NPC, Fighting 40, Strength 100) punches Kestrel; Kestrel blasts Gravel; both applied.
    const onKestrel = await haymaker(TOKEN.kestrel);
    table.dice.push(roll(40, "green"));
    expect(await alice.click(defendQuery, { messageId: onKestrel, targetKey: "0", defence: "none" })).toEqual(ok);
    const blast = await alice.click(attackQuery, { itemUuid: itemUuid(CAST.kestrel, "blast"), targetUuids: [tokenUuid(TOKEN.gravel)], input: {} });
    if (!blast.ok || !blast.value) throw new Error("The blast was refused.");
    const blastId = blast.value.messageId;
    table.dice.push(roll(30, "green"));
    expect(await gm.click(defendQuery, { messageId: blast.value.messageId, targetKey: "0", defence: "none" })).toEqual(ok);
    expect(await gm.click(applyDamageQuery, { messageId: blast.value.messageId, targetKey: "0" })).toEqual(ok);
    await table.settle();
    const dealt = 337 - table.health(CAST.gravel);
    expect(dealt).toBeGreaterThan(0);
    for (const player of [alice, bob]) {
      const punch = readExchange(player.messages.get(onKestrel)?.system.exchange);
      expect(punch.attacker).toMatchObject({ name: "Doctor Gravel", value: 0, strength: 0, armor: 0, sealed: true });
      const row = readExchange(player.messages.get(blast.value.messageId)?.system.exchange).targets[0];
      expect(row?.applied).toMatchObject({ healthBefore: 0, healthAfter: 0, max: 0 });
      const cards = [...player.messages.values()].filter((m) => m.type === "attack").map((m) => JSON.stringify(m.system));
      expect(cards.join("\n")).not.toMatch(/\b337\b|\b(?:"strength":100)/);
      expect(cards.join("\n")).not.toContain(`"healthAfter":${String(337 - dealt)}`);
    }
    // The GM's view joins the record: the numbers are there.
    const full = gm.run(() => cardForViewer(gm.messages.get(blastId) as never));
    expect(full.targets[0]?.applied).toMatchObject({ healthBefore: 337, healthAfter: 337 - dealt });
    expect(gm.run(() => cardForViewer(gm.messages.get(onKestrel) as never)).attacker).toMatchObject({ value: 40, strength: 100 });
  });

  it("refusals name the action: Bob, who does not own Kestrel, is told which action on her row he may not take", async () => {
    const { bob } = table.clients;
    table.server.settings.set("case.damageAppliedBy", "owners");
    const id = await haymaker(TOKEN.kestrel);
    const name = "Kestrel, the Unbreakable Sentinel of the Northern Reach";
    const row = { messageId: id, targetKey: "0" };
    const asks = [
      [await bob.click(defendQuery, { ...row, defence: "none" }), `Only the GM or ${name}'s owners can defend ${name}.`],
      [await bob.click(applyDamageQuery, row), `Only the GM or ${name}'s owners can apply the damage to ${name}.`],
      [await bob.click(undoDamageQuery, row), `Only the GM or ${name}'s owners can undo the damage to ${name}.`],
      [await bob.click(consequenceQuery, { ...row, check: "slam" }), `Only the GM or ${name}'s owners can roll ${name}'s Slam?, Stun? or Kill? check.`],
      [await bob.click(escapeQuery, row), `Only the GM or ${name}'s owners can try ${name}'s escape.`],
      [await bob.click(applyToSelectedQuery, { ...row, tokenUuids: [tokenUuid(TOKEN.wren)] }), `Only the GM or ${name}'s owners can put this damage on ${name}.`],
    ] as const;
    for (const [answer, message] of asks) expect(answer).toEqual({ ok: false, reason: "forbidden", message });
  });

  it("undo after checks: an NPC's checks roll themselves on Apply (the default), and its row can still be undone, Stunned and all", async () => {
    const { gm, alice } = table.clients;
    table.server.settings.set("case.autoNpcConsequences", true);
    const start = actorState(CAST.shade);
    const punch = await alice.click(attackQuery, { itemUuid: itemUuid(CAST.kestrel, "punch"), targetUuids: [tokenUuid(TOKEN.shade)], input: {} });
    if (!punch.ok || !punch.value) throw new Error("The punch was refused.");
    const id = punch.value.messageId;
    // Red on Kestrel's Fighting 100: a Stun result. On Apply the GM rolls Shade's Stun? itself: green, one turn.
    table.dice.push(roll(100, "red"));
    expect(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual(ok);
    table.dice.push(roll(100, "green"), 4);
    expect(await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toEqual(ok);
    await table.settle();
    // Shade stands outside the combat: a Stun? in a running combat stalls today (issue 21, item 6).
    expect(actorState(CAST.shade).statuses).toContain(statusId("stunned"));
    const rolled = table.clients.gm.run(() => cardForViewer(gm.messages.get(id) as never)).targets[0];
    expect(rolled?.consequences.map((c) => c.outcome?.check)).toEqual(["stun"]);
    expect(await gm.click(undoDamageQuery, { messageId: id, targetKey: "0" })).toEqual(ok);
    await table.settle();
    expect(actorState(CAST.shade)).toEqual(start);
    expect(card(id).targets[0]?.phase).toBe("undone");
  });
});
