import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OBSTACLES_BEFORE_PROTECTION, damageThroughObstacles, obstaclePenalty } from "../../src/rules/attacks";
import { ExchangeError, createExchange, rollToHit } from "../../src/rules/exchange";
import { obstacleBreakdown } from "../../src/rules/obstacles";
import { rulesSection, signedNumber } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

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

describe("obstacle material strength in the attack exchange (§5)", () => {
  const target = (body: number) => ({
    uuid: "t",
    actorUuid: "t",
    name: "Gravel",
    scores: { "agility.bal": 10, "fighting.def": 10, "strength.mgt": 10, "endurance.res": 10 },
    armor: { body, energy: 0 },
  });
  const exchange = (attack: "Sh" | "BA", damage: number, body: number, obstacles: number[]) =>
    createExchange(exchangeInput({
      attack,
      source: "Rifle",
      attacker: { uuid: "a", name: "Kestrel", value: 30, strength: 10, armor: 0 },
      damage: { method: "static", value: damage },
      blindsided: true,
      obstacles,
      targets: [target(body)],
    }));

  it("obstacle material strength comes off the damage before the target's armor: Excellent 40 through a Good (10) door onto Excellent (20) armor deals 10 [001]", () => {
    const hit = rollToHit(exchange("Sh", 40, 20, [10]), "0", { die: 99 }).targets[0]?.damage;
    expect(hit).toMatchObject({ raw: 40, obstacles: 10, armor: 20, dealt: 10 });
    expect(OBSTACLES_BEFORE_PROTECTION).toBe(true);
  });

  it("obstacle material strength: an object that stops the attack means no damage and no Slam/Stun/Kill check", () => {
    const t = rollToHit(exchange("Sh", 20, 0, [20, 10]), "0", { die: 99 }).targets[0];
    expect(t?.damage).toMatchObject({ obstacles: 20, dealt: 0 });
    expect(t?.consequences).toEqual([]);
  });

  it("obstacle material strength is refused on a melee attack and for a number that is not a rank", () => {
    expect(() => exchange("BA", 20, 0, [10])).toThrow(ExchangeError);
    expect(() => exchange("Sh", 20, 0, [-1])).toThrow(/material strength/);
  });

  it("property (obstacle material strength): the dealt damage is raw − Σ material strength − armor, never below 0, and never more than with no obstacle", () => {
    fc.assert(
      fc.property(fc.nat(600), fc.nat(200), fc.array(fc.nat(120), { maxLength: 4 }), (damage, body, obstacles) => {
        const through = rollToHit(exchange("Sh", damage, body, obstacles), "0", { die: 99 }).targets[0]?.damage;
        const open = rollToHit(exchange("Sh", damage, body, []), "0", { die: 99 }).targets[0]?.damage;
        const sum = obstacles.reduce((s, m) => s + m, 0);
        expect(through?.dealt).toBe(Math.max(0, damage - sum - body));
        expect(through?.dealt ?? 0).toBeLessThanOrEqual(open?.dealt ?? 0);
        expect(through?.obstacles).toBe(Math.min(damage, sum));
      }),
    );
  });

  it("obstacle material strength survives the JSON round trip of a stored card, and a state stored before it counts as none", () => {
    const state = exchange("Sh", 40, 0, [10, 20]);
    expect((JSON.parse(JSON.stringify(state)) as typeof state).obstacles).toEqual([10, 20]);
    const { obstacles: _dropped, ...old } = exchange("Sh", 40, 0, []);
    expect(rollToHit(old, "0", { die: 99 }).targets[0]?.damage).toMatchObject({ dealt: 40, obstacles: 0 });
  });
});
