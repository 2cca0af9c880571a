/**
 * Issue 11's "verify end to end" items, through the GM's real handlers on the exchange doubles:
 * a character struck while at 0 Health checks Kill?; Health reaching 0 makes the character
 * Unconscious (the world's ruling, rules recovery.ts); Catch is offered against Shooting
 * (errata §6) to a defender fast enough, and only to one.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, GM, characterSource, installWorld, kestrelAndGravel, type FakeMessage, type World } from "../../support/exchange-world";
import { applyDamageQuery, consequenceQuery, defendQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { attackCardContext } from "../../../src/foundry/exchange/card-context";
import { loadCard } from "../../../src/foundry/exchange/card-store";
import { statusId } from "../../../src/foundry/status-effects";
import { actorLock, loseEnduranceRank, regenerate } from "../../../src/foundry/actor-writes";
import { LockScope } from "../../../src/foundry/requests/locks";
import { regenerationRank } from "../../../src/foundry/combat/foundry-host";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../support/html";

let world: World;
let hero: FakeActor;
let villain: FakeActor;

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const FISTS = { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } };
const PISTOL = { attack: { enabled: true, type: "Sh", range: 5, pullable: false }, damage: { mode: "rank", rank: 10 }, materialStrength: 20, ammunition: { tracked: false, value: 0, max: 0 } };

function weapon(actor: FakeActor, system: Record<string, unknown>, name: string): Item.Implementation {
  const made = { type: "weapon", name, actor, system, uuid: `${actor.uuid}.Item.item000000000${String(actor.items.length + 1).padStart(3, "0")}`, documentName: "Item" };
  actor.items.push(made);
  return made as unknown as Item.Implementation;
}

function lastCard(): FakeMessage {
  const card = [...world.messages.values()].filter((m) => m.type === "attack").at(-1);
  if (!card) throw new Error("no attack card");
  return card;
}

/** Gravel (the GM's) punches Kestrel, unaware: the GM rolls the to-hit (60 on Ftg (off) Incredible: green, a Hit for 40). */
async function gravelPunchesKestrel(): Promise<string> {
  const fists = weapon(villain, FISTS, "Fists");
  world.dice.push(60);
  expect(await world.ask(attackQuery, GM.id, { itemUuid: fists.uuid, targetUuids: [hero.uuid], input: { blindsided: true } })).toMatchObject({ ok: true });
  return lastCard().id;
}

describe("struck while at 0 Health (§8), end to end", () => {
  it("a character struck while at 0 Health checks Kill?, and a white roll costs an Endurance rank", async () => {
    await hero.update({ "system.health.value": 0 });
    const messageId = await gravelPunchesKestrel();
    expect(await world.ask(applyDamageQuery, GM.id, { messageId, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(0);
    const row = loadCard(messageId).state.targets[0];
    expect(row?.consequences.map((c) => [c.check, c.cause])).toEqual([["kill", "health"]]);
    world.dice.push(5); // Kill? on End (res) Remarkable 30: white
    expect(await world.ask(consequenceQuery, ALICE.id, { messageId, targetKey: "0", check: "kill" })).toMatchObject({ ok: true });
    expect(hero.statuses.has(statusId("dying"))).toBe(true);
  });

  it("unconscious at 0 Health: reaching 0 sets Unconscious, undo takes it off; the world's ruling can turn it off", async () => {
    await hero.update({ "system.health.value": 30 });
    const messageId = await gravelPunchesKestrel();
    await world.ask(applyDamageQuery, GM.id, { messageId, targetKey: "0" });
    expect(hero.system.health.value).toBe(0);
    expect(hero.statuses.has(statusId("unconscious"))).toBe(true);
    expect(await world.ask(undoDamageQuery, GM.id, { messageId, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(30);
    expect(hero.statuses.has(statusId("unconscious"))).toBe(false);
    // The card shows the voided row as "Undone", with no button on it but finding and opening the target.
    const html = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(loadCard(messageId).state, { isGM: true, owns: () => true, isNpc: () => false }, { hideNpcDefences: false, ownersApplyDamage: true })));
    const row = queryAll(html, "li.target-row")[0];
    expect(row ? attr(row, "class") : "").toContain("phase-undone");
    expect(queryAll(html, ".target-phase").map((e) => text(e).trim())).toEqual(["Undone"]);
    expect(queryAll(html, "[data-action]").map((b) => attr(b, "data-action")).filter((a) => a !== "caseSelectToken" && a !== "caseOpenTarget")).toEqual([]);

    // The undone row is voided (UNDO_VOIDS_THE_ROW): the next hit is a new attack.
    world.settings.set("case.unconsciousAtZeroHealth", false);
    const again = await gravelPunchesKestrel();
    await world.ask(applyDamageQuery, GM.id, { messageId: again, targetKey: "0" });
    expect(hero.system.health.value).toBe(0);
    expect(hero.statuses.has(statusId("unconscious"))).toBe(false);
  });
});

describe("Catch against Shooting (errata §6), end to end", () => {
  function defences(messageId: string): string[] {
    const state = loadCard(messageId).state;
    const html = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, { isGM: true, owns: () => true, isNpc: () => false }, { hideNpcDefences: false, ownersApplyDamage: false }));
    return queryAll(parseHtml(html), '[data-action="caseDefend"]').map((b) => attr(b, "data-defence") ?? "").sort();
  }

  it("Catch is offered against Shooting to a defender with Unearthly Agility (bullets), and a caught shot does no damage", async () => {
    const quick = new FakeActor("quick00000000001", "Quicksilver Lass", "hero", characterSource({ agility: 100, strength: 20, endurance: 30 }), [ALICE.id]);
    world.actors.set(quick.id, quick);
    const pistol = weapon(villain, PISTOL, "Pistol");
    expect(await world.ask(attackQuery, GM.id, { itemUuid: pistol.uuid, targetUuids: [quick.uuid], input: {} })).toMatchObject({ ok: true });
    const messageId = lastCard().id;
    expect(defences(messageId)).toEqual(["catch", "dodge", "feint", "none"]);
    world.dice.push(100, 50); // Catch: red on any column; then the to-hit
    expect(await world.ask(defendQuery, ALICE.id, { messageId, targetKey: "0", defence: "catch" })).toMatchObject({ ok: true });
    const row = loadCard(messageId).state.targets[0];
    expect(row?.defence?.outcome.catchResult).toBe("caught");
    expect(row?.damage?.dealt ?? 0).toBe(0);
  });

  it("Catch is not offered against Shooting to a defender too slow for bullets (Remarkable Agility)", async () => {
    const pistol = weapon(villain, PISTOL, "Pistol");
    expect(await world.ask(attackQuery, GM.id, { itemUuid: pistol.uuid, targetUuids: [hero.uuid], input: {} })).toMatchObject({ ok: true });
    expect(defences(lastCard().id)).toEqual(["dodge", "feint", "none"]);
  });
});

describe("regeneration and recovery in the wrap-up step (the writer's side)", () => {
  /** The locks of the turn's request as the router hands them down: the hero's actor. */
  const heroScope = () => new LockScope([actorLock(hero.uuid)]);

  it("a wrap-up write outside a scope holding the actor's lock is refused, nothing written", async () => {
    await hero.update({ "system.health.value": 100 });
    await expect(regenerate(new LockScope([]), hero as unknown as Actor.Implementation, "regen:c:9:h", 6)).rejects.toThrow(/without holding its lock/);
    expect(hero.system.health.value).toBe(100);
  });

  it("regeneration: the wrap-up's Health is added with a ledger entry, capped at the maximum, and a replay adds nothing", async () => {
    await hero.update({ "system.health.value": 100 });
    const max = hero.system.health.max;
    expect(await regenerate(heroScope(), hero as unknown as Actor.Implementation, "regen:c:2:h", 6)).toBe(Math.min(max, 106));
    expect(hero.system.health.value).toBe(Math.min(max, 106));
    expect(await regenerate(heroScope(), hero as unknown as Actor.Implementation, "regen:c:2:h", 6)).toBe(Math.min(max, 106));
    expect(hero.system.health.value).toBe(Math.min(max, 106));
    expect(await regenerate(heroScope(), hero as unknown as Actor.Implementation, "regen:c:3:h", 50)).toBe(max);
  });

  it("lost Endurance at wrap-up: a rank is recorded once per combat, turn and combatant; a replay or going back a step and on again takes no second rank", async () => {
    // Kestrel's Endurance is Remarkable (30): one rank down is Excellent (20).
    const actor = hero as unknown as Actor.Implementation;
    expect(hero.system.endurance).toMatchObject({ beforeLoss: 30, lost: 0, value: 30 });
    expect(await loseEnduranceRank(heroScope(), actor, "dying:c:2:h", { value: 20, dead: false })).toBe(1);
    expect(hero.system.endurance).toMatchObject({ lost: 1, value: 20 });
    // The same wrap-up again (the rules now read 20 and ask for 10): nothing more is lost.
    expect(await loseEnduranceRank(heroScope(), actor, "dying:c:2:h", { value: 10, dead: false })).toBe(1);
    expect(hero.system.endurance).toMatchObject({ lost: 1, value: 20 });
    // The next turn's wrap-up takes the next rank.
    expect(await loseEnduranceRank(heroScope(), actor, "dying:c:3:h", { value: 10, dead: false })).toBe(2);
    expect(hero.system.endurance).toMatchObject({ beforeLoss: 30, lost: 2, value: 10 });
  });

  it("regeneration: the rank is the best power marked as regenerating (0 for none)", () => {
    expect(regenerationRank(hero as unknown as Actor.Implementation)).toBe(0);
    hero.items.push({ type: "power", name: "Regeneration", system: { rank: 20, regeneration: true } });
    hero.items.push({ type: "power", name: "Flight", system: { rank: 75, regeneration: false } });
    expect(regenerationRank(hero as unknown as Actor.Implementation)).toBe(20);
  });
});
