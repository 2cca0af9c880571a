/**
 * Every GM write of an actor's Health or Endurance goes through here. The writer holds the
 * actor's lock (`actor:<uuid>`, {@link actorLock}) and reads the actor inside it, and each
 * write carries, in the same document update, an entry in the actor's ledger naming the
 * request that caused it with the value before and after. A retry of that request (after the
 * GM dropped half-way, or a replay) finds its entry, reuses the recorded "before", and writes
 * nothing again: so effects can be written before the card, and a retry redoes nothing twice.
 */
import { SYSTEM_ID } from "./core/constants";
import { caseFlag, type LedgerEntry, type LedgerField } from "./core/flags";
import { applyHealing, clampHealth, effectiveEndurance, healthAfterRest, lostRanksAfterRest, lostRanksReaching, spendKarmaOnRoll, type CareLevel, type KarmaLogEntry, type RecoveryRulings } from "../rules/index";
import { actorFromUuid, characterSystem, isCharacter } from "./core/guards";
import { QueryRefusal } from "./requests/router";
import type { LockScope, WriteScope } from "./requests/locks";
import { KARMA_LOG_SIZE, KARMA_REASON_LENGTH } from "./data/actor/karma-log";

/** How many ledger entries an actor keeps (the newest). */
export const LEDGER_SIZE = 50;

export type { LedgerEntry, LedgerField } from "./core/flags";

/** The lock key of an actor's Health, Endurance and conditions. */
export function actorLock(uuid: string): string {
  return `actor:${uuid}`;
}

/**
 * The actor locks a query declares for the documents these UUIDs name (a token's UUID names
 * its actor, whose own UUID is the key): an unknown UUID declares nothing (the handler refuses it).
 */
export async function actorLocksOf(uuids: readonly string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const uuid of uuids) {
    const actor = await actorFromUuid(uuid);
    if (actor) keys.push(actorLock(actor.uuid));
  }
  return keys;
}

interface HasFlags {
  readonly flags: unknown;
}

/** The actor's ledger, newest last (malformed entries are skipped). */
export function ledgerOf(actor: HasFlags): LedgerEntry[] {
  return [...(caseFlag(actor.flags, "ledger") ?? [])];
}

/**
 * The entry a request left for a field, when there is one. With a `nonce` (the GM's note of the step), only
 * an entry carrying that very nonce counts: one its owner wrote on the actor does not.
 */
export function ledgerEntry(actor: HasFlags, id: string, field: LedgerField, nonce?: string): LedgerEntry | undefined {
  return ledgerOf(actor).find((e) => e.id === id && e.field === field && (nonce === undefined || e.nonce === nonce));
}

/**
 * Writes `after` into `field` and the ledger entry in one update, unless the request already
 * did. Call it holding the actor's lock. The ledger is an array, which an update replaces
 * whole (Foundry merges objects key by key but replaces arrays), so old entries fall off.
 */
export async function writeOnce(scope: WriteScope, actor: Actor.Implementation, id: string, field: LedgerField, before: number, after: number, nonce?: string): Promise<void> {
  await writeOnceWith(scope, actor, id, field, before, after, {}, nonce);
}

/**
 * {@link writeOnce} with more fields in the same update (the Karma log beside the pool, lost
 * Endurance ranks beside Health). False when the request had already written it.
 */
export async function writeOnceWith(
  /** The writing request's locks: it must hold the actor's (no lock is taken here). */
  scope: WriteScope,
  actor: Actor.Implementation,
  id: string,
  field: LedgerField,
  before: number,
  after: number,
  extra: Record<string, unknown>,
  /** The GM's note of this write (see {@link LedgerEntry.nonce}): an entry without it does not count as done. */
  nonce?: string,
): Promise<boolean> {
  scope.require(actorLock(actor.uuid));
  if (ledgerEntry(actor, id, field, nonce)) return false;
  const entry: LedgerEntry = nonce === undefined ? { id, field, before, after } : { id, field, before, after, nonce };
  const ledger = [...ledgerOf(actor), entry].slice(-LEDGER_SIZE);
  await actor.update({ ...extra, [field]: after, [`flags.${SYSTEM_ID}.ledger`]: ledger } as Actor.UpdateData);
  return true;
}

/** A stored Karma log line (the rules' `KarmaLogEntry`). */
export type StoredKarmaEntry = KarmaLogEntry;


/** The actor's Karma log, oldest first (empty for an actor without one). */
export function karmaLogOf(actor: { readonly system: unknown }): KarmaLogEntry[] {
  const system = actor.system;
  const log = typeof system === "object" && system !== null && "karmaLog" in system ? system.karmaLog : undefined;
  return Array.isArray(log) ? (log as KarmaLogEntry[]) : [];
}

/**
 * The update that sets the Karma pool to the entry's balance and appends the entry to the log
 * (the newest {@link KARMA_LOG_SIZE} kept), so the pool and its explanation change together.
 */
export function karmaUpdate(actor: { readonly system: unknown }, entry: KarmaLogEntry, extra: Record<string, unknown> = {}): Actor.UpdateData {
  const reason = entry.reason.slice(0, KARMA_REASON_LENGTH);
  const log = [...karmaLogOf(actor), { ...entry, reason }].slice(-KARMA_LOG_SIZE);
  return { "system.karma.value": entry.balanceAfter, "system.karmaLog": log, ...extra } as Actor.UpdateData;
}

/** Today's date-time for a log entry (ISO 8601, to the second). */
export function logDate(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The most days one rest covers (a guard against a typo). */
export const MAX_REST_DAYS = 365;

/** What a character's stored data a rest reads. */
export interface RestingCharacter {
  readonly health: { readonly value: number; readonly max: number };
  /** Endurance after Active Effects, before lost ranks (data/actor/character.ts `endurance`). */
  readonly endurance: { readonly beforeLoss: number };
  readonly lostEnduranceRanks: number;
}

/** What a rest changes. */
export interface RestOutcome {
  readonly health: { readonly before: number; readonly after: number };
  readonly lostEnduranceRanks: { readonly before: number; readonly after: number };
}

/**
 * `days` of rest (rules recovery.ts): Health by the effective Endurance (lost ranks counted)
 * per day, and lost Endurance ranks healed back, both by the world's rulings.
 */
export function restOutcome(system: RestingCharacter, days: number, care: CareLevel, rulings: RecoveryRulings): RestOutcome {
  const lost = system.lostEnduranceRanks;
  const endurance = effectiveEndurance(system.endurance.beforeLoss, lost).value;
  const before = Math.min(Math.max(system.health.value, 0), system.health.max);
  return {
    health: { before, after: healthAfterRest(before, system.health.max, endurance, days, care, rulings) },
    lostEnduranceRanks: { before: lost, after: lostRanksAfterRest(lost, days, care, rulings) },
  };
}

/**
 * The wrap-up's Endurance loss of the unaided dying: the lost ranks that bring the effective
 * Endurance down to `to` (or to death), recorded apart from the ability so rest heals them back
 * (rules recovery.ts), with a ledger entry `id`: a replay, or the Judge going back a step over
 * the wrap-up and on again, takes no second rank. Call it holding the actor's lock. Resolves
 * to the lost ranks after.
 */
export async function loseEnduranceRank(scope: WriteScope, actor: Actor.Implementation, id: string, to: { readonly value: number; readonly dead: boolean }): Promise<number> {
  const entry = ledgerEntry(actor, id, "system.lostEnduranceRanks");
  if (entry) return entry.after;
  const { beforeLoss, lost } = characterSystem(actor).endurance;
  const after = lostRanksReaching(beforeLoss, lost, to.value, to.dead);
  await writeOnce(scope, actor, id, "system.lostEnduranceRanks", lost, after);
  return after;
}

/**
 * Adds `amount` Health (a Regeneration's share at wrap-up), capped at the maximum, with a ledger
 * entry `id`: a replay of the same wrap-up adds nothing. Call it holding the actor's lock.
 * Resolves to the Health after.
 */
export async function regenerate(scope: WriteScope, actor: Actor.Implementation, id: string, amount: number): Promise<number> {
  const health = characterSystem(actor).health;
  const entry = ledgerEntry(actor, id, "system.health.value");
  if (entry) return entry.after;
  const before = clampHealth(health.value, health.max);
  const after = applyHealing(before, health.max, amount);
  if (after !== before) await writeOnce(scope, actor, id, "system.health.value", before, after);
  return after;
}

/**
 * Spends Karma declared on an attack or a requested roll, on the GM, once per request (the
 * ledger), under the actor's lock; the Karma log gains its "spend" line (`reason`) in the same
 * write. Refused ("malformed") when the pool is short or the amount is not a legal spend.
 */
export async function spendKarmaOnce(
  actor: Actor.Implementation,
  amount: number,
  context: { readonly scope: LockScope; readonly requestId: string },
  reason: string,
  /** The nonce of the GM's note of the step, where one is kept (see {@link LedgerEntry.nonce}). */
  nonce?: string,
): Promise<void> {
  if (amount === 0 || !isCharacter(actor)) return;
  await context.scope.within([actorLock(actor.uuid)], async () => {
    if (ledgerEntry(actor, context.requestId, "system.karma.value", nonce)) return;
    const before = actor.system.karma.value;
    let change;
    try {
      change = spendKarmaOnRoll(before, amount, reason, logDate());
    } catch (error) {
      throw QueryRefusal.of("malformed", error);
    }
    const { ["system.karma.value"]: _pool, ...log } = karmaUpdate(actor, change.entry) as Record<string, unknown>;
    await writeOnceWith(context.scope, actor, context.requestId, "system.karma.value", before, change.balance, log, nonce);
  });
}
