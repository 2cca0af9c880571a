/**
 * The CASE turn (src/rules/turn/): bad input gets a clear error.
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import { describe, expect, it } from "vitest";
import { NO_CHANGE, advancePhase, applyStun, chooseExtraMode, combatantOf, completeAction, createCombatantTurn, createTurnState, declareAction, noteEvent, parseDeclaration, recordDefence, recordExtraActionRoll, recordInitiativeRoll, recordInitiativeRolls, setAided, setHold } from "../../../src/rules/turn";
import { expectTurnError, mixedParty, stats } from "../../support/turn-play";

describe("bad input gets a clear error", () => {
  it("unknown combatant", () => {
    const t = mixedParty();
    expectTurnError(() => declareAction(t.state, "nobody", parseDeclaration({})), "unknownCombatant", /"nobody"/);
    expectTurnError(() => applyStun(t.state, "ghost", 1), "unknownCombatant");
    expect(() => combatantOf(t.state, "")).toThrow(TypeError);
  });

  it("acting out of phase", () => {
    const t = mixedParty();
    expectTurnError(() => completeAction(t.state, "cap"), "wrongPhase", /phase resolve, extraRounds;/);
    expectTurnError(() => recordExtraActionRoll(t.state, "cap", 50), "wrongPhase");
    expectTurnError(() => recordInitiativeRoll(t.state, "cap", 5), "wrongPhase");
    expectTurnError(() => recordDefence(t.state, "cap"), "wrongPhase");
    expectTurnError(() => noteEvent(t.state, "Boom"), "wrongPhase");
    t.advance({ force: true });
    expectTurnError(() => declareAction(t.state, "cap", parseDeclaration({})), "wrongPhase");
  });

  it("advancing a phase twice (a replayed click) is stale", () => {
    const t = mixedParty();
    const first = advancePhase(t.state, "declare", { force: true });
    t.apply(first);
    expectTurnError(() => advancePhase(t.state, "declare", { force: true }), "stale", /already advanced/);
    expect(() => advancePhase(t.state, "lunch" as never)).toThrow(RangeError);
  });

  it("not your turn; a replayed action changes nothing", () => {
    const t = mixedParty();
    t.advance({ force: true });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 10, speedy: 8, brick: 6, thug: 4, boss: 1 }));
    t.advance();
    expectTurnError(() => completeAction(t.state, "boss"), "notYourTurn", /"cap"'s action/);
    t.apply(completeAction(t.state, "cap", 0));
    expect(completeAction(t.state, "cap", 0)).toBe(NO_CHANGE);
    expect(() => completeAction(t.state, "speedy", 3)).toThrow(/not next/);
  });

  it("negative or broken counts and values", () => {
    const t = mixedParty();
    expect(() => applyStun(t.state, "cap", -1)).toThrow(RangeError);
    expect(() => applyStun(t.state, "cap", 0)).toThrow(RangeError);
    expect(() => applyStun(t.state, "cap", 1.5)).toThrow(RangeError);
    expect(() => parseDeclaration({ actions: 0 })).toThrow(/from 1 to 8/);
    expect(() => parseDeclaration({ actions: -2 })).toThrow(RangeError);
    expect(() => parseDeclaration({ actions: 9 })).toThrow(RangeError);
    expect(() => parseDeclaration({ text: 5 })).toThrow(TypeError);
    expect(() => parseDeclaration({ text: "x".repeat(501) })).toThrow(/at most 500/);
    expect(() => parseDeclaration({ kind: "dance" })).toThrow(/kind/);
    expect(() => parseDeclaration({ kind: "move", attack: "BA" })).toThrow(/only when its kind is "attack"/);
    expect(() => parseDeclaration({ kind: "attack", attack: "XX" })).toThrow(/Unknown attack/);
    expect(() => parseDeclaration({ kind: "defence", defence: "parry" })).toThrow(/Unknown defence/);
    expect(() => parseDeclaration(null)).toThrow(TypeError);
    expect(() => parseDeclaration({ secret: "yes" })).toThrow(TypeError);
    expect(() => createCombatantTurn("x", stats({ freeDefences: -1 }))).toThrow(RangeError);
    expect(() => createCombatantTurn("x", stats({ offence: -5 }))).toThrow(RangeError);
    expect(() => createCombatantTurn("", stats())).toThrow(TypeError);
    expect(() => createTurnState([createCombatantTurn("a", stats()), createCombatantTurn("a", stats())])).toThrow(/more than once/);
    t.advance({ force: true });
    expect(() => recordExtraActionRoll(t.state, "cap", 0)).toThrow(RangeError);
    t.advance();
    expect(() => recordInitiativeRoll(t.state, "cap", 11)).toThrow(RangeError);
    expect(() => recordInitiativeRolls(t.state, { cap: 0 })).toThrow(RangeError);
    expectTurnError(() => setAided(t.state, "cap", true), "cannotAct", /not dying/);
    expect(() => setHold(t.state, "cap", "bearHug" as never)).toThrow(RangeError);
  });

  it("a replayed declaration or roll changes nothing; a different roll is stale", () => {
    const t = mixedParty();
    const decl = parseDeclaration({ text: "Punch", actions: 2 });
    t.apply(declareAction(t.state, "cap", decl));
    expect(declareAction(t.state, "cap", decl)).toBe(NO_CHANGE);
    t.advance({ force: true });
    t.apply(recordExtraActionRoll(t.state, "cap", 40));
    expect(recordExtraActionRoll(t.state, "cap", 40)).toBe(NO_CHANGE);
    expectTurnError(() => recordExtraActionRoll(t.state, "cap", 41), "stale");
    t.apply(chooseExtraMode(t.state, "cap", "flurry"));
    expect(chooseExtraMode(t.state, "cap", "flurry")).toBe(NO_CHANGE);
    expect(() => chooseExtraMode(t.state, "cap", "both" as never)).toThrow(RangeError);
  });
});
