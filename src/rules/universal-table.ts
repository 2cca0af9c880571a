/**
 * The Universal Table (CASE-RULES §2): a d100 roll read on a rank's column lands in one of
 * four colour bands. The bands are data ({@link UniversalTable}); every function takes an
 * optional table so a world setting or a module can replace the default.
 */
import { MAX_RANK_INDEX, RANKS, rankAt, shiftColumn, type Rank, type RankKey } from "./ranks";
import { RulesRangeError } from "./errors";

export const COLORS = ["white", "green", "yellow", "red"] as const;
export type Color = (typeof COLORS)[number];

/** Lowest roll of the green, yellow and red bands of one column. Below `green` is white. */
export interface ColumnBands {
  readonly green: number;
  readonly yellow: number;
  readonly red: number;
}

/** One {@link ColumnBands} per rank, in ladder order (index 0 = Shift 0). */
export type UniversalTable = readonly ColumnBands[];

type BandRow = readonly [key: RankKey, green: number, yellow: number, red: number];

/** CASE-RULES §2 [FASERIP 1986; CASE's own numbers were not available]. */
const DEFAULT_ROWS: readonly BandRow[] = [
  ["shift0", 66, 95, 100],
  ["feeble", 61, 91, 100],
  ["poor", 56, 86, 100],
  ["typical", 51, 81, 98],
  ["good", 46, 76, 98],
  ["excellent", 41, 71, 95],
  ["remarkable", 36, 66, 95],
  ["incredible", 31, 61, 91],
  ["amazing", 26, 56, 91],
  ["monstrous", 21, 51, 86],
  ["unearthly", 16, 46, 86],
  ["shiftX", 11, 41, 81],
  ["shiftY", 7, 41, 81],
  ["shiftZ", 4, 36, 76],
  ["class1000", 2, 36, 76],
  ["class3000", 2, 31, 71],
  ["class5000", 2, 26, 66],
];

/**
 * Throws a RangeError (naming the column and the fault) unless `table` is a usable Universal
 * Table: one column per rank, each with 2 ≤ green ≤ yellow ≤ red ≤ 100 as whole numbers.
 * Bands may be empty (green = yellow means no green rolls) but white always has roll 1, and
 * red always has roll 100.
 */
export function validateUniversalTable(table: unknown): asserts table is UniversalTable {
  if (!Array.isArray(table) || table.length !== RANKS.length) {
    throw new RulesRangeError("tableColumns", { n: RANKS.length });
  }
  // An index loop, not forEach: forEach skips the holes of a sparse array.
  for (let i = 0; i < RANKS.length; i++) {
    const column: unknown = table[i];
    const rank = (RANKS[i] as Rank).key;
    if (typeof column !== "object" || column === null) {
      throw new RulesRangeError("tableColumnNotObject", { rank });
    }
    const { green, yellow, red } = column as Record<string, unknown>;
    for (const [band, v] of [["green", green], ["yellow", yellow], ["red", red]] as const) {
      if (typeof v !== "number" || !Number.isInteger(v) || v < 2 || v > 100) {
        throw new RulesRangeError("tableBand", { rank, band, got: String(v) });
      }
    }
    if (!((green as number) <= (yellow as number) && (yellow as number) <= (red as number))) {
      throw new RulesRangeError("tableBandOrder", { rank });
    }
  }
}

function buildDefault(): UniversalTable {
  const table = DEFAULT_ROWS.map(([key, green, yellow, red], i) => {
    if ((RANKS[i] as Rank).key !== key) throw new Error(`unreachable: Universal Table row ${i} is ${key}, expected ${(RANKS[i] as Rank).key}.`);
    return Object.freeze({ green, yellow, red });
  });
  validateUniversalTable(table);
  return Object.freeze(table);
}

/** The default Universal Table. */
export const UNIVERSAL_TABLE: UniversalTable = buildDefault();

/** Throws a RangeError unless `roll` is a d100 result, a whole number 1–100. */
export function assertD100(roll: number): void {
  if (typeof roll !== "number" || !Number.isInteger(roll) || roll < 1 || roll > 100) {
    throw new RulesRangeError("notWholeInRange", { field: "d100", min: 1, max: 100, got: String(roll) });
  }
}

/** The default table's columns as a plain array: V8 reads a frozen array by index about half as fast. */
const DEFAULT_COLUMNS: ColumnBands[] = [...UNIVERSAL_TABLE];

/** The colour band of `roll` on the column `rank`. */
export function colorOnColumn(rank: Rank, roll: number, table: UniversalTable = UNIVERSAL_TABLE): Color {
  assertD100(roll);
  const bands = (table === UNIVERSAL_TABLE ? DEFAULT_COLUMNS : table)[rank.index] as ColumnBands;
  if (roll >= bands.red) return "red";
  if (roll >= bands.yellow) return "yellow";
  if (roll >= bands.green) return "green";
  return "white";
}

// ── the lookup path ─────────────────────────────────────────────────────────────────────────
// universalColor is the hottest function of the system (every roll of every card). For the
// default table it reads two precomputed typed arrays: rank number → ladder index, then
// (column, roll) → colour index. Typed arrays, not frozen arrays: V8 reads a frozen array by
// index about twice as slowly. Every input outside the fast path's plain cases (a custom table,
// a rank number beyond Class 5000's threshold, a bad number of whatever kind) takes the checked
// path below, which gives the same answer or the same RangeError.

/** Rank numbers below this read their ladder index from {@link INDEX_BY_VALUE}. */
const FAST_VALUE_LIMIT = (RANKS[MAX_RANK_INDEX] as Rank).min + 1;
/** Column shifts within ±this take the fast path. */
const FAST_CS_LIMIT = 64;

const INDEX_BY_VALUE: Int8Array = (() => {
  const out = new Int8Array(FAST_VALUE_LIMIT);
  for (let v = 0; v < FAST_VALUE_LIMIT; v++) out[v] = rankOfIndex(v);
  return out;
})();

function rankOfIndex(value: number): number {
  for (let i = MAX_RANK_INDEX; i > 0; i--) if (value >= (RANKS[i] as Rank).min) return i;
  return 0;
}

/** Colour index (0 white … 3 red) of roll r on column c at [c * 101 + r], for the default table. */
const COLOR_BY_CELL: Uint8Array = (() => {
  const out = new Uint8Array(RANKS.length * 101);
  for (let c = 0; c < RANKS.length; c++) {
    for (let r = 1; r <= 100; r++) out[c * 101 + r] = COLORS.indexOf(colorOnColumn(RANKS[c] as Rank, r, UNIVERSAL_TABLE));
  }
  return out;
})();

/** The colours by index, as a plain (unfrozen) array for the fast read. */
const COLOR_NAMES: Color[] = [...COLORS];

/**
 * The colour of a d100 `roll` read on the column of rank number `value` after `cs` column
 * shifts (clamped to the ladder). RangeError for an invalid rank number, shift or roll.
 */
export function universalColor(value: number, roll: number, cs = 0, table: UniversalTable = UNIVERSAL_TABLE): Color {
  if (
    table === UNIVERSAL_TABLE &&
    (value | 0) === value &&
    value >= 0 &&
    value < FAST_VALUE_LIMIT &&
    (roll | 0) === roll &&
    roll >= 1 &&
    roll <= 100 &&
    (cs | 0) === cs &&
    cs >= -FAST_CS_LIMIT &&
    cs <= FAST_CS_LIMIT
  ) {
    let index = (INDEX_BY_VALUE[value] as number) + cs;
    if (index < 0) index = 0;
    else if (index > MAX_RANK_INDEX) index = MAX_RANK_INDEX;
    return COLOR_NAMES[COLOR_BY_CELL[index * 101 + roll] as number] as Color;
  }
  assertD100(roll);
  return colorOnColumn(shiftColumn(value, cs).rank, roll, table);
}

/** How many of the 100 d100 results give each colour on column `rank`. Sums to 100. */
export function colorCountsOnColumn(rank: Rank, table: UniversalTable = UNIVERSAL_TABLE): Record<Color, number> {
  const { green, yellow, red } = table[rank.index] as ColumnBands;
  return { white: green - 1, green: yellow - green, yellow: red - yellow, red: 101 - red };
}

/**
 * Exact probabilities of each colour for rank number `value` after `cs` shifts (clamped).
 * Each is a count of d100 faces divided by 100, so they sum to 1.
 */
export function colorOdds(value: number, cs = 0, table: UniversalTable = UNIVERSAL_TABLE): Record<Color, number> {
  const counts = colorCountsOnColumn(shiftColumn(value, cs).rank, table);
  return { white: counts.white / 100, green: counts.green / 100, yellow: counts.yellow / 100, red: counts.red / 100 };
}

/** Position of a colour in the order white < green < yellow < red. */
export function colorIndex(color: Color): number {
  const i = COLORS.indexOf(color);
  if (i < 0) throw new RulesRangeError("unknownColour", { got: color });
  return i;
}

/**
 * True when `value` is one of {@link COLORS}. A switch on the constants, not a search of the
 * list: V8 compares a string with a constant by identity, and an attack checks colours often
 * (the `never` fails to compile when a colour has no case).
 */
export function isColor(value: unknown): value is Color {
  const color = value as Color;
  switch (color) {
    case "white":
    case "green":
    case "yellow":
    case "red":
      return true;
    default: {
      const _unlisted: never = color;
      return false;
    }
  }
}

/** True when `rolled` is at least as good as `needed`. */
export function colorAtLeast(rolled: Color, needed: Color): boolean {
  return colorIndex(rolled) >= colorIndex(needed);
}

/** The column of the ladder at `index` clamped to the ladder; a convenience for callers. */
export function columnAt(index: number): Rank {
  if (!Number.isInteger(index)) throw new RulesRangeError("notWhole", { field: "ladderPosition", got: String(index) });
  return rankAt(Math.min(MAX_RANK_INDEX, Math.max(0, index)));
}
