/**
 * How Active Effects change a score (a rank number): add, downgrade, upgrade and override,
 * applied in that order (Foundry's own order of change modes), each result clamped to the
 * ladder (never below Shift 0's 0). Derived values (Health, Karma, initiative …) are computed
 * from the changed scores with {@link characterStats}, so they follow the effects.
 */
import { ABILITY_KEYS } from "./abilities";
import { characterStats, isScoreRef, type AbilitiesInput, type CharacterStats, type ScoreRef } from "./character";
import { RANKS, assertRankNumber } from "./ranks";
import { assertArray, assertInteger, assertObject, assertOneOfValues, assertWholeNumber } from "./checks";
import { RulesRangeError } from "./errors";

/** Change modes, in the order they apply. */
export const SCORE_CHANGE_MODES = ["add", "downgrade", "upgrade", "override"] as const;
export type ScoreChangeMode = (typeof SCORE_CHANGE_MODES)[number];

/** One change to one score. */
export interface ScoreChange {
  readonly mode: ScoreChangeMode;
  /** A rank number; for "add" a whole number that may be negative. */
  readonly value: number;
  /** Order within the same mode (lower first; default 0). Ties keep their given order. */
  readonly priority?: number;
}

/** The top of the scale a change may reach (a safe whole number). */
const MAX_SCORE = Number.MAX_SAFE_INTEGER;

function clampScore(value: number): number {
  return Math.min(MAX_SCORE, Math.max(0, value));
}

/**
 * A score after its changes: by mode (add, downgrade, upgrade, override), then priority, then
 * given order. Adds are summed first and the sum clamped to [0, the largest safe number], so
 * their order never matters; the last override (by priority, then given order) decides.
 * RangeError for a bad base or change.
 */
export function applyScoreChanges(base: number, changes: readonly ScoreChange[]): number {
  assertRankNumber(base, "baseScore");
  assertArray(changes, { input: "scoreChanges" });
  const ordered = changes
    .map((c, i) => {
      assertObject(c, ["scoreChange", i + 1]);
      assertOneOfValues(c.mode, SCORE_CHANGE_MODES, ["scoreChangeMode", i + 1]);
      if (c.mode === "add") assertInteger(c.value, ["scoreChangeValue", i + 1]);
      else assertWholeNumber(c.value, ["scoreChangeValue", i + 1]);
      const priority = c.priority ?? 0;
      assertInteger(priority, ["scoreChangePriority", i + 1]);
      return { c, i, order: SCORE_CHANGE_MODES.indexOf(c.mode), priority };
    })
    .sort((a, b) => a.order - b.order || a.priority - b.priority || a.i - b.i);
  // Adds are summed before clamping, so their order never matters (−5 then +5 on 0 gives 0).
  let score = clampScore(base + ordered.filter((o) => o.c.mode === "add").reduce((sum, o) => sum + o.c.value, 0));
  for (const { c } of ordered) {
    if (c.mode === "downgrade") score = Math.min(score, c.value);
    else if (c.mode === "upgrade") score = Math.max(score, c.value);
    else if (c.mode === "override") score = c.value;
  }
  return score;
}

/** Changes keyed by the score they change: an ability ("strength") or a sub-score ("fighting.off"). */
export type ScoreChanges = Readonly<Partial<Record<ScoreRef, readonly ScoreChange[]>>>;

/**
 * The abilities after effects: an ability's changes apply to its rank number; a sub-score's to
 * the sub-score (which is then set apart when it was following its ability). Sub-scores set
 * apart keep their own number and take only their own changes.
 */
export function abilitiesAfterEffects(abilities: AbilitiesInput, changes: ScoreChanges): AbilitiesInput {
  assertObject(abilities, "abilities");
  assertObject(changes, { input: "scoreChanges" });
  for (const key of Object.keys(changes)) {
    if (!isScoreRef(key)) throw new RulesRangeError("effectNotScore", { got: key });
  }
  const out: Record<string, Record<string, number | null | undefined>> = {};
  for (const key of ABILITY_KEYS) {
    const ability = abilities[key];
    const value = applyScoreChanges(ability.value, changes[key] ?? []);
    const next: Record<string, number | null | undefined> = { ...ability, value };
    for (const [ref, list] of Object.entries(changes)) {
      const [ab, sub] = ref.split(".");
      if (ab !== key || sub === undefined) continue;
      const own = ability[sub];
      next[sub] = applyScoreChanges(own ?? value, list);
    }
    out[key] = next;
  }
  return out as unknown as AbilitiesInput;
}

/** Derived values after effects: {@link characterStats} of {@link abilitiesAfterEffects}. */
export function statsAfterEffects(abilities: AbilitiesInput, changes: ScoreChanges): CharacterStats {
  return characterStats(abilitiesAfterEffects(abilities, changes));
}

/**
 * The value of a change that stands for the rank of the power or item carrying the effect:
 * Super Strength's "Strength becomes the power's rank" follows the power when it is re-ranked.
 */
export const OWN_RANK_VALUE = "@rank";

/**
 * Reads an Active Effect change's value (stored as text): a whole number ("24", "-10" for
 * an add), a rank's name or key ("Remarkable", "remarkable", "Shift 0"), or
 * {@link OWN_RANK_VALUE} for `ownRank`, the rank of what carries the effect. RangeError naming
 * the value for anything else (a fraction, a word, "@rank" where nothing carries a rank):
 * never a guess. Whether the number is allowed for its mode is {@link applyScoreChanges}'s check.
 */
export function parseChangeValue(value: unknown, ownRank: number | null): number {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : null;
  if (text === null || text === "") throw new RulesRangeError("changeValueEmpty", { own: OWN_RANK_VALUE });
  if (text.toLowerCase() === OWN_RANK_VALUE) {
    if (ownRank === null) throw new RulesRangeError("changeValueOwnNoRank", { own: OWN_RANK_VALUE });
    assertRankNumber(ownRank, "carryingItemRank");
    return ownRank;
  }
  if (/^[+-]?\d+$/.test(text)) {
    const n = Number(text);
    assertInteger(n, "changeValue");
    return n;
  }
  const lower = text.toLowerCase();
  const rank = RANKS.find((r) => r.key.toLowerCase() === lower || r.name.toLowerCase() === lower);
  if (rank) return rank.number;
  throw new RulesRangeError("changeValueUnknown", { got: text, own: OWN_RANK_VALUE });
}

/** One change as it reaches the rules: which score (or protection), how, and the text of its value. */
export interface ScoreChangeCheck {
  readonly mode: ScoreChangeMode;
  readonly value: number;
}

/** Throws (RangeError) unless `change` could apply: a whole number for an add, a rank number otherwise. */
export function assertScoreChange(change: ScoreChangeCheck): void {
  applyScoreChanges(0, [change]);
}
