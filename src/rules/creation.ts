/**
 * Character creation: random (dice) and point-based. Pure: the random builder takes a `roll`
 * function (or pre-rolled numbers through {@link rollsFrom}) so tests are deterministic; the
 * derived values (Health, Karma, initiative …) come from {@link characterStats}.
 *
 * Defaults: the FASERIP Basic Set (1984) Random Ranks table (as transcribed at
 * usenet.trashworldnews.com/?thread=132825: 01–05 Feeble 2 … 97–00 Amazing 50). The counts of
 * powers, talents and contacts and the point-based costs are [RULING]s: the Basic Set figures
 * were not available and CASE's systematic method was not either.
 */
import { ABILITY_KEYS, type AbilityKey } from "./abilities";
import { characterStats, type AbilitiesInput, type CharacterStats } from "./character";
import { assertRankNumber, rankByKey, rankOf, type RankKey } from "./ranks";
import { assertD100 } from "./universal-table";
import { assertArray, assertInteger, assertObject, assertWholeNumber } from "./checks";
import { RulesRangeError, RulesTypeError, type RulesFieldKey } from "./errors";

/** One row of a d100 table: results up to `upTo` (inclusive) give `value`. */
export interface D100Row<T> {
  readonly upTo: number;
  readonly value: T;
}

/** Throws unless `table` covers 1–100 with rising `upTo`, ending at 100. */
export function validateD100Table<T>(table: readonly D100Row<T>[], field: RulesFieldKey): void {
  assertArray(table, field);
  let last = 0;
  for (const row of table) {
    assertWholeNumber(row.upTo, field, last + 1);
    last = row.upTo;
  }
  if (last !== 100) throw new RulesRangeError("d100TableEnd", { field, got: last });
}

/** The value of a d100 `roll` on `table`. */
export function readD100Table<T>(table: readonly D100Row<T>[], roll: number): T {
  assertD100(roll);
  const row = table.find((r) => roll <= r.upTo);
  if (!row) throw new RulesRangeError("d100TableNoRow", { roll });
  return row.value;
}

/** [RULING][FASERIP Basic Set] The Random Ranks table for abilities (and Resources). */
export const RANDOM_RANK_TABLE: readonly D100Row<RankKey>[] = Object.freeze([
  { upTo: 5, value: "feeble" },
  { upTo: 10, value: "poor" },
  { upTo: 20, value: "typical" },
  { upTo: 40, value: "good" },
  { upTo: 60, value: "excellent" },
  { upTo: 80, value: "remarkable" },
  { upTo: 96, value: "incredible" },
  { upTo: 100, value: "amazing" },
] as const);

/** [RULING] Powers a random character has, by d100. */
export const POWER_COUNT_TABLE: readonly D100Row<number>[] = Object.freeze([
  { upTo: 20, value: 2 },
  { upTo: 60, value: 3 },
  { upTo: 90, value: 4 },
  { upTo: 100, value: 5 },
]);

/** [RULING] Talents a random character has, by d100. */
export const TALENT_COUNT_TABLE: readonly D100Row<number>[] = Object.freeze([
  { upTo: 30, value: 1 },
  { upTo: 70, value: 2 },
  { upTo: 90, value: 3 },
  { upTo: 100, value: 4 },
]);

/** [RULING] Contacts a random character has, by d100. */
export const CONTACT_COUNT_TABLE: readonly D100Row<number>[] = Object.freeze([
  { upTo: 40, value: 0 },
  { upTo: 80, value: 1 },
  { upTo: 100, value: 2 },
]);

/** [RULING][FASERIP] A new character's Popularity (heroes start unknown). */
export const STARTING_POPULARITY = 0;

/** A die: `roll(sides)` returns a whole number 1…sides. */
export type RollFn = (sides: number) => number;

/** A {@link RollFn} that hands out `results` in order (RangeError when they run out). */
export function rollsFrom(results: readonly number[]): RollFn {
  assertArray(results, { input: "preRolledResults" });
  let i = 0;
  return () => {
    const r = results[i];
    if (r === undefined) throw new RulesRangeError("preRolledShort", { n: results.length });
    i++;
    return r;
  };
}

function d100(roll: RollFn): number {
  const r = roll(100);
  assertD100(r);
  return r;
}

/** The rank number of a d100 roll on the Random Ranks table (the rank's standard number). */
export function randomRank(roll: number, table: readonly D100Row<RankKey>[] = RANDOM_RANK_TABLE): number {
  return rankByKey(readD100Table(table, roll)).number;
}

/** A character built by either method. */
export interface BuiltCharacter {
  readonly abilities: Readonly<Record<AbilityKey, number>>;
  readonly resources: number;
  readonly popularity: number;
  readonly powers: number;
  readonly talents: number;
  readonly contacts: number;
  /** Health, Karma and the rest, from {@link characterStats}. */
  readonly stats: CharacterStats;
}

function abilitiesInput(abilities: Readonly<Record<AbilityKey, number>>): AbilitiesInput {
  return Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: abilities[k] }])) as AbilitiesInput;
}

/** The tables a random build reads (each replaceable by a setting). */
export interface RandomTables {
  readonly ranks: readonly D100Row<RankKey>[];
  readonly powers: readonly D100Row<number>[];
  readonly talents: readonly D100Row<number>[];
  readonly contacts: readonly D100Row<number>[];
}

export const DEFAULT_RANDOM_TABLES: RandomTables = Object.freeze({
  ranks: RANDOM_RANK_TABLE,
  powers: POWER_COUNT_TABLE,
  talents: TALENT_COUNT_TABLE,
  contacts: CONTACT_COUNT_TABLE,
});

/**
 * A random character: d100 for each ability in FASERIP order, then Resources, then the number of
 * powers, talents and contacts (11 rolls of `roll(100)` in all).
 */
export function randomCharacter(roll: RollFn, tables: Partial<RandomTables> = {}): BuiltCharacter {
  if (typeof roll !== "function") throw new RulesTypeError("needsFunction", { name: "roll(sides)" });
  const t: RandomTables = { ...DEFAULT_RANDOM_TABLES, ...tables };
  validateD100Table(t.ranks, "randomRankTable");
  validateD100Table(t.powers, "powerCountTable");
  validateD100Table(t.talents, "talentCountTable");
  validateD100Table(t.contacts, "contactCountTable");
  const abilities = Object.fromEntries(ABILITY_KEYS.map((k) => [k, randomRank(d100(roll), t.ranks)])) as Record<AbilityKey, number>;
  const resources = randomRank(d100(roll), t.ranks);
  const powers = readD100Table(t.powers, d100(roll));
  const talents = readD100Table(t.talents, d100(roll));
  const contacts = readD100Table(t.contacts, d100(roll));
  return { abilities, resources, popularity: STARTING_POPULARITY, powers, talents, contacts, stats: characterStats(abilitiesInput(abilities)) };
}

// ---------------------------------------------------------------------------------------------
// Point-based
// ---------------------------------------------------------------------------------------------

/** [RULING] The costs and limits of a point-based build. */
export interface PointRules {
  /** Points to spend. */
  readonly budget: number;
  /** Points per ladder step of an ability's rank (Feeble 1 × this, Poor 2 × this …). */
  readonly abilityCostPerRank: number;
  /** Points per ladder step of a power's rank. */
  readonly powerCostPerRank: number;
  readonly talentCost: number;
  readonly contactCost: number;
  /** Points per ladder step of Resources. */
  readonly resourcesCostPerRank: number;
  /** The highest rank an ability or power may start at. */
  readonly maxRank: RankKey;
}

/** [RULING] Default point-based costs: a Typical human (all Typical, 7 × 3 = 21) leaves 79 points for powers and talents. */
export const DEFAULT_POINT_RULES: PointRules = Object.freeze({
  budget: 100,
  abilityCostPerRank: 1,
  powerCostPerRank: 2,
  talentCost: 2,
  contactCost: 1,
  resourcesCostPerRank: 1,
  maxRank: "unearthly",
});

/** A point-based build as the player sets it. */
export interface PointBuild {
  readonly abilities: Readonly<Record<AbilityKey, number>>;
  /** Rank numbers of the powers taken. */
  readonly powers: readonly number[];
  readonly talents: number;
  readonly contacts: number;
  readonly resources: number;
}

/** A problem with a build, as a code the sheet translates (`CASE.Builder.Problem.<code>`). */
export interface BuildProblem {
  readonly code: "overBudget" | "aboveMaxRank";
  /** The field at fault ("strength", "power 2", "budget"). */
  readonly field: string;
}

/** What a build costs and whether it is legal. */
export interface PointBuildCheck {
  readonly spent: number;
  readonly remaining: number;
  readonly problems: readonly BuildProblem[];
  readonly valid: boolean;
}

/** The points of a build and its problems. RangeError/TypeError for malformed input. */
export function checkPointBuild(build: PointBuild, rules: Partial<PointRules> = {}): PointBuildCheck {
  assertObject(build, { input: "pointBuild" });
  const r: PointRules = { ...DEFAULT_POINT_RULES, ...rules };
  for (const k of ["budget", "abilityCostPerRank", "powerCostPerRank", "talentCost", "contactCost", "resourcesCostPerRank"] as const) assertWholeNumber(r[k], "creationRule");
  const max = rankByKey(r.maxRank).index;
  const problems: BuildProblem[] = [];
  let spent = 0;
  for (const k of ABILITY_KEYS) {
    const v = build.abilities[k];
    assertRankNumber(v, k);
    const idx = rankOf(v).index;
    if (idx > max) problems.push({ code: "aboveMaxRank", field: k });
    spent += idx * r.abilityCostPerRank;
  }
  assertArray(build.powers, "powers");
  build.powers.forEach((p, i) => {
    assertWholeNumber(p, ["powerRank", i + 1]);
    const idx = rankOf(p).index;
    if (idx > max) problems.push({ code: "aboveMaxRank", field: `power ${i + 1}` });
    spent += idx * r.powerCostPerRank;
  });
  assertWholeNumber(build.talents, { input: "talents" });
  assertWholeNumber(build.contacts, { input: "contacts" });
  assertRankNumber(build.resources, "resources");
  spent += build.talents * r.talentCost + build.contacts * r.contactCost + rankOf(build.resources).index * r.resourcesCostPerRank;
  if (spent > r.budget) problems.push({ code: "overBudget", field: "budget" });
  return { spent, remaining: r.budget - spent, problems, valid: problems.length === 0 };
}

/** A legal point build as a character (RangeError listing the problems otherwise). */
export function pointBuildCharacter(build: PointBuild, rules: Partial<PointRules> = {}, popularity: number = STARTING_POPULARITY): BuiltCharacter {
  const check = checkPointBuild(build, rules);
  if (!check.valid) throw new RulesRangeError("buildNotLegal", { problems: check.problems.map((p) => `${p.code} (${p.field})`).join(", ") });
  assertInteger(popularity, "popularity");
  return {
    abilities: { ...build.abilities },
    resources: build.resources,
    popularity,
    powers: build.powers.length,
    talents: build.talents,
    contacts: build.contacts,
    stats: characterStats(abilitiesInput(build.abilities)),
  };
}
