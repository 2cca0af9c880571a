/**
 * Healing and recovery (CASE-RULES §3 Health, §4 wrap-up "recovered health (for people who
 * regenerate)", §8 Kill-result Endurance loss). Lost Endurance ranks are tracked APART from the
 * ability: the ability keeps its rank number, a `lostEnduranceRanks` count lowers it, and the
 * count heals back. CASE's own healing rules were not available: the defaults are classic
 * FASERIP values, each a [RULING] constant collected in {@link RecoveryRulings}.
 *
 * FASERIP sources of the defaults: the Advanced Set Player's Book as quoted on
 * reddit.com/r/MarvelFASERIP ("the normal rate of Endurance Rank per day"; Regeneration
 * "recovers the Endurance Rank every 10 turns", Wolverine's Remarkable 30 = 3 points per turn),
 * and the Advanced Set summary at campaign-46630.obsidianportal.com/wikis/health (0 Health:
 * unconscious 1–10 turns, then an Endurance FEAT wakes with Health = Endurance rank number; one
 * Endurance rank heals per week, one per day in a hospital or under a doctor's care).
 */
import { applyHealing } from "./damage";
import { enduranceAfterKillLoss, killLossContinues } from "./consequences";
import { assertRankNumber } from "./ranks";
import { assertArray, assertBooleanValue, assertObject, assertOneOfValues, assertWholeNumber } from "./checks";

/** How well a resting character is looked after. */
export const CARE_LEVELS = ["none", "medical"] as const;
export type CareLevel = (typeof CARE_LEVELS)[number];

/** [RULING][FASERIP] Health regained per day of rest, as a multiple of the Endurance rank number. */
export const HEALTH_PER_DAY_ENDURANCE_FACTOR = 1;
/** [RULING][FASERIP] Bed rest under medical care multiplies the daily Health recovery. */
export const MEDICAL_CARE_HEALTH_FACTOR = 2;
/** [RULING][FASERIP] Days of rest for one lost Endurance rank to heal without care (one per week). */
export const DAYS_PER_ENDURANCE_RANK = 7;
/** [RULING][FASERIP] Days for one lost Endurance rank to heal in a hospital or under a doctor (one per day). */
export const DAYS_PER_ENDURANCE_RANK_MEDICAL = 1;
/**
 * [RULING][FASERIP] A short rest: this many turns after the last damage, a conscious character
 * regains Health equal to the Endurance rank number, once per day (angelfire.com/rpg2/xmanalb
 * "Recovery", an Advanced Set summary).
 */
export const RECOVERY_AFTER_TURNS = 10;
/** [RULING][FASERIP] Regeneration returns its rank number of Health every this many turns (Wolverine: 30 per 10 turns). */
export const REGENERATION_TURNS = 10;
/**
 * [RULING][FASERIP] A character at 0 Health is unconscious. [001] is silent, but implies it:
 * damage at 0 Health is "being struck while unconscious or otherwise out of Health"; FASERIP
 * makes 0 Health unconscious for 1–10 turns.
 */
export const UNCONSCIOUS_AT_ZERO_HEALTH = true as boolean;
/**
 * [RULING] Reviving a stunned character with the first aid talent needs no roll: [001] says only
 * "a stunned character may be revived by someone with the first aid talent".
 */
export const FIRST_AID_NEEDS_ROLL = false as boolean;

/** The rulings of this module as one object (a world setting may pass its own). */
export interface RecoveryRulings {
  readonly healthPerDayFactor: number;
  readonly medicalCareHealthFactor: number;
  readonly daysPerEnduranceRank: number;
  readonly daysPerEnduranceRankMedical: number;
  readonly regenerationTurns: number;
  readonly unconsciousAtZeroHealth: boolean;
}

export const DEFAULT_RECOVERY_RULINGS: RecoveryRulings = Object.freeze({
  healthPerDayFactor: HEALTH_PER_DAY_ENDURANCE_FACTOR,
  medicalCareHealthFactor: MEDICAL_CARE_HEALTH_FACTOR,
  daysPerEnduranceRank: DAYS_PER_ENDURANCE_RANK,
  daysPerEnduranceRankMedical: DAYS_PER_ENDURANCE_RANK_MEDICAL,
  regenerationTurns: REGENERATION_TURNS,
  unconsciousAtZeroHealth: UNCONSCIOUS_AT_ZERO_HEALTH,
});

/** The defaults overlaid with `overrides`, each checked. */
export function resolveRecoveryRulings(overrides: Partial<RecoveryRulings> = {}): RecoveryRulings {
  assertObject(overrides, { input: "recoveryRulings" });
  const r: RecoveryRulings = { ...DEFAULT_RECOVERY_RULINGS, ...overrides };
  assertWholeNumber(r.healthPerDayFactor, { input: "rulings.healthPerDayFactor" });
  assertWholeNumber(r.medicalCareHealthFactor, { input: "rulings.medicalCareHealthFactor" }, 1);
  assertWholeNumber(r.daysPerEnduranceRank, { input: "rulings.daysPerEnduranceRank" }, 1);
  assertWholeNumber(r.daysPerEnduranceRankMedical, { input: "rulings.daysPerEnduranceRankMedical" }, 1);
  assertWholeNumber(r.regenerationTurns, { input: "rulings.regenerationTurns" }, 1);
  assertBooleanValue(r.unconsciousAtZeroHealth, { input: "rulings.unconsciousAtZeroHealth" });
  return r;
}

/** Endurance once lost ranks are counted, and whether the loss went below Shift 0. */
export interface EffectiveEndurance {
  /** The rank number to roll and to derive Health from (0 when dead). */
  readonly value: number;
  /** True when more ranks were lost than the ladder holds below the base [001: "until they die"]. */
  readonly dead: boolean;
}

/**
 * Endurance after `lost` ranks [001 §8]: each lost rank steps one rank down as
 * {@link enduranceAfterKillLoss} does (the standard number of the lower rank); 0 lost is the
 * base itself. RangeError for a bad base or a negative count.
 */
export function effectiveEndurance(base: number, lost: number): EffectiveEndurance {
  assertRankNumber(base, "endurance");
  assertWholeNumber(lost, "lostEnduranceRanks");
  let value = base;
  for (let i = 0; i < lost; i++) {
    const after = enduranceAfterKillLoss(value);
    if (after.dead) return { value: 0, dead: true };
    value = after.endurance;
  }
  return { value, dead: false };
}

/**
 * The lost ranks that bring Endurance from `base` down to `target`: the fewest, at least the
 * `lost` already recorded, whose {@link effectiveEndurance} is `target` or lower (with `dead`:
 * that leave the character dead). Writing this count again changes nothing, so a retried loss
 * is not counted twice.
 */
export function lostRanksReaching(base: number, lost: number, target: number, dead = false): number {
  assertRankNumber(base, "endurance");
  assertWholeNumber(lost, "lostEnduranceRanks");
  assertRankNumber(target, "enduranceAfterTheLoss");
  let n = lost;
  for (;;) {
    const now = effectiveEndurance(base, n);
    if (now.dead || (!dead && now.value <= target)) return n;
    n += 1;
  }
}

/** Health regained by `days` of rest: the (effective) Endurance rank number per day, doubled under care [FASERIP]. */
export function restHealing(endurance: number, days: number, care: CareLevel = "none", rulings: Partial<RecoveryRulings> = {}): number {
  const r = resolveRecoveryRulings(rulings);
  assertRankNumber(endurance, "endurance");
  assertWholeNumber(days, "daysOfRest");
  assertOneOfValues(care, CARE_LEVELS, "care");
  return endurance * r.healthPerDayFactor * days * (care === "medical" ? r.medicalCareHealthFactor : 1);
}

/** Health after `days` of rest: never above the maximum, never below the current Health. */
export function healthAfterRest(
  health: number,
  max: number,
  endurance: number,
  days: number,
  care: CareLevel = "none",
  rulings: Partial<RecoveryRulings> = {},
): number {
  return applyHealing(health, max, restHealing(endurance, days, care, rulings));
}

/** The state a short-rest recovery needs. */
export interface ShortRestState {
  readonly health: number;
  readonly max: number;
  /** Effective Endurance rank number. */
  readonly endurance: number;
  /** Turns since the character last took damage. */
  readonly turnsSinceDamage: number;
  /** This character already had its short-rest recovery today. */
  readonly recoveredToday: boolean;
  readonly unconscious: boolean;
}

/**
 * Health after a short rest [FASERIP, {@link RECOVERY_AFTER_TURNS}]: + the Endurance rank number
 * once the turns have passed without damage, if conscious and not already recovered today;
 * otherwise unchanged. Never above the maximum.
 */
export function shortRestRecovery(state: ShortRestState, turns: number = RECOVERY_AFTER_TURNS): number {
  assertObject(state, { input: "shortRest" });
  assertWholeNumber(state.turnsSinceDamage, "turnsSinceDamage");
  assertWholeNumber(turns, "turnsOfRestNeeded", 1);
  assertBooleanValue(state.recoveredToday, { input: "recoveredToday" });
  assertBooleanValue(state.unconscious, { input: "unconscious" });
  assertRankNumber(state.endurance, "endurance");
  const due = state.turnsSinceDamage >= turns && !state.recoveredToday && !state.unconscious;
  return applyHealing(state.health, state.max, due ? state.endurance : 0);
}

/** Lost Endurance ranks left after `days` of rest [FASERIP]: one per week, one per day under care; never below 0. */
export function lostRanksAfterRest(lost: number, days: number, care: CareLevel = "none", rulings: Partial<RecoveryRulings> = {}): number {
  const r = resolveRecoveryRulings(rulings);
  assertWholeNumber(lost, "lostEnduranceRanks");
  assertWholeNumber(days, "daysOfRest");
  assertOneOfValues(care, CARE_LEVELS, "care");
  const perRank = care === "medical" ? r.daysPerEnduranceRankMedical : r.daysPerEnduranceRank;
  return Math.max(0, lost - Math.floor(days / perRank));
}

/**
 * Health a Regeneration power returns at the wrap-up of one turn [001: "recovered health (for
 * people who regenerate)"; FASERIP rate]: the power's rank number every
 * {@link REGENERATION_TURNS} turns, so rank ÷ 10 per turn, rounded down, at least 1 for every
 * rank above Shift 0.
 */
export function regenerationPerTurn(rank: number, rulings: Partial<RecoveryRulings> = {}): number {
  const r = resolveRecoveryRulings(rulings);
  assertRankNumber(rank, "regenerationRank");
  if (rank === 0) return 0;
  return Math.max(1, Math.floor(rank / r.regenerationTurns));
}

/** A power as regeneration reads it: whether it regenerates, and its rank number. */
export interface RegeneratingPower {
  readonly regeneration: boolean;
  readonly rank: number;
}

/**
 * [RULING] Several regenerating powers do not add up: the best one's rank counts ([001] names one
 * rate for "people who regenerate"; as armor, `ARMOR_STACKS`, and talents).
 */
export const REGENERATION_STACKS = false;

/** The rank a character regenerates at: its best regenerating power's rank number ({@link REGENERATION_STACKS}), 0 for none. */
export function bestRegenerationRank(powers: readonly RegeneratingPower[]): number {
  assertArray(powers, "powers");
  let best = 0;
  powers.forEach((p: RegeneratingPower, i) => {
    assertObject(p, ["power", i + 1]);
    assertBooleanValue(p.regeneration, ["powerRegeneration", i + 1]);
    assertWholeNumber(p.rank, ["powerRank", i + 1]);
    if (p.regeneration && p.rank > best) best = p.rank;
  });
  return best;
}

/** Health after one wrap-up of regeneration: never above the maximum. */
export function regenerateAtWrapUp(health: number, max: number, rank: number, rulings: Partial<RecoveryRulings> = {}): number {
  return applyHealing(health, max, regenerationPerTurn(rank, rulings));
}

/** True when a character at `health` is unconscious by {@link UNCONSCIOUS_AT_ZERO_HEALTH}. */
export function unconsciousAt(health: number, rulings: Partial<RecoveryRulings> = {}): boolean {
  assertWholeNumber(health, "health");
  return resolveRecoveryRulings(rulings).unconsciousAtZeroHealth && health === 0;
}

/**
 * Waking from 0 Health [FASERIP]: after the 1d10 turns out, an Endurance FEAT (`success`);
 * success wakes the character with Health equal to the (effective) Endurance rank number, capped
 * at the maximum; failure stays out (check again in 1d10 turns): `null`.
 */
export function wakeFromZeroHealth(success: boolean, endurance: number, max: number): number | null {
  assertBooleanValue(success, { input: "success" });
  assertRankNumber(endurance, "endurance");
  assertRankNumber(max, "maximumHealth");
  return success ? Math.min(endurance, max) : null;
}

/** The state of a character someone gives first aid to. */
export interface AidTarget {
  readonly stunned: boolean;
  /** Losing Endurance ranks each turn to a Kill result (§8). */
  readonly dying: boolean;
}

/** What first aid does. */
export interface FirstAidOutcome {
  /** The stun ends (only with the first aid talent [001]). */
  readonly revived: boolean;
  /** The Kill-result loss stops (aid of every kind [001]). */
  readonly stopsDying: boolean;
}

/**
 * First aid [001]: "a stunned character may be revived by someone with the first aid talent";
 * aid of every kind stops a dying character's Endurance loss ({@link killLossContinues}). With
 * {@link FIRST_AID_NEEDS_ROLL} false no roll is made.
 */
export function firstAid(target: AidTarget, aiderHasFirstAid: boolean): FirstAidOutcome {
  assertObject(target, { input: "aidedCharacter" });
  assertBooleanValue(target.stunned, { input: "stunned" });
  assertBooleanValue(target.dying, { input: "dying" });
  assertBooleanValue(aiderHasFirstAid, { input: "aiderHasFirstAid" });
  return { revived: target.stunned && aiderHasFirstAid, stopsDying: target.dying && !killLossContinues(true) };
}
