import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IMPOSSIBLE, type RequiredColor } from "../../src/rules/actions";
import {
  NEGATIVE_POPULARITY_COUNTS_WITH,
  RESOURCES_FEAT_KARMA_ALLOWED,
  RESOURCES_FEAT_RETRY_DAYS,
  RESOURCES_RETRY_BY_COST,
  popularityColumnValue,
  popularityFeat,
  resourcesFeat,
  resourcesFeatMayRetry,
  resourcesFeatRequiredColor,
  resourcesRetryWait,
} from "../../src/rules/feats";
import { DOC_COLORS, docColorOn, docRankOf, rulesSection } from "../support/rules-doc";

const section2 = rulesSection(2).replace(/\s+/g, " ");

/** §2: "acting rank higher → green needed; equal → yellow; intensity one rank higher → red; two or more ranks higher → impossible". */
function docNeeded(acting: number, intensity: number): RequiredColor {
  expect(section2).toMatch(/acting rank higher → green needed; equal → yellow; intensity one rank higher → red; two or more ranks higher → impossible/);
  const gap = docRankOf(intensity).index - docRankOf(acting).index;
  if (gap < 0) return "green";
  if (gap === 0) return "yellow";
  if (gap === 1) return "red";
  return IMPOSSIBLE;
}

function docSuccess(acting: number, intensity: number, roll: number): boolean {
  const needed = docNeeded(acting, intensity);
  if (needed === IMPOSSIBLE) return false;
  return DOC_COLORS.indexOf(docColorOn(docRankOf(acting).index, roll)) >= DOC_COLORS.indexOf(needed);
}

const rankNumber = fc.nat(1200);
const d100 = fc.integer({ min: 1, max: 100 });

describe("resources feat", () => {
  it("the colour needed comes from Resources against the cost rank, as §2 reads an intensity", () => {
    expect(resourcesFeatRequiredColor(20, 10)).toBe("green");
    expect(resourcesFeatRequiredColor(20, 20)).toBe("yellow");
    expect(resourcesFeatRequiredColor(20, 30)).toBe("red");
    expect(resourcesFeatRequiredColor(20, 40)).toBe(IMPOSSIBLE);
    fc.assert(fc.property(rankNumber, rankNumber, (res, cost) => {
      expect(resourcesFeatRequiredColor(res, cost)).toBe(docNeeded(res, cost));
    }));
  });

  it("succeeds exactly when the roll's colour on the Resources column (§2 table) reaches the colour needed", () => {
    fc.assert(fc.property(rankNumber, rankNumber, d100, (res, cost, roll) => {
      expect(resourcesFeat({ resources: res, cost, roll }).success).toBe(docSuccess(res, cost, roll));
    }));
  });

  it("no Karma on a Resources FEAT [FASERIP], unless a setting allows it", () => {
    expect(RESOURCES_FEAT_KARMA_ALLOWED).toBe(false);
    expect(() => resourcesFeat({ resources: 20, cost: 20, roll: 50, karma: 10 })).toThrow(/Karma may not be spent on a Resources FEAT/);
    expect(resourcesFeat({ resources: 20, cost: 20, roll: 50, karma: 30, karmaAllowed: true }).total).toBe(80);
  });

  it("a failed FEAT for the same item waits a week [FASERIP]", () => {
    expect(RESOURCES_FEAT_RETRY_DAYS).toBe(7);
    expect(resourcesFeatMayRetry(6)).toBe(false);
    expect(resourcesFeatMayRetry(7)).toBe(true);
  });

  it("refuses bad input", () => {
    expect(() => resourcesFeat({ resources: -3, cost: 10, roll: 50 })).toThrow(RangeError);
    expect(() => resourcesFeat({ resources: 10, cost: 10, roll: 101 })).toThrow(RangeError);
    expect(() => resourcesFeat({ resources: 10, cost: Number.NaN, roll: 50 })).toThrow(RangeError);
    expect(() => resourcesFeatMayRetry(-1)).toThrow(RangeError);
  });
});

describe("popularity feat", () => {
  it("a positive Popularity rolls on its own column with the public", () => {
    expect(popularityColumnValue(30, "public")).toBe(30);
    expect(popularityFeat({ popularity: 30, intensity: 20, roll: 40 }).column.name).toBe(docRankOf(30).name);
  });

  it("a negative Popularity counts by its size with the underworld and as Shift 0 with the public (ruling)", () => {
    expect(NEGATIVE_POPULARITY_COUNTS_WITH).toBe("underworld");
    expect(popularityColumnValue(-30, "underworld")).toBe(30);
    expect(popularityColumnValue(-30, "public")).toBe(0);
    expect(popularityColumnValue(30, "underworld")).toBe(0);
    expect(popularityFeat({ popularity: -40, audience: "underworld", intensity: 20, roll: 40 }).column.name).toBe(docRankOf(40).name);
  });

  it("the request's intensity sets the colour needed (§2)", () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), rankNumber, d100, fc.constantFrom("public" as const, "underworld" as const), (pop, intensity, roll, audience) => {
      const column = popularityColumnValue(pop, audience);
      expect(column).toBeGreaterThanOrEqual(0);
      expect(popularityFeat({ popularity: pop, audience, intensity, roll }).success).toBe(docSuccess(column, intensity, roll));
    }));
  });

  it("refuses bad input", () => {
    expect(() => popularityColumnValue(1.5)).toThrow(RangeError);
    expect(() => popularityColumnValue(10, "press" as "public")).toThrow(RangeError);
    expect(() => popularityFeat({ popularity: 10, intensity: -3, roll: 50 })).toThrow(RangeError);
  });
});

describe("resources retry", () => {
  it("resources retry waits the week for the cost that failed (RESOURCES_RETRY_BY_COST): 3 days after, 4 to wait; 7 after, none; another cost, none", () => {
    const failed = { "30": 86_400 };
    expect(RESOURCES_RETRY_BY_COST).toBe(true);
    expect(resourcesRetryWait(failed, 30, 86_400 + 3 * 86_400)).toBe(4);
    expect(resourcesRetryWait(failed, 30, 86_400 + 7 * 86_400 - 1)).toBe(1);
    expect(resourcesRetryWait(failed, 30, 86_400 + 7 * 86_400)).toBe(0);
    expect(resourcesRetryWait(failed, 10, 86_400)).toBe(0);
  });
});
