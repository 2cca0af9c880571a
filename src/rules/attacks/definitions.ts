import { shiftColumn } from "../ranks";
import { COLORS, type Color, isColor } from "../universal-table";
import { RulesRangeError, type RulesFieldKey } from "../errors";
import { assertBooleanValue, refusal, type FieldRef } from "../checks";

// ── Codes, results and definitions ────────────────────────────────────────────────────────────
/** The ten attack codes of the Universal Table's effects row [001]. */
export const ATTACK_CODES = ["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Gb", "Gp", "Ch"] as const;

/** An attack code: Blunt/Edged Attack, Blunt/Edged Throwing, Energy, Force, Shooting, Grabbing, Grappling, Charging. */
export type AttackCode = (typeof ATTACK_CODES)[number];

/** Every result an attack roll can give [001]. */
export const ATTACK_RESULTS = [
  "miss",
  "hit",
  "slam",
  "stun",
  "kill",
  "bullseye",
  "take",
  "grab",
  "break",
  "partialHold",
  "fullHold",
] as const;

/** One result of an attack roll (a cell of the §5 table). */
export type AttackResult = (typeof ATTACK_RESULTS)[number];

/**
 * A sub-score a combat roll is made on, written "ability.sub" [001]. Attacks use the first four;
 * the defences (defences.ts) also use "fighting.def" and "agility.bal".
 */
export type CombatSubScore =
  | "fighting.off"
  | "fighting.def"
  | "agility.dex"
  | "agility.bal"
  | "strength.mgt"
  | "endurance.res";

/** Families of attack [001]: slugfest (melee), ranged, wrestling, charging. */
export type AttackFamily = "melee" | "ranged" | "wrestling" | "charging";

/**
 * What an attacker may lower after the roll ("pulling one's punch") [001]:
 * "damageOrColor" — the damage and/or the colour; "damage" — the damage only, never the colour;
 * "color" — the colour only (damage is set); "none" — nothing may be pulled.
 */
export type PullRule = "damageOrColor" | "damage" | "color" | "none";

/**
 * Where an attack's damage comes from [001; 000 for BT]:
 * "strengthOrWeapon" — Strength, or the weapon / physical weaponry (BA, EA);
 * "thrownItem" — the lesser of the thrower's Strength and the item's material strength (BT) [000];
 * "weapon" — the thrown weapon's rank (ET);
 * "powerOrWeapon" — the power or weapon rank (En, Fo, Sh);
 * "charge" — see {@link chargeDamage} (Ch);
 * "holdStrength" — a full hold's Strength, only if stronger (Gp) [RULING: the amount is the holder's Strength];
 * "none" — the attack itself deals no damage (Gb).
 */
export type AttackDamageSource = "strengthOrWeapon" | "thrownItem" | "weapon" | "powerOrWeapon" | "charge" | "holdStrength" | "none";

/** One row of the §5 attack table. */
export interface AttackDefinition {
  /** The attack code. */
  readonly code: AttackCode;
  /** English name, e.g. "Blunt Attack". */
  readonly name: string;
  /** The sub-score the to-hit roll is made on. */
  readonly rollsOn: CombatSubScore;
  /** Melee (slugfest), ranged, wrestling or charging. */
  readonly family: AttackFamily;
  /** The result of each colour. */
  readonly results: Readonly<Record<Color, AttackResult>>;
  /** What the attacker may pull. */
  readonly pull: PullRule;
  /** Where the damage comes from. */
  readonly damage: AttackDamageSource;
}

/**
 * [RULING] Edged Throwing: [001] says "you may not pull your punches on an edged throwing
 * attack"; [000] lets the thrower "inflict less damage". The primary text wins: no pulling.
 * Set to "damage" for the [000] rule.
 */
export const EDGED_THROWING_PULL_RULE: PullRule = "none";

type ResultRow = readonly [white: AttackResult, green: AttackResult, yellow: AttackResult, red: AttackResult];

function results([white, green, yellow, red]: ResultRow): Readonly<Record<Color, AttackResult>> {
  return Object.freeze({ white, green, yellow, red });
}

function define(
  code: AttackCode,
  name: string,
  rollsOn: CombatSubScore,
  family: AttackFamily,
  row: ResultRow,
  pull: PullRule,
  damage: AttackDamageSource,
): AttackDefinition {
  return Object.freeze({ code, name, rollsOn, family, results: results(row), pull, damage });
}

/** The §5 attack table [001; ET pull per {@link EDGED_THROWING_PULL_RULE}]. */
export const ATTACKS: Readonly<Record<AttackCode, AttackDefinition>> = Object.freeze({
  BA: define("BA", "Blunt Attack", "fighting.off", "melee", ["miss", "hit", "slam", "stun"], "damageOrColor", "strengthOrWeapon"),
  EA: define("EA", "Edged Attack", "fighting.off", "melee", ["miss", "hit", "stun", "kill"], "none", "strengthOrWeapon"),
  BT: define("BT", "Blunt Throwing", "agility.dex", "ranged", ["miss", "hit", "bullseye", "stun"], "damageOrColor", "thrownItem"),
  ET: define("ET", "Edged Throwing", "agility.dex", "ranged", ["miss", "hit", "stun", "kill"], EDGED_THROWING_PULL_RULE, "weapon"),
  En: define("En", "Energy", "agility.dex", "ranged", ["miss", "hit", "bullseye", "kill"], "damage", "powerOrWeapon"),
  Fo: define("Fo", "Force", "agility.dex", "ranged", ["miss", "hit", "bullseye", "stun"], "damage", "powerOrWeapon"),
  Sh: define("Sh", "Shooting", "agility.dex", "ranged", ["miss", "hit", "bullseye", "kill"], "none", "powerOrWeapon"),
  Gb: define("Gb", "Grabbing", "strength.mgt", "wrestling", ["miss", "take", "grab", "break"], "none", "none"),
  Gp: define("Gp", "Grappling", "strength.mgt", "wrestling", ["miss", "miss", "partialHold", "fullHold"], "none", "holdStrength"),
  Ch: define("Ch", "Charging", "endurance.res", "charging", ["miss", "hit", "slam", "stun"], "color", "charge"),
});

// ── Validation ────────────────────────────────────────────────────────────────────────────────
// The checks below are switches on the string constants, not a search of the list: V8 compares
// a string with a constant by identity, and an attack runs dozens of these checks (a list's
// `includes` or a Set cost about a sixth of a whole attack). Each switch names every member of its
// list: the `never` in its default fails to compile when one is missing, a case that is no
// member fails too, and test/rules/fast-paths.test.ts holds each to its list.

/** True when `value` is one of {@link ATTACK_CODES}. */
export function isAttackCode(value: unknown): value is AttackCode {
  const code = value as AttackCode;
  switch (code) {
    case "BA":
    case "EA":
    case "BT":
    case "ET":
    case "En":
    case "Fo":
    case "Sh":
    case "Gb":
    case "Gp":
    case "Ch":
      return true;
    default: {
      const _unlisted: never = code;
      return false;
    }
  }
}

/** Throws a RangeError naming `value` unless it is an attack code. */
export function assertAttackCode(value: unknown): asserts value is AttackCode {
  if (!isAttackCode(value)) {
    throw new RulesRangeError("unknownAttackCode", { got: String(value), allowed: ATTACK_CODES.join(", ") });
  }
}

/** Throws a RangeError naming `value` unless it is a Universal Table colour. `field` names it. */
export function assertColor(value: unknown, field: FieldRef = "colour"): asserts value is Color {
  if (!isColor(value)) {
    throw new RulesRangeError(...refusal("notOneOf", field, { allowed: COLORS.join(", "), got: `"${String(value)}"` }));
  }
}

/** True when `value` is one of {@link ATTACK_RESULTS}. */
export function isAttackResult(value: unknown): value is AttackResult {
  const result = value as AttackResult;
  switch (result) {
    case "miss":
    case "hit":
    case "slam":
    case "stun":
    case "kill":
    case "bullseye":
    case "take":
    case "grab":
    case "break":
    case "partialHold":
    case "fullHold":
      return true;
    default: {
      const _unlisted: never = result;
      return false;
    }
  }
}

/** Throws a RangeError naming `value` unless it is an attack result. */
export function assertAttackResult(value: unknown): asserts value is AttackResult {
  if (!isAttackResult(value)) {
    throw new RulesRangeError("unknownAttackResult", { got: String(value), allowed: ATTACK_RESULTS.join(", ") });
  }
}

/** Throws a RangeError unless `value` is a whole number ≥ `min`. `field` names the value. */
export function assertWhole(value: number, field: RulesFieldKey, min = 0): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new RulesRangeError("notWholeAtLeast", { field, min, got: String(value) });
  }
}

export function assertBoolean(value: unknown, field: FieldRef): asserts value is boolean {
  assertBooleanValue(value, field);
}

// ── Results ───────────────────────────────────────────────────────────────────────────────────
/** The definition of an attack code. RangeError for an unknown code. */
export function attackDefinition(attack: AttackCode): AttackDefinition {
  assertAttackCode(attack);
  return ATTACKS[attack];
}

/** The result of a to-hit roll of `color` with `attack` (a cell of the §5 table) [001]. */
export function attackResult(attack: AttackCode, color: Color): AttackResult {
  assertAttackCode(attack);
  assertColor(color, "attackColour");
  return ATTACKS[attack].results[color];
}

/** Hit-like results: the attack connects and deals damage (hit, slam, stun, kill, bullseye) [001]. */
export const HIT_RESULTS: readonly AttackResult[] = Object.freeze(["hit", "slam", "stun", "kill", "bullseye"]);

/** Grabbing results (Gb) [001]: take (grab only if stronger), grab, break. */
export const GRAB_RESULTS: readonly AttackResult[] = Object.freeze(["take", "grab", "break"]);

/** Grappling holds (Gp) [001]. */
export const HOLD_RESULTS: readonly AttackResult[] = Object.freeze(["partialHold", "fullHold"]);

/** True for the hit-like results that deal damage: hit, slam, stun, kill, bullseye [001]. */
export function isHit(result: AttackResult): boolean {
  assertAttackResult(result);
  // {@link HIT_RESULTS} as a switch (every attack reads it; see Validation above).
  switch (result) {
    case "hit":
    case "slam":
    case "stun":
    case "kill":
    case "bullseye":
      return true;
    default:
      return false;
  }
}

/** True for the grabbing results take, grab and break [001]. */
export function isGrabResult(result: AttackResult): boolean {
  assertAttackResult(result);
  return GRAB_RESULTS.includes(result);
}

/** True for the grappling results partialHold and fullHold [001]. */
export function isHoldResult(result: AttackResult): boolean {
  assertAttackResult(result);
  return HOLD_RESULTS.includes(result);
}

/** True for a miss. */
export function isMiss(result: AttackResult): boolean {
  assertAttackResult(result);
  return result === "miss";
}

/**
 * True when a to-hit roll can succeed at all: the attacker's rank number `value` after `cs`
 * column shifts (dodge, weave, range, obstacles, charge bonus …) is still on the ladder. A column
 * pushed below Shift 0 cannot hit [001: "drop one's 'to hit' score below Shift 0, thus making the
 * scoring of a hit … impossible"].
 */
export function toHitPossible(value: number, cs: number): boolean {
  return !shiftColumn(value, cs).belowShift0;
}

/** [001] A partial hold: −2 CS on all actions of the held. */
export const PARTIAL_HOLD_CS = -2;
