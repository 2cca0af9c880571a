/**
 * Powers and talents (CASE-RULES §10).
 */
import { ABILITY_KEYS, SUB_SCORE_REFS } from "./abilities";
import { ATTACK_CODES, type AttackCode } from "./attacks";
import type { ScoreRef } from "./character";
import { DEFENCE_CODES, type DefenceCode } from "./defences";
import { RulesRangeError } from "./errors";

/** Power categories [CASE]. */
export const POWER_CATEGORIES = [
  "physicalEnhancement",
  "physicalControl",
  "physicalWeaponry",
  "energyControl",
  "energyGeneration",
  "matterControl",
  "mental",
  "powerControl",
  "spells",
] as const;
export type PowerCategory = (typeof POWER_CATEGORIES)[number];

export function isPowerCategory(value: unknown): value is PowerCategory {
  return typeof value === "string" && (POWER_CATEGORIES as readonly string[]).includes(value);
}

/** A talent's bonus [CASE-RULES §10]. */
export const TALENT_CS = 1;
/** A talent doubled up by specialisation. */
export const TALENT_DOUBLED_CS = 2;
/**
 * [RULING] Talents do not add up: of the talents that cover a roll, the best one applies.
 * The sources give +1 CS per talent and +2 CS for a specialisation, never a sum.
 */
export const TALENTS_STACK = false;

/** What a talent can cover: an ability (all its rolls), a sub-score, an attack type, or a defence. */
export type TalentCover = ScoreRef | AttackCode | DefenceCode;

export const TALENT_COVERS: readonly TalentCover[] = Object.freeze([...ABILITY_KEYS, ...SUB_SCORE_REFS, ...ATTACK_CODES, ...DEFENCE_CODES]);

export function isTalentCover(value: unknown): value is TalentCover {
  return typeof value === "string" && (TALENT_COVERS as readonly string[]).includes(value);
}

/** A talent as the rules need it. */
export interface TalentInput {
  readonly name: string;
  readonly covers: readonly string[];
  readonly doubled: boolean;
}

/** What a roll is: the score it is made on, and the attack or defence it is, when it is one. */
export interface RollContext {
  readonly score: ScoreRef;
  readonly attack?: AttackCode | undefined;
  readonly defence?: DefenceCode | undefined;
}

/** The column shift talents give a roll, and which talents gave it (for the card). */
export interface TalentShift {
  readonly cs: number;
  readonly talents: readonly string[];
}

/** True when a talent covers a roll: its ability, its sub-score, its attack type or its defence. */
export function talentCovers(talent: TalentInput, context: RollContext): boolean {
  for (const cover of talent.covers) {
    if (!isTalentCover(cover)) throw new RulesRangeError("talentCoverUnknown", { name: talent.name, got: cover });
  }
  const ability = context.score.split(".")[0] ?? "";
  return talent.covers.some(
    (c) => c === context.score || c === ability || (context.attack !== undefined && c === context.attack) || (context.defence !== undefined && c === context.defence),
  );
}

/** The +CS talents give a roll: the best covering talent (or their sum if {@link TALENTS_STACK}). */
export function talentShift(talents: readonly TalentInput[], context: RollContext, stack = TALENTS_STACK): TalentShift {
  const covering = talents.filter((t) => talentCovers(t, context));
  if (covering.length === 0) return { cs: 0, talents: [] };
  const value = (t: TalentInput): number => (t.doubled ? TALENT_DOUBLED_CS : TALENT_CS);
  if (stack) return { cs: covering.reduce((s, t) => s + value(t), 0), talents: covering.map((t) => t.name) };
  const best = covering.reduce((a, b) => (value(b) > value(a) ? b : a));
  return { cs: value(best), talents: [best.name] };
}
