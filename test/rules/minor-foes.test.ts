import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_RESULTS, type AttackResult } from "../../src/rules/attacks";
import { consequenceCheck } from "../../src/rules/consequences";
import { initiativeModifier } from "../../src/rules/initiative";
import {
  GROUP_INITIATIVE_PICK_DEFAULT,
  MINOR_FOE_RULES,
  MINOR_FOE_RULE_DEFAULT,
  groupInitiative,
  groupInitiativeModifier,
  minorFoeOutcome,
  type MinorFoeRule,
} from "../../src/rules/minor-foes";
import { rulesSection } from "../support/rules-doc";

const section8 = rulesSection(8).replace(/\s+/g, " ");

describe("minor foe rule", () => {
  it("the default is CASE as written: the §8 check is due as for anyone", () => {
    expect(MINOR_FOE_RULE_DEFAULT).toBe("normal");
    expect(minorFoeOutcome("stun", 10)).toEqual({ out: false, check: "stun" });
    expect(minorFoeOutcome("hit", 10)).toEqual({ out: false, check: null });
  });

  it("out on any damage (002 unnamed characters): any damage after protection takes the foe out, no check", () => {
    expect(minorFoeOutcome("hit", 1, "outOnAnyDamage")).toEqual({ out: true, check: null });
    expect(minorFoeOutcome("slam", 0, "outOnAnyDamage")).toEqual({ out: false, check: null });
  });

  it("out on Slam or Stun (004 minions take the worst degree): a Slam/Stun/Kill result with damage takes the foe out", () => {
    expect(section8).toMatch(/Only checked when the attack did damage after protection/);
    expect(minorFoeOutcome("slam", 5, "outOnSlamOrStun")).toEqual({ out: true, check: null });
    expect(minorFoeOutcome("stun", 5, "outOnSlamOrStun")).toEqual({ out: true, check: null });
    expect(minorFoeOutcome("stun", 0, "outOnSlamOrStun")).toEqual({ out: false, check: null });
    expect(minorFoeOutcome("hit", 50, "outOnSlamOrStun")).toEqual({ out: false, check: null });
  });

  it("refuses bad input", () => {
    expect(() => minorFoeOutcome("hit", -3)).toThrow(RangeError);
    expect(() => minorFoeOutcome("hit", 5, "mooks" as MinorFoeRule)).toThrow(RangeError);
    expect(() => minorFoeOutcome("smash" as AttackResult, 5)).toThrow(RangeError);
  });

  it("property: no rule keeps a foe in whom 'normal' would check, and no rule takes out a foe who took no damage", () => {
    fc.assert(fc.property(fc.constantFrom(...ATTACK_RESULTS), fc.nat(200), fc.constantFrom(...MINOR_FOE_RULES), (result, damage, rule) => {
      const o = minorFoeOutcome(result, damage, rule);
      if (damage === 0) expect(o.out).toBe(false);
      if (rule !== "normal" && consequenceCheck(result, damage) !== null) expect(o.out).toBe(true);
      if (o.out) expect(o.check).toBeNull();
    }));
  });
});

describe("minor foe rule: groups roll one initiative", () => {
  it("the group rolls with its leader's modifier by default; best or worst by setting", () => {
    const mods = [initiativeModifier(6), initiativeModifier(30), initiativeModifier(2)];
    expect(mods).toEqual([0, 3, -2]);
    expect(GROUP_INITIATIVE_PICK_DEFAULT).toBe("first");
    expect(groupInitiativeModifier(mods)).toBe(0);
    expect(groupInitiativeModifier(mods, "best")).toBe(3);
    expect(groupInitiativeModifier(mods, "worst")).toBe(-2);
    expect(groupInitiative(7, mods, "best")).toBe(10);
  });

  it("refuses an empty group, a bad modifier or die", () => {
    expect(() => groupInitiativeModifier([])).toThrow(/at least one member/);
    expect(() => groupInitiativeModifier([1, Number.NaN])).toThrow(/member 2/);
    expect(() => groupInitiative(11, [0])).toThrow(RangeError);
  });

  it("property: the picked modifier is one of the members' and lies between worst and best", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -3, max: 25 }), { minLength: 1, maxLength: 20 }), fc.constantFrom("first" as const, "best" as const, "worst" as const), (mods, pick) => {
      const m = groupInitiativeModifier(mods, pick);
      expect(mods).toContain(m);
      expect(m).toBeGreaterThanOrEqual(Math.min(...mods));
      expect(m).toBeLessThanOrEqual(Math.max(...mods));
    }));
  });
});
