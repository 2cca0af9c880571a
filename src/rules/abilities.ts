/**
 * The seven primary abilities, their sub-scores, and the values derived from them
 * (CASE-RULES §3 and §9): Health, Karma, thrown range (Table 24) and running speed.
 *
 * Every ability and sub-score is stored as a rank number (see ./ranks). A sub-score defaults to
 * its ability's rank number; a character may set the two apart (CASE's optional split).
 */
import { RANKS, RANK_KEYS, assertRankNumber, isRankNumber, rankOf, type Rank, type RankKey } from "./ranks";
import { RulesRangeError, RulesTypeError, type RulesFieldKey, type RulesErrorKey } from "./errors";

// ---------------------------------------------------------------------------------------------
// Abilities and sub-scores
// ---------------------------------------------------------------------------------------------

/** The seven primary abilities, in FASERIP order [001]. */
export const ABILITY_KEYS = ["fighting", "agility", "strength", "endurance", "reason", "intuition", "psyche"] as const;

/** One of the seven primary abilities, e.g. "fighting". */
export type AbilityKey = (typeof ABILITY_KEYS)[number];

/** The four physical abilities, which make up Health [FASERIP]. */
export const PHYSICAL_ABILITY_KEYS = ["fighting", "agility", "strength", "endurance"] as const satisfies readonly AbilityKey[];

/** The three mental abilities, which make up Karma [FASERIP]. They have no sub-scores. */
export const MENTAL_ABILITY_KEYS = ["reason", "intuition", "psyche"] as const satisfies readonly AbilityKey[];

/** A physical ability key. */
export type PhysicalAbilityKey = (typeof PHYSICAL_ABILITY_KEYS)[number];
/** A mental ability key. */
export type MentalAbilityKey = (typeof MENTAL_ABILITY_KEYS)[number];

/** The abbreviations the sources use in notation such as "Ftg (off)" [001]. */
export const ABILITY_ABBREVIATIONS = Object.freeze({
  fighting: "Ftg",
  agility: "Agy",
  strength: "Str",
  endurance: "End",
  reason: "Rea",
  intuition: "Int",
  psyche: "Psy",
} as const satisfies Record<AbilityKey, string>);

/**
 * The sub-scores of each ability, CASE-RULES §3 [001]. Endurance's second sub-score "sta" is
 * a [RULING]: no source names it. The mental abilities have none.
 */
export const SUB_SCORES = Object.freeze({
  fighting: ["off", "def"],
  agility: ["dex", "bal"],
  strength: ["mgt", "vgr"],
  endurance: ["res", "sta"],
  reason: [],
  intuition: [],
  psyche: [],
} as const satisfies Record<AbilityKey, readonly string[]>);

type SubScoreTable = typeof SUB_SCORES;

/** A sub-score's short key, e.g. "off". Each belongs to exactly one ability. */
export type SubScoreKey = SubScoreTable[AbilityKey][number];

/** An ability that has sub-scores (the four physical ones). */
export type AbilityWithSubScores = {
  [A in AbilityKey]: SubScoreTable[A] extends readonly [] ? never : A;
}[AbilityKey];

/**
 * A reference to one sub-score, as a string "ability.sub", e.g. "fighting.off". This is the
 * one canonical representation: it is a plain string (stores well in document data), and the
 * type admits only real pairs ("fighting.dex" is a type error). Parse untrusted text with
 * {@link parseSubScoreRef}.
 */
export type SubScoreRef = {
  [A in AbilityKey]: `${A}.${SubScoreTable[A][number]}`;
}[AbilityKey];

/** Every valid {@link SubScoreRef}, in ability order. */
export const SUB_SCORE_REFS: readonly SubScoreRef[] = Object.freeze(
  ABILITY_KEYS.flatMap((ability) => (SUB_SCORES[ability] as readonly string[]).map((sub) => `${ability}.${sub}` as SubScoreRef)),
);

const SUB_SCORE_REF_SET: ReadonlySet<string> = new Set(SUB_SCORE_REFS);
const ABILITY_BY_ABBR: ReadonlyMap<string, AbilityKey> = new Map(
  ABILITY_KEYS.map((a) => [ABILITY_ABBREVIATIONS[a].toLowerCase(), a]),
);

/** True when `key` is one of {@link ABILITY_KEYS}. */
export function isAbilityKey(key: unknown): key is AbilityKey {
  return typeof key === "string" && (ABILITY_KEYS as readonly string[]).includes(key);
}

/** Returns `key` as an {@link AbilityKey}; RangeError (TypeError if not a string) otherwise. */
export function abilityKey(key: unknown): AbilityKey {
  if (typeof key !== "string") throw new RulesTypeError("notText", { field: "abilityKey", got: String(key) });
  if (!isAbilityKey(key)) {
    throw new RulesRangeError("unknownAbility", { got: key, allowed: ABILITY_KEYS.join(", ") });
  }
  return key;
}

/** True when `ref` is a valid {@link SubScoreRef} such as "fighting.off". */
export function isSubScoreRef(ref: unknown): ref is SubScoreRef {
  return typeof ref === "string" && SUB_SCORE_REF_SET.has(ref);
}

/** The sub-score reference for an ability and one of its sub-scores; RangeError for a bad pair. */
export function subScoreRef(ability: AbilityKey, sub: string): SubScoreRef {
  const a = abilityKey(ability);
  const ref = `${a}.${sub}`;
  if (!isSubScoreRef(ref)) {
    const subs = SUB_SCORES[a] as readonly string[];
    throw subs.length > 0 ? new RulesRangeError("notSubScoreOf", { sub, ability: a, allowed: subs.join(", ") }) : new RulesRangeError("noSubScores", { sub, ability: a });
  }
  return ref;
}

/**
 * Parses a sub-score reference. Accepts the canonical form "fighting.off" and the sources'
 * notation "Ftg (off)" (abbreviation case-insensitive, sub-score lower case). TypeError for a
 * non-string, RangeError for anything else that does not name a real sub-score.
 */
export function parseSubScoreRef(text: unknown): SubScoreRef {
  if (typeof text !== "string") throw new RulesTypeError("notText", { field: "subScoreRef", got: String(text) });
  if (isSubScoreRef(text)) return text;
  const notation = /^\s*([A-Za-z]{3})\s*\(\s*([a-z]{3})\s*\)\s*$/.exec(text);
  if (notation) {
    const ability = ABILITY_BY_ABBR.get((notation[1] ?? "").toLowerCase());
    const ref = ability === undefined ? undefined : `${ability}.${notation[2] ?? ""}`;
    if (isSubScoreRef(ref)) return ref;
  }
  throw new RulesRangeError("unknownSubScore", { got: text, allowed: SUB_SCORE_REFS.join(", ") });
}

/** The ability and sub-score key of a reference: "fighting.off" → { ability: "fighting", sub: "off" }. */
export function subScoreParts(ref: SubScoreRef): { readonly ability: AbilityWithSubScores; readonly sub: SubScoreKey } {
  const valid = parseSubScoreRef(ref);
  const dot = valid.indexOf(".");
  return { ability: valid.slice(0, dot) as AbilityWithSubScores, sub: valid.slice(dot + 1) as SubScoreKey };
}

/** The sources' notation for a sub-score: "fighting.off" → "Ftg (off)". */
export function formatSubScoreRef(ref: SubScoreRef): string {
  const { ability, sub } = subScoreParts(ref);
  return `${ABILITY_ABBREVIATIONS[ability]} (${sub})`;
}

/**
 * The rank number of a sub-score: `override` when the character has set it apart from its
 * ability, else the ability's own rank number [001, CASE-RULES §3]. `null`/`undefined` mean
 * "not set apart". RangeError for an invalid rank number in either argument.
 */
export function subScoreValue(abilityValue: number, override?: number | null): number {
  assertRankNumber(abilityValue, "ability");
  if (override === undefined || override === null) return abilityValue;
  assertRankNumber(override, "subScore");
  return override;
}

// ---------------------------------------------------------------------------------------------
// Health and Karma
// ---------------------------------------------------------------------------------------------

function sumOf(scores: unknown, keys: readonly AbilityKey[], field: RulesFieldKey): number {
  if (typeof scores !== "object" || scores === null) {
    throw new RulesTypeError("sumNotObject", { field, got: String(scores) });
  }
  const record = scores as Partial<Record<string, unknown>>;
  let total = 0;
  for (const key of keys) {
    const value = record[key];
    if (value === undefined) throw new RulesRangeError("sumMissing", { field, ability: key });
    if (!isRankNumber(value)) throw new RulesRangeError("sumNotRank", { field, ability: key, got: typeof value === "number" ? value : typeof value });
    total += value;
  }
  if (!Number.isSafeInteger(total)) throw new RulesRangeError("sumTooLarge", { field, got: String(total) });
  return total;
}

/** The physical abilities' rank numbers. Extra keys (e.g. a whole ability record) are ignored. */
export type PhysicalAbilities = Readonly<Record<PhysicalAbilityKey, number>>;
/** The mental abilities' rank numbers. Extra keys are ignored. */
export type MentalAbilities = Readonly<Record<MentalAbilityKey, number>>;

/**
 * Health = Fighting + Agility + Strength + Endurance rank numbers [FASERIP, CASE-RULES §3].
 * RangeError naming the ability when one is missing or not a valid rank number.
 */
export function health(abilities: PhysicalAbilities): number {
  return sumOf(abilities, PHYSICAL_ABILITY_KEYS, "health");
}

/**
 * Karma = Reason + Intuition + Psyche rank numbers [FASERIP, CASE-RULES §3].
 * RangeError naming the ability when one is missing or not a valid rank number.
 */
export function karma(abilities: MentalAbilities): number {
  return sumOf(abilities, MENTAL_ABILITY_KEYS, "karma");
}

// ---------------------------------------------------------------------------------------------
// Per-rank tables: thrown range (Table 24) and running speed
// ---------------------------------------------------------------------------------------------

/** The value of {@link thrownRange} for a thrower whose range is line of sight. */
export const LINE_OF_SIGHT = "sight";

/** A thrown range: a number of areas, or line of sight. */
export type ThrownRange = number | typeof LINE_OF_SIGHT;

/** One value per rank, keyed by rank key. */
export type RankTable<T> = Readonly<Record<RankKey, T>>;

/**
 * [RULING] Thrown range of a Shift 0 Strength: Table 24 starts at Feeble. Shift 0 Strength is
 * no strength at all, so the item does not leave the thrower's own area: 0 areas.
 */
export const THROWN_RANGE_SHIFT0 = 0;

/**
 * Table 24 — thrown range in areas by Strength rank [001, CASE-RULES §9]; Shift 0 is
 * {@link THROWN_RANGE_SHIFT0} [RULING]. Data: pass a replacement to {@link thrownRange}.
 */
export const THROWN_RANGE_TABLE: RankTable<ThrownRange> = Object.freeze({
  shift0: THROWN_RANGE_SHIFT0,
  feeble: 1,
  poor: 1,
  typical: 1,
  good: 2,
  excellent: 3,
  remarkable: 4,
  incredible: 5,
  amazing: 6,
  monstrous: 7,
  unearthly: 8,
  shiftX: 10,
  shiftY: 15,
  shiftZ: 20,
  class1000: 40,
  class3000: 80,
  class5000: LINE_OF_SIGHT,
});

/**
 * [RULING] Running speed in areas per turn by Str (vgr) rank. CASE's movement table was not
 * available (CASE-RULES names Str (vgr) for running speed but gives no numbers), so this is
 * our own FASERIP-inspired table: Shift 0 cannot run (0); Feeble 1; Poor–Good 2;
 * Excellent–Incredible 3; Amazing and up 4 (faster than that takes a power). Exported so a
 * setting or module can replace it (pass the replacement to {@link runningSpeed}).
 */
export const RUNNING_SPEED_TABLE: RankTable<number> = Object.freeze({
  shift0: 0,
  feeble: 1,
  poor: 2,
  typical: 2,
  good: 2,
  excellent: 3,
  remarkable: 3,
  incredible: 3,
  amazing: 4,
  monstrous: 4,
  unearthly: 4,
  shiftX: 4,
  shiftY: 4,
  shiftZ: 4,
  class1000: 4,
  class3000: 4,
  class5000: 4,
});

function validateRankTable<T>(table: unknown, field: RulesFieldKey, valid: (v: unknown) => v is T, expected: RulesErrorKey): asserts table is RankTable<T> {
  if (typeof table !== "object" || table === null) throw new RulesTypeError("rankTableNotObject", { field, got: String(table) });
  const record = table as Partial<Record<string, unknown>>;
  for (const key of Object.keys(record)) {
    if (!(RANK_KEYS as readonly string[]).includes(key)) throw new RulesRangeError("rankTableUnknownRank", { field, rank: key });
  }
  for (const rank of RANKS) {
    const v = record[rank.key];
    if (!valid(v)) throw new RulesRangeError(expected, { field, rank: rank.key, got: String(v) });
  }
}

function isAreaCount(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function isThrownRange(v: unknown): v is ThrownRange {
  return v === LINE_OF_SIGHT || isAreaCount(v);
}

/**
 * Throws unless `table` is a usable thrown-range table: exactly one entry per rank key, each a
 * whole number of areas ≥ 0 or {@link LINE_OF_SIGHT}.
 */
export function validateThrownRangeTable(table: unknown): asserts table is RankTable<ThrownRange> {
  validateRankTable(table, "thrownRangeTable", isThrownRange, "rankTableNotThrownRange");
}

/** Throws unless `table` is a usable running-speed table: one whole number ≥ 0 per rank key. */
export function validateRunningSpeedTable(table: unknown): asserts table is RankTable<number> {
  validateRankTable(table, "runningSpeedTable", isAreaCount, "rankTableNotAreas");
}

function lookup<T>(table: RankTable<T>, rank: Rank): T {
  return table[rank.key];
}

/**
 * How far (in areas) a character with Strength rank number `strength` can throw an item, or
 * "sight" for line of sight — Table 24 [001]. Also the distance of a Grand Slam, with the damage
 * dealt as the Strength [001]. RangeError for an invalid rank number.
 */
export function thrownRange(strength: number, table: RankTable<ThrownRange> = THROWN_RANGE_TABLE): ThrownRange {
  assertRankNumber(strength, "strength");
  if (table !== THROWN_RANGE_TABLE) validateThrownRangeTable(table);
  return lookup(table, rankOf(strength));
}

/**
 * Running speed in areas per turn for Str (vgr) rank number `vigour` — a [RULING] table,
 * {@link RUNNING_SPEED_TABLE}. RangeError for an invalid rank number.
 */
export function runningSpeed(vigour: number, table: RankTable<number> = RUNNING_SPEED_TABLE): number {
  assertRankNumber(vigour, "strengthVgr");
  if (table !== RUNNING_SPEED_TABLE) validateRunningSpeedTable(table);
  return lookup(table, rankOf(vigour));
}
