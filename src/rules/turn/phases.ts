

// ── Phases and errors ─────────────────────────────────────────────────────────────────────────
/** The six steps of a turn, in order [001, CASE-RULES §4]. */
export const TURN_PHASES = ["declare", "extraActions", "initiative", "resolve", "extraRounds", "wrapUp"] as const;

/** One of {@link TURN_PHASES}. */
export type TurnPhase = (typeof TURN_PHASES)[number];

/** True when `value` is one of {@link TURN_PHASES}. */
export function isTurnPhase(value: unknown): value is TurnPhase {
  return typeof value === "string" && (TURN_PHASES as readonly string[]).includes(value);
}

/** Why a step was refused. */
export type TurnErrorCode =
  /** No combatant with that id in this turn. */
  | "unknownCombatant"
  /** The step belongs to another phase. */
  | "wrongPhase"
  /** The step was already done (a replayed or out-of-date request). */
  | "stale"
  /** Only the combatant whose turn it is may do that. */
  | "notYourTurn"
  /** The combatant cannot do that now (stunned, out of actions, defeated …). */
  | "cannotAct"
  /** The phase still waits for someone (see {@link phaseWaiting}). */
  | "notReady";

/** A step that does not fit the turn's state. `code` says why; the message names who and what. */
export class TurnError extends Error {
  constructor(
    readonly code: TurnErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TurnError";
  }
}

// ── Input checks shared by the turn's steps ────────────────────────────────────────────────

/** A value as it appears in an error message. */
export function show(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return Object.prototype.toString.call(value);
}

export function assertCount(value: unknown, what: string, min = 0): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be a whole number of at least ${min}, got ${show(value)}.`);
  }
}

export function assertBoolean(value: unknown, what: string): asserts value is boolean {
  if (typeof value !== "boolean") throw new TypeError(`${what} must be true or false, got ${show(value)}.`);
}

export function assertId(value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "") throw new TypeError(`A combatant id must be a non-empty string, got ${show(value)}.`);
}
