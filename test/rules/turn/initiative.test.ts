/**
 * The CASE turn (src/rules/turn/): initiative modes and teams.
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import { describe, expect, it } from "vitest";
import { type CombatantTurn, DEFAULT_TURN_SETTINGS, INITIATIVE_MAX_ROLL_OFFS, createCombatantTurn, initiativeUnits, initiativeWaiting, phaseWaiting, recordInitiativeRoll, recordInitiativeRollOffs, recordInitiativeRolls } from "../../../src/rules/turn";
import { Table, expectTurnError, stats } from "../../support/turn-play";

describe("initiative modes and teams", () => {
  function party(): CombatantTurn[] {
    return [
      createCombatantTurn("h1", stats({ initiativeModifier: 1 }), { team: "players" }),
      createCombatantTurn("h2", stats({ initiativeModifier: 4 }), { team: "players" }),
      createCombatantTurn("n1", stats({ initiativeModifier: 2 }), { team: "judge" }),
      createCombatantTurn("n2", stats({ initiativeModifier: 3 }), { team: "judge" }),
    ];
  }

  function toInitiative(t: Table): void {
    while (t.state.combat.phase !== "initiative") t.advance({ force: true });
  }

  it("team initiative: the member with the best modifier rolls once for the side; members act together, best modifier first", () => {
    const t = new Table(party(), { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "everyTurn", team: true } });
    expect(initiativeUnits(t.state)).toEqual([
      { key: "team:players", rollerId: "h2", memberIds: ["h2", "h1"], modifier: 4 },
      { key: "team:judge", rollerId: "n2", memberIds: ["n2", "n1"], modifier: 3 },
    ]);
    toInitiative(t);
    expect(initiativeWaiting(t.state).rolls).toEqual(["h2", "n2"]);
    expectTurnError(() => recordInitiativeRoll(t.state, "h1", 5), "cannotAct", /made by "h2"/);
    t.apply(recordInitiativeRolls(t.state, { h2: 2, n2: 5 })); // players 6, judge 8
    t.advance();
    expect(t.state.combat.order).toEqual(["n2", "n1", "h2", "h1"]);
    expect(t.c("h1").initiative.total).toBe(6);
  });

  it("once per combat: the d10 is kept from turn to turn", () => {
    const t = new Table(party().map((c) => ({ ...c, team: null })), { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "oncePerCombat", team: false } });
    toInitiative(t);
    t.apply(recordInitiativeRolls(t.state, { h1: 9, h2: 1, n1: 5, n2: 6 }));
    t.advance();
    expect(t.state.combat.order).toEqual(["h1", "n2", "n1", "h2"]); // 10, 9, 7, 5
    while (t.current) t.act(t.current);
    t.advance();
    t.advance();
    toInitiative(t);
    expect(initiativeWaiting(t.state).rolls).toEqual([]);
    t.advance();
    expect(t.state.combat.order).toEqual(["h1", "n2", "n1", "h2"]);
  });

  it("modifier only: no dice, ties roll off (again while they stand)", () => {
    const t = new Table(
      [createCombatantTurn("a", stats({ initiativeModifier: 2 })), createCombatantTurn("b", stats({ initiativeModifier: 2 })), createCombatantTurn("c", stats({ initiativeModifier: 5 }))],
      { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "modifierOnly", team: false } },
    );
    toInitiative(t);
    expectTurnError(() => recordInitiativeRoll(t.state, "a", 3), "cannotAct");
    expect(initiativeWaiting(t.state)).toEqual({ rolls: [], rollOffs: [["a", "b"]], dodges: [] });
    t.apply(recordInitiativeRollOffs(t.state, { a: 6, b: 6 }));
    expect(initiativeWaiting(t.state).rollOffs).toEqual([["a", "b"]]);
    expect(() => recordInitiativeRollOffs(t.state, { a: 1 })).toThrow(/"b" is missing/);
    t.apply(recordInitiativeRollOffs(t.state, { a: 2, b: 7 }));
    t.advance();
    expect(t.state.combat.order).toEqual(["c", "b", "a"]);
    expect(t.c("a").initiative.total).toBe(2);
  });

  it("a second roll-off only orders the still-tied: an earlier roll-off winner keeps its place", () => {
    const t = new Table(["a", "b", "c"].map((id) => createCombatantTurn(id, stats())), { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "modifierOnly", team: false } });
    toInitiative(t);
    t.apply(recordInitiativeRollOffs(t.state, { a: 5, b: 5, c: 7 }));
    expect(initiativeWaiting(t.state).rollOffs).toEqual([["a", "b"]]);
    t.apply(recordInitiativeRollOffs(t.state, { a: 2, b: 10 }));
    t.advance();
    expect(t.state.combat.order).toEqual(["c", "b", "a"]);
  });

  it(`gives up rolling off after ${INITIATIVE_MAX_ROLL_OFFS} roll-offs (tracker order decides)`, () => {
    const t = new Table(["a", "b"].map((id) => createCombatantTurn(id, stats())), { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "modifierOnly", team: false } });
    toInitiative(t);
    for (let i = 0; i < INITIATIVE_MAX_ROLL_OFFS; i++) t.apply(recordInitiativeRollOffs(t.state, { a: 4, b: 4 }));
    expect(initiativeWaiting(t.state).rollOffs).toEqual([]);
    t.advance();
    expect(t.state.combat.order).toEqual(["a", "b"]);
  });

  it("fixed order: the tracker order, no dice", () => {
    const t = new Table(party(), { ...DEFAULT_TURN_SETTINGS, initiative: { mode: "fixedOrder", team: true } });
    toInitiative(t);
    expect(phaseWaiting(t.state)).toEqual([]);
    t.advance();
    expect(t.state.combat.order).toEqual(["h1", "h2", "n1", "n2"]);
    expect(t.c("h1").initiative.total).toBeNull();
  });

  it("defeated combatants take no part", () => {
    const t = new Table([createCombatantTurn("a", stats()), createCombatantTurn("b", stats(), { defeated: true })]);
    toInitiative(t);
    expect(initiativeWaiting(t.state).rolls).toEqual(["a"]);
    expectTurnError(() => recordInitiativeRoll(t.state, "b", 3), "cannotAct");
  });
});
