/**
 * The GM halves of the attack card's buttons. Every click that changes a card comes here as a
 * request and runs on the active GM (one writer), holding the card's lock (`card:<id>`, the
 * same for every button) and, for what it writes on actors, their locks (`actor:<uuid>`).
 * Each handler:
 *   1. loads the card (refused unless a GM wrote it) and its secrets;
 *   2. returns at once when the card already applied this request (a replay), and first
 *      finishes each Health step a GM cut on this card (effect written, card not: see cutSteps);
 *   3. asks the rules what may happen next, and refuses anything else;
 *   4. rolls every die it needs as a real Roll on this client;
 *   5. applies one pure transition from src/rules/exchange/;
 *   6. writes the effects on actors (each recorded with the request id: a retry redoes nothing);
 *   7. writes the card last.
 * A transition that already happened is refused as "stale" and changes nothing.
 */
import {
  DEFENCE_CODES,
  COLORS,
  applyDeclaredDodge,
  chooseDefence,
  countsAsNewDefence,
  markPickedDefence,
  declineDefence,
  escapeHold,
  pullBlow,
  targetActions,
  targetOf,
  type Color,
  type CsReason,
  type DefenceChoice,
  type DefenceCode,
  type ExchangeState,
} from "../../rules/index";
import { actorLock } from "../actor-writes";
import { rollShifts } from "../dice/talents";
import { QueryRefusal, choiceOf, intField, payloadRecord, stringField } from "../requests/router";
import { clearStatus } from "../status-effects";
import { SYSTEM_ID } from "../core/constants";
import { rollDie, type RolledDie } from "./card-store";
import { grantFoeBonus } from "./foe-bonus";
import { helplessNow } from "../combat/turn-feed";
import { cardLockKeys, revisionField } from "./card-request";

export { cardLock, cardLockKeys, mustBeCurrent, revisionField, type AsOf } from "./card-request";
import { countDefence } from "./check-effects";
import { karmaField, mayAddRowKarma, spendRowKarma } from "./row-karma";
import {
  ID,
  afterToHit,
  defenceShifts,
  defineCardQuery,
  effectId,
  isNpcActor,
  mustOwnAttacker,
  mustOwnTarget,
  parseTargetRef,
  rollPendingToHit,
  save,
  targetActor,
  transition,
  type CardContext,
  type TargetRef,
} from "./card-step";
import { applyAllQuery, applyDamageQuery, cardFor, consequenceQuery, rollAllChecksQuery, undoDamageQuery } from "./damage-steps";

export * from "./card-step";
export { applyAllQuery, applyDamageQuery, cardFor, consequenceQuery, minorFoeRuleFor, rollAllChecksQuery, undoDamageQuery, type RowStep } from "./damage-steps";

// ── Defend ───────────────────────────────────────────────────────────────────────────────

export const defendQuery = defineCardQuery({
  name: "defend",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), defence: choiceOf<DefenceChoice>(r, "defence", [...DEFENCE_CODES, "none"]), ...(r.karma === undefined ? {} : { karma: karmaField(r) }) };
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
export async function defendRow(p: TargetRef & { readonly defence: DefenceChoice; readonly revision?: number; readonly karma?: number }, context: CardContext, picked = false): Promise<null> {
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
  if (p.defence !== "none" && !offered.includes(p.defence)) throw new QueryRefusal("malformed", game.i18n.format("CASE.Exchange.DefenceNotOffered", { name: target.name, defence: game.i18n.localize(`CASE.Defence.${p.defence}`) }));
  // Under the declared-dodge rule, a dodger's Dodge (or "no defence") against a dodgeable
  // attack uses the dodge rolled after initiative: no new roll, no defence spent.
  const declared = helpless === null && game.settings.get(SYSTEM_ID, "declaredDodge") ? await context.services.combat.declaredDodgeShift(actor) : 0;
  const useDeclared = declared < 0 && (p.defence === "dodge" || p.defence === "none") && offered.includes("dodge");
  // Karma goes on a defence roll only (the world's ruling, the pool): refused before a die.
  const karma = p.karma ?? 0;
  if (karma > 0 && (useDeclared || p.defence === "none")) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.KarmaNoRoll"));
  const karmaStep = await mayAddRowKarma(loaded, p.targetKey, "defence", actor, "defence", karma);
  const dice: RolledDie[] = [];
  let next: ExchangeState;
  if (useDeclared) next = transition(() => applyDeclaredDodge(state, p.targetKey, declared));
  else if (p.defence === "none") next = transition(() => declineDefence(state, p.targetKey));
  else {
    // Under the defender's and its combat's locks (declared by cardLockKeys): a defence the turn
    // can no longer count (the phase moved on, no action left) is refused before a die is rolled.
    const refusal = await context.services.combat.defenceRefusal(actor, p.defence);
    if (refusal) throw new QueryRefusal(refusal === "wrongPhase" ? "stale" : "forbidden", game.i18n.format(refusal === "wrongPhase" ? "CASE.Exchange.DefenceTooLate" : "CASE.Exchange.DefenceNoAction", { name: target.name, defence: game.i18n.localize(`CASE.Defence.${p.defence}`) }));
    const cs = await defenceShifts(context.services.combat, actor, p.defence);
    const die = await rollDie("1d100", isNpcActor(target.actorUuid) && game.settings.get(SYSTEM_ID, "hideNpcDefences"));
    dice.push(die);
    next = transition(() => chooseDefence(state, p.targetKey, { defence: p.defence as DefenceCode, die: die.total, cs, karma }, CONFIG.CASE.universalTable));
    await spendRowKarma(karmaStep, actor, karma, context, game.i18n.format("CASE.Exchange.DefenceKarmaReason", { name: state.source }));
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
    if (color === undefined && damage === undefined) throw QueryRefusal.keyed("malformed", "pullNeedsChoice");
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
