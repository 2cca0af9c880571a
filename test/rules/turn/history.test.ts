/**
 * The turn's history (src/rules/turn/history.ts): the Judge's "back one step".
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_CHANGE, TURN_HISTORY_LIMIT, type TurnHistory, type TurnState, completeAction, rememberTurn, stepBack, stepBackTarget, withTurnChange } from "../../../src/rules/turn";
import { build, expectTurnError, mixedParty, partyArb, playUntilResolve, settingsArb } from "../../support/turn-play";

/** The turn's own parts, for comparing two states (stats, team and the defeated mark are not the turn's). */
function turnOf(state: TurnState): unknown {
  return { combat: state.combat, combatants: [...state.combatants.values()] };
}

describe("back one step (turn history)", () => {
  it("back one step after an advance gives the state before it", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), fc.integer({ min: 0, max: 3 }), (party, s, seed, advances) => {
        const t = build(party, s);
        playUntilResolve(t, seed);
        // Some more advances (forced) from wherever the turn now is.
        let history: TurnHistory = [];
        for (let i = 0; i < advances; i++) {
          const before = { combat: t.state.combat, combatants: new Map(t.state.combatants), settings: t.state.settings };
          history = rememberTurn(history, before, t.advance({ force: true }), "advance");
          const back = stepBack(t.state, history);
          const restored = withTurnChange(t.state, back.change);
          expect(turnOf(restored)).toEqual(turnOf(before));
          expect(back.history).toEqual(history.slice(0, -1));
        }
      }),
    );
  });

  it("back one step after a Done gives the state before it, and back twice undoes two steps", () => {
    fc.assert(
      fc.property(partyArb, settingsArb, fc.nat(), (party, s, seed) => {
        const t = build(party, s);
        playUntilResolve(t, seed);
        const states: TurnState[] = [];
        let history: TurnHistory = [];
        for (let i = 0; i < 2 && t.current !== null; i++) {
          const id = t.current;
          const before = { combat: t.state.combat, combatants: new Map(t.state.combatants), settings: t.state.settings };
          states.push(before);
          history = rememberTurn(history, before, t.apply(completeAction(t.state, id)), "done", id);
        }
        let state: TurnState = t.state;
        for (let i = states.length - 1; i >= 0; i--) {
          const back = stepBack(state, history);
          state = withTurnChange(state, back.change);
          history = back.history;
          expect(turnOf(state)).toEqual(turnOf(states[i] as TurnState));
        }
        expect(history).toHaveLength(0);
      }),
    );
  });

  it("back one step: the history is bounded, the oldest state is forgotten first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 20 }), (steps, limit) => {
        const t = mixedParty();
        let history: TurnHistory = [];
        const numbers: number[] = [];
        for (let i = 0; i < steps; i++) {
          history = rememberTurn(history, { ...t.state, combat: { ...t.state.combat, number: i + 1 } }, NO_CHANGE, "advance", null, limit);
          numbers.push(i + 1);
          expect(history.length).toBeLessThanOrEqual(limit);
        }
        expect(history.map((e) => e.combat.number)).toEqual(numbers.slice(-limit));
      }),
    );
    expect(TURN_HISTORY_LIMIT).toBeGreaterThanOrEqual(1);
  });

  it("back one step with nothing remembered is refused as stale", () => {
    const t = mixedParty();
    expectTurnError(() => stepBack(t.state, []), "stale", /no earlier step/);
    expect(stepBackTarget([])).toBeNull();
  });

  it("back one step keeps a combatant's current stats and skips one that left; the order drops it", () => {
    const t = mixedParty();
    playUntilResolve(t, 7);
    const before = { combat: t.state.combat, combatants: new Map(t.state.combatants), settings: t.state.settings };
    const acting = t.current as string;
    const history = rememberTurn([], before, t.apply(completeAction(t.state, acting)), "done", acting);
    const gone = t.state.combat.order.find((id) => id !== acting) as string;
    const now = new Map(t.state.combatants);
    now.delete(gone);
    const actor = t.c(acting);
    now.set(acting, { ...actor, stats: { ...actor.stats, offence: 3000 } });
    const state: TurnState = { combat: t.state.combat, combatants: now, settings: t.state.settings };
    const back = stepBack(state, history);
    expect(back.change.combatants.find((c) => c.id === gone)).toBeUndefined();
    expect(history[0]?.combatants.map((c) => c.id)).toEqual([acting]);
    const restored = withTurnChange(state, back.change);
    expect(restored.combat.order).not.toContain(gone);
    expect(restored.combatants.get(acting)?.stats.offence).toBe(3000);
    expect(restored.combatants.get(acting)?.actionsUsed).toBe(before.combatants.get(acting)?.actionsUsed);
    expect(stepBackTarget(history)).toEqual({ phase: "resolve", turn: 1, cause: "done", combatantId: acting });
  });
});

describe("compact tracker: Health bands", () => {
  it("compact tracker: a Health band never says more than its band, and is monotone in Health", async () => {
    const { HEALTH_BANDS, HEALTH_BAND_FILL, healthBand } = await import("../../../src/rules/damage");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: -100, max: 5000 }), fc.integer({ min: -100, max: 5000 }), (max, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(HEALTH_BANDS.indexOf(healthBand(lo, max))).toBeGreaterThanOrEqual(HEALTH_BANDS.indexOf(healthBand(hi, max)));
      }),
    );
    expect([healthBand(120, 120), healthBand(61, 120), healthBand(60, 120), healthBand(1, 120), healthBand(0, 120), healthBand(5, 0)]).toEqual(["full", "hurt", "badlyHurt", "badlyHurt", "down", "down"]);
    expect(HEALTH_BANDS.map((b) => HEALTH_BAND_FILL[b])).toEqual([1, 0.75, 0.3, 0]);
    expect(() => healthBand(Number.NaN, 10)).toThrow(RangeError);
  });
});
