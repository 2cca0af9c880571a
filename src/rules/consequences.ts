/**
 * Slam, Stun and Kill (CASE-RULES §8): the target's Endurance (res) roll after a hit that did
 * damage, and what follows — slam direction and distance, stun duration, Endurance loss.
 *
 * Sources: [001] CASE "Time and Combat", [RULING] our own decisions, each an exported constant.
 */
import { assertAttackCode, assertAttackResult, assertColor, type AttackCode, type AttackResult } from "./attacks";
import { assertRankNumber, rankAt, rankOf } from "./ranks";
import type { Color } from "./universal-table";
import { RulesRangeError, RulesTypeError, type RulesFieldKey } from "./errors";
import { assertBooleanValue, type FieldRef } from "./checks";

/** The checks a hit may call for [001]. */
export type ConsequenceCheck = "slam" | "stun" | "kill";

/** Slam? results [001]: thrown as by Strength = damage; slammed one area; staggered (acts normally); not slammed. */
export type SlamResult = "grandSlam" | "oneArea" | "stagger" | "none";

/** Stun? results [001]: out 1d10 turns; stunned one turn; not stunned. */
export type StunResult = "outLong" | "oneTurn" | "none";

/** Kill? results [001]: loses an Endurance rank (and more each turn unaided); fine. */
export type KillResult = "enduranceLoss" | "none";

function assertWhole(value: number, field: RulesFieldKey): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new RulesRangeError("notNonNegativeWhole", { field, got: String(value) });
  }
}

function assertBoolean(value: unknown, field: FieldRef): asserts value is boolean {
  assertBooleanValue(value, field);
}

/** Throws a RangeError unless `d10` is a whole number from 1 to 10. */
export function assertD10(d10: number): void {
  if (typeof d10 !== "number" || !Number.isInteger(d10) || d10 < 1 || d10 > 10) {
    throw new RulesRangeError("notWholeInRange", { field: "d10", min: 1, max: 10, got: String(d10) });
  }
}

/**
 * The check an attack result calls for, or null [001]: Slam, Stun and Kill results are only
 * checked when the attack did damage after protection ("may be ignored if no actual damage is
 * inflicted").
 */
export function consequenceCheck(attackResult: AttackResult, damageDealt: number): ConsequenceCheck | null {
  assertAttackResult(attackResult);
  assertWhole(damageDealt, "damageDealt");
  if (damageDealt === 0) return null;
  switch (attackResult) {
    case "slam":
    case "stun":
    case "kill":
      return attackResult;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Slam
// ---------------------------------------------------------------------------------------------

/** Slam? by the target's End (res) colour: white grand slam, green one area, yellow stagger, red none [001]. */
export function slamResult(color: Color): SlamResult {
  assertColor(color, "slamColour");
  switch (color) {
    case "white":
      return "grandSlam";
    case "green":
      return "oneArea";
    case "yellow":
      return "stagger";
    case "red":
      return "none";
  }
}

/** [001] A green Slam? result moves the target one area. */
export const SLAM_ONE_AREA_DISTANCE = 1;

/** Directions a slammed character can go [001]. */
export type SlamDirection = "down" | "left" | "right" | "back" | "up";

/** Slam direction by d10 [001]: 1–2 down, 3–4 left, 5–6 right, 7–8 back, 9–10 up. RangeError outside 1–10. */
export function slamDirection(d10: number): SlamDirection {
  assertD10(d10);
  const directions: readonly SlamDirection[] = ["down", "left", "right", "back", "up"];
  return directions[Math.floor((d10 - 1) / 2)] as SlamDirection;
}

/**
 * The Strength a grand-slammed character is "thrown" with: the damage dealt after body armor
 * and other defences, as a rank number [001]. Look its range up on Table 24.
 */
export function grandSlamStrength(damageDealt: number): number {
  assertRankNumber(damageDealt, "damageDealt");
  return damageDealt;
}

/**
 * Grand-slam distance [001]: Table 24's thrown range for Strength = damage dealt. The caller
 * passes the Table 24 lookup (abilities' `thrownRange`), so this module needs no table of its own.
 */
export function grandSlamDistance<R>(damageDealt: number, thrownRange: (strength: number) => R): R {
  if (typeof thrownRange !== "function") throw new RulesTypeError("needsFunction", { name: "thrownRange" });
  return thrownRange(grandSlamStrength(damageDealt));
}

/** How far a Slam? result moves the target: grand slam → Table 24 by damage; one area → 1; else 0 [001]. */
export function slamDistance<R>(result: SlamResult, damageDealt: number, thrownRange: (strength: number) => R): R | number {
  switch (result) {
    case "grandSlam":
      return grandSlamDistance(damageDealt, thrownRange);
    case "oneArea":
      assertRankNumber(damageDealt, "damageDealt");
      return SLAM_ONE_AREA_DISTANCE;
    case "stagger":
    case "none":
      assertRankNumber(damageDealt, "damageDealt");
      return 0;
    default: {
      const bad: unknown = result;
      throw new RulesRangeError("unknownValue", { field: "slamResult", got: String(bad) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stun
// ---------------------------------------------------------------------------------------------

/** Stun? by the target's End (res) colour: white out 1d10 turns, green one turn, yellow/red none [001]. */
export function stunResult(color: Color): StunResult {
  assertColor(color, "stunColour");
  switch (color) {
    case "white":
      return "outLong";
    case "green":
      return "oneTurn";
    case "yellow":
    case "red":
      return "none";
  }
}

/**
 * A one-turn stun applies to the current turn if the character has not yet acted, else to the
 * next [001].
 */
export function stunAppliesThisTurn(hasActed: boolean): boolean {
  assertBoolean(hasActed, { input: "hasActed" });
  return !hasActed;
}

/**
 * Turns a Stun? result keeps the character out [001]: outLong → the d10 roll (required; TypeError
 * without it, RangeError outside 1–10), oneTurn → 1, none → 0.
 */
export function stunTurns(result: StunResult, d10?: number): number {
  if (d10 !== undefined) assertD10(d10);
  switch (result) {
    case "outLong":
      if (d10 === undefined) throw new RulesTypeError("stunNeedsD10");
      return d10;
    case "oneTurn":
      return 1;
    case "none":
      return 0;
    default: {
      const bad: unknown = result;
      throw new RulesRangeError("unknownValue", { field: "stunResult", got: String(bad) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Kill
// ---------------------------------------------------------------------------------------------

/** [001] A green Kill? result still costs an Endurance rank when the damage came from these attacks. */
export const KILL_ON_GREEN_SOURCES: readonly AttackCode[] = Object.freeze(["EA", "Sh"] as const);

/**
 * Kill? by the target's End (res) colour and the attack that did the damage [001]: white →
 * Endurance loss; green → Endurance loss only from EA or Sh ({@link KILL_ON_GREEN_SOURCES});
 * yellow/red → fine.
 */
export function killResult(color: Color, attack: AttackCode): KillResult {
  assertColor(color, "killColour");
  assertAttackCode(attack);
  switch (color) {
    case "white":
      return "enduranceLoss";
    case "green":
      return KILL_ON_GREEN_SOURCES.includes(attack) ? "enduranceLoss" : "none";
    case "yellow":
    case "red":
      return "none";
  }
}

/** [001] A Kill? check is also made when Health reaches 0, and on damage taken while at 0. */
export const KILL_CHECK_ON_ZERO_HEALTH = true as boolean;

/** [001] Endurance ranks lost on a Kill result, and again each turn the victim lies unaided. */
export const KILL_ENDURANCE_RANK_LOSS = 1;

/**
 * True when damage calls for a Kill? check by Health alone [001]: Health (before) above 0 and
 * the damage (after protection) brings it to 0, or Health already 0 and damage > 0. Always false
 * when `enabled` ({@link KILL_CHECK_ON_ZERO_HEALTH} unless a setting passes its own) is off.
 */
export function killCheckDue(healthBefore: number, damageTaken: number, enabled: boolean = KILL_CHECK_ON_ZERO_HEALTH): boolean {
  assertWhole(healthBefore, "health");
  assertWhole(damageTaken, "damageTaken");
  assertBoolean(enabled, { input: "enabled" });
  if (!enabled || damageTaken === 0) return false;
  return healthBefore === 0 || damageTaken >= healthBefore;
}

/** Endurance after losing ranks to a Kill result, and whether the character died. */
export interface EnduranceAfterKill {
  /** The new Endurance rank number (0 when dead). */
  readonly endurance: number;
  /** True when Endurance fell below Shift 0 [001: "until they die"]. */
  readonly dead: boolean;
}

/**
 * Endurance after a Kill loss [001]: one rank lower ({@link KILL_ENDURANCE_RANK_LOSS}), as the
 * standard number of that rank. Losing a rank at Shift 0 means dying.
 */
export function enduranceAfterKillLoss(enduranceValue: number): EnduranceAfterKill {
  assertRankNumber(enduranceValue, "endurance");
  const index = rankOf(enduranceValue).index - KILL_ENDURANCE_RANK_LOSS;
  if (index < 0) return { endurance: 0, dead: true };
  return { endurance: rankAt(index).number, dead: false };
}

/**
 * [RULING] (CASE-RULES §4 and Errata §4) Whether a Kill victim loses its first extra Endurance
 * rank at the wrap-up of the Kill's own turn. [001] says "for every subsequent turn", so the
 * default is no: the first extra rank goes at the next turn's wrap-up. A world setting.
 */
export const KILL_LOSS_AT_OWN_WRAP_UP = false as boolean;

/**
 * Whether a dying character loses an Endurance rank at this wrap-up (§8): not when aided; not
 * in the Kill's own turn (`fresh`) unless {@link KILL_LOSS_AT_OWN_WRAP_UP} says so.
 */
export function killLossAtWrapUp(aided: boolean, fresh: boolean, atOwnWrapUp: boolean = KILL_LOSS_AT_OWN_WRAP_UP): boolean {
  assertBoolean(fresh, { input: "fresh" });
  assertBoolean(atOwnWrapUp, { input: "atOwnWrapUp" });
  return killLossContinues(aided) && (!fresh || atOwnWrapUp);
}

/**
 * Whether a Kill victim loses another Endurance rank at this turn's wrap-up [001]: yes while
 * unaided; aid of every kind stops the loss.
 */
export function killLossContinues(aided: boolean): boolean {
  assertBoolean(aided, { input: "aided" });
  return !aided;
}
