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
  MINOR_FOE_OUT_AT_ZERO_HEALTH,
  minorFoeAfterDamage,
  minorFoeOutcome,
  type MinorFoeRule,
} from "../../src/rules/minor-foes";
import { applyDamage, createExchange, declineDefence, rollToHit, targetActions, undoDamage, type ExchangeState } from "../../src/rules/exchange/index";
import { rulesSection } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

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

describe("minor foe rule: when the damage is applied", () => {
  it("under a rule other than CASE's, Health reaching 0 takes the foe out too (ruling); never under 'normal'", () => {
    expect(MINOR_FOE_OUT_AT_ZERO_HEALTH).toBe(true);
    expect(minorFoeAfterDamage("hit", 20, 0, "outOnSlamOrStun")).toEqual({ out: true, check: null });
    expect(minorFoeAfterDamage("hit", 20, 5, "outOnSlamOrStun")).toEqual({ out: false, check: null });
    expect(minorFoeAfterDamage("hit", 20, 0, "normal")).toEqual({ out: false, check: null });
    expect(() => minorFoeAfterDamage("hit", 20, -1, "outOnAnyDamage")).toThrow(RangeError);
  });

  /** A thug (Health 40) hit by a red Blunt Attack of 20 (Stun? due), no defence. */
  function stunningHit(die = 99): ExchangeState {
    const s = createExchange(exchangeInput({
      source: "Fist",
      attacker: { uuid: "Actor.hero", name: "Hero", value: 30, strength: 20, armor: 0 },
      damage: { method: "static", value: 20 },
      targets: [{ uuid: "Actor.thug", actorUuid: "Actor.thug", name: "Thug", scores: { "agility.bal": 6, "fighting.def": 6, "strength.mgt": 10, "endurance.res": 10 }, armor: { body: 0, energy: 0 } }],
    }));
    return rollToHit(declineDefence(s, "0"), "0", { die });
  }

  it("applying the damage to a minor foe follows the world's rule: out of the fight with no check, or the check as for anyone", () => {
    const s = stunningHit();
    expect(s.targets[0]?.consequences.map((c) => c.check)).toEqual(["stun"]);
    const normal = applyDamage(s, "0", { value: 40, max: 40 }, undefined, "normal");
    expect(normal.state.targets[0]?.applied?.out).toBeUndefined();
    expect(targetActions(normal.state, "0").checks).toEqual(["stun"]);
    for (const rule of ["outOnAnyDamage", "outOnSlamOrStun"] as const) {
      const out = applyDamage(s, "0", { value: 40, max: 40 }, undefined, rule);
      expect(out.state.targets[0]?.applied?.out).toBe(true);
      expect(out.health).toBe(20);
      expect(targetActions(out.state, "0").checks).toEqual([]);
      // Undo gives back the Health and voids the row (UNDO_VOIDS_THE_ROW): no check left, no second Apply.
      const undone = undoDamage(out.state, "0", { value: 20, max: 40 });
      expect(undone.health).toBe(40);
      expect(undone.state.targets[0]?.phase).toBe("undone");
      expect(undone.state.targets[0]?.consequences).toEqual([]);
    }
    // Someone who is not a minor foe (null) is never taken out.
    expect(applyDamage(s, "0", { value: 40, max: 40 }).state.targets[0]?.applied?.out).toBeUndefined();
    expect(() => applyDamage(s, "0", { value: 40, max: 40 }, undefined, "mooks" as MinorFoeRule)).toThrow(RangeError);
  });

  it("property: a minor foe taken out has no check left to roll, and the rule never changes the Health written", () => {
    fc.assert(fc.property(fc.constantFrom(...MINOR_FOE_RULES), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 100 }), (rule, health, die) => {
      const s = stunningHit(die);
      if (!targetActions(s, "0").apply) return;
      const plain = applyDamage(s, "0", { value: health, max: 60 });
      const ruled = applyDamage(s, "0", { value: health, max: 60 }, undefined, rule);
      expect(ruled.health).toBe(plain.health);
      if (ruled.state.targets[0]?.applied?.out === true) expect(targetActions(ruled.state, "0").checks).toEqual([]);
      if (rule === "normal") expect(ruled.state).toEqual(plain.state);
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
