import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_RANK_INDEX,
  RANKS,
  RANK_KEYS,
  assertRankNumber,
  rankAt,
  rankByKey,
  rankOf,
  shiftColumn,
  shiftRank,
} from "../../src/rules/ranks";
import { rulesTable, tableRecords } from "../support/rules-doc";

const ladderDoc = tableRecords(rulesTable(1, "rank", "abbr", "number", "range"));

function parseRange(text: string): { min: number; max: number } {
  const plus = /^(\d+)\+$/.exec(text);
  if (plus) return { min: Number(plus[1]), max: Number.POSITIVE_INFINITY };
  const span = /^(\d+)[–-](\d+)$/.exec(text);
  if (span) return { min: Number(span[1]), max: Number(span[2]) };
  return { min: Number(text), max: Number(text) };
}

describe("the rank ladder (CASE-RULES §1)", () => {
  it("has one rank per row of the rules table, in the same order", () => {
    expect(RANKS.map((r) => r.name)).toEqual(ladderDoc.map((row) => row.rank));
    expect(RANKS).toHaveLength(17);
  });

  it.each(ladderDoc.map((row) => [row.rank, row] as const))("%s matches the rules table cell by cell", (_name, row) => {
    const rank = RANKS[Number(row["#"])];
    expect(rank).toBeDefined();
    expect(rank?.name).toBe(row.rank);
    expect(rank?.abbr).toBe(row.abbr);
    expect(rank?.number).toBe(Number(row.number));
    const { min, max } = parseRange(row.range ?? "");
    expect(rank?.min).toBe(min);
    expect(rank?.max).toBe(max);
  });

  it("keys are unique, match RANK_KEYS, and index is the ladder position", () => {
    expect(RANKS.map((r) => r.key)).toEqual([...RANK_KEYS]);
    RANKS.forEach((r, i) => {
      expect(r.index).toBe(i);
    });
    expect(rankByKey("remarkable").number).toBe(30);
  });

  it("ranges tile the non-negative integers with no gap or overlap", () => {
    for (let i = 1; i < RANKS.length; i++) {
      expect(RANKS[i]?.min).toBe((RANKS[i - 1]?.max ?? Number.NaN) + 1);
    }
    expect(RANKS[0]?.min).toBe(0);
    expect(RANKS[MAX_RANK_INDEX]?.max).toBe(Number.POSITIVE_INFINITY);
  });

  it("each standard number lies in its own range", () => {
    for (const r of RANKS) expect(rankOf(r.number)).toBe(r);
  });

  it("rankOf reads every boundary of every range", () => {
    for (const r of RANKS) {
      expect(rankOf(r.min).key).toBe(r.key);
      if (Number.isFinite(r.max)) expect(rankOf(r.max).key).toBe(r.key);
    }
    expect(rankOf(1_000_000).key).toBe("class5000");
  });

  it("rankOf is monotone: a bigger number never has a lower rank", () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(rankOf(lo).index).toBeLessThanOrEqual(rankOf(hi).index);
      }),
    );
  });

  it.each([-3, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2.0000001, 1e300])("rankOf(%s) is a clear RangeError", (bad) => {
    expect(() => rankOf(bad)).toThrow(RangeError);
    expect(() => rankOf(bad)).toThrow(/non-negative whole number/);
  });

  it("assertRankNumber names the value", () => {
    expect(() => {
      assertRankNumber(-3, "strength");
    }).toThrow(/Strength must be a non-negative whole number, got -3/);
  });

  it("unknown keys and positions are errors", () => {
    expect(() => rankByKey("mighty")).toThrow(RangeError);
    expect(() => rankAt(17)).toThrow(RangeError);
    expect(() => rankAt(-1)).toThrow(RangeError);
    expect(() => rankAt(1.5)).toThrow(RangeError);
  });
});

describe("column shifts", () => {
  it("+n moves n rows up and −n moves n rows down", () => {
    expect(shiftRank(rankByKey("good"), 2).key).toBe("remarkable");
    expect(shiftRank(rankByKey("good"), -2).key).toBe("poor");
  });

  it("are clamped to Shift 0 … Class 5000 [RULING: clamp]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RANK_INDEX }), fc.integer({ min: -40, max: 40 }), (i, cs) => {
        const shifted = shiftRank(rankAt(i), cs);
        expect(shifted.index).toBe(Math.min(MAX_RANK_INDEX, Math.max(0, i + cs)));
      }),
    );
  });

  it("remember a fall below Shift 0 (a to-hit roll then cannot succeed)", () => {
    expect(shiftColumn(10, -4)).toMatchObject({ belowShift0: false, index: 0 });
    expect(shiftColumn(10, -5)).toMatchObject({ belowShift0: true, index: -1 });
    expect(shiftColumn(10, -5).rank.key).toBe("shift0");
  });

  it("a fractional shift is an error", () => {
    expect(() => shiftRank(rankByKey("good"), 0.5)).toThrow(RangeError);
    expect(() => shiftColumn(10, Number.NaN)).toThrow(RangeError);
  });
});
