/**
 * What the attack exchange needs from the CASE turn: how many defences a combatant has used
 * this turn, recording one more, whether it has acted (for when a stun starts), and recording
 * a stun. Without a running combat: no defences counted across attacks (each card's defence
 * is the first), "not yet acted", and the stun lives only on the actor's condition.
 * The turn's implementation is `turnCombatBridge` (./foundry-host.ts); the root (../register.ts)
 * hands it to the request router, whose card handlers find it in their context. The writers
 * take the request's lock scope: they check it holds what they write and take no lock.
 */
import type { CombatantTurn, Declaration, DefenceCode, TurnState } from "../../rules/index";
import type { WriteScope } from "./turn-host";

/** A character's part of a running turn, as the GM's client reads it from the combat. */
export interface TurnStanding {
  readonly combatId: string;
  readonly combatantId: string;
  readonly state: TurnState;
  readonly combatant: CombatantTurn;
}

export interface CombatBridge {
  defencesUsed(actor: Actor.Implementation): Promise<number>;
  /**
   * Records a defence this turn; Evasion, Feint and Catch take the defender's action. A `key`
   * (the card's step) makes it count once however often the step is retried.
   */
  recordDefence(scope: WriteScope, actor: Actor.Implementation, defence?: DefenceCode, key?: string): Promise<void>;
  /**
   * Gives back the defence counted under `key` in turn `countedIn` (rules `forgetDefence`: the
   * attack card's Undo). A key no longer counted (forgotten already, another combat) gives
   * nothing back, so a retry forgets nothing twice.
   */
  forgetDefence(scope: WriteScope, actor: Actor.Implementation, defence: DefenceCode, key: string, countedIn: number): Promise<void>;
  /**
   * Why the turn could not count this defence now (rules `defenceRefusal`: the phase moved on
   * out of Resolve and the extra rounds, or no action left for Evasion, Feint or Catch), or
   * null. Asked under the request's locks before a die is rolled.
   */
  defenceRefusal(actor: Actor.Implementation, defence: DefenceCode): Promise<"wrongPhase" | "noAction" | null>;
  /** The shift of a dodge declared and rolled this turn (optional rule), or 0. */
  declaredDodgeShift(actor: Actor.Implementation): Promise<number>;
  hasActed(actor: Actor.Implementation): Promise<boolean>;
  recordStun(scope: WriteScope, actor: Actor.Implementation, turns: number, startsNextTurn: boolean): Promise<void>;
  /** The character's stun in the turn (turns now, turns pending), or null outside a combat. */
  stunOf(actor: Actor.Implementation): Promise<{ readonly turns: number; readonly pending: number } | null>;
  /** Puts the character's stun back as `stunOf` read it before a stun that is undone (idempotent). */
  restoreStun(scope: WriteScope, actor: Actor.Implementation, before: { readonly turns: number; readonly pending: number }): Promise<void>;
  /** The combat turn (round) the character is in, or null outside a started combat. */
  turn(actor: Actor.Implementation): Promise<number | null>;
  /**
   * The character's declaration this turn, secret ones included (the GM's record), or null
   * outside a started combat or without one (read for an NPC's declared defence).
   */
  declaration?(actor: Actor.Implementation): Promise<Declaration | null>;
  /** The character's part of the running turn, read from the combat (never from a request), or null outside a started combat. */
  standing(actor: Actor.Implementation): Promise<TurnStanding | null>;
  /**
   * Spends the combatant's action `actionIndex` (an attack that was its action): the turn moves
   * on as after Done. A replay (the action already spent) changes nothing.
   */
  spendAction(scope: WriteScope, combatId: string, combatantId: string, actionIndex: number): Promise<void>;
  /** Marks the character's combatant defeated (or not) in the combats it is in (idempotent). */
  markDefeated(scope: WriteScope, actor: Actor.Implementation, defeated: boolean): Promise<void>;
  /**
   * The locks a card request declares for the turn of this character: `combat:<id>` of every
   * started combat it is in (the writers above check the request holds them; none takes one).
   */
  combatLocks(actor: Actor.Implementation): readonly string[];
}

/** The bridge without a running combat (tests and worlds without the turn use it). */
export const NO_COMBAT: CombatBridge = Object.freeze({
  defencesUsed: () => Promise.resolve(0),
  recordDefence: () => Promise.resolve(),
  forgetDefence: () => Promise.resolve(),
  defenceRefusal: () => Promise.resolve(null),
  declaredDodgeShift: () => Promise.resolve(0),
  hasActed: () => Promise.resolve(false),
  recordStun: () => Promise.resolve(),
  stunOf: () => Promise.resolve(null),
  restoreStun: () => Promise.resolve(),
  turn: () => Promise.resolve(null),
  markDefeated: () => Promise.resolve(),
  declaration: () => Promise.resolve(null),
  standing: () => Promise.resolve(null),
  spendAction: () => Promise.resolve(),
  combatLocks: () => [],
});
