/**
 * The CASE turn (src/rules/turn/): properties.
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CombatantTurn, NO_CHANGE, TURN_PHASES, TurnError, advancePhase, applyStun, declareAction, markDying, nextPhase, parseDeclaration, withTurnChange } from "../../../src/rules/turn";
import { build, partyArb, playTurn, playUntilResolve, settingsArb } from "../../support/turn-play";

describe("properties", () => {
  it("every combatant acts exactly as many times as its actions allow, and the turn ends", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), (party, s, seed) => {
        const run = playTurn(build(party, s), seed);
        for (const [id, n] of run.allowed) expect(run.acted.get(id) ?? 0, id).toBe(n);
        for (const c of run.table.state.combatants.values()) expect(c.actionsUsed).toBe(run.allowed.get(c.id));
      }),
    );
  });

  it("the initiative order is non-increasing in total (and in modifier within a total)", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), (party, s, seed) => {
        fc.pre(s.mode !== "fixedOrder");
        const t = build(party, { ...s, team: false });
        playUntilResolve(t, seed);
        const order = t.state.combat.order.map((id) => t.c(id));
        for (let i = 1; i < order.length; i++) {
          const a = order[i - 1] as CombatantTurn;
          const b = order[i] as CombatantTurn;
          expect(a.initiative.total).not.toBeNull();
          expect(a.initiative.total as number).toBeGreaterThanOrEqual(b.initiative.total as number);
          if (a.initiative.total === b.initiative.total) expect(a.stats.initiativeModifier).toBeGreaterThanOrEqual(b.stats.initiativeModifier);
        }
        expect(new Set(t.state.combat.order).size).toBe(t.state.combat.order.length);
      }),
    );
  });

  it("wrap-up resets what CASE resets (declarations, actions, defences used) and stun counters go down", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), (party, s, seed) => {
        const run = playTurn(build(party, s), seed, true);
        const t = run.table;
        // Someone defended before each action taken: there is something to reset.
        if ([...run.acted.values()].some((n) => n > 0)) expect([...t.state.combatants.values()].some((c) => c.defencesUsed > 0)).toBe(true);
        const stunsBefore = new Map([...t.state.combatants.values()].map((c) => [c.id, { turns: c.stunTurns, pending: c.stunPending }]));
        t.advance();
        expect(t.state.combat.phase).toBe("declare");
        for (const c of t.state.combatants.values()) {
          expect(c).toMatchObject({ declaration: null, extra: null, actionsUsed: 0, defencesUsed: 0, actedInRound: 0, dodge: null, lostTurn: false, stunPending: 0 });
          const b = stunsBefore.get(c.id) as { turns: number; pending: number };
          if (b.pending === 0) expect(c.stunTurns).toBe(Math.max(0, b.turns - 1));
          else expect(c.stunTurns).toBe(Math.max(b.turns - 1, b.pending));
        }
      }),
    );
  });

  it("steps never mutate the state they are given", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), (party, s, seed) => {
        const t = build(party, s);
        const frozen = withTurnChange(t.state, NO_CHANGE);
        const snapshot = JSON.stringify([frozen.combat, [...frozen.combatants.values()]]);
        for (const c of frozen.combatants.values()) {
          try {
            declareAction(frozen, c.id, parseDeclaration({ text: "x" }));
            applyStun(frozen, c.id, 1 + (seed % 3));
            markDying(frozen, c.id);
          } catch (e) {
            if (!(e instanceof TurnError)) throw e;
          }
        }
        advancePhase(frozen, "declare", { force: true });
        expect(JSON.stringify([frozen.combat, [...frozen.combatants.values()]])).toBe(snapshot);
      }),
    );
  });

  it("the phases go round in the documented order", () => {
    expect(TURN_PHASES.map(nextPhase)).toEqual(["extraActions", "initiative", "resolve", "extraRounds", "wrapUp", "declare"]);
  });
});
