/**
 * The group Karma pool (issue 11 item 4; rules karma.ts `contributeToPool`, `drawFromPool`),
 * when the world's "Group Karma pool" setting is on. The pool is a world setting that only a
 * GM's client may write, so every contribution and draw runs on the active GM through the
 * query router (`karmaPoolQuery`): asked by the character's owner (or a GM), under the
 * character's lock and the pool's, the character's Karma and its log line written once with
 * a ledger entry, and the pool written with the request's id (a retry changes neither twice).
 * That id is the request message's, which the server makes, with the character's uuid: a player
 * cannot replay one request for another character, or replay it at all once answered.
 */
import { contributeToPool, drawFromPool } from "../rules/index";
import { SYSTEM_ID } from "./core/constants";
import { actorFromUuid, isCharacter } from "./core/guards";
import { MAX_KARMA_POOL_AMOUNT, karmaPoolDrawLimit, karmaPoolEnabled, karmaPoolState } from "./core/settings";
import { requestGM, userOwns } from "./requests/gm";
import { QueryRefusal, UUID_PATTERN, choiceOf, defineQuery, intField, payloadRecord, stringField, type AskingUser } from "./requests/router";
import { actorLock, actorLocksOf, karmaUpdate, ledgerEntry, logDate, writeOnceWith } from "./actor-writes";
import { transition } from "./exchange/gm-actions";
import { refusalText } from "./ui/error-text";

/** The lock every change of the pool takes (beside the character's). */
export const KARMA_POOL_LOCK = "karmaPool:world";
/** How many applied request ids the pool remembers. */
export const KARMA_POOL_REQUESTS_KEPT = 50;

export const KARMA_POOL_ACTIONS = ["contribute", "draw"] as const;
export type KarmaPoolAction = (typeof KARMA_POOL_ACTIONS)[number];

export interface KarmaPoolPayload {
  readonly actorUuid: string;
  readonly action: KarmaPoolAction;
  readonly amount: number;
}

/** What a contribution or draw left. */
export interface KarmaPoolResult {
  readonly name: string;
  readonly karma: number;
  readonly total: number;
}

/** Validates untrusted data into a pool request, or throws QueryRefusal("malformed"). */
export function parseKarmaPoolPayload(raw: unknown): KarmaPoolPayload {
  const r = payloadRecord(raw);
  return {
    actorUuid: stringField(r, "actorUuid", UUID_PATTERN),
    action: choiceOf(r, "action", KARMA_POOL_ACTIONS),
    amount: intField(r, "amount", 1, MAX_KARMA_POOL_AMOUNT),
  };
}

async function characterOf(uuid: string): Promise<Actor.Implementation> {
  const actor = await actorFromUuid(uuid);
  if (!actor) throw new QueryRefusal("stale", game.i18n.format("CASE.DamageApi.TargetGone", { uuid }));
  if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.format("CASE.DamageApi.NotCharacter", { name: actor.name }));
  return actor;
}

export const karmaPoolQuery = defineQuery({
  name: "karmaPool",
  parse: parseKarmaPoolPayload,
  lockKeys: async (p) => [...(await actorLocksOf([p.actorUuid])), KARMA_POOL_LOCK],
  async authorize(user: AskingUser, p: KarmaPoolPayload) {
    if (!karmaPoolEnabled()) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.KarmaPool.Off"));
    if (user.isGM) return;
    // Who asks is the server-stamped author of the request, never the payload: they must own the character.
    const actor = await characterOf(p.actorUuid);
    if (!userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Builder.NotYours"));
  },
  async handle(_user: AskingUser, p: KarmaPoolPayload, context): Promise<KarmaPoolResult> {
    // The request's own id (the server-made message id, or the active GM's own) and the character.
    const id = `pool:${context.requestId}:${p.actorUuid}`;
    const field = "system.karma.value";
    const actor = await characterOf(p.actorUuid);
    return context.scope.within([actorLock(actor.uuid), KARMA_POOL_LOCK], async () => {
      if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.format("CASE.DamageApi.NotCharacter", { name: actor.name }));
      const pool = transition(() => karmaPoolState());
      // A retry after the character was written computes from the balance the ledger recorded.
      const before = ledgerEntry(actor, id, field)?.before ?? actor.system.karma.value;
      const date = logDate();
      const change = transition(() =>
        p.action === "contribute" ? contributeToPool(pool, actor.uuid, before, p.amount, date) : drawFromPool(pool, actor.uuid, before, p.amount, date, karmaPoolDrawLimit()),
      );
      const reason = game.i18n.localize(p.action === "contribute" ? "CASE.KarmaPool.ContributeReason" : "CASE.KarmaPool.DrawReason");
      const { [field]: _pool, ...log } = karmaUpdate(actor, { ...change.entry, reason }) as Record<string, unknown>;
      await writeOnceWith(context.scope, actor, id, field, before, change.balance, log);
      if (!pool.requests.includes(id)) {
        await game.settings.set(SYSTEM_ID, "karmaPoolState", { ...change.pool, requests: [...pool.requests, id].slice(-KARMA_POOL_REQUESTS_KEPT) });
      }
      return { name: actor.name, karma: change.balance, total: change.pool.total };
    });
  },
});

async function ask(action: KarmaPoolAction, actorUuid: string, amount: number): Promise<KarmaPoolResult | null> {
  const payload = { actorUuid, action, amount };
  try {
    parseKarmaPoolPayload(payload);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.Campaign.Invalid", { message: refusalText(error) }));
    return null;
  }
  const result = await requestGM(karmaPoolQuery, payload);
  if (!result) return null;
  ui.notifications.info(game.i18n.format("CASE.KarmaPool.Done", { name: result.name, karma: String(result.karma), total: String(result.total) }));
  return result;
}

/** Puts `amount` of the character's Karma into the group pool, through the active GM. Resolves to what is left, or null (after a message). */
export async function contributeToGroupPool(actorUuid: string, amount: number): Promise<KarmaPoolResult | null> {
  return ask("contribute", actorUuid, amount);
}

/** Draws `amount` Karma from the group pool for the character, through the active GM (the world's draw limit applies). */
export async function drawFromGroupPool(actorUuid: string, amount: number): Promise<KarmaPoolResult | null> {
  return ask("draw", actorUuid, amount);
}
