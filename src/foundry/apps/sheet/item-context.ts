/**
 * What the item sheet shows, as plain data: the item's fields, the choices of its selects
 * read from the data model's own fields (so a sheet never offers a value the model refuses),
 * and the talent "covers" choices grouped as abilities / sub-scores / attacks / defences.
 */
import { ABILITY_KEYS, ATTACK_CODES, DEFENCE_CODES, SUB_SCORE_REFS } from "../../../rules/index";
import { effectsTabData, type EffectSource, type EffectsTabData } from "./effects-context";
import type { EffectProblem } from "../../data/actor/effect-changes";
import { fieldOf } from "../../core/guards";
import { coverLabel, isCharacterItemType, type CharacterItemType } from "./item-rows";
import { rankLabel, type RankLabel } from "./rank-label";

/** value → label key, as Foundry's `selectOptions` helper takes it. */
export type Choices = Record<string, string>;

/** Reads a field's `choices` (an object, an array, or a function returning either). */
export function fieldChoices(field: unknown): Choices {
  let choices = (field as { choices?: unknown } | null | undefined)?.choices;
  if (typeof choices === "function") choices = (choices as () => unknown)();
  if (Array.isArray(choices)) return Object.fromEntries(choices.map((c) => [String(c), String(c)]));
  if (typeof choices === "object" && choices !== null) {
    return Object.fromEntries(Object.entries(choices).map(([k, v]) => [k, typeof v === "string" ? v : k]));
  }
  throw new TypeError("That field has no choices.");
}

/** The field at a dotted path of a schema's fields ("attack.type"); an ArrayField's element by "covers.element". */
export function fieldAt(fields: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = { fields };
  for (const part of path.split(".")) {
    const node = current as { fields?: Record<string, unknown>; element?: unknown } | null;
    current = part === "element" ? node?.element : node?.fields?.[part];
    if (current === undefined) throw new RangeError(`The schema has no field "${path}".`);
  }
  return current;
}

export interface CoverOption {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

export interface CoverGroup {
  /** `CASE.Item.CoversGroup.<group>` */
  readonly label: string;
  readonly options: readonly CoverOption[];
}

const COVER_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ["abilities", ABILITY_KEYS],
  ["subScores", SUB_SCORE_REFS],
  ["attacks", ATTACK_CODES],
  ["defences", DEFENCE_CODES],
];

/** The talent's possible covers (the schema's choices) grouped for a checkbox list, with the chosen ones selected. */
export function coverGroups(choices: Choices, selected: readonly string[]): CoverGroup[] {
  const chosen = new Set(selected);
  const available = Object.keys(choices);
  const groups = COVER_GROUPS.map(([group, members]) => ({
    label: `CASE.Item.CoversGroup.${group}`,
    options: members.filter((m) => available.includes(m)).map((value) => ({ value, label: coverLabel(value), selected: chosen.has(value) })),
  }));
  const grouped = new Set(COVER_GROUPS.flatMap(([, m]) => m));
  const stray = available.filter((c) => !grouped.has(c));
  if (stray.length > 0) throw new RangeError(`Talent covers without a group: ${stray.join(", ")}.`);
  return groups.filter((g) => g.options.length > 0);
}

export interface ItemSheetInput {
  readonly name: string;
  readonly img: string | null;
  readonly type: string;
  /** The item's system data (its stored values are what the inputs show). */
  readonly system: unknown;
  /** The data model's schema fields (`item.system.schema.fields`). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly editable: boolean;
  readonly enriched?: { readonly description?: string; readonly notes?: string };
  /** The item's own Active Effects (powers, weapons and armor show them). */
  readonly effects?: Iterable<EffectSource>;
  /** Their changes CASE would refuse (data/actor/effect-changes.ts `readEffectChanges`). */
  readonly effectProblems?: readonly EffectProblem[];
}

export interface RichText {
  readonly name: string;
  readonly value: string;
  readonly enriched: string;
}

export interface ItemSheetData {
  readonly name: string;
  readonly img: string;
  readonly type: CharacterItemType;
  readonly typeLabel: string;
  readonly editable: boolean;
  readonly system: unknown;
  /** Select choices by purpose, read from the schema. */
  readonly choices: Readonly<Record<string, Choices>>;
  /** Rank name + number of every rank-number field of this type (names as in RANK_FIELDS). */
  readonly ranks: Readonly<Record<string, RankLabel>>;
  readonly covers: readonly CoverGroup[];
  /** A power's protection: its rank and the attack types it may be listed against (null for other types). */
  readonly protection: PowerProtectionView | null;
  readonly description: RichText;
  readonly notes: RichText | null;
  /** The Effects part (powers, weapons, armor: {@link ITEM_TYPES_WITH_EFFECTS}); its effects apply to the owner while the item is in use. */
  readonly effects: EffectsTabData;
}

/** The item types whose sheet shows Active Effects: what is equipped or switched on changes the owner. */
export const ITEM_TYPES_WITH_EFFECTS: readonly string[] = ["power", "weapon", "armor"];

/** What the power sheet shows of its protection (system.protection). */
export interface PowerProtectionView {
  /** The rank it protects at: its own, or the power's while it follows the power. */
  readonly rank: RankLabel;
  /** The stored rank; null while it follows the power's rank (the input is then empty). */
  readonly ownRank: number | null;
  /** One checkbox per attack type for `system.protection.against`. */
  readonly against: readonly CoverOption[];
}

function numberAt(system: unknown, path: string): number {
  let v: unknown = system;
  for (const part of path.split(".")) v = (v as Record<string, unknown> | null)?.[part];
  if (typeof v !== "number") throw new TypeError(`The item has no number at "${path}".`);
  return v;
}

function stringAt(system: unknown, key: string): string {
  const v = (system as Record<string, unknown> | null)?.[key];
  return typeof v === "string" ? v : "";
}

/** The rank-number fields of each item type: a name for the template → the field's path. */
export const RANK_FIELDS: Readonly<Record<CharacterItemType, Readonly<Record<string, string>>>> = {
  power: { rank: "rank" },
  talent: {},
  weapon: { damageRank: "damage.rank", materialStrength: "materialStrength" },
  armor: { physical: "physical", energy: "energy" },
  contact: { rank: "rank" },
};

/** A stored list of strings (the talent's covers); anything else in it is dropped. */
function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function powerProtection(system: unknown): PowerProtectionView {
  const p = fieldOf(system, "protection");
  const own = fieldOf(p, "rank");
  if (own !== null && typeof own !== "number") throw new TypeError("The power has no protection rank (a number, or null to follow the power).");
  const against = fieldOf(p, "against");
  const listed: readonly unknown[] = Array.isArray(against) ? against : [];
  return {
    rank: rankLabel(own ?? numberAt(system, "rank")),
    ownRank: own,
    against: ATTACK_CODES.map((code) => ({ value: code, label: `CASE.Attack.${code}`, selected: listed.includes(code) })),
  };
}

/** Everything the item sheet shows. */
export function itemSheetData(input: ItemSheetInput): ItemSheetData {
  if (!isCharacterItemType(input.type)) throw new RangeError(`The CASE item sheet cannot show a "${input.type}" item.`);
  const type = input.type;
  const choices: Record<string, Choices> = {};
  if (type === "power") {
    choices.category = fieldChoices(fieldAt(input.fields, "category"));
    choices.resistedBy = fieldChoices(fieldAt(input.fields, "resisted.by"));
    choices.resistedEffect = fieldChoices(fieldAt(input.fields, "resisted.effect"));
  }
  if (type === "power" || type === "weapon") {
    choices.attackType = fieldChoices(fieldAt(input.fields, "attack.type"));
    choices.areaShape = fieldChoices(fieldAt(input.fields, "attack.area.shape"));
  }
  if (type === "weapon") choices.damageMode = fieldChoices(fieldAt(input.fields, "damage.mode"));
  const covers =
    type === "talent"
      ? coverGroups(fieldChoices(fieldAt(input.fields, "covers.element")), stringsOf(fieldOf(input.system, "covers")))
      : [];
  const ranks = Object.fromEntries(Object.entries(RANK_FIELDS[type]).map(([key, path]) => [key, rankLabel(numberAt(input.system, path))]));
  const protection = type === "power" ? powerProtection(input.system) : null;
  const description = stringAt(input.system, "description");
  const notes = stringAt(input.system, "notes");
  return {
    name: input.name,
    img: input.img ?? "icons/svg/item-bag.svg",
    type,
    typeLabel: `TYPES.Item.${type}`,
    editable: input.editable,
    system: input.system,
    choices,
    ranks,
    covers,
    protection,
    description: { name: "system.description", value: description, enriched: input.enriched?.description ?? description },
    notes: type === "contact" ? { name: "system.notes", value: notes, enriched: input.enriched?.notes ?? notes } : null,
    effects: effectsTabData(input.effects ?? [], input.effectProblems ?? [], input.editable),
  };
}
