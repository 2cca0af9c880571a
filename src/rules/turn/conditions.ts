import { RulesRangeError, RulesTypeError } from "../errors";
import { type HoldState, holdEffects } from "../attacks";
import type { AidTargetState } from "../first-aid";
import { stunAppliesThisTurn } from "../consequences";
import { type DefenceCode, assertDefenceCode, defenceTakesAction } from "../defences";
import { DECLARATION_TEXT_MAX } from "./declaration";
import { ACTING_PHASES, TurnError, assertBoolean, assertCount, phasesWhere, show } from "./phases";
import { combatantCopy } from "./copy";
import { type CombatantStats, type CombatantTurn, STUN_TIMING_FOR_LONG_STUNS, type TurnChange, type TurnState, actionsLeft, combatantOf, createCombatantTurn, hasActed, nextDefencePenalty } from "./state";
import { Draft, NO_CHANGE, changeOf, assertPhase, resettleIfCurrent } from "./change";

// ── Things that happen to a combatant mid-turn ────────────────────────────────────────────────
/**
 * A stun lands (§8): `turns` from the Stun? result (1, or the d10 of a white result). If the
 * combatant has not acted this turn it is out from now (its actions this turn are lost);
 * otherwise from next turn [001; {@link STUN_TIMING_FOR_LONG_STUNS}]. A longer stun replaces a
 * shorter one; stuns do not add up [RULING].
 */
export function applyStun(state: TurnState, id: string, turns: number): TurnChange {
  const c = combatantOf(state, id);
  assertCount(turns, "turnStunTurns", 1);
  const acted = state.combat.phase === "wrapUp" || hasActed(c);
  const appliesNow = turns === 1 || STUN_TIMING_FOR_LONG_STUNS ? stunAppliesThisTurn(acted) : true;
  const draft = new Draft(state);
  if (appliesNow) {
    if (c.stunTurns >= turns) return NO_CHANGE;
    draft.put(c, { stunTurns: turns });
  } else {
    if (c.stunPending >= turns) return NO_CHANGE;
    draft.put(c, { stunPending: turns });
  }
  resettleIfCurrent(draft, id);
  return draft.change();
}

/**
 * Puts a combatant's stun back as it was before a stun that is being undone (the attack card's
 * Undo): `turns` and `pending` as they stood then. Nothing changes when they already are.
 */
export function restoreStun(state: TurnState, id: string, turns: number, pending: number): TurnChange {
  const c = combatantOf(state, id);
  assertCount(turns, "turnStunTurns", 0);
  assertCount(pending, "turnPendingStun", 0);
  if (c.stunTurns === turns && c.stunPending === pending) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { stunTurns: turns, stunPending: pending });
  resettleIfCurrent(draft, id);
  return draft.change();
}

/** A Kill result took an Endurance rank (§8): the combatant is dying and loses another each wrap-up until aided. */
export function markDying(state: TurnState, id: string): TurnChange {
  const c = combatantOf(state, id);
  if (c.dead) throw new TurnError("cannotAct", "turnDead", { id });
  if (c.dying && !c.aided) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { dying: true, aided: false, dyingFresh: true });
  resettleIfCurrent(draft, id);
  return draft.change();
}

/** Someone aided (or, `false`, did not aid after all) a dying combatant this turn: no Endurance loss at wrap-up (§8). */
export function setAided(state: TurnState, id: string, aided: boolean): TurnChange {
  const c = combatantOf(state, id);
  assertBoolean(aided, "turnAided");
  if (!c.dying) throw new TurnError("cannotAct", "turnNotDying", { id });
  if (c.aided === aided) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { aided });
  return draft.change();
}

/** A combatant as first aid sees it (first-aid.ts `mayAid`): stunned while its stun runs or waits to begin. */
export function aidTargetOf(c: CombatantTurn): AidTargetState {
  return { dying: c.dying, stunned: c.stunTurns > 0 || c.stunPending > 0, dead: c.dead };
}

/**
 * True when a character's first aid could do something for `c` (§8, [001]): dying and not yet
 * Aided (aid of every kind stops the loss), or stunned (first aid may revive it); never once dead.
 */
export function needsAid(c: CombatantTurn): boolean {
  const t = aidTargetOf(c);
  return !t.dead && ((t.dying && !c.aided) || t.stunned);
}

/** First aid revived a stunned combatant (§8, [001] "may be revived by someone with the first aid talent"): the stun ends now. */
export function reviveStun(state: TurnState, id: string): TurnChange {
  const c = combatantOf(state, id);
  if (c.stunTurns === 0 && c.stunPending === 0) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { stunTurns: 0, stunPending: 0 });
  resettleIfCurrent(draft, id);
  return draft.change();
}

/** Puts a combatant in (or out of) a hold (§5); it persists from turn to turn. */
export function setHold(state: TurnState, id: string, hold: HoldState): TurnChange {
  const c = combatantOf(state, id);
  holdEffects(hold);
  if (c.hold === hold) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { hold });
  return draft.change();
}

/** A recorded defence, with the change. */
export interface DefenceRecord {
  readonly change: TurnChange;
  /**
   * The shift for this defence from the defence count (Table 22): 0 within the free defences,
   * then −2 CS cumulative. 0 for a defence that takes the defender's action instead.
   */
  readonly penalty: number;
  /** True when the defence took the defender's action (Evasion, Feint, Catch). */
  readonly tookAction: boolean;
}

/**
 * Records a defence the combatant uses against an attack (§6, Table 22), in resolve or the
 * extra rounds. Evasion, Feint and Catch take an action (TurnError when none is left); the
 * others count against the free defences and return their penalty. Without `defence`, a
 * counted defence.
 */
export function recordDefence(state: TurnState, id: string, defence?: DefenceCode): DefenceRecord {
  const c = combatantOf(state, id);
  assertPhase(state, ACTING_PHASES);
  if (defence !== undefined) assertDefenceCode(defence);
  const takes = defence !== undefined && defenceTakesAction(defence);
  const draft = new Draft(state);
  if (takes) {
    if (actionsLeft(c) === 0) throw new TurnError("cannotAct", "turnNoActionForDefence", { id, defence });
    draft.edit(c).actionsUsed = c.actionsUsed + 1;
    resettleIfCurrent(draft, id);
    return { change: draft.change(), penalty: 0, tookAction: true };
  }
  const penalty = nextDefencePenalty(c);
  const next = combatantCopy(c);
  next.defencesUsed = c.defencesUsed + 1;
  return { change: changeOf(next), penalty, tookAction: false };
}

/**
 * [RULING] An undone attack gives back the defence its target counted against it (the attack
 * card's Undo voids the row), only in the combat turn that counted it: a Dodge, Block … is
 * taken off the defence count (so later defences lose the extra −2 CS it caused), and
 * Evasion, Feint and Catch give back the action they took, while the turn is still in Resolve
 * or its extra rounds (its actions still count). A defence counted in an earlier turn is not
 * given back: that turn's counts and actions are over. A turn not yet reached, or a count
 * that has nothing to take back, is refused.
 */
export const UNDONE_DEFENCE_GIVEN_BACK: boolean = true;

/**
 * Forgets one defence the combatant counted ({@link recordDefence}) in turn `countedIn` (the
 * combat's turn number then), as {@link UNDONE_DEFENCE_GIVEN_BACK} says; NO_CHANGE when there
 * is nothing to give back. The caller keys it (the counted defence's key), so a retry forgets
 * nothing twice.
 */
export function forgetDefence(state: TurnState, id: string, defence: DefenceCode, countedIn: number): TurnChange {
  const c = combatantOf(state, id);
  assertDefenceCode(defence);
  assertCount(countedIn, "turnDefenceCountedIn", 1);
  if (countedIn > state.combat.number) throw new TurnError("stale", "turnDefenceCountedLater", { id, counted: countedIn, turn: state.combat.number });
  if (!UNDONE_DEFENCE_GIVEN_BACK || countedIn < state.combat.number) return NO_CHANGE;
  if (defenceTakesAction(defence)) {
    if (!(ACTING_PHASES as readonly string[]).includes(state.combat.phase)) return NO_CHANGE;
    if (c.actionsUsed === 0) throw new TurnError("stale", "turnNoActionToGiveBack", { id, defence });
    const draft = new Draft(state);
    draft.edit(c).actionsUsed = c.actionsUsed - 1;
    resettleIfCurrent(draft, id);
    return draft.change();
  }
  if (c.defencesUsed === 0) throw new TurnError("stale", "turnNoDefenceToGiveBack", { id });
  const next = combatantCopy(c);
  next.defencesUsed = c.defencesUsed - 1;
  return changeOf(next);
}

/**
 * Why {@link recordDefence} would refuse this defence now, or null when it would count it (or,
 * outside the acting phases with attacks not bound to the turn, roll it uncounted): asked before
 * a die is rolled, so a defence the turn can no longer take (the phase moved on out of Resolve
 * and the extra rounds, or Evasion/Feint/Catch with no action left) is refused with nothing
 * rolled, never rolled and then refused. When attacks are not part of the turn (the world's
 * `attacksInTurn` off), an attack may come in every phase, and its target defends as outside a
 * combat: rolled, not counted.
 */
export function defenceRefusal(state: TurnState, id: string, defence: DefenceCode, options: { readonly attacksInTurn: boolean } = { attacksInTurn: true }): "wrongPhase" | "noAction" | null {
  if (!(ACTING_PHASES as readonly string[]).includes(state.combat.phase)) return options.attacksInTurn ? "wrongPhase" : null;
  const c = combatantOf(state, id);
  return defenceTakesAction(defence) && actionsLeft(c) === 0 ? "noAction" : null;
}

/** Notes a Judge's event at wrap-up (bombs go off, floors collapse …) [001 Step 6]. */
export function noteEvent(state: TurnState, text: string): TurnChange {
  assertPhase(state, phasesWhere("notingEvents"));
  if (typeof text !== "string") throw new RulesTypeError("turnEventNotText", { got: show(text) });
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.length > DECLARATION_TEXT_MAX) throw new RulesRangeError("turnEventLength", { max: DECLARATION_TEXT_MAX });
  const draft = new Draft(state);
  draft.setCombat({ events: Object.freeze([...state.combat.events, trimmed]) });
  return draft.change();
}

/** Changes a combatant's stats or team or defeated flag (the character changed). In every phase. */
export function refreshCombatant(state: TurnState, id: string, fields: { stats?: CombatantStats; team?: string | null; defeated?: boolean }): TurnChange {
  const c = combatantOf(state, id);
  const next = createCombatantTurn(id, fields.stats ?? c.stats, { team: fields.team === undefined ? c.team : fields.team, defeated: fields.defeated ?? c.defeated });
  const draft = new Draft(state);
  draft.put(c, { stats: next.stats, team: next.team, defeated: next.defeated });
  resettleIfCurrent(draft, id);
  return draft.change();
}
