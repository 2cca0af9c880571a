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
 * The files: state.ts (the exchange's shapes, making one, reading a row), transitions.ts (every
 * step, and what may happen next: targetActions, mayEscape), secrets.ts (what players may not
 * see), copy.ts (copying a state field by field, fast).
 */

export { type AppliedRecord, type ConsequenceOutcome, type ConsequenceRecord, type CsReason, DEFENCE_SCORE, type DamageRecord, type DefenceChoice, type DefenceOutcome, EXCHANGE_VERSION, type EscapeRecord, type ExchangeAttacker, ExchangeError, type ExchangeErrorKind, type ExchangeInput, type ExchangeState, type ExchangeTarget, type OtherDamage, KARMA_APPLIES_TO_EACH_TARGET, TARGET_SCORE_KEYS, TO_HIT_AFTER_DEFENCE, type TargetDefence, type TargetInput, type TargetPhase, type TargetScores, type ToHitRecord, createExchange, defenceOptions, defenceOutcome, targetOf } from "./state";
export { type ConsequenceRoll, type DamageApplication, type DefenceRoll, MAX_ESCAPE_ATTEMPTS, PULL_IS_FINAL, type PullChoice, type TargetActions, type ToHitRoll, type OthersDamageApplication, applyDamage, applyDamageToOthers, recordSlamMove, applyDeclaredDodge, chooseDefence, declineDefence, escapeHold, exchangeAttackRow, exchangeComplete, holdStands, mayEscape, pullBlow, resolveConsequence, rollToHit, targetActions, undoDamage, needsStrengthDie, UNDO_TAKES_BACK_CHECKS, UNDO_VOIDS_THE_ROW, mayUndo, undoPlan, type UndoPlan } from "./transitions";
export * from "./secrets";
export * from "./npc-defence";
export * from "./resist";
export * from "./death";
