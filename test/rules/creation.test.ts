import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ABILITY_KEYS } from "../../src/rules/abilities";
import {
  DEFAULT_POINT_RULES,
  RANDOM_RANK_TABLE,
  STARTING_POPULARITY,
  checkPointBuild,
  pointBuildCharacter,
  randomCharacter,
  randomRank,
  rollsFrom,
  validateD100Table,
  type PointBuild,
} from "../../src/rules/creation";
import { docRankNamed } from "../support/rules-doc";

/** The Basic Set's Random Ranks table as printed (usenet transcription): the highest roll of each rank. */
const BASIC_SET: readonly [number, string][] = [[5, "Feeble"], [10, "Poor"], [20, "Typical"], [40, "Good"], [60, "Excellent"], [80, "Remarkable"], [96, "Incredible"], [100, "Amazing"]];
function basicSetRank(roll: number): string {
  const row = BASIC_SET.find(([upTo]) => roll <= upTo);
  if (!row) throw new Error(`No Basic Set rank for ${roll}.`);
  return row[1];
}

const typical = Object.fromEntries(ABILITY_KEYS.map((k) => [k, 6])) as Record<(typeof ABILITY_KEYS)[number], number>;

describe("character builder: random", () => {
  it("the FASERIP Basic Set Random Ranks table: 01–05 Feeble … 97–00 Amazing, as §1 standard numbers", () => {
    expect(RANDOM_RANK_TABLE.map((r) => [r.upTo, docRankNamed(basicSetRank(r.upTo)).number])).toEqual(RANDOM_RANK_TABLE.map((r) => [r.upTo, randomRank(r.upTo)]));
    for (let roll = 1; roll <= 100; roll++) expect(randomRank(roll)).toBe(docRankNamed(basicSetRank(roll)).number);
    const expected: [number, string][] = [
      [1, "Feeble"], [5, "Feeble"], [6, "Poor"], [10, "Poor"], [11, "Typical"], [20, "Typical"], [21, "Good"], [40, "Good"],
      [41, "Excellent"], [60, "Excellent"], [61, "Remarkable"], [80, "Remarkable"], [81, "Incredible"], [96, "Incredible"], [97, "Amazing"], [100, "Amazing"],
    ];
    for (const [roll, name] of expected) expect(randomRank(roll), `roll ${roll}`).toBe(docRankNamed(name).number);
    expect(() => randomRank(0)).toThrow(RangeError);
    expect(() => randomRank(101)).toThrow(RangeError);
  });

  it("builds from pre-rolled numbers: seven abilities, Resources, powers, talents, contacts; Health and Karma from abilities.ts", () => {
    const c = randomCharacter(rollsFrom([50, 70, 85, 30, 15, 8, 99, 45, 10, 50, 90]));
    expect(c.abilities).toEqual({ fighting: 20, agility: 30, strength: 40, endurance: 10, reason: 6, intuition: 4, psyche: 50 });
    expect(c.resources).toBe(20);
    expect([c.powers, c.talents, c.contacts]).toEqual([2, 2, 2]);
    expect(c.popularity).toBe(STARTING_POPULARITY);
    expect(c.stats.healthMax).toBe(20 + 30 + 40 + 10); // §3: Fighting + Agility + Strength + Endurance
    expect(c.stats.healthMax).toBe(100);
    expect(c.stats.karmaMax).toBe(6 + 4 + 50); // §3: Reason + Intuition + Psyche
  });

  it("refuses too few rolls, a roll outside 1–100, and a broken table", () => {
    expect(() => randomCharacter(rollsFrom([50, 50]))).toThrow(/Only 2 pre-rolled/);
    expect(() => randomCharacter(() => 101)).toThrow(RangeError);
    expect(() => randomCharacter(() => Number.NaN)).toThrow(RangeError);
    expect(() => { validateD100Table([{ upTo: 50, value: 1 }], "randomRankTable"); }).toThrow(/end at 100/);
    expect(() => { validateD100Table([{ upTo: 50, value: 1 }, { upTo: 40, value: 2 }], "randomRankTable"); }).toThrow(RangeError);
  });

  it("property: every random character has abilities on the table's ranks and derived values that match", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 11, maxLength: 11 }), (rolls) => {
      const c = randomCharacter(rollsFrom(rolls));
      for (const k of ABILITY_KEYS) {
        expect(c.abilities[k]).toBe(docRankNamed(basicSetRank(rolls[ABILITY_KEYS.indexOf(k)] ?? 0)).number);
      }
      expect(c.stats.healthMax).toBe(c.abilities.fighting + c.abilities.agility + c.abilities.strength + c.abilities.endurance);
      expect(c.stats.karmaMax).toBe(c.abilities.reason + c.abilities.intuition + c.abilities.psyche);
    }));
  });
});

describe("character builder: point-based", () => {
  const build = (over: Partial<PointBuild> = {}): PointBuild => ({ abilities: typical, powers: [30, 40], talents: 2, contacts: 1, resources: 6, ...over });

  it("counts ladder steps: seven Typical abilities, Remarkable and Incredible powers, talents, a contact, Typical Resources", () => {
    const r = DEFAULT_POINT_RULES;
    const expected = 7 * 3 * r.abilityCostPerRank + (6 + 7) * r.powerCostPerRank + 2 * r.talentCost + r.contactCost + 3 * r.resourcesCostPerRank;
    const check = checkPointBuild(build());
    expect(check).toEqual({ spent: expected, remaining: r.budget - expected, problems: [], valid: true });
    expect(pointBuildCharacter(build()).stats.healthMax).toBe(24);
  });

  it("flags an over-budget build and a rank above the limit, and refuses to make a character of it", () => {
    expect(checkPointBuild(build(), { budget: 10 }).problems).toEqual([{ code: "overBudget", field: "budget" }]);
    const tooStrong = checkPointBuild(build({ abilities: { ...typical, strength: 150 } }));
    expect(tooStrong.problems).toContainEqual({ code: "aboveMaxRank", field: "strength" });
    expect(() => pointBuildCharacter(build(), { budget: 10 })).toThrow(/overBudget/);
  });

  it("refuses malformed builds", () => {
    expect(() => checkPointBuild(build({ abilities: { ...typical, agility: -3 } }))).toThrow(RangeError);
    expect(() => checkPointBuild(build({ talents: Number.NaN }))).toThrow(RangeError);
    expect(() => checkPointBuild(build({ powers: [10, 1.5] }))).toThrow(/power 2/);
  });

  it("property: spending more never leaves more points, and a valid build is within budget", () => {
    fc.assert(fc.property(fc.nat(10), fc.nat(10), (t, extra) => {
      const a = checkPointBuild(build({ talents: t }));
      const b = checkPointBuild(build({ talents: t + extra }));
      expect(b.remaining).toBeLessThanOrEqual(a.remaining);
      if (a.valid) expect(a.spent).toBeLessThanOrEqual(DEFAULT_POINT_RULES.budget);
    }));
  });

  it("property: a point build's cost adds up: one more talent costs talentCost, one more contact contactCost, one ladder step of an ability abilityCostPerRank", () => {
    const ladder = RANDOM_RANK_TABLE.map((r) => randomRank(r.upTo));
    fc.assert(fc.property(fc.nat(8), fc.nat(8), fc.constantFrom(...ABILITY_KEYS), fc.integer({ min: 0, max: ladder.length - 2 }), (t, c, key, step) => {
      const from = ladder[step] ?? 6;
      const to = ladder[step + 1] ?? 6;
      const base = checkPointBuild(build({ talents: t, contacts: c, abilities: { ...typical, [key]: from } }));
      expect(checkPointBuild(build({ talents: t + 1, contacts: c, abilities: { ...typical, [key]: from } })).spent - base.spent).toBe(DEFAULT_POINT_RULES.talentCost);
      expect(checkPointBuild(build({ talents: t, contacts: c + 1, abilities: { ...typical, [key]: from } })).spent - base.spent).toBe(DEFAULT_POINT_RULES.contactCost);
      expect(checkPointBuild(build({ talents: t, contacts: c, abilities: { ...typical, [key]: to } })).spent - base.spent).toBe(DEFAULT_POINT_RULES.abilityCostPerRank);
      expect(base.spent + base.remaining).toBe(DEFAULT_POINT_RULES.budget);
    }));
  });

  it("property: a legal point build makes a character with the build's numbers and Health and Karma from its abilities", () => {
    const ranks = fc.constantFrom(...RANDOM_RANK_TABLE.map((r) => randomRank(r.upTo)));
    const abilities = fc.record(Object.fromEntries(ABILITY_KEYS.map((k) => [k, ranks])) as Record<(typeof ABILITY_KEYS)[number], fc.Arbitrary<number>>);
    fc.assert(fc.property(abilities, fc.array(ranks, { maxLength: 4 }), fc.nat(3), fc.nat(3), ranks, (ab, powers, talents, contacts, resources) => {
      const b = { abilities: ab, powers, talents, contacts, resources };
      const check = checkPointBuild(b);
      if (!check.valid) {
        expect(() => pointBuildCharacter(b)).toThrow(RangeError);
        return;
      }
      const c = pointBuildCharacter(b);
      expect(c).toMatchObject({ abilities: ab, resources, powers: powers.length, talents, contacts, popularity: STARTING_POPULARITY });
      // §3, read as written: Health is the four physical rank numbers, Karma the three mental ones.
      expect(c.stats.healthMax).toBe(ab.fighting + ab.agility + ab.strength + ab.endurance);
      expect(c.stats.karmaMax).toBe(ab.reason + ab.intuition + ab.psyche);
    }));
  });
});
