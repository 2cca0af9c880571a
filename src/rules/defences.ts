/**
 * Defences (CASE-RULES §6): the eight defensive manoeuvres, what they roll on, which attacks
 * they work against, and what each colour gives the defender.
 *
 * Sources: [001] CASE "Time and Combat" (primary), [000] the classic text on dodging and
 * catching, [RULING] our own decision where the sources are silent or disagree. Functions that
 * depend on a ruling take an optional last `rulings` argument ({@link DefenceRulings}); left out,
 * the exported constant applies.
 */
import { ATTACK_CODES, assertAttackCode, assertColor, type AttackCode, type CombatSubScore, type HoldState } from "./attacks";
import { assertColumnShift, assertRankNumber, rankByKey, rankOf, shiftRank, type RankKey } from "./ranks";
import type { Color } from "./universal-table";
import { RulesRangeError, RulesTypeError } from "./errors";
import { assertBooleanValue, type FieldRef } from "./checks";

/** The eight defences [001]. */
export const DEFENCE_CODES = ["block", "brace", "catch", "dodge", "escape", "evasion", "feint", "weave"] as const;

/** A defence code. */
export type DefenceCode = (typeof DEFENCE_CODES)[number];

/**
 * [RULING] Block works against Charging. [001] lists Block against BA, BT, EA, ET and Fo; a
 * charge is a physical body check, so it is blocked like a blunt attack. Default true.
 */
export const BLOCK_APPLIES_TO_CHARGE = true as boolean;

/**
 * [000] Dodge works against Charging ("Dodging is usually used against ranged attacks and
 * charging attacks"); [001] lists only BT, ET, En, Fo, Sh. Default true (the [000] addition).
 */
export const DODGE_APPLIES_TO_CHARGE = true as boolean;

/**
 * Catch as a defence against Shooting (bullets, arrows) [001: projectile weapons may be caught
 * "if the character is fast enough"; 000: the minimum Agility, {@link CATCH_MIN_AGILITY}].
 * The second edition of CASE-RULES §6 lists it (errata); a rulings object may still turn it
 * off. Default true.
 */
export const CATCH_APPLIES_TO_SHOOTING = true as boolean;

/** What kind of outcome a defence's roll gives. */
export type DefenceOutcomeKind = "protection" | "columnShift" | "avoidance" | "catch" | "escape";

/** One row of the §6 defence table. */
export interface DefenceDefinition {
  /** The defence code. */
  readonly code: DefenceCode;
  /** English name, e.g. "Block". */
  readonly name: string;
  /** The sub-score the defence roll is made on [001]. */
  readonly rollsOn: CombatSubScore;
  /** True when the defence takes the defender's action for the turn (Evasion, Feint, Catch) [001]. */
  readonly takesAction: boolean;
  /** Attack codes it works against (with the rulings above applied). */
  readonly against: readonly AttackCode[];
  /** Other things it works against, in words (not attack codes). */
  readonly alsoAgainst: readonly string[];
  /** Which outcome function reads its roll. */
  readonly outcome: DefenceOutcomeKind;
}

function define(
  code: DefenceCode,
  name: string,
  rollsOn: CombatSubScore,
  takesAction: boolean,
  against: readonly AttackCode[],
  alsoAgainst: readonly string[],
  outcome: DefenceOutcomeKind,
): DefenceDefinition {
  return Object.freeze({ code, name, rollsOn, takesAction, against: Object.freeze([...against]), alsoAgainst: Object.freeze([...alsoAgainst]), outcome });
}

const MELEE_DEFENDED: readonly AttackCode[] = ["BA", "EA", "Gb", "Gp"];
const RANGED_DEFENDED: readonly AttackCode[] = ["BT", "ET", "En", "Fo", "Sh"];

/**
 * The §6 defence table [001; Ch for Block and Dodge and Sh for Catch per the constants above].
 * Gp for Evasion and Weave means the first grappling attempt only; once a hold is on, only
 * Escape works ({@link escapeApplies}). Escape works against no attack, only an existing hold.
 * `against` holds the default rulings; {@link defenceApplies} with `rulings` honours a setting's own.
 */
export const DEFENCES: Readonly<Record<DefenceCode, DefenceDefinition>> = Object.freeze({
  block: define(
    "block",
    "Block",
    "strength.mgt",
    false,
    ["BA", "EA", "BT", "ET", "Fo", ...(BLOCK_APPLIES_TO_CHARGE ? (["Ch"] as const) : [])],
    [],
    "protection",
  ),
  brace: define("brace", "Brace", "endurance.res", false, ["En"], ["exotic energy"], "protection"),
  catch: define("catch", "Catch", "agility.bal", true, ["BT", "ET", ...(CATCH_APPLIES_TO_SHOOTING ? (["Sh"] as const) : [])], ["falling objects"], "catch"),
  dodge: define("dodge", "Dodge", "agility.bal", false, [...RANGED_DEFENDED, ...(DODGE_APPLIES_TO_CHARGE ? (["Ch"] as const) : [])], [], "columnShift"),
  escape: define("escape", "Escape", "strength.mgt", false, [], ["an existing hold"], "escape"),
  evasion: define("evasion", "Evasion", "fighting.def", true, MELEE_DEFENDED, ["touch"], "avoidance"),
  feint: define("feint", "Feint", "agility.bal", true, RANGED_DEFENDED, [], "avoidance"),
  weave: define("weave", "Weave", "fighting.def", false, MELEE_DEFENDED, ["touch"], "columnShift"),
});

/** True when `value` is one of {@link DEFENCE_CODES}. */
export function isDefenceCode(value: unknown): value is DefenceCode {
  return typeof value === "string" && (DEFENCE_CODES as readonly string[]).includes(value);
}

/** Throws a RangeError naming `value` unless it is a defence code. */
export function assertDefenceCode(value: unknown): asserts value is DefenceCode {
  if (!isDefenceCode(value)) {
    throw new RulesRangeError("unknownDefence", { got: String(value), allowed: DEFENCE_CODES.join(", ") });
  }
}

/** The definition of a defence. RangeError for an unknown code. */
export function defenceDefinition(defence: DefenceCode): DefenceDefinition {
  assertDefenceCode(defence);
  return DEFENCES[defence];
}

/**
 * True when `defence` can be used against `attack` [001; rulings above]. Escape is never used
 * against an attack, only against a hold already on ({@link escapeApplies}); Gp means the first
 * grappling attempt.
 */
export function defenceApplies(defence: DefenceCode, attack: AttackCode, rulings: Partial<DefenceRulings> = NO_OVERRIDES): boolean {
  assertDefenceCode(defence);
  assertAttackCode(attack);
  return appliesUnder(defence, attack, rulingsFrom(rulings));
}

/** {@link defenceApplies} for a checked defence, attack and resolved rulings. */
function appliesUnder(defence: DefenceCode, attack: AttackCode, r: DefenceRulings): boolean {
  if (attack === "Ch" && defence === "block") return r.blockAppliesToCharge;
  if (attack === "Ch" && defence === "dodge") return r.dodgeAppliesToCharge;
  if (attack === "Sh" && defence === "catch") return r.catchAppliesToShooting;
  return DEFENCES[defence].against.includes(attack);
}

/** The defences usable against `attack`, in {@link DEFENCE_CODES} order. */
export function defencesAgainst(attack: AttackCode, rulings: Partial<DefenceRulings> = NO_OVERRIDES): DefenceCode[] {
  assertAttackCode(attack);
  if (rulings === NO_OVERRIDES) return (DEFAULT_DEFENCES_AGAINST.get(attack) as readonly DefenceCode[]).slice();
  const r = resolveDefenceRulings(rulings);
  return DEFENCE_CODES.filter((d) => appliesUnder(d, attack, r));
}

/** Escape works only when the character is in a partial or full hold [001]. */
export function escapeApplies(holdState: HoldState): boolean {
  const state: unknown = holdState;
  if (state === "partialHold" || state === "fullHold") return true;
  if (state === "none") return false;
  throw new RulesRangeError("unknownValue", { field: "holdState", got: String(state) });
}

/** True when the defence takes the defender's action for the turn (Evasion, Feint, Catch) [001]. */
export function defenceTakesAction(defence: DefenceCode): boolean {
  return defenceDefinition(defence).takesAction;
}

// ---------------------------------------------------------------------------------------------
// Dodge and Weave: shifts on the attack's to-hit column
// ---------------------------------------------------------------------------------------------

/** [001] Dodge/Weave: the CS on the attacker's to-hit column by the defender's colour. */
export const DODGE_WEAVE_SHIFTS: Readonly<Record<Color, number>> = Object.freeze({ white: 0, green: -2, yellow: -4, red: -6 });

/** The Dodge shift on the attacker's to-hit column: white 0, green −2, yellow −4, red −6 [001]. */
export function dodgeShift(color: Color): number {
  assertColor(color, "dodgeColour");
  return DODGE_WEAVE_SHIFTS[color];
}

/** The Weave shift on the attacker's to-hit column: white 0, green −2, yellow −4, red −6 [001]. */
export function weaveShift(color: Color): number {
  assertColor(color, "weaveColour");
  return DODGE_WEAVE_SHIFTS[color];
}

// ---------------------------------------------------------------------------------------------
// Block and Brace: protection
// ---------------------------------------------------------------------------------------------

/** [001] Block/Brace: the CS on the defender's Strength/Endurance that gives the protection rank. */
export const PROTECTION_SHIFTS: Readonly<Record<Color, number>> = Object.freeze({ white: -6, green: -4, yellow: -2, red: 1 });

/** Block/Brace column shift on the defender's own ability: white −6, green −4, yellow −2, red +1 [001]. */
export function protectionColumnShift(color: Color): number {
  assertColor(color, "blockBraceColour");
  return PROTECTION_SHIFTS[color];
}

/**
 * The protection a Block (Strength) or Brace (Endurance) gives: the ability's rank shifted by
 * {@link protectionColumnShift}, clamped to the ladder, read as that rank's standard number
 * (Shift 0 gives 0) [001]. RangeError for every other defence.
 */
export function defenceProtection(defence: DefenceCode, abilityValue: number, color: Color): number {
  assertDefenceCode(defence);
  if (DEFENCES[defence].outcome !== "protection") {
    throw new RulesRangeError("defenceNoProtection", { defence });
  }
  assertRankNumber(abilityValue, defence === "block" ? "strength" : "endurance");
  return shiftRank(rankOf(abilityValue), protectionColumnShift(color)).number;
}

/** [RULING] Protections within this many ranks of each other stack (buddy CS) [001: "close enough to stack"]. */
export const BUDDY_STACK_MAX_RANK_GAP = 1;

/** [RULING] The buddy bonus when two protections stack: +1 CS on the better one [FASERIP buddy CS]. */
export const BUDDY_STACK_CS = 1;

/**
 * Combining Block/Brace protection with armor (or other protection) [001]: use the better
 * one, unless the two ranks are within {@link BUDDY_STACK_MAX_RANK_GAP} of each other, when the
 * better one gets +{@link BUDDY_STACK_CS} CS (its shifted rank's standard number, never less than
 * the better value) [RULING]. A Shift 0 protection (0) is no protection and never stacks [RULING].
 */
export function combineProtection(armorValue: number, defenceProtectionValue: number, rulings: Partial<DefenceRulings> = NO_OVERRIDES): number {
  assertRankNumber(armorValue, "armor");
  assertRankNumber(defenceProtectionValue, "defenceProtection");
  const r = rulingsFrom(rulings);
  const better = Math.max(armorValue, defenceProtectionValue);
  if (armorValue === 0 || defenceProtectionValue === 0) return better;
  const gap = Math.abs(rankOf(armorValue).index - rankOf(defenceProtectionValue).index);
  if (gap > r.buddyStackMaxRankGap) return better;
  return Math.max(better, shiftRank(rankOf(better), r.buddyStackCs).number);
}

// ---------------------------------------------------------------------------------------------
// Evasion and Feint: avoidance
// ---------------------------------------------------------------------------------------------

/** The outcome of an Evasion or Feint roll [001]. */
export interface AvoidanceResult {
  /** White: the defender walks into the attack, which hits even if it would have missed. */
  readonly autoHit: boolean;
  /** Green and better: the attack is avoided. */
  readonly avoided: boolean;
  /** Yellow +1, red +2: CS on the defender's next action against that foe. */
  readonly bonusCs: number;
}

/** Evasion/Feint: white auto-hit; green avoided; yellow avoided +1 CS; red avoided +2 CS vs that foe [001]. */
export function avoidanceResult(color: Color): AvoidanceResult {
  assertColor(color, "evasionFeintColour");
  switch (color) {
    case "white":
      return { autoHit: true, avoided: false, bonusCs: 0 };
    case "green":
      return { autoHit: false, avoided: true, bonusCs: 0 };
    case "yellow":
      return { autoHit: false, avoided: true, bonusCs: 1 };
    case "red":
      return { autoHit: false, avoided: true, bonusCs: 2 };
  }
}

/**
 * [RULING, from 000] An auto-hit (white Evasion, Feint or Catch) makes the attack's to-hit colour
 * at least this ("a white result to hit is treated as a green result" [000], for catching).
 */
export const AUTO_HIT_MIN_COLOR: Color = "green";

/** The attack's to-hit colour after the defender's auto-hit: white becomes {@link AUTO_HIT_MIN_COLOR} [000]. */
export function attackColorAfterAutoHit(color: Color, rulings: Partial<DefenceRulings> = NO_OVERRIDES): Color {
  assertColor(color, "attackColour");
  return color === "white" ? rulingsFrom(rulings).autoHitMinColor : color;
}

// ---------------------------------------------------------------------------------------------
// Catch
// ---------------------------------------------------------------------------------------------

/** The outcome of a Catch roll [001, 000]. */
export type CatchResult = "autoHit" | "miss" | "caughtDamaged" | "caught";

/** Catch: white auto-hit, green miss, yellow caught (may be damaged: Str ACTION vs its MS), red caught [001]. */
export function catchResult(color: Color): CatchResult {
  assertColor(color, "catchColour");
  switch (color) {
    case "white":
      return "autoHit";
    case "green":
      return "miss";
    case "yellow":
      return "caughtDamaged";
    case "red":
      return "caught";
  }
}

/** [001, 000] −3 CS on the Catch roll when the object is aimed at the catcher. */
export const CATCH_AIMED_AT_CATCHER_CS = -3;

/** [001, 000] A missed catch (green) gives the attack +1 CS to hit when it was aimed at the catcher. */
export const CATCH_MISS_ATTACK_CS = 1;

/** The CS on a Catch roll: {@link CATCH_AIMED_AT_CATCHER_CS} when the object is aimed at the catcher [001]. */
export function catchRollShift(aimedAtCatcher: boolean): number {
  if (typeof aimedAtCatcher !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "aimedAtCatcher", got: String(aimedAtCatcher) });
  return aimedAtCatcher ? CATCH_AIMED_AT_CATCHER_CS : 0;
}

/** The CS a Catch result gives the incoming attack: +1 on a miss aimed at the catcher, else 0 [001]. */
export function catchAttackShift(result: CatchResult, aimedAtCatcher: boolean): number {
  if (!(["autoHit", "miss", "caughtDamaged", "caught"] as const).includes(result)) {
    throw new RulesRangeError("unknownValue", { field: "catchResult", got: result });
  }
  if (typeof aimedAtCatcher !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "aimedAtCatcher", got: String(aimedAtCatcher) });
  return result === "miss" && aimedAtCatcher ? CATCH_MISS_ATTACK_CS : 0;
}

/** What is being caught [000]: bullets (small, fast), arrows (large, thin), other thrown projectiles, falling people or objects. */
export const CATCH_KINDS = ["bullet", "arrow", "thrown", "falling"] as const;

/** A kind of object to catch. */
export type CatchKind = (typeof CATCH_KINDS)[number];

/** [000] Minimum Agility rank to catch each kind: Unearthly, Amazing, Remarkable, every rank. */
export const CATCH_MIN_AGILITY: Readonly<Record<CatchKind, RankKey>> = Object.freeze({
  bullet: "unearthly",
  arrow: "amazing",
  thrown: "remarkable",
  falling: "shift0",
});

/** True when a character with Agility rank number `agilityValue` may try to catch `kind` [000]. */
export function canAttemptCatch(kind: CatchKind, agilityValue: number): boolean {
  if (!(CATCH_KINDS as readonly string[]).includes(kind)) {
    throw new RulesRangeError("unknownValue", { field: "catchKind", got: kind });
  }
  assertRankNumber(agilityValue, "agility");
  return rankOf(agilityValue).index >= rankByKey(CATCH_MIN_AGILITY[kind]).index;
}

// ---------------------------------------------------------------------------------------------
// Escape
// ---------------------------------------------------------------------------------------------

/** The outcome of an Escape roll [001]. */
export type EscapeResult = "fail" | "escape" | "reversal";

/**
 * Escape: white/green fail; yellow escape (free, but no further action this turn); red reversal
 * (the escapee may reverse the hold, or break loose and take one action of their choice) [001].
 */
export function escapeResult(color: Color): EscapeResult {
  assertColor(color, "escapeColour");
  switch (color) {
    case "white":
    case "green":
      return "fail";
    case "yellow":
      return "escape";
    case "red":
      return "reversal";
  }
}

// ---------------------------------------------------------------------------------------------
// Optional rule: declared dodge [000]
// ---------------------------------------------------------------------------------------------

/** [RULING] The optional [000] "declared dodge" is off unless a world setting turns it on. */
export const DECLARED_DODGE_DEFAULT_ENABLED = false as boolean;

/** [000] Declared dodge: the dodger's other ACTIONs that turn are at −2 CS. */
export const DECLARED_DODGE_OTHER_ACTION_CS = -2;

/** [000] Declared dodge: the dodger moves at most half speed. */
export const DECLARED_DODGE_SPEED_FACTOR = 0.5;

/** [000] Declared dodge: at most one other action that turn (an attack included). */
export const DECLARED_DODGE_MAX_OTHER_ACTIONS = 1;

/** [000] Declared dodge: no charging attack that turn. */
export const DECLARED_DODGE_MAY_CHARGE = false as boolean;

/** Every defence × attack code: whether it applies ({@link defenceApplies}), for callers that want the full matrix. */
export function defenceMatrix(rulings: Partial<DefenceRulings> = {}): Readonly<Record<DefenceCode, Readonly<Record<AttackCode, boolean>>>> {
  const r = resolveDefenceRulings(rulings);
  const matrix = {} as Record<DefenceCode, Record<AttackCode, boolean>>;
  for (const d of DEFENCE_CODES) {
    const row = {} as Record<AttackCode, boolean>;
    for (const a of ATTACK_CODES) row[a] = defenceApplies(d, a, r);
    matrix[d] = row;
  }
  return matrix;
}

// ---------------------------------------------------------------------------------------------
// Rulings as data (for world settings)
// ---------------------------------------------------------------------------------------------

/**
 * The [RULING] choices of this module as one object, so a world setting or a module can pass
 * its own values to the functions that take an optional `rulings` argument. A field left out
 * takes the exported constant's value.
 */
export interface DefenceRulings {
  /** {@link BLOCK_APPLIES_TO_CHARGE}. */
  readonly blockAppliesToCharge: boolean;
  /** {@link DODGE_APPLIES_TO_CHARGE}. */
  readonly dodgeAppliesToCharge: boolean;
  /** {@link CATCH_APPLIES_TO_SHOOTING}. */
  readonly catchAppliesToShooting: boolean;
  /** {@link BUDDY_STACK_MAX_RANK_GAP}. */
  readonly buddyStackMaxRankGap: number;
  /** {@link BUDDY_STACK_CS}. */
  readonly buddyStackCs: number;
  /** {@link AUTO_HIT_MIN_COLOR}. */
  readonly autoHitMinColor: Color;
}

/** The default rulings: the exported constants. */
export const DEFAULT_DEFENCE_RULINGS: DefenceRulings = Object.freeze({
  blockAppliesToCharge: BLOCK_APPLIES_TO_CHARGE,
  dodgeAppliesToCharge: DODGE_APPLIES_TO_CHARGE,
  catchAppliesToShooting: CATCH_APPLIES_TO_SHOOTING,
  buddyStackMaxRankGap: BUDDY_STACK_MAX_RANK_GAP,
  buddyStackCs: BUDDY_STACK_CS,
  autoHitMinColor: AUTO_HIT_MIN_COLOR,
});

/** The `rulings` argument left out: the default rulings, which need no merging or checking. */
const NO_OVERRIDES: Partial<DefenceRulings> = Object.freeze({});

/** The rulings `overrides` stand for ({@link DEFAULT_DEFENCE_RULINGS} itself when left out). */
function rulingsFrom(overrides: Partial<DefenceRulings>): DefenceRulings {
  return overrides === NO_OVERRIDES ? DEFAULT_DEFENCE_RULINGS : resolveDefenceRulings(overrides);
}

/** {@link defencesAgainst} under the default rulings, per attack (copied out: callers own the list; plain arrays, which V8 copies faster than frozen ones). */
const DEFAULT_DEFENCES_AGAINST: ReadonlyMap<AttackCode, readonly DefenceCode[]> = new Map(ATTACK_CODES.map((a) => [a, DEFENCE_CODES.filter((d) => appliesUnder(d, a, DEFAULT_DEFENCE_RULINGS))]));

function assertRulingBoolean(value: unknown, field: FieldRef): void {
  assertBooleanValue(value, field);
}

/**
 * The defaults overlaid with `overrides`, each override checked (RangeError/TypeError naming the
 * field and value).
 */
export function resolveDefenceRulings(overrides: Partial<DefenceRulings> = {}): DefenceRulings {
  const given: unknown = overrides;
  if (typeof given !== "object" || given === null) {
    throw new RulesTypeError("inputNotObject", { name: "defenceRulings", got: String(given) });
  }
  const r: DefenceRulings = { ...DEFAULT_DEFENCE_RULINGS, ...overrides };
  assertRulingBoolean(r.blockAppliesToCharge, { input: "rulings.blockAppliesToCharge" });
  assertRulingBoolean(r.dodgeAppliesToCharge, { input: "rulings.dodgeAppliesToCharge" });
  assertRulingBoolean(r.catchAppliesToShooting, { input: "rulings.catchAppliesToShooting" });
  if (!Number.isInteger(r.buddyStackMaxRankGap) || r.buddyStackMaxRankGap < 0) {
    throw new RulesRangeError("inputNotWholeAtLeast", { name: "rulings.buddyStackMaxRankGap", min: 0, got: String(r.buddyStackMaxRankGap) });
  }
  assertColumnShift(r.buddyStackCs);
  assertColor(r.autoHitMinColor, { input: "rulings.autoHitMinColor" });
  return r;
}
