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
import { CHARGE_TO_HIT_COLUMN_CAP, chargeDamage, chargeReboundDamage, resolveAttackRulings, type AttackRulings } from "./attacks";
import { damageAfterProtection } from "./damage";
import { assertRankNumber, rankByKey } from "./ranks";
import { assertObject, assertOneOfValues, assertWholeNumber } from "./checks";

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

/** Resolves an impact (a fall or a charge at an object). RangeError for bad input. */
export function resolveImpact(input: ImpactInput, rulings: Partial<AttackRulings> = {}): ImpactOutcome {
  assertObject(input, "Impact");
  assertOneOfValues(input.kind, IMPACT_KINDS, "Impact kind");
  assertWholeNumber(input.areas, "Areas moved or fallen", 1);
  if (input.areas > MAX_IMPACT_AREAS) throw new RangeError(`Areas moved or fallen must be at most ${MAX_IMPACT_AREAS}, got ${input.areas}.`);
  assertRankNumber(input.endurance, "Endurance");
  assertRankNumber(input.bodyArmor, "Body armor");
  assertRankNumber(input.materialStrength, "Material strength");
  const r = resolveAttackRulings(rulings);
  const damage = Math.min(IMPACT_DAMAGE_LIMIT, chargeDamage({ endurance: input.endurance, bodyArmor: input.bodyArmor, areas: input.areas }));
  const objectDamage = damageAfterProtection(damage, input.materialStrength);
  return { damage, objectDamage, breaks: objectDamage > 0, rebound: chargeReboundDamage(input.materialStrength, input.bodyArmor, r) };
}
