/**
 * What a CASE roll carries in its options (and so in the chat message, through
 * Roll#toJSON / Roll.fromData): the acting rank number, every column shift with its reason,
 * Karma, intensity or a fixed colour needed, and what was rolled. Parsed strictly, so a card
 * recorded with bad data says so instead of guessing.
 */
import {
  ATTACK_CODES,
  isColor,
  isRankNumber,
  isScoreRef,
  type AttackCode,
  type Color,
  type ScoreRef,
} from "../../rules/index";
import { RefusalError } from "../core/refusal-texts";

/** One column shift and why it applies. `label` is a localisation key or a name (a talent's). */
export interface ShiftReason {
  readonly cs: number;
  readonly label: string;
  /** True when `label` is a localisation key (else shown as written). */
  readonly localize: boolean;
}

export interface RollCheck {
  /** What is rolled: a localisation key (CASE.Score.…) or an item name. */
  readonly label: string;
  readonly localizeLabel: boolean;
  /** The ability or sub-score rolled on, when it is one. */
  readonly score: ScoreRef | null;
  /** Rank number of the acting ability, sub-score or power. */
  readonly value: number;
  readonly shifts: readonly ShiftReason[];
  /** Karma declared (0 or at least 10). */
  readonly karma: number;
  /** Rank number of the intensity to beat, or null. */
  readonly intensity: number | null;
  /** A fixed colour needed (e.g. yellow to change an action), or null. */
  readonly needed: Color | null;
  readonly blindsided: boolean;
  /** The attack this roll is the to-hit roll of, when it is one. */
  readonly attack: AttackCode | null;
}

/** The sum of a check's shifts. */
export function totalShift(check: RollCheck): number {
  return check.shifts.reduce((sum, s) => sum + s.cs, 0);
}

/** Refuses a roll's recorded data, naming the part that is wrong (its field). */
function fail(part: string): never {
  throw new RefusalError("rollDataBad", { part });
}

/** Validates untrusted roll options (from a message) into a RollCheck; a RangeError (RefusalError) naming the faulty part. */
export function parseRollCheck(raw: unknown): RollCheck {
  if (typeof raw !== "object" || raw === null) fail("case");
  const r = raw as Record<string, unknown>;
  if (typeof r.label !== "string") fail("label");
  if (!isRankNumber(r.value)) fail("value");
  if (!Array.isArray(r.shifts)) fail("shifts");
  const shifts = (r.shifts as unknown[]).map((s) => {
    const shift = s as Record<string, unknown> | null;
    if (typeof shift !== "object" || shift === null || typeof shift.cs !== "number" || !Number.isInteger(shift.cs) || typeof shift.label !== "string") fail("shifts");
    return { cs: shift.cs, label: shift.label, localize: shift.localize === true };
  });
  const karma = r.karma ?? 0;
  if (typeof karma !== "number" || !Number.isInteger(karma) || karma < 0) fail("karma");
  const intensity = r.intensity ?? null;
  if (intensity !== null && !isRankNumber(intensity)) fail("intensity");
  const needed = r.needed ?? null;
  if (needed !== null && !isColor(needed)) fail("needed");
  const score = r.score ?? null;
  if (score !== null && !isScoreRef(score)) fail("score");
  const attack = r.attack ?? null;
  if (attack !== null && !(ATTACK_CODES as readonly unknown[]).includes(attack)) fail("attack");
  return {
    label: r.label,
    localizeLabel: r.localizeLabel === true,
    score,
    value: r.value,
    shifts,
    karma,
    intensity,
    needed,
    blindsided: r.blindsided === true,
    attack: attack as AttackCode | null,
  };
}
