/**
 * The attack exchange (CASE-RULES §5–§8) as a pure state machine. Its state is plain JSON,
 * so a chat message can store it and re-render it after a reload.
 *
 *   declared ─▶ per target: awaitingDefence ─(defence rolled | no defence)─▶ awaitingToHit
 *            ─(to-hit rolled)─▶ resolved ─(pull?)─(damage applied)─▶ applied
 *            ─(Slam? / Stun? / Kill? rolled)─▶ done
 *
 * Timing [RULING, {@link TO_HIT_AFTER_DEFENCE}]: each target's to-hit roll is made after that
 * target's defence is settled, so a defender never chooses knowing the attack roll, and a
 * Dodge or Weave shift is read on the same roll it changes. A blindsided target (§5) gets no
 * defence and goes straight to the to-hit roll. An Evasion, Feint or Catch that avoids the
 * attack ends the target's exchange without a to-hit roll.
 *
 * Every transition checks the phase it starts from and throws an {@link ExchangeError} of kind
 * "stale" when it has already happened, so a double click, a replayed request or a second GM
 * changes nothing; "invalid" is for input no click could make.
 *
 * The files: state.ts (the exchange's shapes, making one, reading a row); the steps, in the
 * order a row takes them: defend-and-hit.ts (the defence, the to-hit, a pulled blow),
 * apply-damage.ts (apply, undo, damage to others, a Slam's move), checks-and-escapes.ts (the
 * Slam?/Stun?/Kill? checks, escapes from a hold); target-actions.ts (what may happen next:
 * targetActions, completion, the attacker's row); secrets.ts (what players may not see),
 * copy.ts (copying a state field by field, fast), npc-defence.ts (the NPCs' automatic defence),
 * defence-colours.ts (what each colour of a defence does on a row: the defence buttons' words).
 */

export { type AppliedRecord, type ConsequenceOutcome, type ConsequenceRecord, type CsReason, DEFENCE_SCORE, type DamageRecord, type DefenceChoice, type DefenceOutcome, EXCHANGE_VERSION, type EscapeRecord, type ExchangeAttacker, ExchangeError, type ExchangeErrorKind, type ExchangeInput, type ExchangeState, type ExchangeTarget, type OtherDamage, KARMA_APPLIES_TO_EACH_TARGET, TARGET_SCORE_KEYS, TO_HIT_AFTER_DEFENCE, type TargetDefence, type TargetInput, type TargetPhase, type TargetScores, type ToHitRecord, createExchange, defenceOptions, defenceOutcome, targetOf } from "./state";
export { type DefenceRoll, PULL_IS_FINAL, type PullChoice, type ToHitRoll, applyDeclaredDodge, chooseDefence, declineDefence, needsStrengthDie, pullBlow, rollToHit } from "./defend-and-hit";
export { type DamageApplication, type OthersDamageApplication, UNDO_TAKES_BACK_CHECKS, UNDO_VOIDS_THE_ROW, type UndoPlan, applyDamage, applyDamageToOthers, mayUndo, recordSlamMove, undoDamage, undoPlan } from "./apply-damage";
export { type ConsequenceRoll, MAX_ESCAPE_ATTEMPTS, escapeHold, holdStands, mayEscape, resolveConsequence } from "./checks-and-escapes";
export { type TargetActions, ZERO_DAMAGE_NEEDS_NO_APPLY, exchangeAttackRow, exchangeComplete, targetActions } from "./target-actions";
export * from "./secrets";
export * from "./npc-defence";
export * from "./defence-colours";
export * from "./resist";
export * from "./death";
