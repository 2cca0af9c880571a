/**
 * Foundry glue for the request router (queries.ts): a player's request becomes a `request`
 * chat message whispered to the GMs (the server stamps its author); the active GM handles it
 * from the `createChatMessage` hook and writes the answer onto it; the asker hears the answer
 * through `updateChatMessage`. A GM who becomes the active GM (on `ready`, or when a GM
 * connects or leaves) handles the requests nobody answered.
 */
import type { QueryRouter} from "./router";
import { type AskingUser, type QueryDefinition, type QueryEnvironment, type QueryResult, type RequestRecord } from "./router";
import { isMessageType } from "../core/guards";
import { describeRef } from "../core/describe-error";

function asking(user: User.Implementation): AskingUser {
  return { id: user.id ?? "", isGM: user.isGM, active: user.active, name: user.name };
}

interface RequestSystem {
  query?: unknown;
  payload?: unknown;
  answer?: unknown;
}

function requestSystem(message: ChatMessage.Implementation): RequestSystem {
  return message.system;
}

/** Resolves with the answer the GM writes on request `id`; rejects after `timeoutMs`. */
function waitForAnswer(id: string, timeoutMs: number): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const done = (answer: unknown): void => {
      clearTimeout(timer);
      Hooks.off("updateChatMessage", hookId);
      Hooks.off("deleteChatMessage", deleteHookId);
      resolve(answer);
    };
    const hookId = Hooks.on("updateChatMessage", (message: ChatMessage.Implementation) => {
      if (message.id !== id) return;
      const answer = requestSystem(message).answer;
      if (answer !== null && answer !== undefined) done(answer);
    });
    // The GM deletes a request once answered: a deletion that arrives first still carries the answer.
    const deleteHookId = Hooks.on("deleteChatMessage", (message: ChatMessage.Implementation) => {
      if (message.id !== id) return;
      const answer = requestSystem(message).answer;
      if (answer !== null && answer !== undefined) done(answer);
    });
    const timer = setTimeout(() => {
      Hooks.off("updateChatMessage", hookId);
      Hooks.off("deleteChatMessage", deleteHookId);
      reject(new Error(game.i18n.localize("CASE.Query.NoAnswer")));
    }, timeoutMs);
    // Answered before the hook was in place.
    const answer = game.messages.get(id) ? requestSystem(game.messages.get(id) as ChatMessage.Implementation).answer : null;
    if (answer !== null && answer !== undefined) done(answer);
  });
}

/** The time the server made a message: `_stats.createdTime` where the server stamps it, else its timestamp. */
function createdAt(message: ChatMessage.Implementation): number {
  const stats = (message as { _stats?: { createdTime?: number | null } })._stats;
  return typeof stats?.createdTime === "number" ? stats.createdTime : message.timestamp;
}

/** The GM-authored claims on request `requestId`, oldest first (ties by id). */
function claimsOn(requestId: string): ChatMessage.Implementation[] {
  const found: ChatMessage.Implementation[] = [];
  for (const m of game.messages) {
    if (isMessageType(m, "requestClaim") && m.author?.isGM === true && m.system.requestId === requestId) found.push(m);
  }
  return found.sort((a, b) => createdAt(a) - createdAt(b) || ((a.id ?? "") < (b.id ?? "") ? -1 : 1));
}

function claimDone(message: ChatMessage.Implementation): boolean {
  return isMessageType(message, "requestClaim") && message.system.done;
}

/** The router's view of Foundry on this client. */
export const foundryEnvironment: QueryEnvironment = {
  self: () => asking(game.user),
  user: (id) => {
    const user = game.users.get(id);
    return user ? asking(user) : undefined;
  },
  isActiveGM: () => game.users.activeGM?.isSelf === true,
  gmConnected: () => game.users.activeGM !== null,
  async post(query, payload) {
    const whisper = game.users.filter((u) => u.isGM).map((u) => u.id);
    const message = await ChatMessage.implementation.create({ type: "request", whisper, content: "", system: { query, payload: payload as Record<string, unknown>, answer: null } });
    if (!message?.id) throw new Error(game.i18n.localize("CASE.Refusal.notPosted"));
    return message.id;
  },
  answer: waitForAnswer,
  async reply(id, answer) {
    const message = game.messages.get(id);
    if (!message) return;
    await message.update({ "system.answer": answer } as ChatMessage.UpdateData);
    await pruneAnswered(id);
  },
  newId: () => foundry.utils.randomID(16),
  claims: (requestId) =>
    claimsOn(requestId).map((m) => ({ self: m.author?.id === game.user.id, live: m.author?.active === true, done: claimDone(m) })),
  async claim(requestId) {
    const whisper = game.users.filter((u) => u.isGM).map((u) => u.id);
    await ChatMessage.implementation.create({ type: "requestClaim", whisper, content: "", system: { requestId, done: false } });
  },
  async finishClaim(requestId) {
    for (const m of claimsOn(requestId)) if (m.author?.id === game.user.id && !claimDone(m)) await m.update({ "system.done": true } as ChatMessage.UpdateData);
  },
};

/**
 * This client's router: the root (../register.ts) makes it in init, with the services its
 * handlers need, and keeps it at `CONFIG.CASE.router`. A clear error before init.
 */
export function caseRouter(): CONFIG["CASE"]["router"] {
  const router = (CONFIG as Partial<CONFIG>).CASE?.router;
  if (!router) throw new Error("CASE's request router is not set up: the system's init has not run.");
  return router;
}

/** A request message as the router reads it: the author is the one the server stamped. */
function requestRecord(message: ChatMessage.Implementation): RequestRecord {
  const system = requestSystem(message);
  return { id: message.id ?? "", authorId: message.author?.id ?? "", query: system.query, payload: system.payload, answered: system.answer !== null && system.answer !== undefined };
}

/** How long an answered request is kept before the active GM deletes it (one it could not delete when it answered). */
const ANSWERED_REQUEST_KEEP_MS = 60 * 1000;

/**
 * Deletes an answered request as soon as the answer is written: the asker heard it through
 * `updateChatMessage` (or the deletion, which carries it), cards and ledgers remember the request
 * id against replays, and a request kept would take a slot of the chat log's render batch. A
 * failed delete is left to {@link handleWaitingRequests}.
 */
async function pruneAnswered(id: string): Promise<void> {
  try {
    await ChatMessage.implementation.deleteDocuments([id]);
  } catch (error) {
    console.warn(`case | answered request ${id} not deleted yet`, error);
  }
}

/**
 * An unanswered request older than this was made in an earlier session (its asker stopped
 * waiting after the router's QUERY_TIMEOUT_MS and was told it may still be applied, then left):
 * the active GM refuses it as stale, never runs it. A request left by a GM whose tab closed a
 * moment ago is younger, and is run by the next active GM.
 */
export const REQUEST_EXPIRES_MS = 5 * 60 * 1000;

/** The answer an expired request gets (the asker, if still there, reads it as "already done or gone"). */
const EXPIRED_ANSWER = { ok: false, reason: "stale", message: "This request was made in an earlier session and has expired." } as const;

/**
 * The active GM handles every unanswered request (those older than {@link REQUEST_EXPIRES_MS}
 * are refused as stale and deleted, never run), finishes the steps a GM began and never
 * finished (its own clicks have no request to find: {@link QueryRouter.finishUnfinished}),
 * and deletes answered requests older than a minute (those not deleted when answered).
 */
export async function handleWaitingRequests(on: QueryRouter): Promise<void> {
  if (game.users.activeGM?.isSelf !== true) return;
  const requests = game.messages.filter((m) => m.type === "request");
  // Ages by the server's creation time (createdAt): a message's `timestamp` is its author's to set.
  const old = requests.filter((m) => requestRecord(m).answered && Date.now() - createdAt(m) > ANSWERED_REQUEST_KEEP_MS).map((m) => m.id);
  // Claims go with their requests: finished ones older than the requests kept, and those whose request is gone.
  const claims = game.messages.filter((m) => m.type === "requestClaim" && m.author?.isGM === true);
  const oldClaims = claims.filter((m) => claimDone(m) && (Date.now() - createdAt(m) > ANSWERED_REQUEST_KEEP_MS || !game.messages.get(isMessageType(m, "requestClaim") ? m.system.requestId : ""))).map((m) => m.id);
  for (const message of requests) {
    const record = requestRecord(message);
    if (record.answered) continue;
    if (Date.now() - createdAt(message) > REQUEST_EXPIRES_MS) await foundryEnvironment.reply(record.id, EXPIRED_ANSWER);
    else await on.receive(record);
  }
  await on.finishUnfinished();
  // Only those still here: another GM (a hand-over, two GMs back at once) may have deleted them
  // meanwhile, and a deletion of a message already gone is refused by the server.
  const stale = [...old, ...oldClaims].filter((id): id is string => typeof id === "string" && game.messages.has(id));
  if (stale.length === 0) return;
  try {
    await ChatMessage.implementation.deleteDocuments(stale);
  } catch (error) {
    console.warn("case | old requests and claims not deleted yet (another GM may have deleted them)", error);
  }
}

/** Wires the request hooks of `on` (this client's router; call in init). */
export function registerRequestHooks(on: QueryRouter): void {
  Hooks.on("createChatMessage", (message: ChatMessage.Implementation) => {
    if (message.type === "request") void on.receive(requestRecord(message));
  });
  Hooks.once("ready", () => void handleWaitingRequests(on));
  Hooks.on("userConnected", () => void handleWaitingRequests(on));
}

/**
 * Asks the active GM to run `query` (or runs it here when this client is the active GM).
 * Returns the handler's value (null when it has none), or undefined after telling the user
 * why it was refused. Every query of this client's router may be asked (whatever services its
 * handlers need: the router was made with them all).
 */
export async function requestGM<P, R>(query: QueryDefinition<P, R, never>, payload: P): Promise<R | null | undefined> {
  const result: QueryResult<R> = await caseRouter().request(query, payload);
  if (result.ok) return result.value;
  const notify = result.reason === "timeout" || result.reason === "stale" ? ui.notifications.warn.bind(ui.notifications) : ui.notifications.error.bind(ui.notifications);
  // A rules error is said in this reader's language (its key and data came over the wire), else the
  // refusal's own message. It may name actors and users: let Foundry escape it (v13 NotificationOptions `format` + `escape`).
  const message = result.error ? describeRef(result.error) : result.message;
  notify(`CASE.Query.Refused.${result.reason}`, { localize: true, format: { message }, escape: true });
  return undefined;
}

/** True when the user named by `user` owns `document` (OWNER permission). */
export function userOwns(user: AskingUser, document: { testUserPermission(user: User.Implementation, level: "OWNER"): boolean }): boolean {
  const u = game.users.get(user.id);
  return u !== undefined && document.testUserPermission(u, "OWNER");
}
