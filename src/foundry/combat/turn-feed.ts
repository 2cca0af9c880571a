/**
 * What the running CASE turn feeds an attack, a defence or a roll, on the GM's client: the
 * turn's shifts with their reasons (rules turn/shifts.ts), whether the character may act or
 * defend at all (rules turn/able.ts, from its Health, conditions and part of the turn), and
 * whether an attack is the attacker's action (the `attacksInTurn` world setting). The turn is
 * read from the combat through the bridge, never from a request's payload. Outside a running
 * combat nothing changes: no shifts, and only the character's own conditions stop it.
 */
import { TurnError, attackInTurn, helplessReason, turnShifts, type CsReason, type HelplessReason, type TurnRollKind, type TurnShift } from "../../rules/index";
import type { CombatBridge, TurnStanding } from "./bridge";
import { combatLock, type WriteScope } from "./turn-host";
import { LockScopeError } from "../requests/locks";
import { SYSTEM_ID } from "../core/constants";
import { QueryRefusal } from "../requests/router";
import { characterStanding, standingRulings } from "../status-effects";

/**
 * The turn's shifts as card lines (a localised reason each: CASE.TurnShift.<reason>). With
 * `secret` (an NPC's, on a card players read) each says only "its turn": the reasons would
 * give away what the Judge declared and rolled for it (extra actions, a change, a dodge).
 */
export function turnShiftLines(shifts: readonly TurnShift[], secret = false): CsReason[] {
  return shifts.map((s) => ({ cs: s.cs, label: secret ? TURN_SHIFT_SECRET : `CASE.TurnShift.${s.reason}`, localize: true }));
}

/** The reason an NPC's turn shift shows on a public card. */
export const TURN_SHIFT_SECRET = "CASE.TurnShift.secret";

/**
 * The turn's shifts on a roll of `kind` by the character of `standing` (none outside a running
 * combat). Holds are left out: every roll reads them from the character's conditions already
 * (dice/talents.ts rollShifts), in a combat or not.
 */
export function turnRollShifts(standing: TurnStanding | null, kind: TurnRollKind, charge = false, secret = false): CsReason[] {
  return standing ? turnShiftLines(turnShifts(standing.combatant, kind, { charge, holds: false }), secret) : [];
}

/** Why `actor` can neither act nor defend now, or null (its conditions and Health; in a running combat, its part of the turn). */
export function helplessNow(actor: Actor.Implementation, standing: TurnStanding | null): HelplessReason | null {
  return helplessReason(characterStanding(actor), standing?.combatant ?? null, standingRulings());
}

/** Refuses (nothing written) an attack or a FEAT by a character who cannot act now, saying why. */
export function refuseHelpless(actor: Actor.Implementation, standing: TurnStanding | null, what: "Attack" | "Feat"): void {
  const reason = helplessNow(actor, standing);
  if (reason !== null) throw new QueryRefusal("forbidden", game.i18n.format(`CASE.Helpless.${what}`, { name: actor.name, reason: game.i18n.localize(`CASE.Helpless.${reason}`) }));
}

/**
 * Spends the attacker's action an attack card records (rules turn/able.ts `attackInTurn`), once
 * the card is written; a replay finds it spent and changes nothing. A turn that moved on since
 * (the Judge advanced), or another failure to write the tracker (a combat lock the request does
 * not hold), keeps the card: the attack was made and its Karma and ammunition spent, so it is not
 * answered as a failure; only the tracker is not moved.
 */
export async function spendAttackAction(bridge: CombatBridge, scope: WriteScope, turnAction: AttackTurn["turnAction"] | undefined): Promise<void> {
  if (!turnAction) return;
  try {
    await bridge.spendAction(scope, turnAction.combatId, turnAction.combatantId, turnAction.actionIndex);
  } catch (error) {
    if (error instanceof TurnError) console.warn("case | The attack's action was not spent in the tracker", error);
    else console.error("case | The attack was made, but its action could not be spent in the tracker", error);
  }
}

/**
 * Refuses as stale (nothing written) an attack whose request does not hold the lock of the
 * combat it would spend its action in: a combat that started while the request waited (its locks
 * were declared before). The attacker attacks again, and that request declares it.
 */
export function refuseUndeclaredCombat(scope: WriteScope, turn: AttackTurn): void {
  if (!turn.turnAction) return;
  try {
    scope.require(combatLock(turn.turnAction.combatId));
  } catch (error) {
    if (error instanceof LockScopeError) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.CombatStarted"));
    throw error;
  }
}

/** The turn's part of an attack. */
export interface AttackTurn {
  readonly toHit: CsReason[];
  readonly damage: CsReason[];
  /** Made out of turn, where the world only flags it. */
  readonly outOfTurn: boolean;
  /** The attacker's action this attack is (spent once the card is written), or null. */
  readonly turnAction: { readonly combatId: string; readonly combatantId: string; readonly actionIndex: number } | null;
}

/**
 * The turn's part of an attack by `actor`: its to-hit and damage shifts, and the action it is.
 * Under `attacksInTurn` an attack on the attacker's action spends it, and one out of its action
 * is refused (nothing written); without it, flagged. Outside a running combat: nothing.
 */
export function attackTurn(actor: Actor.Implementation, standing: TurnStanding | null, charge: boolean): AttackTurn {
  const secret = actor.type === "npc";
  if (standing === null) return { toHit: [], damage: [], outOfTurn: false, turnAction: null };
  const verdict = attackInTurn(standing.state, standing.combatantId);
  const partOfTurn = game.settings.get(SYSTEM_ID, "attacksInTurn");
  if (partOfTurn && verdict.kind === "outOfTurn") throw new QueryRefusal("stale", game.i18n.format(`CASE.OutOfTurn.${verdict.reason}`, { name: actor.name }));
  return {
    toHit: turnRollShifts(standing, "toHit", charge, secret),
    damage: turnRollShifts(standing, "damage", false, secret),
    outOfTurn: verdict.kind === "outOfTurn",
    // With the setting off the tracker's Done spends actions, as before.
    turnAction: partOfTurn && verdict.kind === "inTurn" ? { combatId: standing.combatId, combatantId: standing.combatantId, actionIndex: verdict.actionIndex } : null,
  };
}
