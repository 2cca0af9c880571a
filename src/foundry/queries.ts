/**
 * Cross-user requests: one writer (the active GM) for everything a player may ask for but
 * may not write itself — resolving a defence on a card the player did not author, recording a
 * declaration on the combat, and so on.
 *
 * A query is declared once with {@link defineQuery}: a parser that refuses malformed payloads,
 * an authorisation check (usually "the asking user owns this actor"), and the handler that
 * applies the change. {@link requestGM} is what the clicking client calls; it runs the query
 * in place when the clicker is the active GM and otherwise sends it with
 * `game.users.activeGM.query("case.<name>", envelope)`.
 *
 * Who is asking: Foundry v13 passes a query handler only the data, not the sending user. So
 * the envelope names its user, and the GM side refuses an envelope that names a user who does
 * not exist, is not connected, or is the GM itself (the active GM never sends itself a query
 * over the wire). What remains — a modified client naming another connected player — is
 * recorded in the README; every handler still checks ownership against the named user.
 *
 * Handlers serialise per lock key (a message or combat id), so two clicks at once are applied
 * one after the other; each transition must be idempotent, so the second changes nothing.
 */

/** Why a request was refused. Each has a localised message `CASE.Query.Refused.<reason>`. */
export const REFUSAL_REASONS = ["noGM", "notGM", "malformed", "unknownUser", "inactiveUser", "spoofed", "forbidden", "stale", "failed", "timeout"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** A refusal raised by a parser, an authorisation check or a handler. */
export class QueryRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = "QueryRefusal";
  }
}

/** What a query returns to the asking client. */
export type QueryResult<R> = { ok: true; value: R } | { ok: false; reason: RefusalReason; message: string };

/** The user a request is handled for. */
export interface AskingUser {
  readonly id: string;
  readonly isGM: boolean;
  readonly active: boolean;
  readonly name: string;
}

export interface QueryDefinition<P, R> {
  /** The query's short name; registered as `case.<name>`. */
  readonly name: string;
  /** Turns untrusted data into a payload, or throws a QueryRefusal("malformed"). */
  parse(raw: unknown): P;
  /** Serialisation key: requests with the same key are handled one after the other. */
  lockKey(payload: P): string;
  /** Throws QueryRefusal("forbidden") unless `user` may make this request. Runs on the GM. */
  authorize(user: AskingUser, payload: P): Promise<void> | void;
  /** Applies the request. Runs on the active GM only, after authorize. Must be idempotent. */
  handle(user: AskingUser, payload: P): Promise<R>;
}

/** Declares a query (a typed identity: the definition is the value). */
export function defineQuery<P, R>(definition: QueryDefinition<P, R>): QueryDefinition<P, R> {
  if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(definition.name)) throw new Error(`Bad query name "${definition.name}".`);
  return definition;
}

/** The envelope sent over the wire. */
interface Envelope {
  userId: string;
  payload: unknown;
}

function parseEnvelope(raw: unknown): Envelope {
  if (typeof raw !== "object" || raw === null) throw new QueryRefusal("malformed", "The request is not an object.");
  const { userId, payload } = raw as Record<string, unknown>;
  if (typeof userId !== "string" || userId.length === 0) throw new QueryRefusal("malformed", "The request names no user.");
  return { userId, payload };
}

/** What the router needs from Foundry; the real one reads `game`, tests pass their own. */
export interface QueryEnvironment {
  /** The user this client is. */
  self(): AskingUser;
  /** A user by id, or undefined. */
  user(id: string): AskingUser | undefined;
  /** The active GM, or null when none is connected. */
  activeGM(): { id: string; isSelf: boolean; query(name: string, data: Envelope, options: { timeout: number }): Promise<unknown> } | null;
}

/** How long a client waits for the GM's answer. */
export const QUERY_TIMEOUT_MS = 15_000;

/**
 * Runs queries: on the GM, handles them (validated, authorised, serialised); on a player,
 * sends them to the active GM.
 */
export class QueryRouter {
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(private readonly env: QueryEnvironment) {}

  /** The function to put in CONFIG.queries["case.<name>"]: handles a request from the wire. */
  handlerFor<P, R>(query: QueryDefinition<P, R>): (raw: unknown) => Promise<QueryResult<R>> {
    return async (raw: unknown) => {
      try {
        const self = this.env.self();
        if (!self.isGM) throw new QueryRefusal("notGM", "Only a GM handles CASE requests.");
        const envelope = parseEnvelope(raw);
        const user = this.env.user(envelope.userId);
        if (!user) throw new QueryRefusal("unknownUser", `No user ${envelope.userId}.`);
        if (user.id === self.id) throw new QueryRefusal("spoofed", "A request from the wire may not claim to come from the GM who handles it.");
        if (!user.active) throw new QueryRefusal("inactiveUser", `User ${user.name} is not connected.`);
        return await this.#run(query, user, envelope.payload);
      } catch (error) {
        return refusalResult(error);
      }
    };
  }

  /** Handles a request made on this very client (the clicker is the active GM). */
  async runLocally<P, R>(query: QueryDefinition<P, R>, raw: unknown): Promise<QueryResult<R>> {
    try {
      return await this.#run(query, this.env.self(), raw);
    } catch (error) {
      return refusalResult(error);
    }
  }

  /**
   * What a clicking client calls. Runs the query here when this client is the active GM;
   * otherwise sends it to the active GM. Never throws: a refusal comes back as a result.
   */
  async request<P, R>(query: QueryDefinition<P, R>, payload: unknown): Promise<QueryResult<R>> {
    const gm = this.env.activeGM();
    if (!gm) return { ok: false, reason: "noGM", message: "No GM is connected." };
    if (gm.isSelf) return this.runLocally(query, payload);
    try {
      const answer = await gm.query(`case.${query.name}`, { userId: this.env.self().id, payload }, { timeout: QUERY_TIMEOUT_MS });
      return isQueryResult<R>(answer) ? answer : { ok: false, reason: "failed", message: "The GM's answer was not understood." };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: /time/i.test(message) ? "timeout" : "failed", message };
    }
  }

  async #run<P, R>(query: QueryDefinition<P, R>, user: AskingUser, raw: unknown): Promise<QueryResult<R>> {
    const payload = query.parse(raw);
    const key = `${query.name}:${query.lockKey(payload)}`;
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const run = previous.then(async () => {
      await query.authorize(user, payload);
      return query.handle(user, payload);
    });
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(key, settled);
    try {
      const value = await run;
      return { ok: true, value };
    } finally {
      if (this.#locks.get(key) === settled) this.#locks.delete(key);
    }
  }
}

function refusalResult(error: unknown): { ok: false; reason: RefusalReason; message: string } {
  if (error instanceof QueryRefusal) return { ok: false, reason: error.reason, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  console.error("case | query failed", error);
  return { ok: false, reason: "failed", message };
}

function isQueryResult<R>(value: unknown): value is QueryResult<R> {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.ok === true ? "value" in v : v.ok === false && typeof v.reason === "string";
}

// ── payload parsing helpers ───────────────────────────────────────────────────────────────

/** The payload as a record, or a malformed refusal. */
export function payloadRecord(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new QueryRefusal("malformed", "The request's data is not an object.");
  return raw as Record<string, unknown>;
}

/** A required non-empty string field. */
export function stringField(record: Record<string, unknown>, key: string, pattern?: RegExp): string {
  const value = record[key];
  if (typeof value !== "string" || value.length === 0 || value.length > 500) throw new QueryRefusal("malformed", `"${key}" must be a non-empty string.`);
  if (pattern && !pattern.test(value)) throw new QueryRefusal("malformed", `"${key}" is not well formed.`);
  return value;
}

/** A required whole number field within [min, max]. */
export function intField(record: Record<string, unknown>, key: string, min: number, max: number): number {
  const value = record[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new QueryRefusal("malformed", `"${key}" must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** A required field that must be one of `choices`. */
export function choiceOf<T extends string>(record: Record<string, unknown>, key: string, choices: readonly T[]): T {
  const value = record[key];
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw new QueryRefusal("malformed", `"${key}" must be one of ${choices.join(", ")}.`);
  }
  return value as T;
}

/** A Foundry document UUID such as "Actor.abc" or "Scene.x.Token.y". */
export const UUID_PATTERN = /^(Compendium\.)?[A-Za-z0-9_.-]+$/;
