/**
 * What the attack exchange needs from the CASE turn: how many defences a combatant has used
 * this turn, recording one more, whether it has acted (for when a stun starts), and recording
 * a stun. Without a running combat: no defences counted across attacks (each card's defence
 * is the first), "not yet acted", and the stun lives only on the actor's condition.
 * The turn's implementation is `turnCombatBridge` (./foundry-host.ts); the root (../register.ts)
 * hands it to the request router, whose card handlers find it in their context.
 */
import type { DefenceCode } from "../../rules/index";

export interface CombatBridge {
  defencesUsed(actor: Actor.Implementation): Promise<number>;
  /**
   * Records a defence this turn; Evasion, Feint and Catch take the defender's action. A `key`
   * (the card's step) makes it count once however often the step is retried.
   */
  recordDefence(actor: Actor.Implementation, defence?: DefenceCode, key?: string): Promise<void>;
  /** The shift of a dodge declared and rolled this turn (optional rule), or 0. */
  declaredDodgeShift(actor: Actor.Implementation): Promise<number>;
  hasActed(actor: Actor.Implementation): Promise<boolean>;
  recordStun(actor: Actor.Implementation, turns: number, startsNextTurn: boolean): Promise<void>;
  /** The character's stun in the turn (turns now, turns pending), or null outside a combat. */
  stunOf(actor: Actor.Implementation): Promise<{ readonly turns: number; readonly pending: number } | null>;
  /** Puts the character's stun back as `stunOf` read it before a stun that is undone (idempotent). */
  restoreStun(actor: Actor.Implementation, before: { readonly turns: number; readonly pending: number }): Promise<void>;
  /** The combat turn (round) the character is in, or null outside a started combat. */
  turn(actor: Actor.Implementation): Promise<number | null>;
  /** Marks the character's combatant defeated (or not) in the combats it is in (idempotent). */
  markDefeated(actor: Actor.Implementation, defeated: boolean): Promise<void>;
}

/** The bridge without a running combat (tests and worlds without the turn use it). */
export const NO_COMBAT: CombatBridge = Object.freeze({
  defencesUsed: () => Promise.resolve(0),
  recordDefence: () => Promise.resolve(),
  declaredDodgeShift: () => Promise.resolve(0),
  hasActed: () => Promise.resolve(false),
  recordStun: () => Promise.resolve(),
  stunOf: () => Promise.resolve(null),
  restoreStun: () => Promise.resolve(),
  turn: () => Promise.resolve(null),
  markDefeated: () => Promise.resolve(),
});
