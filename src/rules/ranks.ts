/**
 * The rank ladder and column shifts (CASE-RULES §1).
 *
 * A trait is stored as a rank number (a non-negative integer); its rank — the column it is
 * read on — is the row of {@link RANKS} whose range holds it. Ranks are identified by `key`.
 * Display names here are the canonical English names for logs and tests; the Foundry side
 * shows `CASE.Rank.<key>` from lang/en.json.
 */
import { RulesRangeError, type RulesFieldKey } from "./errors";

export const RANK_KEYS = [
  "shift0",
  "feeble",
  "poor",
  "typical",
  "good",
  "excellent",
  "remarkable",
  "incredible",
  "amazing",
  "monstrous",
  "unearthly",
  "shiftX",
  "shiftY",
  "shiftZ",
  "class1000",
  "class3000",
  "class5000",
] as const;

export type RankKey = (typeof RANK_KEYS)[number];

export interface Rank {
  /** Stable identifier, e.g. "remarkable". */
  readonly key: RankKey;
  /** Canonical English name, e.g. "Remarkable". */
  readonly name: string;
  /** Abbreviation, e.g. "Rm". */
  readonly abbr: string;
  /** Position on the ladder: 0 (Shift 0) … 16 (Class 5000). */
  readonly index: number;
  /** The standard rank number, e.g. 30 for Remarkable. */
  readonly number: number;
  /** Lowest rank number that counts as this rank. */
  readonly min: number;
  /** Highest rank number that counts as this rank (Infinity for Class 5000). */
  readonly max: number;
}

type RankRow = readonly [key: RankKey, name: string, abbr: string, number: number, min: number, max: number];

/** CASE-RULES §1 [FASERIP; Feeble–Unearthly confirmed for CASE]. */
const RANK_ROWS: readonly RankRow[] = [
  ["shift0", "Shift 0", "S0", 0, 0, 0],
  ["feeble", "Feeble", "Fe", 2, 1, 2],
  ["poor", "Poor", "Pr", 4, 3, 4],
  ["typical", "Typical", "Ty", 6, 5, 7],
  ["good", "Good", "Gd", 10, 8, 15],
  ["excellent", "Excellent", "Ex", 20, 16, 25],
  ["remarkable", "Remarkable", "Rm", 30, 26, 35],
  ["incredible", "Incredible", "In", 40, 36, 45],
  ["amazing", "Amazing", "Am", 50, 46, 62],
  ["monstrous", "Monstrous", "Mn", 75, 63, 87],
  ["unearthly", "Unearthly", "Un", 100, 88, 125],
  ["shiftX", "Shift X", "X", 150, 126, 175],
  ["shiftY", "Shift Y", "Y", 200, 176, 350],
  ["shiftZ", "Shift Z", "Z", 500, 351, 999],
  ["class1000", "Class 1000", "C1000", 1000, 1000, 2999],
  ["class3000", "Class 3000", "C3000", 3000, 3000, 4999],
  ["class5000", "Class 5000", "C5000", 5000, 5000, Number.POSITIVE_INFINITY],
];

/** The ladder, lowest to highest. */
export const RANKS: readonly Rank[] = Object.freeze(
  RANK_ROWS.map(([key, name, abbr, number, min, max], index) =>
    Object.freeze({ key, name, abbr, index, number, min, max }),
  ),
);

/** Index of the top of the ladder (Class 5000). */
export const MAX_RANK_INDEX = RANKS.length - 1;

const RANK_BY_KEY: ReadonlyMap<string, Rank> = new Map(RANKS.map((r) => [r.key, r]));

/** The rank at a ladder position. RangeError when the position is off the ladder. */
export function rankAt(index: number): Rank {
  const rank = Number.isInteger(index) ? RANKS[index] : undefined;
  if (!rank) throw new RulesRangeError("noRankAt", { got: String(index), max: MAX_RANK_INDEX });
  return rank;
}

/** The rank with this key. RangeError for an unknown key. */
export function rankByKey(key: string): Rank {
  const rank = RANK_BY_KEY.get(key);
  if (!rank) throw new RulesRangeError("unknownRank", { got: key, allowed: RANK_KEYS.join(", ") });
  return rank;
}

export function isRankKey(key: unknown): key is RankKey {
  return typeof key === "string" && RANK_BY_KEY.has(key);
}

/**
 * Throws a RangeError unless `value` is a valid rank number: a finite, non-negative integer.
 * `field` names the value in the message (a key of RULES_FIELD_TEXT: "strength", "damage").
 * (The string half of its type is for src/rules/turn/state.ts until it names its fields by key.)
 */
export function assertRankNumber(value: number, field: RulesFieldKey = "rankNumber"): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new RulesRangeError("notNonNegativeWhole", { field, got: String(value) });
}

/** True when `value` is a valid rank number. */
export function isRankNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Rank numbers below this read their rank from {@link RANK_INDEX_BY_NUMBER} (Class 5000's threshold and below). */
const FAST_RANK_NUMBER_LIMIT = (RANKS[MAX_RANK_INDEX] as Rank).min + 1;

/** The ladder as a plain array: V8 reads a frozen array by index about half as fast. */
const RANK_LIST: Rank[] = [...RANKS];

/** Ladder index of every rank number below {@link FAST_RANK_NUMBER_LIMIT}, by the scan of {@link rankOf}. */
const RANK_INDEX_BY_NUMBER: Uint8Array = (() => {
  const out = new Uint8Array(FAST_RANK_NUMBER_LIMIT);
  for (let v = 0; v < FAST_RANK_NUMBER_LIMIT; v++) out[v] = scanRankOf(v).index;
  return out;
})();

/** The rank (column) whose range holds the rank number `value`. */
export function rankOf(value: number): Rank {
  // The common case (a whole number up to Class 5000's threshold) reads a table the scan built.
  if ((value | 0) === value && value >= 0 && value < FAST_RANK_NUMBER_LIMIT) return RANK_LIST[RANK_INDEX_BY_NUMBER[value] as number] as Rank;
  return scanRankOf(value);
}

/** {@link rankOf} by a scan of the ladder, with the check. */
function scanRankOf(value: number): Rank {
  assertRankNumber(value);
  // The ladder is short (17 rows); a scan from the top is as fast as a binary search here.
  for (let i = MAX_RANK_INDEX; i > 0; i--) {
    const rank = RANKS[i] as Rank;
    if (value >= rank.min) return rank;
  }
  return RANKS[0] as Rank;
}

/** Throws a RangeError unless `cs` is a whole number of column shifts. */
export function assertColumnShift(cs: number): void {
  if (typeof cs !== "number" || !Number.isInteger(cs)) {
    throw new RulesRangeError("notWhole", { field: "columnShift", got: String(cs) });
  }
}

/** The ladder position `cs` rows away from `rank`, not clamped (may be < 0 or > the top). */
export function shiftedIndex(rank: Rank, cs: number): number {
  assertColumnShift(cs);
  return rank.index + cs;
}

/**
 * The rank `cs` rows up (+) or down (−) the ladder from `rank`, clamped to Shift 0 … Class 5000
 * [RULING: clamp]. Use {@link shiftColumn} where falling below Shift 0 matters (to-hit rolls).
 */
export function shiftRank(rank: Rank, cs: number): Rank {
  return RANK_LIST[clampedIndex(shiftedIndex(rank, cs))] as Rank;
}

/** A ladder position clamped to Shift 0 … Class 5000. */
function clampedIndex(index: number): number {
  return Math.min(MAX_RANK_INDEX, Math.max(0, index));
}

/** A column after shifts, remembering whether the shift fell off the bottom of the ladder. */
export interface ShiftedColumn {
  /** The column to read (clamped to the ladder). */
  readonly rank: Rank;
  /** The unclamped ladder position the shifts asked for. */
  readonly index: number;
  /**
   * True when the shifts took the column below Shift 0: for to-hit rolls that makes a hit
   * impossible [001: "drop one's 'to hit' score below Shift 0 … making … a hit … impossible"].
   */
  readonly belowShift0: boolean;
}

/** The column for rank number `value` after `cs` column shifts. */
export function shiftColumn(value: number, cs = 0): ShiftedColumn {
  const index = shiftedIndex(rankOf(value), cs);
  return { rank: RANK_LIST[clampedIndex(index)] as Rank, index, belowShift0: index < 0 };
}

/** Number of ladder rows from `a` up to `b` (negative when `b` is lower). */
export function rankDistance(a: Rank, b: Rank): number {
  return b.index - a.index;
}
