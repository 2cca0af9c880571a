/**
 * Foundry glue for the query router: registers CASE queries in CONFIG.queries and sends a
 * clicking user's requests to the active GM, telling the user (localised) when that fails.
 */
import { QueryRouter, type AskingUser, type QueryDefinition, type QueryEnvironment } from "./queries";

function asking(user: User.Implementation): AskingUser {
  return { id: user.id ?? "", isGM: user.isGM, active: user.active, name: user.name };
}

const foundryEnvironment: QueryEnvironment = {
  self: () => asking(game.user),
  user: (id) => {
    const user = game.users.get(id);
    return user ? asking(user) : undefined;
  },
  activeGM: () => {
    const gm = game.users.activeGM;
    if (!gm) return null;
    return {
      id: gm.id ?? "",
      isSelf: gm.isSelf,
      query: (name, data, options) => (gm.query as (n: string, d: unknown, o: { timeout: number }) => Promise<unknown>)(name, data, options),
    };
  },
};

/** The one router of this client. */
export const router = new QueryRouter(foundryEnvironment);

/** Registers a query as CONFIG.queries["case.<name>"] (call in init). */
export function registerQuery<P, R>(query: QueryDefinition<P, R>): void {
  const table = CONFIG.queries as unknown as Record<string, unknown>;
  table[`case.${query.name}`] = router.handlerFor(query);
}

/**
 * Asks the active GM to run `query` (or runs it here when this client is the active GM).
 * Returns the handler's value, or undefined after telling the user why it was refused.
 */
export async function requestGM<P, R>(query: QueryDefinition<P, R>, payload: P): Promise<R | undefined> {
  const result = await router.request(query, payload);
  if (result.ok) return result.value;
  ui.notifications.error(game.i18n.format(`CASE.Query.Refused.${result.reason}`, { message: result.message }));
  return undefined;
}

/** True when the user named by `user` owns `document` (OWNER permission). */
export function userOwns(user: AskingUser, document: { testUserPermission(user: User.Implementation, level: "OWNER"): boolean }): boolean {
  const u = game.users.get(user.id);
  return u !== undefined && document.testUserPermission(u, "OWNER");
}
