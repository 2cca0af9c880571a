/**
 * Attacks (CASE-RULES §5): the ten attack codes, what each rolls on, what each colour means,
 * pulling punches, called shots, charging, ranged penalties, thrown damage, grabbing and holds.
 *
 * Sources: [001] CASE "Time and Combat" (primary), [000] the classic FASERIP-style text on
 * dodging, catching and attack results, [FASERIP] classic defaults, [RULING] our own decision
 * where the sources are silent or disagree — every ruling is an exported constant. Functions
 * that depend on a ruling take an optional last `rulings` argument ({@link AttackRulings}) so a
 * world setting can pass its own choice; left out, the constant applies.
 */
import { assertRankNumber, rankByKey, rankOf, shiftColumn, type RankKey } from "./ranks";
import { COLORS, colorIndex, isColor, type Color } from "./universal-table";

// ---------------------------------------------------------------------------------------------
// Codes, results and definitions
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/** True when `value` is one of {@link ATTACK_CODES}. */
export function isAttackCode(value: unknown): value is AttackCode {
  return typeof value === "string" && (ATTACK_CODES as readonly string[]).includes(value);
}

/** Throws a RangeError naming `value` unless it is an attack code. */
export function assertAttackCode(value: unknown): asserts value is AttackCode {
  if (!isAttackCode(value)) {
    throw new RangeError(`Unknown attack code "${String(value)}". Known codes: ${ATTACK_CODES.join(", ")}.`);
  }
}

/** Throws a RangeError naming `value` unless it is a Universal Table colour. `what` names it. */
export function assertColor(value: unknown, what = "Colour"): asserts value is Color {
  if (!isColor(value)) {
    throw new RangeError(`${what} must be one of ${COLORS.join(", ")}, got "${String(value)}".`);
  }
}

/** True when `value` is one of {@link ATTACK_RESULTS}. */
export function isAttackResult(value: unknown): value is AttackResult {
  return typeof value === "string" && (ATTACK_RESULTS as readonly string[]).includes(value);
}

/** Throws a RangeError naming `value` unless it is an attack result. */
export function assertAttackResult(value: unknown): asserts value is AttackResult {
  if (!isAttackResult(value)) {
    throw new RangeError(`Unknown attack result "${String(value)}". Known results: ${ATTACK_RESULTS.join(", ")}.`);
  }
}

/** Throws a RangeError unless `value` is a whole number ≥ `min`. `what` names the value. */
function assertWhole(value: number, what: string, min = 0): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${what} must be a whole number ≥ ${min}, got ${String(value)}.`);
  }
}

function assertBoolean(value: unknown, what: string): asserts value is boolean {
  if (typeof value !== "boolean") throw new TypeError(`${what} must be true or false, got ${String(value)}.`);
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/** The definition of an attack code. RangeError for an unknown code. */
export function attackDefinition(attack: AttackCode): AttackDefinition {
  assertAttackCode(attack);
  return ATTACKS[attack];
}

/** The result of a to-hit roll of `color` with `attack` (a cell of the §5 table) [001]. */
export function attackResult(attack: AttackCode, color: Color): AttackResult {
  assertAttackCode(attack);
  assertColor(color, "Attack colour");
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
  return HIT_RESULTS.includes(result);
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

// ---------------------------------------------------------------------------------------------
// Called shots
// ---------------------------------------------------------------------------------------------

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
    throw new RangeError(`A called shot needs an attack with a Bullseye result; "${attack}" has none.`);
  }
  assertColor(color, "Attack colour");
  assertBoolean(redSucceeds, "redSucceeds");
  if (calledShotSucceeds(attackResult(attack, color))) return true;
  return redSucceeds && color === "red";
}

/**
 * Whether a result strikes what the attacker aimed at: without a called shot a Bullseye is just
 * a hit (any hit-like result counts); with a called shot only a Bullseye does [001].
 */
export function countsAsHit(result: AttackResult, calledShot = false): boolean {
  assertBoolean(calledShot, "calledShot");
  return calledShot ? calledShotSucceeds(result) : isHit(result);
}

// ---------------------------------------------------------------------------------------------
// Pulling punches
// ---------------------------------------------------------------------------------------------

/**
 * [RULING] Whether a pull may go all the way down to white (choosing to miss). The sources allow
 * lowering "the color result" without a floor. Default true.
 */
export const PULL_TO_MISS_ALLOWED = true as boolean;

/**
 * [RULING] Whether an attack with pull rule "damageOrColor" may lower both the damage and the
 * colour in one attack. [001] offers "the option of either reducing the damage inflicted or the
 * color result"; we read "either … or" as a choice of tools, not an exclusive one. Default true.
 */
export const PULL_DAMAGE_AND_COLOR_TOGETHER = true as boolean;

/**
 * The pull rule of an attack [001; ET per {@link EDGED_THROWING_PULL_RULE}, or
 * `rulings.edgedThrowingPull` when given].
 */
export function pullRule(attack: AttackCode, rulings: Partial<AttackRulings> = {}): PullRule {
  const def = attackDefinition(attack);
  return attack === "ET" ? resolveAttackRulings(rulings).edgedThrowingPull : def.pull;
}

/** True when the attack's pull rule lets the attacker lower the colour [001]. */
export function mayPullColor(attack: AttackCode, rulings: Partial<AttackRulings> = {}): boolean {
  const rule = pullRule(attack, rulings);
  return rule === "damageOrColor" || rule === "color";
}

/** True when the attack's pull rule lets the attacker lower the damage [001]. */
export function mayPullDamage(attack: AttackCode, rulings: Partial<AttackRulings> = {}): boolean {
  const rule = pullRule(attack, rulings);
  return rule === "damageOrColor" || rule === "damage";
}

/**
 * Pulling the colour: the attacker declared a pulled punch and, after the roll, takes `chosen`
 * instead of `rolled`. Returns `chosen`. Throws a RangeError when the attack may not pull its
 * colour, when `chosen` is better than `rolled`, or when `chosen` is white and
 * {@link PULL_TO_MISS_ALLOWED} is false [001].
 */
export function pullColor(attack: AttackCode, rolled: Color, chosen: Color, rulings: Partial<AttackRulings> = {}): Color {
  assertAttackCode(attack);
  assertColor(rolled, "Rolled colour");
  assertColor(chosen, "Chosen colour");
  const r = resolveAttackRulings(rulings);
  if (!mayPullColor(attack, r)) {
    throw new RangeError(`${ATTACKS[attack].name} (${attack}) may not pull its colour (pull rule "${pullRule(attack, r)}").`);
  }
  if (colorIndex(chosen) > colorIndex(rolled)) {
    throw new RangeError(`A pull can only lower the colour: chose ${chosen} but rolled ${rolled}.`);
  }
  if (chosen === "white" && rolled !== "white" && !r.pullToMissAllowed) {
    throw new RangeError("Pulling down to a white miss is not allowed (PULL_TO_MISS_ALLOWED is false).");
  }
  return chosen;
}

/**
 * Pulling the damage: the attacker deals `chosen` points instead of the full `damage`. Returns
 * `chosen`. Throws a RangeError when the attack may not pull damage or `chosen` is not a whole
 * number from 0 to `damage` [001; 000].
 */
export function pullDamage(attack: AttackCode, damage: number, chosen: number, rulings: Partial<AttackRulings> = {}): number {
  assertAttackCode(attack);
  assertRankNumber(damage, "Damage");
  assertRankNumber(chosen, "Pulled damage");
  const r = resolveAttackRulings(rulings);
  if (!mayPullDamage(attack, r)) {
    throw new RangeError(`${ATTACKS[attack].name} (${attack}) may not pull its damage (pull rule "${pullRule(attack, r)}").`);
  }
  if (chosen > damage) {
    throw new RangeError(`A pull can only lower the damage: chose ${chosen} but the attack deals ${damage}.`);
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
  rulings: Partial<AttackRulings> = {},
): { readonly color: Color; readonly damage: number } {
  const { rolled, damage, chosenColor, chosenDamage } = request;
  const r = resolveAttackRulings(rulings);
  const pullsColor = chosenColor !== undefined && chosenColor !== rolled;
  const pullsDamage = chosenDamage !== undefined && chosenDamage !== damage;
  if (pullsColor && pullsDamage && !r.pullDamageAndColorTogether) {
    throw new RangeError("Pull either the damage or the colour, not both (PULL_DAMAGE_AND_COLOR_TOGETHER is false).");
  }
  assertAttackCode(attack);
  assertColor(rolled, "Rolled colour");
  assertRankNumber(damage, "Damage");
  // Choosing exactly what was rolled is no pull at all, so it is allowed for every attack.
  const color = pullsColor ? pullColor(attack, rolled, chosenColor, r) : rolled;
  const dealt = pullsDamage ? pullDamage(attack, damage, chosenDamage, r) : damage;
  return { color, damage: dealt };
}

// ---------------------------------------------------------------------------------------------
// Charging
// ---------------------------------------------------------------------------------------------

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

/**
 * [RULING] The rebound a charger takes (the target's body armor) is itself damage that the
 * charger's own body armor absorbs ([001]: "If he or she also possesses like armor, this damage
 * will be radiated out"). Default true; false means the charger always takes the full rebound.
 */
export const CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR = true as boolean;

function assertChargeAreas(areas: number): void {
  assertWhole(areas, `Areas moved before a charge (at least ${CHARGE_MIN_AREAS})`, CHARGE_MIN_AREAS);
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
  assertRankNumber(endurance, "Endurance");
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
  assertRankNumber(endurance, "Endurance");
  assertRankNumber(bodyArmor, "Body armor");
  assertChargeAreas(areas);
  const base = Math.max(endurance, bodyArmor);
  return base + Math.min(areas * CHARGE_DAMAGE_PER_AREA, base);
}

/**
 * The damage a charger takes back from a target with body armor (or an object's material
 * strength): the target's armor value [001], less the charger's own body armor when
 * {@link CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR}, never below 0.
 */
export function chargeReboundDamage(targetArmor: number, chargerArmor = 0, rulings: Partial<AttackRulings> = {}): number {
  assertRankNumber(targetArmor, "Target's body armor");
  assertRankNumber(chargerArmor, "Charger's body armor");
  return resolveAttackRulings(rulings).chargeReboundAbsorbed ? Math.max(0, targetArmor - chargerArmor) : targetArmor;
}

// ---------------------------------------------------------------------------------------------
// Ranged attacks
// ---------------------------------------------------------------------------------------------

/** [001] −1 CS to hit for each area beyond the attack's range. */
export const RANGE_CS_PER_AREA = -1;

/** [001] −2 CS to hit for each object in the attack's path. */
export const OBSTACLE_CS_PER_OBJECT = -2;

/**
 * The range penalty [001]: −1 CS per whole area of `distance` beyond `range` (areas). `range`
 * may be Infinity (line of sight). 0 within range.
 */
export function rangePenalty(distance: number, range: number): number {
  assertWhole(distance, "Distance in areas");
  if (range !== Number.POSITIVE_INFINITY) assertWhole(range, "Range in areas");
  const beyond = distance - range;
  return beyond > 0 ? beyond * RANGE_CS_PER_AREA : 0;
}

/** The obstacle penalty [001]: −2 CS per object in the path. */
export function obstaclePenalty(objects: number): number {
  assertWhole(objects, "Number of objects in the path");
  return objects === 0 ? 0 : objects * OBSTACLE_CS_PER_OBJECT;
}

/**
 * Damage left after passing through objects in the path [001]: each object's material strength
 * is subtracted from the damage before it reaches the target; never below 0.
 */
export function damageThroughObstacles(damage: number, materialStrengths: readonly number[]): number {
  assertRankNumber(damage, "Damage");
  const list: unknown = materialStrengths;
  if (!Array.isArray(list)) throw new TypeError(`materialStrengths must be an array of rank numbers, got ${String(list)}.`);
  let left = damage;
  materialStrengths.forEach((ms, i) => {
    assertRankNumber(ms, `Material strength of object ${i + 1}`);
    left -= ms;
  });
  return Math.max(0, left);
}

/**
 * True when a miss with this attack may strike someone adjacent to the target (roll for each)
 * [001]: ranged attacks only.
 */
export function missMayStrikeOthers(attack: AttackCode): boolean {
  return attackDefinition(attack).family === "ranged";
}

/**
 * Blunt Throwing damage [000]: the lesser of the thrower's Strength and the thrown item's
 * material strength.
 */
export function bluntThrowingDamage(throwerStrength: number, itemMaterialStrength: number): number {
  assertRankNumber(throwerStrength, "Thrower's Strength");
  assertRankNumber(itemMaterialStrength, "Item's material strength");
  return Math.min(throwerStrength, itemMaterialStrength);
}

// ---------------------------------------------------------------------------------------------
// Wrestling: grabbing and holds
// ---------------------------------------------------------------------------------------------

/**
 * [RULING] How "stronger" is judged in Take and full-hold damage: "number" compares rank
 * numbers (31 beats 30); "rank" compares ranks (columns) only (31 and 30 are both Remarkable,
 * so neither beats the other). [001] says "if their Strength is greater". Default "number".
 */
export const STRENGTH_CONTEST_BY: StrengthContestMode = "number";

/** The two ways of judging "stronger": by rank number or by rank (column). */
export type StrengthContestMode = "number" | "rank";

/** Every {@link StrengthContestMode}. */
export const STRENGTH_CONTEST_MODES: readonly StrengthContestMode[] = Object.freeze(["number", "rank"]);

/** True when Strength `a` beats Strength `b` strictly, per {@link STRENGTH_CONTEST_BY}. */
export function strengthBeats(a: number, b: number, by: StrengthContestMode = STRENGTH_CONTEST_BY): boolean {
  assertRankNumber(a, "Strength");
  assertRankNumber(b, "Opposing Strength");
  if (!STRENGTH_CONTEST_MODES.includes(by)) {
    throw new RangeError(`Strength contest must be "number" or "rank", got "${by}".`);
  }
  return by === "rank" ? rankOf(a).index > rankOf(b).index : a > b;
}

/**
 * Take (a green Grabbing roll) [001]: the grabber gets the item only if their Strength is
 * strictly greater than the holder's (or the item's material strength, if not held).
 */
export function takeSucceeds(grabberStrength: number, holderStrengthOrMS: number, rulings: Partial<AttackRulings> = {}): boolean {
  return strengthBeats(grabberStrength, holderStrengthOrMS, resolveAttackRulings(rulings).strengthContestBy);
}

/**
 * The outcome of a Take [001]: "grabbed", else "struggle" with the holder — or "miss" when the
 * item was loose (not held by anyone: "if 'loose', treat as a miss result instead").
 */
export function takeOutcome(
  grabberStrength: number,
  holderStrengthOrMS: number,
  itemLoose = false,
  rulings: Partial<AttackRulings> = {},
): "grabbed" | "struggle" | "miss" {
  assertBoolean(itemLoose, "itemLoose");
  if (takeSucceeds(grabberStrength, holderStrengthOrMS, rulings)) return "grabbed";
  return itemLoose ? "miss" : "struggle";
}

/** [001] A partial hold: −2 CS on all actions of the held. */
export const PARTIAL_HOLD_CS = -2;

/**
 * [RULING] A full hold's CS on the held's actions (other than Escape, which it allows). [001]
 * says only that the held "cannot move at all"; a full hold is never milder than a partial one,
 * so it carries the same −2 CS.
 */
export const FULL_HOLD_CS = PARTIAL_HOLD_CS;

/** [001] Besides keeping the hold, the holder may take this many other actions each turn. */
export const HOLDER_OTHER_ACTIONS = 1;

/** A hold a character is in: none, partial or full. */
export type HoldState = "none" | "partialHold" | "fullHold";

/** The effects of a hold on the held and the holder [001; FULL_HOLD_CS is a RULING]. */
export interface HoldEffects {
  /** Column shift on all actions of the held. */
  readonly heldActionCs: number;
  /** Whether the held may move. */
  readonly heldCanMove: boolean;
  /** Other actions the holder may take each turn while keeping the hold. */
  readonly holderOtherActions: number;
}

/** The effects of a hold [001]. RangeError for an unknown hold state. */
export function holdEffects(hold: HoldState, rulings: Partial<AttackRulings> = {}): HoldEffects {
  const r = resolveAttackRulings(rulings);
  switch (hold) {
    case "none":
      return { heldActionCs: 0, heldCanMove: true, holderOtherActions: 0 };
    case "partialHold":
      return { heldActionCs: PARTIAL_HOLD_CS, heldCanMove: true, holderOtherActions: HOLDER_OTHER_ACTIONS };
    case "fullHold":
      return { heldActionCs: r.fullHoldCs, heldCanMove: false, holderOtherActions: HOLDER_OTHER_ACTIONS };
    default: {
      const bad: unknown = hold;
      throw new RangeError(`Unknown hold state "${String(bad)}". Known: none, partialHold, fullHold.`);
    }
  }
}

/**
 * Full hold damage [001]: the holder deals damage (its Strength, less the held's body armor) only
 * if stronger than the held, per {@link STRENGTH_CONTEST_BY}.
 */
export function fullHoldDealsDamage(holderStrength: number, heldStrength: number, rulings: Partial<AttackRulings> = {}): boolean {
  return strengthBeats(holderStrength, heldStrength, resolveAttackRulings(rulings).strengthContestBy);
}

// ---------------------------------------------------------------------------------------------
// Blindsiding
// ---------------------------------------------------------------------------------------------

/** The circumstances of an incoming attack that decide whether it can be defended. */
export interface DefendContext {
  /** The target is unaware of the attack (sniper, ally, someone behind) [000]. */
  readonly blindsided: boolean;
}

/** A blindsided attack cannot be dodged or otherwise defended [000]. */
export function canDefend({ blindsided }: DefendContext): boolean {
  assertBoolean(blindsided, "blindsided");
  return !blindsided;
}

// ---------------------------------------------------------------------------------------------
// Rulings as data (for world settings)
// ---------------------------------------------------------------------------------------------

/**
 * The [RULING] choices of this module as one object, so a world setting or a module can pass
 * its own values to the functions that take an optional `rulings` argument. Any field left out
 * takes the exported constant's value.
 */
export interface AttackRulings {
  /** {@link EDGED_THROWING_PULL_RULE}. */
  readonly edgedThrowingPull: PullRule;
  /** {@link PULL_TO_MISS_ALLOWED}. */
  readonly pullToMissAllowed: boolean;
  /** {@link PULL_DAMAGE_AND_COLOR_TOGETHER}. */
  readonly pullDamageAndColorTogether: boolean;
  /** {@link CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR}. */
  readonly chargeReboundAbsorbed: boolean;
  /** {@link STRENGTH_CONTEST_BY}. */
  readonly strengthContestBy: StrengthContestMode;
  /** {@link FULL_HOLD_CS}. */
  readonly fullHoldCs: number;
}

/** The default rulings: the exported constants. */
export const DEFAULT_ATTACK_RULINGS: AttackRulings = Object.freeze({
  edgedThrowingPull: EDGED_THROWING_PULL_RULE,
  pullToMissAllowed: PULL_TO_MISS_ALLOWED,
  pullDamageAndColorTogether: PULL_DAMAGE_AND_COLOR_TOGETHER,
  chargeReboundAbsorbed: CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR,
  strengthContestBy: STRENGTH_CONTEST_BY,
  fullHoldCs: FULL_HOLD_CS,
});

const PULL_RULES: readonly PullRule[] = ["damageOrColor", "damage", "color", "none"];

/**
 * The defaults overlaid with `overrides`, each override checked (RangeError/TypeError naming the
 * field and value).
 */
export function resolveAttackRulings(overrides: Partial<AttackRulings> = {}): AttackRulings {
  const given: unknown = overrides;
  if (typeof given !== "object" || given === null) {
    throw new TypeError(`Attack rulings must be an object, got ${String(given)}.`);
  }
  const r: AttackRulings = { ...DEFAULT_ATTACK_RULINGS, ...overrides };
  if (!PULL_RULES.includes(r.edgedThrowingPull)) {
    throw new RangeError(`rulings.edgedThrowingPull must be one of ${PULL_RULES.join(", ")}, got "${r.edgedThrowingPull}".`);
  }
  assertBoolean(r.pullToMissAllowed, "rulings.pullToMissAllowed");
  assertBoolean(r.pullDamageAndColorTogether, "rulings.pullDamageAndColorTogether");
  assertBoolean(r.chargeReboundAbsorbed, "rulings.chargeReboundAbsorbed");
  if (!STRENGTH_CONTEST_MODES.includes(r.strengthContestBy)) {
    throw new RangeError(`rulings.strengthContestBy must be "number" or "rank", got "${r.strengthContestBy}".`);
  }
  if (!Number.isInteger(r.fullHoldCs)) throw new RangeError(`rulings.fullHoldCs must be a whole number, got ${String(r.fullHoldCs)}.`);
  return r;
}
