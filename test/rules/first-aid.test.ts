/**
 * First aid and "Aided" (src/rules/first-aid.ts): who may aid whom, and what it does (§8, [001]:
 * any aid stops a dying character's loss; the first aid talent revives the stunned).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AID_REACH_CELLS, cellsBetween, isFirstAidTalent, mayAid, withinReach, type Aider } from "../../src/rules/first-aid";
import { aidTargetOf, createCombatantTurn, needsAid, type CombatantTurn } from "../../src/rules/turn/index";
import { rulesSection } from "../support/rules-doc";

const section8 = rulesSection(8).replace(/\s+/g, " ");
const mate = (o: Partial<Extract<Aider, { kind: "character" }>> = {}): Aider => ({ kind: "character", self: false, canAct: true, hasFirstAid: false, adjacent: true, ...o });

describe("first aid and Aided (§8)", () => {
  it("the reference says any aid stops the loss", () => {
    expect(section8).toMatch(/any aid stops the loss/);
  });

  it("first aid: an adjacent ally stops a dying character's loss without the talent; reviving a stun needs the talent", () => {
    expect(mayAid(mate(), { dying: true, stunned: false, dead: false })).toEqual({ ok: true, stopsDying: true, revived: false });
    expect(mayAid(mate(), { dying: false, stunned: true, dead: false })).toEqual({ ok: false, reason: "noFirstAid" });
    expect(mayAid(mate({ hasFirstAid: true }), { dying: false, stunned: true, dead: false })).toEqual({ ok: true, stopsDying: false, revived: true });
    expect(mayAid(mate({ hasFirstAid: true }), { dying: true, stunned: true, dead: false })).toEqual({ ok: true, stopsDying: true, revived: true });
  });

  it("first aid is refused: the dead, oneself, from afar, when the aider cannot act, and when there is nothing to aid", () => {
    expect(mayAid(mate(), { dying: false, stunned: false, dead: true })).toEqual({ ok: false, reason: "dead" });
    expect(mayAid(mate({ self: true }), { dying: true, stunned: false, dead: false })).toEqual({ ok: false, reason: "self" });
    expect(mayAid(mate({ adjacent: false }), { dying: true, stunned: false, dead: false })).toEqual({ ok: false, reason: "notAdjacent" });
    expect(mayAid(mate({ canAct: false }), { dying: true, stunned: false, dead: false })).toEqual({ ok: false, reason: "aiderCannotAct" });
    expect(mayAid(mate({ hasFirstAid: true }), { dying: false, stunned: false, dead: false })).toEqual({ ok: false, reason: "nothingToAid" });
  });

  it("Aided by the Judge: any dying character, anywhere; the Judge's aid does not revive a stun", () => {
    expect(mayAid({ kind: "judge" }, { dying: true, stunned: true, dead: false })).toEqual({ ok: true, stopsDying: true, revived: false });
    expect(mayAid({ kind: "judge" }, { dying: false, stunned: true, dead: false })).toEqual({ ok: false, reason: "nothingToAid" });
  });

  it("property (first aid): an accepted aid always does something, and only a first aid talent revives", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (self, canAct, hasFirstAid, adjacent, dying, stunned, dead) => {
        const v = mayAid(mate({ self, canAct, hasFirstAid, adjacent }), { dying, stunned, dead });
        if (v.ok) {
          expect(v.stopsDying || v.revived).toBe(true);
          expect(!dead && !self && canAct && adjacent).toBe(true);
          if (v.revived) expect(hasFirstAid && stunned).toBe(true);
          expect(v.stopsDying).toBe(dying);
        } else expect(dead || self || !canAct || !adjacent || (!dying && !(stunned && hasFirstAid))).toBe(true);
      }),
    );
  });

  it("the first aid talent is found by name, case and spacing aside", () => {
    expect(["First Aid", "first-aid", " FIRST  AID ", "Medicine"].map(isFirstAidTalent)).toEqual([true, true, true, true]);
    expect(["Firearms", "Aid", ""].map(isFirstAidTalent)).toEqual([false, false, false]);
  });

  it("reach: tokens next to each other (diagonals too) are within reach, two cells apart are not; large tokens count their size", () => {
    const one = { col: 5, row: 5, width: 1, height: 1 };
    expect(withinReach(one, { col: 6, row: 6, width: 1, height: 1 })).toBe(true);
    expect(withinReach(one, { col: 7, row: 5, width: 1, height: 1 })).toBe(false);
    expect(withinReach({ col: 0, row: 0, width: 2, height: 2 }, { col: 2, row: 1, width: 1, height: 1 })).toBe(true);
    expect(AID_REACH_CELLS).toBe(1);
    expect(withinReach({ col: 0, row: 0, width: 2, height: 2 }, { col: 3, row: 1, width: 1, height: 1 })).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 4 }), (c1, r1, s1, c2, r2, s2) => {
        const a = { col: c1, row: r1, width: s1, height: s1 };
        const b = { col: c2, row: r2, width: s2, height: s2 };
        expect(cellsBetween(a, b)).toBe(cellsBetween(b, a));
        expect(cellsBetween(a, b)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe("who needs first aid (rules turn/conditions.ts needsAid)", () => {
  const stats = { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 };
  const state = fc.record({ dying: fc.boolean(), aided: fc.boolean(), stunTurns: fc.nat(3), stunPending: fc.nat(2), dead: fc.boolean() });

  it("needsAid: the dying unaided and the stunned (running or pending) need aid; the aided dying, the well and the dead do not", () => {
    const base = createCombatantTurn("c", stats);
    const c = (o: Partial<CombatantTurn>): CombatantTurn => ({ ...base, ...o });
    expect(needsAid(c({ dying: true }))).toBe(true);
    expect(needsAid(c({ dying: true, aided: true }))).toBe(false);
    expect(needsAid(c({ stunTurns: 2 }))).toBe(true);
    expect(needsAid(c({ stunPending: 1 }))).toBe(true);
    expect(needsAid(c({ dying: true, aided: true, stunTurns: 1 }))).toBe(true);
    expect(needsAid(c({}))).toBe(false);
    expect(needsAid(c({ dying: true, stunTurns: 1, dead: true }))).toBe(false);
  });

  it("needsAid says yes exactly when an able, adjacent ally with the first aid talent may aid, and the aid does something", () => {
    const base = createCombatantTurn("c", stats);
    fc.assert(
      fc.property(state, (s) => {
        const c: CombatantTurn = { ...base, ...s };
        const verdict = mayAid(mate({ hasFirstAid: true }), aidTargetOf(c));
        const helps = verdict.ok && ((verdict.stopsDying && !c.aided) || verdict.revived);
        expect(needsAid(c)).toBe(helps);
      }),
    );
  });
});
