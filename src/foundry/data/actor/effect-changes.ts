/**
 * Active Effect changes as CASE reads them. An effect's change names a `system.*` path of the
 * character, a Foundry mode and a text value. The ones CASE applies itself are the scores
 * (`system.abilities.<ability>.value` or `.<sub-score>`) and the protection an effect gives
 * (`system.protection.physical` / `.energy`): they go through the rules' `applyScoreChanges`
 * (add, downgrade, upgrade, override; clamped to the ladder) instead of Foundry's plain
 * arithmetic, and a bad one is refused with a reason the sheet shows, never applied as a guess.
 * Every other key is left to Foundry.
 */
import {
  ABILITY_KEYS,
  SUB_SCORES,
  assertScoreChange,
  isScoreRef,
  parseChangeValue,
  type AbilityKey,
  type ScoreChange,
  type ScoreChangeMode,
  type ScoreChanges,
  type ScoreRef,
} from "../../../rules/index";
import { isKeyedError, type KeyedError } from "../../../rules/errors";

/**
 * Foundry's `CONST.ACTIVE_EFFECT_MODES` (public API: CUSTOM 0, MULTIPLY 1, ADD 2, DOWNGRADE 3,
 * UPGRADE 4, OVERRIDE 5). CASE scores take the last four; a rank is not multiplied.
 */
export const EFFECT_MODE_NUMBERS: Readonly<Record<ScoreChangeMode, number>> = Object.freeze({ add: 2, downgrade: 3, upgrade: 4, override: 5 });

/** The protection kinds an effect may change (rules/protection.ts: a source's physical and energy ranks). */
export const EFFECT_PROTECTION_KINDS = ["physical", "energy"] as const;
export type EffectProtectionKind = (typeof EFFECT_PROTECTION_KINDS)[number];

/** One change of one applicable effect, as the actor collects it. */
export interface EffectChangeInput {
  /** The effect's name, for the problem shown on the sheet. */
  readonly effect: string;
  readonly key: string;
  /** Foundry's mode number (v13), or a change type's name ("add", "upgrade" …). */
  readonly mode: unknown;
  readonly value: unknown;
  readonly priority?: number | null;
  /** The rank of the power or item that carries the effect ("@rank"), or null. */
  readonly ownRank: number | null;
}

/** A change CASE refused: shown on the sheet's Effects tab with `reason` (a localisation key). */
export interface EffectProblem {
  readonly effect: string;
  readonly key: string;
  readonly value: string;
  /** `CASE.Effects.Problem.*` */
  readonly reason: string;
  /** The explanation (English), for the tooltip and the console. */
  readonly detail: string;
  /** The rules' reason by key, when the rules refused the value: shown in the reader's language (effectProblemDetail). */
  readonly cause?: KeyedError;
}

/** What the changes of a character's applicable effects come to. */
export interface ReadEffectChanges {
  readonly scores: ScoreChanges;
  readonly protection: Readonly<Record<EffectProtectionKind, readonly ScoreChange[]>>;
  readonly problems: readonly EffectProblem[];
}

const ABILITIES_PREFIX = "system.abilities.";
const PROTECTION_PREFIX = "system.protection.";

/** True for a key CASE applies itself (scores and protection); Foundry applies the rest. */
export function isCaseChangeKey(key: unknown): boolean {
  return typeof key === "string" && (key.startsWith(ABILITIES_PREFIX) || key.startsWith(PROTECTION_PREFIX));
}

/** The score a `system.abilities.*` key names ("strength", "fighting.off"), or null. */
export function scoreOfKey(key: string): ScoreRef | null {
  if (!key.startsWith(ABILITIES_PREFIX)) return null;
  const [ability, part, ...rest] = key.slice(ABILITIES_PREFIX.length).split(".");
  if (rest.length > 0 || ability === undefined || part === undefined || !(ABILITY_KEYS as readonly string[]).includes(ability)) return null;
  const key_ = ability as AbilityKey;
  if (part === "value") return key_;
  return (SUB_SCORES[key_] as readonly string[]).includes(part) ? (`${key_}.${part}` as ScoreRef) : null;
}

function protectionOfKey(key: string): EffectProtectionKind | null {
  const kind = key.startsWith(PROTECTION_PREFIX) ? key.slice(PROTECTION_PREFIX.length) : null;
  return kind !== null && (EFFECT_PROTECTION_KINDS as readonly string[]).includes(kind) ? (kind as EffectProtectionKind) : null;
}

/** The label of a change's key (a localisation key): an ability or sub-score, a protection kind, or else "another field" with the key as typed. */
export function changeKeyLabel(key: string): { readonly label: string; readonly text: string | null } {
  const score = scoreOfKey(key);
  if (score !== null && isScoreRef(score)) return { label: (ABILITY_KEYS as readonly string[]).includes(score) ? `CASE.Ability.${score}` : `CASE.Score.${score}`, text: null };
  const kind = EFFECT_PROTECTION_KINDS.find((k) => key === `system.protection.${k}`);
  if (kind) return { label: `CASE.Effects.Protection.${kind}`, text: null };
  return { label: "CASE.Effects.OtherKey", text: key };
}

/** The rules' mode of a change: Foundry's mode number, or its name (the change types of v14 are named). */
export function modeOf(mode: unknown): ScoreChangeMode | null {
  if (typeof mode === "string") return (Object.keys(EFFECT_MODE_NUMBERS) as ScoreChangeMode[]).find((m) => m === mode.toLowerCase()) ?? null;
  const found = Object.entries(EFFECT_MODE_NUMBERS).find(([, n]) => n === mode);
  return found ? (found[0] as ScoreChangeMode) : null;
}

/**
 * Sorts the changes CASE applies into score and protection changes, each checked by the rules;
 * a change with an unknown key, a mode CASE does not take (multiply, custom) or a bad value
 * (a rank of −3, "lots") becomes a problem and is not applied. Keys CASE leaves to Foundry
 * are skipped.
 */
export function readEffectChanges(inputs: Iterable<EffectChangeInput>): ReadEffectChanges {
  const scores: Partial<Record<ScoreRef, ScoreChange[]>> = {};
  const protection: Record<EffectProtectionKind, ScoreChange[]> = { physical: [], energy: [] };
  const problems: EffectProblem[] = [];
  for (const input of inputs) {
    if (!isCaseChangeKey(input.key)) continue;
    const shown = typeof input.value === "string" || typeof input.value === "number" ? String(input.value) : "";
    const problem = (reason: string, detail: string, cause?: KeyedError) => problems.push({ effect: input.effect, key: input.key, value: shown, reason, detail, ...(cause ? { cause } : {}) });
    const score = scoreOfKey(input.key);
    const kind = protectionOfKey(input.key);
    if (score === null && kind === null) {
      problem("CASE.Effects.Problem.Key", `"${input.key}" is not an ability, sub-score or protection (physical, energy).`);
      continue;
    }
    const mode = modeOf(input.mode);
    if (mode === null) {
      problem("CASE.Effects.Problem.Mode", `Mode ${JSON.stringify(input.mode)} does not apply to a rank: use add, downgrade, upgrade or override.`);
      continue;
    }
    try {
      const value = parseChangeValue(input.value, input.ownRank);
      const change: ScoreChange = { mode, value, ...(typeof input.priority === "number" && Number.isInteger(input.priority) ? { priority: input.priority } : {}) };
      assertScoreChange(change);
      if (score !== null) (scores[score] ??= []).push(change);
      else if (kind !== null) protection[kind].push(change);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      problem("CASE.Effects.Problem.Value", error.message, isKeyedError(error) ? { key: error.key, data: error.data } : undefined);
    }
  }
  return { scores, protection, problems };
}
