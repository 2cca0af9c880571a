/**
 * The active GM's request router for tests that drive handlers on one client: a request from
 * another user arrives as a request document whose author the server stamped (here, the user
 * the test names), with its payload through JSON as it would be stored; the GM's own clicks
 * run in place. Cross-client behaviour (several clients, the server's checks, drops) is tested
 * on the strict table (strict-table.ts).
 */
import { QueryRouter, type AskingUser, type QueryDefinition, type QueryEnvironment, type QueryResult } from "../../src/foundry/requests/router";
import { NO_COMBAT, type CombatBridge } from "../../src/foundry/combat/bridge";
import type { TurnDirectory } from "../../src/foundry/combat/queries";

/** The services the GM's handlers get: a test swaps in its own directory of combats or bridge to the turn. */
export interface TestServices {
  turns: TurnDirectory;
  combat: CombatBridge;
}

/**
 * The claims of a world with this one GM, in memory (the strict table keeps them as GM-authored
 * claim records, as Foundry does): each claim is this GM's, connected; `done` once answered.
 */
export function oneGMClaims(finishes = true): Pick<QueryEnvironment, "claims" | "claim" | "finishClaim"> {
  const claims = new Map<string, { self: true; live: true; done: boolean }[]>();
  return {
    claims: (id) => claims.get(id) ?? [],
    claim: (id) => (claims.set(id, [...(claims.get(id) ?? []), { self: true, live: true, done: false }]), Promise.resolve()),
    finishClaim: (id) => (finishes && claims.set(id, (claims.get(id) ?? []).map((c) => ({ ...c, done: true }))), Promise.resolve()),
  };
}

/** A directory that knows no combat. */
export const NO_TURNS: TurnDirectory = { engine: () => null, owns: () => null, nameOf: (_combatId, id) => id };

export interface GMRouter {
  readonly router: QueryRouter<TestServices>;
  /** What the handlers find in their context's services (change a field to swap a service). */
  readonly services: TestServices;
  /** Handles `payload` as a request from `userId` (run in place when it is the GM itself); `requestId` replays a request. */
  ask<P, R>(query: QueryDefinition<P, R, TestServices>, userId: string, payload: unknown, requestId?: string): Promise<QueryResult<R>>;
}

export function gmRouter(gm: AskingUser, users: ReadonlyMap<string, AskingUser>): GMRouter {
  let requests = 0;
  const newId = (): string => `req${String(++requests).padStart(13, "0")}`;
  const services: TestServices = { turns: NO_TURNS, combat: NO_COMBAT };
  const router = new QueryRouter<TestServices>({
    self: () => gm,
    user: (id) => users.get(id),
    isActiveGM: () => true,
    gmConnected: () => true,
    post: () => Promise.reject(new Error("The GM posts no requests.")),
    answer: () => Promise.reject(new Error("The GM waits for no answers.")),
    reply: () => Promise.resolve(),
    newId,
    // Its answers are lost on a replay: asking a request id again is a GM taking over and
    // finding it claimed by itself and unfinished, which it handles (the strict table keeps real claims).
    ...oneGMClaims(false),
  }, services);
  return {
    router,
    services,
    async ask<P, R>(query: QueryDefinition<P, R, TestServices>, userId: string, payload: unknown, requestId: string = newId()): Promise<QueryResult<R>> {
      const wire = JSON.parse(JSON.stringify(payload ?? null)) as unknown;
      if (userId === gm.id) return JSON.parse(JSON.stringify(await router.runLocally(query, wire, requestId))) as QueryResult<R>;
      router.register(query);
      const answer = await router.receive({ id: requestId, authorId: userId, query: query.name, payload: wire, answered: false });
      if (!answer) throw new Error("The GM did not answer.");
      return JSON.parse(JSON.stringify(answer)) as QueryResult<R>;
    },
  };
}
