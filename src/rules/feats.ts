/**
 * Resources and Popularity FEATs (CASE-RULES §3: "Resources (a rank), Popularity (a number, may
 * be negative)"). Both are ordinary ACTIONs against an intensity, resolved by actions.ts
 * ({@link resolveAction}, {@link requiredColor}): the colour needed comes from the rank
 * difference exactly as FASERIP reads an intensity (higher → green, equal → yellow, one rank
 * lower → red, two or more → impossible). CASE's own rules for them were not available; the
 * defaults are FASERIP's (Basic Set "Running Resources", "Running Popularity"), each a ruling.
 */
import { requiredColor, resolveAction, type ActionResult, type RequiredColor } from "./actions";
import { assertRankNumber } from "./ranks";
import { assertBooleanValue, assertInteger, assertObject, assertOneOfValues, assertWholeNumber } from "./checks";
import { RulesRangeError } from "./errors";

/** [RULING][FASERIP] Karma may not be spent on a Resources FEAT (money is not willpower). */
export const RESOURCES_FEAT_KARMA_ALLOWED = false as boolean;
/** [RULING][FASERIP] Days before a failed Resources FEAT for the same item may be tried again (one week). */
export const RESOURCES_FEAT_RETRY_DAYS = 7;

/** The colour a Resources FEAT needs: Resources rank against the item's cost rank [FASERIP]. */
export function resourcesFeatRequiredColor(resources: number, cost: number): RequiredColor {
  assertRankNumber(resources, "resources");
  assertRankNumber(cost, "itemCost");
  return requiredColor(resources, cost);
}

/** The input of {@link resourcesFeat}. */
export interface ResourcesFeatCheck {
  /** Resources rank number. */
  readonly resources: number;
  /** The item's cost as a rank number (its cost rank). */
  readonly cost: number;
  readonly roll: number;
  /** Karma declared: refused unless `karmaAllowed` ({@link RESOURCES_FEAT_KARMA_ALLOWED}). */
  readonly karma?: number;
  readonly cs?: number;
  readonly karmaAllowed?: boolean;
}

/** A Resources FEAT [FASERIP]: the roll on the Resources column against the cost rank. */
export function resourcesFeat(check: ResourcesFeatCheck): ActionResult {
  assertObject(check, { input: "resourcesFEAT" });
  const karma = check.karma ?? 0;
  const allowed = check.karmaAllowed ?? RESOURCES_FEAT_KARMA_ALLOWED;
  assertBooleanValue(allowed, { input: "karmaAllowed" });
  assertWholeNumber(karma, "karma");
  if (karma > 0 && !allowed) throw new RulesRangeError("karmaNotOnResources");
  assertRankNumber(check.cost, "itemCost");
  return resolveAction({ value: check.resources, roll: check.roll, cs: check.cs ?? 0, karma, intensity: check.cost });
}

/** True when a Resources FEAT failed `daysAgo` days ago may be tried again for that item. */
export function resourcesFeatMayRetry(daysAgo: number, retryDays: number = RESOURCES_FEAT_RETRY_DAYS): boolean {
  assertWholeNumber(daysAgo, "daysSinceTheFailedFEAT");
  assertWholeNumber(retryDays, "retryDays");
  return daysAgo >= retryDays;
}

/**
 * [RULING] The item a failed Resources FEAT was for is known by its cost rank (the FEAT's
 * intensity: the dialog names no item), so a retry at that cost waits the week.
 */
export const RESOURCES_RETRY_BY_COST = true as boolean;

/**
 * Whole days still to wait before a Resources FEAT at `cost` may be tried again, given the
 * failed FEATs (`failed`: cost rank → world time in seconds of the failure) and the world time
 * `now`; 0 when it may be tried ({@link resourcesFeatMayRetry}).
 */
export function resourcesRetryWait(failed: Readonly<Record<string, number>>, cost: number, now: number, retryDays: number = RESOURCES_FEAT_RETRY_DAYS): number {
  const at = failed[String(cost)];
  if (typeof at !== "number" || !Number.isFinite(at) || !RESOURCES_RETRY_BY_COST) return 0;
  const daysAgo = Math.max(0, Math.floor((now - at) / 86_400));
  return resourcesFeatMayRetry(daysAgo, retryDays) ? 0 : retryDays - daysAgo;
}

// ---------------------------------------------------------------------------------------------
// Popularity
// ---------------------------------------------------------------------------------------------

/** Who the character asks: the public at large, or those who admire fear (criminals, villains' hirelings). */
export const POPULARITY_AUDIENCES = ["public", "underworld"] as const;
export type PopularityAudience = (typeof POPULARITY_AUDIENCES)[number];

/**
 * [RULING][FASERIP] How a negative Popularity is read: with the "underworld" (those who respect
 * fear) its size counts, so −30 rolls on the Remarkable column; with the "public" a negative
 * Popularity rolls on the Shift 0 column. A positive Popularity counts the other way round:
 * with the underworld it rolls on Shift 0.
 */
export const NEGATIVE_POPULARITY_COUNTS_WITH: PopularityAudience = "underworld";
/** [RULING] Karma may be spent on a Popularity FEAT (FASERIP forbids it only for Resources). */
export const POPULARITY_FEAT_KARMA_ALLOWED = true as boolean;

/** The rank number a Popularity FEAT rolls on, for `popularity` (may be negative) and the audience. */
export function popularityColumnValue(popularity: number, audience: PopularityAudience = "public"): number {
  assertInteger(popularity, "popularity");
  assertOneOfValues(audience, POPULARITY_AUDIENCES, "audience");
  const fearAudience = NEGATIVE_POPULARITY_COUNTS_WITH;
  if (popularity >= 0) return audience === fearAudience && popularity > 0 ? 0 : popularity;
  return audience === fearAudience ? -popularity : 0;
}

/** The input of {@link popularityFeat}. */
export interface PopularityFeatCheck {
  /** Popularity, a whole number (may be negative). */
  readonly popularity: number;
  readonly audience?: PopularityAudience;
  /** The request's intensity as a rank number (how much is asked). */
  readonly intensity: number;
  readonly roll: number;
  readonly karma?: number;
  readonly cs?: number;
}

/** A Popularity FEAT [FASERIP]: the roll on the Popularity column against the request's intensity. */
export function popularityFeat(check: PopularityFeatCheck): ActionResult {
  assertObject(check, { input: "popularityFEAT" });
  const karma = check.karma ?? 0;
  assertWholeNumber(karma, "karma");
  if (karma > 0 && !POPULARITY_FEAT_KARMA_ALLOWED) throw new RulesRangeError("karmaNotOnPopularity");
  const value = popularityColumnValue(check.popularity, check.audience ?? "public");
  assertRankNumber(check.intensity, "requestIntensity");
  return resolveAction({ value, roll: check.roll, cs: check.cs ?? 0, karma, intensity: check.intensity });
}
