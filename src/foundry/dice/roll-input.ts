/**
 * What a player enters before an ACTION (CASE-RULES §2): extra column shifts and why, an
 * intensity to beat, Karma declared before the roll (none, or at least 10, never more than
 * the pool) and whether the actor is blindsided (then no Karma). Parsed strictly from the
 * dialog's form, so a bad entry is named instead of guessed.
 */
import { KARMA_MINIMUM, isRankNumber } from "../../rules/index";
import { readWhole } from "../core/format";

export interface RollInput {
  readonly cs: number;
  readonly reason: string;
  readonly intensity: number | null;
  readonly karma: number;
  readonly blindsided: boolean;
}

/** The input of a roll made without the dialog (shift-click). */
export const DEFAULT_ROLL_INPUT: RollInput = Object.freeze({ cs: 0, reason: "", intensity: null, karma: 0, blindsided: false });

/** Largest column shift the dialog accepts either way (the ladder has 17 rows). */
export const MAX_DIALOG_CS = 16;

export type RollInputResult = { ok: true; value: RollInput } | { ok: false; errorKey: string; data?: Record<string, string> };

/** Validates the dialog's form data against the actor's Karma pool. */
export function parseRollInput(form: Record<string, unknown>, karmaPool: number): RollInputResult {
  const cs = readWhole(form.cs, { blank: 0 });
  if (cs === null || Math.abs(cs) > MAX_DIALOG_CS) return { ok: false, errorKey: "CASE.Dialog.Error.Shift", data: { max: String(MAX_DIALOG_CS) } };
  const karma = readWhole(form.karma, { blank: 0 });
  if (karma === null || karma < 0) return { ok: false, errorKey: "CASE.Dialog.Error.Karma" };
  if (karma > 0 && karma < KARMA_MINIMUM) return { ok: false, errorKey: "CASE.Dialog.Error.KarmaMinimum", data: { min: String(KARMA_MINIMUM) } };
  if (karma > karmaPool) return { ok: false, errorKey: "CASE.Dialog.Error.KarmaPool", data: { pool: String(karmaPool) } };
  const blindsided = form.blindsided === true || form.blindsided === "on" || form.blindsided === "true";
  if (blindsided && karma > 0) return { ok: false, errorKey: "CASE.Dialog.Error.KarmaBlindsided" };
  let intensity: number | null = null;
  if (form.intensity !== undefined && form.intensity !== null && form.intensity !== "") {
    const n = readWhole(form.intensity);
    if (n === null || !isRankNumber(n)) return { ok: false, errorKey: "CASE.Dialog.Error.Intensity" };
    intensity = n;
  }
  const reason = typeof form.reason === "string" ? form.reason.trim().slice(0, 100) : "";
  return { ok: true, value: { cs, reason, intensity, karma, blindsided } };
}
