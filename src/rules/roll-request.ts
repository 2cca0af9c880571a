/**
 * A Judge's request for a roll ("Roll Endurance against Incredible"): one score, an optional
 * intensity, and a row for each character asked. Each row is rolled once, by its character's
 * owner (or the Judge); the results gather on the request. Pure: the Foundry side (the chat
 * card, who owns what, the dice) asks here what may happen next and applies the transitions.
 */
import { isScoreRef, type ScoreRef } from "./character";
import { rulesErrorText, type ErrorData, type KeyedError, type RulesErrorKey } from "./errors";
import { isRankNumber } from "./ranks";
import { COLORS, type Color } from "./universal-table";

/** The stored shape's version: a newer one is refused, not guessed at. */
export const ROLL_REQUEST_VERSION = 1;

/** [RULING] The most characters one request may ask (a card stays readable; a big crowd is asked in groups). */
export const MAX_ROLL_REQUEST_ROWS = 24;

/** The longest label a request may carry. */
export const MAX_ROLL_REQUEST_LABEL = 200;

/** What a rolled row shows. */
export interface RollRequestResult {
  /** The d100 as rolled. */
  readonly die: number;
  /**
   * The rank number rolled on, before shifts; null on a sealed row (an NPC's: the card is
   * public, and players never see an NPC's scores).
   */
  readonly value: number | null;
  /** The sum of the roll's column shifts (talents, conditions, the running turn's, the roller's own); null on a sealed row. */
  readonly shift: number | null;
  /** Each shift with its reason (a localisation key or a talent's name); absent on a sealed row and on rows rolled before reasons were kept. */
  readonly shifts?: readonly RollRequestShift[];
  /** Karma added to the roll. */
  readonly karma: number;
  readonly color: Color;
  readonly success: boolean;
}

/** One column shift on a rolled row, and why. */
export interface RollRequestShift {
  readonly cs: number;
  readonly label: string;
  /** `label` is a localisation key (else a name, shown as written). */
  readonly localize: boolean;
}

export interface RollRequestRow {
  /** The row's key: its index as a string, stable for the request's life. */
  readonly key: string;
  readonly actorUuid: string;
  readonly name: string;
  /** Null until the row is rolled. */
  readonly result: RollRequestResult | null;
}

export interface RollRequest {
  readonly version: number;
  readonly score: ScoreRef;
  /** The rank number of the intensity to beat, or null (green succeeds). */
  readonly intensity: number | null;
  /** The Judge's own words for the roll, or null. */
  readonly label: string | null;
  readonly rows: readonly RollRequestRow[];
}

/** Why a request or a transition was refused. `stale`: it already happened. */
export class RollRequestError extends Error implements KeyedError {
  constructor(
    readonly kind: "invalid" | "stale",
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "RollRequestError";
  }
}

/** A character to ask. */
export interface RollRequestSubject {
  readonly actorUuid: string;
  readonly name: string;
}

function invalid(key: RulesErrorKey, data?: ErrorData): never {
  throw new RollRequestError("invalid", key, data);
}

/** A stored request that does not hold together: `at` names the field (JSON path). */
function malformed(at: string): never {
  return invalid("requestMalformed", { at });
}

function cleanLabel(label: string | null): string | null {
  if (label === null) return null;
  const text = label.trim().replace(/\s+/g, " ");
  if (text.length > MAX_ROLL_REQUEST_LABEL) invalid("requestLabelTooLong", { max: MAX_ROLL_REQUEST_LABEL });
  return text === "" ? null : text;
}

/**
 * A new request: every subject once (the same actor asked twice is one row), at least one and
 * at most {@link MAX_ROLL_REQUEST_ROWS}. RollRequestError("invalid") naming the fault.
 */
export function createRollRequest(score: ScoreRef, intensity: number | null, label: string | null, subjects: readonly RollRequestSubject[]): RollRequest {
  if (!isScoreRef(score)) invalid("requestNotScore", { got: String(score) });
  if (intensity !== null && !isRankNumber(intensity)) invalid("requestIntensityNotRank", { got: String(intensity) });
  const seen = new Set<string>();
  const rows: RollRequestRow[] = [];
  for (const subject of subjects) {
    if (subject.actorUuid === "" || seen.has(subject.actorUuid)) continue;
    seen.add(subject.actorUuid);
    rows.push({ key: String(rows.length), actorUuid: subject.actorUuid, name: subject.name, result: null });
  }
  if (rows.length === 0) invalid("requestNoSubject");
  if (rows.length > MAX_ROLL_REQUEST_ROWS) invalid("requestTooManyRows", { max: MAX_ROLL_REQUEST_ROWS, got: rows.length });
  return { version: ROLL_REQUEST_VERSION, score, intensity, label: cleanLabel(label), rows };
}

/** The row `key`; RollRequestError("invalid") when there is none. */
export function requestRow(request: RollRequest, key: string): RollRequestRow {
  const row = request.rows.find((r) => r.key === key);
  if (!row) invalid("requestNoRow", { key });
  return row;
}

/** Whether row `key` may still be rolled (once: a rolled row is final). */
export function mayRollRequestRow(request: RollRequest, key: string): boolean {
  return request.rows.some((r) => r.key === key && r.result === null);
}

/** The request with row `key` rolled. RollRequestError("stale") when it already was. */
export function recordRequestResult(request: RollRequest, key: string, result: RollRequestResult): RollRequest {
  const row = requestRow(request, key);
  if (row.result !== null) throw new RollRequestError("stale", "requestRolled", { name: row.name });
  checkResult(result);
  return { ...request, rows: request.rows.map((r) => (r === row ? { ...r, result } : r)) };
}

/** How a request stands: rows rolled, still waiting, and successes among the rolled. */
export function requestTally(request: RollRequest): { rolled: number; waiting: number; successes: number } {
  let rolled = 0;
  let successes = 0;
  for (const row of request.rows) {
    if (row.result === null) continue;
    rolled++;
    if (row.result.success) successes++;
  }
  return { rolled, waiting: request.rows.length - rolled, successes };
}

function checkResult(r: RollRequestResult): void {
  if (!Number.isInteger(r.die) || r.die < 1 || r.die > 100) invalid("requestDieBad", { got: String(r.die) });
  if (r.value !== null && !isRankNumber(r.value)) malformed("value");
  if (r.shift !== null && !Number.isInteger(r.shift)) malformed("shift");
  if ((r.value === null) !== (r.shift === null)) invalid("requestSealedHalf");
  if (r.shifts !== undefined) {
    const list: unknown = r.shifts;
    if (r.shift === null) invalid("requestSealedShifts");
    if (!Array.isArray(list)) malformed("shifts");
    for (const x of r.shifts) if (!Number.isInteger(x.cs) || x.cs === 0 || typeof x.label !== "string" || typeof x.localize !== "boolean") malformed("shifts");
    if (r.shifts.reduce((sum, x) => sum + x.cs, 0) !== r.shift) invalid("requestShiftsSum");
  }
  if (!Number.isInteger(r.karma) || r.karma < 0) malformed("karma");
  if (!(COLORS as readonly unknown[]).includes(r.color)) malformed("color");
  if (typeof r.success !== "boolean") malformed("success");
}

/** Reads a stored request (a chat card's data), checking every field; RollRequestError("invalid") naming the fault. */
export function readRollRequest(value: unknown): RollRequest {
  if (typeof value !== "object" || value === null) malformed("data");
  const v = value as Record<string, unknown>;
  if (typeof v.version !== "number" || v.version > ROLL_REQUEST_VERSION) invalid("requestNewer", { got: String(v.version) });
  if (!isScoreRef(v.score)) invalid("requestNotScore", { got: String(v.score) });
  const intensity = v.intensity ?? null;
  if (intensity !== null && !isRankNumber(intensity)) invalid("requestIntensityNotRank", { got: JSON.stringify(intensity) });
  const label = v.label ?? null;
  if (label !== null && typeof label !== "string") malformed("label");
  if (!Array.isArray(v.rows) || v.rows.length === 0) malformed("rows");
  const rows = (v.rows as unknown[]).map((raw, index): RollRequestRow => {
    const r = raw as Record<string, unknown> | null;
    if (typeof r !== "object" || r === null || r.key !== String(index) || typeof r.actorUuid !== "string" || typeof r.name !== "string") malformed(`rows.${String(index)}`);
    const result = r.result ?? null;
    if (result !== null) checkResult(result as RollRequestResult);
    return { key: r.key, actorUuid: r.actorUuid, name: r.name, result: result as RollRequestResult | null };
  });
  return { version: v.version, score: v.score, intensity, label, rows };
}
