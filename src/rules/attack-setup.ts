/**
 * Setting up an attack (CASE-RULES §5): which score it rolls on, how much damage it deals
 * before protection, and the column shifts of range, obstacles and charging. The Foundry side
 * gathers the numbers from the actor and item; every decision is here.
 */
import { thrownRange } from "./abilities";
import { ATTACKS, bluntThrowingDamage, chargeDamage, chargeToHitShift, obstaclePenalty, rangePenalty, type AttackCode } from "./attacks";
import { assertRankNumber } from "./ranks";

/** How a weapon's or power's damage is found. */
export type DamageBasis = "strength" | "rank";

export interface AttackSetupInput {
  readonly attack: AttackCode;
  /** "strength": the wielder's Str (mgt) (fists, clubs, thrown objects); "rank": the item's own rank. */
  readonly basis: DamageBasis;
  /** The item's rank number (power rank or weapon damage). */
  readonly itemRank: number;
  /** The thrown item's material strength (BT with a "rank" basis: damage is the lesser of it and Strength [000]). */
  readonly materialStrength?: number | undefined;
  readonly strength: number;
  readonly endurance: number;
  readonly bodyArmor: number;
  /** The item's range in areas (0 = melee / touch; thrown items use Table 24 by Strength). */
  readonly range: number;
  /** Distance to the target in areas. */
  readonly distance: number;
  /** Objects in the path of a ranged attack. */
  readonly objects: number;
  /** Areas moved before a charge. */
  readonly chargeAreas: number;
}

export interface AttackSetup {
  /** Damage before protection (static; intensity damage reads this rank's column). */
  readonly damage: number;
  /** The to-hit shifts the situation gives, each with a reason code. */
  readonly shifts: readonly { readonly cs: number; readonly reason: "range" | "objects" | "charge" }[];
  /** The range that applies, in areas ("sight" for line of sight). */
  readonly range: number | "sight";
}

/** The attack families that throw the thing they attack with (range from Table 24). */
export function isThrown(attack: AttackCode): boolean {
  return attack === "BT" || attack === "ET";
}

/** Damage and situational shifts of an attack. RangeError for bad numbers. */
export function attackSetup(input: AttackSetupInput): AttackSetup {
  for (const [k, v] of [["Item rank", input.itemRank], ["Strength", input.strength], ["Endurance", input.endurance], ["Body armor", input.bodyArmor]] as const) assertRankNumber(v, k);
  for (const [k, v] of [["Range", input.range], ["Distance", input.distance], ["Objects", input.objects], ["Charge areas", input.chargeAreas]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${k} must be a whole number of 0 or more, got ${String(v)}.`);
  }
  const def = ATTACKS[input.attack];
  let damage: number;
  if (input.attack === "Ch") damage = chargeDamage({ endurance: input.endurance, bodyArmor: input.bodyArmor, areas: Math.max(1, input.chargeAreas) });
  else if (input.basis === "strength") damage = input.strength;
  else if (input.attack === "BT" && input.materialStrength !== undefined) damage = bluntThrowingDamage(input.strength, input.materialStrength);
  else damage = input.itemRank;

  const shifts: { cs: number; reason: "range" | "objects" | "charge" }[] = [];
  let range: number | "sight" = input.range;
  if (def.family === "ranged") {
    range = isThrown(input.attack) ? thrownRange(input.strength) : input.range;
    const r = rangePenalty(input.distance, range === "sight" ? Number.POSITIVE_INFINITY : range);
    if (r !== 0) shifts.push({ cs: r, reason: "range" });
    const o = obstaclePenalty(input.objects);
    if (o !== 0) shifts.push({ cs: o, reason: "objects" });
  }
  if (input.attack === "Ch") {
    const c = chargeToHitShift(Math.max(1, input.chargeAreas), input.endurance);
    if (c !== 0) shifts.push({ cs: c, reason: "charge" });
  }
  return { damage, shifts, range };
}

/**
 * [RULING] What a Catch would catch, by attack type: thrown things are "thrown" projectiles
 * (Remarkable Agility), shots are bullets (Unearthly); energy and force cannot be caught.
 * A weapon may say otherwise (a bow's arrows).
 */
export const PROJECTILE_BY_ATTACK: Readonly<Partial<Record<AttackCode, "bullet" | "arrow" | "thrown" | "falling">>> = Object.freeze({
  BT: "thrown",
  ET: "thrown",
  Sh: "bullet",
});
