/**
 * Damage (CASE-RULES §7, armor from §5): static or intensity damage, which armor absorbs
 * which attack, damage after protection, and Health bookkeeping.
 *
 * Sources: [001] CASE "Time and Combat", [RULING] our own decisions, each an exported constant.
 */
import { assertAttackCode, assertColor, type AttackCode } from "./attacks";
import { assertRankNumber, rankOf, shiftRank } from "./ranks";
import { COLORS, universalColor, type Color, type UniversalTable, UNIVERSAL_TABLE } from "./universal-table";
import { RulesRangeError, RulesTypeError } from "./errors";

/** How damage is determined [001]: the attack's rank number ("static"), or a second roll ("intensity"). */
export type DamageMethod = "static" | "intensity";

/** Both damage methods. */
export const DAMAGE_METHODS: readonly DamageMethod[] = Object.freeze(["static", "intensity"]);

/**
 * [RULING] The default damage method. [001] leaves it to the Judge ("The Judge should declare
 * which method they prefer"); CASE-RULES §7 makes static the default, a world setting changes it.
 */
export const DAMAGE_METHOD_DEFAULT: DamageMethod = "static";

/**
 * [RULING, generalised from the 001 example] Intensity damage: the CS from the attack's rank by
 * the colour of the damage roll. [001]'s example: an Amazing (50) attack does Excellent (20) on
 * white, Incredible (40) on green, Amazing (50) on yellow, Monstrous (75) on red.
 */
export const INTENSITY_DAMAGE_SHIFTS: Readonly<Record<Color, number>> = Object.freeze({ white: -3, green: -1, yellow: 0, red: 1 });

/** True when `method` is a {@link DamageMethod}: a switch on the constants, as attacks.ts's checks (every hit reads it). */
export function isDamageMethod(method: unknown): method is DamageMethod {
  const m = method as DamageMethod;
  switch (m) {
    case "static":
    case "intensity":
      return true;
    default: {
      const _unlisted: never = m;
      return false;
    }
  }
}

/** Throws a RangeError unless `method` is a {@link DamageMethod}. */
export function assertDamageMethod(method: unknown): asserts method is DamageMethod {
  if (!isDamageMethod(method)) {
    throw new RulesRangeError("notOneOf", { field: "damageMethod", allowed: "static, intensity", got: `"${String(method)}"` });
  }
}

/** Throws a RangeError unless `shifts` gives a whole-number column shift for every colour. */
export function assertIntensityShifts(shifts: unknown): asserts shifts is Readonly<Record<Color, number>> {
  if (typeof shifts !== "object" || shifts === null) {
    throw new RulesTypeError("inputNotObject", { name: "intensityShifts", got: String(shifts) });
  }
  const table = shifts as Record<string, unknown>;
  for (const c of COLORS) {
    const cs = table[c];
    if (typeof cs !== "number" || !Number.isInteger(cs)) {
      throw new RulesRangeError("intensityShiftNotWhole", { colour: c, got: String(cs) });
    }
  }
}

/**
 * Intensity damage [001 example, RULING]: the rank of the attack's rank number `value`, shifted by
 * the damage colour ({@link INTENSITY_DAMAGE_SHIFTS}, or `shifts` when a setting replaces them;
 * clamped to the ladder), read as that rank's standard number. So yellow gives the rank's
 * standard number (a 35 attack, Remarkable, does 30).
 */
export function intensityDamage(value: number, color: Color, shifts: Readonly<Record<Color, number>> = INTENSITY_DAMAGE_SHIFTS): number {
  assertRankNumber(value, "attackRankNumber");
  assertColor(color, "damageColour");
  assertIntensityShifts(shifts);
  return shiftRank(rankOf(value), shifts[color]).number;
}

/**
 * The colour of the intensity damage roll: the second d100 after a hit, read on the column of
 * the attack's damage rank [001].
 */
export function damageRollColor(value: number, d100: number, table: UniversalTable = UNIVERSAL_TABLE): Color {
  assertRankNumber(value, "attackRankNumber");
  return universalColor(value, d100, 0, table);
}

/**
 * Damage of a hit [001]. "static": the attack's rank number `value` (a `damageColor`, if given,
 * is checked but not used). "intensity": {@link intensityDamage} of the damage roll's colour, which
 * is then required (TypeError without it).
 */
export function damageFromRoll(
  method: DamageMethod,
  value: number,
  damageColor?: Color,
  shifts: Readonly<Record<Color, number>> = INTENSITY_DAMAGE_SHIFTS,
): number {
  assertDamageMethod(method);
  assertRankNumber(value, "attackRankNumber");
  if (damageColor !== undefined) assertColor(damageColor, "damageColour");
  if (method === "static") return value;
  if (damageColor === undefined) {
    throw new RulesTypeError("intensityNeedsColour");
  }
  return intensityDamage(value, damageColor, shifts);
}

// ---------------------------------------------------------------------------------------------
// Armor
// ---------------------------------------------------------------------------------------------

/** Two protections an armor may have: body armor, and a separate energy protection rank. */
export const ARMOR_KINDS = ["body", "energy"] as const;

/** "body" — physical body armor; "energy" — protection against Energy attacks. */
export type ArmorKind = (typeof ARMOR_KINDS)[number];

/**
 * [RULING] The energy protection of armor when none is given: Shift 0 (no protection). The CASE
 * text on armor against energy was not available.
 */
export const ENERGY_PROTECTION_DEFAULT = 0;

/**
 * The attack codes each armor kind absorbs [001; RULING for energy]: body armor absorbs BA, EA,
 * BT, ET, Fo, Sh and Ch (a charge is "subject to the target's body armor"); energy protection
 * absorbs En. Grabbing and Grappling attacks deal no damage themselves, so no armor applies to
 * them (full-hold damage: {@link BODY_ARMOR_ABSORBS_HOLD_DAMAGE}).
 */
export const ARMOR_ABSORBS: Readonly<Record<ArmorKind, readonly AttackCode[]>> = Object.freeze({
  body: Object.freeze(["BA", "EA", "BT", "ET", "Fo", "Sh", "Ch"] as const),
  energy: Object.freeze(["En"] as const),
});

/**
 * [001] The damage a holder deals through a full hold must overcome the held's body armor
 * (it also has to overcome the target's body armor or other protections).
 */
export const BODY_ARMOR_ABSORBS_HOLD_DAMAGE = true as boolean;

/** True when armor of `armorKind` absorbs damage from `attack` ({@link ARMOR_ABSORBS}). */
export function armorApplies(attack: AttackCode, armorKind: ArmorKind): boolean {
  assertAttackCode(attack);
  if (!(ARMOR_KINDS as readonly string[]).includes(armorKind)) {
    throw new RulesRangeError("notOneOf", { field: "armorKind", allowed: "body, energy", got: `"${armorKind}"` });
  }
  return ARMOR_ABSORBS[armorKind].includes(attack);
}

/** A target's armor: body armor and energy protection rank numbers. */
export interface Armor {
  /** Body armor rank number (0 if none). */
  readonly body: number;
  /** Energy protection rank number; {@link ENERGY_PROTECTION_DEFAULT} when not given. */
  readonly energy?: number;
}

/** The armor protection (a rank number) that applies to `attack`: body, energy, or 0 [001, RULING]. */
export function armorProtectionAgainst(attack: AttackCode, armor: Armor): number {
  assertAttackCode(attack);
  assertRankNumber(armor.body, "bodyArmor");
  const energy = armor.energy ?? ENERGY_PROTECTION_DEFAULT;
  assertRankNumber(energy, "energyProtection");
  if (armorApplies(attack, "body")) return armor.body;
  if (armorApplies(attack, "energy")) return energy;
  return 0;
}

/** Damage that gets through protection: `raw − protection`, never below 0 [001]. */
export function damageAfterProtection(raw: number, protection: number): number {
  assertRankNumber(raw, "damage");
  assertRankNumber(protection, "protection");
  return Math.max(0, raw - protection);
}

// ---------------------------------------------------------------------------------------------
// Health
// ---------------------------------------------------------------------------------------------

/** Health after damage, with the facts a Kill? check needs. */
export interface HealthAfterDamage {
  /** The new Health, in [0, max]. */
  readonly health: number;
  /** Health actually lost (never more than was left). */
  readonly lost: number;
  /** True when Health went from above 0 to 0 with this damage. */
  readonly reachedZero: boolean;
  /** True when Health was already 0 before this damage. */
  readonly wasAtZero: boolean;
  /** True when damage (> 0) was taken while Health was already 0 ("Negative Health damage" [001]). */
  readonly damagedAtZero: boolean;
}

function assertHealthPool(health: number, max: number): void {
  assertRankNumber(health, "health");
  assertRankNumber(max, "maximumHealth");
  if (health > max) {
    throw new RulesRangeError("healthAboveMax", { health, max });
  }
}

/** Health clamped to [0, max] (e.g. after the maximum fell with a lost Endurance rank). */
export function clampHealth(health: number, max: number): number {
  assertRankNumber(health, "health");
  assertRankNumber(max, "maximumHealth");
  return Math.min(health, max);
}

/**
 * Takes `damage` (after protection) off `health` [001]: never below 0. RangeError for invalid
 * numbers or Health above its maximum.
 */
export function applyDamageToHealth(health: number, max: number, damage: number): HealthAfterDamage {
  assertHealthPool(health, max);
  assertRankNumber(damage, "damage");
  const next = Math.max(0, health - damage);
  return {
    health: next,
    lost: health - next,
    reachedZero: health > 0 && next === 0,
    wasAtZero: health === 0,
    damagedAtZero: health === 0 && damage > 0,
  };
}

/** Heals `amount` Health: never above `max`. RangeError for invalid numbers. */
export function applyHealing(health: number, max: number, amount: number): number {
  assertHealthPool(health, max);
  assertRankNumber(amount, "healing");
  return Math.min(max, health + amount);
}

// ── Health as others see it ────────────────────────────────────────────────────────────────

/** The bands a character's Health is shown in where its numbers are secret. */
export const HEALTH_BANDS = ["full", "hurt", "badlyHurt", "down"] as const;
export type HealthBand = (typeof HEALTH_BANDS)[number];

/**
 * [RULING] The reference does not say what players may know of a foe's Health. A player sees a
 * character they do not own (an NPC) only as a band — unhurt, hurt (more than half left),
 * badly hurt (half or less), down (0) — never its numbers, as a player would judge a foe by
 * looking at it; the Judge and the owners see the numbers.
 */
export const HEALTH_SHOWN_TO_OTHERS = "band" as "band" | "none";

/** The band of `value` out of `max` (a max of 0 or less reads as down). */
export function healthBand(value: number, max: number): HealthBand {
  if (!Number.isFinite(value) || !Number.isFinite(max)) throw new RulesRangeError("healthNotFinite", { got: `${String(value)}/${String(max)}` });
  if (value <= 0 || max <= 0) return "down";
  if (value >= max) return "full";
  return value * 2 > max ? "hurt" : "badlyHurt";
}

/** How full the bar of a band is drawn (a band shows no more than its band). */
export const HEALTH_BAND_FILL: Readonly<Record<HealthBand, number>> = Object.freeze({ full: 1, hurt: 0.75, badlyHurt: 0.3, down: 0 });
