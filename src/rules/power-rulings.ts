/**
 * The genre's powers and Karma where FASERIP allows it (CASE-RULES §2 Karma, §10 powers): resisted
 * powers, power stunts, Karma on a defence or a check, Karma against death. CASE's seed texts are
 * silent on all four (they name no stunt, no resistance roll, no Karma beyond the roll), so every
 * number here is a [RULING], the classic FASERIP value where one exists.
 */
import { KARMA_MINIMUM, applyKarma, canSpendKarma, resolveAction, type RequiredColor } from "./actions";
import { type HoldState } from "./attacks";
import { isScoreRef, type ScoreRef } from "./character";
import { assertBooleanValue, assertObject, assertOneOfValues, assertText, assertWholeNumber } from "./checks";
import { enduranceAfterKillLoss } from "./consequences";
import { assertRankNumber } from "./ranks";
import { type Color, type UniversalTable } from "./universal-table";
import { RulesRangeError } from "./errors";

// ── Resisted powers ───────────────────────────────────────────────────────────────────────────

/** What a resisted power does when the resistance fails: a condition for some turns, or a hold. */
export type ResistedEffect =
  | { readonly kind: "condition"; readonly condition: string; readonly turns: number }
  | { readonly kind: "hold"; readonly hold: Exclude<HoldState, "none"> };

/** A power that is resisted rather than dodged (Mind Control against Psyche, a snare against Strength, a flash against Endurance). */
export interface ResistedPower {
  /** The power's rank number: the intensity the resistance rolls against ({@link RESISTANCE_AGAINST_POWER_RANK}). */
  readonly rank: number;
  /** The ability or sub-score the target resists with. */
  readonly resistedBy: ScoreRef;
  readonly effect: ResistedEffect;
}

/**
 * [RULING] (FASERIP: "a Psyche FEAT regarding Mind Control") The target of a resisted power rolls
 * the ability the power names as a FEAT against the power's rank as intensity (§2: green when the
 * ability's rank is higher, yellow when equal, red one rank below, impossible two or more below);
 * success resists it entirely, failure takes the power's whole effect. Karma may be added
 * ({@link KARMA_ON_CHECKS}).
 */
export const RESISTANCE_AGAINST_POWER_RANK = true as boolean;

/** The most turns a resisted power's condition may last (a guard on input, not a rule). */
export const MAX_RESISTED_TURNS = 1000;

/** The resistance roll. */
export interface ResistanceRoll {
  /** The target's rank number in {@link ResistedPower.resistedBy}. */
  readonly value: number;
  readonly die: number;
  /** Column shifts on the resistance (a hold's −2 CS, talents). */
  readonly cs?: number;
  readonly karma?: number;
  readonly table?: UniversalTable;
}

/** What a resistance roll decided. */
export interface ResistanceOutcome {
  readonly color: Color;
  readonly required: RequiredColor;
  readonly resisted: boolean;
  /** The power's effect when not resisted, else null. */
  readonly effect: ResistedEffect | null;
}

/** TypeError/RangeError naming the fault unless `power` is a well-formed resisted power. */
export function assertResistedPower(power: ResistedPower): void {
  assertObject(power, { input: "resistedPower" });
  assertRankNumber(power.rank, "powerRank");
  if (!isScoreRef(power.resistedBy)) throw new RulesRangeError("resistedByNotScore", { got: String(power.resistedBy) });
  assertObject(power.effect, { input: "resistedPowerEffect" });
  assertOneOfValues(power.effect.kind, ["condition", "hold"] as const, "resistedPowerEffectKind");
  if (power.effect.kind === "condition") {
    assertText(power.effect.condition, "resistedPowerCondition");
    assertWholeNumber(power.effect.turns, "resistedPowerTurns", 1);
    if (power.effect.turns > MAX_RESISTED_TURNS) throw new RulesRangeError("notAtMost", { field: "resistedPowerTurns", max: MAX_RESISTED_TURNS, got: power.effect.turns });
  } else assertOneOfValues(power.effect.hold, ["partialHold", "fullHold"] as const, "resistedPowerHold");
}

/** A resisted power's outcome from the resistance roll's colour ({@link RESISTANCE_AGAINST_POWER_RANK}). */
export function resistedPowerOutcome(power: ResistedPower, roll: ResistanceRoll): ResistanceOutcome {
  assertResistedPower(power);
  assertObject(roll, { input: "resistanceRoll" });
  const r = resolveAction({
    value: roll.value,
    roll: roll.die,
    ...(roll.cs === undefined ? {} : { cs: roll.cs }),
    ...(roll.karma === undefined ? {} : { karma: roll.karma }),
    ...(RESISTANCE_AGAINST_POWER_RANK ? { intensity: power.rank } : {}),
    ...(roll.table ? { table: roll.table } : {}),
  });
  return { color: r.color, required: r.required, resisted: r.success, effect: r.success ? null : power.effect };
}

// ── Power stunts ──────────────────────────────────────────────────────────────────────────────

/** [RULING] (FASERIP Advanced Set) A hero may try power stunts: new uses of a power, bought with Karma. A world setting. */
export const POWER_STUNTS_ALLOWED = true as boolean;

/** [RULING] (FASERIP Advanced Set) Karma spent on each attempt of a power stunt not yet mastered, success or not. */
export const POWER_STUNT_KARMA_COST = 100;

/**
 * [RULING] (FASERIP Advanced Set) The colour a power stunt's power FEAT needs by the stunt's
 * successes so far: red the first time, yellow for the next three, then green.
 */
export const POWER_STUNT_PROGRESSION: readonly { readonly fromSuccesses: number; readonly needed: Color }[] = Object.freeze([
  Object.freeze({ fromSuccesses: 0, needed: "red" }),
  Object.freeze({ fromSuccesses: 1, needed: "yellow" }),
  Object.freeze({ fromSuccesses: 4, needed: "green" }),
]);

/** [RULING] (FASERIP Advanced Set: "after ten tries it becomes a normal ability") Attempts after which a stunt costs no Karma. */
export const POWER_STUNT_FREE_AFTER_ATTEMPTS = 10;

/** A stunt as recorded on its power. */
export interface PowerStuntRecord {
  readonly name: string;
  readonly attempts: number;
  readonly successes: number;
}

function assertStunt(stunt: PowerStuntRecord): void {
  assertObject(stunt, { input: "powerStunt" });
  assertText(stunt.name, "powerStuntName");
  assertWholeNumber(stunt.attempts, "powerStuntAttempts");
  assertWholeNumber(stunt.successes, "powerStuntSuccesses");
  if (stunt.successes > stunt.attempts) throw new RulesRangeError("stuntSuccessesOverAttempts", { successes: stunt.successes, attempts: stunt.attempts });
}

/** What the next attempt of a stunt needs: the colour and the Karma. */
export function powerStuntNeeds(stunt: PowerStuntRecord): { readonly needed: Color; readonly karmaCost: number } {
  assertStunt(stunt);
  let needed: Color = "red";
  for (const step of POWER_STUNT_PROGRESSION) if (stunt.successes >= step.fromSuccesses) needed = step.needed;
  return { needed, karmaCost: stunt.attempts >= POWER_STUNT_FREE_AFTER_ATTEMPTS ? 0 : POWER_STUNT_KARMA_COST };
}

/** One attempt of a power stunt. */
export interface PowerStuntAttempt {
  readonly color: Color;
  readonly needed: Color;
  readonly success: boolean;
  readonly karmaSpent: number;
  /** The stunt's record after this attempt (one more attempt; one more success on a success). */
  readonly stunt: PowerStuntRecord;
}

/**
 * Attempts a power stunt: a power FEAT (`die` on the power's rank column) needing the stunt's
 * colour ({@link POWER_STUNT_PROGRESSION}), paying {@link POWER_STUNT_KARMA_COST} from `karma`
 * either way. RangeError when the character cannot pay: nothing is spent or recorded.
 */
export function attemptPowerStunt(stunt: PowerStuntRecord, powerRank: number, die: number, karma: number, table?: UniversalTable): PowerStuntAttempt {
  const { needed, karmaCost } = powerStuntNeeds(stunt);
  assertWholeNumber(karma, "karma");
  if (!canSpendKarma(karma, karmaCost)) throw new RulesRangeError("stuntKarmaShort", { name: stunt.name, cost: karmaCost, left: karma });
  const r = resolveAction({ value: powerRank, roll: die, needed, ...(table ? { table } : {}) });
  return {
    color: r.color,
    needed,
    success: r.success,
    karmaSpent: karmaCost,
    stunt: { name: stunt.name, attempts: stunt.attempts + 1, successes: stunt.successes + (r.success ? 1 : 0) },
  };
}

// ── Karma on defences and checks ──────────────────────────────────────────────────────────────

/** The rolls Karma may go on: a FEAT, an attack's to-hit, a defence, a check (Slam?, Stun?, Kill?, a resistance). */
export const KARMA_ROLL_KINDS = ["feat", "attack", "defence", "check"] as const;
export type KarmaRollKind = (typeof KARMA_ROLL_KINDS)[number];

/** [RULING] (FASERIP: Karma may be spent on every FEAT) Karma may be added to a defence roll (Dodge, Block, Escape …). A world setting. */
export const KARMA_ON_DEFENCE = true as boolean;

/** [RULING] (FASERIP) Karma may be added to a check: Slam?, Stun?, Kill? and a resistance against a power. A world setting. */
export const KARMA_ON_CHECKS = true as boolean;

/** The Karma rulings as data, for world settings. */
export interface KarmaRulings {
  readonly onDefence: boolean;
  readonly onChecks: boolean;
  readonly againstDeath: boolean;
}

/** Whether Karma may go on a roll of this kind; never when blindsided (§2). */
export function karmaAllowedOn(kind: KarmaRollKind, blindsided: boolean, rulings: Partial<KarmaRulings> = {}): boolean {
  assertOneOfValues(kind, KARMA_ROLL_KINDS, "rollKind");
  assertBooleanValue(blindsided, { input: "blindsided" });
  const r = resolveKarmaRulings(rulings);
  if (blindsided) return false;
  if (kind === "defence") return r.onDefence;
  if (kind === "check") return r.onChecks;
  return true;
}

/** The Karma rulings with `overrides` laid over the constants, each checked (TypeError naming the field). */
export function resolveKarmaRulings(overrides: Partial<KarmaRulings> = {}): KarmaRulings {
  assertObject(overrides, { input: "karmaRulings" });
  const r: KarmaRulings = { onDefence: KARMA_ON_DEFENCE, onChecks: KARMA_ON_CHECKS, againstDeath: KARMA_AGAINST_DEATH, ...overrides };
  assertBooleanValue(r.onDefence, { input: "rulings.onDefence" });
  assertBooleanValue(r.onChecks, { input: "rulings.onChecks" });
  assertBooleanValue(r.againstDeath, { input: "rulings.againstDeath" });
  return r;
}

/** Karma on one roll: the total read on the table and the pool left. */
export interface KarmaOnRoll {
  readonly total: number;
  readonly karmaLeft: number;
}

/**
 * Adds Karma to a defence's or a check's d100 (§2: at least {@link KARMA_MINIMUM}, the total
 * capped at 100, spent either way). RangeError when the ruling forbids it, the character is
 * blindsided or cannot pay: a clear refusal, nothing spent.
 */
export function karmaOnRoll(kind: KarmaRollKind, die: number, karma: number, pool: number, blindsided = false, rulings: Partial<KarmaRulings> = {}): KarmaOnRoll {
  assertWholeNumber(pool, "karmaPool");
  if (karma === 0) return { total: applyKarma(die, 0), karmaLeft: pool };
  if (!karmaAllowedOn(kind, blindsided, rulings)) throw new RulesRangeError(blindsided ? "karmaNotWhenBlindsided" : "karmaNotByRuling", { kind });
  assertWholeNumber(pool, "karmaPool");
  if (!canSpendKarma(pool, karma)) throw new RulesRangeError("karmaPoolShort", { karma, left: pool });
  return { total: applyKarma(die, karma), karmaLeft: pool - karma };
}

// ── Karma against death ───────────────────────────────────────────────────────────────────────

/**
 * [RULING] (a setting) A character whose next Endurance loss would kill them (below Shift 0,
 * §8) may spend all their Karma, at least {@link KARMA_AGAINST_DEATH_MINIMUM}, to cancel that one
 * loss: they stay at Shift 0, alive and still dying until aided (the next loss needs Karma again).
 */
export const KARMA_AGAINST_DEATH = true as boolean;

/** [RULING] The least Karma that buys off death: the least Karma a roll takes (§2). */
export const KARMA_AGAINST_DEATH_MINIMUM = KARMA_MINIMUM;

/** An Endurance loss that may kill, and the Karma in hand. */
export interface KarmaAgainstDeath {
  /** The loss would kill. */
  readonly fatal: boolean;
  /** Karma may buy it off (fatal, the ruling on, enough Karma). */
  readonly mayAvoid: boolean;
  /** Karma spent when bought off (all of it), else 0. */
  readonly karmaSpent: number;
  /** Endurance after the loss (or after buying it off). */
  readonly endurance: number;
  readonly dead: boolean;
}

/** One Endurance loss with the choice to spend Karma against death ({@link KARMA_AGAINST_DEATH}). */
export function karmaAgainstDeath(endurance: number, karma: number, spend: boolean, rulings: Partial<KarmaRulings> = {}): KarmaAgainstDeath {
  assertWholeNumber(karma, "karma");
  assertBooleanValue(spend, { input: "spend" });
  const after = enduranceAfterKillLoss(endurance);
  if (!after.dead) return { fatal: false, mayAvoid: false, karmaSpent: 0, endurance: after.endurance, dead: false };
  const mayAvoid = resolveKarmaRulings(rulings).againstDeath && karma >= KARMA_AGAINST_DEATH_MINIMUM;
  if (mayAvoid && spend) return { fatal: true, mayAvoid, karmaSpent: karma, endurance, dead: false };
  return { fatal: true, mayAvoid, karmaSpent: 0, endurance: 0, dead: true };
}
