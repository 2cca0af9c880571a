/**
 * The Judge's impacts (src/rules/impacts.ts): a fall or a charge at an object is a charge with
 * the object's material strength as body armor [001]. Expected numbers come from the real
 * charge functions and the reference's own text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chargeDamage, chargeReboundDamage } from "../../src/rules/attacks";
import { DEFAULT_GROUND_MATERIAL_STRENGTH, IMPACT_DAMAGE_LIMIT, resolveImpact } from "../../src/rules/impacts";
import { rulesSection } from "../support/rules-doc";
import { docLadder } from "../support/rules-doc";

const section5 = rulesSection(5).replace(/\s+/g, " ");
const shiftZ = Number(/practical limit of Shift Z \((\d+)\)/.exec(section5)?.[1] ?? "NaN");
const ladder = docLadder().map((r) => r.number);
const rank = fc.oneof(fc.constantFrom(...ladder), fc.nat(1200));

describe("charging an object and falling (Judge tools)", () => {
  it("a Remarkable (30) Endurance charge over 3 areas into an Excellent (20) wall: 36 damage, 16 get through (it breaks), 20 rebound", () => {
    expect(resolveImpact({ kind: "object", areas: 3, endurance: 30, bodyArmor: 0, materialStrength: 20 })).toEqual({ damage: 36, objectDamage: 16, breaks: true, rebound: 20 });
  });

  it("charging a tank (Incredible 40 armor) with Excellent (20) body armor: nothing gets through, the armor soaks 20 of the rebound", () => {
    const out = resolveImpact({ kind: "object", areas: 1, endurance: 10, bodyArmor: 20, materialStrength: 40 });
    expect(out).toEqual({ damage: 22, objectDamage: 0, breaks: false, rebound: 20 });
  });

  it("a fall is a charge against the ground: the faller takes the ground's material strength back", () => {
    const out = resolveImpact({ kind: "fall", areas: 5, endurance: 6, bodyArmor: 0, materialStrength: DEFAULT_GROUND_MATERIAL_STRENGTH });
    expect(out.rebound).toBe(DEFAULT_GROUND_MATERIAL_STRENGTH);
    expect(out.damage).toBe(chargeDamage({ endurance: 6, bodyArmor: 0, areas: 5 }));
  });

  it("the Shift Z limit of errata §5 caps an impact's damage", () => {
    expect(IMPACT_DAMAGE_LIMIT).toBe(shiftZ);
    expect(resolveImpact({ kind: "fall", areas: 500, endurance: 1000, bodyArmor: 0, materialStrength: 0 }).damage).toBe(shiftZ);
  });

  it("refuses bad input clearly", () => {
    expect(() => resolveImpact({ kind: "jump" as "fall", areas: 1, endurance: 6, bodyArmor: 0, materialStrength: 10 })).toThrow(/Impact kind/);
    expect(() => resolveImpact({ kind: "fall", areas: 0, endurance: 6, bodyArmor: 0, materialStrength: 10 })).toThrow(/Areas/);
    expect(() => resolveImpact({ kind: "object", areas: 1, endurance: 6, bodyArmor: 0, materialStrength: -1 })).toThrow(/Material strength/);
  });

  it("property: the object takes the charge less its material strength, the charger the rebound of the charge rules, and more material strength never helps the charger", () => {
    fc.assert(
      fc.property(fc.constantFrom("fall" as const, "object" as const), fc.integer({ min: 1, max: 200 }), rank, rank, rank, rank, (kind, areas, endurance, bodyArmor, ms, more) => {
        const out = resolveImpact({ kind, areas, endurance, bodyArmor, materialStrength: ms });
        expect(out.damage).toBe(Math.min(shiftZ, chargeDamage({ endurance, bodyArmor, areas })));
        expect(out.objectDamage).toBe(Math.max(0, out.damage - ms));
        expect(out.breaks).toBe(out.damage > ms);
        expect(out.rebound).toBe(chargeReboundDamage(ms, bodyArmor));
        const harder = resolveImpact({ kind, areas, endurance, bodyArmor, materialStrength: ms + more });
        expect(harder.rebound).toBeGreaterThanOrEqual(out.rebound);
        expect(harder.objectDamage).toBeLessThanOrEqual(out.objectDamage);
      }),
    );
  });
});
