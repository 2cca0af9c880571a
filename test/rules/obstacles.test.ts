import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { damageThroughObstacles, obstaclePenalty } from "../../src/rules/attacks";
import { obstacleBreakdown } from "../../src/rules/obstacles";
import { rulesSection, signedNumber } from "../support/rules-doc";

const section5 = rulesSection(5).replace(/\s+/g, " ");
const perObject = signedNumber(/([+−-]\d+) CS per object in the path/.exec(section5)?.[1] ?? "NaN");

describe("obstacle material strength: the per-object breakdown", () => {
  it("Excellent (20) bullets through a Good (10) door [001 example]: 10 reach the target, −2 CS to hit (§5)", () => {
    const b = obstacleBreakdown(20, [10]);
    expect(b.steps).toEqual([{ position: 1, materialStrength: 10, before: 20, after: 10, stopped: false }]);
    expect(b.damage).toBe(10);
    expect(b.toHitShift).toBe(perObject);
  });

  it("marks the object that stops the attack; later objects see 0", () => {
    const b = obstacleBreakdown(30, [10, 20, 6]);
    expect(b.steps.map((s) => [s.before, s.after, s.stopped])).toEqual([
      [30, 20, false],
      [20, 0, true],
      [0, 0, false],
    ]);
    expect(b.damage).toBe(0);
    expect(b.toHitShift).toBe(perObject * 3);
  });

  it("no objects: the damage as is, no shift", () => {
    expect(obstacleBreakdown(40, [])).toEqual({ steps: [], toHitShift: 0, damage: 40 });
  });

  it("refuses bad numbers, naming the object", () => {
    expect(() => obstacleBreakdown(20, [10, -3])).toThrow(/object 2/);
    expect(() => obstacleBreakdown(Number.NaN, [])).toThrow(RangeError);
    expect(() => obstacleBreakdown(20, "door" as unknown as number[])).toThrow(TypeError);
  });

  it("property: the breakdown's total is damageThroughObstacles, and each step only ever lowers the damage", () => {
    fc.assert(
      fc.property(fc.nat(6000), fc.array(fc.nat(600), { maxLength: 8 }), (damage, ms) => {
        const b = obstacleBreakdown(damage, ms);
        expect(b.damage).toBe(damageThroughObstacles(damage, ms));
        expect(b.toHitShift).toBe(obstaclePenalty(ms.length));
        let before = damage;
        for (const s of b.steps) {
          expect(s.before).toBe(before);
          expect(s.after).toBeLessThanOrEqual(s.before);
          expect(s.after).toBeGreaterThanOrEqual(0);
          before = s.after;
        }
        expect(b.steps.filter((s) => s.stopped).length).toBeLessThanOrEqual(1);
      }),
    );
  });
});
