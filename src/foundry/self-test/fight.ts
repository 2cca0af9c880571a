/**
 * What several flow batches share: an armed attacker, an attack made again (No defence) until
 * its card shows what a batch needs, a started CASE combat of scratch tokens, and one whole
 * turn walked by the GM. Everything goes through the router's queries, as the buttons do.
 */
import type { ExchangeState, TurnPhase } from "../../rules/index";
import { advancePhaseQuery, declareActionQuery } from "../combat/queries";
import { CaseCombat } from "../documents/combat";
import { DEFAULT_ATTACK_INPUT } from "../exchange/attack-input";
import { loadCard } from "../exchange/card-store";
import { defendQuery } from "../exchange/gm-actions";
import { attackQuery } from "../exchange/make-attack";
import { EXCHANGE_ATTACKER, EXCHANGE_WEAPON, MAX_TURN_STEPS, scratchName } from "./batches";
import { ask } from "./exchange";
import { recordingMessages, scratchActor, type Recorder } from "./scratch";
import { cardRevision } from "../exchange/card-store";

/** An Unearthly fighter with a club (the exchange batch's), recorded. */
export async function armedAttacker(scratch: Recorder, name: string, weapon: object = EXCHANGE_WEAPON): Promise<{ actor: Actor.Implementation; weapon: Item.Implementation }> {
  const actor = await scratchActor(scratch, name, EXCHANGE_ATTACKER);
  const [item] = await actor.createEmbeddedDocuments("Item", [{ name: scratchName(`${name}'s weapon`), type: "weapon", system: weapon }]);
  if (!item) throw new Error("The self-test could not arm the attacker.");
  return { actor, weapon: item };
}

/** A card's first row, as the GM sees it. */
export interface CardRow {
  readonly messageId: string;
  readonly key: string;
}

/** The card's state, as the GM sees it. */
export function cardState(messageId: string): ExchangeState {
  return loadCard(messageId).state;
}

/**
 * Attacks `targetUuid` with `itemUuid` through the attack query, defends with No defence where
 * the row waits for one, and stops at the first card whose row meets `wanted`; null after
 * `tries` cards (each recorded, so deleted with the batch).
 */
export async function attackUntil(scratch: Recorder, itemUuid: string, targetUuid: string, wanted: (state: ExchangeState, key: string) => boolean, tries: number): Promise<CardRow | null> {
  for (let i = 0; i < tries; i++) {
    const answer = await ask(scratch, attackQuery, { itemUuid, targetUuids: [targetUuid], input: { ...DEFAULT_ATTACK_INPUT } });
    const messageId = answer?.messageId ?? "";
    const row = cardState(messageId).targets[0];
    if (!row) throw new Error("The attack card has no row.");
    if (row.phase === "awaitingDefence") await ask(scratch, defendQuery, { messageId, targetKey: row.key, revision: cardRevision(messageId), defence: "none" });
    if (wanted(cardState(messageId), row.key)) return { messageId, key: row.key };
  }
  return null;
}

/** A combat of these tokens on `scene`, begun (its opening messages recorded), recorded. */
export async function scratchCombat(scratch: Recorder, scene: Scene.Implementation, tokens: readonly TokenDocument.Implementation[]): Promise<CaseCombat> {
  const made = scratch.record(await Combat.implementation.create({ scene: scene.id }), "the combat");
  if (!(made instanceof CaseCombat)) throw new Error("The combat is not CASE's.");
  await made.createEmbeddedDocuments(
    "Combatant",
    tokens.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })),
  );
  await recordingMessages(scratch, async () => {
    await made.startCombat();
  });
  return made;
}

/** The combatant of `token` in `combat`. */
export function combatantOf(combat: CaseCombat, token: TokenDocument.Implementation): Combatant.Implementation {
  const found = combat.combatants.find((c) => c.tokenId === token.id);
  if (!found) throw new Error(`${token.name} is not in the combat.`);
  return found;
}

/** Declares for every combatant without a declaration (the declare query), as the tracker's buttons do. */
export async function declareAll(scratch: Recorder, combat: CaseCombat): Promise<void> {
  for (const c of combat.combatants) {
    if (combat.caseTurn.combatants.get(c.id ?? "")?.declaration) continue;
    await ask(scratch, declareActionQuery, { combatId: combat.id ?? "", combatantId: c.id ?? "", declaration: { text: "Self-test", kind: null, attack: null, defence: null, actions: 1, secret: false } });
  }
}

/** Everyone declares, then the GM advances (forcing) to the next turn's Declare; the phases walked. */
export async function walkTurn(scratch: Recorder, combat: CaseCombat): Promise<TurnPhase[]> {
  await declareAll(scratch, combat);
  const phases: TurnPhase[] = [combat.casePhase];
  for (let step = 0; step < MAX_TURN_STEPS; step++) {
    await ask(scratch, advancePhaseQuery, { combatId: combat.id ?? "", from: combat.casePhase, force: true });
    phases.push(combat.casePhase);
    if (combat.casePhase === "declare") break;
  }
  return phases;
}
