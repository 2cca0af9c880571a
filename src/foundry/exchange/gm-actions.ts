/**
 * The GM halves of the attack card's buttons. Every click that changes a card comes here as a
 * request and runs on the active GM (one writer), holding the card's lock (`card:<id>`, the
 * same for every button) and, for what it writes on actors, their locks (`actor:<uuid>`).
 * Each handler:
 *   1. loads the card (refused unless a GM wrote it) and its secrets;
 *   2. returns at once when the card already applied this request (a replay), and first
 *      finishes any Health step a GM cut on this card (effect written, card not: see cutSteps);
 *   3. asks the rules what may happen next, and refuses anything else;
 *   4. rolls every die it needs as a real Roll on this client;
 *   5. applies one pure transition from src/rules/exchange/;
 *   6. writes the effects on actors (each recorded with the request id: a retry redoes nothing);
 *   7. writes the card last.
 * A transition that already happened is refused as "stale" and changes nothing.
 */
import {
  DEFENCE_CODES,
  DEFENCE_SCORE,
  COLORS,
  ExchangeError,
  applyDamage,
  applyDeclaredDodge,
  chooseDefence,
  countsAsNewDefence,
  markPickedDefence,
  defencePenalty,
  declineDefence,
  effectiveEndurance,
  escapeHold,
  pullBlow,
  resolveConsequence,
  rollToHit,
  needsStrengthDie,
  targetActions,
  targetOf,
  undoDamage,
  undoPlan,
  type Color,
  type CsReason,
  type DamageApplication,
  type DefenceChoice,
  type DefenceCode,
  type ExchangeState,
  type ExchangeTarget,
  type MinorFoeRule,
} from "../../rules/index";
import { actorLock, ledgerEntry, writeOnce } from "../actor-writes";
import { actorFromUuid, isCharacter } from "../core/guards";
import { rollShifts } from "../dice/talents";
import { userOwns } from "../requests/gm";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryContext, type QueryDefinition } from "../requests/router";
import { clearStatus, setStatus, syncUnconscious, unconsciousChange } from "../status-effects";
import { SYSTEM_ID } from "../core/constants";
import type { CombatBridge } from "../combat/bridge";
import { journalEntry, journalOf, journalStep, loadCard, rollDie, saveCard, type LoadedCard, type RolledDie } from "./card-store";
import { grantFoeBonus } from "./foe-bonus";
import { moveSlammedToken } from "./slam-move";
import { helplessNow } from "../combat/turn-feed";
import { cardLockKeys, mustBeCurrent, revisionField, type AsOf } from "./card-request";

export { cardLock, cardLockKeys, mustBeCurrent, revisionField, type AsOf } from "./card-request";
import { checkBefore, consequenceEffects, countDefence, giveBackDefence, readCheckBefore, undoChecks, undoHold, undoTurnStun, type Check, type CheckNotes } from "./check-effects";

const ID = /^[A-Za-z0-9]{16}$/;
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
    if (error instanceof ExchangeError) throw new QueryRefusal(error.kind === "stale" ? "stale" : "malformed", error.message);
    if (error instanceof RangeError || error instanceof TypeError) throw new QueryRefusal("malformed", error.message);
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
function effectId(loaded: LoadedCard, key: string, step: string): string {
  return `${loaded.message.id ?? ""}:${String(loaded.revision)}:${key}:${step}`;
}

/** True when `id` is an {@link effectId} of this card's row and step, at any revision. */
function isEffectIdOf(id: string, messageId: string, key: string, step: string): boolean {
  return id.startsWith(`${messageId}:`) && id.endsWith(`:${key}:${step}`);
}

/** A step on one row of a card that writes Health before the card (so a GM's drop can cut it). */
type HealthStep = "apply" | "undo";

interface RowStep {
  readonly key: string;
  readonly step: HealthStep;
}

/**
 * The Health steps of a card that a GM began and the card never recorded: the GM's journal on
 * the card's record notes the step at this very revision (written before its first effect; a
 * note on an actor, which its owner may write, counts for nothing). The card's revision moves
 * with every step, so such a step must be finished before anything else is done on the card:
 * once the revision moves on, its note no longer matches, and the next click on the row would
 * write the damage a second time. Finishing it writes only what is not yet written.
 */
function cutSteps(loaded: LoadedCard): RowStep[] {
  const cut: RowStep[] = [];
  for (const t of loaded.state.targets) {
    const actions = targetActions(loaded.state, t.key);
    const step: HealthStep | null = actions.apply ? "apply" : actions.undo ? "undo" : null;
    if (step && journalEntry(loaded, effectId(loaded, t.key, step))) cut.push({ key: t.key, step });
  }
  return cut;
}

/** The newest note of a row's step on this card, at any revision (the apply or the check an undo takes back). */
function latestNote(loaded: LoadedCard, key: string, step: string): { id: string; nonce: string; data: Record<string, unknown> } | undefined {
  const id = loaded.message.id ?? "";
  return journalOf(loaded).filter((e) => isEffectIdOf(e.id, id, key, step)).at(-1);
}

/**
 * Loads a card for a request; null when the card already applied this very request. A step
 * a GM cut on this card is finished first (see {@link cutSteps}), unless it is the step this
 * request is about to take itself (`own`), which then finishes it as a retry.
 */
export async function cardFor(messageId: string, context: CardContext, own?: RowStep, redirecting?: string, asOf?: AsOf): Promise<LoadedCard | null> {
  let loaded = loadCard(messageId);
  if (loaded.requests.includes(context.requestId)) return null;
  // Against the card as the click saw it, before a cut step is finished (the GM's own work, not the click's).
  if (asOf) mustBeCurrent(loaded, asOf);
  for (let finished = 0; ; finished++) {
    const cut = cutSteps(loaded).find((c) => c.key !== own?.key || c.step !== own.step);
    if (!cut) {
      // A row whose damage a GM began to put on selected tokens and was cut: only that step may
      // go on (the GM taking over finishes it: apply-to-selected.ts), never a second Apply.
      const pending = redirectsCut(loaded).find((r) => r.targetKey !== redirecting);
      if (pending) throw new QueryRefusal("stale", game.i18n.format("CASE.Board.RedirectPending", { name: transition(() => targetOf(loaded.state, pending.targetKey)).name }));
      return loaded;
    }
    if (finished >= loaded.state.targets.length * 2) throw new QueryRefusal("failed", `The card ${messageId} has a step that cannot be finished.`);
    const finishing = { ...context, requestId: `${context.requestId}.finish${String(finished)}` };
    await (cut.step === "apply" ? applyRow : undoRow)(loaded, cut.key, finishing);
    loaded = loadCard(messageId);
  }
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

/** Every cut Health step of every attack card (for the GM taking over to finish). */
function unfinishedSteps(step: HealthStep): RowRequest[] {
  const found: RowRequest[] = [];
  for (const message of game.messages) {
    if (message.type !== "attack" || !message.id || message.author?.isGM !== true) continue;
    let loaded: LoadedCard;
    try {
      loaded = loadCard(message.id);
    } catch {
      continue; // a card that cannot be read has nothing to finish
    }
    for (const cut of cutSteps(loaded)) if (cut.step === step) found.push({ messageId: message.id, targetKey: cut.key, revision: loaded.revision });
  }
  return found;
}

export function save(step: string, loaded: LoadedCard, next: ExchangeState, context: CardContext, dice: readonly RolledDie[]): Promise<void> {
  return saveCard(loaded, next, context.requestId, dice, isNpcActor, step);
}

/** The actor of a target row (the token's actor for a token UUID). */
async function targetActor(target: ExchangeTarget): Promise<Actor.Implementation> {
  const actor = await actorFromUuid(target.uuid);
  if (!actor) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.TargetGone"));
  return actor;
}

function attackerActor(state: ExchangeState): Promise<Actor.Implementation | null> {
  return actorFromUuid(state.attacker.uuid);
}

/** The actions on a target row a player may ask for only as one of its owners; each refusal names its action (`CASE.Exchange.NotYours.<action>`). */
export const OWNER_ACTIONS = ["defend", "applyDamage", "undoDamage", "consequence", "escape", "applyToSelected"] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

/** The refusal of `action` on `name` to a user who does not own it. */
export function notYours(action: OwnerAction, name: string): QueryRefusal {
  return new QueryRefusal("forbidden", game.i18n.format(`CASE.Exchange.NotYours.${action}`, { name }));
}

async function mustOwnTarget(user: AskingUser, ref: TargetRef, action: OwnerAction): Promise<void> {
  if (user.isGM) return;
  const { state } = loadCard(ref.messageId);
  const target = transition(() => targetOf(state, ref.targetKey));
  const actor = await targetActor(target);
  if (!userOwns(user, actor)) throw notYours(action, target.name);
}

async function mustOwnAttacker(user: AskingUser, ref: { messageId: string }): Promise<void> {
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

function healthOf(actor: Actor.Implementation): { value: number; max: number } {
  if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
  return { value: actor.system.health.value, max: actor.system.health.max };
}

// ── Defend ───────────────────────────────────────────────────────────────────────────────

export const defendQuery = defineCardQuery({
  name: "defend",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), defence: choiceOf<DefenceChoice>(r, "defence", [...DEFENCE_CODES, "none"]) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "defend"),
  handle: (_user, p, context) => defendRow(p, context),
});

/**
 * A defence on a row, on the active GM, under the card's lock: the click's handler, and the
 * NPC-defence pick's (npc-defence.ts, `picked`: the row is marked so the GM may change it). A
 * defence that replaces one the GM changed is not counted again (rules `countsAsNewDefence`).
 */
export async function defendRow(p: TargetRef & { readonly defence: DefenceChoice; readonly revision?: number }, context: CardContext, picked = false): Promise<null> {
  // A click names the revision it saw; the GM's own pick (npc-defence.ts) reads the card as it stands.
  const asOf = p.revision === undefined ? undefined : { revision: p.revision, key: p.targetKey, action: "defend" };
  const loaded = await cardFor(p.messageId, context, undefined, undefined, asOf);
  if (!loaded) return null;
  const { state } = loaded;
  const target = transition(() => targetOf(state, p.targetKey));
  const actor = await targetActor(target);
  // A helpless target (rules turn/able.ts: Stunned, Unconscious, dying unaided) has No defence only: the GM reads it from the actor and the combat.
  const helpless = helplessNow(actor, await context.services.combat.standing(actor));
  const actions = targetActions(state, p.targetKey, null, { mayDefend: helpless === null });
  if (!actions.awaitingDefence) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.AlreadyDefended", { name: target.name }));
  const offered = actions.defend;
  if (p.defence !== "none" && helpless !== null) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Helpless.Defence", { name: target.name, reason: game.i18n.localize(`CASE.Helpless.${helpless}`) }));
  if (p.defence !== "none" && !offered.includes(p.defence)) throw new QueryRefusal("malformed", `${target.name} cannot use ${p.defence} against this attack.`);
  // Under the declared-dodge rule, a dodger's Dodge (or "no defence") against a dodgeable
  // attack uses the dodge rolled after initiative: no new roll, no defence spent.
  const declared = helpless === null && game.settings.get(SYSTEM_ID, "declaredDodge") ? await context.services.combat.declaredDodgeShift(actor) : 0;
  const useDeclared = declared < 0 && (p.defence === "dodge" || p.defence === "none") && offered.includes("dodge");
  const dice: RolledDie[] = [];
  let next: ExchangeState;
  if (useDeclared) next = transition(() => applyDeclaredDodge(state, p.targetKey, declared));
  else if (p.defence === "none") next = transition(() => declineDefence(state, p.targetKey));
  else {
    // Under the defender's and its combat's locks (declared by cardLockKeys): a defence the turn
    // can no longer count (the phase moved on, no action left) is refused before any die is rolled.
    const refusal = await context.services.combat.defenceRefusal(actor, p.defence);
    if (refusal) throw new QueryRefusal(refusal === "wrongPhase" ? "stale" : "forbidden", game.i18n.format(refusal === "wrongPhase" ? "CASE.Exchange.DefenceTooLate" : "CASE.Exchange.DefenceNoAction", { name: target.name, defence: game.i18n.localize(`CASE.Defence.${p.defence}`) }));
    const cs = await defenceShifts(context.services.combat, actor, p.defence);
    const die = await rollDie("1d100", isNpcActor(target.actorUuid) && game.settings.get(SYSTEM_ID, "hideNpcDefences"));
    dice.push(die);
    next = transition(() => chooseDefence(state, p.targetKey, { defence: p.defence as DefenceCode, die: die.total, cs }, CONFIG.CASE.universalTable));
  }
  if (picked) next = transition(() => markPickedDefence(next, p.targetKey));
  next = await rollPendingToHit(next, p.targetKey, dice);
  // Effects first, the card last.
  if (!useDeclared && p.defence !== "none" && countsAsNewDefence(target)) await countDefence(context, loaded, actor, p.defence, effectId(loaded, p.targetKey, "defence"));
  await afterToHit(next, p.targetKey, p.messageId, context);
  // A yellow or red Evasion/Feint: +1/+2 CS on the defender's next action against this foe.
  const bonus = targetOf(next, p.targetKey).defence?.outcome.bonusCs ?? 0;
  // Noted on the card's GM record first; the defender's flag only points at the note (foe-bonus.ts).
  if (bonus > 0) await grantFoeBonus(loaded, p.targetKey, actor, next.attacker.uuid, bonus);
  await save("defend", loaded, next, context, dice);
  return null;
}

// ── Roll to hit (blindsided targets, or a card whose roll was cut off) ───────────────────────

export const rollToHitQuery = defineCardQuery({
  name: "rollToHit",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { messageId: stringField(r, "messageId", ID), revision: revisionField(r) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnAttacker(user, p),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: null, action: "rollToHit" });
    if (!loaded) return null;
    const dice: RolledDie[] = [];
    let next = loaded.state;
    for (const t of loaded.state.targets) next = await rollPendingToHit(next, t.key, dice);
    if (next === loaded.state) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.NothingToRoll"));
    for (const t of loaded.state.targets) if (targetActions(loaded.state, t.key).rollToHit) await afterToHit(next, t.key, p.messageId, context);
    await save("rollToHit", loaded, next, context, dice);
    return null;
  },
});

// ── Pull ─────────────────────────────────────────────────────────────────────────────────

export const pullQuery = defineCardQuery({
  name: "pull",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    const color = r.color === undefined || r.color === null ? undefined : choiceOf<Color>(r, "color", COLORS);
    const damage = r.damage === undefined || r.damage === null ? undefined : intField(r, "damage", 0, 1_000_000);
    if (color === undefined && damage === undefined) throw new QueryRefusal("malformed", "A pull needs a colour or a damage.");
    return { ...parseTargetRef(r), color, damage };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnAttacker(user, p),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: p.targetKey, action: "pull" });
    if (!loaded) return null;
    if (!targetActions(loaded.state, p.targetKey).pull) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.CannotPull"));
    const next = transition(() => pullBlow(loaded.state, p.targetKey, { color: p.color, damage: p.damage }, CONFIG.CASE.universalTable));
    await save("pull", loaded, next, context, []);
    return null;
  },
});

// ── Apply and undo damage ──────────────────────────────────────────────────────────────────

/** The actors a damage row writes: the target, and on a charge with a rebound, the charger. */
async function damageActors(state: ExchangeState, target: ExchangeTarget, rebound: boolean): Promise<{ actor: Actor.Implementation; charger: Actor.Implementation | null }> {
  const actor = await targetActor(target);
  const chargerActor = rebound ? await attackerActor(state) : null;
  return { actor, charger: chargerActor && isCharacter(chargerActor) ? chargerActor : null };
}

/**
 * Computes and writes a Health change under the actors' locks, reading Health inside them. The
 * step is noted in the GM's journal (`note`: its data) once the change is computed and before
 * anything is written; the ledger entries carry the note's nonce. A retry finds the note and the
 * entries with its nonce, reuses their "before" values, so it computes the same change and
 * writes nothing again (an entry without the nonce, written by the actor's owner, is ignored).
 */
async function writeHealthChange(
  context: CardContext,
  loaded: LoadedCard,
  id: string,
  actors: { actor: Actor.Implementation; charger: Actor.Implementation | null },
  compute: (health: { value: number; max: number }, charger: { value: number; max: number } | undefined) => DamageApplication,
  /** What the step's note keeps, read under the locks before anything is written. */
  note: () => Record<string, unknown>,
  /** More effects of the change on the target, written after its Health and still under the locks. */
  after?: (result: DamageApplication, nonce: string) => Promise<void>,
): Promise<DamageApplication> {
  const keys = [actors.actor, actors.charger].filter((a): a is Actor.Implementation => a !== null).map((a) => actorLock(a.uuid));
  return context.scope.within(keys, async () => {
    const field = "system.health.value";
    const begun = journalEntry(loaded, id)?.nonce;
    const now = (a: Actor.Implementation) => ({ value: (begun !== undefined ? ledgerEntry(a, id, field, begun)?.before : undefined) ?? healthOf(a).value, max: healthOf(a).max });
    const result = transition(() => compute(now(actors.actor), actors.charger ? now(actors.charger) : undefined));
    const { nonce } = await journalStep(loaded, id, note());
    await writeOnce(context.scope, actors.actor, id, field, now(actors.actor).value, result.health, nonce);
    if (actors.charger && result.chargerHealth !== null) await writeOnce(context.scope, actors.charger, id, field, now(actors.charger).value, result.chargerHealth, nonce);
    await after?.(result, nonce);
    return result;
  });
}

/** The minor-foe rule that applies to a target: the world's, for an NPC marked "minor"; null for anyone else. */
export function minorFoeRuleFor(actor: Actor.Implementation): MinorFoeRule | null {
  if (actor.type !== "npc" || !isCharacter(actor)) return null;
  const system = actor.system as { minor?: unknown };
  return system.minor === true ? game.settings.get(SYSTEM_ID, "minorFoeRule") : null;
}

const OUT_OF_FIGHT = "flags.case.outOfFight";

/**
 * Takes a minor foe out of the fight (or brings it back, on an undo): a ledger entry for this
 * step (`flags.case.outOfFight`, so a retry writes nothing twice), Foundry's defeated condition
 * on the actor, and its combatant marked defeated. Call it holding the actor's lock. The
 * condition and the mark are set to a state, not toggled, so a retry that finds its ledger
 * entry only makes sure they are there.
 */
async function setOutOfFight(context: CardContext, actor: Actor.Implementation, id: string, out: boolean, nonce: string): Promise<void> {
  const flag = (actor.flags as Record<string, { outOfFight?: unknown } | undefined>)[SYSTEM_ID]?.outOfFight;
  const defeated = CONFIG.specialStatusEffects.DEFEATED;
  const has = actor.effects.some((e) => e.statuses.has(defeated));
  // "Before" is whether the foe was already out, by an earlier hit or by the GM's own mark, so
  // that undoing this hit does not bring back a foe something else took out (outBeforeApply).
  await writeOnce(context.scope, actor, id, OUT_OF_FIGHT, flag === 1 || has ? 1 : 0, out ? 1 : 0, nonce);
  if (has !== out) await actor.toggleStatusEffect(defeated, { active: out, overlay: true });
  await context.services.combat.markDefeated(context.scope, actor, out);
}

/** Whether the minor foe was out of the fight before this card's row was applied (the GM's note of the apply). */
function outBeforeApply(loaded: LoadedCard, key: string): boolean {
  return latestNote(loaded, key, "apply")?.data.outBefore === true;
}

/** Whether the actor is out of the fight now (an earlier hit, or the GM's own mark). */
function isOut(actor: Actor.Implementation): boolean {
  const flag = (actor.flags as Record<string, { outOfFight?: unknown } | undefined>)[SYSTEM_ID]?.outOfFight;
  return flag === 1 || actor.effects.some((e) => e.statuses.has(CONFIG.specialStatusEffects.DEFEATED));
}

/** The Unconscious condition follows the target's new Health (status-effects.ts), under its lock. */
async function followUnconscious(actor: Actor.Implementation, health: number, context: CardContext): Promise<void> {
  if (unconsciousChange(actor, health) === null) return;
  await context.scope.within([actorLock(actor.uuid)], () => syncUnconscious(actor, health));
}

async function autoRollNpcConsequences(messageId: string, key: string, actor: Actor.Implementation, context: CardContext): Promise<void> {
  if (actor.type !== "npc" || !game.settings.get(SYSTEM_ID, "autoNpcConsequences")) return;
  const loaded = loadCard(messageId);
  for (const check of targetActions(loaded.state, key).checks) await resolveConsequenceNow(messageId, key, check, { ...context, requestId: `${context.requestId}.${check}` });
}

/** Applies a row's damage: Health (with its ledger entry) first, the card last; then the NPC's automatic checks. */
async function applyRow(loaded: LoadedCard, key: string, context: CardContext): Promise<void> {
  const { state } = loaded;
  const target = transition(() => targetOf(state, key));
  if (!targetActions(state, key).apply) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToApply", { name: target.name }));
  const actors = await damageActors(state, target, (target.damage?.rebound ?? 0) > 0);
  const id = effectId(loaded, key, "apply");
  const minorFoe = minorFoeRuleFor(actors.actor);
  // The note keeps whether the foe was already out, so that undoing this hit does not bring back a foe something else took out.
  const applied = await writeHealthChange(context, loaded, id, actors, (health, charger) => applyDamage(state, key, health, charger, minorFoe), () => ({ outBefore: isOut(actors.actor) }), async (result, nonce) => {
    if (targetOf(result.state, key).applied?.out === true) await setOutOfFight(context, actors.actor, id, true, nonce);
  });
  await followUnconscious(actors.actor, applied.health, context);
  await save("applyDamage", loaded, applied.state, context, []);
  await autoRollNpcConsequences(loaded.message.id ?? "", key, actors.actor, context);
}

/**
 * Undoes a row's whole hit (rules `undoPlan`, `UNDO_VOIDS_THE_ROW`): Health and the charger's
 * rebound (with their ledger entries), a minor foe's "out", what its rolled checks did
 * (check-effects.ts `undoChecks`, from the GM's notes of them), the hold it set and the
 * defence it counted in the turn, then the card last, its row undone.
 */
async function undoRow(loaded: LoadedCard, key: string, context: CardContext): Promise<void> {
  const { state } = loaded;
  const target = transition(() => targetOf(state, key));
  if (!targetActions(state, key).undo) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToUndo", { name: target.name }));
  const plan = transition(() => undoPlan(state, key));
  const actors = await damageActors(state, target, Boolean(target.applied?.rebound));
  const id = effectId(loaded, key, "undo");
  const notes: CheckNotes = {};
  for (const check of ["slam", "stun", "kill"] as const) {
    const note = latestNote(loaded, key, check);
    if (note) notes[check] = note;
    // A check rolled before its note was kept (an older card): Undo would not know what to put back.
    else if ((check === "slam" && plan.slam) || (check === "stun" && plan.stun) || (check === "kill" && plan.kill)) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.UndoUnknownCheck", { name: target.name }));
  }
  const undone = await writeHealthChange(context, loaded, id, actors, (health, charger) => undoDamage(state, key, health, charger), () => ({}), async (_result, nonce) => {
    if (plan.out && !outBeforeApply(loaded, key)) await setOutOfFight(context, actors.actor, id, false, nonce);
    await undoChecks(context, actors.actor, target.uuid, plan, notes, id, nonce);
    await undoHold(actors.actor, plan, loaded.message.id ?? "");
  });
  await undoTurnStun(context, actors.actor, plan, notes);
  await giveBackDefence(context, actors.actor, plan, latestNote(loaded, key, "defence"));
  await followUnconscious(actors.actor, undone.health, context);
  await save("undoDamage", loaded, undone.state, context, []);
}

export const applyDamageQuery = defineCardQuery({
  name: "applyDamage",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mayApplyDamage(user, p, "applyDamage"),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, { key: p.targetKey, step: "apply" }, undefined, { revision: p.revision, key: p.targetKey, action: "applyDamage" });
    if (loaded) await applyRow(loaded, p.targetKey, context);
    return null;
  },
  unfinished: () => unfinishedSteps("apply"),
});

/** Applies one row's damage (the row's own cut step finished first, as a click would), then its NPC's checks. */
async function applyDamageNow(messageId: string, key: string, context: CardContext): Promise<void> {
  const loaded = await cardFor(messageId, context, { key, step: "apply" });
  if (loaded) await applyRow(loaded, key, context);
}

function mustBeGM(user: AskingUser): void {
  if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.GMOnly"));
}

/**
 * Runs `step` on every row of a card where `due` says it may happen now, one row after another
 * under the card's lock. Each row is its own step with its own request id (the request's id,
 * the row and the step), so a retried request finds the rows it already did in the card's
 * memory and does only what is left. Refused when no row has anything to do.
 */
async function forEveryRow(messageId: string, context: CardContext, name: string, revision: number, due: (state: ExchangeState, key: string) => readonly string[], step: (key: string, what: string, rowContext: CardContext) => Promise<void>): Promise<number> {
  const loaded = loadCard(messageId);
  const { state, requests } = loaded;
  // A retry of a request that began its rows finds the card moved on by its own rows: only a fresh request is checked.
  if (!requests.some((r) => r.startsWith(`${context.requestId}.`))) mustBeCurrent(loaded, { revision, key: null, action: name });
  const work = state.targets.flatMap((t) => due(state, t.key).map((what) => ({ key: t.key, what, id: `${context.requestId}.${t.key}.${what}` })));
  if (work.length === 0) {
    // A retry of a request that did every row: done already, nothing to refuse.
    if (requests.some((r) => r.startsWith(`${context.requestId}.`))) return 0;
    throw new QueryRefusal("stale", game.i18n.localize(`CASE.Exchange.Nothing.${name}`));
  }
  for (const w of work) {
    // Each row reads the card as the previous one left it.
    const now = loadCard(messageId);
    if (!due(now.state, w.key).includes(w.what)) continue;
    await step(w.key, w.what, { ...context, requestId: w.id });
  }
  return work.length;
}

/** The GM's *Apply all*: the damage of every row that may take it now, as *Apply damage* row by row. */
export const applyAllQuery = defineCardQuery({
  name: "applyAll",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { messageId: stringField(r, "messageId", ID), revision: revisionField(r) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user) => { mustBeGM(user); },
  async handle(_user, p, context) {
    await forEveryRow(p.messageId, context, "applyAll", p.revision, (state, key) => (targetActions(state, key).apply ? ["apply"] : []), (key, _what, rowContext) => applyDamageNow(p.messageId, key, rowContext));
    return null;
  },
});

/** The GM's *Roll all due checks*: every Slam?/Stun?/Kill? due now on the card, as each row's own Roll button. */
export const rollAllChecksQuery = defineCardQuery({
  name: "rollAllChecks",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { messageId: stringField(r, "messageId", ID), revision: revisionField(r) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user) => { mustBeGM(user); },
  async handle(_user, p, context) {
    await forEveryRow(p.messageId, context, "rollAllChecks", p.revision, (state, key) => targetActions(state, key).checks, (key, what, rowContext) => resolveConsequenceNow(p.messageId, key, what as Check, rowContext));
    return null;
  },
});

export const undoDamageQuery = defineCardQuery({
  name: "undoDamage",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mayApplyDamage(user, p, "undoDamage"),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, { key: p.targetKey, step: "undo" }, undefined, { revision: p.revision, key: p.targetKey, action: "undoDamage" });
    if (loaded) await undoRow(loaded, p.targetKey, context);
    return null;
  },
  unfinished: () => unfinishedSteps("undo"),
});

// ── Slam? Stun? Kill? ───────────────────────────────────────────────────────────────────────

/** Rolls a due check on the GM (the End (res) d100, and a d10 when the result needs one), then its effects, then the card. */
async function resolveConsequenceNow(messageId: string, key: string, check: Check, context: CardContext, asOf?: AsOf): Promise<void> {
  const loaded = await cardFor(messageId, context, undefined, undefined, asOf);
  if (!loaded) return;
  const { state } = loaded;
  const target = transition(() => targetOf(state, key));
  if (!targetActions(state, key).checks.includes(check)) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.CheckNotDue", { name: target.name }));
  const actor = await targetActor(target);
  const hasActed = await context.services.combat.hasActed(actor);
  const dice: RolledDie[] = [await rollDie("1d100")];
  const tenSided = check === "kill" ? undefined : await rollDie("1d10");
  if (tenSided) dice.push(tenSided);
  await context.scope.within([actorLock(actor.uuid)], async () => {
    // How the target stands is read inside the lock and noted before any effect; a retry
    // finds the note and reuses the lost ranks it recorded (the Undo reads it too).
    const id = effectId(loaded, key, check);
    const note = await journalStep(loaded, id, { ...(await checkBefore(context.services.combat, actor, target.uuid)) });
    const lostBefore = readCheckBefore(note.data).lost;
    const endurance = isCharacter(actor) ? effectiveEndurance(actor.system.endurance.beforeLoss, lostBefore).value : target.scores["endurance.res"];
    const next = transition(() => resolveConsequence(state, key, { check, die: dice[0]?.total ?? 0, d10: tenSided?.total, hasActed, endurance }, CONFIG.CASE.universalTable));
    await consequenceEffects(context, next, key, check, actor, lostBefore, id, note.nonce);
    const moved = check === "slam" ? await moveSlammedToken(next, key, id, context, note.nonce) : next;
    await save("consequence", loaded, moved, context, dice);
  });
}

export const consequenceQuery = defineCardQuery({
  name: "consequence",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), check: choiceOf(r, "check", ["slam", "stun", "kill"] as const) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "consequence"),
  async handle(_user, p, context) {
    await resolveConsequenceNow(p.messageId, p.targetKey, p.check, context, { revision: p.revision, key: p.targetKey, action: "consequence" });
    return null;
  },
});

// ── Escape ───────────────────────────────────────────────────────────────────────────────

export const escapeQuery = defineCardQuery({
  name: "escape",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "escape"),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: p.targetKey, action: "escape" });
    if (!loaded) return null;
    const target = transition(() => targetOf(loaded.state, p.targetKey));
    const actor = await targetActor(target);
    const turn = await context.services.combat.turn(actor);
    // The helpless make no Escape (rules turn/able.ts).
    const helpless = helplessNow(actor, await context.services.combat.standing(actor));
    if (helpless !== null) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Helpless.Feat", { name: target.name, reason: game.i18n.localize(`CASE.Helpless.${helpless}`) }));
    if (!targetActions(loaded.state, p.targetKey, turn).escape) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.EscapeAlreadyTried", { name: target.name }));
    const cs: CsReason[] = rollShifts(actor, { score: "strength.mgt", escape: true });
    const die = await rollDie("1d100");
    const next = transition(() => escapeHold(loaded.state, p.targetKey, die.total, cs, CONFIG.CASE.universalTable, turn));
    const last = targetOf(next, p.targetKey).escapes.at(-1);
    if (last && last.result !== "fail") {
      await context.scope.within([actorLock(actor.uuid)], async () => {
        await clearStatus(actor, "partialHold");
        await clearStatus(actor, "fullHold");
      });
    }
    await save("escape", loaded, next, context, [die]);
    return null;
  },
});

/** Every GM half of the card's buttons, for the root to register. */
export const CARD_QUERIES = [defendQuery, rollToHitQuery, pullQuery, applyDamageQuery, undoDamageQuery, consequenceQuery, escapeQuery, applyAllQuery, rollAllChecksQuery] as const;
