/**
 * Karma a row's owner adds to a defence or a check on the card (rules power-rulings.ts
 * `karmaOnRoll`, the world's Karma rulings): refused before a die when the ruling forbids it
 * or the pool is short, then spent once on the GM through the card's journal (its nonce on the
 * ledger entry, as an attack's Karma is spent).
 */
import { karmaOnRoll, type KarmaRollKind } from "../../rules/index";
import { ledgerEntry, spendKarmaOnce } from "../actor-writes";
import { isCharacter } from "../core/guards";
import { karmaRulings } from "../core/settings";
import { QueryRefusal, intField } from "../requests/router";
import { journalStep, type LoadedCard } from "./card-store";
import { effectId, type CardContext } from "./card-step";

/** The Karma a click names (absent: none). */
export function karmaField(r: Record<string, unknown>): number {
  return r.karma === undefined ? 0 : intField(r, "karma", 0, 100);
}

/** A row's Karma step: its ledger id, the GM's nonce, and the pool before the step spent it. */
export interface RowKarmaStep {
  readonly id: string;
  readonly nonce: string;
  readonly pool: number;
}

/**
 * The row's Karma step on `step`: keyed by the card, its revision, the row and the step (not the
 * request), so a retry after a GM dropped, or a second click, finds the first spend; the pool is
 * the one before that spend (the ledger entry under the GM's nonce), not the pool it left.
 */
export async function rowKarmaStep(loaded: LoadedCard, key: string, step: string, actor: Actor.Implementation): Promise<RowKarmaStep> {
  const id = effectId(loaded, key, `${step}Karma`);
  const { nonce } = await journalStep(loaded, id);
  const current = isCharacter(actor) ? actor.system.karma.value : 0;
  return { id, nonce, pool: ledgerEntry(actor, id, "system.karma.value", nonce)?.before ?? current };
}

/** Refuses ("forbidden", the rules' reason) Karma on this roll before anything is rolled; the step to spend it on, or null for none. */
export async function mayAddRowKarma(loaded: LoadedCard, key: string, step: string, actor: Actor.Implementation, kind: KarmaRollKind, karma: number, blindsided = false): Promise<RowKarmaStep | null> {
  if (karma === 0) return null;
  const karmaStep = await rowKarmaStep(loaded, key, step, actor);
  try {
    karmaOnRoll(kind, 1, karma, karmaStep.pool, blindsided, karmaRulings());
  } catch (error) {
    throw QueryRefusal.of("forbidden", error);
  }
  return karmaStep;
}

/** Spends the row's Karma on its step once (a retry, or another click, finds the ledger entry under the GM's nonce). */
export async function spendRowKarma(karmaStep: RowKarmaStep | null, actor: Actor.Implementation, karma: number, context: CardContext, reason: string): Promise<void> {
  if (karmaStep === null || karma === 0) return;
  await spendKarmaOnce(actor, karma, { scope: context.scope, requestId: karmaStep.id }, reason, karmaStep.nonce);
}
