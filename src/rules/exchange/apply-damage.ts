/**
 * The attack exchange's damage steps for a target row: applying the damage (to the target, or to
 * others picked on the board), undoing it as planned, and a Slam's move recorded on the row.
 */
import { killCheckDue } from "../consequences";
import { applyDamageToHealth, clampHealth } from "../damage";
import type { DefenceCode } from "../defences";
import { copyRow, replaceTarget } from "./copy";
import type { SlamMove } from "../board";
import { minorFoeAfterDamage, type MinorFoeRule } from "../minor-foes";
import { isRankNumber } from "../ranks";
import { ExchangeError, expectPhase, invalid, targetOf, type AppliedRecord, type ExchangeState, type OtherDamage, type ExchangeTarget } from "./state";
import { holdStands } from "./checks-and-escapes";

export interface DamageApplication {
  readonly state: ExchangeState;
  readonly health: number;
  /** The charger's Health to write, when a charge's rebound was applied or undone; else null. */
  readonly chargerHealth: number | null;
}

/**
 * Applies the damage to the target's current Health (resolved → applied). Health never goes
 * below 0 or above max; reaching 0 (or taking damage at 0) adds a Kill? check (§8). A minor
 * foe (`minorFoe`: the world's rule, null for anyone else) may instead be taken out of the
 * fight, with no check to roll (rules/minor-foes.ts `minorFoeAfterDamage`).
 */
export function applyDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  /** The charger's Health: on a charge, the target's armor rebounds onto it (§5). */
  chargerHealth?: { value: number; max: number },
  minorFoe: MinorFoeRule | null = null,
): DamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "resolved");
  if (!isRankNumber(health.value) || !isRankNumber(health.max)) invalid("exchangeHealthBad", { name: target.name, value: String(health.value), max: String(health.max) });
  const reboundDamage = target.damage?.rebound ?? 0;
  let rebound: { before: number; after: number } | null = null;
  if (reboundDamage > 0 && chargerHealth) {
    if (!isRankNumber(chargerHealth.value) || !isRankNumber(chargerHealth.max)) invalid("exchangeChargerHealthBad");
    rebound = { before: chargerHealth.value, after: applyDamageToHealth(clampHealth(chargerHealth.value, chargerHealth.max), chargerHealth.max, reboundDamage).health };
  }
  const dealt = target.damage?.dealt ?? 0;
  // Health above its maximum (the maximum fell, e.g. with a lost Endurance rank) counts as the
  // maximum: Health never ends above max. Undo still gives back the value that was there.
  const current = clampHealth(health.value, health.max);
  const after = applyDamageToHealth(current, health.max, dealt);
  let consequences = [...target.consequences];
  if (killCheckDue(current, dealt) && !consequences.some((c) => c.check === "kill")) {
    consequences.push({ check: "kill", cause: "health", die: null, color: null, outcome: null });
  }
  let out = false;
  if (minorFoe !== null && minorFoe !== "normal") {
    // The minor-foe rule replaces the checks: out of the fight, or nothing more.
    out = minorFoeAfterDamage(target.toHit?.result ?? "hit", dealt, after.health, minorFoe).out;
    consequences = [];
  }
  const record: AppliedRecord = { healthBefore: health.value, healthAfter: after.health, max: health.max, reachedZero: after.reachedZero, rebound };
  // Only a minor foe taken out is spread in: a spread after other fields is V8's slow copy.
  const applied = out ? { ...record, out } : record;
  const row = copyRow(target);
  row.phase = "applied";
  row.applied = applied;
  row.consequences = consequences;
  return { state: replaceTarget(state, row), health: after.health, chargerHealth: rebound ? rebound.after : null };
}

/**
 * [RULING] Undo takes back a row's whole hit from its Apply on, after its Slam?/Stun?/Kill?
 * checks too: Health, the charger's rebound, a minor foe's "out", and every rolled check's
 * effects (Stunned with its turns, Slammed and the token's move, Dying, the Endurance rank and
 * death). Damage put on other tokens instead is not undone from the card (applyDamageToOthers).
 */
export const UNDO_TAKES_BACK_CHECKS: boolean = true;

/**
 * [RULING] Undo voids the row: besides what {@link UNDO_TAKES_BACK_CHECKS} takes back, the hold
 * its to-hit put on the target goes and the defence the row counted is given back (rules
 * turn/conditions.ts `forgetDefence`). The row ends "undone", a terminal phase: nothing more
 * may happen on it (no Apply, no checks, no Escape). To hit again, attack again.
 */
export const UNDO_VOIDS_THE_ROW: boolean = true;

/** Whether a row may be undone now ({@link UNDO_TAKES_BACK_CHECKS}): its damage was applied to it, not to others. */
export function mayUndo(target: ExchangeTarget): boolean {
  return target.phase === "applied" && target.applied !== null && !target.applied.others && (UNDO_TAKES_BACK_CHECKS || target.consequences.every((c) => c.outcome === null));
}

/** What undoing a row takes back besides Health: each rolled check's lasting effects, a minor foe's "out", the hold and the defence. */
export interface UndoPlan {
  readonly out: boolean;
  /** A stun that landed (turns > 0 or until revived), to take off the target and its turn. */
  readonly stun: boolean;
  /** A slam that threw the target (Slammed), and the move of its token, if it moved. */
  readonly slam: { readonly moved: SlamMove | null } | null;
  /** A Kill? that cost an Endurance rank (Dying), and whether it killed. */
  readonly kill: { readonly dead: boolean } | null;
  /** The hold the row's to-hit put on the target (and no escape freed), to clear ({@link UNDO_VOIDS_THE_ROW}). */
  readonly hold: "partialHold" | "fullHold" | null;
  /** The defence the row rolled, whose count in the turn is given back ({@link UNDO_VOIDS_THE_ROW}); null for none. */
  readonly defence: DefenceCode | null;
}

/** What undoing row `key` must take back ({@link UndoPlan}); "stale" when it may not be undone. */
export function undoPlan(state: ExchangeState, key: string): UndoPlan {
  const target = targetOf(state, key);
  if (!mayUndo(target)) throw new ExchangeError("stale", "exchangeNoDamageToUndo", { name: target.name });
  let stun = false;
  let slam: UndoPlan["slam"] = null;
  let kill: UndoPlan["kill"] = null;
  for (const c of target.consequences) {
    const o = c.outcome;
    if (o?.check === "stun" && o.result !== "none") stun = true;
    if (o?.check === "slam" && (o.result === "grandSlam" || o.result === "oneArea")) slam = { moved: c.moved ?? null };
    // A death bought off with Karma already gave its rank back (death.ts): Undo takes back no second one.
    if (o?.check === "kill" && o.result === "enduranceLoss" && o.karmaAgainstDeath === undefined) kill = { dead: o.dead };
  }
  const result = target.toHit?.result;
  const hold = UNDO_VOIDS_THE_ROW && holdStands(target) && (result === "partialHold" || result === "fullHold") ? result : null;
  const code = target.defence?.code;
  const defence = UNDO_VOIDS_THE_ROW && code !== undefined && code !== "none" ? code : null;
  return { out: target.applied?.out === true, stun, slam, kill, hold, defence };
}

/**
 * Undoes applied damage (applied → undone, {@link UNDO_VOIDS_THE_ROW}): gives back this card's
 * own change to the CURRENT Health, clamped to [0, max], so damage dealt since by others
 * stands. The charger's rebound likewise. After rolled checks too ({@link UNDO_TAKES_BACK_CHECKS}):
 * {@link undoPlan} says what of theirs (and the hold and the defence) to take back. The row
 * keeps its defence, to-hit and damage as a record; its checks go.
 */
export function undoDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  chargerHealth?: { value: number; max: number },
): DamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "applied");
  if (!mayUndo(target)) throw new ExchangeError("stale", "exchangeConsequenceRolled", { name: target.name });
  const applied = target.applied;
  if (!applied) invalid("exchangeNoDamageApplied", { name: target.name });
  if (!isRankNumber(health.value) || !isRankNumber(health.max)) invalid("exchangeHealthBad", { name: target.name, value: String(health.value), max: String(health.max) });
  const giveBack = (now: { value: number; max: number }, before: number, after: number): number => Math.min(now.max, Math.max(0, now.value + (before - after)));
  let chargerAfter: number | null = null;
  if (applied.rebound && chargerHealth) {
    if (!isRankNumber(chargerHealth.value) || !isRankNumber(chargerHealth.max)) invalid("exchangeChargerHealthBad");
    chargerAfter = giveBack(chargerHealth, applied.rebound.before, applied.rebound.after);
  }
  const row = copyRow(target);
  row.phase = "undone";
  row.applied = null;
  row.consequences = [];
  return { state: replaceTarget(state, row), health: giveBack(health, applied.healthBefore, applied.healthAfter), chargerHealth: chargerAfter };
}

/** The result of applying a row's damage to other characters: the state and each one's Health to write. */
export interface OthersDamageApplication {
  readonly state: ExchangeState;
  readonly health: readonly { readonly uuid: string; readonly health: number }[];
}

/**
 * Applies a row's damage to other characters instead of its target (resolved → applied): the
 * GM's "Apply to selected tokens", when the blow landed on someone else (a miss that struck a
 * bystander, the wrong token targeted). Each takes the damage that got through, as the target
 * would have, Health never below 0. [RULING] The row's Slam?/Stun?/Kill? checks are not offered
 * (they belonged to the target; the GM rolls for the others by hand), a charge's rebound is
 * not redirected (refused), and such a row cannot be undone from the card.
 */
export function applyDamageToOthers(state: ExchangeState, key: string, others: readonly { readonly uuid: string; readonly name: string; readonly value: number; readonly max: number }[]): OthersDamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "resolved");
  const dealt = target.damage?.dealt ?? 0;
  if (dealt <= 0) throw new ExchangeError("stale", "exchangeNoDamageThrough", { name: target.name });
  if ((target.damage?.rebound ?? 0) > 0) invalid("exchangeChargeOthers", { name: target.name });
  const given: unknown = others;
  if (!Array.isArray(given) || others.length === 0) invalid("exchangeSelectTokens");
  if (new Set(others.map((o) => o.uuid)).size !== others.length) invalid("exchangeTokenTwice");
  const list: OtherDamage[] = others.map((o) => {
    if (!isRankNumber(o.value) || !isRankNumber(o.max)) invalid("exchangeHealthBad", { name: o.name, value: String(o.value), max: String(o.max) });
    const after = applyDamageToHealth(clampHealth(o.value, o.max), o.max, dealt).health;
    return { uuid: o.uuid, name: o.name, before: o.value, after, max: o.max };
  });
  const applied: AppliedRecord = { healthBefore: 0, healthAfter: 0, max: 0, reachedZero: false, rebound: null, others: list };
  const row = copyRow(target);
  row.phase = "applied";
  row.applied = applied;
  row.consequences = [];
  return { state: replaceTarget(state, row), health: list.map((o) => ({ uuid: o.uuid, health: o.after })) };
}

/** Records where a rolled slam moved the row's token (once: a second record is stale). */
export function recordSlamMove(state: ExchangeState, key: string, moved: SlamMove): ExchangeState {
  const target = targetOf(state, key);
  const slam = target.consequences.find((c) => c.check === "slam");
  if (!slam?.outcome) invalid("exchangeNoSlam", { name: target.name });
  if (slam.moved) throw new ExchangeError("stale", "exchangeSlamMoved", { name: target.name });
  const row = copyRow(target);
  row.consequences = target.consequences.map((c) => (c === slam ? { ...c, moved } : c));
  return replaceTarget(state, row);
}
