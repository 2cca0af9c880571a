/**
 * The turn's column shifts on a combatant's rolls, each with its reason: the one place that
 * says which of the turn's shifts reach which roll. The tracker's rows, the attack card, the
 * damage column and FEATs all read them here.
 *
 * [001 Step 2] a failed extra-action roll: one action at −3 CS; a pass: separate actions at
 * −1 CS each, or one flurry at +1 CS damage per doubling. [001 Step 4] a changed action: the
 * next action at −1 CS. §5 a hold: its shift on all the held's actions. §6 [000] a declared
 * dodge: the dodger's other ACTIONs at −2 CS. [001] moving full speed: the action at −1 CS
 * unless it is a charge.
 */
import { RulesRangeError } from "../errors";
import { EXTRA_ACTION_FAIL_CS, fullMovePenalty } from "../actions";
import { DECLARED_DODGE_OTHER_ACTION_CS } from "../defences";
import { type CombatantTurn, heldActionCs } from "./state";
import { show } from "./phases";

/** The rolls a turn's shift may reach. */
export const TURN_ROLL_KINDS = ["toHit", "damage", "feat", "defence", "check"] as const;
export type TurnRollKind = (typeof TURN_ROLL_KINDS)[number];

/** Why a turn's shift applies (a localisation key each: CASE.TurnShift.<reason>). */
export const TURN_SHIFT_REASONS = ["extraActionFailed", "separateActions", "flurryDamage", "changedAction", "partialHold", "fullHold", "declaredDodge", "fullMove"] as const;
export type TurnShiftReason = (typeof TURN_SHIFT_REASONS)[number];

/** One shift the turn puts on a roll. */
export interface TurnShift {
  readonly cs: number;
  readonly reason: TurnShiftReason;
}

/** What the roll is, beyond its kind. */
export interface TurnShiftOptions {
  /** The roll is a charge's to-hit (no full-move penalty). */
  readonly charge?: boolean;
  /**
   * Include the hold's shift (default true). The Foundry side reads holds from the character's
   * conditions for every roll, in a combat or not, so it asks without them here.
   */
  readonly holds?: boolean;
}

/**
 * [RULING] The turn's action shifts (extra actions, change of action, declared dodge, full
 * move) are on ACTIONs the combatant takes: its to-hit rolls and its FEATs. A defence is not
 * one of its actions (Table 22 counts defences apart), nor is a Slam?/Stun?/Kill? check (the
 * attack forces it); a hold's shift is on "all actions of the held", defences included, as
 * the card already read it.
 */
export const TURN_SHIFT_ROLLS: Readonly<Record<TurnShiftReason, readonly TurnRollKind[]>> = Object.freeze({
  extraActionFailed: ["toHit", "feat"],
  separateActions: ["toHit", "feat"],
  flurryDamage: ["damage"],
  changedAction: ["toHit", "feat"],
  partialHold: ["toHit", "feat", "defence"],
  fullHold: ["toHit", "feat", "defence"],
  declaredDodge: ["toHit", "feat"],
  fullMove: ["toHit", "feat"],
});

/**
 * [RULING] A combatant whose declaration's pick is a move moves its full speed this turn: its
 * action (an attack declared with the move, or a FEAT) is at the full-move penalty
 * (`fullMovePenalty`: −1 CS, none for a charge) [001].
 */
export const DECLARED_MOVE_IS_FULL_MOVE = true as boolean;

function assertKind(kind: TurnRollKind): void {
  if (!(TURN_ROLL_KINDS as readonly unknown[]).includes(kind)) throw new RulesRangeError("notOneOf", { field: "turnRollKind", allowed: TURN_ROLL_KINDS.join(", "), got: show(kind) });
}

/**
 * The turn's shifts on a roll of `kind` by combatant `c` now, each with its reason, in a fixed
 * order (extra actions, change of action, hold, declared dodge, full move; flurry for damage).
 * Zero shifts are left out. RangeError for an unknown kind.
 */
export function turnShifts(c: CombatantTurn, kind: TurnRollKind, options: TurnShiftOptions = {}): TurnShift[] {
  assertKind(kind);
  const out: TurnShift[] = [];
  const add = (reason: TurnShiftReason, cs: number): void => {
    if (cs !== 0 && TURN_SHIFT_ROLLS[reason].includes(kind)) out.push({ cs, reason });
  };
  if (c.actionCs !== 0) add(c.extra?.success === false || c.actionCs === EXTRA_ACTION_FAIL_CS ? "extraActionFailed" : "separateActions", c.actionCs);
  add("changedAction", c.nextActionCs);
  if (options.holds !== false && c.hold !== "none") add(c.hold, heldActionCs(c.hold));
  if (c.dodge !== null) add("declaredDodge", DECLARED_DODGE_OTHER_ACTION_CS);
  if (DECLARED_MOVE_IS_FULL_MOVE && c.declaration?.kind === "move") add("fullMove", fullMovePenalty(options.charge === true));
  add("flurryDamage", c.damageCs);
  return out;
}

/** The sum of some shifts. */
export function turnShiftTotal(shifts: readonly TurnShift[]): number {
  return shifts.reduce((sum, s) => sum + s.cs, 0);
}

/**
 * The shift on the combatant's next action as the tracker shows it: the to-hit shifts with
 * holds (the extra-action outcome, a changed action's −1 CS, a hold, the declared dodge, a
 * declared full move).
 */
export function actionShift(c: CombatantTurn): number {
  return turnShiftTotal(turnShifts(c, "toHit"));
}
