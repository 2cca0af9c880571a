/**
 * Setting up an attack (CASE-RULES §5): which score it rolls on, how much damage it deals
 * before protection, and the column shifts of range, obstacles and charging. The Foundry side
 * gathers the numbers from the actor and item; every decision is here.
 */
import { thrownRange } from "./abilities";
import { ATTACKS, bluntThrowingDamage, chargeToHitShift, obstaclePenalty, rangePenalty, type AttackCode } from "./attacks";
import { impactDamage } from "./impacts";
import { assertRankNumber } from "./ranks";
import { RulesRangeError } from "./errors";

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

/**
 * Each target's range shift, by its own distance in areas (board.ts `SEVERAL_TARGETS_RANGE`): −1 CS
 * per area beyond the attack's `range` (its {@link AttackSetup} range); 0 for an attack that is
 * not ranged. RangeError for a distance that is not a whole number of 0 or more.
 */
export function targetRangeShifts(attack: AttackCode, range: number | "sight", distances: readonly number[]): number[] {
  const reach = ATTACKS[attack].family !== "ranged" || range === "sight" ? Number.POSITIVE_INFINITY : range;
  return distances.map((d) => rangePenalty(d, reach));
}

/** Damage and situational shifts of an attack. RangeError for bad numbers. */
export function attackSetup(input: AttackSetupInput): AttackSetup {
  for (const [k, v] of [["itemRank", input.itemRank], ["strength", input.strength], ["endurance", input.endurance], ["bodyArmor", input.bodyArmor]] as const) assertRankNumber(v, k);
  for (const [k, v] of [["range", input.range], ["distance", input.distance], ["objects", input.objects], ["chargeAreas", input.chargeAreas]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RulesRangeError("notWholeAtLeast", { field: k, min: 0, got: String(v) });
  }
  const def = ATTACKS[input.attack];
  let damage: number;
  // The one impact rule [001] "works the same": a charge at a character deals what a charge at an object or a fall does.
  if (input.attack === "Ch") damage = impactDamage({ endurance: input.endurance, bodyArmor: input.bodyArmor, areas: Math.max(1, input.chargeAreas) });
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

/** One piece of armor a character wears: body protection and energy protection (rank numbers). */
export interface ArmorPiece {
  readonly body: number;
  readonly energy: number;
}

/**
 * [RULING] Armor does not stack: of the pieces worn, the best body protection and the best
 * energy protection count (CASE-RULES §5 gives one armor rank; the sources never add two).
 */
export const ARMOR_STACKS = false;

/** The protection a character's worn armor gives (§5, {@link ARMOR_STACKS}). RangeError for bad ranks. */
export function wornArmor(pieces: readonly ArmorPiece[], stacks = ARMOR_STACKS): ArmorPiece {
  let body = 0;
  let energy = 0;
  for (const p of pieces) {
    assertRankNumber(p.body, "bodyArmor");
    assertRankNumber(p.energy, "energyProtection");
    body = stacks ? body + p.body : Math.max(body, p.body);
    energy = stacks ? energy + p.energy : Math.max(energy, p.energy);
  }
  return { body, energy };
}

/**
 * The to-hit bonus an earlier yellow/red Evasion or Feint gives an attack (§6: "+1/+2 CS to the
 * evader's next action against that foe"). `bonuses` holds the bonus the attacker has against
 * each target (0 for none). [RULING] The bonus applies only when every target is such a foe
 * (an attack that also aims at others is not "against that foe"), and then the smallest counts.
 */
export function foeBonusShift(bonuses: readonly number[]): number {
  if (bonuses.length === 0) return 0;
  for (const b of bonuses) {
    if (!Number.isInteger(b) || b < 0) throw new RulesRangeError("notWholeAtLeast", { field: "foeBonus", min: 0, got: String(b) });
  }
  return bonuses.every((b) => b > 0) ? Math.min(...bonuses) : 0;
}
