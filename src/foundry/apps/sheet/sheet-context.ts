/**
 * What the character sheets show, as plain data: built from a character's prepared system
 * data and its items, with no Foundry globals, so the templates can be rendered and checked
 * without Foundry. Labels are localisation keys (the templates localise them); numbers are
 * the rules' own derived values, never recomputed here.
 */
import { ABILITY_KEYS, SUB_SCORES, rankByKey, type AbilityKey, type ScoreRef, type SubScoreRef } from "../../../rules/index";
import { formatSigned } from "../../core/format";
import { campaignSheetData, type CampaignSheetData, type GroupPoolView } from "./sheet-campaign";
import { effectsTabData, type EffectSource, type EffectsTabData } from "./effects-context";
import type { CharacterData, NpcData } from "../../data/actor/character";
import { rankLabel, rankLabelOfKey, type RankLabel } from "./rank-label";
import { type CharacterItemType, type ItemList, type ItemListState, type ItemRow, type ItemView, itemLists } from "./item-rows";

// ── inputs ─────────────────────────────────────────────────────────────────────────────────

/** The stored abilities as the data model holds them (sub-scores null when they follow). */
export type StoredAbilities = Readonly<Record<AbilityKey, Readonly<Record<string, number | null | undefined>>>>;

/** The parts of a prepared character (`actor.system`: data/actor/character.ts) the sheets read; `minor` is an NPC's. */
export type CharacterSystemView = Readonly<
  Pick<CharacterData, "abilities" | "stats" | "resources" | "resourcesRank" | "popularity" | "health" | "karma" | "initiative" | "thrownRange">
> &
  Readonly<Partial<Pick<CharacterData, "karmaLog" | "lostEnduranceRanks" | "baseAbilities" | "endurance" | "effectProblems" | "effectProtection">>> &
  Readonly<Partial<Pick<NpcData, "minor">>>;

// ── outputs ────────────────────────────────────────────────────────────────────────────────

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

export interface CharacterSheetInput extends ItemListState {
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
  /** The character's Active Effects and its items' (Actor#allApplicableEffects), for the Effects tab. */
  readonly effects?: Iterable<EffectSource>;
  /** The group Karma pool, when the world uses one. */
  readonly groupPool?: GroupPoolView | null;
}

// ── building ───────────────────────────────────────────────────────────────────────────────

/** The hero sheet's tabs, in order. The first is the default. */
export const HERO_TABS = ["powers", "talents", "gear", "contacts", "effects", "karma", "biography"] as const;
export type HeroTab = (typeof HERO_TABS)[number];

export const DEFAULT_ACTOR_IMG = "icons/svg/mystery-man.svg";

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
