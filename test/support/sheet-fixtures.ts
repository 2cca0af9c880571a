/**
 * A hero, an NPC and their items, built as the system builds them: the real data models
 * (through the foundry test double), their derived data prepared, then handed to the sheets'
 * own context builders. The numbers are hand-worked in comments so tests can check them.
 */
import "./foundry-globals";
import { HeroData, NpcData } from "../../src/foundry/data/actor/character";
import { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "../../src/foundry/data/item/items";
import { characterSheetData, type CharacterSheetData, type CharacterSystemView } from "../../src/foundry/apps/sheet/sheet-context";
import type { ItemView } from "../../src/foundry/apps/sheet/item-rows";
import { itemSheetData, type ItemSheetData } from "../../src/foundry/apps/sheet/item-context";
import { HERO_PARTS, ITEM_PARTS, NPC_PARTS } from "../../src/foundry/apps/templates";
import { itemPartsFor } from "../../src/foundry/apps/sheet/item-sheet";

type ModelClass = new (source: Record<string, unknown>) => { prepareDerivedData(): void };

/** A data model instance from a source, derived data prepared — what `document.system` is in Foundry. */
export function model(Model: unknown, source: Record<string, unknown>): unknown {
  const m = new (Model as ModelClass)(source);
  m.prepareDerivedData();
  return m;
}

/**
 * Kestrel: Ftg Rm 30 with (def) set apart at In 40; Agy Ex 20 with (dex) set apart at Rm 30;
 * Str Gd 10; End Am 50; Rea Ty 6; Int In 40; Psy Gd 10.
 * Health max 30+20+10+50 = 110; Karma max 6+40+10 = 56. Initiative +4 (Incredible Intuition);
 * actions 2 (Rm Ftg (off)); free defences 2 (In Ftg (def)); running 2 areas (Gd Str (vgr));
 * thrown range 2 areas (Gd Str (mgt)). Resources Ex 20.
 */
export const HERO_SOURCE = {
  abilities: {
    fighting: { value: 30, off: null, def: 40 },
    agility: { value: 20, dex: 30, bal: null },
    strength: { value: 10, mgt: null, vgr: null },
    endurance: { value: 50, res: null, sta: null },
    reason: { value: 6 },
    intuition: { value: 40 },
    psyche: { value: 10 },
  },
  health: { value: 80 },
  karma: { value: 56 },
  resources: 20,
  popularity: 12,
  karmaLog: [
    { kind: "award", date: "2026-11-20T21:30:00Z", reason: "Stopped the dockside heist", amount: 40, balanceAfter: 76 },
    { kind: "spend", date: "2026-11-21T19:05:00Z", reason: "Roll: Fighting", amount: 20, balanceAfter: 56 },
  ],
  lostEnduranceRanks: 0,
  biography: "<p>Grew up on the <strong>docks</strong>.</p>",
  notes: "<p>Owes the Judge a favour.</p>",
};

export interface FixtureItem extends ItemView {
  readonly id: string;
  readonly isAttack: boolean;
}

function item(id: string, name: string, type: string, Model: unknown, source: Record<string, unknown>, sort: number): FixtureItem {
  const system = model(Model, source) as { attack?: { enabled: boolean } };
  const isAttack = (type === "power" || type === "weapon") && system.attack?.enabled === true;
  return { id, uuid: `Actor.kestrel.Item.${id}`, name, img: `icons/${id}.webp`, type, sort, system, isAttack };
}

/** Kestrel's items: two powers (one attacks), a talent, two weapons (one attacks), armor, a contact. */
export function heroItems(): FixtureItem[] {
  return [
    item("bolt", "Plasma Bolt", "power", PowerData, { category: "energyGeneration", rank: 40, duration: "instant", attack: { enabled: true, type: "En", range: 3 } }, 100),
    item("flight", "Flight", "power", PowerData, { category: "physicalEnhancement", rank: 20, attack: { enabled: false, type: "En", range: 0 } }, 200),
    item("marksman", "Marksman", "talent", TalentData, { covers: ["agility.dex", "Sh"], doubled: false }, 100),
    item("baton", "Stun Baton", "weapon", WeaponData, { attack: { enabled: true, type: "BA", range: 0 }, damage: { mode: "strength", rank: 10 } }, 100),
    item("hook", "Grappling Hook", "weapon", WeaponData, { attack: { enabled: false, type: "BT", range: 1 }, damage: { mode: "rank", rank: 6 }, equipped: false }, 200),
    item("kevlar", "Kevlar Suit", "armor", ArmorData, { physical: 10, energy: 0 }, 100),
    item("ruiz", "Detective Ruiz", "contact", ContactData, { rank: 10 }, 100),
  ];
}

/** Fifteen powers with long names (some attack, some protect, each described), as a real hero carries. */
export const FIFTEEN_POWER_NAMES = [
  "Plasma Bolt of the Burning Harbour Lighthouse",
  "Flight",
  "Kinetic Absorption Field with Rebound Discharge",
  "Force Field",
  "Sonic Scream",
  "Telepathic Link to Every Gull on the Docks",
  "Regeneration",
  "Shadow Step Across the Rooftops at Midnight",
  "Energy Solidification",
  "Danger Sense",
  "Magnetic Manipulation of Ship Hulls and Cranes",
  "Invisibility",
  "Weather Control: Fog Banks and Squalls",
  "Empathy",
  "Gravity Well",
] as const;

export function fifteenPowers(): FixtureItem[] {
  return FIFTEEN_POWER_NAMES.map((name, i) => {
    const attacks = i % 3 === 0;
    const protects = i === 2 || i === 3;
    return item(
      `p${String(i + 1).padStart(2, "0")}`,
      name,
      "power",
      PowerData,
      {
        category: ["energyGeneration", "physicalEnhancement", "mental", "energyControl", "matterControl"][i % 5],
        rank: [20, 30, 40, 50, 75][i % 5],
        duration: i % 4 === 0 ? "instant" : "",
        attack: { enabled: attacks, type: "En", range: attacks ? 3 : 0 },
        protection: { active: i !== 3, physical: protects, energy: protects, against: [] },
        description: `<p>${name}: the power as Kestrel uses it, with its limits and its <em>cost</em>.</p>`,
      },
      (i + 1) * 100,
    );
  });
}

/** Kestrel's items with fifteen powers in place of her two. */
export function heroItemsAtScale(): FixtureItem[] {
  return [...fifteenPowers(), ...heroItems().filter((i) => i.type !== "power")];
}

export function heroSystem(source: Record<string, unknown> = HERO_SOURCE): CharacterSystemView & { biography: string; notes: string } {
  return model(HeroData, source) as CharacterSystemView & { biography: string; notes: string };
}

/** One change of an effect as Foundry stores it (mode: CONST.ACTIVE_EFFECT_MODES, ADD 2 … OVERRIDE 5). */
type FixtureChange = { key: string; mode: number; value: string };

/** An effect as the Effects tab reads it, and the item carrying it (null: on the character). */
export interface FixtureEffect {
  readonly effect: { id: string; name: string; img: string | null; disabled: boolean; isSuppressed: boolean; changes: FixtureChange[] };
  readonly item: { id: string; name: string } | null;
}

/**
 * Kestrel's Active Effects: Super Strength from an item (Strength at least the power's rank, 40),
 * a visor (+10 to Agility (dex)) switched off, a suit's servos suppressed (not equipped), and a
 * cursed amulet of the character's own with a rank of −3 (refused) beside a good change.
 */
export function heroEffects(): FixtureEffect[] {
  return [
    { effect: { id: "amulet", name: "Cursed Amulet of the Drowned Lighthouse Keeper", img: null, disabled: false, isSuppressed: false, changes: [{ key: "system.abilities.fighting.value", mode: 5, value: "-3" }, { key: "system.abilities.psyche.value", mode: 2, value: "10" }] }, item: null },
    { effect: { id: "ss", name: "Super Strength", img: "icons/svg/upgrade.svg", disabled: false, isSuppressed: false, changes: [{ key: "system.abilities.strength.value", mode: 4, value: "@rank" }] }, item: { id: "bolt", name: "Plasma Bolt" } },
    { effect: { id: "visor", name: "Targeting visor", img: null, disabled: true, isSuppressed: false, changes: [{ key: "system.abilities.agility.dex", mode: 2, value: "10" }, { key: "flags.case.note", mode: 0, value: "x" }] }, item: { id: "kevlar", name: "Kevlar Suit" } },
    { effect: { id: "servos", name: "Servos", img: null, disabled: false, isSuppressed: true, changes: [{ key: "system.protection.physical", mode: 4, value: "20" }] }, item: { id: "hook", name: "Grappling Hook" } },
  ];
}

/** Kestrel prepared as Foundry would with {@link heroEffects}' applicable changes (base data, effects, derived data). */
export function heroSystemWithEffects(source: Record<string, unknown> = HERO_SOURCE): CharacterSystemView & { biography: string; notes: string } {
  const m = new (HeroData as unknown as new (s: Record<string, unknown>) => {
    prepareBaseData(): void;
    applyEffectChanges(inputs: unknown[]): void;
    prepareDerivedData(): void;
  })(source);
  m.prepareBaseData();
  const ranks: Record<string, number> = { bolt: 40 };
  m.applyEffectChanges(
    heroEffects()
      .filter((e) => !e.effect.disabled && !e.effect.isSuppressed)
      .flatMap((e) => e.effect.changes.map((c) => ({ effect: e.effect.name, key: c.key, mode: c.mode, value: c.value, priority: null, ownRank: e.item ? (ranks[e.item.id] ?? null) : null }))),
  );
  m.prepareDerivedData();
  return m as unknown as CharacterSystemView & { biography: string; notes: string };
}

/** The hero sheet's data for Kestrel, as the sheet's `_prepareContext` builds it. */
export function heroSheetData(
  options: { editable?: boolean; activeTab?: string; source?: Record<string, unknown>; items?: readonly FixtureItem[]; collapsed?: readonly string[]; expanded?: readonly string[]; withEffects?: boolean } = {},
): CharacterSheetData {
  const system = options.withEffects ? heroSystemWithEffects(options.source) : heroSystem(options.source);
  return characterSheetData({
    name: "Kestrel",
    img: "icons/kestrel.webp",
    type: "hero",
    system,
    biography: system.biography,
    notes: system.notes,
    items: options.items ?? heroItems(),
    editable: options.editable ?? true,
    activeTab: options.activeTab ?? null,
    collapsed: options.collapsed ?? [],
    expanded: options.expanded ?? [],
    ...(options.withEffects ? { effects: heroEffects() } : {}),
  });
}

/** A minor foe: Ftg Gd 10, Agy Ty 6, Str Ex 20, End Gd 10, the rest Pr 4; a club. */
export function npcSheetData(options: { editable?: boolean } = {}): CharacterSheetData {
  const system = model(NpcData, {
    abilities: {
      fighting: { value: 10, off: null, def: null },
      agility: { value: 6, dex: null, bal: null },
      strength: { value: 20, mgt: null, vgr: 10 },
      endurance: { value: 10, res: null, sta: null },
      reason: { value: 4 },
      intuition: { value: 4 },
      psyche: { value: 4 },
    },
    health: { value: 46 },
    minor: true,
  }) as CharacterSystemView & { biography: string; notes: string };
  return characterSheetData({
    name: "Dock Thug",
    img: null,
    type: "npc",
    system,
    biography: system.biography,
    notes: system.notes,
    items: [
      item("club", "Club", "weapon", WeaponData, { attack: { enabled: true, type: "BA", range: 0 }, damage: { mode: "strength", rank: 20 } }, 0),
      item("tough", "Tough", "power", PowerData, { category: "physicalEnhancement", rank: 10 }, 0),
    ],
    editable: options.editable ?? true,
  });
}

const ITEM_MODELS: Record<string, unknown> = { power: PowerData, talent: TalentData, weapon: WeaponData, armor: ArmorData, contact: ContactData };

/** The item sheet's data for an item source, with the schema fields the data model defines. */
export function itemSheetFixture(type: string, source: Record<string, unknown>, editable = true): ItemSheetData {
  const Model = ITEM_MODELS[type] as { defineSchema(): Record<string, unknown> };
  return itemSheetData({ name: `A ${type}`, img: null, type, system: model(Model, source), fields: Model.defineSchema(), editable });
}

/** Template paths of each sheet, in part order, as the sheet classes declare them. */
export const SHEET_TEMPLATES = {
  hero: HERO_PARTS,
  npc: NPC_PARTS,
  item: (type: string) => Object.fromEntries(itemPartsFor(type).map((id) => [id, ITEM_PARTS[id as keyof typeof ITEM_PARTS]])),
};
