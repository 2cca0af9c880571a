/**
 * The CASE turn (src/rules/turn.ts) against hand-worked turns, properties, and bad input.
 * Colours below are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EXTRA_ACTION_FAIL_CS,
  EXTRA_ACTION_SEPARATE_CS,
  MAX_ACTIONS_PER_TURN,
  extraActionRequiredColor,
  flurryDamageShift,
} from "../../src/rules/actions";
import { DECLARED_DODGE_OTHER_ACTION_CS } from "../../src/rules/defences";
import { PARTIAL_HOLD_CS } from "../../src/rules/attacks";
import { INITIATIVE_MODES, type InitiativeMode } from "../../src/rules/initiative";
import {
  DEFAULT_TURN_SETTINGS,
  INITIATIVE_MAX_ROLL_OFFS,
  NO_CHANGE,
  TURN_PHASES,
  TurnError,
  actionCountChoices,
  actionShift,
  actionsLeft,
  advancePhase,
  applyStun,
  canActThisTurn,
  changeAction,
  chooseExtraMode,
  combatantOf,
  commitTurnChange,
  completeAction,
  createCombatantTurn,
  createTurnState,
  currentCombatantId,
  declareAction,
  declaredDodgeShift,
  initiativeUnits,
  initiativeWaiting,
  isEmptyTurnChange,
  markDying,
  nextDefencePenalty,
  nextPhase,
  noteEvent,
  parseDeclaration,
  phaseWaiting,
  recordDefence,
  recordDodgeRoll,
  recordExtraActionRoll,
  recordInitiativeRoll,
  recordInitiativeRollOffs,
  recordInitiativeRolls,
  setAided,
  setHold,
  withTurnChange,
  type CombatantStats,
  type CombatantTurn,
  type Declaration,
  type MutableTurnState,
  type TurnChange,
  type TurnErrorCode,
  type TurnSettings,
} from "../../src/rules/turn";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** A table of combatants whose state the test owns, as Foundry's documents would be. */
class Table {
  readonly state: MutableTurnState;

  constructor(combatants: CombatantTurn[], settings: TurnSettings = DEFAULT_TURN_SETTINGS) {
    const s = createTurnState(combatants, settings);
    this.state = { combat: s.combat, combatants: new Map(s.combatants), settings: s.settings };
  }

  apply(change: TurnChange): TurnChange {
    commitTurnChange(this.state, change);
    return change;
  }

  c(id: string): CombatantTurn {
    return combatantOf(this.state, id);
  }

  get current(): string | null {
    return currentCombatantId(this.state);
  }

  advance(opts: { force?: boolean } = {}): TurnChange {
    return this.apply(advancePhase(this.state, this.state.combat.phase, opts));
  }

  declare(id: string, decl: Partial<Declaration>): void {
    this.apply(declareAction(this.state, id, parseDeclaration(decl)));
  }

  act(id: string): void {
    this.apply(completeAction(this.state, id));
  }
}

function stats(s: Partial<CombatantStats> = {}): CombatantStats {
  return { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6, ...s };
}

function expectTurnError(fn: () => unknown, code: TurnErrorCode, message?: RegExp): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, "expected a TurnError").toBeInstanceOf(TurnError);
  expect((error as TurnError).code).toBe(code);
  if (message) expect((error as TurnError).message).toMatch(message);
}

/** A small deterministic die for properties. */
function dice(seed: number): { d10(): number; d100(): number } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { d10: () => 1 + Math.floor(next() * 10), d100: () => 1 + Math.floor(next() * 100) };
}

// ---------------------------------------------------------------------------------------------
// A whole turn, step by step
// ---------------------------------------------------------------------------------------------

/**
 * cap     Ftg (off) Amazing 50, Agy (bal) Ex 20, Int mod +4, 2 free defences, End Rm 30
 * speedy  Ftg (off) Incredible 40, Agy (bal) Rm 30, Int mod +1, 1 free defence, End Ex 20
 * brick   Ftg (off) Monstrous 75, Agy (bal) Ty 6, mod 0, 3 free defences, End Rm 30
 * thug    Typical everything, mod 0 (NPC)
 * boss    Ftg (off) Rm 30, Agy (bal) Gd 10, mod +5, 2 free defences, End In 40 (NPC)
 */
function mixedParty(settings: TurnSettings = DEFAULT_TURN_SETTINGS): Table {
  return new Table(
    [
      createCombatantTurn("cap", stats({ offence: 50, balance: 20, initiativeModifier: 4, freeDefences: 2, endurance: 30 })),
      createCombatantTurn("speedy", stats({ offence: 40, balance: 30, initiativeModifier: 1, freeDefences: 1, endurance: 20 })),
      createCombatantTurn("brick", stats({ offence: 75, balance: 6, initiativeModifier: 0, freeDefences: 3, endurance: 30 })),
      createCombatantTurn("thug", stats()),
      createCombatantTurn("boss", stats({ offence: 30, balance: 10, initiativeModifier: 5, freeDefences: 2, endurance: 40 })),
    ],
    settings,
  );
}

describe("a whole turn for a mixed party (hand-worked)", () => {
  it("runs declare → extra actions → initiative → resolve → extra rounds → wrap-up", () => {
    const t = mixedParty();
    expect(t.state.combat).toMatchObject({ number: 1, phase: "declare", round: 0 });

    // Step 1: declare.
    t.declare("cap", { text: "Three punches at the boss", kind: "attack", attack: "BA", actions: 3 });
    t.declare("speedy", { text: "Two kicks", kind: "attack", attack: "BA", actions: 2 });
    t.declare("brick", { text: "Pummel the boss", kind: "attack", attack: "BA", actions: 4 });
    t.declare("thug", { text: "Shoot Cap", kind: "attack", attack: "Sh", secret: true });
    expect(phaseWaiting(t.state)).toEqual([{ id: "boss", need: "declaration" }]);
    expectTurnError(() => advancePhase(t.state, "declare"), "notReady", /"boss" \(declaration\)/);
    t.declare("boss", { text: "Energy blast at Brick", kind: "attack", attack: "En", actions: 2, secret: true });
    expect(t.c("thug").declaration?.secret).toBe(true);

    // Step 2: extra-action rolls. Table 22 intensities: 3 → Amazing, 2 → Remarkable, 4 → Unearthly.
    t.advance();
    expect(t.state.combat.phase).toBe("extraActions");
    expect(t.c("cap").extra?.required).toBe("yellow"); // Amazing vs Amazing
    expect(t.c("speedy").extra?.required).toBe("green"); // Incredible vs Remarkable
    expect(t.c("brick").extra?.required).toBe("red"); // Monstrous vs Unearthly
    expect(t.c("boss").extra?.required).toBe("yellow"); // Remarkable vs Remarkable
    expect(t.c("thug").extra).toBeNull();
    expect(phaseWaiting(t.state).map((w) => `${w.id}:${w.need}`)).toEqual(["cap:extraRoll", "speedy:extraRoll", "brick:extraRoll", "boss:extraRoll"]);

    t.apply(recordExtraActionRoll(t.state, "cap", 60)); // Amazing column: yellow from 56 → yellow, passes
    t.apply(recordExtraActionRoll(t.state, "speedy", 20)); // Incredible column: green from 31 → white, fails
    t.apply(recordExtraActionRoll(t.state, "brick", 90)); // Monstrous column: red from 86 → red, passes
    t.apply(recordExtraActionRoll(t.state, "boss", 70)); // Remarkable column: yellow from 66 → yellow, passes
    expect(t.c("cap").extra).toMatchObject({ roll: 60, color: "yellow", success: true, mode: null });
    expect(t.c("speedy")).toMatchObject({ actionsAllowed: 1, actionCs: -3 });
    expect(phaseWaiting(t.state).map((w) => `${w.id}:${w.need}`)).toEqual(["cap:extraMode", "brick:extraMode", "boss:extraMode"]);
    expectTurnError(() => chooseExtraMode(t.state, "speedy", "flurry"), "cannotAct");

    t.apply(chooseExtraMode(t.state, "cap", "separate"));
    t.apply(chooseExtraMode(t.state, "brick", "flurry"));
    t.apply(chooseExtraMode(t.state, "boss", "separate"));
    expect(t.c("cap")).toMatchObject({ actionsAllowed: 3, actionCs: -1, damageCs: 0 });
    expect(t.c("brick")).toMatchObject({ actionsAllowed: 1, actionCs: 0, damageCs: 2 }); // 4 attacks = 2 doublings
    expect(t.c("boss")).toMatchObject({ actionsAllowed: 2, actionCs: -1 });
    expect(t.c("thug")).toMatchObject({ actionsAllowed: 1, actionCs: 0 });

    // Step 3: initiative. cap 6+4 = 10, speedy 9+1 = 10, brick 7+0, thug 7+0, boss 2+5 = 7.
    t.advance();
    expect(t.state.combat.phase).toBe("initiative");
    expect(initiativeWaiting(t.state).rolls).toEqual(["cap", "speedy", "brick", "thug", "boss"]);
    t.apply(recordInitiativeRolls(t.state, { cap: 6, speedy: 9, brick: 7, thug: 7 }));
    t.apply(recordInitiativeRoll(t.state, "boss", 2));
    expect(t.c("cap").initiative.total).toBe(10);
    // cap and speedy tie on 10, settled by the modifier (+4 over +1); boss's +5 beats the 0s on 7;
    // brick and thug (7, mod 0) roll off.
    expect(initiativeWaiting(t.state).rollOffs).toEqual([["brick", "thug"]]);
    expectTurnError(() => advancePhase(t.state, "initiative"), "notReady", /rollOff/);
    t.apply(recordInitiativeRollOffs(t.state, { brick: 4, thug: 8 }));
    expect(initiativeWaiting(t.state)).toEqual({ rolls: [], rollOffs: [], dodges: [] });

    // Step 4: resolve in order.
    t.advance();
    expect(t.state.combat).toMatchObject({ phase: "resolve", round: 1, order: ["cap", "speedy", "boss", "thug", "brick"] });
    expect(t.current).toBe("cap");
    expect(actionShift(t.c("cap"))).toBe(-1);
    t.act("cap");
    expect(t.current).toBe("speedy");

    // speedy defends three times with one free defence: 0, −2, −4.
    const d1 = recordDefence(t.state, "speedy", "dodge");
    t.apply(d1.change);
    const d2 = recordDefence(t.state, "speedy", "block");
    t.apply(d2.change);
    const d3 = recordDefence(t.state, "speedy", "weave");
    t.apply(d3.change);
    expect([d1.penalty, d2.penalty, d3.penalty]).toEqual([0, -2, -4]);
    expect(t.c("speedy").defencesUsed).toBe(3);

    // A stun lands on the thug before it acted: it is out this turn.
    t.apply(applyStun(t.state, "thug", 1));
    expect(t.c("thug").stunTurns).toBe(1);
    expect(actionsLeft(t.c("thug"))).toBe(0);

    t.act("speedy");
    expect(t.current).toBe("boss");

    // The boss changes its action: yellow Agy (bal) ACTION on Good (yellow from 76): 80 → yellow, passes.
    const changed = changeAction(t.state, "boss", 80, parseDeclaration({ text: "Grab the hostage", kind: "attack", attack: "Gb" }), 0);
    expect(changed).toMatchObject({ color: "yellow", success: true });
    t.apply(changed.change);
    expect(t.c("boss").declaration).toMatchObject({ text: "Grab the hostage", attack: "Gb", actions: 2, secret: true });
    expect(actionShift(t.c("boss"))).toBe(-2); // −1 separate extra action, −1 changed action
    t.act("boss");
    expect(actionShift(t.c("boss"))).toBe(-1); // the change's −1 was for that one action

    // The stunned thug is skipped.
    expect(t.current).toBe("brick");
    t.act("brick");
    expect(t.current).toBeNull();
    expect(phaseWaiting(t.state)).toEqual([]);

    // Step 5: extra rounds: cap (3 actions) and boss (2), then cap alone.
    t.advance();
    expect(t.state.combat).toMatchObject({ phase: "extraRounds", round: 2 });
    expect(t.current).toBe("cap");
    t.apply(markDying(t.state, "brick")); // a Kill result on brick, who already acted
    t.apply(applyStun(t.state, "cap", 1)); // cap has acted: the stun waits for next turn
    expect(t.c("cap")).toMatchObject({ stunTurns: 0, stunPending: 1 });
    t.act("cap");
    expect(t.current).toBe("boss");
    t.act("boss");
    expect(t.state.combat.round).toBe(3);
    expect(t.current).toBe("cap");
    t.act("cap");
    expect(t.current).toBeNull();
    expect(Object.fromEntries([...t.state.combatants.values()].map((c) => [c.id, c.actionsUsed]))).toEqual({ cap: 3, speedy: 1, brick: 1, thug: 0, boss: 2 });

    // Step 6: wrap up.
    t.advance();
    expect(t.state.combat.phase).toBe("wrapUp");
    t.apply(noteEvent(t.state, "The floor collapses"));
    expect(t.state.combat.events).toEqual(["The floor collapses"]);
    const wrap = t.advance();
    // brick lies unaided: one rank down the ladder, Remarkable (30) → Excellent (20).
    expect(wrap.enduranceLosses).toEqual([{ id: "brick", from: 30, to: 20, dead: false }]);
    expect(t.state.combat).toMatchObject({ number: 2, phase: "declare", round: 0, order: [], events: [] });
    for (const c of t.state.combatants.values()) {
      expect(c).toMatchObject({ declaration: null, extra: null, actionsUsed: 0, defencesUsed: 0, actionCs: 0, damageCs: 0, dodge: null, lostTurn: false });
      expect(c.initiative).toEqual({ d10: null, total: null, rollOffs: [] });
    }
    expect(t.c("thug").stunTurns).toBe(0); // one turn served
    expect(t.c("cap")).toMatchObject({ stunTurns: 1, stunPending: 0 }); // now out for turn 2
    expect(t.c("brick")).toMatchObject({ dying: true, stats: { endurance: 20 } });

    // Turn 2: cap (stunned) and brick (dying) cannot declare; aid stops brick's loss.
    expectTurnError(() => declareAction(t.state, "cap", parseDeclaration({ text: "Punch" })), "cannotAct");
    expectTurnError(() => declareAction(t.state, "brick", parseDeclaration({ text: "Punch" })), "cannotAct");
    t.apply(setAided(t.state, "brick", true));
    for (const id of ["speedy", "thug", "boss"]) t.declare(id, { text: "Fight on" });
    t.advance(); // extra actions: nobody asked
    t.advance(); // initiative
    t.apply(recordInitiativeRolls(t.state, { speedy: 5, thug: 5, boss: 5, cap: 1, brick: 1 }));
    t.advance();
    // boss 5+5, speedy 5+1, cap 1+4 = 5 and thug 5+0 = 5 (cap's +4 first), brick 1.
    expect(t.state.combat.order).toEqual(["boss", "speedy", "cap", "thug", "brick"]);
    for (const id of ["boss", "speedy", "thug"]) t.act(id);
    expect(t.current).toBeNull();
    t.advance(); // nobody has extra actions: straight to wrap-up
    expect(t.state.combat.phase).toBe("wrapUp");
    expect(t.advance().enduranceLosses).toEqual([]);
    expect(t.c("brick")).toMatchObject({ dying: false, aided: false, stats: { endurance: 20 } });
    expect(t.c("cap").stunTurns).toBe(0);
    expect(canActThisTurn(t.c("cap"))).toBe(true);
  });

  it("a failed change of action costs the rest of the turn", () => {
    const t = mixedParty();
    for (const id of ["cap", "speedy", "brick", "thug", "boss"]) t.declare(id, { text: "Attack" });
    t.advance();
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 1, speedy: 1, brick: 1, thug: 2, boss: 10 }));
    t.advance();
    // Order: boss 10+5 = 15, cap 1+4 = 5, speedy 1+1 = 2 and thug 2+0 = 2 (speedy's +1 first), brick 1.
    expect(t.state.combat.order).toEqual(["boss", "cap", "speedy", "thug", "brick"]);
    // cap tries to change before its turn: Agy (bal) Excellent, yellow from 71: 50 is green → fails.
    const r = changeAction(t.state, "cap", 50, parseDeclaration({ text: "Dive for cover", kind: "move" }));
    expect(r).toMatchObject({ color: "green", success: false });
    t.apply(r.change);
    expect(t.c("cap").lostTurn).toBe(true);
    expect(actionsLeft(t.c("cap"))).toBe(0);
    t.act("boss");
    expect(t.current).toBe("speedy"); // cap is skipped
    expectTurnError(() => changeAction(t.state, "cap", 99, parseDeclaration({ text: "Again" })), "cannotAct");
  });

  it("the acting combatant losing its action (stun, dying, failed change) moves the turn on", () => {
    const t = mixedParty();
    for (const id of ["cap", "speedy", "brick", "thug", "boss"]) t.declare(id, { text: "Attack" });
    t.advance();
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 10, speedy: 8, brick: 6, thug: 4, boss: 1 }));
    t.advance();
    // cap 14, speedy 9, boss 1+5 = 6 and brick 6+0 = 6 (boss's +5 first), thug 4.
    expect(t.state.combat.order).toEqual(["cap", "speedy", "boss", "brick", "thug"]);
    t.apply(applyStun(t.state, "cap", 3)); // a white Stun? with a d10 of 3, before cap acted
    expect(t.current).toBe("speedy");
    t.apply(markDying(t.state, "speedy"));
    expect(t.current).toBe("boss");
    // boss's change fails (Agy (bal) Good, 1 is white): the turn moves on.
    t.apply(changeAction(t.state, "boss", 1, parseDeclaration({ text: "Run" })).change);
    expect(t.current).toBe("brick");
    // cap is out for turns 1, 2 and 3.
    t.act("brick");
    t.act("thug");
    for (let turn = 2; turn <= 4; turn++) {
      t.advance(); // → wrapUp
      t.advance(); // → next turn
      expect(t.state.combat.number).toBe(turn);
      expect(canActThisTurn(t.c("cap"))).toBe(turn === 4);
      if (turn === 4) break;
      t.advance({ force: true }); // declare (nobody needs to)
      t.advance(); // extra actions
      t.apply(recordInitiativeRolls(t.state, { cap: 1, speedy: 1, brick: 2, thug: 3, boss: 4 }));
      t.advance();
      while (t.current !== null) t.act(t.current);
    }
    // speedy lay dying, unaided, through three wrap-ups: Ex 20 → Gd 10 → Ty 6 → Pr 4.
    expect(t.c("speedy")).toMatchObject({ dying: true, dead: false, stats: { endurance: 4 } });
  });
});

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
    expect(nextDefencePenalty(t.c("a"))).toBe(0);
    t.act("b");
    expect(t.current).toBeNull(); // a lost its action to the Evasion
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

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

describe("bad input gets a clear error", () => {
  it("unknown combatant", () => {
    const t = mixedParty();
    expectTurnError(() => declareAction(t.state, "nobody", parseDeclaration({})), "unknownCombatant", /"nobody"/);
    expectTurnError(() => applyStun(t.state, "ghost", 1), "unknownCombatant");
    expect(() => combatantOf(t.state, "")).toThrow(TypeError);
  });

  it("acting out of phase", () => {
    const t = mixedParty();
    expectTurnError(() => completeAction(t.state, "cap"), "wrongPhase", /"resolve" or "extraRounds"/);
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

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const RANK_NUMBERS = [0, 2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150, 200, 500, 1000, 3000, 5000];

const statsArb = fc.record({
  initiativeModifier: fc.integer({ min: -3, max: 25 }),
  offence: fc.constantFrom(...RANK_NUMBERS),
  balance: fc.constantFrom(...RANK_NUMBERS),
  freeDefences: fc.integer({ min: 1, max: 8 }),
  endurance: fc.constantFrom(...RANK_NUMBERS),
});

const partyArb = fc.array(fc.record({ stats: statsArb, pick: fc.nat(), team: fc.constantFrom(null, "players", "judge"), stun: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 12 });

const settingsArb = fc.record({
  mode: fc.constantFrom<InitiativeMode>(...INITIATIVE_MODES),
  team: fc.boolean(),
  declaredDodge: fc.boolean(),
});

interface Run {
  table: Table;
  acted: Map<string, number>;
  allowed: Map<string, number>;
}

/**
 * Plays one whole turn with random dice; records how often each combatant acted. With
 * `mayhem`, before each action someone defends (a counted Block) and now and then someone is
 * stunned, as attacks would do.
 */
function playTurn(table: Table, seed: number, mayhem = false): Run {
  const die = dice(seed);
  for (const c of table.state.combatants.values()) {
    if (!canActThisTurn(c)) continue;
    const choices = actionCountChoices(c.stats.offence);
    const choice = choices[seed % choices.length] ?? choices[0];
    const dodge = seed % 3 === 0;
    table.declare(c.id, dodge ? { kind: "defence", defence: "dodge", actions: 1 } : { text: "Go", actions: choice?.actions ?? 1 });
  }
  table.advance();
  for (const c of [...table.state.combatants.values()]) if (c.extra) table.apply(recordExtraActionRoll(table.state, c.id, die.d100()));
  for (const c of [...table.state.combatants.values()]) if (c.extra?.success) table.apply(chooseExtraMode(table.state, c.id, die.d10() > 5 ? "flurry" : "separate"));
  table.advance();
  const w = initiativeWaiting(table.state);
  if (w.rolls.length > 0) table.apply(recordInitiativeRolls(table.state, Object.fromEntries(w.rolls.map((id) => [id, die.d10()]))));
  for (let ties = initiativeWaiting(table.state).rollOffs; ties.length > 0; ties = initiativeWaiting(table.state).rollOffs) {
    table.apply(recordInitiativeRollOffs(table.state, Object.fromEntries(ties.flat().map((id) => [id, die.d10()]))));
  }
  for (const id of initiativeWaiting(table.state).dodges) table.apply(recordDodgeRoll(table.state, id, die.d100()));
  table.advance();
  const allowed = new Map([...table.state.combatants.values()].map((c) => [c.id, actionsLeft(c)]));
  const acted = new Map<string, number>();
  let guard = 0;
  while (table.state.combat.phase !== "wrapUp") {
    const id = table.current;
    if (id === null) {
      table.advance();
      continue;
    }
    if (mayhem) {
      const ids = [...table.state.combatants.keys()];
      const target = ids[die.d100() % ids.length] as string;
      table.apply(recordDefence(table.state, target, "block").change);
      if (die.d10() === 1) table.apply(applyStun(table.state, ids[die.d100() % ids.length] as string, die.d10()));
      if (table.current !== id) continue; // the stun took the one acting out
    }
    acted.set(id, (acted.get(id) ?? 0) + 1);
    table.act(id);
    if (++guard > 10_000) throw new Error("The turn never ends.");
  }
  return { table, acted, allowed };
}

function build(party: { stats: CombatantStats; team: string | null; stun: number }[], s: { mode: InitiativeMode; team: boolean; declaredDodge: boolean }): Table {
  return new Table(
    party.map((p, i) => ({ ...createCombatantTurn(`c${i}`, p.stats, { team: p.team }), stunTurns: p.stun > 2 ? 1 : 0 })),
    { initiative: { mode: s.mode, team: s.team }, declaredDodge: s.declaredDodge },
  );
}

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

function playUntilResolve(t: Table, seed: number): void {
  const die = dice(seed);
  t.advance({ force: true });
  for (const c of [...t.state.combatants.values()]) if (c.extra) t.apply(recordExtraActionRoll(t.state, c.id, die.d100()));
  t.advance({ force: true });
  const w = initiativeWaiting(t.state);
  if (w.rolls.length > 0) t.apply(recordInitiativeRolls(t.state, Object.fromEntries(w.rolls.map((id) => [id, die.d10()]))));
  for (let ties = initiativeWaiting(t.state).rollOffs; ties.length > 0; ties = initiativeWaiting(t.state).rollOffs) {
    t.apply(recordInitiativeRollOffs(t.state, Object.fromEntries(ties.flat().map((id) => [id, die.d10()]))));
  }
  t.advance();
}
