import { assertRankNumber, rankOf } from "../ranks";
import { resolveAction } from "../actions";
import type { Color, UniversalTable } from "../universal-table";
import { PARTIAL_HOLD_CS, assertBoolean } from "./definitions";
import { STRENGTH_CONTEST_BY, STRENGTH_CONTEST_MODES, NO_ATTACK_OVERRIDES, attackRulingsFrom, type AttackRulings, type StrengthContestMode } from "./rulings";
import { RulesRangeError } from "../errors";

// ── Wrestling: grabbing and holds ─────────────────────────────────────────────────────────────



/** True when Strength `a` beats Strength `b` strictly, per {@link STRENGTH_CONTEST_BY}. */
export function strengthBeats(a: number, b: number, by: StrengthContestMode = STRENGTH_CONTEST_BY): boolean {
  assertRankNumber(a, "strength");
  assertRankNumber(b, "opposingStrength");
  if (!STRENGTH_CONTEST_MODES.includes(by)) {
    throw new RulesRangeError("notOneOf", { field: "strengthContest", allowed: "number, rank", got: `"${by}"` });
  }
  return by === "rank" ? rankOf(a).index > rankOf(b).index : a > b;
}

/**
 * Take (a green Grabbing roll) [001]: the grabber gets the item only if their Strength is
 * strictly greater than the holder's (or the item's material strength, if not held).
 */
export function takeSucceeds(grabberStrength: number, holderStrengthOrMS: number, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): boolean {
  return strengthBeats(grabberStrength, holderStrengthOrMS, attackRulingsFrom(rulings).strengthContestBy);
}

/**
 * The outcome of a Take [001]: "grabbed", else "struggle" with the holder — or "miss" when the
 * item was loose (not held by anyone: "if 'loose', treat as a miss result instead").
 */
export function takeOutcome(
  grabberStrength: number,
  holderStrengthOrMS: number,
  itemLoose = false,
  rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES,
): "grabbed" | "struggle" | "miss" {
  assertBoolean(itemLoose, { input: "itemLoose" });
  if (takeSucceeds(grabberStrength, holderStrengthOrMS, rulings)) return "grabbed";
  return itemLoose ? "miss" : "struggle";
}



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
export function holdEffects(hold: HoldState, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): HoldEffects {
  const r = attackRulingsFrom(rulings);
  switch (hold) {
    case "none":
      return { heldActionCs: 0, heldCanMove: true, holderOtherActions: 0 };
    case "partialHold":
      return { heldActionCs: PARTIAL_HOLD_CS, heldCanMove: true, holderOtherActions: HOLDER_OTHER_ACTIONS };
    case "fullHold":
      return { heldActionCs: r.fullHoldCs, heldCanMove: false, holderOtherActions: HOLDER_OTHER_ACTIONS };
    default: {
      const bad: unknown = hold;
      throw new RulesRangeError("unknownValue", { field: "holdState", got: String(bad) });
    }
  }
}

/**
 * Full hold damage [001]: the holder deals damage (its Strength, less the held's body armor) only
 * if stronger than the held, per {@link STRENGTH_CONTEST_BY}.
 */
export function fullHoldDealsDamage(holderStrength: number, heldStrength: number, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): boolean {
  return strengthBeats(holderStrength, heldStrength, attackRulingsFrom(rulings).strengthContestBy);
}

/** A Strength ACTION of Take or Full Hold (errata §5, the "action" reading): the d100, its colour, and whether it succeeded. */
export interface StrengthContestRoll {
  readonly die: number;
  readonly color: Color;
  readonly success: boolean;
}

/**
 * The "action" reading of Take and Full Hold damage [001: "must roll a Strength ACTION against"
 * the holder's (or the held one's) Strength, or an item's material strength]: `die` on the
 * attacker's Strength column against that intensity (§2). RangeError for bad input.
 */
export function strengthAction(strength: number, opposing: number, die: number, table?: UniversalTable): StrengthContestRoll {
  const r = resolveAction({ value: strength, roll: die, intensity: opposing, ...(table ? { table } : {}) });
  return { die, color: r.color, success: r.success };
}

// ── Blindsiding ───────────────────────────────────────────────────────────────────────────────
/** The circumstances of an incoming attack that decide whether it can be defended. */
export interface DefendContext {
  /** The target is unaware of the attack (sniper, ally, someone behind) [000]. */
  readonly blindsided: boolean;
}

/** A blindsided attack cannot be dodged or otherwise defended [000]. */
export function canDefend({ blindsided }: DefendContext): boolean {
  assertBoolean(blindsided, { input: "blindsided" });
  return !blindsided;
}
