import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RANKS, rankOf, shiftColumn } from "../../src/rules/ranks";
import {
  COLORS,
  UNIVERSAL_TABLE,
  colorAtLeast,
  colorCountsOnColumn,
  colorIndex,
  colorOdds,
  colorOnColumn,
  universalColor,
  validateUniversalTable,
  type Color,
} from "../../src/rules/universal-table";
import { rulesSection, rulesTable, tableRecords } from "../support/rules-doc";

const tableDoc = tableRecords(rulesTable(2, "column", "green from", "yellow from", "red from"));
const rankByName = new Map(RANKS.map((r) => [r.name, r]));

/** The colour the rules document gives for `roll` on a column: read from the document's row. */
function docColor(row: Record<string, string>, roll: number): Color {
  if (roll >= Number(row["red from"])) return "red";
  if (roll >= Number(row["yellow from"])) return "yellow";
  if (roll >= Number(row["green from"])) return "green";
  return "white";
}

describe("the Universal Table (CASE-RULES §2)", () => {
  it("has a row in the rules for every column of the ladder", () => {
    expect(tableDoc.map((row) => row.column)).toEqual(RANKS.map((r) => r.name));
  });

  // 17 columns × 100 rolls = every cell of the table.
  it.each(tableDoc.map((row) => [row.column, row] as const))("column %s: every roll 1–100 gives the colour the rules give", (name, row) => {
    const rank = rankByName.get(name ?? "");
    expect(rank).toBeDefined();
    if (!rank) return;
    for (let roll = 1; roll <= 100; roll++) {
      expect({ roll, color: universalColor(rank.number, roll) }).toEqual({ roll, color: docColor(row, roll) });
      expect(colorOnColumn(rank, roll)).toBe(docColor(row, roll));
    }
  });

  it("a higher column never gives a worse colour for the same roll", () => {
    fc.assert(
      fc.property(fc.nat(6000), fc.nat(6000), fc.integer({ min: 1, max: 100 }), (a, b, roll) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(colorIndex(universalColor(hi, roll))).toBeGreaterThanOrEqual(colorIndex(universalColor(lo, roll)));
      }),
    );
  });

  it("a higher roll never gives a worse colour on the same column", () => {
    fc.assert(
      fc.property(fc.nat(6000), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (v, r1, r2) => {
        const [lo, hi] = r1 <= r2 ? [r1, r2] : [r2, r1];
        expect(colorAtLeast(universalColor(v, hi), universalColor(v, lo))).toBe(true);
      }),
    );
  });

  it("a roll of 100 is red on every column and 01 is white on every column", () => {
    for (const r of RANKS) {
      expect(universalColor(r.number, 100)).toBe("red");
      expect(universalColor(r.number, 1)).toBe("white");
    }
  });

  it("column shifts read another column, clamped", () => {
    // Good (10) +2 CS is read on Remarkable: 36 is green there, white on Good.
    expect(universalColor(10, 36)).toBe("white");
    expect(universalColor(10, 36, 2)).toBe("green");
    expect(universalColor(5000, 65, 5)).toBe(universalColor(5000, 65));
    expect(universalColor(0, 94, -3)).toBe(universalColor(0, 94));
  });

  it.each([0, 101, -5, 50.5, Number.NaN])("a roll of %s is a clear RangeError", (roll) => {
    expect(() => universalColor(30, roll)).toThrow(RangeError);
    expect(() => universalColor(30, roll)).toThrow(/whole number from 1 to 100/);
  });

  it("rejects a bad rank number before reading the table", () => {
    expect(() => universalColor(-3, 50)).toThrow(/non-negative whole number/);
  });
});

describe("colorOdds", () => {
  it("are the exact share of d100 faces in each band, summing to 1", () => {
    fc.assert(
      fc.property(fc.nat(6000), fc.integer({ min: -20, max: 20 }), (v, cs) => {
        const odds = colorOdds(v, cs);
        const sum = COLORS.reduce((s, c) => s + odds[c], 0);
        expect(sum).toBeCloseTo(1, 12);
        // Count the faces by rolling every face: no shortcut through the band numbers.
        for (const c of COLORS) {
          let faces = 0;
          for (let roll = 1; roll <= 100; roll++) if (universalColor(v, roll, cs) === c) faces++;
          expect(odds[c]).toBeCloseTo(faces / 100, 12);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("Typical reads 50% white, 30% green, 17% yellow, 3% red from the rules row", () => {
    const row = tableDoc.find((r) => r.column === "Typical");
    expect(row).toBeDefined();
    const counts = colorCountsOnColumn(rankOf(6));
    expect(counts.white).toBe(Number(row?.["green from"]) - 1);
    expect(counts).toEqual({ white: 50, green: 30, yellow: 17, red: 3 });
  });
});

describe("colours", () => {
  it("are ordered white < green < yellow < red as the rules say", () => {
    const order = /Colours are ordered (\w+) < (\w+) < (\w+) < (\w+)/.exec(rulesSection(2));
    expect(order?.slice(1)).toEqual([...COLORS]);
    expect(colorAtLeast("red", "yellow")).toBe(true);
    expect(colorAtLeast("green", "yellow")).toBe(false);
  });

  it("an unknown colour is an error", () => {
    expect(() => colorIndex("blue" as Color)).toThrow(RangeError);
  });
});

describe("a replacement table", () => {
  it("the default validates", () => {
    expect(() => {
      validateUniversalTable(UNIVERSAL_TABLE);
    }).not.toThrow();
  });

  it("a replacement is used where passed", () => {
    const flat = RANKS.map(() => ({ green: 50, yellow: 75, red: 100 }));
    validateUniversalTable(flat);
    expect(universalColor(5000, 10, 0, flat)).toBe("white");
    expect(colorOdds(0, 0, flat)).toEqual({ white: 0.49, green: 0.25, yellow: 0.25, red: 0.01 });
  });

  it.each([
    ["too few columns", RANKS.slice(1).map(() => ({ green: 50, yellow: 75, red: 100 })), /exactly 17 columns/],
    ["a band out of order", RANKS.map(() => ({ green: 80, yellow: 75, red: 100 })), /green ≤ yellow ≤ red/],
    ["a band at 1 (no white)", RANKS.map(() => ({ green: 1, yellow: 75, red: 100 })), /2–100/],
    ["a band above 100", RANKS.map(() => ({ green: 50, yellow: 75, red: 101 })), /2–100/],
    ["not a table", "table", /exactly 17 columns/],
    ["17 empty slots (a sparse array)", new Array<undefined>(17), /column shift0 is not an object/],
  ])("rejects %s with a clear error", (_what, table, message) => {
    expect(() => {
      validateUniversalTable(table);
    }).toThrow(message);
  });
});

describe("universalColor's lookup path (the default table)", () => {
  it("agrees with reading the column cell by cell, for every rank number to past Class 5000, every shift −20…+20 and every roll: 0 disagreements", () => {
    let disagreements = 0;
    let cases = 0;
    for (let value = 0; value <= 5_100; value += value < 600 ? 1 : 7) {
      for (let cs = -20; cs <= 20; cs++) {
        const column = shiftColumn(value, cs).rank;
        for (let roll = 1; roll <= 100; roll++) {
          cases++;
          if (universalColor(value, roll, cs) !== colorOnColumn(column, roll)) disagreements++;
        }
      }
    }
    expect(cases).toBeGreaterThan(4_000_000);
    expect(disagreements).toBe(0);
  });

  it("still refuses every bad input with a RangeError, and takes huge but valid numbers", () => {
    for (const [value, roll, cs] of [
      [-3, 50, 0],
      [2.5, 50, 0],
      [Number.NaN, 50, 0],
      [Infinity, 50, 0],
      [30, 0, 0],
      [30, 101, 0],
      [30, 1.5, 0],
      [30, Number.NaN, 0],
      [30, 50, 0.5],
      [30, 50, Number.NaN],
      [2 ** 31 + 5, 50, 0],
    ] as const) {
      if (value === 2 ** 31 + 5) expect(universalColor(value, roll, cs)).toBe(colorOnColumn(shiftColumn(value, cs).rank, roll));
      else expect(() => universalColor(value, roll, cs)).toThrow(RangeError);
    }
    expect(universalColor(1_000_000, 100, 500)).toBe("red");
    expect(universalColor(0, 1, -500)).toBe("white");
  });
});
