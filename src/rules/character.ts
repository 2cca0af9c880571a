/**
 * A character's derived values (CASE-RULES §3, §4, §9), composed from the rule functions so
 * the data models only copy them: ranks of every ability, the effective sub-scores, Health
 * and Karma maxima, initiative modifier (Table 23), actions and free defences per turn
 * (Table 22), running speed and thrown range.
 */
import {
  ABILITY_KEYS,
  PHYSICAL_ABILITY_KEYS,
  SUB_SCORES,
  SUB_SCORE_REFS,
  health,
  karma,
  runningSpeed,
  subScoreValue,
  thrownRange,
  type AbilityKey,
  type PhysicalAbilityKey,
  type SubScoreRef,
  type ThrownRange,
} from "./abilities";
import { actionsPerTurn, freeDefences } from "./actions";
import { initiativeModifier } from "./initiative";
import { assertRankNumber, isRankNumber, rankOf, type RankKey } from "./ranks";
import { RulesRangeError } from "./errors";

/** One ability as stored: its rank number and, for physical ones, sub-scores set apart (or null). */
export interface AbilityInput {
  readonly value: number;
  readonly [sub: string]: number | null | undefined;
}

/** The seven abilities as stored on a character. */
export type AbilitiesInput = Readonly<Record<AbilityKey, AbilityInput>>;

/** A score a roll can be made on: an ability or one of its sub-scores. */
export type ScoreRef = AbilityKey | SubScoreRef;

export interface CharacterStats {
  /** The rank key of every ability (its column). */
  readonly ranks: Readonly<Record<AbilityKey, RankKey>>;
  /** Effective rank numbers of every ability and sub-score (a sub-score not set apart follows its ability). */
  readonly scores: Readonly<Record<ScoreRef, number>>;
  /** Which sub-scores the character has set apart from their ability. */
  readonly setApart: Readonly<Record<SubScoreRef, boolean>>;
  readonly healthMax: number;
  readonly karmaMax: number;
  /** Table 23, by Intuition. */
  readonly initiative: number;
  /** Table 22, by Ftg (off): offensive actions per turn possible with an extra-action roll. */
  readonly actionsPerTurn: number;
  /** Table 22, by Ftg (def): defences per turn without penalty. */
  readonly freeDefences: number;
  /** Areas per turn, by Str (vgr). */
  readonly runningSpeed: number;
  /** Table 24 by Str (mgt): areas an item can be thrown. */
  readonly thrownRange: ThrownRange;
}

/** Derives every value of {@link CharacterStats}. RangeError naming the field for a bad rank number. */
export function characterStats(abilities: AbilitiesInput): CharacterStats {
  const scores = {} as Record<ScoreRef, number>;
  const setApart = {} as Record<SubScoreRef, boolean>;
  const ranks = {} as Record<AbilityKey, RankKey>;
  for (const key of ABILITY_KEYS) {
    const ability = abilities[key];
    assertRankNumber(ability.value, key);
    scores[key] = ability.value;
    ranks[key] = rankOf(ability.value).key;
    for (const sub of SUB_SCORES[key] as readonly string[]) {
      const ref = `${key}.${sub}` as SubScoreRef;
      const override = ability[sub];
      if (override !== null && override !== undefined && !isRankNumber(override)) throw new RulesRangeError("scoreNotRank", { score: ref, got: String(override) });
      scores[ref] = subScoreValue(ability.value, override);
      setApart[ref] = override !== null && override !== undefined;
    }
  }
  const physical = Object.fromEntries(PHYSICAL_ABILITY_KEYS.map((k) => [k, scores[k]])) as Record<PhysicalAbilityKey, number>;
  return {
    ranks,
    scores,
    setApart,
    healthMax: health(physical),
    karmaMax: karma({ reason: scores.reason, intuition: scores.intuition, psyche: scores.psyche }),
    initiative: initiativeModifier(scores.intuition),
    actionsPerTurn: actionsPerTurn(scores["fighting.off"]),
    freeDefences: freeDefences(scores["fighting.def"]),
    runningSpeed: runningSpeed(scores["strength.vgr"]),
    thrownRange: thrownRange(scores["strength.mgt"]),
  };
}

/** True when `ref` names an ability or a sub-score. */
export function isScoreRef(ref: unknown): ref is ScoreRef {
  return typeof ref === "string" && ((ABILITY_KEYS as readonly string[]).includes(ref) || (SUB_SCORE_REFS as readonly string[]).includes(ref));
}

/** The ability a score belongs to: "fighting.off" → "fighting". */
export function abilityOfScore(ref: ScoreRef): AbilityKey {
  if (!isScoreRef(ref)) throw new RulesRangeError("unknownScore", { got: String(ref) });
  return ref.split(".")[0] as AbilityKey;
}
