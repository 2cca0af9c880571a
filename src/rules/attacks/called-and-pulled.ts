import { assertRankNumber } from "../ranks";
import { type Color, colorIndex } from "../universal-table";
import { ATTACKS, assertAttackCode, assertAttackResult, assertBoolean, assertColor, attackDefinition, attackResult, isHit, type AttackCode, type AttackResult, type PullRule } from "./definitions";
import { NO_ATTACK_OVERRIDES, attackRulingsFrom, type AttackRulings } from "./rulings";
import { RulesRangeError } from "../errors";

// ── Called shots ──────────────────────────────────────────────────────────────────────────────
/**
 * [RULING] Whether a red to-hit roll (better than the yellow Bullseye) also satisfies a called
 * shot with an attack that has a Bullseye result. The sources only say a called shot "requires"
 * a Bullseye [001]; read literally, only yellow does. Default false.
 */
export const CALLED_SHOT_RED_SUCCEEDS = false as boolean;

/** True when the attack has a Bullseye result, so a called shot can be declared with it [001]. */
export function canCallShot(attack: AttackCode): boolean {
  assertAttackCode(attack);
  return Object.values(ATTACKS[attack].results).includes("bullseye");
}

/**
 * A declared called shot (a precise point: the gun hand, a small target) succeeds only on a
 * Bullseye result [001, 000].
 */
export function calledShotSucceeds(result: AttackResult): boolean {
  assertAttackResult(result);
  return result === "bullseye";
}

/**
 * A called shot by to-hit colour: yellow (Bullseye), and red too when `redSucceeds`
 * ({@link CALLED_SHOT_RED_SUCCEEDS}). RangeError when the attack has no Bullseye result.
 */
export function calledShotSucceedsOnColor(attack: AttackCode, color: Color, redSucceeds: boolean = CALLED_SHOT_RED_SUCCEEDS): boolean {
  if (!canCallShot(attack)) {
    throw new RulesRangeError("calledShotNoBullseye", { attack });
  }
  assertColor(color, "attackColour");
  assertBoolean(redSucceeds, { input: "redSucceeds" });
  if (calledShotSucceeds(attackResult(attack, color))) return true;
  return redSucceeds && color === "red";
}

/**
 * Whether a result strikes what the attacker aimed at: without a called shot a Bullseye is just
 * a hit (every hit-like result counts); with a called shot only a Bullseye does [001].
 */
export function countsAsHit(result: AttackResult, calledShot = false): boolean {
  assertBoolean(calledShot, { input: "calledShot" });
  return calledShot ? calledShotSucceeds(result) : isHit(result);
}

// ── Pulling punches ───────────────────────────────────────────────────────────────────────────


/**
 * The pull rule of an attack [001; ET per {@link EDGED_THROWING_PULL_RULE}, or
 * `rulings.edgedThrowingPull` when given].
 */
export function pullRule(attack: AttackCode, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): PullRule {
  const def = attackDefinition(attack);
  return attack === "ET" ? attackRulingsFrom(rulings).edgedThrowingPull : def.pull;
}

/** True when the attack's pull rule lets the attacker lower the colour [001]. */
export function mayPullColor(attack: AttackCode, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): boolean {
  const rule = pullRule(attack, rulings);
  return rule === "damageOrColor" || rule === "color";
}

/** True when the attack's pull rule lets the attacker lower the damage [001]. */
export function mayPullDamage(attack: AttackCode, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): boolean {
  const rule = pullRule(attack, rulings);
  return rule === "damageOrColor" || rule === "damage";
}

/**
 * Pulling the colour: the attacker declared a pulled punch and, after the roll, takes `chosen`
 * instead of `rolled`. Returns `chosen`. Throws a RangeError when the attack may not pull its
 * colour, when `chosen` is better than `rolled`, or when `chosen` is white and
 * {@link PULL_TO_MISS_ALLOWED} is false [001].
 */
export function pullColor(attack: AttackCode, rolled: Color, chosen: Color, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): Color {
  assertAttackCode(attack);
  assertColor(rolled, "rolledColour");
  assertColor(chosen, "chosenColour");
  const r = attackRulingsFrom(rulings);
  if (!mayPullColor(attack, r)) {
    throw new RulesRangeError("pullColourNotAllowed", { attack, rule: pullRule(attack, r) });
  }
  if (colorIndex(chosen) > colorIndex(rolled)) {
    throw new RulesRangeError("pullColourUp", { chosen, rolled });
  }
  if (chosen === "white" && rolled !== "white" && !r.pullToMissAllowed) {
    throw new RulesRangeError("pullToMiss");
  }
  return chosen;
}

/**
 * Pulling the damage: the attacker deals `chosen` points instead of the full `damage`. Returns
 * `chosen`. Throws a RangeError when the attack may not pull damage or `chosen` is not a whole
 * number from 0 to `damage` [001; 000].
 */
export function pullDamage(attack: AttackCode, damage: number, chosen: number, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): number {
  assertAttackCode(attack);
  assertRankNumber(damage, "damage");
  assertRankNumber(chosen, "pulledDamage");
  const r = attackRulingsFrom(rulings);
  if (!mayPullDamage(attack, r)) {
    throw new RulesRangeError("pullDamageNotAllowed", { attack, rule: pullRule(attack, r) });
  }
  if (chosen > damage) {
    throw new RulesRangeError("pullDamageUp", { chosen, damage });
  }
  return chosen;
}

/** A pulled punch: what was rolled and what the attacker wants instead (omit what is not pulled). */
export interface PullRequest {
  readonly rolled: Color;
  readonly damage: number;
  readonly chosenColor?: Color;
  readonly chosenDamage?: number;
}

/**
 * Both pulls at once, honouring {@link PULL_DAMAGE_AND_COLOR_TOGETHER}. Returns the colour and
 * damage that apply; choosing exactly what was rolled is not a pull. Throws as {@link pullColor} / {@link pullDamage} do, and when both are
 * pulled but the ruling forbids it.
 */
export function pullAttack(
  attack: AttackCode,
  request: PullRequest,
  rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES,
): { readonly color: Color; readonly damage: number } {
  const { rolled, damage, chosenColor, chosenDamage } = request;
  const r = attackRulingsFrom(rulings);
  const pullsColor = chosenColor !== undefined && chosenColor !== rolled;
  const pullsDamage = chosenDamage !== undefined && chosenDamage !== damage;
  if (pullsColor && pullsDamage && !r.pullDamageAndColorTogether) {
    throw new RulesRangeError("pullBoth");
  }
  assertAttackCode(attack);
  assertColor(rolled, "rolledColour");
  assertRankNumber(damage, "damage");
  // Choosing exactly what was rolled is no pull at all, so it is allowed for every attack.
  const color = pullsColor ? pullColor(attack, rolled, chosenColor, r) : rolled;
  const dealt = pullsDamage ? pullDamage(attack, damage, chosenDamage, r) : damage;
  return { color, damage: dealt };
}
