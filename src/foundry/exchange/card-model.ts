/**
 * ChatMessage subtype `attack`: one attack exchange, stored whole in `system.exchange` so the
 * card re-renders from it after a reload and every transition is one message update.
 */
import { EXCHANGE_VERSION, isAttackCode, type ExchangeSecrets, type ExchangeState } from "../../rules/index";
import { schemaVersionField, typedObjectField } from "../data/fields";
import type { AnyMutableObject } from "fvtt-types/utils";
import { CaseMessageModel } from "../data/message-model";
import { RefusalError } from "../core/refusal-texts";

export const ATTACK_CARD_SCHEMA_VERSION = 1;

/** Throws a RangeError (a {@link RefusalError} naming the part) unless `value` looks like a stored exchange this code can read. */
export function readExchange(value: unknown): ExchangeState {
  if (typeof value !== "object" || value === null) throw new RefusalError("cardMalformed", { part: "exchange" });
  const v = value as Record<string, unknown>;
  if (typeof v.version !== "number") throw new RefusalError("cardMalformed", { part: "version" });
  if (v.version > EXCHANGE_VERSION) throw new RefusalError("cardNewer", { version: v.version });
  if (!isAttackCode(v.attack)) throw new RefusalError("cardMalformed", { part: "attack" });
  if (!Array.isArray(v.targets) || v.targets.length === 0) throw new RefusalError("cardMalformed", { part: "targets" });
  for (const t of v.targets as unknown[]) {
    const target = t as Record<string, unknown> | null;
    if (typeof target !== "object" || target === null || typeof target.key !== "string" || typeof target.phase !== "string") {
      throw new RefusalError("cardMalformed", { part: "target" });
    }
  }
  return value as ExchangeState;
}

/** How many handled request ids a card remembers (the newest). */
export const CARD_REQUEST_MEMORY = 200;

/** The attack card's stored shape (its model, with the card's template, context and actions, is in card-message.ts). */
export function attackCardSchema() {
  const f = foundry.data.fields;
  return {
    /** The public exchange: sealed rows keep their secrets in the GM's record (rules/exchange/secrets.ts). */
    // Written as an ExchangeState; read as a plain object, which readExchange checks.
    exchange: new f.ObjectField<{ required: true }, ExchangeState, AnyMutableObject, AnyMutableObject>({ required: true }),
    /** Counts the card's writes; the record keeps the secrets of each recent revision. */
    revision: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 0 }),
    /**
     * The revision at which each row last changed (by target key; `*` for the card outside its
     * rows): a request made against an older revision of its row changes nothing (card-store.ts
     * `changedSince`). A row missing here has not changed since the card was made.
     */
    rowRevisions: new f.ObjectField<{ required: true; initial: Record<string, number> }, Record<string, number>, AnyMutableObject, AnyMutableObject>({ required: true, initial: {} }),
    /** The ids of the requests this card has applied, newest last: a replay changes nothing. */
    requests: new f.ArrayField(new f.StringField({ required: true, blank: false }), { required: true, initial: [] }),
    /** The GM-whispered record message holding this card's secrets. */
    recordId: new f.StringField({ required: true, blank: true, initial: "" }),
    schemaVersion: schemaVersionField(ATTACK_CARD_SCHEMA_VERSION),
  };
}
export type AttackCardSchema = ReturnType<typeof attackCardSchema>;

/** The secrets of one card revision, as the GM's record keeps them. */
export type RevisionSecrets = { revision: number; secrets: ExchangeSecrets };

/** One note of the GM's journal on a card's record: the step's id, its nonce, and what the step needs to be finished or undone. */
export type JournalEntry = { id: string; nonce: string; data: Record<string, unknown> };

/** How many notes a record keeps (the newest). */
export const JOURNAL_SIZE = 100;

/** How many revisions of secrets a record keeps: the card's own and the one a half-done write left. */
export const RECORD_REVISIONS = 3;

function attackRecordSchema() {
  const f = foundry.data.fields;
  return {
    /** The attack card this record belongs to. */
    cardId: new f.StringField({ required: true, blank: true, initial: "" }),
    /** The request that made the attack: a replay finds this record and its card. */
    origin: new f.StringField({ required: true, blank: true, initial: "" }),
    /** Secrets by card revision (`{ revision, secrets }`, newest last): what players may not see. */
    secrets: new f.ArrayField(typedObjectField<RevisionSecrets>(), { required: true, initial: [] }),
    /**
     * The GM's notes of the card's steps, written before their effects (card-store.ts
     * `journalStep`), newest last: what a step began, the nonce its ledger entries carry, and
     * what undoing it needs. Only GMs write (and receive) a record, so nothing here can be
     * forged by a player writing their own actor.
     */
    journal: new f.ArrayField(typedObjectField<JournalEntry>(), { required: true, initial: [] }),
  };
}
type AttackRecordSchema = ReturnType<typeof attackRecordSchema>;

/**
 * ChatMessage subtype `attackRecord`: the GM's side of an attack card, whispered to the GMs
 * only, so players never receive it. Never shown in the chat log.
 */
export class AttackRecordData extends CaseMessageModel<AttackRecordSchema> {
  static override defineSchema(): AttackRecordSchema {
    return attackRecordSchema();
  }
}
