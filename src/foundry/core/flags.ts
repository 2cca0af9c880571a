/**
 * `flags.case`: everything CASE keeps in a document's flags, declared once with its types (as
 * pf2e declares its flags), and the one reader. Flags are written by whoever may write the
 * document, players included, so nothing here is trusted: `readCaseFlag` checks the stored value
 * and says what is wrong with it; `caseFlag` reads a malformed flag as absent.
 */
import type { SlamMove } from "../../rules/index";
import { SYSTEM_ID } from "./constants";

/**
 * The numbers the ledger may record. `flags.case.outOfFight` is 1 while the minor-foe rule has
 * taken the actor out of the fight (gm-actions), 0 once that was undone.
 */
export type LedgerField = "system.health.value" | "system.abilities.endurance.value" | "system.lostEnduranceRanks" | "system.karma.value" | "flags.case.outOfFight";

/** One write a request made (actor-writes.ts `writeOnce`, ammunition.ts). */
export interface LedgerEntry {
  readonly id: string;
  readonly field: LedgerField;
  readonly before: number;
  readonly after: number;
  /**
   * A random word the GM chose for this write and noted first where only GMs write (an attack
   * card's record: card-store.ts `journalStep`). The actor is a document its owner may write, so
   * an entry counts for a card's step only when its nonce matches the GM's note: a player who
   * writes entries on their own actor cannot make a step look done.
   */
  readonly nonce?: string;
}

/** A slam's move on a token (slam-move.ts), or its undo (`move: null`, check-effects.ts). */
export interface SlamMoveFlag {
  readonly id: string;
  readonly move: SlamMove | null;
  /** The nonce of the GM's note of the step; a flag without it is not the GM's. */
  readonly nonce?: string;
}

/** A value the migration could not read, kept as it was (documents/migration-lost.ts). */
export interface LostFlagEntry {
  readonly path: string;
  readonly text: string;
}

/** Where the effect of a resisted power on an actor keeps its card, row and the GM's nonce (exchange/resist-steps.ts). */
export interface ResistedFlag {
  readonly card: string;
  readonly key: string;
  readonly nonce: string;
}

/** `flags.case` by key: which documents carry it and what it holds. */
export interface CaseFlags {
  /** Actor, Item: the writes requests made, newest last (malformed entries are dropped on read). */
  readonly ledger: readonly LedgerEntry[];
  /** Actor: 1 while the minor-foe rule has the actor out of the fight, 0 once undone. */
  readonly outOfFight: 0 | 1;
  /** Actor: the bonus against each foe (by foe-bonus.ts `foeBonusKey`), as stored; foe-bonus.ts reads each value. */
  readonly foeBonus: Readonly<Record<string, unknown>>;
  /** Combatant: the defence keys it remembers (non-strings are dropped on read). */
  readonly defenceKeys: readonly string[];
  /** Token: the last slam move a step made. */
  readonly slamMove: SlamMoveFlag;
  /** MeasuredTemplate, Region: the item whose area attack placed it. */
  readonly areaItem: string;
  /** A document the world migration wrote: the values it could not read. */
  readonly migrationLost: readonly LostFlagEntry[];
  /** Actor: the failed Resources FEATs, cost rank → world time (seconds) of the failure (rules `resourcesRetryWait`). */
  readonly resourcesFailed: Readonly<Record<string, number>>;
  /** ActiveEffect: the resisted power's card, row and GM nonce that put it on. */
  readonly resisted: ResistedFlag;
  /** ChatMessage: the follow-up request whose card this is (exchange/follow-up.ts). */
  readonly followUp: string;
}

/**
 * A condition's effect (status-effects.ts) keeps its details as the whole of its `flags.case`.
 */
export interface StatusDetails {
  /** Stunned: turns left, this one included; 0 = until removed. */
  turns?: number;
  /** Stunned: it starts at the next turn (the target had already acted). */
  startsNextTurn?: boolean;
  /** Slammed: direction and areas. */
  direction?: string;
  areas?: number | "sight";
  /** Holds: the holder's actor UUID, and the card that made the hold. */
  holderUuid?: string;
  messageId?: string;
  /** Dying: aided (the Endurance loss stops). */
  aided?: boolean;
  /** Dying: the Kill landed this turn (errata §4: no loss at this turn's wrap-up by default). */
  fresh?: boolean;
}

/** What the reader found: the value (undefined when the flag is not there), or why it is malformed. */
export type FlagRead<T> = { readonly ok: true; readonly value: T | undefined } | { readonly ok: false; readonly error: string };

type Parsed<T> = { readonly value: T } | { readonly error: string };

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLedgerEntry(value: unknown): value is LedgerEntry {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.field === "string" &&
    Number.isInteger(value.before) &&
    Number.isInteger(value.after) &&
    (value.nonce === undefined || typeof value.nonce === "string")
  );
}

function isSlamMove(value: unknown): value is SlamMove {
  if (!isRecord(value) || !isRecord(value.to)) return false;
  return (
    ["away", "left", "right", "stay"].includes(String(value.heading)) &&
    Number.isInteger(value.to.x) &&
    Number.isInteger(value.to.y) &&
    typeof value.areas === "number" &&
    typeof value.edge === "boolean"
  );
}

const PARSERS: { readonly [K in keyof CaseFlags]: (value: unknown) => Parsed<CaseFlags[K]> } = {
  ledger: (v) => (Array.isArray(v) ? { value: v.filter(isLedgerEntry) } : { error: "is not a list of entries" }),
  outOfFight: (v) => (v === 0 || v === 1 ? { value: v } : { error: "is not 0 or 1" }),
  foeBonus: (v) => (isRecord(v) ? { value: v } : { error: "is not a record of bonuses by foe" }),
  defenceKeys: (v) => (Array.isArray(v) ? { value: v.filter((k): k is string => typeof k === "string") } : { error: "is not a list of defence keys" }),
  slamMove: (v) =>
    isRecord(v) && typeof v.id === "string" && (v.move === null || isSlamMove(v.move)) && (v.nonce === undefined || typeof v.nonce === "string")
      ? { value: { id: v.id, move: v.move, ...(v.nonce === undefined ? {} : { nonce: v.nonce }) } }
      : { error: "is not a slam move (id, move, nonce)" },
  areaItem: (v) => (typeof v === "string" ? { value: v } : { error: "is not an item UUID" }),
  resourcesFailed: (v) =>
    isRecord(v) && Object.values(v).every((t) => typeof t === "number" && Number.isFinite(t))
      ? { value: v as Readonly<Record<string, number>> }
      : { error: "is not a record of world times by cost rank" },
  resisted: (v) =>
    isRecord(v) && typeof v.card === "string" && typeof v.key === "string" && typeof v.nonce === "string"
      ? { value: { card: v.card, key: v.key, nonce: v.nonce } }
      : { error: "is not a resisted power's card, row and nonce" },
  followUp: (v) => (typeof v === "string" ? { value: v } : { error: "is not a follow-up request id" }),
  migrationLost: (v) =>
    Array.isArray(v) ? { value: v.filter((e): e is LostFlagEntry => isRecord(e) && typeof e.path === "string" && typeof e.text === "string") } : { error: "is not a list of lost values" },
};

/** A document's `flags.case` as stored (`flags` is a document's `flags`, or another value): an empty record when there is none. */
export function caseFlags(flags: unknown): Readonly<Record<string, unknown>> {
  const ours = isRecord(flags) ? flags[SYSTEM_ID] : undefined;
  return isRecord(ours) ? ours : {};
}

/** Reads `flags.case.<key>` from a document's `flags`: its value checked against its declared type, or a clear error. */
export function readCaseFlag<K extends keyof CaseFlags>(flags: unknown, key: K): FlagRead<CaseFlags[K]> {
  const stored = caseFlags(flags)[key];
  if (stored === undefined || stored === null) return { ok: true, value: undefined };
  const parsed = PARSERS[key](stored);
  if ("error" in parsed) return { ok: false, error: `flags.${SYSTEM_ID}.${key} ${parsed.error}: ${JSON.stringify(stored)}` };
  return { ok: true, value: parsed.value };
}

/** `flags.case.<key>`, or undefined when it is not there or malformed (anyone who may write the document may have written it). */
export function caseFlag<K extends keyof CaseFlags>(flags: unknown, key: K): CaseFlags[K] | undefined {
  const read = readCaseFlag(flags, key);
  return read.ok ? read.value : undefined;
}

/** A condition effect's details (its whole `flags.case`), each field kept only when of its declared type. */
export function statusDetailsOf(flags: unknown): StatusDetails {
  const f = caseFlags(flags);
  const details: StatusDetails = {};
  if (typeof f.turns === "number") details.turns = f.turns;
  if (typeof f.startsNextTurn === "boolean") details.startsNextTurn = f.startsNextTurn;
  if (typeof f.direction === "string") details.direction = f.direction;
  if (typeof f.areas === "number" || f.areas === "sight") details.areas = f.areas;
  if (typeof f.holderUuid === "string") details.holderUuid = f.holderUuid;
  if (typeof f.messageId === "string") details.messageId = f.messageId;
  if (typeof f.aided === "boolean") details.aided = f.aided;
  if (typeof f.fresh === "boolean") details.fresh = f.fresh;
  return details;
}
