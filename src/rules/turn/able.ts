/**
 * Who may act and who may defend, and whether an attack is the attacker's action now.
 *
 * Seed rules, Stun: a stunned character "cannot do anything other than twitch or convulse";
 * an Unconscious character (the condition, or 0 Health under the recovery ruling) does
 * nothing; a dying character lies helpless until aided ({@link DYING_CHARACTERS_ACT}). The
 * helpless take no action and make no defence: an attack on them is met with No defence, and
 * they do not Escape a hold. In a running combat the turn is the truth for a stun's timing
 * (a stun that lands after the character acted starts next turn); outside one, the condition.
 */
import { UNCONSCIOUS_AT_ZERO_HEALTH, unconsciousAt } from "../recovery";
import { isActingPhase } from "./phases";
import { type CombatantTurn, DYING_CHARACTERS_ACT, type HelplessReason, type TurnState, actionsLeft, currentCombatantId, turnHelplessReason } from "./state";

/** A character's standing as its document says, in a combat or not. */
export interface CharacterStanding {
  /** Current Health, or null when unknown. */
  readonly health: number | null;
  readonly stunned: boolean;
  readonly unconscious: boolean;
  readonly dying: boolean;
  /** Dying and aided: the loss stopped. */
  readonly aided: boolean;
}

/** The rulings the standing follows (recovery.ts: Unconscious at 0 Health). */
export interface StandingRulings {
  readonly unconsciousAtZeroHealth: boolean;
}

/**
 * Why the character can neither act nor defend now, or null when it can: from the character's
 * Health and conditions, and, in a running combat, its part of the turn (`turn`, null outside
 * one), which then decides a stun's timing.
 */
export function helplessReason(character: CharacterStanding | null, turn: CombatantTurn | null, rulings: StandingRulings = { unconsciousAtZeroHealth: UNCONSCIOUS_AT_ZERO_HEALTH }): HelplessReason | null {
  if (turn !== null) {
    const fromTurn = turnHelplessReason(turn);
    if (fromTurn !== null) return fromTurn;
  }
  if (character === null) return null;
  if (character.unconscious || (character.health !== null && unconsciousAt(character.health, rulings))) return "unconscious";
  if (turn === null && character.stunned) return "stunned";
  if (!DYING_CHARACTERS_ACT && character.dying && !character.aided) return "dying";
  return null;
}

/** True when the character may make a defence now (not helpless); the attack decides which. */
export function mayDefendNow(character: CharacterStanding | null, turn: CombatantTurn | null, rulings?: StandingRulings): boolean {
  return helplessReason(character, turn, rulings) === null;
}

/** Whether an attack by a combatant is its action now. */
export type AttackTurnVerdict =
  /** Not a combatant of this turn: nothing to spend. */
  | { readonly kind: "free" }
  /** Its action in resolve or an extra round: the attack takes action number `actionIndex` (its actions used). */
  | { readonly kind: "inTurn"; readonly actionIndex: number }
  /** Not its action: outside resolve and the extra rounds, another's action, or none left. */
  | { readonly kind: "outOfTurn"; readonly reason: "notActing" | "notYourTurn" | "noActionLeft" };

/**
 * Whether an attack by combatant `id` is part of the turn [001 Steps 4–5]: in resolve or an
 * extra round, on its own action (it is the one acting), the attack is that action; anything
 * else is out of turn. A character not in this combat attacks freely.
 */
export function attackInTurn(state: TurnState, id: string): AttackTurnVerdict {
  const c = state.combatants.get(id);
  if (c === undefined) return { kind: "free" };
  if (!isActingPhase(state.combat.phase)) return { kind: "outOfTurn", reason: "notActing" };
  if (currentCombatantId(state) !== id) return { kind: "outOfTurn", reason: actionsLeft(c) === 0 ? "noActionLeft" : "notYourTurn" };
  return { kind: "inTurn", actionIndex: c.actionsUsed };
}
