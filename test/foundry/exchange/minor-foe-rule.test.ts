/**
 * The minor foe rule on the GM's side: applying a row's damage to an NPC marked "minor" follows
 * the world's setting. A foe taken out gets Foundry's defeated condition and its combatant is
 * marked defeated, under the actor's lock, with a ledger entry, so a retry or the finishing of a
 * cut step does it once; the card says "Out of the fight"; Undo brings the foe back. On the test
 * world (the real router, handlers, card store and ledger).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, FakeMessage, GM, characterSource, installWorld, targetOfActor, type World } from "../../support/exchange-world";
import { applyDamageQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { ATTACKS, createExchange, declineDefence, rollToHit, type ExchangeState } from "../../../src/rules/index";
import { ledgerOf } from "../../../src/foundry/actor-writes";
import { NO_COMBAT, type CombatBridge } from "../../../src/foundry/combat/bridge";
import { readExchangeForTest } from "../../support/exchange-fixtures";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, text } from "../../support/html";
import { exchangeInput } from "../../support/exchange-input";

const MESSAGE_ID = "msg0000000000001";
let world: World;
let kestrel: FakeActor;
let thug: FakeActor;
let boss: FakeActor;
let message: FakeMessage;
/** What the handlers asked the turn to mark, in order. */
let marks: { name: string; defeated: boolean }[];

function card(): ExchangeState {
  return readExchangeForTest(message.system.exchange);
}

/** Kestrel's red Blunt Attack (20 damage) on the thug and the boss, neither defending: each calls for Stun?. */
function redPunch(): ExchangeState {
  const k = kestrel.system;
  let s = createExchange(exchangeInput({
    attacker: { uuid: kestrel.uuid, name: kestrel.name, value: k.score(ATTACKS.BA.rollsOn), strength: k.score("strength.mgt"), armor: 0 },
    damage: { method: "static", value: 20 },
    targets: [targetOfActor(thug), targetOfActor(boss)],
  }));
  for (const key of ["0", "1"]) s = rollToHit(declineDefence(s, key), key, { die: 99 });
  return s;
}

const DEFEATED = "dead"; // the world's CONFIG.specialStatusEffects.DEFEATED

beforeEach(() => {
  world = installWorld();
  kestrel = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ fighting: 30, strength: 20 }), [ALICE.id]);
  thug = new FakeActor("thug000000000001", "Street Thug", "npc", { ...characterSource({ fighting: 10, agility: 10, strength: 10, endurance: 10 }), minor: true }, []);
  boss = new FakeActor("boss000000000001", "Crime Boss", "npc", characterSource({ fighting: 10, agility: 10, strength: 10, endurance: 10 }), []);
  for (const a of [kestrel, thug, boss]) world.actors.set(a.id, a);
  message = new FakeMessage(MESSAGE_ID, redPunch());
  world.messages.set(MESSAGE_ID, message);
  marks = [];
  const recording: CombatBridge = {
    ...NO_COMBAT,
    markDefeated: (_scope, actor, defeated) => {
      marks.push({ name: actor.name, defeated });
      return Promise.resolve();
    },
  };
  world.services.combat = recording;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const gmView: Viewer = { isGM: true, owns: () => true, isNpc: () => true };
const cardText = () => text(parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(card(), gmView, { hideNpcDefences: false, ownersApplyDamage: false }))));
const checkButtons = () => queryAll(parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(card(), gmView, { hideNpcDefences: false, ownersApplyDamage: false }))), "[data-action=\"caseConsequence\"]").map((b) => b.attribs["data-target-key"]);

describe("minor foe rule on the GM's apply-damage step", () => {
  it("minor foe rule 'normal' (the default): the minor foe takes its damage and its Stun? as anyone", async () => {
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(20);
    expect(card().targets[0]?.applied?.out).toBeUndefined();
    expect(thug.statuses.has(DEFEATED)).toBe(false);
    expect(marks).toEqual([]);
    expect(checkButtons()).toEqual(["0"]);
  });

  it("minor foe rule 'out on Slam/Stun': the thug is out of the fight (defeated, its combatant marked, a ledger entry), the boss is not; the card says so", async () => {
    world.settings.set("case.minorFoeRule", "outOnSlamOrStun");
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" }, "applyThug0000001")).toMatchObject({ ok: true });
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "1" })).toMatchObject({ ok: true });
    expect([thug.system.health.value, boss.system.health.value]).toEqual([20, 20]);
    expect(card().targets.map((t) => t.applied?.out === true)).toEqual([true, false]);
    expect(thug.statuses.has(DEFEATED)).toBe(true);
    expect(boss.statuses.has(DEFEATED)).toBe(false);
    expect(marks).toEqual([{ name: "Street Thug", defeated: true }]);
    expect(ledgerOf(thug).filter((e) => e.field === "flags.case.outOfFight")).toEqual([expect.objectContaining({ before: 0, after: 1 })]);
    // The thug has no check left; the boss still rolls Stun?.
    expect(checkButtons()).toEqual(["1"]);
    expect(cardText()).toContain("Out of the fight");

    // The same request again (a GM reload, a replay): nothing is written twice.
    const updates = thug.updates.length;
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" }, "applyThug0000001")).toMatchObject({ ok: true });
    expect(thug.updates.length).toBe(updates);
    expect(thug.system.health.value).toBe(20);
  });

  it("minor foe rule 'out on any damage': a card write cut after the effects is finished by the next step, and the foe is taken out once", async () => {
    world.settings.set("case.minorFoeRule", "outOnAnyDamage");
    const write = message.update.bind(message);
    let fail = true;
    message.update = (data) => {
      if (fail) {
        fail = false;
        return Promise.reject(new Error("The GM dropped."));
      }
      return write(data);
    };
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false });
    expect(thug.system.health.value).toBe(20);
    expect(card().targets[0]?.phase).toBe("resolved");
    // Another step on the card (the boss's damage) first finishes the thug's.
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "1" })).toMatchObject({ ok: true });
    expect(card().targets.map((t) => t.phase)).toEqual(["applied", "applied"]);
    expect(card().targets[0]?.applied?.out).toBe(true);
    expect(thug.system.health.value).toBe(20);
    expect(thug.effects.filter((e) => e.statuses.has(DEFEATED))).toHaveLength(1);
    expect(ledgerOf(thug).filter((e) => e.field === "flags.case.outOfFight")).toHaveLength(1);
  });

  it("minor foe rule: Undo gives back the Health and brings the foe back into the fight", async () => {
    world.settings.set("case.minorFoeRule", "outOnAnyDamage");
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(40);
    expect(thug.statuses.has(DEFEATED)).toBe(false);
    expect(marks).toEqual([{ name: "Street Thug", defeated: true }, { name: "Street Thug", defeated: false }]);
    // The row is voided (UNDO_VOIDS_THE_ROW): undone, no check left.
    expect(card().targets[0]?.phase).toBe("undone");
    expect(card().targets[0]?.consequences).toEqual([]);
    expect(cardText()).not.toContain("Out of the fight");
  });

  it("minor foe rule: undoing a later hit leaves a foe an earlier hit took out of the fight; undoing that hit brings it back", async () => {
    world.settings.set("case.minorFoeRule", "outOnAnyDamage");
    const second = new FakeMessage("msg0000000000002", redPunch());
    world.messages.set(second.id, second);
    const on = (messageId: string) => ({ messageId, targetKey: "0" });
    expect(await world.ask(applyDamageQuery, GM.id, on(MESSAGE_ID))).toMatchObject({ ok: true });
    expect(await world.ask(applyDamageQuery, GM.id, on(second.id))).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(0);

    expect(await world.ask(undoDamageQuery, GM.id, on(second.id))).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(20);
    expect(thug.statuses.has(DEFEATED)).toBe(true);
    expect(marks).toEqual([
      { name: "Street Thug", defeated: true },
      { name: "Street Thug", defeated: true },
    ]);

    expect(await world.ask(undoDamageQuery, GM.id, on(MESSAGE_ID))).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(40);
    expect(thug.statuses.has(DEFEATED)).toBe(false);
    expect(marks.at(-1)).toEqual({ name: "Street Thug", defeated: false });
  });

  it("minor foe rule: undoing a hit on a foe the GM had already marked defeated leaves it defeated", async () => {
    world.settings.set("case.minorFoeRule", "outOnAnyDamage");
    await thug.toggleStatusEffect(DEFEATED, { active: true, overlay: true });
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(thug.system.health.value).toBe(40);
    expect(thug.statuses.has(DEFEATED)).toBe(true);
    expect(marks.filter((m) => !m.defeated)).toEqual([]);
  });
});
