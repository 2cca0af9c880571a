/**
 * The GM halves of the card's Health steps and checks: *Apply damage*, *Undo* (the whole hit),
 * *Apply all*, *Roll all due checks* and Slam?/Stun?/Kill?; and loading a card for every request
 * with the Health steps a GM cut on it finished first (`cardFor`). Effects first (each with its
 * ledger entry and the GM's note), the card last (gm-actions.ts says how a handler runs).
 */
import {
  applyDamage,
  effectiveEndurance,
  resolveConsequence,
  targetActions,
  targetOf,
  undoDamage,
  undoPlan,
  type DamageApplication,
  type ExchangeState,
  type ExchangeTarget,
  type MinorFoeRule,
} from "../../rules/index";
import { actorLock, ledgerEntry, writeOnce } from "../actor-writes";
import { isActorType, isCharacter } from "../core/guards";
import { QueryRefusal, choiceOf, payloadRecord, stringField } from "../requests/router";
import { syncUnconscious, unconsciousChange } from "../status-effects";
import { SYSTEM_ID } from "../core/constants";
import { caseFlag } from "../core/flags";
import { journalEntry, journalStep, loadCard, rollDie, type LoadedCard, type RolledDie } from "./card-store";
import { moveSlammedToken } from "./slam-move";
import { karmaField, mayAddRowKarma, spendRowKarma } from "./row-karma";
import { cardLockKeys, mustBeCurrent, revisionField, type AsOf } from "./card-request";

import {
  checkBefore,
  consequenceEffects,
  giveBackDefence,
  readCheckBefore,
  undoChecks,
  undoHold,
  undoTurnStun,
  type Check,
  type CheckNotes,
} from "./check-effects";
import {
  ID,
  attackerActor,
  defineCardQuery,
  effectId,
  healthOf,
  latestNote,
  mayApplyDamage,
  mustBeGM,
  mustOwnTarget,
  parseTargetRef,
  redirectsCut,
  save,
  targetActor,
  transition,
  type CardContext,
  type RowRequest,
} from "./card-step";

/** A step on one row of a card that writes Health before the card (so a GM's drop can cut it). */
type HealthStep = "apply" | "undo";

export interface RowStep {
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
    if (finished >= loaded.state.targets.length * 2) throw new QueryRefusal("failed", game.i18n.format("CASE.Exchange.StepStuck", { id: messageId }));
    const finishing = { ...context, requestId: `${context.requestId}.finish${String(finished)}` };
    await (cut.step === "apply" ? applyRow : undoRow)(loaded, cut.key, finishing);
    loaded = loadCard(messageId);
  }
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
  if (!isActorType(actor, "npc")) return null;
  return actor.system.minor ? game.settings.get(SYSTEM_ID, "minorFoeRule") : null;
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
  const flag = caseFlag(actor.flags, "outOfFight");
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
  const flag = caseFlag(actor.flags, "outOfFight");
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

/**
 * The query of a row's Health step, *Apply damage* or *Undo*: on the row's owner under the
 * owners setting (or the GM), against the revision the click saw, the row's own cut step
 * finished as a retry; the GM taking over finishes the steps a GM cut (`unfinished`).
 */
function healthStepQuery(name: "applyDamage" | "undoDamage", step: HealthStep, run: (loaded: LoadedCard, key: string, context: CardContext) => Promise<void>) {
  return defineCardQuery({
    name,
    parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
    lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
    authorize: (user, p) => mayApplyDamage(user, p, name),
    async handle(_user, p, context) {
      const loaded = await cardFor(p.messageId, context, { key: p.targetKey, step }, undefined, { revision: p.revision, key: p.targetKey, action: name });
      if (loaded) await run(loaded, p.targetKey, context);
      return null;
    },
    unfinished: () => unfinishedSteps(step),
  });
}

export const applyDamageQuery = healthStepQuery("applyDamage", "apply", applyRow);

/** Applies one row's damage (the row's own cut step finished first, as a click would), then its NPC's checks. */
async function applyDamageNow(messageId: string, key: string, context: CardContext): Promise<void> {
  const loaded = await cardFor(messageId, context, { key, step: "apply" });
  if (loaded) await applyRow(loaded, key, context);
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

export const undoDamageQuery = healthStepQuery("undoDamage", "undo", undoRow);

// ── Slam? Stun? Kill? ───────────────────────────────────────────────────────────────────────

/** Rolls a due check on the GM (the End (res) d100, and a d10 when the result needs one), then its effects, then the card. */
async function resolveConsequenceNow(messageId: string, key: string, check: Check, context: CardContext, asOf?: AsOf, karma = 0): Promise<void> {
  const loaded = await cardFor(messageId, context, undefined, undefined, asOf);
  if (!loaded) return;
  const { state } = loaded;
  const target = transition(() => targetOf(state, key));
  if (!targetActions(state, key).checks.includes(check)) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.CheckNotDue", { name: target.name }));
  const actor = await targetActor(target);
  const hasActed = await context.services.combat.hasActed(actor);
  const karmaStep = await mayAddRowKarma(loaded, key, check, actor, "check", karma);
  const dice: RolledDie[] = [await rollDie("1d100")];
  const tenSided = check === "kill" ? undefined : await rollDie("1d10");
  if (tenSided) dice.push(tenSided);
  await context.scope.within([actorLock(actor.uuid)], async () => {
    // How the target stands is read inside the lock and noted before an effect; a retry
    // finds the note and reuses the lost ranks it recorded (the Undo reads it too).
    const id = effectId(loaded, key, check);
    const note = await journalStep(loaded, id, { ...(await checkBefore(context.services.combat, actor, target.uuid)) });
    const lostBefore = readCheckBefore(note.data).lost;
    const endurance = isCharacter(actor) ? effectiveEndurance(actor.system.endurance.beforeLoss, lostBefore).value : target.scores["endurance.res"];
    const next = transition(() => resolveConsequence(state, key, { check, die: dice[0]?.total ?? 0, d10: tenSided?.total, hasActed, endurance, karma }, CONFIG.CASE.universalTable));
    await spendRowKarma(karmaStep, actor, karma, context, game.i18n.localize(`CASE.Consequence.${check}`));
    await consequenceEffects(context, next, key, check, actor, lostBefore, id, note.nonce);
    const moved = check === "slam" ? await moveSlammedToken(next, key, id, context, note.nonce) : next;
    await save("consequence", loaded, moved, context, dice);
  });
}

export const consequenceQuery = defineCardQuery({
  name: "consequence",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), check: choiceOf(r, "check", ["slam", "stun", "kill"] as const), ...(r.karma === undefined ? {} : { karma: karmaField(r) }) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "consequence"),
  async handle(_user, p, context) {
    await resolveConsequenceNow(p.messageId, p.targetKey, p.check, context, { revision: p.revision, key: p.targetKey, action: "consequence" }, p.karma);
    return null;
  },
});
