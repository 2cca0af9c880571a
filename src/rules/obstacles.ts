/**
 * Objects in a ranged attack's path (CASE-RULES §5, [001]): −2 CS to hit per object
 * ({@link obstaclePenalty}), and each object's material strength subtracted from the damage
 * ({@link damageThroughObstacles}). This module adds the per-object breakdown an attack card
 * shows; the totals come from those two functions, never a copy of them.
 */
import { damageThroughObstacles, obstaclePenalty } from "./attacks";
import { assertRankNumber } from "./ranks";
import { assertArray, assertWholeNumber } from "./checks";

/** One object in the path, as the card lists it. */
export interface ObstacleStep {
  /** 1 for the first object the attack meets. */
  readonly position: number;
  readonly materialStrength: number;
  /** Damage reaching this object. */
  readonly before: number;
  /** Damage left after passing through it (never below 0). */
  readonly after: number;
  /** True when this object took the last of the damage. */
  readonly stopped: boolean;
}

/** The whole path: each object, the to-hit penalty, and what reaches the target. */
export interface ObstacleBreakdown {
  readonly steps: readonly ObstacleStep[];
  /** −2 CS per object [001]. */
  readonly toHitShift: number;
  /** Damage reaching the target: equals {@link damageThroughObstacles}. */
  readonly damage: number;
}

/**
 * The per-object breakdown of `damage` passing the objects of `materialStrengths`, nearest
 * first [001: "the material strength of whatever it attempts to pass through is directly
 * subtracted from its damage"]. RangeError for a bad damage or material strength.
 */
export function obstacleBreakdown(damage: number, materialStrengths: readonly number[]): ObstacleBreakdown {
  assertRankNumber(damage, "damage");
  assertArray(materialStrengths, { input: "materialStrengths" });
  const steps: ObstacleStep[] = [];
  let left = damage;
  materialStrengths.forEach((ms, i) => {
    assertWholeNumber(ms, ["materialStrengthOf", i + 1]);
    const after = Math.max(0, left - ms);
    steps.push({ position: i + 1, materialStrength: ms, before: left, after, stopped: left > 0 && after === 0 });
    left = after;
  });
  return { steps, toHitShift: obstaclePenalty(materialStrengths.length), damage: damageThroughObstacles(damage, materialStrengths) };
}
