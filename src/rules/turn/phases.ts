// ── Phases, the turn's table, and errors ────────────────────────────────────────────────────
import { RulesRangeError, RulesTypeError, rulesErrorText, type ErrorData, type KeyedError, type RulesErrorKey, type RulesFieldKey } from "../errors";

/** The six steps of a turn, in order [001, CASE-RULES §4]. */
export const TURN_PHASES = ["declare", "extraActions", "initiative", "resolve", "extraRounds", "wrapUp"] as const;

/** One of {@link TURN_PHASES}. */
export type TurnPhase = (typeof TURN_PHASES)[number];

/** True when `value` is one of {@link TURN_PHASES}. */
export function isTurnPhase(value: unknown): value is TurnPhase {
  return typeof value === "string" && (TURN_PHASES as readonly string[]).includes(value);
}

/** Something a phase may wait for before it ends. */
export type WaitingNeed = "declaration" | "extraRoll" | "extraMode" | "initiativeRoll" | "rollOff" | "dodgeRoll" | "action";

/** What the tracker rolls for the Judge at a phase's edge (the host rolls the dice; the steps record them). */
export type PhaseRoll =
  /** Step 2: the Ftg (off) ACTION of everyone who asked for extra actions. */
  | "extraActionRolls"
  /** Step 3: the NPCs' initiative d10s. */
  | "npcInitiative"
  /** Before initiative ends: the d10s nobody rolled, the roll-offs of ties, the declared dodges. */
  | "missingInitiative";

/** What the tracker announces in chat as a phase ends. */
export type PhaseAnnouncement =
  /** The order in which everyone acts (leaving initiative). */
  | "initiativeOrder"
  /** What the turn's bookkeeping did: stuns, Endurance losses, events (leaving wrap-up). */
  | "turnSummary";

/** One row of the turn's table: everything the turn's machinery knows of a phase. */
export interface PhaseRules {
  /** Combatants take their actions in this phase, one after another in initiative order. */
  readonly acting: boolean;
  /** Combatants declare their actions in this phase. */
  readonly declaring: boolean;
  /** Whoever passed the extra-action roll chooses separate actions or a flurry in this phase. */
  readonly choosingExtraMode: boolean;
  /** Every action of the turn is over (for when a stun starts: "after acting"). */
  readonly actionsOver: boolean;
  /** The Judge may note what happened this turn (events for the record). */
  readonly notingEvents: boolean;
  /** What the phase waits for before it may end, in the order it is reported. */
  readonly waitsFor: readonly WaitingNeed[];
  /** Of those, what the Judge may move on without (forcing); the rest must be rolled first. */
  readonly forcible: readonly WaitingNeed[];
  /** What the tracker rolls as the phase begins. */
  readonly rollOnEntry: PhaseRoll | null;
  /** What the tracker rolls before the phase ends (so it never waits on those). */
  readonly rollBeforeLeaving: PhaseRoll | null;
  /** What the tracker announces as the phase ends. */
  readonly announceOnLeaving: PhaseAnnouncement | null;
  /** The phase that follows (wrap-up is followed by the next turn's declare). */
  readonly follows: TurnPhase;
  /** Entered only when someone still has actions due and the Judge did not force past it; else skipped to what follows it. */
  readonly onlyWhenActionsDue: boolean;
}

const quiet = { acting: false, declaring: false, choosingExtraMode: false, actionsOver: false, notingEvents: false, rollOnEntry: null, rollBeforeLeaving: null, announceOnLeaving: null, onlyWhenActionsDue: false } as const;

/**
 * The CASE turn as one table [001 Steps 1–6, CASE-RULES §4]: a row per phase, in
 * {@link TURN_PHASES} order. The steps, the engine that rolls and announces, and the tracker's
 * view all read it; adding or reordering a phase is a change here (and its name in
 * TURN_PHASES).
 */
export const TURN_TABLE: Readonly<Record<TurnPhase, PhaseRules>> = Object.freeze({
  declare: { ...quiet, declaring: true, waitsFor: ["declaration"], forcible: ["declaration"], follows: "extraActions" },
  extraActions: { ...quiet, choosingExtraMode: true, waitsFor: ["extraRoll", "extraMode"], forcible: ["extraMode"], rollOnEntry: "extraActionRolls", follows: "initiative" },
  initiative: {
    ...quiet,
    waitsFor: ["initiativeRoll", "rollOff", "dodgeRoll"],
    forcible: [],
    rollOnEntry: "npcInitiative",
    rollBeforeLeaving: "missingInitiative",
    announceOnLeaving: "initiativeOrder",
    follows: "resolve",
  },
  resolve: { ...quiet, acting: true, waitsFor: ["action"], forcible: ["action"], follows: "extraRounds" },
  extraRounds: { ...quiet, acting: true, waitsFor: ["action"], forcible: ["action"], follows: "wrapUp", onlyWhenActionsDue: true },
  wrapUp: { ...quiet, actionsOver: true, notingEvents: true, waitsFor: [], forcible: [], announceOnLeaving: "turnSummary", follows: "declare" },
});

/** The yes-or-no columns of the turn's table. */
export type PhaseFlag = "acting" | "declaring" | "choosingExtraMode" | "actionsOver" | "notingEvents";

/**
 * The answers of {@link phasesWhere} and {@link phasesWaitingFor}, read off the table once: a
 * step asks one each time it runs, and a fresh list per call was garbage on every step.
 */
const where = (flag: PhaseFlag): readonly TurnPhase[] => Object.freeze(TURN_PHASES.filter((p) => TURN_TABLE[p][flag]));
const waitingFor = (need: WaitingNeed): readonly TurnPhase[] => Object.freeze(TURN_PHASES.filter((p) => TURN_TABLE[p].waitsFor.includes(need)));
const WHERE: Readonly<Record<PhaseFlag, readonly TurnPhase[]>> = {
  acting: where("acting"),
  declaring: where("declaring"),
  choosingExtraMode: where("choosingExtraMode"),
  actionsOver: where("actionsOver"),
  notingEvents: where("notingEvents"),
};
const WAITING_FOR: Readonly<Record<WaitingNeed, readonly TurnPhase[]>> = {
  declaration: waitingFor("declaration"),
  extraRoll: waitingFor("extraRoll"),
  extraMode: waitingFor("extraMode"),
  initiativeRoll: waitingFor("initiativeRoll"),
  rollOff: waitingFor("rollOff"),
  dodgeRoll: waitingFor("dodgeRoll"),
  action: waitingFor("action"),
};

/** The phases, in order, whose row says yes to `flag`. */
export function phasesWhere(flag: PhaseFlag): readonly TurnPhase[] {
  return WHERE[flag];
}

/** The phases, in order, that wait for `need` (where the step that settles it belongs). */
export function phasesWaitingFor(need: WaitingNeed): readonly TurnPhase[] {
  return WAITING_FOR[need];
}

/** The phases in which combatants take their actions (resolve and the extra rounds). */
export const ACTING_PHASES: readonly TurnPhase[] = phasesWhere("acting");

/** True in a phase where combatants take their actions in order (false for anything that is not a phase, such as stored data of another version). */
export function isActingPhase(phase: string): boolean {
  return isTurnPhase(phase) && TURN_TABLE[phase].acting;
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
export class TurnError extends Error implements KeyedError {
  constructor(
    readonly code: TurnErrorCode,
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
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

/** `field` names the value (a field key: said in the reader's language); `id` the combatant it belongs to, when there is one. */
export function assertCount(value: unknown, field: RulesFieldKey, min = 0, id?: string): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    const got = show(value);
    throw id === undefined ? new RulesRangeError("turnNotCount", { field, min, got }) : new RulesRangeError("turnCombatantNotCount", { id, field, min, got });
  }
}

export function assertBoolean(value: unknown, field: RulesFieldKey): asserts value is boolean {
  if (typeof value !== "boolean") throw new RulesTypeError("notBoolean", { field, got: show(value) });
}

export function assertId(value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "") throw new RulesTypeError("turnIdBad", { got: show(value) });
}
