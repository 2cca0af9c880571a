/**
 * The Universal Table (CASE-RULES §2): a d100 roll read on a rank's column lands in one of
 * four colour bands. The bands are data ({@link UniversalTable}); every function takes an
 * optional table so a world setting or a module can replace the default.
 */
import { MAX_RANK_INDEX, RANKS, rankAt, shiftColumn, type Rank, type RankKey } from "./ranks";

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
    throw new RangeError(`A Universal Table needs exactly ${RANKS.length} columns (Shift 0 … Class 5000).`);
  }
  // An index loop, not forEach: forEach skips the holes of a sparse array.
  for (let i = 0; i < RANKS.length; i++) {
    const column: unknown = table[i];
    const name = (RANKS[i] as Rank).name;
    if (typeof column !== "object" || column === null) {
      throw new RangeError(`Universal Table column ${name} is not an object.`);
    }
    const { green, yellow, red } = column as Record<string, unknown>;
    for (const [band, v] of [["green", green], ["yellow", yellow], ["red", red]] as const) {
      if (typeof v !== "number" || !Number.isInteger(v) || v < 2 || v > 100) {
        throw new RangeError(`Universal Table column ${name}: ${band} must be a whole number 2–100, got ${String(v)}.`);
      }
    }
    if (!((green as number) <= (yellow as number) && (yellow as number) <= (red as number))) {
      throw new RangeError(`Universal Table column ${name}: bands must satisfy green ≤ yellow ≤ red.`);
    }
  }
}

function buildDefault(): UniversalTable {
  const table = DEFAULT_ROWS.map(([key, green, yellow, red], i) => {
    if ((RANKS[i] as Rank).key !== key) throw new Error(`Universal Table row ${i} is ${key}, expected ${(RANKS[i] as Rank).key}.`);
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
    throw new RangeError(`A d100 roll must be a whole number from 1 to 100, got ${String(roll)}.`);
  }
}

/** The colour band of `roll` on the column `rank`. */
export function colorOnColumn(rank: Rank, roll: number, table: UniversalTable = UNIVERSAL_TABLE): Color {
  assertD100(roll);
  const bands = table[rank.index] as ColumnBands;
  if (roll >= bands.red) return "red";
  if (roll >= bands.yellow) return "yellow";
  if (roll >= bands.green) return "green";
  return "white";
}

/**
 * The colour of a d100 `roll` read on the column of rank number `value` after `cs` column
 * shifts (clamped to the ladder). RangeError for an invalid rank number, shift or roll.
 */
export function universalColor(value: number, roll: number, cs = 0, table: UniversalTable = UNIVERSAL_TABLE): Color {
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
  if (i < 0) throw new RangeError(`Unknown colour ${JSON.stringify(color)}.`);
  return i;
}

export function isColor(value: unknown): value is Color {
  return typeof value === "string" && (COLORS as readonly string[]).includes(value);
}

/** True when `rolled` is at least as good as `needed`. */
export function colorAtLeast(rolled: Color, needed: Color): boolean {
  return colorIndex(rolled) >= colorIndex(needed);
}

/** The column of the ladder at `index` clamped to the ladder; a convenience for callers. */
export function columnAt(index: number): Rank {
  if (!Number.isInteger(index)) throw new RangeError(`A ladder position must be a whole number, got ${String(index)}.`);
  return rankAt(Math.min(MAX_RANK_INDEX, Math.max(0, index)));
}
