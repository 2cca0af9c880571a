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
} from "../../../rules/index";
import { formatSigned } from "../../core/format";
import { fieldOf } from "../../core/guards";
import { campaignSheetData, type CampaignSheetData, type GroupPoolView } from "./sheet-campaign";
import { effectsTabData, type EffectSource, type EffectsTabData } from "./effects-context";
import type { SystemSource } from "../../data/system-data";
import type { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "../../data/item/items";
import type { CharacterData, NpcData } from "../../data/actor/character";

// ── inputs ─────────────────────────────────────────────────────────────────────────────────

/** The stored abilities as the data model holds them (sub-scores null when they follow). */
export type StoredAbilities = Readonly<Record<AbilityKey, Readonly<Record<string, number | null | undefined>>>>;

/** The parts of a prepared character (`actor.system`: data/actor/character.ts) the sheets read; `minor` is an NPC's. */
export type CharacterSystemView = Readonly<
  Pick<CharacterData, "abilities" | "stats" | "resources" | "resourcesRank" | "popularity" | "health" | "karma" | "initiative" | "thrownRange">
> &
  Readonly<Partial<Pick<CharacterData, "karmaLog" | "lostEnduranceRanks" | "baseAbilities" | "endurance" | "effectProblems" | "effectProtection">>> &
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

/** A note under an ability: a localisation key and its data ("−1 rank lost", "base 30, changed by effects"). */
export interface AbilityNote {
  readonly key: string;
  readonly data: Readonly<Record<string, string>>;
}

export interface AbilityRow {
  readonly key: AbilityKey;
  readonly ref: ScoreRef;
  /** The form field: `system.abilities.<ability>.value`. */
  readonly name: string;
  /** What the input holds: the STORED number (before effects and lost ranks), so saving the form never writes an effect in. */
  readonly inputValue: number;
  /** Why the effective rank differs from the stored one (lost Endurance ranks, Active Effects), or none. */
  readonly notes: readonly AbilityNote[];
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
  /** The Effects tab (effects-context.ts). */
  readonly effects: EffectsTabData;
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
  /** Enriched item descriptions by item id; an item not listed shows its stored source. */
  readonly descriptions?: Readonly<Record<string, string>>;
  /** The item list types folded on this client. */
  readonly collapsed?: readonly string[];
  /** The items whose summary is open. */
  readonly expanded?: readonly string[];
  /** The character's Active Effects and its items' (Actor#allApplicableEffects), for the Effects tab. */
  readonly effects?: Iterable<EffectSource>;
  /** The group Karma pool, when the world uses one. */
  readonly groupPool?: GroupPoolView | null;
}

// ── building ───────────────────────────────────────────────────────────────────────────────

/** The hero sheet's tabs, in order. The first is the default. */
export const HERO_TABS = ["powers", "talents", "gear", "contacts", "effects", "karma", "biography"] as const;
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

/** The ability rows: rank name + number (effective), the stored number to edit, and each sub-score following or set apart. */
export function abilityRows(system: CharacterSystemView): AbilityRow[] {
  const prepared = readStoredAbilities(system.abilities);
  // The sheet edits what is stored; a model prepared without its actor has only its prepared abilities.
  const stored = system.baseAbilities ? readStoredAbilities(system.baseAbilities) : prepared;
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
    const storedValue = stored[key].value;
    const inputValue = typeof storedValue === "number" ? storedValue : stats.scores[key];
    const notes: AbilityNote[] = [];
    const lost = key === "endurance" ? (system.endurance?.lost ?? 0) : 0;
    const afterEffects = key === "endurance" && system.endurance ? system.endurance.beforeLoss : stats.scores[key];
    const data = { base: String(inputValue), value: String(afterEffects), count: String(lost) };
    if (afterEffects !== inputValue) notes.push({ key: "CASE.Effects.AbilityChanged", data });
    if (lost > 0) notes.push({ key: lost === 1 ? "CASE.Effects.RankLost" : "CASE.Effects.RanksLost", data });
    return {
      key,
      ref: key,
      name: `system.abilities.${key}.value`,
      inputValue,
      notes,
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

/** Items grouped by type, each list in the sheet's sort order (then by name). */
export function itemLists(
  items: Iterable<ItemView>,
  state: Pick<CharacterSheetInput, "descriptions" | "collapsed" | "expanded"> = {},
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
  const lists = itemLists(input.items, input);
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
    effects: effectsTabData(input.effects ?? [], system.effectProblems ?? [], input.editable),
    blank: input.type === "hero" && ABILITY_KEYS.every((k) => system.abilities[k].value === rankByKey("typical").number) && Object.values(lists).every((l) => l.items.length === 0),
  };
}
