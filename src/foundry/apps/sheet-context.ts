/**
 * What the character sheets show, as plain data: built from a character's prepared system
 * data and its items, with no Foundry globals, so the templates can be rendered and checked
 * without Foundry. Labels are localisation keys (the templates localise them); numbers are
 * the rules' own derived values, never recomputed here.
 */
import {
  ABILITY_KEYS,
  ATTACK_CODES,
  DEFENCE_CODES,
  SUB_SCORES,
  SUB_SCORE_REFS,
  isAttackCode,
  rankByKey,
  rankOf,
  type AbilityKey,
  type RankKey,
  type ScoreRef,
  type SubScoreRef,
} from "../../rules/index";
import { formatSigned } from "../core/format";
import { campaignSheetData, type CampaignSheetData, type GroupPoolView } from "./sheet-campaign";
import type { SystemSource } from "../data/system-data";
import type { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "../data/item/items";
import type { CharacterData, NpcData } from "../data/actor/character";

// ── inputs ─────────────────────────────────────────────────────────────────────────────────

/** The stored abilities as the data model holds them (sub-scores null when they follow). */
export type StoredAbilities = Readonly<Record<AbilityKey, Readonly<Record<string, number | null | undefined>>>>;

/** The parts of a prepared character (`actor.system`: data/actor/character.ts) the sheets read; `minor` is an NPC's. */
export type CharacterSystemView = Readonly<
  Pick<CharacterData, "abilities" | "stats" | "resources" | "resourcesRank" | "popularity" | "health" | "karma" | "initiative" | "thrownRange">
> &
  Readonly<Partial<Pick<CharacterData, "karmaLog" | "lostEnduranceRanks">>> &
  Readonly<Partial<Pick<NpcData, "minor">>>;

/** The parts of an owned item the sheets read. */
export interface ItemView {
  readonly id: string | null;
  readonly uuid: string;
  readonly name: string;
  readonly img: string | null;
  readonly type: string;
  readonly sort: number;
  readonly system: unknown;
}

/** The item types a character sheet lists, in the order of the data model. */
export const CHARACTER_ITEM_TYPES = ["power", "talent", "weapon", "armor", "contact"] as const;
export type CharacterItemType = (typeof CHARACTER_ITEM_TYPES)[number];

export function isCharacterItemType(type: unknown): type is CharacterItemType {
  return typeof type === "string" && (CHARACTER_ITEM_TYPES as readonly string[]).includes(type);
}

// ── outputs ────────────────────────────────────────────────────────────────────────────────

/** A rank shown as name + number. */
export interface RankLabel {
  readonly key: RankKey;
  /** `CASE.Rank.<key>` */
  readonly label: string;
  /** `CASE.RankAbbr.<key>` */
  readonly abbr: string;
  readonly value: number;
}

export interface SubScoreRow {
  readonly ref: SubScoreRef;
  /** The form field: `system.abilities.<ability>.<sub>`. */
  readonly name: string;
  /** `CASE.Score.<ref>` and `CASE.SubScoreHint.<ref>`. */
  readonly label: string;
  readonly hint: string;
  /** True when the character has set it apart from its ability; false when it follows. */
  readonly setApart: boolean;
  /** What the input holds: the stored number when set apart, "" when it follows. */
  readonly inputValue: string;
  /** The effective rank number and rank. */
  readonly rank: RankLabel;
}

export interface AbilityRow {
  readonly key: AbilityKey;
  readonly ref: ScoreRef;
  /** The form field: `system.abilities.<ability>.value`. */
  readonly name: string;
  readonly label: string;
  readonly abbr: string;
  readonly rank: RankLabel;
  readonly subs: readonly SubScoreRow[];
}

export interface Pool {
  readonly name: string;
  readonly label: string;
  readonly value: number;
  readonly max: number;
  /** 0–100, for the bar's width. */
  readonly percent: number;
}

export interface DerivedValue {
  readonly label: string;
  /** The value, ready to print ("+4", "2", "3 areas" is done by the template with `unit`). */
  readonly value: string;
  /** A localisation key for a unit or a word value ("areas", "line of sight"), or null. */
  readonly unit: string | null;
  readonly hint: string;
}

/** A short fact shown in an item row: a localisation key, or else a literal text. */
export interface ItemTag {
  readonly label: string | null;
  readonly text: string | null;
}

function tagKey(label: string): ItemTag {
  return { label, text: null };
}

function tagText(text: string): ItemTag {
  return { label: null, text };
}

export interface ItemAttack {
  readonly code: string;
  /** `CASE.Attack.<code>` */
  readonly label: string;
  readonly range: number;
}

export interface ItemRow {
  readonly id: string;
  readonly uuid: string;
  readonly name: string;
  readonly img: string;
  readonly type: CharacterItemType;
  /** `TYPES.Item.<type>` */
  readonly typeLabel: string;
  /** The item's headline rank (power rank, weapon damage, armor, contact), if it has one. */
  readonly rank: RankLabel | null;
  /** Set when the item can make an attack (a power or weapon with its attack enabled). */
  readonly attack: ItemAttack | null;
  /** Powers can be rolled on their rank (a FEAT). */
  readonly canRoll: boolean;
  /** Weapons that count ammunition show a reload button. */
  readonly canReload: boolean;
  readonly tags: readonly ItemTag[];
}

export interface ItemList {
  readonly type: CharacterItemType;
  /** `CASE.Sheet.List.<type>`: the list's heading ("Powers", "Weapons" …). */
  readonly label: string;
  readonly items: readonly ItemRow[];
}

export interface TabEntry {
  readonly id: string;
  readonly group: string;
  /** `CASE.Sheet.Tab.<id>` */
  readonly label: string;
  readonly active: boolean;
  readonly cssClass: string;
}

export interface CharacterSheetData {
  readonly name: string;
  readonly img: string;
  readonly editable: boolean;
  readonly isNpc: boolean;
  readonly minor: boolean;
  readonly abilities: readonly AbilityRow[];
  readonly health: Pool;
  readonly karma: Pool;
  readonly resources: { readonly name: string; readonly rank: RankLabel };
  readonly popularity: { readonly name: string; readonly value: number };
  readonly derived: readonly DerivedValue[];
  /** Items by type, each sorted by the sheet's sort order. */
  readonly lists: Readonly<Record<CharacterItemType, ItemList>>;
  /** Every item that can attack (powers and weapons), for the NPC sheet's attack list. */
  readonly attacks: readonly ItemRow[];
  readonly tabs: Readonly<Record<string, TabEntry>>;
  readonly tabList: readonly TabEntry[];
  /** Rich text, already enriched by the caller; and the stored source for the editor. */
  readonly biography: { readonly name: string; readonly value: string; readonly enriched: string };
  readonly notes: { readonly name: string; readonly value: string; readonly enriched: string };
  /** The Karma tab: the log, advancement, lost Endurance ranks (sheet-campaign.ts). */
  readonly campaign: CampaignSheetData;
  /** A blank hero (every ability at its default, no items): the sheet offers the character builder first. */
  readonly blank: boolean;
}

export interface CharacterSheetInput {
  readonly name: string;
  readonly img: string | null;
  readonly type: string;
  readonly system: CharacterSystemView;
  /** Stored rich text (source). */
  readonly biography: string;
  readonly notes: string;
  readonly items: Iterable<ItemView>;
  readonly editable: boolean;
  /** The active tab of the hero sheet's primary group. */
  readonly activeTab?: string | null;
  /** Enriched rich text for display; defaults to the source. */
  readonly enriched?: { readonly biography?: string; readonly notes?: string };
  /** The group Karma pool, when the world uses one. */
  readonly groupPool?: GroupPoolView | null;
}

// ── building ───────────────────────────────────────────────────────────────────────────────

/** The hero sheet's tabs, in order. The first is the default. */
export const HERO_TABS = ["powers", "talents", "gear", "contacts", "karma", "biography"] as const;
export type HeroTab = (typeof HERO_TABS)[number];

export const DEFAULT_ITEM_IMG = "icons/svg/item-bag.svg";
export const DEFAULT_ACTOR_IMG = "icons/svg/mystery-man.svg";

/** A rank number as name + number. */
export function rankLabel(value: number): RankLabel {
  const key = rankOf(value).key;
  return { key, label: `CASE.Rank.${key}`, abbr: `CASE.RankAbbr.${key}`, value };
}

function rankLabelOfKey(value: number, key: RankKey): RankLabel {
  return { key, label: `CASE.Rank.${key}`, abbr: `CASE.RankAbbr.${key}`, value };
}

function readStoredAbilities(abilities: unknown): StoredAbilities {
  if (typeof abilities !== "object" || abilities === null) throw new TypeError("The character has no abilities.");
  return abilities as StoredAbilities;
}

/** The ability rows: rank name + number, and each sub-score following or set apart. */
export function abilityRows(system: CharacterSystemView): AbilityRow[] {
  const stored = readStoredAbilities(system.abilities);
  const { stats } = system;
  return ABILITY_KEYS.map((key) => {
    const subs = (SUB_SCORES[key] as readonly string[]).map((sub): SubScoreRow => {
      const ref = `${key}.${sub}` as SubScoreRef;
      const raw = stored[key][sub];
      const setApart = stats.setApart[ref];
      return {
        ref,
        name: `system.abilities.${key}.${sub}`,
        label: `CASE.Score.${ref}`,
        hint: `CASE.SubScoreHint.${ref}`,
        setApart,
        inputValue: setApart && typeof raw === "number" ? String(raw) : "",
        rank: rankLabel(stats.scores[ref]),
      };
    });
    return {
      key,
      ref: key,
      name: `system.abilities.${key}.value`,
      label: `CASE.Ability.${key}`,
      abbr: `CASE.AbilityAbbr.${key}`,
      rank: rankLabelOfKey(stats.scores[key], stats.ranks[key]),
      subs,
    };
  });
}

function pool(name: string, label: string, p: { readonly value: number; readonly max: number }): Pool {
  const percent = p.max > 0 ? Math.max(0, Math.min(100, Math.round((p.value / p.max) * 100))) : 0;
  return { name, label, value: p.value, max: p.max, percent };
}

/** Initiative modifier, actions and free defences per turn, running speed, thrown range. */
export function derivedValues(system: CharacterSystemView): DerivedValue[] {
  const { stats } = system;
  const thrown: DerivedValue =
    typeof system.thrownRange === "number"
      ? { label: "CASE.Sheet.ThrownRange", value: String(system.thrownRange), unit: "CASE.Sheet.Areas", hint: "CASE.Sheet.ThrownRangeHint" }
      : { label: "CASE.Sheet.ThrownRange", value: "", unit: "CASE.Sheet.LineOfSight", hint: "CASE.Sheet.ThrownRangeHint" };
  return [
    { label: "CASE.Sheet.Initiative", value: formatSigned(system.initiative, "+0"), unit: null, hint: "CASE.Sheet.InitiativeHint" },
    { label: "CASE.Sheet.ActionsPerTurn", value: String(stats.actionsPerTurn), unit: null, hint: "CASE.Sheet.ActionsPerTurnHint" },
    { label: "CASE.Sheet.FreeDefences", value: String(stats.freeDefences), unit: null, hint: "CASE.Sheet.FreeDefencesHint" },
    { label: "CASE.Sheet.RunningSpeed", value: String(stats.runningSpeed), unit: "CASE.Sheet.Areas", hint: "CASE.Sheet.RunningSpeedHint" },
    thrown,
  ];
}

// The item data models' stored shapes (src/foundry/data/item/items.ts), from their schemas.
type PowerSystem = SystemSource<typeof PowerData>;
type TalentSystem = SystemSource<typeof TalentData>;
type WeaponSystem = SystemSource<typeof WeaponData>;
type ArmorSystem = SystemSource<typeof ArmorData>;
type ContactSystem = SystemSource<typeof ContactData>;
type AttackData = PowerSystem["attack"];

/** Whether a power's protection is up and gives any (the rules then weigh it against armor). */
function givesProtection(s: PowerSystem): boolean {
  const p = s.protection;
  return p.active && (p.physical || p.energy || p.against.length > 0);
}

/** The label key of anything a talent may cover: an ability, a sub-score, an attack or a defence. */
export function coverLabel(cover: string): string {
  if ((ABILITY_KEYS as readonly string[]).includes(cover)) return `CASE.Ability.${cover}`;
  if ((SUB_SCORE_REFS as readonly string[]).includes(cover)) return `CASE.Score.${cover}`;
  if ((ATTACK_CODES as readonly string[]).includes(cover)) return `CASE.Attack.${cover}`;
  if ((DEFENCE_CODES as readonly string[]).includes(cover)) return `CASE.Defence.${cover}`;
  throw new RangeError(`"${cover}" is not an ability, sub-score, attack or defence.`);
}

/** The attack an item makes, or null: only powers and weapons whose attack is enabled. */
export function itemAttack(type: string, system: unknown): ItemAttack | null {
  if (type !== "power" && type !== "weapon") return null;
  const attack = (system as { attack?: Partial<AttackData> } | null)?.attack;
  if (attack?.enabled !== true || !isAttackCode(attack.type)) return null;
  return { code: attack.type, label: `CASE.Attack.${attack.type}`, range: attack.range ?? 0 };
}

/** One row of an item list. */
export function itemRow(item: ItemView): ItemRow | null {
  if (!isCharacterItemType(item.type) || item.id === null) return null;
  const base = {
    id: item.id,
    uuid: item.uuid,
    name: item.name,
    img: item.img ?? DEFAULT_ITEM_IMG,
    type: item.type,
    typeLabel: `TYPES.Item.${item.type}`,
    attack: itemAttack(item.type, item.system),
    canReload: false,
  };
  switch (item.type) {
    case "power": {
      const s = item.system as PowerSystem;
      const tags: ItemTag[] = [tagKey(`CASE.PowerCategory.${s.category}`)];
      if (s.duration) tags.push(tagText(s.duration));
      if (givesProtection(s)) tags.push(tagKey("CASE.Item.ProtectionTag"));
      return { ...base, rank: rankLabel(s.rank), canRoll: true, tags };
    }
    case "talent": {
      const s = item.system as TalentSystem;
      const tags: ItemTag[] = [tagKey(s.doubled ? "CASE.Item.TalentDoubledShift" : "CASE.Item.TalentShift"), ...s.covers.map((c) => tagKey(coverLabel(c)))];
      return { ...base, rank: null, canRoll: false, tags };
    }
    case "weapon": {
      const s = item.system as WeaponSystem;
      const tags: ItemTag[] = [tagKey(`CASE.WeaponDamage.${s.damage.mode}`)];
      if (s.ammunition.tracked) tags.push(tagText(`${String(s.ammunition.value)}/${String(s.ammunition.max)}`));
      if (!s.equipped) tags.push(tagKey("CASE.Item.NotEquipped"));
      const rank = s.damage.mode === "rank" ? rankLabel(s.damage.rank) : null;
      return { ...base, rank, canRoll: false, canReload: s.ammunition.tracked, tags };
    }
    case "armor": {
      const s = item.system as ArmorSystem;
      const energy = rankLabel(s.energy);
      const tags: ItemTag[] = [tagKey("CASE.Item.EnergyProtection"), tagKey(energy.abbr), tagText(String(energy.value))];
      if (!s.equipped) tags.push(tagKey("CASE.Item.NotEquipped"));
      return { ...base, rank: rankLabel(s.physical), canRoll: false, tags };
    }
    case "contact": {
      const s = item.system as ContactSystem;
      return { ...base, rank: rankLabel(s.rank), canRoll: false, tags: [] };
    }
  }
}

/** Items grouped by type, each list in the sheet's sort order (then by name). */
export function itemLists(items: Iterable<ItemView>): Record<CharacterItemType, ItemList> {
  const sorted = [...items].sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
  const lists = Object.fromEntries(
    CHARACTER_ITEM_TYPES.map((type) => [type, { type, label: `CASE.Sheet.List.${type}`, items: [] as ItemRow[] }]),
  ) as Record<CharacterItemType, { type: CharacterItemType; label: string; items: ItemRow[] }>;
  for (const item of sorted) {
    const row = itemRow(item);
    if (row) lists[row.type].items.push(row);
  }
  return lists;
}

/** The tabs of a group, with the active one marked (unknown or missing → the first). */
export function sheetTabs(ids: readonly string[], active: string | null | undefined, group = "primary"): TabEntry[] {
  const current = active && ids.includes(active) ? active : ids[0];
  return ids.map((id) => ({
    id,
    group,
    label: `CASE.Sheet.Tab.${id}`,
    active: id === current,
    cssClass: id === current ? "active" : "",
  }));
}

/** Everything the hero and NPC sheets show. */
export function characterSheetData(input: CharacterSheetInput): CharacterSheetData {
  const { system } = input;
  const lists = itemLists(input.items);
  const tabList = sheetTabs(HERO_TABS, input.activeTab);
  return {
    name: input.name,
    img: input.img ?? DEFAULT_ACTOR_IMG,
    editable: input.editable,
    isNpc: input.type === "npc",
    minor: system.minor === true,
    abilities: abilityRows(system),
    health: pool("system.health.value", "CASE.Sheet.Health", system.health),
    karma: pool("system.karma.value", "CASE.Sheet.Karma", system.karma),
    resources: { name: "system.resources", rank: rankLabelOfKey(system.resources, system.resourcesRank) },
    popularity: { name: "system.popularity", value: system.popularity },
    derived: derivedValues(system),
    lists,
    attacks: [...lists.power.items, ...lists.weapon.items].filter((row) => row.attack !== null),
    tabs: Object.fromEntries(tabList.map((t) => [t.id, t])),
    tabList,
    biography: { name: "system.biography", value: input.biography, enriched: input.enriched?.biography ?? input.biography },
    notes: { name: "system.notes", value: input.notes, enriched: input.enriched?.notes ?? input.notes },
    campaign: campaignSheetData(system, lists.power.items.flatMap((r) => (r.rank ? [{ id: r.id, name: r.name, rank: r.rank.value }] : [])), input.groupPool ?? null),
    blank: input.type === "hero" && ABILITY_KEYS.every((k) => system.abilities[k].value === rankByKey("typical").number) && Object.values(lists).every((l) => l.items.length === 0),
  };
}
