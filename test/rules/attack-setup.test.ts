import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attackSetup, foeBonusShift, isThrown, thrownRange, wornArmor, type AttackSetupInput } from "../../src/rules/index";
import { rulesSection } from "../support/rules-doc";

const base: AttackSetupInput = { attack: "BA", basis: "strength", itemRank: 0, strength: 30, endurance: 20, bodyArmor: 0, range: 0, distance: 0, objects: 0, chargeAreas: 0 };

describe("setting up an attack (CASE-RULES §5)", () => {
  it("a blunt attack with the wielder's Strength deals Strength; a rank weapon its rank", () => {
    expect(attackSetup(base).damage).toBe(30);
    expect(attackSetup({ ...base, basis: "rank", itemRank: 40 }).damage).toBe(40);
  });

  it("a thrown blunt item deals the lesser of Strength and its material strength [000]", () => {
    expect(rulesSection(5)).toMatch(/BT = the lesser of\s+thrower's Strength and the item's material strength/);
    expect(attackSetup({ ...base, attack: "BT", basis: "rank", itemRank: 50, materialStrength: 10 }).damage).toBe(10);
    expect(attackSetup({ ...base, attack: "BT", basis: "rank", itemRank: 50, materialStrength: 75, strength: 20 }).damage).toBe(20);
  });

  it("ranged: −1 CS per area beyond range and −2 CS per object in the path; thrown range is Table 24", () => {
    const shot = attackSetup({ ...base, attack: "Sh", basis: "rank", itemRank: 10, range: 3, distance: 5, objects: 2 });
    expect(shot.shifts).toEqual([
      { cs: -2, reason: "range" },
      { cs: -4, reason: "objects" },
    ]);
    const thrown = attackSetup({ ...base, attack: "BT", basis: "strength", range: 1, distance: 4, strength: 30 });
    // Remarkable Strength throws 4 areas (Table 24): no penalty at 4.
    expect(thrown.range).toBe(thrownRange(30));
    expect(thrown.shifts).toEqual([]);
    expect(isThrown("ET")).toBe(true);
    expect(isThrown("Sh")).toBe(false);
  });

  it("melee attacks take no range or object shifts", () => {
    expect(attackSetup({ ...base, distance: 10, objects: 3 }).shifts).toEqual([]);
  });

  it("a charge: max(End, armor) + 2 per area (capped) and +1 CS per area to hit (max +3)", () => {
    const charge = attackSetup({ ...base, attack: "Ch", endurance: 20, bodyArmor: 10, chargeAreas: 4 });
    expect(charge.damage).toBe(20 + 8);
    expect(charge.shifts).toEqual([{ cs: 3, reason: "charge" }]);
    // The bonus is capped at the same value: End 10 charging 20 areas deals 10 + 10.
    expect(attackSetup({ ...base, attack: "Ch", endurance: 10, chargeAreas: 20 }).damage).toBe(20);
  });

  it("never gives negative damage, and more objects never make a shot easier", () => {
    fc.assert(
      fc.property(fc.nat(10), fc.nat(10), fc.nat(20), (objects, more, distance) => {
        const a = attackSetup({ ...base, attack: "En", basis: "rank", itemRank: 40, range: 5, distance, objects });
        const b = attackSetup({ ...base, attack: "En", basis: "rank", itemRank: 40, range: 5, distance, objects: objects + more });
        const sum = (s: typeof a) => s.shifts.reduce((t, x) => t + x.cs, 0);
        expect(sum(b)).toBeLessThanOrEqual(sum(a));
        expect(a.damage).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it.each([
    [{ distance: -1 }, /Distance/],
    [{ objects: 1.5 }, /Objects/],
    [{ strength: -3 }, /Strength/],
    [{ itemRank: Number.NaN }, /Item rank/],
  ])("refuses %o clearly", (bad, message) => {
    expect(() => attackSetup({ ...base, ...bad })).toThrow(message);
  });
});

describe("worn armor and the foe bonus", () => {
  it("armor does not stack: the best body and the best energy protection count [RULING]", () => {
    expect(wornArmor([])).toEqual({ body: 0, energy: 0 });
    expect(wornArmor([{ body: 20, energy: 0 }, { body: 10, energy: 30 }])).toEqual({ body: 20, energy: 30 });
    expect(wornArmor([{ body: 20, energy: 0 }, { body: 10, energy: 30 }], true)).toEqual({ body: 30, energy: 30 });
    expect(() => wornArmor([{ body: -3, energy: 0 }])).toThrow(/Body armor/);
  });

  it("an Evasion/Feint bonus counts only when every target is that foe, and then the smallest", () => {
    expect(foeBonusShift([2])).toBe(2);
    expect(foeBonusShift([2, 1])).toBe(1);
    expect(foeBonusShift([2, 0])).toBe(0);
    expect(foeBonusShift([])).toBe(0);
    expect(() => foeBonusShift([-1])).toThrow(RangeError);
  });
});
