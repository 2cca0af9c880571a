/**
 * What every GM half of the attack card's buttons shares (gm-actions.ts says how a handler
 * runs): the card query's shape and services, reading a request's card and row, refusals that
 * name the action, the ids of a step's effects and the GM's notes of them, the to-hit roll and
 * the hold it sets, and writing the card.
 */
import {
  DEFENCE_SCORE,
  ExchangeError,
  defencePenalty,
  rollToHit,
  needsStrengthDie,
  targetActions,
  targetOf,
  type CsReason,
  type DefenceChoice,
  type ExchangeState,
  type ExchangeTarget,
} from "../../rules/index";
import { actorLock } from "../actor-writes";
import { actorFromUuid, isCharacter } from "../core/guards";
import { rollShifts } from "../dice/talents";
import { userOwns } from "../requests/gm";
import { QueryRefusal, defineQuery, stringField, type AskingUser, type QueryContext, type QueryDefinition } from "../requests/router";
import { setStatus } from "../status-effects";
import { SYSTEM_ID } from "../core/constants";
import type { CombatBridge } from "../combat/bridge";
import {
  journalEntry,
  journalOf,
  loadCard,
  rollDie,
  saveCard,
  type LoadedCard,
  type RolledDie,
} from "./card-store";
import { revisionField } from "./card-request";


/** A card's message id, as a request names it. */
export const ID = /^[A-Za-z0-9]{16}$/;
const KEY = /^\d{1,3}$/;

/** What the card's handlers need besides Foundry: the CASE turn, through its bridge (no combat: `NO_COMBAT`). */
export interface CardServices {
  readonly combat: CombatBridge;
}

export type CardContext = QueryContext<CardServices>;

/** Declares a card query: its handlers get the {@link CardServices} in their context. */
export function defineCardQuery<P, R>(definition: QueryDefinition<P, R, CardServices>): QueryDefinition<P, R, CardServices> {
  return defineQuery(definition);
}

export interface TargetRef {
  readonly messageId: string;
  readonly targetKey: string;
}

/** A click on one row: the card, the row, and the card revision the click was made against. */
export interface RowRequest extends TargetRef {
  readonly revision: number;
}

export function parseTargetRef(r: Record<string, unknown>): RowRequest {
  return { ...parseRowRef(r), revision: revisionField(r) };
}

/** A row named by the GM's own client (no click, so no revision seen): the card and the row. */
export function parseRowRef(r: Record<string, unknown>): TargetRef {
  return { messageId: stringField(r, "messageId", ID), targetKey: stringField(r, "targetKey", KEY) };
}

/** Runs a pure transition, turning its refusals into request refusals. */
export function transition<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ExchangeError) throw QueryRefusal.of(error.kind === "stale" ? "stale" : "malformed", error);
    if (error instanceof RangeError || error instanceof TypeError) throw QueryRefusal.of("malformed", error);
    throw error;
  }
}

/** Whether the actor with this UUID is an NPC (its row is sealed on the card). */
export function isNpcActor(actorUuid: string): boolean {
  const doc = fromUuidSync(actorUuid) as { type?: string } | null;
  return doc?.type === "npc";
}

/**
 * The ledger id of a card's effect: the card, its revision, the row and the step. A retry of
 * the same transition (the same request after a GM dropped, or another click on the card as
 * it still stands) has the same id, so its effects are never written twice.
 */
export function effectId(loaded: LoadedCard, key: string, step: string): string {
  return `${loaded.message.id ?? ""}:${String(loaded.revision)}:${key}:${step}`;
}

/** True when `id` is an {@link effectId} of this card's row and step, at whichever revision. */
function isEffectIdOf(id: string, messageId: string, key: string, step: string): boolean {
  return id.startsWith(`${messageId}:`) && id.endsWith(`:${key}:${step}`);
}

/** The newest note of a row's step on this card, at whichever revision (the apply or the check an undo takes back). */
export function latestNote(loaded: LoadedCard, key: string, step: string): { id: string; nonce: string; data: Record<string, unknown> } | undefined {
  const id = loaded.message.id ?? "";
  return journalOf(loaded).filter((e) => isEffectIdOf(e.id, id, key, step)).at(-1);
}

/** The ledger id (and journal note) of a row's damage put on selected tokens instead (apply-to-selected.ts): one per row. */
export function redirectId(messageId: string, targetKey: string): string {
  return `${messageId}:${targetKey}:selected`;
}

/** A row's damage begun on selected tokens and never recorded on the card (a GM cut), with the tokens it was begun on. */
export interface RedirectCut extends TargetRef {
  readonly tokenUuids: readonly string[];
  /** The nonce of the GM's note: the Health writes it began carry it. */
  readonly nonce: string;
}

/**
 * The rows of a card whose damage a GM began to put on selected tokens and the card never
 * recorded: the row still offers Apply, and the GM's journal on the card's record (never a
 * document a player may write) notes the redirect with its tokens.
 */
export function redirectsCut(loaded: LoadedCard): RedirectCut[] {
  const id = loaded.message.id ?? "";
  const found: RedirectCut[] = [];
  for (const t of loaded.state.targets) {
    if (!targetActions(loaded.state, t.key).apply) continue;
    const note = journalEntry(loaded, redirectId(id, t.key));
    if (!note) continue;
    const listed: unknown = note.data.tokenUuids;
    const tokenUuids = Array.isArray(listed) ? listed.filter((u): u is string => typeof u === "string") : [];
    found.push({ messageId: id, targetKey: t.key, tokenUuids, nonce: note.nonce });
  }
  return found;
}

export function save(step: string, loaded: LoadedCard, next: ExchangeState, context: CardContext, dice: readonly RolledDie[]): Promise<void> {
  return saveCard(loaded, next, context.requestId, dice, isNpcActor, step);
}

/** The actor of a target row (the token's actor for a token UUID). */
export async function targetActor(target: ExchangeTarget): Promise<Actor.Implementation> {
  const actor = await actorFromUuid(target.uuid);
  if (!actor) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.TargetGone"));
  return actor;
}

export function attackerActor(state: ExchangeState): Promise<Actor.Implementation | null> {
  return actorFromUuid(state.attacker.uuid);
}

/** The actions on a target row a player may ask for only as one of its owners; each refusal names its action (`CASE.Exchange.NotYours.<action>`). */
export const OWNER_ACTIONS = ["defend", "applyDamage", "undoDamage", "consequence", "escape", "applyToSelected", "resist"] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

/** The refusal of `action` on `name` to a user who does not own it. */
export function notYours(action: OwnerAction, name: string): QueryRefusal {
  return new QueryRefusal("forbidden", game.i18n.format(`CASE.Exchange.NotYours.${action}`, { name }));
}

export async function mustOwnTarget(user: AskingUser, ref: TargetRef, action: OwnerAction): Promise<void> {
  if (user.isGM) return;
  const { state } = loadCard(ref.messageId);
  const target = transition(() => targetOf(state, ref.targetKey));
  const actor = await targetActor(target);
  if (!userOwns(user, actor)) throw notYours(action, target.name);
}

export async function mustOwnAttacker(user: AskingUser, ref: { messageId: string }): Promise<void> {
  if (user.isGM) return;
  const { state } = loadCard(ref.messageId);
  const actor = await attackerActor(state);
  if (!actor || !userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.NotYourAttack"));
}

/** The GM may apply a row's damage; a player only under the owners setting, on a target they own. */
export async function mayApplyDamage(user: AskingUser, ref: TargetRef, action: OwnerAction = "applyDamage"): Promise<void> {
  if (user.isGM) return;
  if (game.settings.get(SYSTEM_ID, "damageAppliedBy") !== "owners") throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.GMAppliesDamage"));
  await mustOwnTarget(user, ref, action);
}

/** Rolls the to-hit (and intensity damage die) for a target whose defence is settled. */
export async function rollPendingToHit(state: ExchangeState, key: string, dice: RolledDie[]): Promise<ExchangeState> {
  if (!targetActions(state, key).rollToHit) return state;
  const die = await rollDie("1d100");
  dice.push(die);
  let damageDie: number | undefined;
  if (state.damage.method === "intensity") {
    const d = await rollDie("1d100");
    dice.push(d);
    damageDie = d.total;
  }
  // A grab or grapple whose Take or Full Hold is a Strength ACTION (errata §5): its die too, as the intensity damage die is.
  let strengthDie: number | undefined;
  if (needsStrengthDie(state)) {
    const d = await rollDie("1d100");
    dice.push(d);
    strengthDie = d.total;
  }
  return transition(() => rollToHit(state, key, { die: die.total, damageDie, strengthDie }, CONFIG.CASE.universalTable));
}

/** Effects on the target of a resolved to-hit: holds become conditions. */
export async function afterToHit(state: ExchangeState, key: string, messageId: string, context: CardContext): Promise<void> {
  const target = targetOf(state, key);
  const result = target.toHit?.result;
  if (result !== "partialHold" && result !== "fullHold") return;
  const actor = await targetActor(target);
  await context.scope.within([actorLock(actor.uuid)], () => setStatus(actor, result, { holderUuid: state.attacker.uuid, messageId }));
}

/** The shifts on a defender's roll: extra-defence penalty, talents, conditions (the card's defence buttons show the same). */
export async function defenceShifts(bridge: CombatBridge, actor: Actor.Implementation, defence: DefenceChoice): Promise<CsReason[]> {
  if (defence === "none" || !isCharacter(actor)) return [];
  const used = await bridge.defencesUsed(actor);
  const penalty = defencePenalty(used, actor.system.stats.freeDefences);
  return [...(penalty !== 0 ? [{ cs: penalty, label: "CASE.Exchange.ExtraDefence", localize: true }] : []), ...rollShifts(actor, { score: DEFENCE_SCORE[defence], defence })];
}

/** Where a defender keeps its bonus against a foe (foe-bonus.ts). */
export { foeBonusKey } from "./foe-bonus";

export function healthOf(actor: Actor.Implementation): { value: number; max: number } {
  if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
  return { value: actor.system.health.value, max: actor.system.health.max };
}

export function mustBeGM(user: AskingUser): void {
  if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.GMOnly"));
}
