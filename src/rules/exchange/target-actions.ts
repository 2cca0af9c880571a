/**
 * What may happen next on an attack card: each target row's actions for a user
 * ({@link targetActions}), whether the exchange is complete, and the attacker's summary row.
 */
import { resistancePending, resistedPowerOf } from "./resist";
import { ATTACKS, mayPullColor, mayPullDamage } from "../attacks";
import type { ConsequenceCheck } from "../consequences";
import type { DefenceCode } from "../defences";
import { defenceOptions, targetOf, type ExchangeState } from "./state";
import { PULL_IS_FINAL } from "./defend-and-hit";
import { mayUndo } from "./apply-damage";
import { mayEscape } from "./checks-and-escapes";

export interface TargetActions {
  /** The defences on offer (empty unless the row waits on its defence, and for a helpless target: No defence only). */
  readonly defend: readonly DefenceCode[];
  /** The row waits on its defence: No defence may be chosen (and the defences in `defend`). */
  readonly awaitingDefence: boolean;
  readonly rollToHit: boolean;
  readonly pull: boolean;
  readonly apply: boolean;
  readonly undo: boolean;
  /** Due Slam?/Stun?/Kill? checks not yet rolled (only once damage is applied). */
  readonly checks: readonly ConsequenceCheck[];
  readonly escape: boolean;
  /** Nothing more may happen to the row (resolved or applied; no apply, pull, check or escape left; Undo may stay): the card folds it. */
  readonly finished: boolean;
}

/**
 * [RULING] A hit that gets no damage through (and rebounds none onto a charger) needs no Apply:
 * its row is finished as it is resolved, with nothing to apply and so nothing to undo.
 */
export const ZERO_DAMAGE_NEEDS_NO_APPLY = true as boolean;

/**
 * What may happen next to the target row `key` (see {@link TargetActions}); `turn` as for
 * {@link mayEscape}. A target who cannot defend now (`target.mayDefend` false: helpless, rules
 * turn/able.ts) is offered No defence only and makes no Escape.
 */
export function targetActions(state: ExchangeState, key: string, turn: number | null = null, target: { readonly mayDefend: boolean } = { mayDefend: true }): TargetActions {
  const t = targetOf(state, key);
  // A pull lowers the blow: with no damage getting through there is nothing to pull.
  const pullable = t.phase === "resolved" && t.toHit !== null && t.damage !== null && t.damage.dealt > 0 && !(PULL_IS_FINAL && t.toHit.pulled) && (mayPullColor(state.attack) || mayPullDamage(state.attack));
  const apply = t.phase === "resolved" && t.damage !== null && (t.damage.dealt > 0 || t.damage.rebound > 0 || !ZERO_DAMAGE_NEEDS_NO_APPLY);
  const checks = t.phase === "applied" ? t.consequences.filter((c) => c.outcome === null).map((c) => c.check) : [];
  const escape = target.mayDefend && mayEscape(t, turn);
  const settled = t.phase === "applied" || (t.phase === "resolved" && t.consequences.every((c) => c.outcome !== null));
  return {
    // A resisted power is resisted, not defended (resist.ts).
    defend: t.phase === "awaitingDefence" && target.mayDefend && resistedPowerOf(state) === null ? defenceOptions(state, key) : [],
    awaitingDefence: t.phase === "awaitingDefence",
    rollToHit: t.phase === "awaitingToHit",
    pull: pullable,
    apply,
    undo: mayUndo(t),
    checks,
    escape,
    finished: settled && !apply && !pullable && !escape && checks.length === 0 && !resistancePending(t),
  };
}

/** True when nothing more can happen to a target. */
export function exchangeComplete(state: ExchangeState): boolean {
  return state.targets.every(
    (t) =>
      t.phase === "undone" ||
      (t.phase === "resolved" && (t.damage === null || t.damage.dealt === 0) && t.consequences.length === 0 && !resistancePending(t)) ||
      (t.phase === "applied" && t.consequences.every((c) => c.outcome !== null)),
  );
}

/** The attack's definition row, for display. */
export function exchangeAttackRow(state: ExchangeState) {
  return ATTACKS[state.attack];
}
