/**
 * Cross-user requests: one writer (the active GM) for everything a player may ask for but
 * may not write itself: resolving a defence on a card the GM wrote, recording a declaration
 * on the combat, and so on.
 *
 * A query is declared once with {@link defineQuery}: a parser that refuses malformed payloads,
 * an authorisation check (usually "the asking user owns this actor"), and the handler that
 * applies the change. {@link QueryRouter.request} is what the clicking client calls: the
 * active GM runs it in place; anyone else posts it as a request document.
 *
 * Who is asking comes from what Foundry's server guarantees, never from the payload: a request
 * is a chat message of type `request`, and the server stamps a message with its author (a
 * player can create a message only as themselves) and lets only its author or a GM change it.
 * Foundry v13 gives a `CONFIG.queries` handler only the data (foundryvtt/foundryvtt#13418,
 * "the only way for a User-query handler to learn who queried is to include the sender's ID in
 * query data … not quite trustworthy"), so queries are not used. dnd5e builds its request
 * cards on message authorship the same way. The evidence and the choice are in the README.
 *
 * Only the active GM handles requests; a request is claimed in the world before it is handled
 * (a GM-authored claim record, which no player can edit), so a request already handled is never
 * handled again and one another connected GM is handling is left to it; the handlers record the request id where they
 * write, so a replay after a GM reload, or a request seen by two GMs, changes nothing. A new
 * active GM picks up requests nobody answered. Locks belong to the request: a query declares
 * up front every document it will write ({@link QueryDefinition.lockKeys}); the router takes
 * those locks once, in sorted order, and hands the {@link LockScope} down in the context, so
 * nothing below a handler takes a lock (and none can wait on a lock its own request holds).
 * Each user may have only {@link MAX_REQUESTS_PER_USER} requests in flight.
 * Every request and answer is plain JSON: no `undefined` means anything.
 */
import { errorRef, readErrorRef, type ErrorRef } from "../core/describe-error";
import { refusalLogText, type RefusalDataArg, type RefusalKey } from "../core/refusal-texts";
import { LockScope, LockTable, LockTimeout } from "./locks";

/** Why a request was refused. Each has a localised message `CASE.Query.Refused.<reason>`. */
export const REFUSAL_REASONS = ["noGM", "notGM", "malformed", "unknownUser", "inactiveUser", "spoofed", "forbidden", "stale", "failed", "timeout", "busy", "unknownQuery"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * A refusal raised by a parser, an authorisation check or a handler. `error` names a rules
 * error's text (key and data): the asking client says it in its reader's language, so a refusal
 * made from a rules error is not sent as the GM's words.
 */
export class QueryRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly error: ErrorRef | null = null,
  ) {
    super(message);
    this.name = "QueryRefusal";
  }

  /**
   * A refusal for `error`: a rules error travels as its key and data, its English message stays for the logs.
   * Every other error is logged here and read by the asker as "see the GM's console", never as its English.
   */
  static of(reason: RefusalReason, error: unknown): QueryRefusal {
    const ref = errorRef(error);
    if (ref === null) console.error("case | request refused", error);
    return new QueryRefusal(reason, error instanceof Error ? error.message : String(error), ref ?? refused("unexpected").error);
  }

  /** An adapter's own refusal, by its text's key (../core/refusal-texts.ts) and values: said in the asking reader's language. */
  static keyed<K extends RefusalKey>(reason: RefusalReason, key: K, ...data: RefusalDataArg<K>): QueryRefusal {
    const { message, error } = refused(key, data[0]);
    return new QueryRefusal(reason, message, error);
  }
}

/**
 * An adapter refusal's reference, and its message for the logs (its key and values: this file
 * reads no language; the asking client says it in its own).
 */
function refused(key: RefusalKey, data: Readonly<Record<string, string | number>> = {}): { message: string; error: ErrorRef } {
  return { message: refusalLogText(key, data), error: { kind: "refusal", key, data } };
}

/** What a query answers: plain JSON, so it means the same after the wire. `error`: the rules error a refusal names, when it names one. */
export type QueryResult<R> = { ok: true; value: R | null } | { ok: false; reason: RefusalReason; message: string; error?: ErrorRef };

/** The user a request is handled for. */
export interface AskingUser {
  readonly id: string;
  readonly isGM: boolean;
  readonly active: boolean;
  readonly name: string;
}

/**
 * What a handler knows of its request besides the payload. `S` is the services the handler
 * needs (the turn's directory of combats, the exchange's bridge to the turn): the root creates
 * them and hands them to the router, which passes them here; tests hand in their own.
 */
export interface QueryContext<S = unknown> {
  /** The request's id: the idempotency key handlers record where they write. */
  readonly requestId: string;
  /**
   * The locks this request holds (those its query declared): every writer below the handler
   * checks the key of what it writes against it (`scope.require`) and takes no lock itself.
   */
  readonly scope: LockScope;
  /** The services the router was made with. */
  readonly services: S;
}

export interface QueryDefinition<P, R, S = unknown> {
  /** The query's short name. */
  readonly name: string;
  /** Turns untrusted data into a payload, or throws a QueryRefusal("malformed"). */
  parse(raw: unknown): P;
  /**
   * Every lock the request holds while it runs: the key of each document it may write (the
   * card `card:<id>`, actors `actor:<uuid>`, combats `combat:<id>`, tokens `token:<uuid>`, …).
   * May read the world (a card's snapshotted targets) but must not write. The router takes
   * them all at once, in sorted order; a write to a key not declared here is an error.
   */
  lockKeys(payload: P, services: S): readonly string[] | Promise<readonly string[]>;
  /** Throws QueryRefusal("forbidden") unless `user` may make this request. Runs on the GM. */
  authorize(user: AskingUser, payload: P, context: QueryContext<S>): Promise<void> | void;
  /** Applies the request on the active GM, after authorize. Must be idempotent per request id. */
  handle(user: AskingUser, payload: P, context: QueryContext<S>): Promise<R | null>;
  /**
   * The work of this query that a GM began and never finished (its tab closed after the
   * effects and before the document that records them): payloads the GM taking over runs
   * as its own requests, so the step is finished. A GM's own click has no request document
   * for the next GM to find, so this is how its cut steps are found. Optional.
   */
  unfinished?(): Promise<readonly unknown[]> | readonly unknown[];
}

/** Declares a query (a typed identity: the definition is the value). */
export function defineQuery<P, R, S = unknown>(definition: QueryDefinition<P, R, S>): QueryDefinition<P, R, S> {
  if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(definition.name)) throw new Error(`Bad query name "${definition.name}".`);
  return definition;
}

/** A request document as the GM reads it: its id, its server-stamped author, and what it asks. */
export interface RequestRecord {
  readonly id: string;
  /** The author the server stamped on the request. */
  readonly authorId: string;
  readonly query: unknown;
  readonly payload: unknown;
  /** Whether an answer is already stored on it. */
  readonly answered: boolean;
}

/** A GM's claim on a request, as the GM deciding whether to handle it reads it. */
export interface RequestClaim {
  /** Written by this client's user. */
  readonly self: boolean;
  /** Its GM is connected (it is handling the request, or will finish it). */
  readonly live: boolean;
  /** The GM wrote the request's answer. */
  readonly done: boolean;
}

/** What the router needs from Foundry; the real one reads `game`, tests pass their own. */
export interface QueryEnvironment {
  /** The user this client is. */
  self(): AskingUser;
  /** A user by id, or undefined. */
  user(id: string): AskingUser | undefined;
  /** Whether this client is the active GM: the only one that handles requests. */
  isActiveGM(): boolean;
  /** Whether a GM is connected. */
  gmConnected(): boolean;
  /** Posts a request as a document the server stamps with its author; resolves with its id. */
  post(query: string, payload: unknown): Promise<string>;
  /** Resolves with the answer the GM writes on the request (as it came over the wire); rejects after `timeoutMs`. */
  answer(requestId: string, timeoutMs: number): Promise<unknown>;
  /** Writes the answer on the request (the GM). */
  reply(requestId: string, answer: QueryResult<unknown>): Promise<void>;
  /** A fresh id for a request the active GM runs in place. */
  newId(): string;
  /**
   * The GMs' claims on request `requestId`, in the order the server made them: kept where only
   * a GM writes (never on the request, which its author may edit), so no player can make a
   * request look unhandled again.
   */
  claims(requestId: string): readonly RequestClaim[];
  /** Writes this GM's claim on the request; resolves once the server has it (and this client every claim made before it). */
  claim(requestId: string): Promise<void>;
  /** Marks this GM's claim on the request done, once its answer is written. */
  finishClaim(requestId: string): Promise<void>;
}

/** How long a client waits for the GM's answer. */
export const QUERY_TIMEOUT_MS = 15_000;

/** How many requests of one user the GM runs or queues at once; more are refused as "busy". */
export const MAX_REQUESTS_PER_USER = 8;

/**
 * Runs requests: on the active GM, handles them (validated, authorised, locked, once); on
 * every other client, posts them and waits for the answer.
 */
export class QueryRouter<S = unknown> {
  readonly locks: LockTable;
  readonly #queries = new Map<string, QueryDefinition<unknown, unknown, S>>();
  readonly #inFlight = new Map<string, number>();
  readonly #handling = new Set<string>();

  constructor(
    private readonly env: QueryEnvironment,
    /** The services every handler gets in its context. */
    readonly services: S,
    locks: LockTable = new LockTable(),
    /** How long a client waits for the GM's answer. */
    private readonly answerTimeoutMs: number = QUERY_TIMEOUT_MS,
  ) {
    this.locks = locks;
  }

  /** Makes a query known to this router (call in init, on every client). */
  register<P, R>(query: QueryDefinition<P, R, S>): void {
    this.#queries.set(query.name, query);
  }

  /**
   * The active GM handles a request document once: from the create hook, or when it takes
   * over and finds it unanswered. The request is claimed in the world first (a GM-authored
   * claim record): a request another connected GM claimed is that GM's to finish, one a GM
   * claimed and left is finished here, and one whose claim is done is never run again,
   * whatever its (author-editable) answer says. Resolves with the answer it wrote (null when
   * it is not this client's to handle). Never throws.
   */
  async receive(record: RequestRecord): Promise<QueryResult<unknown> | null> {
    if (!this.env.isActiveGM() || this.#handling.has(record.id) || !this.#mayClaim(record)) return null;
    this.#handling.add(record.id);
    try {
      await this.env.claim(record.id);
      // This client now holds every claim the server made before its own: the first live
      // unfinished claim decides, so two GMs that claimed at once never both run it.
      const first = this.env.claims(record.id).find((c) => !c.done && (c.self || c.live));
      if (first?.self !== true) return null;
      const result = await this.#answerFor(record);
      await this.env.reply(record.id, result);
      await this.env.finishClaim(record.id);
      return result;
    } catch (error) {
      console.error("case | could not answer a request", error);
      return null;
    } finally {
      this.#handling.delete(record.id);
    }
  }

  /** Whether this GM may take the request on: nobody finished it, and no other connected GM holds it. */
  #mayClaim(record: RequestRecord): boolean {
    const claims = this.env.claims(record.id);
    if (claims.some((c) => c.done)) return false;
    if (claims.some((c) => !c.self && c.live)) return false;
    // A request answered before claims existed (an older version's) is done; otherwise its answer field is not trusted.
    return !(claims.length === 0 && record.answered);
  }

  async #answerFor(record: RequestRecord): Promise<QueryResult<unknown>> {
    try {
      const user = this.env.user(record.authorId);
      if (!user) throw QueryRefusal.keyed("unknownUser", "unknownUser", { id: record.authorId });
      const query = typeof record.query === "string" ? this.#queries.get(record.query) : undefined;
      if (!query) throw QueryRefusal.keyed("unknownQuery", "unknownQuery", { query: String(record.query) });
      return await this.#run(query, user, record.payload, record.id);
    } catch (error) {
      return refusalResult(error);
    }
  }

  /**
   * Finishes the work GMs began and never finished (each query's {@link QueryDefinition.unfinished}),
   * as this client's own requests: the active GM runs it when it takes over. Never throws.
   */
  async finishUnfinished(): Promise<void> {
    for (const query of this.#queries.values()) {
      if (!this.env.isActiveGM()) return;
      if (!query.unfinished) continue;
      let payloads: readonly unknown[];
      try {
        payloads = await query.unfinished();
      } catch (error) {
        console.error(`case | could not list the unfinished "${query.name}" steps`, error);
        continue;
      }
      for (const payload of payloads) {
        const result = await this.runLocally(query, payload);
        if (!result.ok && result.reason !== "stale") console.error(`case | could not finish a "${query.name}" step: ${result.reason}: ${result.message}`);
      }
    }
  }

  /** Handles a request made on this very client (the clicker is the active GM). */
  async runLocally<P, R>(query: QueryDefinition<P, R, S>, raw: unknown, requestId: string = this.env.newId()): Promise<QueryResult<R>> {
    try {
      return await this.#run(query, this.env.self(), raw, requestId);
    } catch (error) {
      return refusalResult(error);
    }
  }

  /**
   * What a clicking client calls. Runs the query here when this client is the active GM;
   * otherwise posts it and waits for the answer. Never throws: a refusal comes back as a result.
   */
  async request<P, R>(query: QueryDefinition<P, R, S>, payload: unknown): Promise<QueryResult<R>> {
    if (!this.env.gmConnected()) return { ok: false, reason: "noGM", ...refused("noGM") };
    if (this.env.isActiveGM()) return this.runLocally(query, payload);
    let id: string;
    try {
      id = await this.env.post(query.name, payload);
    } catch (error) {
      // The server's or Foundry's own words (English) go to the console; the reader is told the request was not posted.
      console.error("case | could not post a request", error);
      return { ok: false, reason: "failed", ...refused("notPosted") };
    }
    try {
      const answer = await this.env.answer(id, this.answerTimeoutMs);
      return readQueryResult<R>(answer) ?? { ok: false, reason: "failed", ...refused("unreadable") };
    } catch (error) {
      return { ok: false, reason: "timeout", message: error instanceof Error ? error.message : String(error) };
    }
  }

  async #run<P, R>(query: QueryDefinition<P, R, S>, user: AskingUser, raw: unknown, requestId: string): Promise<QueryResult<R>> {
    const payload = query.parse(raw);
    const queued = this.#inFlight.get(user.id) ?? 0;
    if (queued >= MAX_REQUESTS_PER_USER) throw QueryRefusal.keyed("busy", "busy", { name: user.name, count: queued });
    this.#inFlight.set(user.id, queued + 1);
    try {
      const keys = await query.lockKeys(payload, this.services);
      const value = await this.locks.run(keys, async () => {
        const context: QueryContext<S> = { requestId, scope: new LockScope(keys), services: this.services };
        await query.authorize(user, payload, context);
        return query.handle(user, payload, context);
      });
      return { ok: true, value: value ?? null };
    } catch (error) {
      if (error instanceof LockTimeout) throw new QueryRefusal("timeout", error.message);
      throw error;
    } finally {
      const left = (this.#inFlight.get(user.id) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(user.id, left);
      else this.#inFlight.delete(user.id);
    }
  }
}

function refusalResult(error: unknown): { ok: false; reason: RefusalReason; message: string; error?: ErrorRef } {
  // Anything but a refusal or a rules error is a bug: logged here, read by the asker as "see the GM's console", never as its English.
  const ref = error instanceof QueryRefusal ? error.error : (errorRef(error) ?? refused("unexpected").error);
  const named = ref === null ? {} : { error: { ...ref, data: { ...ref.data } } };
  if (error instanceof QueryRefusal) return { ok: false, reason: error.reason, message: error.message, ...named };
  const message = error instanceof Error ? error.message : String(error);
  console.error("case | request failed", error);
  return { ok: false, reason: "failed", message, ...named };
}

/** An answer as it came over the wire, checked; null when it is not an answer. `value` may be absent (JSON drops undefined). */
export function readQueryResult<R>(value: unknown): QueryResult<R> | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.ok === true) return { ok: true, value: (v.value ?? null) as R | null };
  if (v.ok === false && typeof v.reason === "string" && (REFUSAL_REASONS as readonly string[]).includes(v.reason)) {
    // A rules error's key and data are read as such, never as text; one that is not well formed reads as an answer not understood.
    const ref = v.error === undefined || v.error === null ? null : (readErrorRef(v.error) ?? refused("unreadable").error);
    // The GM's own words (a refusal that names no key) are a notification's, not a page's.
    const message = typeof v.message === "string" ? v.message.slice(0, 1000) : "";
    return { ok: false, reason: v.reason as RefusalReason, message, ...(ref === null ? {} : { error: ref }) };
  }
  return null;
}

// ── payload parsing helpers ───────────────────────────────────────────────────────────────

/** The payload as a record, or a malformed refusal. */
export function payloadRecord(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw QueryRefusal.keyed("malformed", "notObject");
  return raw as Record<string, unknown>;
}

/** A required non-empty string field. */
export function stringField(record: Record<string, unknown>, key: string, pattern?: RegExp): string {
  const value = record[key];
  if (typeof value !== "string" || value.length === 0 || value.length > 500) throw QueryRefusal.keyed("malformed", "fieldText", { key });
  if (pattern && !pattern.test(value)) throw QueryRefusal.keyed("malformed", "fieldForm", { key });
  return value;
}

/** A required whole number field within [min, max]. */
export function intField(record: Record<string, unknown>, key: string, min: number, max: number): number {
  const value = record[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw QueryRefusal.keyed("malformed", "fieldRange", { key, min, max });
  }
  return value;
}

/** A required field that must be one of `choices`. */
export function choiceOf<T extends string>(record: Record<string, unknown>, key: string, choices: readonly T[]): T {
  const value = record[key];
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw QueryRefusal.keyed("malformed", "fieldChoice", { key, allowed: choices.join(", ") });
  }
  return value as T;
}

/** A Foundry document UUID such as "Actor.abc" or "Scene.x.Token.y". */
export const UUID_PATTERN = /^(Compendium\.)?[A-Za-z0-9_.-]+$/;

/** A required list of 1 to `max` document UUIDs (a UUID named twice counts once). */
export function uuidListField(record: Record<string, unknown>, key: string, max: number): string[] {
  const list = record[key];
  if (!Array.isArray(list) || list.length === 0 || list.length > max) throw QueryRefusal.keyed("malformed", "fieldList", { key, min: 1, max });
  const uuids = (list as unknown[]).map((uuid, i) => {
    if (typeof uuid !== "string" || uuid.length === 0 || uuid.length > 500 || !UUID_PATTERN.test(uuid)) throw QueryRefusal.keyed("malformed", "fieldForm", { key: `${key}[${String(i)}]` });
    return uuid;
  });
  return [...new Set(uuids)];
}
