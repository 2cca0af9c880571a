/**
 * Bodies and missiles that strike something they were not aimed at (CASE-RULES §5, §8): a
 * slammed character hitting a wall or another character, a missed charge careening into
 * something else, and the rolls for bystanders next to the target of a ranged miss. Every
 * impact goes through the one impact rule ({@link impactStrike}).
 */
import { attackResult, chargeToHitShift, isHit, missMayStrikeOthers, toHitPossible, type AttackCode, type AttackResult, type AttackRulings } from "./attacks";
import { NO_ATTACK_OVERRIDES } from "./attacks/rulings";
import { assertArray, assertBooleanValue, assertObject, assertOneOfValues, assertText, assertWholeNumber } from "./checks";
import type { SlamResult } from "./consequences";
import { impactStrike, type ImpactStrikeOutcome } from "./impacts";
import { assertColumnShift, assertRankNumber } from "./ranks";
import { UNIVERSAL_TABLE, universalColor, type Color, type UniversalTable } from "./universal-table";
import { RulesRangeError } from "./errors";

/** What a body in motion may strike besides its target: another character, or an object (a wall, a car). */
export const STRUCK_KINDS = ["character", "object"] as const;
export type StruckKind = (typeof STRUCK_KINDS)[number];

/** The body in motion: its Endurance and body protection (the "charger" of the impact). */
export interface Mover {
  readonly endurance: number;
  readonly bodyArmor: number;
}

// ── Slam collisions ───────────────────────────────────────────────────────────────────────────

/** The Slam? results that move the target (green: one area, white: a Grand Slam) [001]. */
export const MOVING_SLAM_RESULTS: readonly SlamResult[] = Object.freeze(["oneArea", "grandSlam"] as const);

/**
 * [RULING] A slammed character who strikes something always connects (no to-hit roll: it did
 * not aim), and the collision counts as a green (Hit) charge: damage both ways by the impact
 * rule, no Slam? or Stun? check for either side. [001] says only "treated per a charging attack".
 */
export const SLAM_COLLISION_RESULT: AttackResult = "hit";

/** A slammed character striking something in its flight. */
export interface SlamCollisionInput {
  /** The slammed character's Slam? result: only a moving one (green, white) can strike anything. */
  readonly slam: SlamResult;
  /** Whole areas flown before striking (at least 1: a slam moves at least one area). */
  readonly areasFlown: number;
  readonly slammed: Mover;
  readonly struck: StruckKind;
  /** The struck character's body armor, or the object's material strength. */
  readonly struckArmor: number;
}

/** What a slam collision does: the impact ({@link ImpactStrikeOutcome}: `toTarget` to the struck, `rebound` to the slammed) and its result. */
export interface SlamCollision extends ImpactStrikeOutcome {
  readonly result: AttackResult;
}

/**
 * A slam collision. [001]: "If the slammed character strikes something while in motion, it
 * should be treated per a charging attack, which may be particularly disastrous to both the
 * environment and the slammed character". The slammed character is the charger (its own
 * Endurance or body armor, +2 per area flown), the struck character's body armor or the
 * object's material strength absorbs it and rebounds onto the slammed character.
 */
export function slamCollision(input: SlamCollisionInput, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): SlamCollision {
  assertObject(input, "slamCollision");
  if (!MOVING_SLAM_RESULTS.includes(input.slam)) {
    throw new RulesRangeError("slamNotMoving", { allowed: MOVING_SLAM_RESULTS.join(", "), got: input.slam });
  }
  assertOneOfValues(input.struck, STRUCK_KINDS, "whatTheSlammedCharacterStrikes");
  assertObject(input.slammed, { input: "slammedCharacter" });
  const out = impactStrike({ target: input.struck, areas: input.areasFlown, endurance: input.slammed.endurance, bodyArmor: input.slammed.bodyArmor, targetArmor: input.struckArmor }, rulings);
  return { ...out, result: SLAM_COLLISION_RESULT };
}

// ── Careening charges ─────────────────────────────────────────────────────────────────────────

/**
 * [RULING] How a careening charge is decided. [001]: "A white result indicates that the charging
 * character missed his or her target entirely - and it's quite possible they'll careen into
 * something else if their target was in a crowded area." Only a white charge in a crowded area
 * careens; the Judge names the one thing in its path, and the charger rolls the charge's to-hit
 * again against it (Endurance (res), the same charge bonus, no defence: the bystander did not
 * see it coming). Its colour reads on the Charging row; a Miss careens past harmlessly.
 */
export const CAREEN_ROLLS_AGAIN = true as boolean;

/** A missed charge in a crowd, and what it may careen into. */
export interface CareeningChargeInput {
  /** The charge's to-hit colour. */
  readonly chargeColor: Color;
  /** The target stood in a crowded area (the Judge's call). */
  readonly crowded: boolean;
  readonly charger: Mover;
  /** Whole areas moved before the charge (its bonus and damage), at least 1. */
  readonly areas: number;
  /** What the charge careens into, and its body armor or material strength. */
  readonly struck: StruckKind;
  readonly struckArmor: number;
  /** The d100 of the careen roll. */
  readonly die: number;
  readonly table?: UniversalTable;
}

/** What a careening charge does. */
export interface CareeningCharge {
  /** A careen roll was due (a white charge in a crowded area). */
  readonly careens: boolean;
  /** The careen roll's colour on the charger's Endurance column after the charge bonus; null when none was due. */
  readonly color: Color | null;
  /** Its result on the Charging row (an object takes no Slam? or Stun?: a hit); null when none was due. */
  readonly result: AttackResult | null;
  /** The impact when it struck (the one impact rule), else null. */
  readonly impact: ImpactStrikeOutcome | null;
}

/** A careening charge ({@link CAREEN_ROLLS_AGAIN}). RangeError for bad input. */
export function careeningCharge(input: CareeningChargeInput, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): CareeningCharge {
  assertObject(input, { input: "careeningCharge" });
  assertBooleanValue(input.crowded, { input: "crowded" });
  assertOneOfValues(input.struck, STRUCK_KINDS, "whatTheChargeCareensInto");
  assertObject(input.charger, { input: "charger" });
  const chargeResult = attackResult("Ch", input.chargeColor);
  if (chargeResult !== "miss" || !input.crowded) return { careens: false, color: null, result: null, impact: null };
  const color = universalColor(input.charger.endurance, input.die, chargeToHitShift(input.areas, input.charger.endurance), input.table ?? UNIVERSAL_TABLE);
  const rolled = attackResult("Ch", color);
  const result: AttackResult = input.struck === "object" && isHit(rolled) ? "hit" : rolled;
  const impact = isHit(result)
    ? impactStrike({ target: input.struck, areas: input.areas, endurance: input.charger.endurance, bodyArmor: input.charger.bodyArmor, targetArmor: input.struckArmor }, rulings)
    : null;
  return { careens: true, color, result, impact };
}

// ── Bystanders of a ranged miss ───────────────────────────────────────────────────────────────

/**
 * [RULING] The bystanders next to the target of a ranged miss are rolled for one at a time, in
 * the order the Judge gives (nearest the line of fire first), and the first one hit takes the
 * attack: [001] "make a roll for each additional person that may be struck by it instead" — one
 * missile strikes one person "instead" of its target. Later bystanders are not rolled.
 */
export const BYSTANDER_FIRST_HIT_STOPS = true as boolean;

/**
 * [RULING] A bystander's roll is the attacker's to-hit again, on the same column with the
 * attacker's own shifts (range, objects in the path, talents) but none of the target's defence,
 * and the bystander does not defend (it was not aimed at: blindsided, [000]).
 */
export const BYSTANDER_MAY_DEFEND = false as boolean;

/** One bystander and the d100 rolled for it. */
export interface Bystander {
  readonly id: string;
  readonly die: number;
}

/** The miss and the attacker's column for the bystanders' rolls. */
export interface BystanderRollsInput {
  readonly attack: AttackCode;
  /** The result of the roll against the target: only a Miss strikes anyone else. */
  readonly targetResult: AttackResult;
  /** The attacker's rank number the to-hit was rolled on. */
  readonly value: number;
  /** The attacker's own column shifts ({@link BYSTANDER_MAY_DEFEND}). */
  readonly cs: number;
  /** Everyone adjacent to the target, in the order the Judge rolls them. */
  readonly bystanders: readonly Bystander[];
  readonly table?: UniversalTable;
}

/** One bystander's roll. */
export interface BystanderRoll {
  readonly id: string;
  readonly die: number;
  readonly color: Color;
  readonly result: AttackResult;
  /** This bystander is struck (a hit of every kind: Hit, Bullseye, Stun, Kill), with that result's damage. */
  readonly struck: boolean;
}

/**
 * The bystander rolls of a ranged miss [001]: "If a ranged attack misses, and if anyone is
 * adjacent to its target, make a roll for each additional person that may be struck by it
 * instead." Empty when the attack did not miss or no one is adjacent. RangeError for a melee
 * attack or bad input.
 */
export function bystanderRolls(input: BystanderRollsInput): BystanderRoll[] {
  assertObject(input, { input: "bystanderRolls" });
  if (!missMayStrikeOthers(input.attack)) throw new RulesRangeError("bystanderNotRanged", { attack: input.attack });
  assertRankNumber(input.value, "attackerRankNumber");
  assertColumnShift(input.cs);
  assertArray(input.bystanders, "bystanders");
  if (input.targetResult !== "miss") return [];
  const rolls: BystanderRoll[] = [];
  for (const b of input.bystanders) {
    assertObject(b, { input: "bystander" });
    assertText(b.id, "bystanderId");
    assertWholeNumber(b.die, "bystanderD100", 1);
    const color = universalColor(input.value, b.die, input.cs, input.table ?? UNIVERSAL_TABLE);
    // A column pushed below Shift 0 cannot hit anyone [001], the bystanders included.
    const result = toHitPossible(input.value, input.cs) ? attackResult(input.attack, color) : "miss";
    const struck = isHit(result);
    rolls.push({ id: b.id, die: b.die, color, result, struck });
    if (struck && BYSTANDER_FIRST_HIT_STOPS) break;
  }
  return rolls;
}
