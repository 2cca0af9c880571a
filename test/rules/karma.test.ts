import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KARMA_MINIMUM } from "../../src/rules/actions";
import {
  ABILITY_CREST_COST,
  ABILITY_POINT_COST_FACTOR,
  CONTACT_COST,
  KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME,
  KARMA_AWARD_ARREST_THEFT,
  KARMA_AWARD_ARREST_VIOLENT_CRIME,
  KARMA_AWARD_CATEGORIES,
  KARMA_AWARD_CATEGORY_IDS,
  KARMA_AWARD_FOE_BEATEN,
  KARMA_AWARD_RESCUE,
  KARMA_AWARD_STOP_DESTRUCTIVE_CRIME,
  KARMA_AWARD_STOP_THEFT,
  KARMA_AWARD_STOP_VIOLENT_CRIME,
  KARMA_AWARD_WEEKLY,
  KARMA_LOST_FOR_KILL,
  TALENT_COST,
  categoryAward,
  karmaLostForKill,
  advance,
  advancementCost,
  awardKarma,
  KARMA_POOL_DRAW_LIMIT,
  KARMA_POOL_DRAW_LIMITS,
  MAX_KARMA_POOL_AMOUNT,
  contributeToPool,
  deductKarma,
  drawFromPool,
  karmaPoolDrawLimitOf,
  maxPoolDraw,
  nextRankNumber,
  raiseCost,
  replayKarmaLog,
  spendKarmaOnRoll,
  type AdvancementRequest,
  type KarmaLogEntry,
} from "../../src/rules/karma";
import { docRankOf } from "../support/rules-doc";

const DATE = "2026-11-25";

describe("karma award and log", () => {
  it("an award adds to the balance and logs kind, date, reason, amount and balance after", () => {
    const { balance, entry } = awardKarma(40, 30, "Stopped a robbery", DATE);
    expect(balance).toBe(70);
    expect(entry).toEqual({ kind: "award", date: DATE, reason: "Stopped a robbery", amount: 30, balanceAfter: 70 });
  });

  it("a spend refuses more than the character has", () => {
    expect(deductKarma(50, 50, "Gadget", DATE).balance).toBe(0);
    expect(() => deductKarma(50, 51, "Gadget", DATE)).toThrow(/only 50 left/);
  });

  it("a roll's Karma follows actions.ts: at least KARMA_MINIMUM", () => {
    expect(spendKarmaOnRoll(50, KARMA_MINIMUM, "Dodge", DATE).balance).toBe(50 - KARMA_MINIMUM);
    expect(() => spendKarmaOnRoll(50, KARMA_MINIMUM - 1, "Dodge", DATE)).toThrow(RangeError);
  });

  it("refuses negative Karma, NaN, an empty reason and dates that are not ISO or not real", () => {
    expect(() => awardKarma(-1, 10, "x", DATE)).toThrow(RangeError);
    expect(() => awardKarma(10, Number.NaN, "x", DATE)).toThrow(RangeError);
    expect(() => awardKarma(10, 0, "x", DATE)).toThrow(RangeError);
    expect(() => awardKarma(10, 5, " ", DATE)).toThrow(TypeError);
    expect(() => awardKarma(10, 5, "x", "25/11/2026")).toThrow(RangeError);
    expect(() => awardKarma(10, 5, "x", "2026-02-30")).toThrow(/not a real calendar date/);
    expect(awardKarma(10, 5, "x", "2026-11-25T01:30:00Z").balance).toBe(15);
  });

  it("replaying a log checks every balance", () => {
    const a = awardKarma(0, 100, "Rescue", DATE);
    const b = deductKarma(a.balance, 30, "Gear", DATE);
    expect(replayKarmaLog(0, [a.entry, b.entry])).toBe(70);
    const forged: KarmaLogEntry = { ...b.entry, balanceAfter: 90 };
    expect(() => replayKarmaLog(0, [a.entry, forged])).toThrow(/entry 2/);
  });
});

describe("karma advancement", () => {
  it("+1 to an ability costs 10 × its current number [FASERIP]: Good 14 → 15 costs 140", () => {
    expect(ABILITY_POINT_COST_FACTOR).toBe(10);
    expect(raiseCost("ability", 14, 15)).toBe(140);
  });

  it("cresting into the next rank adds the crest cost: Good 15 → Excellent 16 costs 150 + 400", () => {
    expect(docRankOf(16).name).toBe("Excellent");
    expect(raiseCost("ability", 15, 16)).toBe(150 + ABILITY_CREST_COST);
    expect(advancementCost({ kind: "ability", from: 15, step: "number" })).toEqual({ rank: 16, cost: 550 });
  });

  it("a whole rank goes to the next rank's lowest number, read off the §1 ladder", () => {
    const r = advancementCost({ kind: "ability", from: 30, step: "rank" });
    expect(r.rank).toBe(docRankOf(30).max + 1);
    expect(r.cost).toBe(raiseCost("ability", 30, 36));
    expect(() => nextRankNumber(5000)).toThrow(/top of the ladder/);
  });

  it("powers cost more than abilities; talents and contacts have a flat cost", () => {
    expect(raiseCost("power", 14, 15)).toBeGreaterThan(raiseCost("ability", 14, 15));
    expect(advancementCost({ kind: "talent", name: "First Aid" })).toEqual({ rank: null, cost: TALENT_COST });
    expect(advancementCost({ kind: "contact", name: "Police" })).toEqual({ rank: null, cost: CONTACT_COST });
  });

  it("advance refuses what the character cannot afford and spends nothing", () => {
    expect(() => advance(139, { kind: "ability", from: 14, step: "number" }, DATE)).toThrow(/costs 140 Karma; only 139/);
    const ok = advance(200, { kind: "ability", from: 14, step: "number" }, DATE);
    expect(ok).toMatchObject({ rank: 15, cost: 140, balance: 60 });
    expect(ok.entry).toMatchObject({ kind: "advance", amount: 140, balanceAfter: 60 });
  });

  it("refuses bad requests", () => {
    expect(() => raiseCost("ability", 20, 20)).toThrow(RangeError);
    expect(() => raiseCost("ability", -3, 5)).toThrow(RangeError);
    expect(() => advancementCost({ kind: "spell", name: "x" } as unknown as AdvancementRequest)).toThrow(RangeError);
    expect(() => advancementCost({ kind: "ability", from: 10, step: "lots" } as unknown as AdvancementRequest)).toThrow(RangeError);
    expect(() => advance(100, { kind: "talent", name: "" }, DATE)).toThrow(TypeError);
  });

  it("property: advancement never spends Karma it does not have; balance after = before − cost", () => {
    const request = fc.oneof(
      fc.record({ kind: fc.constantFrom("ability" as const, "power" as const), from: fc.nat(1000), step: fc.constantFrom("number" as const, "rank" as const) }),
      fc.record({ kind: fc.constantFrom("talent" as const, "contact" as const), name: fc.constant("X") }),
    );
    fc.assert(fc.property(fc.nat(100_000), request, (balance, req) => {
      const { cost } = advancementCost(req);
      if (cost > balance) {
        expect(() => advance(balance, req, DATE)).toThrow(RangeError);
      } else {
        const out = advance(balance, req, DATE);
        expect(out.balance).toBe(balance - cost);
        expect(out.balance).toBeGreaterThanOrEqual(0);
        expect(out.entry.balanceAfter).toBe(out.balance);
      }
    }));
  });

  it("property: raising further never costs less", () => {
    fc.assert(fc.property(fc.nat(500), fc.integer({ min: 1, max: 50 }), (from, by) => {
      expect(raiseCost("ability", from, from + by + 1)).toBeGreaterThan(raiseCost("ability", from, from + by));
    }));
  });
});

describe("karma award to a group pool", () => {
  it("members contribute and draw; a draw past the pool or (by setting) past one's own share is refused", () => {
    let pool = { total: 0, contributed: {} as Record<string, number> };
    const c = contributeToPool(pool, "Ann", 100, 40, DATE);
    pool = c.pool;
    expect(c.balance).toBe(60);
    expect(c.entry.kind).toBe("contribute");
    expect(pool).toEqual({ total: 40, contributed: { Ann: 40 } });
    const d = drawFromPool(pool, "Bob", 5, 30, DATE);
    expect(d.balance).toBe(35);
    expect(d.pool.total).toBe(10);
    expect(() => drawFromPool(d.pool, "Bob", 35, 11, DATE)).toThrow(/holds 10/);
    expect(() => drawFromPool(pool, "Bob", 5, 10, DATE, "contributed")).toThrow(/at most the 0/);
    expect(() => contributeToPool(pool, "Ann", 10, 20, DATE)).toThrow(RangeError);
    expect(() => contributeToPool({ total: -1, contributed: {} }, "Ann", 10, 5, DATE)).toThrow(/Pool total/);
  });
});

describe("award categories", () => {
  it("award categories: each preset is its named constant, the FASERIP chart's values where it gives them", () => {
    // The chart's summary listing: violent crime 30 / 15, destructive crime 20 / 10, theft 10 / 10.
    expect(KARMA_AWARD_STOP_VIOLENT_CRIME).toBe(30);
    expect(KARMA_AWARD_ARREST_VIOLENT_CRIME).toBe(15);
    expect(KARMA_AWARD_STOP_DESTRUCTIVE_CRIME).toBe(20);
    expect(KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME).toBe(10);
    expect(KARMA_AWARD_STOP_THEFT).toBe(10);
    expect(KARMA_AWARD_ARREST_THEFT).toBe(10);
    expect(Object.keys(KARMA_AWARD_CATEGORIES)).toEqual([...KARMA_AWARD_CATEGORY_IDS]);
    expect(KARMA_AWARD_CATEGORIES.rescue).toBe(KARMA_AWARD_RESCUE);
    expect(KARMA_AWARD_CATEGORIES.foeBeaten).toBe(KARMA_AWARD_FOE_BEATEN);
    expect(KARMA_AWARD_CATEGORIES.weekly).toBe(KARMA_AWARD_WEEKLY);
  });

  it("award categories: several events multiply the preset; a bad category or count is refused", () => {
    expect(categoryAward("rescue", 3)).toBe(3 * KARMA_AWARD_RESCUE);
    expect(categoryAward("stopViolentCrime")).toBe(30);
    expect(() => categoryAward("bribery" as never)).toThrow(/Award category/);
    expect(() => categoryAward("rescue", 0)).toThrow(RangeError);
    expect(() => categoryAward("rescue", 1.5)).toThrow();
  });

  it("award categories: a kill takes all Karma under the FASERIP ruling, nothing under 'none' or with none left", () => {
    expect(KARMA_LOST_FOR_KILL).toBe("all");
    const change = karmaLostForKill(140, "Killed Gravel", DATE);
    expect(change?.balance).toBe(0);
    expect(change?.entry).toEqual({ kind: "spend", date: DATE, reason: "Killed Gravel", amount: 140, balanceAfter: 0 });
    expect(karmaLostForKill(140, "Killed Gravel", DATE, "none")).toBeNull();
    expect(karmaLostForKill(0, "Killed Gravel", DATE)).toBeNull();
    expect(() => karmaLostForKill(10, "x", DATE, "half" as never)).toThrow(/kill/);
  });
});

describe("the group pool's draw limits (KARMA_POOL_DRAW_LIMITS, maxPoolDraw, MAX_KARMA_POOL_AMOUNT)", () => {
  const pool = { total: 50, contributed: { Ann: 40, Bob: -5 } };

  it("pool draw limits: anything in the pool, or what the member put in (net, never below 0); the default is anything", () => {
    expect(KARMA_POOL_DRAW_LIMITS).toEqual(["all", "contributed"]);
    expect(KARMA_POOL_DRAW_LIMIT).toBe("all");
    expect(maxPoolDraw(pool, "Ann")).toBe(50);
    expect(maxPoolDraw(pool, "Ann", "contributed")).toBe(40);
    expect(maxPoolDraw(pool, "Bob", "contributed")).toBe(0);
    expect(maxPoolDraw(pool, "Cy", "contributed")).toBe(0);
    expect(maxPoolDraw({ total: 10, contributed: { Ann: 40 } }, "Ann", "contributed")).toBe(10);
    expect(drawFromPool(pool, "Ann", 0, 40, DATE, "contributed").pool.total).toBe(10);
    expect(() => drawFromPool(pool, "Ann", 0, 41, DATE, "contributed")).toThrow(/at most the 40/);
  });

  it("pool draw limits: no move in or out above MAX_KARMA_POOL_AMOUNT, and an unknown limit is a clear error", () => {
    const big = { total: MAX_KARMA_POOL_AMOUNT + 10, contributed: {} };
    expect(maxPoolDraw(big, "Ann")).toBe(MAX_KARMA_POOL_AMOUNT);
    expect(() => drawFromPool(big, "Ann", 0, MAX_KARMA_POOL_AMOUNT + 1, DATE)).toThrow(/At most 100000 Karma comes out/);
    expect(() => contributeToPool(pool, "Ann", MAX_KARMA_POOL_AMOUNT + 5, MAX_KARMA_POOL_AMOUNT + 1, DATE)).toThrow(/At most 100000 Karma goes into/);
    expect(karmaPoolDrawLimitOf("contributed")).toBe("contributed");
    expect(() => karmaPoolDrawLimitOf("half")).toThrow(/"half" is not one of all, contributed/);
    expect(() => drawFromPool(pool, "Ann", 0, 1, DATE, "half" as "all")).toThrow(RangeError);
  });
});
