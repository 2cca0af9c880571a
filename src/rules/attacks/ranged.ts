import { assertRankNumber, isRankNumber } from "../ranks";
import { assertWhole, attackDefinition, type AttackCode } from "./definitions";
import { RulesRangeError, RulesTypeError } from "../errors";

// ── Ranged attacks ────────────────────────────────────────────────────────────────────────────
/** [001] −1 CS to hit for each area beyond the attack's range. */
export const RANGE_CS_PER_AREA = -1;

/** [001] −2 CS to hit for each object in the attack's path. */
export const OBSTACLE_CS_PER_OBJECT = -2;

/**
 * The range penalty [001]: −1 CS per whole area of `distance` beyond `range` (areas). `range`
 * may be Infinity (line of sight). 0 within range.
 */
export function rangePenalty(distance: number, range: number): number {
  assertWhole(distance, "distanceInAreas");
  if (range !== Number.POSITIVE_INFINITY) assertWhole(range, "rangeInAreas");
  const beyond = distance - range;
  return beyond > 0 ? beyond * RANGE_CS_PER_AREA : 0;
}

/** The obstacle penalty [001]: −2 CS per object in the path. */
export function obstaclePenalty(objects: number): number {
  assertWhole(objects, "numberOfObjectsInThePath");
  return objects === 0 ? 0 : objects * OBSTACLE_CS_PER_OBJECT;
}

/**
 * [RULING] The objects in the path take their material strength off the damage BEFORE the
 * target's armor or protection: [001] says the material strength "is directly subtracted from
 * its damage" as the attack passes through, that is before it reaches the target (CASE-RULES §5
 * names no order). Both subtractions stop at 0, so the order never changes the damage dealt;
 * it fixes what the card shows (Damage − obstacles − protection).
 */
export const OBSTACLES_BEFORE_PROTECTION = true;

/**
 * Damage left after passing through objects in the path [001]: each object's material strength
 * is subtracted from the damage before it reaches the target; never below 0.
 */
export function damageThroughObstacles(damage: number, materialStrengths: readonly number[]): number {
  assertRankNumber(damage, "damage");
  const list: unknown = materialStrengths;
  if (!Array.isArray(list)) throw new RulesTypeError("inputNotArray", { name: "materialStrengths", got: String(list) });
  let left = damage;
  materialStrengths.forEach((ms, i) => {
    if (!isRankNumber(ms)) throw new RulesRangeError("nthNotWholeAtLeast", { field: "materialStrengthOf", n: i + 1, min: 0, got: String(ms) });
    left -= ms;
  });
  return Math.max(0, left);
}

/**
 * True when a miss with this attack may strike someone adjacent to the target (roll for each)
 * [001]: ranged attacks only.
 */
export function missMayStrikeOthers(attack: AttackCode): boolean {
  return attackDefinition(attack).family === "ranged";
}

/**
 * Blunt Throwing damage [000]: the lesser of the thrower's Strength and the thrown item's
 * material strength.
 */
export function bluntThrowingDamage(throwerStrength: number, itemMaterialStrength: number): number {
  assertRankNumber(throwerStrength, "throwerStrength");
  assertRankNumber(itemMaterialStrength, "itemMaterialStrength");
  return Math.min(throwerStrength, itemMaterialStrength);
}
