/**
 * The turn's history: the Judge's "back one step". With each advance and each *Done* the
 * engine remembers the turn as it was before ({@link rememberTurn}): the combat's part and the
 * parts of the combatants that step changed (one for a *Done*, all for a wrap-up), so an entry
 * stays small; {@link stepBack} gives the change that puts them back and the history without
 * it. The history is bounded ({@link TURN_HISTORY_LIMIT}): the oldest entry is forgotten first.
 *
 * What is restored is the turn (the combat's part and each combatant's part). A combatant's
 * stats, its team and Foundry's defeated mark are not the turn's to restore: they are read from
 * the character and the combatant each step, so the combatant keeps its current ones. A
 * combatant that left the combat since is skipped, one that joined keeps its part, and the
 * acting order drops the ids no longer in the combat.
 */
import { RulesRangeError } from "../errors";
import { type CombatTurn, type CombatantTurn, type TurnChange, type TurnState } from "./state";
import { TurnError, type TurnPhase } from "./phases";
import { type Declaration } from "./declaration";

/** [RULING] How many previous turn states the Judge can step back through (one per advance or *Done*). */
export const TURN_HISTORY_LIMIT = 12;

/** What the remembered state came before. */
export type TurnHistoryCause = "advance" | "done";

/** One remembered turn state. */
export interface TurnHistoryEntry {
  readonly cause: TurnHistoryCause;
  /** Who was done ("done"); null for an advance. */
  readonly combatantId: string | null;
  /** The combat's part before the step. */
  readonly combat: CombatTurn;
  /** The parts, before the step, of the combatants it changed. */
  readonly combatants: readonly CombatantTurn[];
}

/** The history, oldest first. */
export type TurnHistory = readonly TurnHistoryEntry[];

/**
 * The history with the turn before `change` (made on `state`) remembered as the newest entry,
 * the oldest dropped beyond `limit`.
 */
export function rememberTurn(history: TurnHistory, state: TurnState, change: TurnChange, cause: TurnHistoryCause, combatantId: string | null = null, limit: number = TURN_HISTORY_LIMIT): TurnHistory {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RulesRangeError("turnNotCount", { field: "turnHistoryLimit", min: 1, got: String(limit) });
  const combatants = change.combatants.flatMap((c) => {
    const before = state.combatants.get(c.id);
    return before ? [before] : [];
  });
  const entry: TurnHistoryEntry = { cause, combatantId, combat: state.combat, combatants };
  const kept = history.length >= limit ? history.slice(history.length - limit + 1) : history;
  return [...kept, entry];
}

/** The newest remembered state, or null. */
export function lastTurnStep(history: TurnHistory): TurnHistoryEntry | null {
  return history.at(-1) ?? null;
}

/** The phase the turn goes back to, and the turn's number then (for the confirmation), or null with nothing to go back to. */
export function stepBackTarget(history: TurnHistory): { readonly phase: TurnPhase; readonly turn: number; readonly cause: TurnHistoryCause; readonly combatantId: string | null } | null {
  const last = lastTurnStep(history);
  return last ? { phase: last.combat.phase, turn: last.combat.number, cause: last.cause, combatantId: last.combatantId } : null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Back one step: the change that restores the newest remembered state on `state`, and the
 * history without it. TurnError "stale" when there is nothing to go back to.
 */
export function stepBack(state: TurnState, history: TurnHistory): { readonly change: TurnChange; readonly history: TurnHistory } {
  const entry = lastTurnStep(history);
  if (entry === null) throw new TurnError("stale", "turnNoEarlierStep");
  const present = (id: string): boolean => state.combatants.has(id);
  const kept = entry.combat.order.filter(present);
  const cursor = entry.combat.order.slice(0, entry.combat.cursor).filter(present).length;
  const combat: CombatTurn = Object.freeze({ ...entry.combat, order: Object.freeze(kept), cursor });
  const combatants: CombatantTurn[] = [];
  for (const before of entry.combatants) {
    const now = state.combatants.get(before.id);
    if (!now) continue;
    const restored: CombatantTurn = Object.freeze({ ...before, stats: now.stats, team: now.team, defeated: now.defeated });
    if (!sameValue(restored, now)) combatants.push(restored);
  }
  const changed: Partial<CombatTurn> = {};
  for (const key of Object.keys(combat) as (keyof CombatTurn)[]) {
    if (!sameValue(combat[key], state.combat[key])) Object.assign(changed, { [key]: combat[key] });
  }
  return { change: { combat: changed, combatants, enduranceLosses: [] }, history: history.slice(0, -1) };
}

/**
 * Last turn's declarations ("repeat last turn's"), by combatant id: those held just before the
 * last wrap-up ended, when the history still has that step (the newest wrap-up of the turn
 * before `state`'s); empty otherwise.
 */
export function lastTurnDeclarations(state: TurnState, history: TurnHistory): ReadonlyMap<string, Declaration> {
  const out = new Map<string, Declaration>();
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i] as TurnHistoryEntry;
    if (e.cause !== "advance" || e.combat.phase !== "wrapUp" || e.combat.number !== state.combat.number - 1) continue;
    for (const c of e.combatants) if (c.declaration !== null && state.combatants.has(c.id)) out.set(c.id, c.declaration);
    break;
  }
  return out;
}
