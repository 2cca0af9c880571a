/**
 * Reading and writing attack cards, on the active GM. A card is a chat message of type
 * `attack` written by a GM (a card another user wrote or edited is refused); its secrets
 * (NPC scores, hidden defences, their dice) live in a GM-whispered `attackRecord` message,
 * per card revision, so the players' copy of the card never holds them. Every die is a real
 * Roll: the public ones are kept on the card's `rolls` (tooltips, Dice So Nice), the secret
 * ones on the record.
 *
 * A write is: the record's secrets for the next revision, then the card (revision + 1, the
 * request id remembered). A GM that drops between the two leaves the card at its old
 * revision, whose secrets the record still holds, so a retry starts from a consistent card.
 */
import { sealExchange, unsealExchange, type ExchangeState, type SealOptions } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { QueryRefusal } from "../requests/router";
import { callCaseHook } from "../core/case-hooks";
import { ATTACK_CARD_SCHEMA_VERSION, CARD_REQUEST_MEMORY, JOURNAL_SIZE, RECORD_REVISIONS, readExchange, type JournalEntry, type RevisionSecrets } from "./card-model";
import { messageUpdate, type MessageSystem } from "../data/system-data";
import { gmIds, showDice } from "../dice/dice-so-nice";
import { beginSpend, begunRecord, spendNonce } from "../requests/spend-note";
import { RefusalError } from "../core/refusal-texts";

/** A die the GM rolled: the Roll's total and its JSON for the message. */
export interface RolledDie {
  readonly total: number;
  readonly roll: Roll;
  /** Secret dice go on the GM's record, not the card. */
  readonly secret: boolean;
  /** Resolves when Dice So Nice's dice have landed (at once without it): the card waits for it. */
  readonly landed: Promise<void>;
}

/** Rolls `formula` on this (the GM's) client and shows it with Dice So Nice when present (once: the messages' copies are not animated again). */
export async function rollDie(formula: string, secret = false): Promise<RolledDie> {
  const roll = await new Roll(formula).evaluate();
  return { total: roll.total, roll, secret, landed: showDice(roll, secret) };
}

/** Waits until every die of a step has landed, so the card's result shows after the dice, not while they roll. */
function diceLanded(dice: readonly RolledDie[]): Promise<void> {
  return Promise.all(dice.map((d) => d.landed)).then(() => undefined);
}

/** A card's and a record's `system` as read: their models' shapes, each field possibly missing (old or hand-made data). */
type CardSystem = Partial<MessageSystem<"attack">>;
type RecordSystem = Partial<MessageSystem<"attackRecord">>;

/** A card as the GM works on it. */
export interface LoadedCard {
  readonly message: ChatMessage.Implementation;
  readonly record: ChatMessage.Implementation | null;
  /** The full exchange, secrets joined. */
  readonly state: ExchangeState;
  readonly revision: number;
  /** The revision at which each row (by key; `*` for the rest of the card) last changed. */
  readonly rowRevisions: Readonly<Record<string, number>>;
  readonly requests: readonly string[];
}

/** The card's revision as this client holds it: what a click on it is made against (every card request names it). */
export function cardRevision(messageId: string): number {
  const system = game.messages.get(messageId)?.system as CardSystem | undefined;
  return typeof system?.revision === "number" ? system.revision : 0;
}

/**
 * Whether the card changed since `revision` where a request on row `key` (null: the whole
 * card) looks: that row or the card outside its rows moved on after it (for the whole card,
 * a change). A request made against a revision the card has not reached yet counts as
 * changed too: no click can have seen it.
 */
export function changedSince(loaded: LoadedCard, revision: number, key: string | null): boolean {
  if (revision > loaded.revision) return true;
  if (key === null) return loaded.revision > revision;
  const changed = Math.max(loaded.rowRevisions[key] ?? 0, loaded.rowRevisions["*"] ?? 0);
  return changed > revision;
}

/** The revision at which each row last changed, after `next` is saved over `before` as `revision`. */
function nextRowRevisions(before: ExchangeState, next: ExchangeState, revision: number, known: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...known };
  for (const t of next.targets) {
    const was = before.targets.find((b) => b.key === t.key);
    if (JSON.stringify(was) !== JSON.stringify(t)) out[t.key] = revision;
  }
  const rest = (s: ExchangeState) => JSON.stringify({ ...s, targets: [] });
  if (rest(before) !== rest(next)) out["*"] = revision;
  return out;
}

function storedRowRevisions(value: unknown): Record<string, number> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, number] => Number.isInteger(e[1])));
}

/** Refused as "stale" unless the card as this client now holds it is still at the revision `loaded` read. */
function mustStillBe(loaded: LoadedCard): void {
  const now = (loaded.message.system as CardSystem).revision ?? 0;
  if (now !== loaded.revision) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.CardMovedOn", { read: String(loaded.revision), now: String(now) }));
}

function writtenByGM(message: ChatMessage.Implementation): boolean {
  return message.author?.isGM === true;
}

/**
 * The attack card `messageId`, checked and with its secrets. Refused: gone ("stale"), not an
 * attack ("malformed"), or not written by a GM ("forbidden": a player's own card or a card a
 * player edited — Foundry lets a message's author update it, so only GM-authored cards count).
 */
export function loadCard(messageId: string): LoadedCard {
  const message = game.messages.get(messageId);
  if (!message) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.CardGone"));
  if (message.type !== "attack") throw QueryRefusal.keyed("malformed", "cardNotAttack");
  if (!writtenByGM(message)) throw QueryRefusal.keyed("forbidden", "notWrittenByGM");
  const system = message.system as CardSystem;
  const revision = system.revision ?? 0;
  let card: ExchangeState;
  try {
    card = readExchange(system.exchange);
  } catch (error) {
    throw QueryRefusal.of("failed", error);
  }
  const record = system.recordId ? (game.messages.get(system.recordId) ?? null) : null;
  if (record && (!writtenByGM(record) || record.type !== "attackRecord")) throw QueryRefusal.keyed("forbidden", "notWrittenByGM");
  const secrets = (record?.system as RecordSystem | undefined)?.secrets?.find((s) => s.revision === revision)?.secrets ?? {};
  let state: ExchangeState;
  try {
    state = unsealExchange(card, secrets);
  } catch (error) {
    throw QueryRefusal.of("failed", error);
  }
  return { message, record, state, revision, rowRevisions: storedRowRevisions(system.rowRevisions), requests: system.requests ?? [] };
}

/**
 * The exchange of a card as this client's user may see it: a GM sees it whole (the record's
 * secrets joined); anyone else sees the public card. A card no GM wrote is refused with a
 * RangeError (its numbers count for nothing).
 */
export function cardForViewer(message: ChatMessage.Implementation): ExchangeState {
  if (!writtenByGM(message)) throw new RefusalError("notWrittenByGM");
  const system = message.system as CardSystem;
  const card = readExchange(system.exchange);
  if (!game.user.isGM || !system.recordId) return card;
  const record = game.messages.get(system.recordId);
  const secrets = (record?.system as RecordSystem | undefined)?.secrets?.find((s) => s.revision === (system.revision ?? 0))?.secrets;
  if (!record || !writtenByGM(record) || !secrets) return card;
  try {
    return unsealExchange(card, secrets);
  } catch {
    return card;
  }
}

/** The rows to seal: NPC targets (their scores, armor and Health), their defences when the setting hides them, and an NPC attacker's numbers. */
export function sealOptions(state: ExchangeState, isNpc: (actorUuid: string) => boolean): SealOptions {
  const sealed = new Set(state.targets.filter((t) => isNpc(t.actorUuid)).map((t) => t.key));
  const hide = game.settings.get(SYSTEM_ID, "hideNpcDefences");
  return { sealed, hiddenDefence: hide ? sealed : new Set(), attacker: isNpc(state.attacker.uuid) };
}

function rollsJson(message: ChatMessage.Implementation | null, dice: readonly RolledDie[]): string[] {
  const existing = (message?.rolls ?? []).map((r) => JSON.stringify(r.toJSON()));
  return [...existing, ...dice.map((d) => JSON.stringify(d.roll.toJSON()))];
}

/** The card's record as it stands now (one a journal note made since the card was loaded, too: it names the card). */
function recordNow(loaded: LoadedCard): ChatMessage.Implementation | null {
  if (loaded.record) return loaded.record;
  const cardId = loaded.message.id ?? "";
  for (const m of game.messages) if (m.type === "attackRecord" && writtenByGM(m) && (m.system as RecordSystem).cardId === cardId) return m;
  return null;
}

/** The GM's journal of a card's steps (its record's notes), oldest first. */
export function journalOf(loaded: LoadedCard): readonly JournalEntry[] {
  const journal = (recordNow(loaded)?.system as RecordSystem | undefined)?.journal;
  return Array.isArray(journal) ? journal.filter((e: Partial<JournalEntry> | null) => typeof e?.id === "string" && typeof e.nonce === "string" && typeof e.data === "object") : [];
}

/** The GM's note of step `id` on this card, if it was begun. */
export function journalEntry(loaded: LoadedCard, id: string): JournalEntry | undefined {
  return journalOf(loaded).find((e) => e.id === id);
}

/**
 * Notes step `id` in the card's record before the step writes anything on another document:
 * a fresh nonce (its ledger entries carry it) and `data` (what finishing or undoing it needs,
 * read now, before the effects). A retry finds the note and gets it back unchanged, so it
 * finishes the step with the values the first attempt read. A card without a record gets one.
 */
export async function journalStep(loaded: LoadedCard, id: string, data: Record<string, unknown> = {}): Promise<JournalEntry> {
  const found = journalEntry(loaded, id);
  if (found) return found;
  const entry: JournalEntry = { id, nonce: foundry.utils.randomID(16), data };
  const record = recordNow(loaded);
  if (record) {
    const journal = [...journalOf(loaded), entry].slice(-JOURNAL_SIZE);
    await record.update(messageUpdate("attackRecord", { "system.journal": journal }));
  } else {
    // A card from before records existed: its record now (no secrets: no row of it is sealed),
    // naming the card; the card's next write names the record.
    await ChatMessage.implementation.create({ type: "attackRecord", whisper: gmIds(), content: "", system: { cardId: loaded.message.id ?? "", origin: "", secrets: [{ revision: loaded.revision, secrets: {} }], journal: [entry] } });
  }
  return entry;
}

/**
 * Writes the next revision of a card: the record's secrets first, the card last (with the
 * request id remembered and the public dice added).
 */
export async function saveCard(loaded: LoadedCard, next: ExchangeState, requestId: string, dice: readonly RolledDie[], isNpc: (actorUuid: string) => boolean, step: string): Promise<void> {
  await diceLanded(dice);
  // Saved only over the revision read: a card another writer (a second GM) moved on meanwhile is not overwritten.
  mustStillBe(loaded);
  const revision = loaded.revision + 1;
  const { card, secrets } = sealExchange(next, sealOptions(next, isNpc));
  const secretRolls = dice.filter((d) => d.secret);
  const record = recordNow(loaded);
  let recordId = record?.id ?? "";
  if (record) {
    // An array, which an update replaces whole: older revisions fall off.
    const kept = ((record.system as RecordSystem).secrets ?? []).filter((s) => s.revision > revision - RECORD_REVISIONS && s.revision !== revision);
    await record.update(messageUpdate("attackRecord", { "system.secrets": [...kept, { revision, secrets }] }, { rolls: rollsJson(record, secretRolls) }));
  } else {
    // A card from before records existed: it gets its record now.
    recordId = (await createRecord(loaded.message.id ?? "", "", [{ revision, secrets }], secretRolls))?.id ?? "";
  }
  mustStillBe(loaded);
  await loaded.message.update(
    messageUpdate(
      "attack",
      {
        "system.exchange": card,
        "system.revision": revision,
        "system.rowRevisions": nextRowRevisions(loaded.state, next, revision, loaded.rowRevisions),
        "system.requests": [...loaded.requests, requestId].slice(-CARD_REQUEST_MEMORY),
        "system.recordId": recordId,
      },
      { rolls: rollsJson(loaded.message, dice.filter((d) => !d.secret)) },
    ),
  );
  callCaseHook("case.attackStep", loaded.message, step, card);
}

/** The nonce of the note an attack request left before spending, or null when it has not begun. */
export function attackNonce(origin: string): string | null {
  return spendNonce(origin);
}

/**
 * Begins an attack request's record before it spends anything (requests/spend-note.ts): the
 * card, once made, takes this record. Resolves to the nonce.
 */
export function beginAttack(origin: string): Promise<string> {
  return beginSpend(origin);
}

async function createRecord(cardId: string, origin: string, secrets: RevisionSecrets[], dice: readonly RolledDie[]): Promise<ChatMessage.Implementation | undefined> {
  const begun = origin ? begunRecord(origin) : null;
  if (begun) {
    await begun.update(messageUpdate("attackRecord", { "system.secrets": secrets }, { rolls: dice.map((d) => JSON.stringify(d.roll.toJSON())) }));
    return begun;
  }
  return ChatMessage.implementation.create({
    type: "attackRecord",
    whisper: gmIds(),
    content: "",
    system: { cardId, origin, secrets },
    rolls: dice.map((d) => JSON.stringify(d.roll.toJSON())),
  });
}

/** Creates a new card (and its record) for a full exchange, as the GM. Resolves to the card. */
export async function createCard(state: ExchangeState, speaker: ChatMessage.SpeakerData, origin: string, dice: readonly RolledDie[], isNpc: (actorUuid: string) => boolean): Promise<ChatMessage.Implementation> {
  await diceLanded(dice);
  const { card, secrets } = sealExchange(state, sealOptions(state, isNpc));
  const record = await createRecord("", origin, [{ revision: 0, secrets }], dice.filter((d) => d.secret));
  const message = await ChatMessage.implementation.create({
    type: "attack",
    speaker,
    content: "",
    system: { exchange: card, revision: 0, rowRevisions: {}, requests: [origin], recordId: record?.id ?? "", schemaVersion: ATTACK_CARD_SCHEMA_VERSION },
    rolls: dice.filter((d) => !d.secret).map((d) => JSON.stringify(d.roll.toJSON())),
  });
  if (!message) throw QueryRefusal.keyed("failed", "cardNotCreated");
  if (record) await record.update(messageUpdate("attackRecord", { "system.cardId": message.id }));
  callCaseHook("case.attackStep", message, "attack", card);
  return message;
}

/** The card an attack request already made (a replay of the same request), when there is one. */
export function cardOfOrigin(origin: string): ChatMessage.Implementation | null {
  for (const m of game.messages) {
    if (m.type !== "attackRecord" || !writtenByGM(m)) continue;
    const system = m.system as RecordSystem;
    if (system.origin === origin && system.cardId) return game.messages.get(system.cardId) ?? null;
  }
  return null;
}
