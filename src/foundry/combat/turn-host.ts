/**
 * The turn engine's view of Foundry and what it hands over: the host it reads and writes through
 * ({@link TurnHost}: FoundryTurnHost in ./foundry-host.ts, a plain host in the tests), the
 * combat it reads, the dice and announcements, the answers and errors of its steps, the lock a
 * request takes to write a turn, and reading the host's dice.
 */
import type { AidRefusal, Color } from "../../rules/index";
import type { CombatSystemData, CombatantInput, StoredTurnStep, TurnSettingsInput, TurnWrite } from "./state";

/** What the engine reads of a combat: its stored turn, its combatants in tracker order, the settings. */
export interface TurnSnapshot {
  readonly combat: CombatSystemData;
  readonly combatants: readonly CombatantInput[];
  readonly settings: TurnSettingsInput;
  /** The turn's history (back one step), where this client holds the GM's record. */
  readonly history?: readonly StoredTurnStep[];
}

/**
 * A die the tracker rolled: its formula and total. The host keeps what stands behind it (a
 * Foundry Roll) and puts it on the card of the line that announces it, so every tracker die is
 * a Roll on a tracker card (tooltip, Dice So Nice), once.
 */
export interface TurnDie {
  readonly formula: string;
  readonly total: number;
}

/** Where a line of a turn announcement goes. */
export interface AnnouncementLine {
  /** A localisation key under CASE.Turn.Chat. */
  readonly key: string;
  readonly data: Readonly<Record<string, string | number>>;
  /** Only for the GM (an NPC's roll: its declaration is secret). */
  readonly secret: boolean;
  /** The die this line announces: it goes on the card this line is on (the GMs' only, for a secret line). */
  readonly die?: TurnDie;
}

/** A chat summary of what the turn did (rolls, the order, the wrap-up). */
export interface Announcement {
  /** Localisation key of the title. */
  readonly title: string;
  readonly lines: readonly AnnouncementLine[];
}

/** The engine's view of Foundry. */
export interface TurnHost {
  /** True when this client is the one that writes the turn (the active GM). */
  isWriter(): boolean;
  /** A fresh reading of the combat. */
  snapshot(): TurnSnapshot;
  /**
   * Writes one change: `combat.system` fields, the changed combatants, characters' Endurance,
   * and Foundry's round (the CASE turn's number) and current combatant kept in step.
   */
  write(write: TurnWrite, sync: { readonly round: number; readonly currentId: string | null }): Promise<void>;
  /** Rolls `formula` (1d10 or 1d100) `count` times; the dice, each to be announced on one line. */
  roll(formula: "1d10" | "1d100", count: number): Promise<TurnDie[]>;
  /** Posts an announcement (secret lines to the GM only). */
  announce(announcement: Announcement): Promise<void>;
  /** A combatant's display name. */
  nameOf(combatantId: string): string;
}

/** Raised when the rules refuse an aid (rules first-aid.ts); `reason` names why. */
export class AidRefusedError extends Error {
  constructor(readonly reason: AidRefusal) {
    super(`The aid is refused: ${reason}.`);
    this.name = "AidRefusedError";
  }
}

/** Raised when a client that is not the active GM tries to write the turn. */
export class NotTurnWriterError extends Error {
  constructor() {
    super("Only the active GM writes the CASE turn; send the request through the GM.");
    this.name = "NotTurnWriterError";
  }
}

/** The lock a request declares to write a combat's turn (its combat and combatants): `combat:<id>`. */
export function combatLock(combatId: string): string {
  return `combat:${combatId}`;
}

/**
 * What the engine writes under: the request's locks (../requests/locks.ts `LockScope`). The
 * engine takes no lock itself: the request that runs it holds `combat:<id>` (and the actors it
 * may write), so two requests on one combat run one after the other on the GM, and a step
 * that writes the turn from inside a card's request (a stun, a defence) never waits on a lock
 * its own request holds.
 */
export type { WriteScope } from "../requests/locks";

/** The outcome of a change of action. */
export interface ChangeActionAnswer {
  readonly roll: number | null;
  readonly color: Color | null;
  readonly success: boolean | null;
}

/** The outcome of a recorded defence. */
export interface DefenceAnswer {
  readonly penalty: number;
  readonly tookAction: boolean;
}

/** A die's total; a die the host did not hand back is an error, never a made-up roll. */
export function dieTotal(die: TurnDie | undefined): number {
  if (die === undefined) throw new Error("The tracker's host rolled fewer dice than asked.");
  return die.total;
}

/** The totals of `dice`, by the ids they were rolled for (in order). */
export function totalsBy(ids: readonly string[], dice: readonly TurnDie[]): Record<string, number> {
  return Object.fromEntries(ids.map((id, i) => [id, dieTotal(dice[i])]));
}

/** A line with the die it announces. */
export function dieLine(line: AnnouncementLine, die: TurnDie | undefined): AnnouncementLine {
  return die ? { ...line, die } : line;
}
