/**
 * Issue 21, items 1–3, on the strict table: the running CASE turn reaches the attack card, the
 * damage column and FEATs; the helpless neither attack nor defend; an attack in a running
 * combat is the attacker's action. The combat is set up directly (a GM's combat with the
 * combatants' `system` as the turn left it: the phase, the order, declarations, extra-action
 * results), then every step goes through the real router, handlers, engine and data models.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, TABLE_USERS, installTableGlobals, itemUuid, seatCast, seatCombat, type StrictClient } from "../../support/strict-table";
import { localize } from "../../support/handlebars";
import { attackQuery, makeAttack } from "../../../src/foundry/exchange/make-attack";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { attackCardContext } from "../../../src/foundry/exchange/card-context";
import { currentViewer, mayDefendFor } from "../../../src/foundry/exchange/card";
import { answerRollRequestQuery, createRequestCard } from "../../../src/foundry/roll-requests/gm-request";
import { requestCardContext } from "../../../src/foundry/roll-requests/request-card-context";
import { completeActionQuery } from "../../../src/foundry/combat/queries";
import { combatantInput, readTurnSettings, trackerOrder, turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { combatantSystemFrom, NEUTRAL_STATS } from "../../../src/foundry/combat/state";
import { buildTrackerContext } from "../../../src/foundry/apps/tracker/tracker-context";
import { createCombatantTurn, parseDeclaration, rankOf, readRollRequest, shiftRank, type CombatantTurn, type ExchangeState, type TurnState } from "../../../src/rules/index";

const COMBAT = "combat0000000001";
let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 21 });
  seatCast(table);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A combatant's stored part, as the turn would have left it (the rules' shape, written as the engine writes it). */
function stored(over: Partial<CombatantTurn>): ReturnType<typeof combatantSystemFrom> {
  return combatantSystemFrom({ ...createCombatantTurn("x", NEUTRAL_STATS), ...over }, "");
}

/**
 * A GM's combat of these actors, in `phase` (round `round`), acting in the listed order, each
 * combatant's part as given; every client reloads to read it.
 */
async function seatTurn(phase: "resolve" | "extraRounds", round: number, seats: readonly { actorId: string; turn: Partial<CombatantTurn> }[]): Promise<string[]> {
  seatCombat(table, COMBAT, seats.map((s) => s.actorId));
  const combat = table.server.combats.get(COMBAT);
  if (!combat) throw new Error("No combat.");
  const ids = combat.combatants.map((c) => c._id);
  combat.system = { ...combat.system, phase, round, order: ids, cursor: 0 };
  combat.combatants.forEach((c, i) => (c.system = JSON.parse(JSON.stringify(stored(seats[i]?.turn ?? {}))) as Record<string, unknown>));
  await reload();
  return ids;
}

async function reload(): Promise<void> {
  for (const c of Object.values(table.clients)) {
    c.drop();
    await c.connect();
  }
  await table.settle();
}

/** A condition on an actor as the server holds it (a status effect, with its details). */
function condition(actorId: string, status: "stunned" | "unconscious" | "dying", flags: Record<string, unknown> = {}): void {
  table.server.actors.get(actorId)?.effects.push({ _id: table.server.newId("eff"), statuses: [`case-${status}`], flags: { case: flags } });
}

function card(id: string): ExchangeState {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return readExchange(source.system.exchange);
}

const cards = (): string[] => [...table.server.messages.values()].filter((m) => m.type === "attack").map((m) => m._id);

/** The turn as the GM's engine reads the combat. */
const turnOf = (c: StrictClient): TurnState => c.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state());

async function attack(by: StrictClient, attacker: string, kind: "punch" | "grab" | "blast", targets: readonly string[]) {
  const result = await by.click(attackQuery, { itemUuid: itemUuid(attacker, kind), targetUuids: targets.map((t) => `Actor.${t}`), input: {} });
  await table.settle();
  return result;
}

/** The attack's card id, or the test fails with the refusal. */
async function attacked(by: StrictClient, attacker: string, kind: "punch" | "grab" | "blast", targets: readonly string[]): Promise<string> {
  const result = await attack(by, attacker, kind, targets);
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  return result.value.messageId;
}

/** The tracker as the Judge's client builds it from the combat (combat-tracker.ts trackerInputOf, without the canvas). */
function trackerOf(c: StrictClient): ReturnType<typeof buildTrackerContext> {
  return c.run(() => {
    const combat = game.combats.get(COMBAT) as never as Combat.Implementation;
    return buildTrackerContext(
      {
        isGM: true,
        combat: { id: COMBAT, started: true, system: combat.system },
        combatants: trackerOrder(combat).map((x) => ({ ...combatantInput(x), name: x.name ?? "", img: "", hidden: false, owner: true })),
        settings: readTurnSettings(),
      },
      localize,
    );
  });
}

/** A separate action's to-hit shift, as the turn leaves it after a passed roll for two actions. */
const SEPARATE = { wanted: 2, required: "green" as const, roll: 90, color: "red" as const, success: true, mode: "separate" as const };

describe("whole fight", () => {
  it("turn shifts on the card: after a separate-actions turn, the second attack's card shows −1 CS with its reason, and the to-hit is read on that column", async () => {
    const { alice, gm } = table.clients;
    // Kestrel (Ftg Unearthly 100) took her first separate action; the extra round is hers.
    await seatTurn("extraRounds", 2, [
      { actorId: CAST.kestrel, turn: { declaration: parseDeclaration({ text: "Two jabs", kind: "attack", attack: "BA", actions: 2 }), extra: SEPARATE, actionsAllowed: 2, actionsUsed: 1, actedInRound: 1, actionCs: -1 } },
      { actorId: CAST.gravel, turn: { actionsAllowed: 1, actionsUsed: 1, actedInRound: 1 } },
    ]);
    // The tracker holds the shift, with its reason.
    expect(trackerOf(gm).rows.find((r) => r.name.startsWith("Kestrel"))).toMatchObject({ actionShift: "−1", actionShiftReasons: "−1 separate action" });
    const id = await attacked(alice, CAST.kestrel, "punch", [CAST.gravel]);
    expect(card(id).toHitCs).toContainEqual({ cs: -1, label: "CASE.TurnShift.separateActions", localize: true });
    // The reason reaches the card the players read.
    const view = alice.run(() => attackCardContext(card(id), currentViewer(), { hideNpcDefences: true, ownersApplyDamage: false }));
    expect(view.toHitCs).toContainEqual({ cs: "−1", label: "CASE.TurnShift.separateActions", localize: true });
    expect(localize("CASE.TurnShift.separateActions")).toBe("separate action");
    table.dice.push(60);
    expect(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual({ ok: true, value: null });
    await table.settle();
    const toHit = card(id).targets[0]?.toHit;
    expect(toHit?.cs).toContainEqual({ cs: -1, label: "CASE.TurnShift.separateActions", localize: true });
    // Unearthly (100) one column down: Monstrous.
    expect(toHit?.column).toBe(shiftRank(rankOf(100), -1).key);
  });

  it("turn shifts on the card: an NPC's shifts are on its card, their reasons kept from the players", async () => {
    const { gm, alice } = table.clients;
    await seatTurn("extraRounds", 2, [
      { actorId: CAST.gravel, turn: { declaration: parseDeclaration({ text: "Pound twice", actions: 2, secret: true }), extra: SEPARATE, actionsAllowed: 2, actionsUsed: 1, actedInRound: 1, actionCs: -1 } },
      { actorId: CAST.kestrel, turn: { actionsAllowed: 1, actionsUsed: 1, actedInRound: 1 } },
    ]);
    const id = await attacked(gm, CAST.gravel, "punch", [CAST.kestrel]);
    expect(card(id).toHitCs).toContainEqual({ cs: -1, label: "CASE.TurnShift.secret", localize: true });
    expect(localize("CASE.TurnShift.secret")).toBe("its turn");
    expect(table.server.received(alice)).not.toContain("CASE.TurnShift.separateActions");
    expect(turnOf(gm).combatants.get("cbt0000000000000")?.actionsUsed).toBe(2);
  });

  it("flurry damage: a flurry's damage shift moves the damage column", async () => {
    const { alice, gm } = table.clients;
    await seatTurn("resolve", 1, [
      { actorId: CAST.kestrel, turn: { declaration: parseDeclaration({ text: "A flurry of blows", kind: "attack", attack: "BA", actions: 2 }), extra: { ...SEPARATE, mode: "flurry" }, actionsAllowed: 1, damageCs: 1 } },
      { actorId: CAST.gravel, turn: {} },
    ]);
    const id = await attacked(alice, CAST.kestrel, "punch", [CAST.gravel]);
    expect(card(id).damageCs).toEqual([{ cs: 1, label: "CASE.TurnShift.flurryDamage", localize: true }]);
    table.dice.push(60); // a hit on Unearthly
    expect(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual({ ok: true, value: null });
    await table.settle();
    // The Haymaker's Good (20) one column up: Remarkable (30); Gravel wears no armor.
    expect(card(id).targets[0]?.damage).toMatchObject({ raw: shiftRank(rankOf(20), 1).number, dealt: 30 });
    const view = alice.run(() => attackCardContext(card(id), currentViewer(), { hideNpcDefences: true, ownersApplyDamage: false }));
    expect(view.damageCs).toEqual([{ cs: "+1", label: "CASE.TurnShift.flurryDamage", localize: true }]);
  });

  it("dodger's own roll: a declared dodger's FEAT carries −2 CS", async () => {
    const { gm, alice } = table.clients;
    table.server.settings.set("case.declaredDodge", true);
    await seatTurn("resolve", 1, [
      { actorId: CAST.gravel, turn: {} },
      { actorId: CAST.kestrel, turn: { declaration: parseDeclaration({ text: "Weave through the crowd", kind: "defence", defence: "dodge", actions: 1 }), dodge: { roll: 60, color: "yellow", shift: -4 } } },
    ]);
    const request = await gm.run(() => createRequestCard({ score: "endurance", intensity: null, label: null, subjects: [{ actorUuid: `Actor.${CAST.kestrel}`, name: "Kestrel" }] }));
    await table.settle();
    table.dice.push(50);
    expect(await alice.click(answerRollRequestQuery, { messageId: request.id ?? "", rowKey: "0", cs: 0, reason: "", karma: 0 })).toEqual({ ok: true, value: null });
    await table.settle();
    const row = readRollRequest(table.server.messages.get(request.id ?? "")?.system.request).rows[0];
    expect(row?.result).toMatchObject({ die: 50, value: 100, shift: -2, shifts: [{ cs: -2, label: "CASE.TurnShift.declaredDodge", localize: true }] });
    expect(localize("CASE.TurnShift.declaredDodge")).toBe("declared dodge");
    // The request card shows it with its reason.
    const view = requestCardContext(readRollRequest(table.server.messages.get(request.id ?? "")?.system.request), { isGM: false, owns: () => true, portrait: () => null });
    expect(view.rows[0]?.result?.shifts).toEqual([{ cs: "−2", label: "CASE.TurnShift.declaredDodge", localize: true }]);
  });

  it("helpless cannot attack: a Stunned, an Unconscious and a Dying attacker are refused, nothing written", async () => {
    const { alice, bob, gm } = table.clients;
    condition(CAST.kestrel, "stunned", { turns: 2 });
    condition(CAST.wren, "unconscious");
    condition(CAST.gravel, "dying", { aided: false });
    await reload();
    const actorsBefore = JSON.stringify([...table.server.actors.values()]);
    const tries: [StrictClient, string, string][] = [
      [alice, CAST.kestrel, "Stunned"],
      [bob, CAST.wren, "Unconscious"],
      [gm, CAST.gravel, "dying and not aided"],
    ];
    for (const [client, attacker, reason] of tries) {
      const result = await attack(client, attacker, "punch", [CAST.shade]);
      expect(result).toMatchObject({ ok: false, reason: "forbidden" });
      expect(JSON.stringify(result)).toContain(reason);
    }
    // The sheet's button is told so on the player's own client, before any dialog or request.
    const requestsBefore = table.server.messages.size;
    expect(await alice.run(() => makeAttack(fromUuidSync(itemUuid(CAST.kestrel, "punch")) as never, { targetUuids: [`Actor.${CAST.gravel}`], skipDialog: true }))).toBeNull();
    expect(alice.notified.at(-1)).toEqual({ level: "warn", text: "Kestrel, the Unbreakable Sentinel of the Northern Reach cannot attack: Stunned." });
    expect(table.server.messages.size).toBe(requestsBefore);
    expect(cards()).toEqual([]);
    expect(JSON.stringify([...table.server.actors.values()])).toBe(actorsBefore);
    // In a running combat too, where the turn knows the stun.
    await seatTurn("resolve", 1, [{ actorId: CAST.shade, turn: { stunTurns: 1 } }, { actorId: CAST.kestrel, turn: {} }]);
    expect(await attack(gm, CAST.shade, "punch", [CAST.kestrel])).toMatchObject({ ok: false, reason: "forbidden" });
    expect(cards()).toEqual([]);
  });

  it("helpless only no defence: a Stunned, an Unconscious and a Dying target are offered only No defence", async () => {
    const { alice, bob, gm } = table.clients;
    condition(CAST.kestrel, "stunned", { turns: 2 });
    condition(CAST.wren, "unconscious");
    condition(CAST.shade, "dying", { aided: false });
    await reload();
    const id = await attacked(gm, CAST.gravel, "blast", [CAST.kestrel, CAST.wren, CAST.shade]);
    // The GM's handler: a Dodge is refused with the reason, nothing written; No defence is taken.
    const before = table.server.messages.get(id)?.system.revision;
    for (const [client, key, reason] of [[alice, "0", "Stunned"], [bob, "1", "Unconscious"], [gm, "2", "dying and not aided"]] as const) {
      const refused = await client.click(defendQuery, { messageId: id, targetKey: key, defence: "dodge" });
      expect(refused).toMatchObject({ ok: false, reason: "forbidden" });
      expect(JSON.stringify(refused)).toContain(reason);
    }
    await table.settle();
    expect(table.server.messages.get(id)?.system.revision).toBe(before);
    expect(table.rolled).toEqual([]);
    // The buttons: each owner is offered No defence and nothing else.
    for (const [client, key] of [[alice, "0"], [bob, "1"], [gm, "2"]] as const) {
      const row = await client.run(async () => {
        const viewer = currentViewer();
        const view = attackCardContext(card(id), viewer, { hideNpcDefences: true, ownersApplyDamage: false, mayDefend: await mayDefendFor(card(id), viewer) });
        return view.rows.find((r) => r.key === key);
      });
      expect(row, client.user.name).toMatchObject({ canDefend: true, defenceButtons: [] });
    }
    table.dice.push(60);
    expect(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(card(id).targets[0]?.defence?.code).toBe("none");
  });

  it("unconscious gets no actions: the tracker skips them and says why", async () => {
    const { gm, alice } = table.clients;
    condition(CAST.wren, "unconscious");
    const [kestrel, wren, gravel] = await seatTurn("resolve", 1, [
      { actorId: CAST.kestrel, turn: {} },
      { actorId: CAST.wren, turn: {} },
      { actorId: CAST.gravel, turn: {} },
    ]);
    const context = trackerOf(gm);
    const row = context.rows.find((r) => r.id === wren);
    expect(row).toMatchObject({ actionsLeft: 0, actionsAllowed: 0 });
    expect(row?.css).toContain("cannot-act");
    expect(row?.statuses.map((s) => s.label)).toContain("Unconscious: no actions");
    expect(context.current?.id).toBe(kestrel);
    expect(await alice.click(completeActionQuery, { combatId: COMBAT, combatantId: kestrel, actionIndex: 0 })).toMatchObject({ ok: true });
    await table.settle();
    // Kestrel done: Wren is passed over, Gravel acts.
    const now = turnOf(gm);
    expect(now.combat.order[now.combat.cursor]).toBe(gravel);
  });

  it("attack spends the action: an attack in the attacker's action spends it; one out of turn is refused", async () => {
    const { alice, bob, gm } = table.clients;
    const [kestrel, wren] = await seatTurn("resolve", 1, [
      { actorId: CAST.kestrel, turn: {} },
      { actorId: CAST.wren, turn: {} },
      { actorId: CAST.gravel, turn: {} },
    ]);
    // Out of turn: Wren's attack while Kestrel acts is refused, and nothing is written.
    const early = await attack(bob, CAST.wren, "punch", [CAST.gravel]);
    expect(early).toMatchObject({ ok: false, reason: "stale" });
    expect(JSON.stringify(early)).toContain("It is not Wren's action");
    expect(cards()).toEqual([]);
    // Kestrel's attack is her action: the tracker moves on to Wren.
    await attacked(alice, CAST.kestrel, "punch", [CAST.gravel]);
    const after = turnOf(gm);
    expect(after.combatants.get(kestrel ?? "")).toMatchObject({ actionsUsed: 1, actedInRound: 1 });
    expect(after.combat.order[after.combat.cursor]).toBe(wren);
    // A second attack by Kestrel now is out of turn.
    expect(await attack(alice, CAST.kestrel, "punch", [CAST.gravel])).toMatchObject({ ok: false, reason: "stale" });
    expect(cards()).toHaveLength(1);
    expect(turnOf(gm).combatants.get(kestrel ?? "")?.actionsUsed).toBe(1);
    // With the world setting off, an attack out of turn is only flagged on its card, and spends nothing.
    table.server.settings.set("case.attacksInTurn", false);
    const flagged = await attacked(gm, CAST.gravel, "punch", [CAST.kestrel]);
    expect(card(flagged).outOfTurn).toBe(true);
    expect(turnOf(gm).combat.order[turnOf(gm).combat.cursor]).toBe(wren);
    expect(TABLE_USERS.gm.id).toBe(table.server.messages.get(flagged)?.author);
  });

  it("attack spends the action: with the setting off, an attack while the combat waits in Declare is flagged, and its target still defends (rolled, not counted)", async () => {
    const { alice, gm } = table.clients;
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.gravel]);
    table.server.settings.set("case.attacksInTurn", false);
    await reload();
    expect(turnOf(gm).combat.phase).toBe("declare");
    const id = await attacked(gm, CAST.gravel, "punch", [CAST.kestrel]);
    expect(card(id).outOfTurn).toBe(true);
    table.dice.push(50, 50);
    const defended = await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "weave" });
    await table.settle();
    expect(defended).toEqual({ ok: true, value: null });
    expect(card(id).targets[0]?.defence?.code).toBe("weave");
    expect([...turnOf(gm).combatants.values()].map((c) => c.defencesUsed)).toEqual([0, 0]);
  });
});
