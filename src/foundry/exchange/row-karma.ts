/**
 * Karma a row's owner adds to a defence or a check on the card (rules power-rulings.ts
 * `karmaOnRoll`, the world's Karma rulings): refused before any die when the ruling forbids it
 * or the pool is short, then spent once on the GM through the card's journal (its nonce on the
 * ledger entry, as an attack's Karma is spent).
 */
import { karmaOnRoll, type KarmaRollKind } from "../../rules/index";
import { spendKarmaOnce } from "../actor-writes";
import { isCharacter } from "../core/guards";
import { karmaRulings } from "../core/settings";
import { QueryRefusal, intField } from "../requests/router";
import { journalStep, type LoadedCard } from "./card-store";
import { effectId, type CardContext } from "./card-step";

/** The Karma a click names (absent: none). */
export function karmaField(r: Record<string, unknown>): number {
  return r.karma === undefined ? 0 : intField(r, "karma", 0, 100);
}

/** Refuses ("forbidden", the rules' reason) Karma on this roll before anything is rolled. */
export function mustMayAddKarma(actor: Actor.Implementation, kind: KarmaRollKind, karma: number, blindsided = false): void {
  if (karma === 0) return;
  try {
    karmaOnRoll(kind, 1, karma, isCharacter(actor) ? actor.system.karma.value : 0, blindsided, karmaRulings());
  } catch (error) {
    throw new QueryRefusal("forbidden", error instanceof Error ? error.message : String(error));
  }
}

/** Spends the row's Karma on `step` once (a retry finds the GM's note and the ledger entry). */
export async function spendRowKarma(loaded: LoadedCard, key: string, step: string, actor: Actor.Implementation, karma: number, context: CardContext, reason: string): Promise<void> {
  if (karma === 0) return;
  const { nonce } = await journalStep(loaded, effectId(loaded, key, `${step}Karma`));
  await spendKarmaOnce(actor, karma, context, reason, nonce);
}
