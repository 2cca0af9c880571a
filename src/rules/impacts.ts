/**
 * The Judge's impacts (CASE-RULES §5, [001] Charging): a character charging an inanimate object,
 * and a fall. [001]: "Charging inanimate objects works the same, treating the object's material
 * strength as if it were body armor, whether it is a wall or a tank. If the charging character
 * inflicts damage, they may break the object - or barrel right through. If not, they may instead
 * hurt themselves in the attack. Falling damage is also handled in this fashion, treating the
 * fall as a 'charge' against the ground - or whatever else is under the character!"
 *
 * So an impact is a charge that always connects (no to-hit: the wall does not dodge): its damage
 * is {@link chargeDamage} (the higher of Endurance and body armor, +2 per area, the bonus capped
 * at that value), the object's material strength absorbs it as body armor, and the object's
 * material strength rebounds onto the charger ({@link chargeReboundDamage}, soaked by the
 * charger's own body armor by the attack rulings).
 */
import { CHARGE_TO_HIT_COLUMN_CAP, chargeDamage, chargeReboundDamage, type AttackRulings, type ChargeInput } from "./attacks";
import { NO_ATTACK_OVERRIDES, attackRulingsFrom } from "./attacks/rulings";
import { damageAfterProtection } from "./damage";
import { assertRankNumber, rankByKey } from "./ranks";
import { assertObject, assertOneOfValues, assertWholeNumber } from "./checks";
import { RulesRangeError } from "./errors";

/** A fall (a charge against the ground) or a charge at an object. */
export const IMPACT_KINDS = ["fall", "object"] as const;
export type ImpactKind = (typeof IMPACT_KINDS)[number];

/**
 * [RULING] Errata §5's "practical limit of Shift Z (500)" on a charge also caps the damage of the
 * Judge's impacts: no fall or charge at an object deals more than Shift Z's number, however
 * tough the charger or long the fall.
 */
export const IMPACT_DAMAGE_LIMIT = rankByKey(CHARGE_TO_HIT_COLUMN_CAP).number;

/** [RULING] The ground's material strength a fall dialog offers first: Good (10), earth or a wooden floor. */
export const DEFAULT_GROUND_MATERIAL_STRENGTH = 10;

/** The most areas a fall or charge may cover (a guard on input, not a rule). */
export const MAX_IMPACT_AREAS = 10_000;

/** One impact: the charger's numbers, the areas moved (or fallen) and what it hits. */
export interface ImpactInput {
  readonly kind: ImpactKind;
  /** Whole areas moved before the impact (a fall: areas fallen), at least 1. */
  readonly areas: number;
  /** The charger's (or faller's) Endurance rank number. */
  readonly endurance: number;
  /** The charger's body protection (armor or protective power against charges). */
  readonly bodyArmor: number;
  /** The material strength of the object or the ground (its body armor here). */
  readonly materialStrength: number;
}

/** What an impact does. */
export interface ImpactOutcome {
  /** The charge's damage ({@link chargeDamage}, at most {@link IMPACT_DAMAGE_LIMIT}). */
  readonly damage: number;
  /** Damage the object (or ground) takes after its material strength: above 0, it may break or be barrelled through. */
  readonly objectDamage: number;
  /** True when the charge got through the material strength (the object breaks or is barrelled through). */
  readonly breaks: boolean;
  /** Damage rebounding onto the charger: the material strength, less the charger's body armor by the rulings. */
  readonly rebound: number;
}

// ── The one impact rule ───────────────────────────────────────────────────────────────────────
/**
 * What an impact strikes: a character (a charge, a slammed or careening body, a caught person),
 * an object (a wall, a tank: its material strength) or the ground (a fall). [001]: "Charging
 * inanimate objects works the same, treating the object's material strength as if it were body
 * armor … Falling damage is also handled in this fashion, treating the fall as a 'charge'
 * against the ground". One rule, {@link impactStrike}, for all three.
 */
export const IMPACT_TARGETS = ["character", "object", "ground"] as const;
export type ImpactTarget = (typeof IMPACT_TARGETS)[number];

/**
 * The damage of every impact, the one number [001] "works the same" for: the charge's damage
 * ({@link chargeDamage}: the higher of Endurance and body armor, +2 per area, the bonus capped at
 * that value), at most {@link IMPACT_DAMAGE_LIMIT}. A charge at a character (attack-setup.ts), at
 * an object, a fall, a slam into something and a careening charge all read it.
 */
export function impactDamage(mover: ChargeInput): number {
  return Math.min(IMPACT_DAMAGE_LIMIT, chargeDamage(mover));
}

/** One body in motion striking something: the mover's numbers, the areas covered and what it strikes. */
export interface ImpactStrike {
  readonly target: ImpactTarget;
  /** Whole areas moved (fallen, flown) before the impact, at least 1. */
  readonly areas: number;
  /** The mover's Endurance rank number. */
  readonly endurance: number;
  /** The mover's body protection (armor or a protective power against charges). */
  readonly bodyArmor: number;
  /** What is struck: a character's body armor, or an object's or the ground's material strength. */
  readonly targetArmor: number;
}

/** What one impact does to both sides. */
export interface ImpactStrikeOutcome {
  /** {@link impactDamage}. */
  readonly damage: number;
  /** Damage past the struck thing's armor (or material strength): a character's Health loss, an object's breaking. */
  readonly toTarget: number;
  /** True when something got through (an object breaks or is barrelled through; a character is hurt). */
  readonly breaks: boolean;
  /** Damage rebounding onto the mover: the struck armor, less the mover's own by the rulings ({@link chargeReboundDamage}). */
  readonly rebound: number;
}

/** The one impact rule [001] (charge, charge at an object, fall). RangeError for bad input. */
export function impactStrike(strike: ImpactStrike, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): ImpactStrikeOutcome {
  assertObject(strike, { input: "impact" });
  assertOneOfValues(strike.target, IMPACT_TARGETS, "impactTarget");
  assertWholeNumber(strike.areas, "areasMovedOrFallen", 1);
  if (strike.areas > MAX_IMPACT_AREAS) throw new RulesRangeError("notAtMost", { field: "areasMovedOrFallen", max: MAX_IMPACT_AREAS, got: strike.areas });
  assertRankNumber(strike.endurance, "endurance");
  assertRankNumber(strike.bodyArmor, "bodyArmor");
  assertRankNumber(strike.targetArmor, strike.target === "character" ? "struckBodyArmor" : "materialStrength");
  const r = attackRulingsFrom(rulings);
  const damage = impactDamage({ endurance: strike.endurance, bodyArmor: strike.bodyArmor, areas: strike.areas });
  const toTarget = damageAfterProtection(damage, strike.targetArmor);
  return { damage, toTarget, breaks: toTarget > 0, rebound: chargeReboundDamage(strike.targetArmor, strike.bodyArmor, r) };
}

/** Resolves an impact (a fall or a charge at an object) by {@link impactStrike}. RangeError for bad input. */
export function resolveImpact(input: ImpactInput, rulings: Partial<AttackRulings> = {}): ImpactOutcome {
  assertObject(input, { input: "impact" });
  assertOneOfValues(input.kind, IMPACT_KINDS, "impactKind");
  assertRankNumber(input.materialStrength, "materialStrength");
  const out = impactStrike(
    { target: input.kind === "fall" ? "ground" : "object", areas: input.areas, endurance: input.endurance, bodyArmor: input.bodyArmor, targetArmor: input.materialStrength },
    rulings,
  );
  return { damage: out.damage, objectDamage: out.toTarget, breaks: out.breaks, rebound: out.rebound };
}
