/**
 * Every GM write of an actor's Health or Endurance goes through here. The writer holds the
 * actor's lock (`actor:<uuid>`, {@link actorLock}) and reads the actor inside it, and each
 * write carries, in the same document update, an entry in the actor's ledger naming the
 * request that caused it with the value before and after. A retry of that request (after the
 * GM dropped half-way, or a replay) finds its entry, reuses the recorded "before", and writes
 * nothing again: so effects can be written before the card, and a retry redoes nothing twice.
 */
import { SYSTEM_ID } from "./core/constants";

/** How many ledger entries an actor keeps (the newest). */
export const LEDGER_SIZE = 50;

/** The numbers the ledger may record. */
export type LedgerField = "system.health.value" | "system.abilities.endurance.value" | "system.karma.value";

export interface LedgerEntry {
  readonly id: string;
  readonly field: LedgerField;
  readonly before: number;
  readonly after: number;
}

/** The lock key of an actor's Health, Endurance and conditions. */
export function actorLock(uuid: string): string {
  return `actor:${uuid}`;
}

interface HasFlags {
  readonly flags: unknown;
}

function isEntry(value: unknown): value is LedgerEntry {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return typeof e.id === "string" && typeof e.field === "string" && Number.isInteger(e.before) && Number.isInteger(e.after);
}

/** The actor's ledger, newest last (malformed entries are skipped). */
export function ledgerOf(actor: HasFlags): LedgerEntry[] {
  const flags = (actor.flags as Record<string, unknown> | undefined)?.[SYSTEM_ID] as { ledger?: unknown } | undefined;
  return Array.isArray(flags?.ledger) ? flags.ledger.filter(isEntry) : [];
}

/** The entry a request left for a field, if any. */
export function ledgerEntry(actor: HasFlags, id: string, field: LedgerField): LedgerEntry | undefined {
  return ledgerOf(actor).find((e) => e.id === id && e.field === field);
}

/**
 * Writes `after` into `field` and the ledger entry in one update, unless the request already
 * did. Call it holding the actor's lock. The ledger is an array, which an update replaces
 * whole (Foundry merges objects key by key but replaces arrays), so old entries fall off.
 */
export async function writeOnce(actor: Actor.Implementation, id: string, field: LedgerField, before: number, after: number): Promise<void> {
  if (ledgerEntry(actor, id, field)) return;
  const entry: LedgerEntry = { id, field, before, after };
  const ledger = [...ledgerOf(actor), entry].slice(-LEDGER_SIZE);
  await actor.update({ [field]: after, [`flags.${SYSTEM_ID}.ledger`]: ledger } as Actor.UpdateData);
}
