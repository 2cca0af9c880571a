/**
 * The turn's shifts on each kind of roll (rules/turn/shifts.ts), who may act and defend, and
 * whether an attack is the attacker's action (rules/turn/able.ts). Values from the rules'
 * own constants, which the rules reference pins elsewhere (actions.test.ts, defences.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHANGE_ACTION_CS, EXTRA_ACTION_FAIL_CS, EXTRA_ACTION_SEPARATE_CS, FULL_MOVE_CS, flurryDamageShift } from "../../../src/rules/actions";
import { FULL_HOLD_CS, PARTIAL_HOLD_CS } from "../../../src/rules/attacks";
import { DECLARED_DODGE_OTHER_ACTION_CS } from "../../../src/rules/defences";
import {
  TURN_ROLL_KINDS,
  type TurnRollKind,
  actionShift,
  attackInTurn,
  canActThisTurn,
  changeAction,
  chooseExtraMode,
  createCombatantTurn,
  helplessReason,
  mayDefendNow,
  parseDeclaration,
  recordExtraActionRoll,
  recordInitiativeRolls,
  turnHelplessReason,
  turnShiftTotal,
  turnShifts,
  type CombatantTurn,
} from "../../../src/rules/turn";
import { Table, mixedParty, partyArb, playTurn, stats } from "../../support/turn-play";

const fresh = (over: Partial<CombatantTurn> = {}): CombatantTurn => ({ ...createCombatantTurn("c", stats()), ...over });

/** cap declares 2 actions (Ftg Amazing: 2 actions need green), passes and picks `mode`; everyone else 1; then resolve. */
function extraTurn(mode: "separate" | "flurry" | "fail"): Table {
  const t = mixedParty();
  t.declare("cap", { text: "Punch twice", kind: "attack", attack: "BA", actions: 2 });
  for (const id of ["speedy", "brick", "thug", "boss"]) t.declare(id, { text: "Attack" });
  t.advance();
  t.apply(recordExtraActionRoll(t.state, "cap", mode === "fail" ? 1 : 99));
  if (mode !== "fail") t.apply(chooseExtraMode(t.state, "cap", mode));
  t.advance();
  t.apply(recordInitiativeRolls(t.state, { cap: 10, speedy: 3, brick: 2, thug: 1, boss: 1 }));
  t.advance();
  return t;
}

describe("turnShifts: the turn's shifts on each kind of roll, with reasons", () => {
  it("separate actions: −1 CS on each action's to-hit and FEAT, nothing on defence, damage or checks", () => {
    const t = extraTurn("separate");
    const cap = t.c("cap");
    expect(turnShifts(cap, "toHit")).toEqual([{ cs: EXTRA_ACTION_SEPARATE_CS, reason: "separateActions" }]);
    expect(turnShifts(cap, "feat")).toEqual([{ cs: EXTRA_ACTION_SEPARATE_CS, reason: "separateActions" }]);
    for (const kind of ["defence", "damage", "check"] as const) expect(turnShifts(cap, kind)).toEqual([]);
    t.act("cap");
    // The second separate action carries it too.
    expect(turnShifts(t.c("cap"), "toHit")).toEqual([{ cs: -1, reason: "separateActions" }]);
  });

  it("a failed extra-action roll: −3 CS; a flurry: its damage shift on damage only", () => {
    expect(turnShifts(extraTurn("fail").c("cap"), "toHit")).toEqual([{ cs: EXTRA_ACTION_FAIL_CS, reason: "extraActionFailed" }]);
    const flurry = extraTurn("flurry").c("cap");
    expect(turnShifts(flurry, "toHit")).toEqual([]);
    expect(turnShifts(flurry, "damage")).toEqual([{ cs: flurryDamageShift(2), reason: "flurryDamage" }]);
    expect(flurryDamageShift(2)).toBe(1);
  });

  it("a changed action: −1 CS on the next action only", () => {
    const t = extraTurn("fail");
    const change = changeAction(t.state, "cap", 99, parseDeclaration({ text: "Kick instead" }), 0);
    expect(change.success).toBe(true);
    t.apply(change.change);
    expect(turnShifts(t.c("cap"), "toHit")).toEqual([
      { cs: EXTRA_ACTION_FAIL_CS, reason: "extraActionFailed" },
      { cs: CHANGE_ACTION_CS, reason: "changedAction" },
    ]);
  });

  it("holds on every action and defence (and left out when the caller counts them itself); the declared dodge on the dodger's own actions", () => {
    expect(turnShifts(fresh({ hold: "partialHold" }), "defence")).toEqual([{ cs: PARTIAL_HOLD_CS, reason: "partialHold" }]);
    expect(turnShifts(fresh({ hold: "fullHold" }), "feat")).toEqual([{ cs: FULL_HOLD_CS, reason: "fullHold" }]);
    expect(turnShifts(fresh({ hold: "fullHold" }), "feat", { holds: false })).toEqual([]);
    const dodger = fresh({ dodge: { roll: 50, color: "yellow", shift: -4 } });
    expect(turnShifts(dodger, "feat")).toEqual([{ cs: DECLARED_DODGE_OTHER_ACTION_CS, reason: "declaredDodge" }]);
    expect(turnShifts(dodger, "toHit")).toEqual([{ cs: -2, reason: "declaredDodge" }]);
    expect(turnShifts(dodger, "defence")).toEqual([]);
  });

  it("a declared move: the full-move penalty on the attack, none on a charge", () => {
    const mover = fresh({ declaration: parseDeclaration({ text: "Run in and hit", kind: "move" }) });
    expect(turnShifts(mover, "toHit")).toEqual([{ cs: FULL_MOVE_CS, reason: "fullMove" }]);
    expect(turnShifts(mover, "toHit", { charge: true })).toEqual([]);
    expect(turnShifts(fresh({ declaration: parseDeclaration({ text: "Hit", kind: "attack" }) }), "toHit")).toEqual([]);
  });

  it("refuses an unknown kind of roll", () => {
    expect(() => turnShifts(fresh(), "parry" as TurnRollKind)).toThrow(RangeError);
  });

  it("property: the tracker's action shift is the to-hit shifts' sum, and no shift is zero", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (seed) => {
        const run = playTurn(mixedParty(), seed, true);
        for (const c of run.table.state.combatants.values()) {
          expect(actionShift(c)).toBe(turnShiftTotal(turnShifts(c, "toHit")));
          for (const kind of TURN_ROLL_KINDS) for (const s of turnShifts(c, kind)) expect(s.cs).not.toBe(0);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("who may act and defend", () => {
  const standing = { health: 30, stunned: false, unconscious: false, dying: false, aided: false };

  it("the turn: no actions for the Unconscious, the stunned, the unaided dying, the dead and the defeated", () => {
    expect(turnHelplessReason(fresh({ unconscious: true }))).toBe("unconscious");
    expect(canActThisTurn(fresh({ unconscious: true }))).toBe(false);
    expect(turnHelplessReason(fresh({ stunTurns: 2 }))).toBe("stunned");
    expect(turnHelplessReason(fresh({ dying: true }))).toBe("dying");
    expect(turnHelplessReason(fresh({ dying: true, aided: true }))).toBeNull();
    expect(turnHelplessReason(fresh({ dead: true, dying: true }))).toBe("dead");
    expect(turnHelplessReason(fresh({ defeated: true }))).toBe("defeated");
    expect(canActThisTurn(fresh())).toBe(true);
  });

  it("the character: 0 Health is Unconscious under the ruling (not without it); conditions outside a combat; a stun's timing from the turn inside one", () => {
    expect(helplessReason({ ...standing, health: 0 }, null)).toBe("unconscious");
    expect(helplessReason({ ...standing, health: 0 }, null, { unconsciousAtZeroHealth: false })).toBeNull();
    expect(helplessReason({ ...standing, unconscious: true }, fresh())).toBe("unconscious");
    expect(helplessReason({ ...standing, stunned: true }, null)).toBe("stunned");
    // Stunned after acting: the stun starts next turn, so this turn the character still defends.
    expect(helplessReason({ ...standing, stunned: true }, fresh({ stunPending: 1 }))).toBeNull();
    expect(helplessReason({ ...standing, dying: true }, null)).toBe("dying");
    expect(helplessReason({ ...standing, dying: true, aided: true }, null)).toBeNull();
    expect(mayDefendNow(standing, fresh())).toBe(true);
    expect(mayDefendNow(standing, fresh({ stunTurns: 1 }))).toBe(false);
    expect(mayDefendNow(null, null)).toBe(true);
  });
});

describe("the Unconscious in a whole turn", () => {
  it("property: an Unconscious combatant never acts, whatever the party, dice and mayhem; the others are unaffected", () => {
    fc.assert(
      fc.property(partyArb, fc.integer({ min: 1, max: 10_000 }), fc.boolean(), (party, seed, mayhem) => {
        const out = new Set(party.flatMap((p, i) => (p.pick % 3 === 0 ? [`c${i}`] : [])));
        const table = new Table(party.map((p, i) => createCombatantTurn(`c${i}`, p.stats, { unconscious: out.has(`c${i}`) })));
        const run = playTurn(table, seed, mayhem);
        for (const id of out) expect(run.acted.get(id) ?? 0, id).toBe(0);
        for (const id of run.acted.keys()) expect(out.has(id), id).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});

describe("attackInTurn: an attack is the attacker's action", () => {
  it("in resolve, the one acting spends its action; anyone else, or outside the acting phases, is out of turn; a stranger attacks freely", () => {
    const t = extraTurn("separate");
    expect(t.current).toBe("cap");
    expect(attackInTurn(t.state, "cap")).toEqual({ kind: "inTurn", actionIndex: 0 });
    expect(attackInTurn(t.state, "boss")).toEqual({ kind: "outOfTurn", reason: "notYourTurn" });
    expect(attackInTurn(t.state, "nobody")).toEqual({ kind: "free" });
    t.act("cap");
    expect(attackInTurn(t.state, "cap")).toEqual({ kind: "outOfTurn", reason: "notYourTurn" });
    const declaring = mixedParty();
    expect(attackInTurn(declaring.state, "cap")).toEqual({ kind: "outOfTurn", reason: "notActing" });
  });
});
