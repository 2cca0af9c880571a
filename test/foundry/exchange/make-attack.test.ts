/**
 * Making an attack (src/foundry/exchange/make-attack.ts), in its two halves: the GM half
 * (attackQuery) builds the exchange from the actors the GM holds and writes the card, as a GM
 * (players never write attack cards); the client half asks and returns the GM's card.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FakeMessage} from "../../support/exchange-world";
import { ALICE, BOB, FakeActor, GM, characterSource, installWorld, type World } from "../../support/exchange-world";
import { attackQuery, makeAttack } from "../../../src/foundry/exchange/make-attack";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { replayKarmaLog, type ExchangeState, type KarmaLogEntry } from "../../../src/rules/index";
import { attackCardContext } from "../../../src/foundry/exchange/card-context";
import { loadCard } from "../../../src/foundry/exchange/card-store";
import { renderTemplate } from "../../support/handlebars";
import { NO_COMBAT, type CombatBridge } from "../../../src/foundry/combat/bridge";
import { combatLock } from "../../../src/foundry/combat/turn-host";
import { spendAttackAction } from "../../../src/foundry/combat/turn-feed";
import { LockScope } from "../../../src/foundry/requests/locks";
import { DEFAULT_TURN_SETTINGS, createCombatTurn, createCombatantTurn, createTurnState } from "../../../src/rules/index";
import { parseHtml, text } from "../../support/html";

let world: World;
let hero: FakeActor;
let villain: FakeActor;

function item(actor: FakeActor, system: Record<string, unknown>, type = "weapon", name = "Sling") {
  const made = { type, name, actor, system, uuid: `${actor.uuid}.Item.item000000000${String(actor.items.length + 1).padStart(3, "0")}`, documentName: "Item" };
  actor.items.push(made);
  return made as unknown as Item.Implementation;
}

const SLING = { attack: { enabled: true, type: "BT", range: 1, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } };
const FISTS = { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } };

function cards(): FakeMessage[] {
  return [...world.messages.values()].filter((m) => m.type === "attack");
}

function cardState(card: FakeMessage | undefined): ExchangeState {
  return readExchange(card?.system.exchange);
}

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
  villain.items.push({ type: "armor", name: "Plating", system: { equipped: true, physical: 20, energy: 10 } });
  villain.items.push({ type: "armor", name: "Spare vest", system: { equipped: false, physical: 40, energy: 40 } });
  hero.items.push({ type: "talent", name: "Marksman", system: { covers: ["agility.dex"], doubled: false } });
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the GM writes the attack card (attackQuery)", () => {
  it("builds the exchange from the actors it holds: scores, best equipped armor, damage and talent shifts; the card's author is the GM", async () => {
    const sling = item(hero, SLING);
    const result = await world.ask(attackQuery, ALICE.id, { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: {} });
    expect(result).toMatchObject({ ok: true });
    const [card] = cards();
    expect(card?.author.isGM).toBe(true);
    const state = cardState(card);
    expect(state.attack).toBe("BT");
    expect(state.attacker).toMatchObject({ uuid: hero.uuid, name: "Kestrel", value: 30, strength: 20 });
    expect(state.damage).toEqual({ method: "static", value: 20 }); // the wielder's Strength
    expect(state.toHitCs).toEqual([{ cs: 1, label: "Marksman", localize: false }]);
    expect(state.targets[0]).toMatchObject({ uuid: villain.uuid, name: "Gravel", phase: "awaitingDefence" });
    // An NPC target's scores and armor are not on the card every player receives: the GM's record keeps them.
    expect(state.targets[0]).toMatchObject({ sealed: true, scores: { "agility.bal": 0, "fighting.def": 0, "strength.mgt": 0, "endurance.res": 0 }, armor: { body: 0, energy: 0 } });
    const record = world.messages.get(String(card?.system.recordId));
    expect(record?.type).toBe("attackRecord");
    expect(JSON.stringify(record?.system)).toContain('"fighting.def":40');
    expect(JSON.stringify(card?.system)).not.toContain('"fighting.def":40');
  });

  it("refuses a user who does not own the attacker, and writes nothing", async () => {
    const sling = item(hero, SLING);
    expect(await world.ask(attackQuery, BOB.id, { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: {} })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(world.messages.size).toBe(0);
  });

  it("re-checks the inputs: Karma beyond the attacker's pool, a bad shift or too many targets are refused", async () => {
    const sling = item(hero, SLING);
    for (const payload of [
      { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: { karma: 500 } },
      { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: { cs: 99 } },
      { itemUuid: sling.uuid, targetUuids: Array.from({ length: 21 }, (_, i) => `Actor.x${String(i)}`), input: {} },
      { itemUuid: sling.uuid, targetUuids: [], input: {} },
      { itemUuid: "<script>", targetUuids: [villain.uuid], input: {} },
    ]) {
      expect(await world.ask(attackQuery, ALICE.id, payload)).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(world.messages.size).toBe(0);
    expect(hero.system.karma.value).toBe(30);
  });

  it("spends the Karma on the GM, once: a replay of the request answers with the same card", async () => {
    const sling = item(hero, SLING);
    const payload = { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: { karma: 10 } };
    const first = await world.ask(attackQuery, ALICE.id, payload);
    expect(hero.system.karma.value).toBe(20);
    expect(cardState(cards()[0]).karma).toBe(10);
    expect(first).toMatchObject({ ok: true, value: { messageId: cards()[0]?.id } });
  });

  it("karma log: Karma spent on an attack is logged in the same write as the pool and the ledger entry", async () => {
    const sling = item(hero, SLING);
    const payload = { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: { karma: 10 } };
    await world.ask(attackQuery, ALICE.id, payload);
    const karmaWrites = hero.updates.filter((u) => "system.karma.value" in u);
    expect(karmaWrites).toHaveLength(1);
    expect(Object.keys(karmaWrites[0] ?? {}).sort()).toEqual(["flags.case.ledger", "system.karma.value", "system.karmaLog"]);
    const log = (hero.system as unknown as { karmaLog: KarmaLogEntry[] }).karmaLog;
    expect(log).toEqual([expect.objectContaining({ kind: "spend", amount: 10, balanceAfter: 20 })]);
    expect(log[0]?.reason).toContain("Sling");
    expect(replayKarmaLog(30, log)).toBe(20);
  });

  it("blindsided targets: the GM rolls their to-hit before the card is posted", async () => {
    const fists = item(hero, FISTS, "weapon", "Fists");
    world.dice.push(60);
    expect(await world.ask(attackQuery, ALICE.id, { itemUuid: fists.uuid, targetUuids: [villain.uuid], input: { blindsided: true } })).toMatchObject({ ok: true });
    const state = cardState(cards()[0]);
    expect(state.targets[0]?.phase).toBe("resolved");
    expect(state.targets[0]?.toHit?.die).toBe(60);
    expect(cards()[0]?.rolls).toHaveLength(1);
  });
});

describe("a combat that starts while the attack waits", () => {
  /** Kestrel's standing in a started combat in its resolve phase, on Kestrel's action. */
  function inCombat(): CombatBridge["standing"] {
    const combatant = createCombatantTurn("cbt0000000000001", { initiativeModifier: 0, offence: 30, balance: 30, freeDefences: 1, endurance: 30 });
    const state = createTurnState([combatant], DEFAULT_TURN_SETTINGS, { ...createCombatTurn(), phase: "resolve", order: [combatant.id], cursor: 0 });
    return () => Promise.resolve({ combatId: "combat0000000001", combatantId: combatant.id, state, combatant });
  }

  it("attack after card: an attack whose request did not declare the combat that started meanwhile is refused as stale before anything is written", async () => {
    world.settings.set("case.attacksInTurn", true);
    // The locks were declared with no combat; by the time the handler runs, Kestrel is on their action in one.
    world.services.combat = { ...NO_COMBAT, combatLocks: () => [], standing: inCombat(), spendAction: (scope, combatId) => (scope.require(combatLock(combatId)), Promise.resolve()) };
    const sling = item(hero, SLING);
    const karma = hero.system.karma.value;
    const result = await world.ask(attackQuery, ALICE.id, { itemUuid: sling.uuid, targetUuids: [villain.uuid], input: { karma: 10 } });
    expect(result).toMatchObject({ ok: false, reason: "stale", message: "The combat started meanwhile: attack again." });
    expect(cards()).toHaveLength(0);
    expect([...world.messages.values()].filter((m) => m.type === "attackRecord")).toHaveLength(0);
    expect(hero.system.karma.value).toBe(karma);
  });

  it("attack after card: a tracker that cannot be written once the card is does not turn the attack into a failure", async () => {
    const scope = new LockScope(["actor:x"]);
    const bridge: CombatBridge = { ...NO_COMBAT, spendAction: (s, combatId) => (s.require(combatLock(combatId)), Promise.resolve()) };
    const warn = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(spendAttackAction(bridge, scope, { combatId: "combat0000000001", combatantId: "cbt0000000000001", actionIndex: 0 })).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });
});

describe("obstacle material strength (the GM's attack handler)", () => {
  const RIFLE = { attack: { enabled: true, type: "Sh", range: 10, pullable: false }, damage: { mode: "rank", rank: 40 }, materialStrength: 20, ammunition: { tracked: false, value: 0, max: 0 } };

  it("obstacle material strength: the GM takes the objects' material strength off the damage before the armor, and the card shows each object", async () => {
    const rifle = item(hero, RIFLE, "weapon", "Rifle");
    world.dice.push(60); // Agy (dex) 30 +1 Marksman −4 (two objects) → Good: 60 is green, a Hit
    const input = JSON.parse(JSON.stringify({ blindsided: true, objects: "2", obstacleStrength: "10" })) as Record<string, unknown>;
    expect(await world.ask(attackQuery, ALICE.id, { itemUuid: rifle.uuid, targetUuids: [villain.uuid], input })).toMatchObject({ ok: true });
    const state = cardState(cards()[0]);
    expect(state.obstacles).toEqual([10, 10]);
    expect(state.toHitCs.map((c) => c.cs)).toEqual([1, -4]);
    // 40 − 10 − 10 (the two Good objects) − 20 (Gravel's plating) = 0 … the GM's record holds the armor
    const record = loadCard(String(cards()[0]?.id)).state;
    expect(record.targets[0]?.damage).toMatchObject({ raw: 40, obstacles: 20, armor: 20, dealt: 0 });
    const html = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, { isGM: false, owns: () => false, isNpc: (u) => u === villain.uuid }, { hideNpcDefences: false, ownersApplyDamage: false }));
    expect(text(parseHtml(html)).match(/Obstacle: Good material −10/g)).toHaveLength(2);
  });

  it("obstacle material strength that is not a rank number is refused with a clear message, and nothing is written", async () => {
    const rifle = item(hero, RIFLE, "weapon", "Rifle");
    const answer = await world.ask(attackQuery, ALICE.id, { itemUuid: rifle.uuid, targetUuids: [villain.uuid], input: { objects: 1, obstacleStrength: "-5" } });
    expect(answer).toMatchObject({ ok: false, reason: "malformed", message: "The material strength must be a rank number, 0 or more." });
    expect(world.messages.size).toBe(0);
  });
});

describe("Take and Full Hold as a Strength ACTION (errata §5, the world setting)", () => {
  const BEAR_HUG = { attack: { enabled: true, type: "Gp", range: 0, pullable: false }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } };

  it("the GM rolls the holder's Strength ACTION with the to-hit, and it decides Full Hold damage; the card shows the dice", async () => {
    world.settings.set("case.strengthContest", "action");
    const hug = item(villain, BEAR_HUG, "weapon", "Bear Hug");
    // Gravel's Str (mgt) Incredible 40 rolls Gp: 99 is red, a Full Hold; then his Strength ACTION against Kestrel's Excellent (20): green needed, 50 is green there.
    world.dice.push(99, 50);
    expect(await world.ask(attackQuery, GM.id, { itemUuid: hug.uuid, targetUuids: [hero.uuid], input: { blindsided: true } })).toMatchObject({ ok: true });
    const row = loadCard(String(cards()[0]?.id)).state.targets[0];
    expect(row?.toHit).toMatchObject({ result: "fullHold", contest: { die: 50, success: true } });
    expect(row?.damage?.dealt).toBe(40);
    expect(cards()[0]?.rolls).toHaveLength(2);
  });

  it("with the comparison ruling, no Strength die is rolled", async () => {
    const hug = item(villain, BEAR_HUG, "weapon", "Bear Hug");
    world.dice.push(99);
    expect(await world.ask(attackQuery, GM.id, { itemUuid: hug.uuid, targetUuids: [hero.uuid], input: { blindsided: true } })).toMatchObject({ ok: true });
    expect(loadCard(String(cards()[0]?.id)).state.targets[0]?.toHit?.contest).toBeUndefined();
    expect(world.dice).toEqual([]);
  });
});

describe("the attacker's client (makeAttack)", () => {
  it("with no target, warns and asks nothing", async () => {
    const sling = item(hero, SLING);
    (game as unknown as { user: unknown }).user = { ...ALICE, targets: new Set() };
    expect(await makeAttack(sling, { skipDialog: true })).toBeNull();
    expect(world.notifications.warn).toHaveBeenCalledWith("Target at least one token first (or drop the attack onto a token).");
    expect(world.messages.size).toBe(0);
  });

  it("an item that does not attack is refused clearly", async () => {
    const shield = item(hero, { ...FISTS, attack: { enabled: false, type: "BA", range: 0, pullable: true } });
    expect(await makeAttack(shield, { targetUuids: [villain.uuid], skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("This item does not make an attack.");
  });

  it("with no GM connected: the user is told, and no card is written", async () => {
    const sling = item(hero, SLING);
    (game as unknown as { user: unknown }).user = { ...ALICE, targets: new Set() };
    expect(await makeAttack(sling, { targetUuids: [villain.uuid], skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("No Judge is connected, so nothing was changed. Ask your Judge to join, then click again.");
    expect(world.messages.size).toBe(0);
  });

  it("the GM's own click runs in place and returns the card", async () => {
    const sling = item(villain, { ...SLING, attack: { ...SLING.attack, type: "BT" } });
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    const message = await makeAttack(sling, { targetUuids: [hero.uuid], skipDialog: true });
    expect(message).toBe(cards()[0]);
    expect(cardState(cards()[0]).targets[0]).toMatchObject({ uuid: hero.uuid, sealed: false, scores: { "agility.bal": 30 } });
  });
});
