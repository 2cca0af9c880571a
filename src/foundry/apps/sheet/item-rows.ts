/**
 * The rows of a character sheet's item lists, as plain data: each item's tags, toggles, attack
 * facts and summary, the filter box's match, and the lists by type in the sheet's order.
 */
import { ABILITY_KEYS, ATTACK_CODES, DEFENCE_CODES, SUB_SCORE_REFS, isAttackCode } from "../../../rules/index";
import type { SystemSource } from "../../data/system-data";
import { fieldOf } from "../../core/guards";
import type { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "../../data/item/items";
import { rankLabel, type RankLabel } from "./rank-label";

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

/**
 * A short fact shown in an item row, read as words ("Energy protection Shift 0", "Ammunition
 * 3/6"): a localisation key, then a literal text, then a rank's name, each when set.
 */
export interface ItemTag {
  readonly label: string | null;
  readonly text: string | null;
  readonly rank: RankLabel | null;
}

function tagKey(label: string): ItemTag {
  return { label, text: null, rank: null };
}

function tagText(text: string, label: string | null = null): ItemTag {
  return { label, text, rank: null };
}

function tagRank(label: string, rank: RankLabel): ItemTag {
  return { label, text: null, rank };
}

/** A switch in an item row: the field it flips on the item, and its label (constant; the state is `on`). */
export interface ItemToggle {
  /** The item's field: `system.equipped`, or a power's `system.protection.active`. */
  readonly field: string;
  readonly on: boolean;
  /** `CASE.ItemList.Toggle.<kind>` and its hint. */
  readonly label: string;
  readonly hint: string;
}

/** The expandable summary under a row: the item's key numbers and its description. */
export interface ItemSummary {
  readonly facts: readonly ItemTag[];
  /** The description, enriched by the caller (or the stored source); "" when none. */
  readonly description: string;
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
  /** What the rank chip measures (`CASE.Item.PhysicalProtection` for armor …), or null to show the rank alone. */
  readonly rankOf: string | null;
  readonly tags: readonly ItemTag[];
  /** Equipped (weapons, armor) or protection up (protective powers), flipped from the list; else null. */
  readonly toggle: ItemToggle | null;
  readonly summary: ItemSummary;
  /** The summary is open (the sheet remembers which, per window). */
  readonly expanded: boolean;
}

export interface ItemList {
  readonly type: CharacterItemType;
  /** `CASE.Sheet.List.<type>`: the list's heading ("Powers", "Weapons" …). */
  readonly label: string;
  readonly items: readonly ItemRow[];
  /** The section is folded (remembered per client). */
  readonly collapsed: boolean;
}

export const DEFAULT_ITEM_IMG = "icons/svg/item-bag.svg";

// The item data models' stored shapes (src/foundry/data/item/items.ts), from their schemas.
type PowerSystem = SystemSource<typeof PowerData>;
type TalentSystem = SystemSource<typeof TalentData>;
type WeaponSystem = SystemSource<typeof WeaponData>;
type ArmorSystem = SystemSource<typeof ArmorData>;
type ContactSystem = SystemSource<typeof ContactData>;

/** Whether a power's protection is up and gives some (the rules then weigh it against armor). */
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
  const attack = fieldOf(system, "attack");
  const code = fieldOf(attack, "type");
  if (fieldOf(attack, "enabled") !== true || !isAttackCode(code)) return null;
  const range = fieldOf(attack, "range");
  return { code, label: `CASE.Attack.${code}`, range: typeof range === "number" ? range : 0 };
}

/** The toggle of an equippable item. */
function equipToggle(on: boolean): ItemToggle {
  return { field: "system.equipped", on, label: "CASE.ItemList.Toggle.equipped", hint: "CASE.ItemList.Toggle.equippedHint" };
}

/** The key numbers shared by powers and weapons that attack: the attack type and its range. */
function attackFacts(attack: ItemAttack | null): ItemTag[] {
  return attack === null ? [] : [tagKey(attack.label), tagText(String(attack.range), "CASE.Item.Range")];
}

function descriptionOf(system: unknown): string {
  const d = fieldOf(system, "description");
  return typeof d === "string" ? d : "";
}

/** How an item row differs by type (the rest is common to all). */
interface RowParts {
  readonly rank: RankLabel | null;
  readonly rankOf: string | null;
  readonly canRoll: boolean;
  readonly canReload: boolean;
  readonly tags: ItemTag[];
  readonly toggle: ItemToggle | null;
  /** Facts the summary adds to the rank and the tags. */
  readonly facts: ItemTag[];
}

function rowParts(type: CharacterItemType, system: unknown, attack: ItemAttack | null): RowParts {
  switch (type) {
    case "power": {
      const s = system as PowerSystem;
      const tags: ItemTag[] = [tagKey(`CASE.PowerCategory.${s.category}`)];
      if (s.duration) tags.push(tagText(s.duration));
      const protects = s.protection.physical || s.protection.energy || s.protection.against.length > 0;
      if (givesProtection(s)) tags.push(tagKey("CASE.Item.ProtectionTag"));
      if (!s.active) tags.push(tagKey("CASE.Effects.Inactive"));
      const toggle: ItemToggle | null = protects
        ? { field: "system.protection.active", on: s.protection.active, label: "CASE.ItemList.Toggle.protection", hint: "CASE.ItemList.Toggle.protectionHint" }
        : null;
      const facts = [...attackFacts(attack)];
      if (protects) facts.push(tagRank("CASE.Item.ProtectionRank", rankLabel(s.protection.rank ?? s.rank)));
      return { rank: rankLabel(s.rank), rankOf: null, canRoll: true, canReload: false, tags, toggle, facts };
    }
    case "talent": {
      const s = system as TalentSystem;
      const tags: ItemTag[] = [tagKey(s.doubled ? "CASE.Item.TalentDoubledShift" : "CASE.Item.TalentShift"), ...s.covers.map((c) => tagKey(coverLabel(c)))];
      return { rank: null, rankOf: null, canRoll: false, canReload: false, tags, toggle: null, facts: [] };
    }
    case "weapon": {
      const s = system as WeaponSystem;
      const tags: ItemTag[] = [tagKey(`CASE.WeaponDamage.${s.damage.mode}`)];
      if (s.ammunition.tracked) tags.push(tagText(`${String(s.ammunition.value)}/${String(s.ammunition.max)}`, "CASE.Item.Ammunition"));
      const rank = s.damage.mode === "rank" ? rankLabel(s.damage.rank) : null;
      return { rank, rankOf: rank ? "CASE.Item.Damage" : null, canRoll: false, canReload: s.ammunition.tracked, tags, toggle: equipToggle(s.equipped), facts: attackFacts(attack) };
    }
    case "armor": {
      const s = system as ArmorSystem;
      const tags: ItemTag[] = [tagRank("CASE.Item.EnergyProtection", rankLabel(s.energy))];
      return { rank: rankLabel(s.physical), rankOf: "CASE.Item.PhysicalProtection", canRoll: false, canReload: false, tags, toggle: equipToggle(s.equipped), facts: [] };
    }
    case "contact": {
      const s = system as ContactSystem;
      return { rank: rankLabel(s.rank), rankOf: null, canRoll: false, canReload: false, tags: [], toggle: null, facts: [] };
    }
  }
}

/** One row of an item list (the summary's description: `description`, else the stored source). */
export function itemRow(item: ItemView, options: { readonly description?: string; readonly expanded?: boolean } = {}): ItemRow | null {
  if (!isCharacterItemType(item.type) || item.id === null) return null;
  const attack = itemAttack(item.type, item.system);
  const { facts, ...parts } = rowParts(item.type, item.system, attack);
  const rankFact = parts.rank ? [tagRank(parts.rankOf ?? "CASE.Item.Rank", parts.rank)] : [];
  return {
    id: item.id,
    uuid: item.uuid,
    name: item.name,
    img: item.img ?? DEFAULT_ITEM_IMG,
    type: item.type,
    typeLabel: `TYPES.Item.${item.type}`,
    attack,
    ...parts,
    summary: { facts: [...rankFact, ...parts.tags, ...facts], description: options.description ?? descriptionOf(item.system) },
    expanded: options.expanded === true,
  };
}

/**
 * Whether an item's name matches the list's filter: every word of the query is in the name,
 * ignoring case and accents ("plasma" finds "Plasma Bolt", "bolt pla" too); an empty query matches all.
 */
export function matchesFilter(name: string, query: string): boolean {
  const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLocaleLowerCase();
  const haystack = fold(name);
  return fold(query)
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => haystack.includes(word));
}

/** What a sheet keeps about its item lists (CharacterSheetInput extends it). */
export interface ItemListState {
  /** Enriched item descriptions by item id; an item not listed shows its stored source. */
  readonly descriptions?: Readonly<Record<string, string>>;
  /** The item list types folded on this client. */
  readonly collapsed?: readonly string[];
  /** The items whose summary is open. */
  readonly expanded?: readonly string[];
}

/** Items grouped by type, each list in the sheet's sort order (then by name). */
export function itemLists(
  items: Iterable<ItemView>,
  state: ItemListState = {},
): Record<CharacterItemType, ItemList> {
  const sorted = [...items].sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
  const collapsed = new Set(state.collapsed ?? []);
  const expanded = new Set(state.expanded ?? []);
  const lists = Object.fromEntries(
    CHARACTER_ITEM_TYPES.map((type) => [type, { type, label: `CASE.Sheet.List.${type}`, items: [] as ItemRow[], collapsed: collapsed.has(type) }]),
  ) as Record<CharacterItemType, { type: CharacterItemType; label: string; items: ItemRow[]; collapsed: boolean }>;
  for (const item of sorted) {
    const id = item.id ?? "";
    const description = state.descriptions?.[id];
    const row = itemRow(item, { ...(description === undefined ? {} : { description }), expanded: expanded.has(id) });
    if (row) lists[row.type].items.push(row);
  }
  return lists;
}
