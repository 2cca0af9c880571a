import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ABILITY_ABBREVIATIONS,
  ABILITY_KEYS,
  LINE_OF_SIGHT,
  MENTAL_ABILITY_KEYS,
  PHYSICAL_ABILITY_KEYS,
  RUNNING_SPEED_TABLE,
  SUB_SCORES,
  SUB_SCORE_REFS,
  THROWN_RANGE_SHIFT0,
  THROWN_RANGE_TABLE,
  abilityKey,
  formatSubScoreRef,
  health,
  isAbilityKey,
  isSubScoreRef,
  karma,
  parseSubScoreRef,
  runningSpeed,
  subScoreParts,
  subScoreRef,
  subScoreValue,
  thrownRange,
  validateRunningSpeedTable,
  validateThrownRangeTable,
  type AbilityKey,
  type SubScoreRef,
  type ThrownRange,
} from "../../src/rules/abilities";
import { RANKS, rankOf, type Rank } from "../../src/rules/ranks";
import { rankNamed, samplesOf } from "../support/rank-samples";
import { rankValueList, rulesSection, rulesTable, tableRecords } from "../support/rules-doc";


const rankNumber = fc.oneof(fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 2 ** 40 }));
const invalidRankNumbers = [-1, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

// ---------------------------------------------------------------------------------------------
// §3: abilities and sub-scores, read from the document's table
// ---------------------------------------------------------------------------------------------

interface DocAbility {
  key: string;
  abbr: string;
  subs: string[];
}

function docAbilities(): DocAbility[] {
  return tableRecords(rulesTable(3, "ability", "sub-scores")).map((row) => {
    const m = /^(\w+) \((\w+)\)$/.exec(row["ability"] ?? "");
    if (!m) throw new Error(`Unreadable ability cell "${row["ability"] ?? ""}".`);
    const cell = (row["sub-scores"] ?? "").replace(/\*/g, "").trim();
    const subs = cell === "—" ? [] : cell.split(",").map((s) => s.trim());
    return { key: (m[1] ?? "").toLowerCase(), abbr: m[2] ?? "", subs };
  });
}

/** Every "Abc (xyz)" notation in a text. */
function notations(text: string): string[] {
  return [...text.matchAll(/\b([A-Z][a-z]{2}) \(([a-z]{3})\)/g)].map((m) => m[0]);
}

describe("abilities and sub-scores (§3)", () => {
  it("has the document's seven abilities, in its order", () => {
    const doc = docAbilities();
    expect(doc).toHaveLength(7);
    expect([...ABILITY_KEYS]).toEqual(doc.map((a) => a.key));
  });

  it("has the document's abbreviation and sub-scores for each ability, cell by cell", () => {
    for (const a of docAbilities()) {
      const key = abilityKey(a.key);
      expect(ABILITY_ABBREVIATIONS[key], a.key).toBe(a.abbr);
      expect([...SUB_SCORES[key]], a.key).toEqual(a.subs);
    }
  });

  it("splits physical and mental abilities as Health and Karma do in the document", () => {
    const section = rulesSection(3);
    const sumOf = (label: string): string[] => {
      const m = new RegExp(`\\*\\*${label}\\*\\* = ([A-Za-z +]+?) rank numbers`).exec(section);
      if (!m) throw new Error(`No ${label} formula in §3.`);
      return (m[1] ?? "").split("+").map((s) => s.trim().toLowerCase());
    };
    expect([...PHYSICAL_ABILITY_KEYS]).toEqual(sumOf("Health"));
    expect([...MENTAL_ABILITY_KEYS]).toEqual(sumOf("Karma"));
    for (const m of MENTAL_ABILITY_KEYS) expect(SUB_SCORES[m]).toHaveLength(0);
  });

  it("lists each sub-score reference once, and every one round-trips", () => {
    expect(SUB_SCORE_REFS).toHaveLength(8);
    expect(new Set(SUB_SCORE_REFS).size).toBe(8);
    for (const ref of SUB_SCORE_REFS) {
      expect(parseSubScoreRef(ref)).toBe(ref);
      expect(parseSubScoreRef(formatSubScoreRef(ref))).toBe(ref);
      const { ability, sub } = subScoreParts(ref);
      expect(subScoreRef(ability, sub)).toBe(ref);
      expect(isSubScoreRef(ref)).toBe(true);
    }
  });

  it("parses every sub-score notation used in the document's attack and defence tables", () => {
    const seen = new Set<string>();
    for (const [n, cols] of [
      [3, ["ability", "sub-scores"]],
      [5, ["code", "rolls on"]],
      [6, ["defence", "rolls on"]],
    ] as const) {
      const table = rulesTable(n, ...cols);
      for (const row of table.rows) for (const cell of row) for (const note of notations(cell)) seen.add(note);
    }
    for (const section of [1, 2, 4, 5, 6, 8]) for (const note of notations(rulesSection(section))) seen.add(note);
    expect(seen.size).toBeGreaterThanOrEqual(6);
    for (const note of seen) {
      const ref = parseSubScoreRef(note);
      expect(formatSubScoreRef(ref)).toBe(note);
    }
  });

  it("formats and parses the sources' notation", () => {
    expect(formatSubScoreRef("fighting.off")).toBe("Ftg (off)");
    expect(parseSubScoreRef("Agy (bal)")).toBe("agility.bal");
    expect(parseSubScoreRef("  str(vgr) ")).toBe("strength.vgr");
    expect(subScoreParts("endurance.sta")).toEqual({ ability: "endurance", sub: "sta" });
  });

  it("rejects sub-score references that name nothing real", () => {
    for (const bad of ["fighting.dex", "reason.off", "fighting", "off", "", "FIGHTING.OFF", "Ftg (dex)", "Rea (off)", "Xyz (off)", "fighting.off "]) {
      expect(() => parseSubScoreRef(bad), bad).toThrow(RangeError);
      expect(isSubScoreRef(bad), bad).toBe(false);
    }
    expect(() => parseSubScoreRef("fighting.dex")).toThrow(/fighting\.dex/);
    for (const bad of [42, null, undefined, {}, ["fighting.off"]]) expect(() => parseSubScoreRef(bad)).toThrow(TypeError);
    expect(() => subScoreRef("fighting", "dex")).toThrow(/"dex" is not a sub-score of fighting/);
    expect(() => subScoreRef("reason", "off")).toThrow(/none/);
    expect(() => subScoreRef("nope" as AbilityKey, "off")).toThrow(/Unknown ability "nope"/);
    // @ts-expect-error -- the SubScoreRef type admits only real pairs
    const notARef: SubScoreRef = "fighting.dex";
    expect(isSubScoreRef(notARef)).toBe(false);
  });

  it("validates ability keys", () => {
    for (const key of ABILITY_KEYS) {
      expect(isAbilityKey(key)).toBe(true);
      expect(abilityKey(key)).toBe(key);
    }
    expect(isAbilityKey("Fighting")).toBe(false);
    expect(() => abilityKey("luck")).toThrow(/Unknown ability "luck"/);
    expect(() => abilityKey(7)).toThrow(TypeError);
  });
});

describe("subScoreValue", () => {
  it("defaults to the ability's rank number unless set apart", () => {
    fc.assert(
      fc.property(rankNumber, fc.option(rankNumber, { nil: undefined }), (ability, override) => {
        expect(subScoreValue(ability)).toBe(ability);
        expect(subScoreValue(ability, null)).toBe(ability);
        expect(subScoreValue(ability, override)).toBe(override ?? ability);
      }),
    );
    expect(subScoreValue(30, 0)).toBe(0);
  });

  it("rejects invalid rank numbers, naming the value", () => {
    for (const bad of invalidRankNumbers) {
      expect(() => subScoreValue(bad), String(bad)).toThrow(RangeError);
      expect(() => subScoreValue(10, bad), String(bad)).toThrow(RangeError);
    }
    expect(() => subScoreValue(-3)).toThrow(/Ability .*-3/);
    expect(() => subScoreValue(10, 2.5)).toThrow(/Sub-score .*2\.5/);
  });
});

// ---------------------------------------------------------------------------------------------
// Health and Karma
// ---------------------------------------------------------------------------------------------

describe("health and karma (§3)", () => {
  it("are the sums of the rank numbers", () => {
    fc.assert(
      fc.property(fc.array(rankNumber, { minLength: 7, maxLength: 7 }), (values) => {
        const [fighting = 0, agility = 0, strength = 0, endurance = 0, reason = 0, intuition = 0, psyche = 0] = values;
        const all = { fighting, agility, strength, endurance, reason, intuition, psyche };
        expect(health(all)).toBe(fighting + agility + strength + endurance);
        expect(karma(all)).toBe(reason + intuition + psyche);
      }),
    );
  });

  it("gives a known character's values", () => {
    // Typical everyman: 6 in everything.
    expect(health({ fighting: 6, agility: 6, strength: 6, endurance: 6 })).toBe(24);
    expect(karma({ reason: 6, intuition: 6, psyche: 6 })).toBe(18);
    expect(health({ fighting: 0, agility: 0, strength: 0, endurance: 0 })).toBe(0);
  });

  it("rejects a missing or invalid ability, naming it", () => {
    for (const bad of invalidRankNumbers) {
      expect(() => health({ fighting: 10, agility: 10, strength: bad, endurance: 10 })).toThrow(/Health: strength/);
      expect(() => karma({ reason: 10, intuition: bad, psyche: 10 })).toThrow(/Karma: intuition/);
    }
    expect(() => health({ fighting: 10, agility: 10, strength: 10 } as never)).toThrow(/endurance, which is missing/);
    expect(() => karma({ reason: 10, psyche: 10 } as never)).toThrow(/intuition, which is missing/);
    expect(() => health(null as never)).toThrow(TypeError);
    expect(() => karma("lots" as never)).toThrow(TypeError);
    expect(() => health({ fighting: 2 ** 52, agility: 2 ** 52, strength: 2 ** 52, endurance: 2 ** 52 })).toThrow(/too large/);
  });
});

// ---------------------------------------------------------------------------------------------
// §9 Table 24: thrown range
// ---------------------------------------------------------------------------------------------

function docThrownRanges(): { rank: Rank; value: ThrownRange }[] {
  return rankValueList(rulesSection(9), "\\d+|line of sight").map(({ rank, value }) => ({
    rank: rankNamed(rank),
    value: value === "line of sight" ? LINE_OF_SIGHT : Number(value),
  }));
}

const rangeOrder = (r: ThrownRange): number => (r === LINE_OF_SIGHT ? Number.POSITIVE_INFINITY : r);

describe("thrownRange (§9, Table 24)", () => {
  it("reads the document's list: every rank above Shift 0, in ladder order", () => {
    const doc = docThrownRanges();
    expect(doc.map((d) => d.rank.index)).toEqual(RANKS.slice(1).map((r) => r.index));
  });

  it("matches the document cell by cell, at the bottom, middle and top of each rank", () => {
    for (const { rank, value } of docThrownRanges()) {
      for (const n of samplesOf(rank)) expect(thrownRange(n), `${rank.name} (${n})`).toBe(value);
    }
  });

  it("gives Shift 0 the ruling's value", () => {
    expect(docThrownRanges().some((d) => d.rank.index === 0)).toBe(false);
    expect(thrownRange(0)).toBe(THROWN_RANGE_SHIFT0);
    expect(THROWN_RANGE_SHIFT0).toBe(0);
  });

  it("never shrinks as Strength grows", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(rangeOrder(thrownRange(lo))).toBeLessThanOrEqual(rangeOrder(thrownRange(hi)));
      }),
    );
  });

  it("accepts a replacement table and rejects a broken one", () => {
    const doubled = Object.fromEntries(
      RANKS.map((r) => {
        const v = THROWN_RANGE_TABLE[r.key];
        return [r.key, v === LINE_OF_SIGHT ? v : v * 2];
      }),
    ) as Record<Rank["key"], ThrownRange>;
    expect(thrownRange(30, doubled)).toBe(8);
    expect(() => { validateThrownRangeTable(THROWN_RANGE_TABLE); }).not.toThrow();
    expect(() => thrownRange(30, { ...doubled, good: -1 })).toThrow(/good/);
    expect(() => thrownRange(30, { ...doubled, good: "far" } as never)).toThrow(/good/);
    expect(() => thrownRange(30, { ...doubled, mega: 3 } as never)).toThrow(/unknown rank "mega"/);
    const missing: Partial<Record<Rank["key"], ThrownRange>> = { ...doubled };
    delete missing.typical;
    expect(() => thrownRange(30, missing as never)).toThrow(/typical/);
    expect(() => { validateThrownRangeTable(null); }).toThrow(TypeError);
  });

  it("rejects invalid Strength", () => {
    for (const bad of invalidRankNumbers) expect(() => thrownRange(bad), String(bad)).toThrow(RangeError);
    expect(() => thrownRange(-5)).toThrow(/Strength .*-5/);
  });
});

// ---------------------------------------------------------------------------------------------
// Running speed (a ruling: the sources give no table)
// ---------------------------------------------------------------------------------------------

describe("runningSpeed [RULING]", () => {
  it("reads the ruling table by Str (vgr) rank at every rank number", () => {
    fc.assert(
      fc.property(rankNumber, (n) => {
        expect(runningSpeed(n)).toBe(RUNNING_SPEED_TABLE[rankOf(n).key]);
      }),
    );
  });

  it("has the values the ruling documents", () => {
    const expected: Record<string, number> = { "Shift 0": 0, Feeble: 1, Poor: 2, Good: 2, Excellent: 3, Incredible: 3, Amazing: 4, "Class 5000": 4 };
    for (const [name, areas] of Object.entries(expected)) {
      for (const n of samplesOf(rankNamed(name))) expect(runningSpeed(n), name).toBe(areas);
    }
  });

  it("is a whole number of areas that never falls as Strength grows, 0 only at Shift 0", () => {
    expect(() => { validateRunningSpeedTable(RUNNING_SPEED_TABLE); }).not.toThrow();
    fc.assert(
      fc.property(rankNumber, rankNumber, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(runningSpeed(lo)).toBeLessThanOrEqual(runningSpeed(hi));
        expect(runningSpeed(hi) > 0).toBe(hi > 0);
      }),
    );
  });

  it("uses the sub-score the document names for running speed", () => {
    const table = rulesTable(3, "ability", "sub-scores");
    const usedFor = table.header.find((h) => h.startsWith("used for")) ?? "used for";
    const row = tableRecords(table).find((r) => (r[usedFor] ?? "").includes("running speed"));
    expect(row?.[usedFor]).toMatch(/vgr: running speed/);
    expect(SUB_SCORES.strength).toContain("vgr");
  });

  it("accepts a replacement table and rejects bad input", () => {
    const flat = Object.fromEntries(RANKS.map((r) => [r.key, 5])) as Record<Rank["key"], number>;
    expect(runningSpeed(0, flat)).toBe(5);
    expect(() => runningSpeed(10, { ...flat, poor: 1.5 })).toThrow(/poor/);
    expect(() => runningSpeed(10, { ...flat, poor: LINE_OF_SIGHT } as never)).toThrow(/poor/);
    for (const bad of invalidRankNumbers) expect(() => runningSpeed(bad), String(bad)).toThrow(RangeError);
  });
});
