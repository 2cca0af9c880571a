/**
 * The CASE turn (src/rules/turn/): declared dodge (optional rule, §6 [000]).
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import { describe, expect, it } from "vitest";
import { DECLARED_DODGE_OTHER_ACTION_CS } from "../../../src/rules/defences";
import { DEFAULT_TURN_SETTINGS, type TurnSettings, actionShift, advancePhase, changeAction, createCombatantTurn, declareAction, declaredDodgeShift, initiativeWaiting, isEmptyTurnChange, parseDeclaration, recordDodgeRoll, recordInitiativeRolls } from "../../../src/rules/turn";
import { Table, expectTurnError, stats } from "../../support/turn-play";

describe("declared dodge (optional rule, §6 [000])", () => {
  const settings: TurnSettings = { ...DEFAULT_TURN_SETTINGS, declaredDodge: true };

  function dodgeTable(): Table {
    return new Table(
      [
        createCombatantTurn("dodger", stats({ balance: 30, offence: 75 })), // Agy (bal) Remarkable
        createCombatantTurn("shooter", stats()),
      ],
      settings,
    );
  }

  it("is rolled right after initiative and shifts every attack on the dodger; the dodger's other actions are at −2 CS", () => {
    const t = dodgeTable();
    expect(() => declareAction(t.state, "dodger", parseDeclaration({ kind: "defence", defence: "dodge", actions: 2 }))).toThrow(/at most 1 other action/);
    t.declare("dodger", { text: "Dodge and throw a rock", kind: "defence", defence: "dodge" });
    t.declare("shooter", { kind: "attack", attack: "Sh" });
    t.advance();
    expect(t.c("dodger").dodge).toEqual({ roll: null, color: null, shift: 0 });
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { dodger: 3, shooter: 9 }));
    expect(initiativeWaiting(t.state).dodges).toEqual(["dodger"]);
    expectTurnError(() => advancePhase(t.state, "initiative"), "notReady", /dodgeRoll/);
    t.apply(recordDodgeRoll(t.state, "dodger", 80)); // Remarkable: yellow from 66 → −4 CS
    expect(declaredDodgeShift(t.c("dodger"))).toBe(-4);
    expect(isEmptyTurnChange(recordDodgeRoll(t.state, "dodger", 80))).toBe(true);
    expectTurnError(() => recordDodgeRoll(t.state, "dodger", 12), "stale");
    t.advance();
    expect(actionShift(t.c("dodger"))).toBe(DECLARED_DODGE_OTHER_ACTION_CS);
    expect(declaredDodgeShift(t.c("shooter"))).toBe(0);
    // No charging for a dodger.
    expect(() => changeAction(t.state, "dodger", 90, parseDeclaration({ kind: "attack", attack: "Ch" }))).toThrow(/may not charge/);
    t.act("shooter");
    t.act("dodger");
    t.advance();
    t.advance();
    expect(t.c("dodger").dodge).toBeNull();
  });

  it("without the setting a declared Dodge is just a declaration", () => {
    const t = new Table([createCombatantTurn("a", stats({ offence: 75 }))]);
    t.declare("a", { kind: "defence", defence: "dodge", actions: 2 });
    t.advance();
    expect(t.c("a").dodge).toBeNull();
  });
});
