/**
 * The CASE hooks modules can listen to with `Hooks.on(name, fn)`. Fired with `Hooks.callAll`,
 * so every listener runs and none can cancel. The names and their arguments:
 * - `case.renderAttackCard(message, html)`: on every client, after an attack card is filled in
 *   for this user (core's `renderChatMessageHTML` fires before the card exists).
 * - `case.attackStep(message, step, exchange)`: on the active GM, after a card was written;
 *   `step` is the request that wrote it ("attack", "defend", "rollToHit", "pull",
 *   "applyDamage", "undoDamage", "consequence", "escape"), `exchange` the public exchange.
 */
import type { ExchangeState } from "../../rules/index";

export interface CaseHooks {
  "case.renderAttackCard": [message: ChatMessage.Implementation, html: HTMLElement];
  "case.attackStep": [message: ChatMessage.Implementation, step: string, exchange: ExchangeState];
}

/** Fires a CASE hook (the v13 types list core's hooks only, so the call is typed here). */
export function callCaseHook<K extends keyof CaseHooks>(name: K, ...args: CaseHooks[K]): void {
  const callAll = Reflect.get(Hooks, "callAll") as (this: typeof Hooks, hook: string, ...rest: unknown[]) => boolean;
  callAll.call(Hooks, name, ...args);
}
