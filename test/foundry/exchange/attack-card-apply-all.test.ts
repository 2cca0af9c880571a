/**
 * Apply all: the GM's one request that applies the damage of every resolved row, and *Roll all
 * due checks*, each looping the single-row handlers' logic under the card lock, on the test
 * world (the real router, handlers, card store and ledger). A retried request changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB, FakeActor, FakeMessage, GM, characterSource, installWorld, targetOfActor, type World } from "../../support/exchange-world";
import { applyAllQuery, applyDamageQuery, rollAllChecksQuery } from "../../../src/foundry/exchange/gm-actions";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { ATTACKS, createExchange, declineDefence, rollToHit, type ExchangeState } from "../../../src/rules/index";
import { readExchangeForTest } from "../../support/exchange-fixtures";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll } from "../../support/html";
import { statusId } from "../../../src/foundry/status-effects";
import { exchangeInput } from "../../support/exchange-input";

const MESSAGE_ID = "msg0000000000001";
let world: World;
let kestrel: FakeActor; // Alice's
let wren: FakeActor; // Bob's
let gravel: FakeActor; // the GM's
let message: FakeMessage;

function card(): ExchangeState {
  return readExchangeForTest(message.system.exchange);
}

/** Gravel's red Blunt Attack (40 damage) on both heroes, neither defending: each calls for Stun?. */
function twoHits(): ExchangeState {
  const g = gravel.system;
  let s = createExchange(exchangeInput({
    attacker: { uuid: gravel.uuid, name: gravel.name, value: g.score(ATTACKS.BA.rollsOn), strength: g.score("strength.mgt"), armor: 0 },
    targets: [targetOfActor(kestrel), targetOfActor(wren)],
  }));
  for (const key of ["0", "1"]) s = rollToHit(declineDefence(s, key), key, { die: 99 });
  return s;
}

beforeEach(() => {
  world = installWorld();
  kestrel = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  wren = new FakeActor("hero000000000002", "Wren", "hero", characterSource({ agility: 20, strength: 20, endurance: 30 }), [BOB.id]);
  gravel = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
  for (const a of [kestrel, wren, gravel]) world.actors.set(a.id, a);
  message = new FakeMessage(MESSAGE_ID, twoHits());
  world.messages.set(MESSAGE_ID, message);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const health = () => [kestrel.system.health.value, wren.system.health.value];

describe("apply all", () => {
  it("apply all: the buttons are the GM's alone, and only when two rows or more have something to do", () => {
    const gm: Viewer = { isGM: true, owns: () => true, isNpc: () => false };
    const alice: Viewer = { isGM: false, owns: (uuid) => uuid === kestrel.uuid, isNpc: () => false };
    const settings = { hideNpcDefences: false, ownersApplyDamage: true };
    const buttons = (v: Viewer, s: ExchangeState) => queryAll(parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(s, v, settings))), "[data-action]").map((b) => b.attribs["data-action"]);
    expect(buttons(gm, card())).toContain("caseApplyAll");
    expect(buttons(alice, card())).not.toContain("caseApplyAll");
    expect(buttons(gm, card())).not.toContain("caseRollAllChecks");
  });

  it("apply all: one request applies every resolved row; a retry of it changes nothing; a new one is refused as stale", async () => {
    const before = health();
    // A player may not ask for it, even one who may apply damage to their own character.
    world.settings.set("case.damageAppliedBy", "owners");
    expect(await world.ask(applyAllQuery, ALICE.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(health()).toEqual(before);

    expect(await world.ask(applyAllQuery, GM.id, { messageId: MESSAGE_ID }, "applyAllRequest01")).toMatchObject({ ok: true });
    expect(health()).toEqual(before.map((h) => h - 40));
    expect(card().targets.map((t) => t.phase)).toEqual(["applied", "applied"]);
    const revision = message.system.revision;

    // The same request again (a GM reload, a replay): nothing more is written.
    expect(await world.ask(applyAllQuery, GM.id, { messageId: MESSAGE_ID }, "applyAllRequest01")).toMatchObject({ ok: true });
    expect(health()).toEqual(before.map((h) => h - 40));
    expect(message.system.revision).toBe(revision);
    // A new request finds nothing to apply.
    expect(await world.ask(applyAllQuery, GM.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: false, reason: "stale" });
    expect(health()).toEqual(before.map((h) => h - 40));
  });

  it("apply all: a row applied by hand first is left alone; the others are applied", async () => {
    const before = health();
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "1" })).toMatchObject({ ok: true });
    expect(await world.ask(applyAllQuery, GM.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: true });
    expect(health()).toEqual(before.map((h) => h - 40));
  });

  it("apply all: roll all due checks rolls every due Stun? in one request, with their effects; a retry rolls nothing", async () => {
    expect(await world.ask(applyAllQuery, GM.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: true });
    expect(card().targets.flatMap((t) => t.consequences.map((c) => c.check))).toEqual(["stun", "stun"]);
    // Stun? on End (res) Remarkable: 40 is green (one turn); each check rolls its d100, then a d10.
    world.dice.push(40, 3, 40, 3);
    expect(await world.ask(rollAllChecksQuery, GM.id, { messageId: MESSAGE_ID }, "rollAllRequest01")).toMatchObject({ ok: true });
    expect(world.dice).toEqual([]);
    expect(card().targets.map((t) => t.consequences[0]?.outcome)).toEqual([
      expect.objectContaining({ check: "stun", result: "oneTurn", turns: 1 }),
      expect.objectContaining({ check: "stun", result: "oneTurn", turns: 1 }),
    ]);
    expect(kestrel.statuses.has(statusId("stunned"))).toBe(true);
    expect(wren.statuses.has(statusId("stunned"))).toBe(true);
    const revision = message.system.revision;
    // Retried: no die is asked for (none is queued: a roll would throw), the card stands.
    expect(await world.ask(rollAllChecksQuery, GM.id, { messageId: MESSAGE_ID }, "rollAllRequest01")).toMatchObject({ ok: true });
    expect(message.system.revision).toBe(revision);
    expect(await world.ask(rollAllChecksQuery, BOB.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: false, reason: "forbidden" });
  });
});
