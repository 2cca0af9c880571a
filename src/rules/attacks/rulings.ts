import { EDGED_THROWING_PULL_RULE, PARTIAL_HOLD_CS, assertBoolean, type PullRule } from "./definitions";
import { RulesRangeError, RulesTypeError } from "../errors";

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
 * [RULING] The rebound a charger takes (the target's body armor) is itself damage that the
 * charger's own body armor absorbs ([001]: "If he or she also possesses like armor, this damage
 * will be radiated out"). Default true; false means the charger always takes the full rebound.
 */
export const CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR = true as boolean;

/** Every {@link StrengthContestMode}. */
export const STRENGTH_CONTEST_MODES: readonly StrengthContestMode[] = Object.freeze(["number", "rank"]);

/** The two ways of judging "stronger": by rank number or by rank (column). */
export type StrengthContestMode = "number" | "rank";

/**
 * [RULING] How "stronger" is judged in Take and full-hold damage: "number" compares rank
 * numbers (31 beats 30); "rank" compares ranks (columns) only (31 and 30 are both Remarkable,
 * so neither beats the other). [001] says "if their Strength is greater". Default "number".
 */
export const STRENGTH_CONTEST_BY: StrengthContestMode = "number";

/** The two readings of Take and Full Hold damage (errata §5): a plain comparison of Strengths, or a Strength ACTION. */
export const STRENGTH_CONTEST_RULES = ["comparison", "action"] as const;
export type StrengthContestRule = (typeof STRENGTH_CONTEST_RULES)[number];

/**
 * [RULING] (CASE-RULES §5, Errata §5) How Take and Full Hold damage are decided: [001] gives both
 * "if their Strength is greater" (a comparison, {@link STRENGTH_CONTEST_BY}) and "must roll a
 * Strength ACTION against" the other's Strength (an ACTION at that intensity). A world setting;
 * the reference's default is the ACTION.
 */
export const TAKE_AND_FULL_HOLD_BY: StrengthContestRule = "action";

/**
 * [RULING] A full hold's CS on the held's actions (other than Escape, which it allows). [001]
 * says only that the held "cannot move at all"; a full hold is never milder than a partial one,
 * so it carries the same −2 CS.
 */
export const FULL_HOLD_CS = PARTIAL_HOLD_CS;

// ── Rulings as data (for world settings) ──────────────────────────────────────────────────────
/**
 * The [RULING] choices of this module as one object, so a world setting or a module can pass
 * its own values to the functions that take an optional `rulings` argument. A field left out
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

/** The `rulings` argument left out: the default rulings, which need no merging or checking. */
export const NO_ATTACK_OVERRIDES: Partial<AttackRulings> = Object.freeze({});

/** The rulings `overrides` stand for ({@link DEFAULT_ATTACK_RULINGS} itself when left out, not merged again on every call). */
export function attackRulingsFrom(overrides: Partial<AttackRulings>): AttackRulings {
  return overrides === NO_ATTACK_OVERRIDES ? DEFAULT_ATTACK_RULINGS : resolveAttackRulings(overrides);
}

/**
 * The defaults overlaid with `overrides`, each override checked (RangeError/TypeError naming the
 * field and value).
 */
export function resolveAttackRulings(overrides: Partial<AttackRulings> = {}): AttackRulings {
  const given: unknown = overrides;
  if (typeof given !== "object" || given === null) {
    throw new RulesTypeError("inputNotObject", { name: "attackRulings", got: String(given) });
  }
  const r: AttackRulings = { ...DEFAULT_ATTACK_RULINGS, ...overrides };
  if (!PULL_RULES.includes(r.edgedThrowingPull)) {
    throw new RulesRangeError("inputNotOneOf", { name: "rulings.edgedThrowingPull", allowed: PULL_RULES.join(", "), got: `"${r.edgedThrowingPull}"` });
  }
  assertBoolean(r.pullToMissAllowed, { input: "rulings.pullToMissAllowed" });
  assertBoolean(r.pullDamageAndColorTogether, { input: "rulings.pullDamageAndColorTogether" });
  assertBoolean(r.chargeReboundAbsorbed, { input: "rulings.chargeReboundAbsorbed" });
  if (!STRENGTH_CONTEST_MODES.includes(r.strengthContestBy)) {
    throw new RulesRangeError("inputNotOneOf", { name: "rulings.strengthContestBy", allowed: "number, rank", got: `"${r.strengthContestBy}"` });
  }
  if (!Number.isInteger(r.fullHoldCs)) throw new RulesRangeError("inputNotWhole", { name: "rulings.fullHoldCs", got: String(r.fullHoldCs) });
  return r;
}
