/**
 * Ammunition (CASE-RULES §4 wrap-up: "count ammunition (if applicable)" [001]). A weapon either
 * has none to count (`null`: fists, most powers, a bow with a quiver nobody counts) or a
 * magazine with a capacity. An attack spends its shots; an empty weapon refuses with a reason
 * the card shows (lang key `CASE.Ammunition.<reason>`); a reload fills it to capacity.
 */
import { assertAttackCode, type AttackCode } from "./attacks";
import { assertObject, assertWholeNumber } from "./checks";
import { RulesRangeError } from "./errors";

/** A weapon's ammunition: shots left and its capacity. `null` for a weapon that never runs out. */
export interface Ammunition {
  readonly current: number;
  readonly capacity: number;
}

/** [RULING] Shots one attack spends when the weapon says nothing [FASERIP: one shot per attack]. */
export const SHOTS_PER_ATTACK_DEFAULT = 1;

/**
 * [RULING] Shots per attack by attack type, where a type differs from
 * {@link SHOTS_PER_ATTACK_DEFAULT}. Empty by default: every attack type spends one shot; a
 * setting or a weapon (a burst-firing gun: Sh 3) overrides it.
 */
export const SHOTS_PER_ATTACK_BY_TYPE: Readonly<Partial<Record<AttackCode, number>>> = Object.freeze({});

/**
 * [RULING] A shot is spent when the attack is made, hit or miss (a miss "strikes something by or
 * behind the target" [001]); the wrap-up only counts what the cards spent.
 */
export const AMMUNITION_SPENT_ON_MISS = true as boolean;

/** Throws unless `ammo` is `null` or a whole-number {@link Ammunition} with current ≤ capacity. */
export function assertAmmunition(ammo: unknown): asserts ammo is Ammunition | null {
  if (ammo === null) return;
  assertObject(ammo, { input: "ammunition" });
  assertWholeNumber(ammo["capacity"], "ammunitionCapacity", 1);
  assertWholeNumber(ammo["current"], "ammunitionLeft");
  if (ammo["current"] > ammo["capacity"]) {
    throw new RulesRangeError("ammoOverCapacity", { left: ammo["current"], capacity: ammo["capacity"] });
  }
}

/**
 * Shots an attack of type `attack` spends: the weapon's own figure (`weaponShots`) if it has
 * one, else {@link SHOTS_PER_ATTACK_BY_TYPE}, else {@link SHOTS_PER_ATTACK_DEFAULT}; times the
 * number of attacks in a flurry (`attacks`, default 1).
 */
export function shotsPerAttack(
  attack: AttackCode,
  options: { readonly weaponShots?: number; readonly attacks?: number; readonly byType?: Readonly<Partial<Record<AttackCode, number>>> } = {},
): number {
  assertAttackCode(attack);
  const byType = options.byType ?? SHOTS_PER_ATTACK_BY_TYPE;
  const perAttack = options.weaponShots ?? byType[attack] ?? SHOTS_PER_ATTACK_DEFAULT;
  assertWholeNumber(perAttack, "shotsPerAttack", 1);
  const attacks = options.attacks ?? 1;
  assertWholeNumber(attacks, "attacks", 1);
  return perAttack * attacks;
}

/** Why a weapon may not fire: empty, or fewer shots left than the attack needs. */
export type AmmunitionRefusal = "empty" | "notEnough";

/** The answer of {@link mayFire}. */
export type FireCheck =
  | { readonly ok: true; readonly shots: number }
  | { readonly ok: false; readonly reason: AmmunitionRefusal; readonly shots: number; readonly left: number };

/** Whether a weapon with `ammo` may make an attack spending `shots`. `null` (no ammunition) never refuses. */
export function mayFire(ammo: Ammunition | null, shots = SHOTS_PER_ATTACK_DEFAULT): FireCheck {
  assertAmmunition(ammo);
  assertWholeNumber(shots, "shots", 1);
  if (ammo === null || ammo.current >= shots) return { ok: true, shots };
  return { ok: false, reason: ammo.current === 0 ? "empty" : "notEnough", shots, left: ammo.current };
}

/**
 * The ammunition after an attack spends `shots` (RangeError naming the refusal when it may not
 * fire; `null` stays `null`).
 */
export function spendAmmunition(ammo: Ammunition | null, shots = SHOTS_PER_ATTACK_DEFAULT): Ammunition | null {
  const check = mayFire(ammo, shots);
  if (!check.ok) {
    throw check.reason === "empty" ? new RulesRangeError("ammoEmpty") : new RulesRangeError("ammoTooFew", { shots: check.shots, left: check.left });
  }
  return ammo === null ? null : { current: ammo.current - shots, capacity: ammo.capacity };
}

/** A reload: back to capacity (`null` stays `null`). */
export function reload(ammo: Ammunition | null): Ammunition | null {
  assertAmmunition(ammo);
  return ammo === null ? null : { current: ammo.capacity, capacity: ammo.capacity };
}
