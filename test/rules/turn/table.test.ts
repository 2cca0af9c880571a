/**
 * The turn as one table (src/rules/turn/phases.ts TURN_TABLE): the table is the turn's single
 * source of what each phase is. These tests prove that walking the turn follows the table, so
 * adding, removing or reordering a phase is a change in the table alone: a table with a phase
 * skipped is walked without it, a forcible need made unforcible stops a forced advance, and the
 * predicates the tracker and the combat document use read the table's columns.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTING_PHASES,
  TURN_PHASES,
  TURN_TABLE,
  advancePhase,
  canActThisTurn,
  createCombatantTurn,
  hasActedThisTurn,
  isActingPhase,
  mayChangeAction,
  mayChooseExtraMode,
  mayDeclare,
  nextPhase,
  phaseWaiting,
  phasesWaitingFor,
  phasesWhere,
  type PhaseRules,
  type TurnPhase,
} from "../../../src/rules/turn";
import { Table, expectTurnError, mixedParty, stats } from "../../support/turn-play";

describe("the turn's table", () => {
  it("has one row per phase, and following each row from declare visits every phase once, in TURN_PHASES order", () => {
    expect(Object.keys(TURN_TABLE).sort()).toEqual([...TURN_PHASES].sort());
    const visited: TurnPhase[] = [];
    let phase: TurnPhase = "declare";
    do {
      visited.push(phase);
      phase = TURN_TABLE[phase].follows;
    } while (phase !== "declare" && visited.length <= TURN_PHASES.length);
    expect(visited).toEqual([...TURN_PHASES]);
  });

  it("a whole turn advanced by force walks the rows the table names, skipping only a phase entered when actions are due", () => {
    const t = mixedParty();
    const seen: TurnPhase[] = [t.state.combat.phase];
    for (let i = 0; i < TURN_PHASES.length; i++) {
      const from = t.state.combat.phase;
      if (from === "extraActions") for (const c of [...t.state.combatants.values()]) expect(c.extra).toBeNull();
      if (from === "initiative") break; // initiative is never forced: rolls come first
      t.advance({ force: true });
      seen.push(t.state.combat.phase);
    }
    expect(seen).toEqual(["declare", TURN_TABLE.declare.follows, TURN_TABLE.extraActions.follows]);
  });

  it("a table with a phase skipped is walked without it (adding or removing a phase is a change to the table)", () => {
    // A house rule with no extra-action step: declare is followed straight by initiative.
    const noExtras: Readonly<Record<TurnPhase, PhaseRules>> = { ...TURN_TABLE, declare: { ...TURN_TABLE.declare, follows: "initiative" } };
    const t = new Table([createCombatantTurn("a", stats()), createCombatantTurn("b", stats())]);
    t.apply(advancePhase(t.state, "declare", { force: true, table: noExtras }));
    expect(t.state.combat.phase).toBe("initiative");
    // The same turn with the game's table goes to the extra actions.
    const u = new Table([createCombatantTurn("a", stats()), createCombatantTurn("b", stats())]);
    u.apply(advancePhase(u.state, "declare", { force: true }));
    expect(u.state.combat.phase).toBe(nextPhase("declare"));
    expect(u.state.combat.phase).toBe("extraActions");
  });

  it("what a phase waits for, and what may be forced past, come from its row", () => {
    const t = new Table([createCombatantTurn("a", stats()), createCombatantTurn("b", stats())]);
    expect(phaseWaiting(t.state).map((w) => w.need)).toEqual(["declaration", "declaration"]);
    // With declarations made unforcible, a forced advance is refused and names who is waited for.
    const strict: Readonly<Record<TurnPhase, PhaseRules>> = { ...TURN_TABLE, declare: { ...TURN_TABLE.declare, forcible: [] } };
    expectTurnError(() => advancePhase(t.state, "declare", { force: true, table: strict }), "notReady", /"a" \(declaration\), "b" \(declaration\)/);
    // A row that waits for nothing ends at once.
    const patient: Readonly<Record<TurnPhase, PhaseRules>> = { ...TURN_TABLE, declare: { ...TURN_TABLE.declare, waitsFor: [] } };
    expect(phaseWaiting(t.state, patient)).toEqual([]);
    t.apply(advancePhase(t.state, "declare", { table: patient }));
    expect(t.state.combat.phase).toBe("extraActions");
  });

  it("the steps belong to the phases whose row allows them", () => {
    expect(ACTING_PHASES).toEqual(["resolve", "extraRounds"]);
    expect(phasesWhere("declaring")).toEqual(["declare"]);
    expect(phasesWhere("choosingExtraMode")).toEqual(["extraActions"]);
    expect(phasesWhere("notingEvents")).toEqual(["wrapUp"]);
    expect(phasesWaitingFor("initiativeRoll")).toEqual(["initiative"]);
    for (const phase of TURN_PHASES) expect(isActingPhase(phase)).toBe(TURN_TABLE[phase].acting);
    expect(isActingPhase("not a phase")).toBe(false);
  });
});

describe("the turn's predicates (read by the tracker, the combat document and the exchange's bridge)", () => {
  const phaseArb = fc.constantFrom(...TURN_PHASES);

  it("may declare only in a declaring phase, and only when the combatant can act", () => {
    fc.assert(
      fc.property(phaseArb, fc.integer({ min: 0, max: 3 }), (phase, stun) => {
        const t = new Table([createCombatantTurn("a", stats())]);
        t.state.combat = { ...t.state.combat, phase };
        const c = { ...t.c("a"), stunTurns: stun };
        expect(mayDeclare(t.state, c)).toBe(TURN_TABLE[phase].declaring && canActThisTurn(c));
      }),
    );
  });

  it("may change an action only in an acting phase, with actions left, once per action", () => {
    const t = mixedParty();
    t.state.combat = { ...t.state.combat, phase: "resolve" };
    const c = t.c("cap");
    expect(mayChangeAction(t.state, c)).toBe(true);
    expect(mayChangeAction(t.state, { ...c, changedAt: c.actionsUsed })).toBe(false);
    expect(mayChangeAction(t.state, { ...c, actionsUsed: c.actionsAllowed })).toBe(false);
    t.state.combat = { ...t.state.combat, phase: "declare" };
    expect(mayChangeAction(t.state, c)).toBe(false);
  });

  it("may choose separate actions or a flurry only after passing the roll, in the phase for it", () => {
    const t = mixedParty();
    const passed = { ...t.c("cap"), extra: { wanted: 2, required: "green" as const, roll: 80, color: "yellow" as const, success: true, mode: null } };
    const failed = { ...passed, extra: { ...passed.extra, success: false } };
    t.state.combat = { ...t.state.combat, phase: "extraActions" };
    expect([mayChooseExtraMode(t.state, passed), mayChooseExtraMode(t.state, failed)]).toEqual([true, false]);
    t.state.combat = { ...t.state.combat, phase: "initiative" };
    expect(mayChooseExtraMode(t.state, passed)).toBe(false);
  });

  it("has acted this turn: after an action, or in a phase where the turn's actions are over", () => {
    for (const phase of TURN_PHASES) {
      expect(hasActedThisTurn(phase, { actionsUsed: 0 })).toBe(TURN_TABLE[phase].actionsOver);
      expect(hasActedThisTurn(phase, { actionsUsed: 1 })).toBe(true);
    }
    expect(hasActedThisTurn("not a phase", { actionsUsed: 0 })).toBe(false);
  });
});
