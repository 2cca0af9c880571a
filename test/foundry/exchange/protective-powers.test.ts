/**
 * Protective powers in an attack (issue 11, item 1): the GM's attack (attackQuery) collects every
 * protection source of the target (equipped armor AND powers whose protection is up) and the
 * rules pick the best against the attack's type; the charger's own protection and the target's
 * rebound on a charge read the same sources.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, GM, characterSource, installWorld, type FakeMessage, type World } from "../../support/exchange-world";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { protectionAgainstAttack } from "../../../src/foundry/exchange/protection";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { loadCard } from "../../../src/foundry/exchange/card-store";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { chargeReboundDamage, combineProtection, type AttackCode, type ExchangeState } from "../../../src/rules/index";

let world: World;
let hero: FakeActor;
let target: FakeActor;

const NO_AMMO = { tracked: false, value: 0, max: 0 };
function weapon(actor: FakeActor, type: AttackCode, name = "Sling") {
  const made = {
    type: "weapon",
    name,
    actor,
    documentName: "Item",
    uuid: `${actor.uuid}.Item.weapon0000000${String(actor.items.length + 1).padStart(3, "0")}`,
    system: { attack: { enabled: true, type, range: type === "Ch" ? 0 : 3, pullable: true }, damage: { mode: "rank", rank: 20 }, materialStrength: 10, ammunition: NO_AMMO, equipped: true },
  };
  actor.items.push(made);
  return made as unknown as Item.Implementation;
}

interface Protection {
  active?: boolean;
  physical?: boolean;
  energy?: boolean;
  against?: AttackCode[];
  rank?: number | null;
}
function protectivePower(actor: FakeActor, name: string, rank: number, protection: Protection): void {
  actor.items.push({
    type: "power",
    name,
    system: {
      category: "physicalEnhancement",
      rank,
      duration: "",
      attack: { enabled: false, type: "En", range: 0, pullable: true },
      protection: { active: true, physical: false, energy: false, against: [], rank: null, ...protection },
    },
  });
}
function armor(actor: FakeActor, name: string, physical: number, energy: number, equipped = true): void {
  actor.items.push({ type: "armor", name, system: { physical, energy, equipped } });
}

function cards(): FakeMessage[] {
  return [...world.messages.values()].filter((m) => m.type === "attack");
}
function cardState(): ExchangeState {
  return readExchange(cards()[0]?.system.exchange);
}
async function attack(item: Item.Implementation, input: Record<string, unknown> = {}): Promise<ExchangeState> {
  expect(await world.ask(attackQuery, ALICE.id, { itemUuid: item.uuid, targetUuids: [target.uuid], input })).toMatchObject({ ok: true });
  return cardState();
}

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  // A hero target: its row is not sealed, so the card itself shows the armor the GM counted.
  target = new FakeActor("hero000000000002", "Mountainside", "hero", characterSource({ strength: 75, endurance: 50 }), []);
  world.actors.set(hero.id, hero);
  world.actors.set(target.id, target);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("protective powers in the GM's attack", () => {
  it("a protective power beats weaker armor: its rank (the power's own) is the target's body armor", async () => {
    armor(target, "Kevlar vest", 20, 6);
    protectivePower(target, "Granite Skin", 30, { physical: true });
    const state = await attack(weapon(hero, "BT"));
    expect(state.targets[0]?.armor).toEqual({ body: 30, energy: 6 });
  });

  it("a protective power loses to stronger armor: the armor counts, the two do not add up", async () => {
    armor(target, "Battle suit", 40, 0);
    protectivePower(target, "Granite Skin", 30, { physical: true });
    const state = await attack(weapon(hero, "BA", "Fists"));
    expect(state.targets[0]?.armor.body).toBe(40);
  });

  it("a protective power against energy protects against an Energy attack; a set-apart rank beats the power's rank", async () => {
    armor(target, "Kevlar vest", 20, 6);
    protectivePower(target, "Radiant Body", 10, { energy: true, rank: 40 });
    const state = await attack(weapon(hero, "En", "Blaster"));
    expect(state.targets[0]?.armor).toEqual({ body: 20, energy: 40 });
  });

  it("a protective power listed against Force protects against Force only; a dropped one protects against nothing", async () => {
    protectivePower(target, "Force Field", 40, { against: ["Fo"] });
    protectivePower(target, "Mystic Shield", 75, { physical: true, energy: true, active: false });
    expect((await attack(weapon(hero, "Fo", "Force Blast"))).targets[0]?.armor.body).toBe(40);
    world.messages.clear();
    expect((await attack(weapon(hero, "Sh", "Handgun"))).targets[0]?.armor.body).toBe(0);
  });

  it("an active effect that gives protection feeds the same sources as armor and powers: the best counts", async () => {
    armor(target, "Kevlar vest", 20, 6);
    // What CaseActor.applyActiveEffects does for a Ward effect (Foundry's order: base, effects, derived).
    target.system.prepareBaseData();
    target.system.applyEffectChanges([
      { effect: "Ward", key: "system.protection.physical", mode: 4, value: "30", ownRank: null },
      { effect: "Ward", key: "system.protection.energy", mode: 4, value: "4", ownRank: null },
    ]);
    target.system.prepareDerivedData();
    const state = await attack(weapon(hero, "BT"));
    expect(state.targets[0]?.armor).toEqual({ body: 30, energy: 6 });
  });

  it("protective power: the snapshot an exchange row carries reads the armor kind of each attack type", () => {
    const sources = [
      { name: "Kevlar vest", origin: "armor" as const, physical: 20, energy: 6 },
      { name: "Force Field", origin: "power" as const, physical: 0, energy: 0, against: { Fo: 40, Gp: 50 } },
    ];
    expect(protectionAgainstAttack(sources, "Fo")).toEqual({ body: 40, energy: 6 });
    expect(protectionAgainstAttack(sources, "En")).toEqual({ body: 20, energy: 6 });
    // Grappling is absorbed by neither kind: a Full Hold must overcome body protection, the best against Ch.
    expect(protectionAgainstAttack(sources, "Gp")).toEqual({ body: 20, energy: 6 });
    expect(protectionAgainstAttack([], "BA")).toEqual({ body: 0, energy: 0 });
  });

  it("a charger's rebound uses the target's protective power, and the charger's own protective power soaks it", async () => {
    protectivePower(target, "Granite Skin", 30, { physical: true });
    armor(target, "Kevlar vest", 10, 0);
    protectivePower(hero, "Body Armor", 10, { physical: true });
    world.dice.push(99);
    const state = await attack(weapon(hero, "Ch", "Charge"), { blindsided: true, chargeAreas: 1 });
    expect(state.attacker.armor).toBe(10);
    const row = state.targets[0];
    expect(row?.armor.body).toBe(30);
    expect(row?.toHit?.die).toBe(99);
    expect(row?.damage?.armor).toBe(30);
    expect(row?.damage?.rebound).toBe(chargeReboundDamage(30, 10));
    expect(row?.damage?.rebound).toBeGreaterThan(0);
  });

  it("an NPC target's protective power is kept in the GM's record, not on the public card", async () => {
    const npc = new FakeActor("villain000000001", "Sovereign Null", "npc", characterSource({ endurance: 75 }), []);
    world.actors.set(npc.id, npc);
    protectivePower(npc, "Null Carapace", 75, { physical: true });
    protectivePower(npc, "Energy Resistance", 50, { energy: true });
    expect(await world.ask(attackQuery, ALICE.id, { itemUuid: weapon(hero, "En", "Blaster").uuid, targetUuids: [npc.uuid], input: {} })).toMatchObject({ ok: true });
    expect(cardState().targets[0]?.armor).toEqual({ body: 0, energy: 0 });
    expect(loadCard(cards()[0]?.id ?? "").state.targets[0]?.armor).toEqual({ body: 75, energy: 50 });
  });

  it("a protective power combines with a Block by the buddy rule, as armor does", async () => {
    protectivePower(target, "Granite Skin", 30, { physical: true });
    await attack(weapon(hero, "BA", "Fists"));
    world.dice.push(95, 60);
    expect(await world.ask(defendQuery, GM.id, { messageId: cards()[0]?.id, targetKey: "0", defence: "block" })).toMatchObject({ ok: true });
    const damage = cardState().targets[0]?.damage;
    expect(damage?.armor).toBe(30);
    expect(damage?.defenceProtection).toBeGreaterThan(0);
    expect(damage?.protection).toBe(combineProtection(30, damage?.defenceProtection ?? 0));
  });
});
