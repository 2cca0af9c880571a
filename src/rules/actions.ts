/**
 * ACTIONs (CASE-RULES §2) and the action economy of a turn (§4): the colour an ACTION needs
 * against an intensity, Karma, resolving one ACTION on the Universal Table, Table 22 (actions
 * and free defences per turn), extra-action outcomes, extra defences, full movement and
 * changing a declared action.
 */
import type { SubScoreRef } from "./abilities";
import { assertColumnShift, assertRankNumber, rankByKey, rankOf, shiftColumn, type Rank, type RankKey } from "./ranks";
import {
  UNIVERSAL_TABLE,
  assertD100,
  colorAtLeast,
  colorIndex,
  colorOdds,
  colorOnColumn,
  isColor,
  validateUniversalTable,
  type Color,
  type UniversalTable,
} from "./universal-table";
import { RulesRangeError, RulesTypeError, type RulesFieldKey } from "./errors";
import { refusal, type FieldRef } from "./checks";

/** RangeError unless `value` is one of `allowed` (for options that may come from untyped data). */
function assertOneOf(value: unknown, allowed: readonly string[], field: FieldRef): void {
  if (typeof value !== "string" || !allowed.includes(value)) {
    throw new RulesRangeError(...refusal("notOneOf", field, { allowed: allowed.map((a) => `"${a}"`).join(", "), got: typeof value === "string" ? `"${value}"` : String(value) }));
  }
}

// ---------------------------------------------------------------------------------------------
// ACTION against an intensity
// ---------------------------------------------------------------------------------------------

/** What {@link requiredColor} returns when no roll can succeed. */
export const IMPOSSIBLE = "impossible";

/** The colour an ACTION needs, or {@link IMPOSSIBLE}. */
export type RequiredColor = Color | typeof IMPOSSIBLE;

/** The colour needed when an ACTION has no intensity to beat [FASERIP, CASE-RULES §2]. */
export const NO_INTENSITY_REQUIRED_COLOR: Color = "green";

/**
 * The colour an ACTION by rank number `acting` needs against intensity rank number `intensity`
 * [FASERIP, CASE-RULES §2]. Ranks are compared by ladder position, not by number: acting rank
 * higher → green; equal → yellow; intensity one rank higher → red; two or more → impossible.
 * RangeError for an invalid rank number.
 */
export function requiredColor(acting: number, intensity: number): RequiredColor {
  assertRankNumber(acting, "actingRankNumber");
  assertRankNumber(intensity, "intensity");
  return requiredColorForRanks(rankOf(acting), rankOf(intensity));
}

/** {@link requiredColor} for two ranks (columns) rather than rank numbers. */
export function requiredColorForRanks(acting: Rank, intensity: Rank): RequiredColor {
  const gap = intensity.index - acting.index;
  if (gap < 0) return "green";
  if (gap === 0) return "yellow";
  if (gap === 1) return "red";
  return IMPOSSIBLE;
}

// ---------------------------------------------------------------------------------------------
// Karma
// ---------------------------------------------------------------------------------------------

/** Least Karma that may be spent on one roll [FASERIP, CASE-RULES §2]. 0 means "none". */
export const KARMA_MINIMUM = 10;

/** A roll plus Karma never exceeds this [FASERIP, CASE-RULES §2]. */
export const KARMA_ROLL_CAP = 100;

/**
 * Throws a RangeError unless `karma` is a legal Karma spend on one roll: 0 (none) or a whole
 * number ≥ {@link KARMA_MINIMUM}.
 */
export function assertKarmaSpend(karma: number): void {
  if (typeof karma !== "number" || !Number.isInteger(karma) || karma < 0) {
    throw new RulesRangeError("notNonNegativeWhole", { field: "karmaSpent", got: String(karma) });
  }
  if (karma !== 0 && karma < KARMA_MINIMUM) {
    throw new RulesRangeError("karmaBelowMinimum", { min: KARMA_MINIMUM, got: karma });
  }
}

/** Options for {@link applyKarma}. */
export interface KarmaOptions {
  /** The character is blindsided: Karma may not be spent [FASERIP, CASE-RULES §2]. */
  readonly blindsided?: boolean;
}

/**
 * The d100 result after adding the Karma declared before the roll, capped at
 * {@link KARMA_ROLL_CAP} [FASERIP, CASE-RULES §2]. Karma 0 means none. RangeError for a bad
 * roll, a bad Karma amount, or Karma while blindsided.
 */
export function applyKarma(roll: number, karma: number, opts: KarmaOptions = {}): number {
  assertD100(roll);
  assertKarmaSpend(karma);
  if (karma > 0 && opts.blindsided === true) {
    throw new RulesRangeError("karmaBlindsided", { karma });
  }
  return Math.min(KARMA_ROLL_CAP, roll + karma);
}

function assertPool(pool: number): void {
  if (typeof pool !== "number" || !Number.isInteger(pool) || pool < 0) {
    throw new RulesRangeError("notNonNegativeWhole", { field: "karmaPool", got: String(pool) });
  }
}

/**
 * True when `amount` (a legal spend, see {@link assertKarmaSpend}) can come out of a Karma
 * pool of `pool` points without taking it below 0. RangeError for an invalid pool or amount.
 */
export function canSpendKarma(pool: number, amount: number): boolean {
  assertPool(pool);
  assertKarmaSpend(amount);
  return amount <= pool;
}

/**
 * The Karma pool after spending `amount` on a roll (spent whether or not the roll succeeds).
 * RangeError when the spend is illegal or would take the pool below 0.
 */
export function spendKarma(pool: number, amount: number): number {
  if (!canSpendKarma(pool, amount)) {
    throw new RulesRangeError("karmaPoolBelowZero", { amount, pool });
  }
  return pool - amount;
}

// ---------------------------------------------------------------------------------------------
// Resolving one ACTION
// ---------------------------------------------------------------------------------------------

/**
 * [RULING] §1 says a column shifted below Shift 0 makes a to-hit roll impossible [001]; the
 * sources do not say what it does to other ACTIONs. We apply it to every ACTION by default:
 * {@link resolveAction} then needs {@link IMPOSSIBLE}. Pass `belowShift0Impossible: false` to
 * clamp at Shift 0 instead.
 */
export const BELOW_SHIFT0_IMPOSSIBLE = true;

/**
 * [RULING] The required colour compares the acting rank BEFORE column shifts with the
 * intensity; the shifts move only the column the roll is read on (otherwise a shift would
 * count twice). "column" compares the shifted column instead.
 */
export const INTENSITY_COMPARED_WITH: "rank" | "column" = "rank";

/** The input of {@link resolveAction}. */
export interface ActionCheck {
  /** Rank number of the acting ability, sub-score or power. */
  readonly value: number;
  /** The raw d100 roll, 1–100. */
  readonly roll: number;
  /** Column shifts (whole number, may be negative). Default 0. */
  readonly cs?: number;
  /** Karma declared before the roll: 0 (default) or ≥ {@link KARMA_MINIMUM}. */
  readonly karma?: number;
  /** Rank number of the intensity to beat. Omit for a plain ACTION (green succeeds). */
  readonly intensity?: number;
  /** A fixed colour the ACTION needs ("a yellow Agy (bal) ACTION"); not with `intensity`. */
  readonly needed?: Color;
  /** The actor is blindsided: no Karma. */
  readonly blindsided?: boolean;
  /** Override {@link BELOW_SHIFT0_IMPOSSIBLE} for this ACTION. */
  readonly belowShift0Impossible?: boolean;
  /** Override {@link INTENSITY_COMPARED_WITH} for this ACTION. */
  readonly intensityComparedWith?: "rank" | "column";
  /** A replacement Universal Table. */
  readonly table?: UniversalTable;
}

/** The outcome of {@link resolveAction}. */
export interface ActionResult {
  /** The column the roll was read on (after shifts, clamped to the ladder). */
  readonly column: Rank;
  /** The shifts took the column below Shift 0. */
  readonly belowShift0: boolean;
  /** The raw d100 roll. */
  readonly roll: number;
  /** The roll after Karma (capped at 100); equal to `roll` without Karma. */
  readonly total: number;
  /** The colour of `total` on `column`. */
  readonly color: Color;
  /** The colour that was needed, or {@link IMPOSSIBLE}. */
  readonly required: RequiredColor;
  /** `color` is at least `required` (never when impossible). */
  readonly success: boolean;
}

/**
 * Resolves one ACTION [FASERIP, CASE-RULES §1–§2]: reads the roll (plus Karma) on the column of
 * `value` after `cs` shifts and compares its colour with the colour needed (against
 * `intensity`, or the fixed `needed`, or green). RangeError/TypeError for bad input.
 */
export function resolveAction(check: ActionCheck): ActionResult {
  const input: unknown = check;
  if (typeof input !== "object" || input === null) throw new RulesTypeError("inputNotObject", { name: "action", got: String(input) });
  const { value, roll, cs = 0, karma = 0, intensity, needed, blindsided = false } = check;
  const belowShift0Impossible = check.belowShift0Impossible ?? BELOW_SHIFT0_IMPOSSIBLE;
  const comparedWith = check.intensityComparedWith ?? INTENSITY_COMPARED_WITH;
  const table = check.table ?? UNIVERSAL_TABLE;

  assertRankNumber(value, "actingRankNumber");
  assertColumnShift(cs);
  if (table !== UNIVERSAL_TABLE) validateUniversalTable(table);
  if (typeof belowShift0Impossible !== "boolean") {
    throw new RulesTypeError("inputNotBoolean", { name: "belowShift0Impossible", got: String(belowShift0Impossible) });
  }
  if (typeof blindsided !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "blindsided", got: String(blindsided) });
  assertOneOf(comparedWith, ["rank", "column"], { input: "intensityComparedWith" });
  if (needed !== undefined && !isColor(needed)) throw new RulesRangeError("unknownColour", { got: String(needed) });
  if (needed !== undefined && intensity !== undefined) {
    throw new RulesTypeError("actionIntensityAndColour");
  }
  if (intensity !== undefined) assertRankNumber(intensity, "intensity");
  const total = applyKarma(roll, karma, { blindsided });

  const shifted = shiftColumn(value, cs);
  const color = colorOnColumn(shifted.rank, total, table);

  let required: RequiredColor;
  if (shifted.belowShift0 && belowShift0Impossible) {
    required = IMPOSSIBLE;
  } else if (intensity !== undefined) {
    const acting = comparedWith === "rank" ? rankOf(value) : shifted.rank;
    required = requiredColorForRanks(acting, rankOf(intensity));
  } else {
    required = needed ?? NO_INTENSITY_REQUIRED_COLOR;
  }

  const success = required !== IMPOSSIBLE && colorAtLeast(color, required);
  return { column: shifted.rank, belowShift0: shifted.belowShift0, roll, total, color, required, success };
}

/** What {@link previewAction} tells a player before the roll. */
export interface ActionPreview {
  /** The column the roll will be read on (after shifts, clamped to the ladder). */
  readonly column: Rank;
  readonly belowShift0: boolean;
  /** The colour needed, or {@link IMPOSSIBLE}. */
  readonly required: RequiredColor;
  /** The chance of each colour on `column`, 0–1 ({@link colorOdds}; before Karma). */
  readonly odds: Readonly<Record<Color, number>>;
  /** The chance the ACTION succeeds, 0–1, Karma counted: the share of the 100 rolls {@link resolveAction} passes. */
  readonly success: number;
}

/**
 * The roll dialog's preview of an ACTION not yet rolled: the column after shifts, the colour
 * needed and the odds. Every die face goes through {@link resolveAction}, so the preview can
 * never disagree with the roll. Errors as resolveAction's.
 */
export function previewAction(check: Omit<ActionCheck, "roll">): ActionPreview {
  let first: ActionResult | null = null;
  let wins = 0;
  for (let roll = 1; roll <= 100; roll++) {
    const result = resolveAction({ ...check, roll });
    first ??= result;
    if (result.success) wins++;
  }
  if (first === null) throw new Error("unreachable: the die has 100 faces");
  return { column: first.column, belowShift0: first.belowShift0, required: first.required, odds: colorOdds(check.value, check.cs ?? 0, check.table), success: wins / 100 };
}

/** Orders required colours: white < green < yellow < red < impossible. */
export function requiredColorIndex(required: RequiredColor): number {
  return required === IMPOSSIBLE ? colorIndex("red") + 1 : colorIndex(required);
}

// ---------------------------------------------------------------------------------------------
// Table 22 — actions per turn, free defences
// ---------------------------------------------------------------------------------------------

/** One row of Table 22: from this rank up, this many actions. */
export interface ActionsRow {
  readonly rank: RankKey;
  readonly actions: number;
}

/** Everyone has at least this many actions and free defences [001, CASE-RULES §4]. */
export const MIN_ACTIONS_PER_TURN = 1;

/**
 * Table 22 — combat actions per turn [001, CASE-RULES §4], lowest row first. A rank between two
 * rows counts as the lower row; below the first row, {@link MIN_ACTIONS_PER_TURN}.
 */
export const ACTIONS_TABLE: readonly ActionsRow[] = Object.freeze(
  (
    [
      ["remarkable", 2],
      ["amazing", 3],
      ["unearthly", 4],
      ["shiftY", 5],
      ["class1000", 6],
      ["class3000", 7],
      ["class5000", 8],
    ] as const
  ).map(([rank, actions]) => Object.freeze({ rank, actions })),
);

/** The most actions Table 22 gives anyone. */
export const MAX_ACTIONS_PER_TURN = Math.max(...ACTIONS_TABLE.map((r) => r.actions));

/** Ftg (off) makes the extra-action roll [001]. */
export const EXTRA_ACTION_SUB_SCORE: SubScoreRef = "fighting.off";
/** Ftg (def) gives the free defences [001]. */
export const FREE_DEFENCE_SUB_SCORE: SubScoreRef = "fighting.def";

function actionsByRank(value: number, field: RulesFieldKey): number {
  assertRankNumber(value, field);
  const index = rankOf(value).index;
  let actions = MIN_ACTIONS_PER_TURN;
  for (const row of ACTIONS_TABLE) {
    if (rankByKey(row.rank).index <= index) actions = row.actions;
  }
  return actions;
}

/**
 * The most actions (offence) rank number `value` (Ftg (off)) can reach in one turn, Table 22
 * [001]: a rank between rows counts as the lower row; at least 1. Taking more than one still
 * needs the extra-action roll ({@link extraActionIntensity}).
 */
export function actionsPerTurn(value: number): number {
  return actionsByRank(value, "fightingOff");
}

/** Defences per turn without penalty or roll for Ftg (def) rank number `value`, Table 22 [001]. */
export function freeDefences(value: number): number {
  return actionsByRank(value, "fightingDef");
}

/**
 * The intensity of the Ftg (off) ACTION needed to take `actionsWanted` actions this turn: the
 * Table 22 rank for that many [001] (2 → Remarkable … 8 → Class 5000). RangeError unless
 * 2 ≤ actionsWanted ≤ {@link MAX_ACTIONS_PER_TURN}.
 */
export function extraActionIntensity(actionsWanted: number): Rank {
  const row = ACTIONS_TABLE.find((r) => r.actions === actionsWanted);
  if (!Number.isInteger(actionsWanted) || row === undefined) {
    throw new RulesRangeError("notWholeInRange", { field: "actionsWanted", min: 2, max: MAX_ACTIONS_PER_TURN, got: String(actionsWanted) });
  }
  return rankByKey(row.rank);
}

/**
 * The colour a Ftg (off) rank number `offence` needs to take `actionsWanted` actions [001]
 * (e.g. Incredible wanting 3 → red; Monstrous wanting 3 → green).
 */
export function extraActionRequiredColor(offence: number, actionsWanted: number): RequiredColor {
  return requiredColor(offence, extraActionIntensity(actionsWanted).number);
}

// ---------------------------------------------------------------------------------------------
// Extra-action outcome
// ---------------------------------------------------------------------------------------------

/** A failed extra-action roll: one action only, at this shift [001]. */
export const EXTRA_ACTION_FAIL_CS = -3;
/** Separate extra actions: this shift on each [001]. */
export const EXTRA_ACTION_SEPARATE_CS = -1;
/** A flurry: this many CS to damage per doubling of attacks [001]. */
export const FLURRY_DAMAGE_CS_PER_DOUBLING = 1;

/** How the extra actions of a passed roll are taken [001]. */
export type ExtraActionMode = "separate" | "flurry";

/** The outcome of an extra-action roll. */
export interface ExtraActionOutcome {
  /** Actions the character takes this turn. */
  readonly actions: number;
  /** Column shift on each of those actions. */
  readonly actionCs: number;
  /** Column shift on the damage (a flurry); 0 otherwise. */
  readonly damageCs: number;
}

/**
 * +{@link FLURRY_DAMAGE_CS_PER_DOUBLING} CS to damage per doubling of attacks [001]:
 * floor(log2(attacks)) doublings (1 → 0, 2 → 1, 3 → 1, 4 → 2, 8 → 3). RangeError unless
 * `attacks` is a whole number ≥ 1.
 */
export function flurryDamageShift(attacks: number): number {
  if (typeof attacks !== "number" || !Number.isSafeInteger(attacks) || attacks < 1) {
    throw new RulesRangeError("notWholeAtLeast", { field: "flurryAttacks", min: 1, got: String(attacks) });
  }
  let doublings = 0;
  for (let n = attacks; n >= 2; n = Math.floor(n / 2)) doublings++;
  return doublings * FLURRY_DAMAGE_CS_PER_DOUBLING;
}

/**
 * What an extra-action roll for `actions` actions gives [001]: failure → 1 action at
 * {@link EXTRA_ACTION_FAIL_CS}; success, separate → `actions` actions at
 * {@link EXTRA_ACTION_SEPARATE_CS} each; success, flurry → 1 action, no shift, and
 * {@link flurryDamageShift} to damage. RangeError/TypeError for bad input.
 */
export function extraActionOutcome(success: boolean, actions: number, mode: ExtraActionMode): ExtraActionOutcome {
  if (typeof success !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "success", got: String(success) });
  extraActionIntensity(actions); // validates 2 … MAX_ACTIONS_PER_TURN
  assertOneOf(mode, ["separate", "flurry"], "extraActionMode");
  if (!success) return { actions: 1, actionCs: EXTRA_ACTION_FAIL_CS, damageCs: 0 };
  if (mode === "separate") return { actions, actionCs: EXTRA_ACTION_SEPARATE_CS, damageCs: 0 };
  return { actions: 1, actionCs: 0, damageCs: flurryDamageShift(actions) };
}

// ---------------------------------------------------------------------------------------------
// Extra defences, full movement, change of action
// ---------------------------------------------------------------------------------------------

/** Each defence beyond the free count: this much more shift, cumulative [001]. */
export const EXTRA_DEFENCE_CS = -2;

function assertCount(n: number, field: RulesFieldKey): void {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new RulesRangeError("notNonNegativeWhole", { field, got: String(n) });
  }
}

/**
 * The column shift on the next defence, given how many defences were already used this turn
 * and how many are free [001]: 0 within the free count, then cumulative
 * {@link EXTRA_DEFENCE_CS} per maneuver beyond (first extra −2, second −4, …).
 * RangeError unless both are non-negative whole numbers.
 */
export function defencePenalty(defencesAlreadyUsed: number, freeDefenceCount: number): number {
  assertCount(defencesAlreadyUsed, "defencesAlreadyUsed");
  assertCount(freeDefenceCount, "freeDefences");
  const beyond = defencesAlreadyUsed + 1 - freeDefenceCount;
  return beyond > 0 ? beyond * EXTRA_DEFENCE_CS : 0;
}

/** Moving one's full speed: this shift on the action, unless it is a charge [001]. */
export const FULL_MOVE_CS = -1;
/** Moving one's full speed: at most this many actions that turn [001]. */
export const FULL_MOVE_MAX_ACTIONS = 1;

/**
 * The shift on the (single, see {@link FULL_MOVE_MAX_ACTIONS}) action of a character who moves
 * full speed this turn [001]: {@link FULL_MOVE_CS}, or 0 for a charge.
 */
export function fullMovePenalty(isCharge: boolean): number {
  if (typeof isCharge !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "isCharge", got: String(isCharge) });
  return isCharge ? 0 : FULL_MOVE_CS;
}

/** Changing a declared action takes an ACTION of this colour [001] … */
export const CHANGE_ACTION_REQUIRED_COLOR: Color = "yellow";
/** … on this sub-score, Agy (bal) [001]. */
export const CHANGE_ACTION_SUB_SCORE: SubScoreRef = "agility.bal";
/** The new action is taken at this shift [001]. */
export const CHANGE_ACTION_CS = -1;

/** The outcome of trying to change a declared action. */
export type ChangeActionOutcome =
  | { readonly allowed: true; readonly cs: number }
  | { readonly allowed: false };

/**
 * Changing a declared action [001]: success → the new action at {@link CHANGE_ACTION_CS};
 * failure → no action at all this turn.
 */
export function changeActionOutcome(success: boolean): ChangeActionOutcome {
  if (typeof success !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "success", got: String(success) });
  return success ? { allowed: true, cs: CHANGE_ACTION_CS } : { allowed: false };
}
