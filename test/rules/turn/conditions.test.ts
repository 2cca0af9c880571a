/**
 * The CASE turn (src/rules/turn/): holds, defences and the extra-action phase's details.
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import { describe, expect, it } from "vitest";
import { EXTRA_ACTION_FAIL_CS, EXTRA_ACTION_SEPARATE_CS, MAX_ACTIONS_PER_TURN, extraActionRequiredColor, flurryDamageShift } from "../../../src/rules/actions";
import { PARTIAL_HOLD_CS } from "../../../src/rules/attacks";
import { UNDONE_DEFENCE_GIVEN_BACK, actionCountChoices, actionShift, actionsLeft, advancePhase, chooseExtraMode, createCombatantTurn, declareAction, defenceRefusal, forgetDefence, nextDefencePenalty, parseDeclaration, recordDefence, recordExtraActionRoll, recordInitiativeRoll, recordInitiativeRolls, setHold } from "../../../src/rules/turn";
import { Table, expectTurnError, mixedParty, stats } from "../../support/turn-play";

describe("holds, defences and the extra-action phase's details", () => {
  it("a hold's −2 CS stays on every action until it is escaped, turn after turn", () => {
    const t = new Table([createCombatantTurn("a", stats())]);
    t.apply(setHold(t.state, "a", "partialHold"));
    expect(actionShift(t.c("a"))).toBe(PARTIAL_HOLD_CS);
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRoll(t.state, "a", 5));
    t.advance();
    t.act("a");
    t.advance();
    t.advance();
    expect(t.c("a").hold).toBe("partialHold");
    t.apply(setHold(t.state, "a", "none"));
    expect(actionShift(t.c("a"))).toBe(0);
  });

  it("Evasion, Feint and Catch take an action instead of counting against the free defences", () => {
    const t = new Table([createCombatantTurn("a", stats({ freeDefences: 1 })), createCombatantTurn("b", stats())]);
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { a: 1, b: 9 }));
    t.advance();
    expect(t.current).toBe("b");
    const evade = recordDefence(t.state, "a", "evasion");
    expect(evade).toMatchObject({ penalty: 0, tookAction: true });
    t.apply(evade.change);
    expect(t.c("a").defencesUsed).toBe(0);
    expect(actionsLeft(t.c("a"))).toBe(0);
    expectTurnError(() => recordDefence(t.state, "a", "feint"), "cannotAct");
    // Asked before any die is rolled, defenceRefusal says the same as recordDefence would.
    expect(defenceRefusal(t.state, "a", "feint")).toBe("noAction");
    expect(defenceRefusal(t.state, "a", "dodge")).toBeNull();
    expect(nextDefencePenalty(t.c("a"))).toBe(0);
    t.act("b");
    expect(t.current).toBeNull(); // a lost its action to the Evasion
  });

  it("forgetDefence gives back a counted defence in its own turn (UNDONE_DEFENCE_GIVEN_BACK): the count, the −2 CS it caused, and Evasion's action", () => {
    expect(UNDONE_DEFENCE_GIVEN_BACK).toBe(true);
    const t = new Table([createCombatantTurn("a", stats({ freeDefences: 1 })), createCombatantTurn("b", stats())]);
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { a: 1, b: 9 }));
    t.advance();
    const turn = t.state.combat.number;
    t.apply(recordDefence(t.state, "a", "dodge").change);
    t.apply(recordDefence(t.state, "a", "block").change);
    expect(t.c("a").defencesUsed).toBe(2);
    expect(nextDefencePenalty(t.c("a"))).toBe(-4);
    t.apply(forgetDefence(t.state, "a", "block", turn));
    expect(t.c("a").defencesUsed).toBe(1);
    expect(nextDefencePenalty(t.c("a"))).toBe(-2);
    // Evasion took a's action; forgetting it gives the action back while the turn still acts.
    t.apply(recordDefence(t.state, "a", "evasion").change);
    expect(actionsLeft(t.c("a"))).toBe(0);
    t.apply(forgetDefence(t.state, "a", "evasion", turn));
    expect(actionsLeft(t.c("a"))).toBe(1);
    expect(t.c("a").defencesUsed).toBe(1);
    // Nothing counted to give back is refused, never guessed; so is a turn not yet reached and bad input.
    t.apply(forgetDefence(t.state, "a", "dodge", turn));
    expectTurnError(() => forgetDefence(t.state, "a", "dodge", turn), "stale");
    expectTurnError(() => forgetDefence(t.state, "a", "feint", turn), "stale");
    expectTurnError(() => forgetDefence(t.state, "a", "dodge", turn + 1), "stale");
    expect(() => forgetDefence(t.state, "a", "dodge", 0)).toThrow(RangeError);
    expect(() => forgetDefence(t.state, "a", "sidestep" as "dodge", turn)).toThrow();
  });

  it("forgetDefence gives nothing back for a defence counted in an earlier turn, nor Evasion's action once the turn's actions are over", () => {
    const t = new Table([createCombatantTurn("a", stats()), createCombatantTurn("b", stats())]);
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { a: 1, b: 9 }));
    t.advance();
    const turn = t.state.combat.number;
    t.apply(recordDefence(t.state, "a", "evasion").change);
    t.apply(recordDefence(t.state, "a", "dodge").change);
    t.act("b");
    t.advance();
    expect(t.state.combat.phase).toBe("wrapUp");
    // Wrap-up: the action is that turn's and stays spent; the count still comes back.
    expect(forgetDefence(t.state, "a", "evasion", turn).combatants).toEqual([]);
    expect(forgetDefence(t.state, "a", "dodge", turn).combatants).toHaveLength(1);
    t.advance();
    expect(t.state.combat.number).toBe(turn + 1);
    expect(t.c("a").defencesUsed).toBe(0);
    for (const d of ["dodge", "evasion"] as const) expect(forgetDefence(t.state, "a", d, turn).combatants).toEqual([]);
  });

  it("a defence outside Resolve and the extra rounds is refused by defenceRefusal, as recordDefence refuses it", () => {
    const t = new Table([createCombatantTurn("a", stats())]);
    expect(t.state.combat.phase).toBe("declare");
    expect(defenceRefusal(t.state, "a", "dodge")).toBe("wrongPhase");
    expectTurnError(() => recordDefence(t.state, "a", "dodge"), "wrongPhase");
  });

  it("with attacks not bound to the turn (attacksInTurn off), a defence outside the acting phases is not refused: rolled, not counted", () => {
    const t = new Table([createCombatantTurn("a", stats())]);
    expect(t.state.combat.phase).toBe("declare");
    for (const defence of ["dodge", "evasion", "feint", "catch"] as const) expect(defenceRefusal(t.state, "a", defence, { attacksInTurn: false })).toBeNull();
    expect(defenceRefusal(t.state, "a", "dodge", { attacksInTurn: true })).toBe("wrongPhase");
  });

  it("a failed extra-action roll and a flurry use the rules' constants", () => {
    const t = new Table([createCombatantTurn("a", stats({ offence: 50 })), createCombatantTurn("b", stats({ offence: 5000 }))]);
    t.declare("a", { actions: 3 });
    t.declare("b", { actions: 8 });
    t.advance();
    expect(t.c("a").extra?.required).toBe(extraActionRequiredColor(50, 3));
    t.apply(recordExtraActionRoll(t.state, "a", 1));
    t.apply(recordExtraActionRoll(t.state, "b", 100));
    expect(t.c("a")).toMatchObject({ actionsAllowed: 1, actionCs: EXTRA_ACTION_FAIL_CS });
    t.apply(chooseExtraMode(t.state, "b", "flurry"));
    expect(t.c("b").damageCs).toBe(flurryDamageShift(8));
    t.apply(chooseExtraMode(t.state, "b", "separate")); // may change its mind until the phase ends
    expect(t.c("b")).toMatchObject({ actionsAllowed: 8, actionCs: EXTRA_ACTION_SEPARATE_CS, damageCs: 0 });
  });

  it("forcing past an unchosen mode takes the extra actions separately; missing rolls are never forced", () => {
    const t = new Table([createCombatantTurn("a", stats({ offence: 50 }))]);
    t.declare("a", { actions: 2 });
    t.advance();
    expectTurnError(() => advancePhase(t.state, "extraActions", { force: true }), "notReady", /extraRoll/);
    t.apply(recordExtraActionRoll(t.state, "a", 99));
    expectTurnError(() => advancePhase(t.state, "extraActions"), "notReady", /extraMode/);
    t.advance({ force: true });
    expect(t.c("a")).toMatchObject({ actionsAllowed: 2, actionCs: EXTRA_ACTION_SEPARATE_CS });
  });

  it("actionCountChoices offers one action and every count that is not impossible (Table 22)", () => {
    expect(actionCountChoices(6)).toEqual([{ actions: 1, required: null }]);
    // Incredible: 2 (Remarkable) green, 3 (Amazing) red, 4 (Unearthly) impossible.
    expect(actionCountChoices(40)).toEqual([
      { actions: 1, required: null },
      { actions: 2, required: "green" },
      { actions: 3, required: "red" },
    ]);
    expect(actionCountChoices(5000).length).toBe(MAX_ACTIONS_PER_TURN);
    expect(() => declareAction(mixedParty().state, "thug", parseDeclaration({ actions: 2 }))).toThrow(/cannot take 2 actions/);
  });

  it("a forced end of resolve forgoes the rest of the actions", () => {
    const t = mixedParty();
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 10, speedy: 8, brick: 6, thug: 4, boss: 1 }));
    t.advance();
    t.act("cap");
    expectTurnError(() => advancePhase(t.state, "resolve"), "notReady", /"speedy" \(action\)/);
    t.advance({ force: true });
    expect(t.state.combat.phase).toBe("wrapUp");
  });
});
