import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { enduranceAfterKillLoss } from "../../src/rules/consequences";
import {
  DAYS_PER_ENDURANCE_RANK,
  DAYS_PER_ENDURANCE_RANK_MEDICAL,
  REGENERATION_STACKS,
  UNCONSCIOUS_AT_ZERO_HEALTH,
  bestRegenerationRank,
  effectiveEndurance,
  firstAid,
  healthAfterRest,
  lostRanksAfterRest,
  lostRanksReaching,
  regenerateAtWrapUp,
  regenerationPerTurn,
  restHealing,
  shortRestRecovery,
  unconsciousAt,
  wakeFromZeroHealth,
} from "../../src/rules/recovery";
import { RANKS } from "../../src/rules/ranks";
import { docLadder, docRankOf, rulesSection } from "../support/rules-doc";

const section8 = rulesSection(8).replace(/\s+/g, " ");
const ladder = docLadder();
const pool = fc.integer({ min: 0, max: 5000 }).chain((max) => fc.record({ max: fc.constant(max), health: fc.integer({ min: 0, max }) }));

describe("rest and recovery: Health", () => {
  it("a day of rest returns the Endurance rank number, doubled under medical care [FASERIP]", () => {
    expect(restHealing(30, 1)).toBe(30);
    expect(restHealing(30, 3)).toBe(90);
    expect(restHealing(30, 1, "medical")).toBe(60);
    expect(restHealing(30, 0)).toBe(0);
    expect(healthAfterRest(20, 100, 30, 1)).toBe(50);
    expect(healthAfterRest(90, 100, 30, 1)).toBe(100);
  });

  it("a short rest: 10 turns without damage return the Endurance rank number once a day, if conscious [FASERIP]", () => {
    const state = { health: 20, max: 100, endurance: 30, turnsSinceDamage: 10, recoveredToday: false, unconscious: false };
    expect(shortRestRecovery(state)).toBe(50);
    expect(shortRestRecovery({ ...state, turnsSinceDamage: 9 })).toBe(20);
    expect(shortRestRecovery({ ...state, recoveredToday: true })).toBe(20);
    expect(shortRestRecovery({ ...state, unconscious: true })).toBe(20);
    expect(shortRestRecovery({ ...state, health: 90 })).toBe(100);
    expect(() => shortRestRecovery({ ...state, turnsSinceDamage: -1 })).toThrow(RangeError);
  });

  it("a setting may change the rate", () => {
    expect(restHealing(30, 1, "none", { healthPerDayFactor: 2 })).toBe(60);
    expect(() => restHealing(30, 1, "none", { medicalCareHealthFactor: 0 })).toThrow(RangeError);
  });

  it("refuses bad input: negative days, unknown care, Health above its maximum", () => {
    expect(() => restHealing(30, -1)).toThrow(RangeError);
    expect(() => restHealing(-3, 1)).toThrow(RangeError);
    expect(() => restHealing(30, 1, "spa" as "none")).toThrow(RangeError);
    expect(() => healthAfterRest(120, 100, 30, 1)).toThrow(RangeError);
  });

  it("property: healing never exceeds the maximum and never lowers the current Health", () => {
    fc.assert(fc.property(pool, fc.nat(500), fc.nat(60), fc.constantFrom("none" as const, "medical" as const), ({ health, max }, end, days, care) => {
      const after = healthAfterRest(health, max, end, days, care);
      expect(after).toBeLessThanOrEqual(max);
      expect(after).toBeGreaterThanOrEqual(health);
      const regen = regenerateAtWrapUp(health, max, end);
      expect(regen).toBeLessThanOrEqual(max);
      expect(regen).toBeGreaterThanOrEqual(health);
    }));
  });
});

describe("rest and recovery: lost Endurance ranks", () => {
  it("lost ranks are counted apart: effective Endurance steps down the §1 ladder one rank per loss", () => {
    expect(effectiveEndurance(30, 0)).toEqual({ value: 30, dead: false });
    expect(effectiveEndurance(35, 1)).toEqual({ value: 20, dead: false });
    expect(effectiveEndurance(30, 2)).toEqual({ value: 10, dead: false });
    const good = ladder.find((r) => r.name === "Good");
    expect(effectiveEndurance(10, 4)).toEqual({ value: 0, dead: false });
    expect(effectiveEndurance(10, (good?.index ?? 0) + 1)).toEqual({ value: 0, dead: true });
  });

  it("agrees with the Kill-result loss of consequences.ts, one rank at a time", () => {
    fc.assert(fc.property(fc.nat(6000), fc.nat(20), (base, lost) => {
      let value = base;
      let dead = false;
      for (let i = 0; i < lost && !dead; i++) ({ endurance: value, dead } = enduranceAfterKillLoss(value));
      expect(effectiveEndurance(base, lost)).toEqual({ value: dead ? 0 : value, dead });
      expect(docRankOf(effectiveEndurance(base, lost).value).index).toBeLessThanOrEqual(docRankOf(base).index);
    }));
  });

  it("lost ranks heal one per week, one per day under care [FASERIP]", () => {
    expect(DAYS_PER_ENDURANCE_RANK).toBe(7);
    expect(DAYS_PER_ENDURANCE_RANK_MEDICAL).toBe(1);
    expect(lostRanksAfterRest(3, 6)).toBe(3);
    expect(lostRanksAfterRest(3, 7)).toBe(2);
    expect(lostRanksAfterRest(3, 2, "medical")).toBe(1);
    expect(() => lostRanksAfterRest(-1, 7)).toThrow(RangeError);
    expect(() => effectiveEndurance(30, -3)).toThrow(RangeError);
  });

  it("property: lost ranks never go negative and never grow with rest", () => {
    fc.assert(fc.property(fc.nat(30), fc.nat(400), fc.constantFrom("none" as const, "medical" as const), (lost, days, care) => {
      const after = lostRanksAfterRest(lost, days, care);
      expect(after).toBeGreaterThanOrEqual(0);
      expect(after).toBeLessThanOrEqual(lost);
    }));
  });
});

describe("rest and recovery: regeneration, 0 Health, first aid", () => {
  it("regeneration returns rank ÷ 10 Health per wrap-up (Wolverine's Remarkable 30: 3 a turn) [FASERIP]", () => {
    expect(regenerationPerTurn(30)).toBe(3);
    expect(regenerationPerTurn(2)).toBe(1);
    expect(regenerationPerTurn(0)).toBe(0);
    expect(regenerateAtWrapUp(10, 100, 100)).toBe(20);
    expect(() => regenerationPerTurn(-3)).toThrow(RangeError);
  });

  it("regeneration never falls as the rank rises", () => {
    for (let i = 1; i < RANKS.length; i++) {
      expect(regenerationPerTurn((RANKS[i] as (typeof RANKS)[number]).number)).toBeGreaterThanOrEqual(regenerationPerTurn((RANKS[i - 1] as (typeof RANKS)[number]).number));
    }
  });

  it("0 Health means unconscious (ruling), and waking gives Health = Endurance", () => {
    expect(UNCONSCIOUS_AT_ZERO_HEALTH).toBe(true);
    expect(unconsciousAt(0)).toBe(true);
    expect(unconsciousAt(1)).toBe(false);
    expect(unconsciousAt(0, { unconsciousAtZeroHealth: false })).toBe(false);
    expect(wakeFromZeroHealth(true, 30, 100)).toBe(30);
    expect(wakeFromZeroHealth(true, 30, 20)).toBe(20);
    expect(wakeFromZeroHealth(false, 30, 100)).toBeNull();
  });

  it("first aid: the first aid talent revives the stunned [001]; any aid stops the dying (§8)", () => {
    expect(section8).toMatch(/any aid stops the loss/);
    expect(firstAid({ stunned: true, dying: false }, true)).toEqual({ revived: true, stopsDying: false });
    expect(firstAid({ stunned: true, dying: false }, false)).toEqual({ revived: false, stopsDying: false });
    expect(firstAid({ stunned: false, dying: true }, false)).toEqual({ revived: false, stopsDying: true });
    expect(() => firstAid({ stunned: "yes", dying: false } as never, true)).toThrow(TypeError);
  });
});

describe("rest and recovery: lost Endurance ranks reaching a value (a loss written again counts once)", () => {
  const ranked = RANKS.filter((r) => r.number > 0 && r.number <= 1000).map((r) => r.number);
  it("Remarkable 30 to Excellent 20 is one lost rank; written again it stays one; to 0 and dead takes more", () => {
    expect(lostRanksReaching(30, 0, 20)).toBe(1);
    expect(lostRanksReaching(30, 1, 20)).toBe(1);
    expect(effectiveEndurance(30, lostRanksReaching(30, 0, 0, true)).dead).toBe(true);
  });

  it("property: the fewest ranks at least those already lost that reach the value, and idempotent", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ranked), fc.nat(3), fc.nat(1000), (base, lost, target) => {
        const n = lostRanksReaching(base, lost, target);
        expect(n).toBeGreaterThanOrEqual(lost);
        const at = effectiveEndurance(base, n);
        expect(at.dead || at.value <= target).toBe(true);
        if (n > lost) {
          const before = effectiveEndurance(base, n - 1);
          expect(!before.dead && before.value > target).toBe(true);
        }
        expect(lostRanksReaching(base, n, target)).toBe(n);
      }),
    );
  });
});

describe("the best regeneration rank (bestRegenerationRank, REGENERATION_STACKS)", () => {
  it("best regeneration rank: the best regenerating power's rank counts, powers do not add up, 0 for none", () => {
    expect(REGENERATION_STACKS).toBe(false);
    const rankNamed = (name: string): number => docLadder().find((r) => r.name === name)?.number ?? Number.NaN;
    const amazing = rankNamed("Amazing");
    const good = rankNamed("Good");
    expect(bestRegenerationRank([{ regeneration: true, rank: good }, { regeneration: true, rank: amazing }, { regeneration: false, rank: amazing + 20 }])).toBe(amazing);
    expect(bestRegenerationRank([{ regeneration: false, rank: amazing }])).toBe(0);
    expect(bestRegenerationRank([])).toBe(0);
    expect(regenerationPerTurn(bestRegenerationRank([{ regeneration: true, rank: amazing }]))).toBe(Math.floor(amazing / 10));
  });

  it("best regeneration rank: a bad list or power is a clear error", () => {
    expect(() => bestRegenerationRank("Wolverine" as unknown as [])).toThrow(TypeError);
    expect(() => bestRegenerationRank([{ regeneration: "yes" as unknown as boolean, rank: 30 }])).toThrow(/Regeneration mark of power 1/);
    expect(() => bestRegenerationRank([{ regeneration: true, rank: -4 }])).toThrow(/Rank of power 1/);
  });
});
