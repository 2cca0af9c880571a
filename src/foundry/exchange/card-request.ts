/**
 * What every request on an attack card declares and names, beside its own payload: the locks
 * it holds (the card, the actors, tokens and combats the card may write: router.ts takes them
 * all at once and hands the scope down), and the card revision the click was made against (a
 * request whose row moved on since is refused as stale, naming the action, before anything is done).
 */
import { intField, QueryRefusal } from "../requests/router";
import { actorLock } from "../actor-writes";
import { actorFromUuid } from "../core/guards";
import type { CombatBridge } from "../combat/bridge";
import type { ExchangeState } from "../../rules/index";
import { changedSince, loadCard, type LoadedCard } from "./card-store";
import { tokenLock } from "./slam-move";

/** The lock every action on one card holds. */
export function cardLock(messageId: string): string {
  return `card:${messageId}`;
}

/**
 * Every lock a request on a card declares (router.ts `lockKeys`): the card; the attacker's and
 * every target's actor (Health, conditions, a charger's rebound, a defence count, a cut step on
 * another row finished first); every target's token (a slam move); and the started combats one
 * of them is in (a defence counted, a stun, a foe out of the fight). Read from the card's
 * snapshotted targets, which never change. A card that cannot be read declares only itself
 * (the handler refuses it).
 */
export async function cardLockKeys(messageId: string, bridge: CombatBridge, more: readonly string[] = []): Promise<string[]> {
  const keys = [cardLock(messageId), ...more];
  let state: ExchangeState;
  try {
    state = loadCard(messageId).state;
  } catch {
    return keys;
  }
  for (const uuid of [state.attacker.uuid, ...state.targets.map((t) => t.uuid)]) {
    const actor = await actorFromUuid(uuid);
    if (actor) keys.push(actorLock(actor.uuid), ...bridge.combatLocks(actor));
  }
  for (const t of state.targets) keys.push(tokenLock(t.uuid));
  return keys;
}

/** The card revision a request was made against: required on every card request (card.ts sends it). */
export function revisionField(r: Record<string, unknown>): number {
  return intField(r, "revision", 0, 1_000_000_000);
}

/** What a request was made against: its card revision, its row (null: the whole card), and its query (for the refusal). */
export interface AsOf {
  readonly revision: number;
  readonly key: string | null;
  readonly action: string;
}

/**
 * Refused as "stale", naming the action, when the card moved on since the request's revision
 * where it looks (card-store.ts `changedSince`): an Apply made before an Undo and arriving
 * after it, a defence on a row another click already settled. Nothing is changed.
 */
export function mustBeCurrent(loaded: LoadedCard, asOf: AsOf): void {
  if (!changedSince(loaded, asOf.revision, asOf.key)) return;
  const action = game.i18n.localize(`CASE.Exchange.StaleAction.${asOf.action}`);
  const name = asOf.key === null ? null : loaded.state.targets.find((t) => t.key === asOf.key)?.name;
  throw new QueryRefusal("stale", name ? game.i18n.format("CASE.Exchange.StaleRow", { action, name }) : game.i18n.format("CASE.Exchange.StaleCard", { action }));
}
