import { type RankKey, assertRankNumber, rankByKey, rankOf } from "../ranks";
import { assertWhole } from "./definitions";
import { NO_ATTACK_OVERRIDES, attackRulingsFrom, type AttackRulings } from "./rulings";

// ── Charging ──────────────────────────────────────────────────────────────────────────────────
/** [001] A charge needs at least one full area of movement. */
export const CHARGE_MIN_AREAS = 1;

/** [001] +1 CS to hit for each area moved before the charge. */
export const CHARGE_TO_HIT_CS_PER_AREA = 1;

/** [001] The charge to-hit bonus is at most +3 CS. */
export const CHARGE_MAX_TO_HIT_CS = 3;

/** [001] "with a practical limit of Shift Z (500)": the charge bonus never lifts the column above this rank. */
export const CHARGE_TO_HIT_COLUMN_CAP: RankKey = "shiftZ";

/** [001] Charge damage bonus: +2 points per area moved (capped at the base, see {@link chargeDamage}). */
export const CHARGE_DAMAGE_PER_AREA = 2;


function assertChargeAreas(areas: number): void {
  assertWhole(areas, "chargeAreasMoved", CHARGE_MIN_AREAS);
}

/**
 * The charge to-hit bonus: +1 CS per area moved, at most +3 CS [001]. With the charger's
 * Endurance (res) rank number, the bonus also never lifts the column above Shift Z
 * ({@link CHARGE_TO_HIT_COLUMN_CAP}); a column already above it gets no bonus.
 */
export function chargeToHitShift(areas: number, endurance?: number): number {
  assertChargeAreas(areas);
  const bonus = Math.min(areas * CHARGE_TO_HIT_CS_PER_AREA, CHARGE_MAX_TO_HIT_CS);
  if (endurance === undefined) return bonus;
  assertRankNumber(endurance, "endurance");
  const room = rankByKey(CHARGE_TO_HIT_COLUMN_CAP).index - rankOf(endurance).index;
  return Math.max(0, Math.min(bonus, room));
}

/** The charger's numbers for {@link chargeDamage}. */
export interface ChargeInput {
  /** The charger's Endurance rank number. */
  readonly endurance: number;
  /** The charger's body armor rank number (0 if none). */
  readonly bodyArmor: number;
  /** Whole areas moved before the charge connected (at least 1). */
  readonly areas: number;
}

/**
 * Charge damage [001]: base = the higher of Endurance and body armor; plus 2 per area moved,
 * that bonus capped at the base ("with a maximum of the character's Endurance or body armor
 * score"). The target's body armor (or an object's material strength) then absorbs as usual.
 */
export function chargeDamage({ endurance, bodyArmor, areas }: ChargeInput): number {
  assertRankNumber(endurance, "endurance");
  assertRankNumber(bodyArmor, "bodyArmor");
  assertChargeAreas(areas);
  const base = Math.max(endurance, bodyArmor);
  return base + Math.min(areas * CHARGE_DAMAGE_PER_AREA, base);
}

/**
 * The damage a charger takes back from a target with body armor (or an object's material
 * strength): the target's armor value [001], less the charger's own body armor when
 * {@link CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR}, never below 0.
 */
export function chargeReboundDamage(targetArmor: number, chargerArmor = 0, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): number {
  assertRankNumber(targetArmor, "targetBodyArmor");
  assertRankNumber(chargerArmor, "chargerBodyArmor");
  return attackRulingsFrom(rulings).chargeReboundAbsorbed ? Math.max(0, targetArmor - chargerArmor) : targetArmor;
}
