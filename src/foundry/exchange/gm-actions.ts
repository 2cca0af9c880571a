/**
 * The attack exchange's cross-user requests. Every click on an attack card that changes it
 * comes here and runs on the active GM (one writer): the defender's defence (rolled on the
 * defender's client), the to-hit roll (rolled by the GM), pulls, applying and undoing damage,
 * Slam?/Stun?/Kill? checks and escapes. Each handler reads the card's exchange, applies one
 * pure transition from src/rules/exchange.ts, writes the card, then the effects on actors. A
 * transition that already happened is refused as "stale" and changes nothing.
 */
import {
  DEFENCE_CODES,
  DEFENCE_SCORE,
  COLORS,
  ExchangeError,
  applyDamage,
  applyDeclaredDodge,
  chooseDefence,
  defenceOptions,
  declineDefence,
  defencePenalty,
  escapeHold,
  pullBlow,
  resolveConsequence,
  rollToHit,
  targetOf,
  undoDamage,
  type Color,
  type CsReason,
  type DamageApplication,
  type DefenceChoice,
  type DefenceCode,
  type ExchangeState,
  type ExchangeTarget,
} from "../../rules/index";
import { readExchange } from "../data/chat/attack-message";
import { actorFromUuid, isCharacter } from "../documents/guards";
import { talentShifts } from "../dice/talents";
import { userOwns } from "../gm";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryDefinition } from "../queries";
import { clearStatus, setStatus, statusShift } from "../status-effects";
import { SYSTEM_ID } from "../constants";
import { combatBridge } from "./combat-bridge";

const ID = /^[A-Za-z0-9]{16}$/;
const KEY = /^\d{1,3}$/;

interface TargetRef {
  readonly messageId: string;
  readonly targetKey: string;
}

function parseTargetRef(r: Record<string, unknown>): TargetRef {
  return { messageId: stringField(r, "messageId", ID), targetKey: stringField(r, "targetKey", KEY) };
}

/** The attack card and its exchange; refused when the card is gone or is not an attack. */
function loadCard(messageId: string): { message: ChatMessage.Implementation; state: ExchangeState } {
  const message = game.messages.get(messageId);
  if (!message) throw new QueryRefusal("stale", "That card no longer exists.");
  if (message.type !== "attack") throw new QueryRefusal("malformed", "That card is not an attack.");
  try {
    return { message, state: readExchange((message.system as { exchange?: unknown }).exchange) };
  } catch (error) {
    throw new QueryRefusal("failed", error instanceof Error ? error.message : String(error));
  }
}

/** Runs a pure transition, turning its refusals into query refusals. */
function transition<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ExchangeError) throw new QueryRefusal(error.kind === "stale" ? "stale" : "malformed", error.message);
    if (error instanceof RangeError || error instanceof TypeError) throw new QueryRefusal("malformed", error.message);
    throw error;
  }
}

async function saveCard(message: ChatMessage.Implementation, state: ExchangeState): Promise<void> {
  await message.update({ "system.exchange": state } as ChatMessage.UpdateData);
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

async function mustOwnTarget(user: AskingUser, ref: TargetRef): Promise<void> {
  if (user.isGM) return;
  const { state } = loadCard(ref.messageId);
  const target = transition(() => targetOf(state, ref.targetKey));
  const actor = await targetActor(target);
  if (!userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Exchange.NotYourTarget", { name: target.name }));
}

async function mustOwnAttacker(user: AskingUser, ref: { messageId: string }): Promise<void> {
  if (user.isGM) return;
  const { state } = loadCard(ref.messageId);
  const actor = await attackerActor(state);
  if (!actor || !userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.NotYourAttack"));
}

async function mayApplyDamage(user: AskingUser, ref: TargetRef): Promise<void> {
  if (user.isGM) return;
  if (game.settings.get(SYSTEM_ID, "damageAppliedBy") !== "owners") throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.GMAppliesDamage"));
  await mustOwnTarget(user, ref);
}

async function d100(): Promise<number> {
  const roll = await new Roll("1d100").evaluate();
  return roll.total;
}

async function d10(): Promise<number> {
  const roll = await new Roll("1d10").evaluate();
  return roll.total;
}

/** Rolls the to-hit (and intensity damage die) for a target whose defence is settled. */
async function rollPendingToHit(state: ExchangeState, key: string): Promise<ExchangeState> {
  if (targetOf(state, key).phase !== "awaitingToHit") return state;
  const die = await d100();
  const damageDie = state.damage.method === "intensity" ? await d100() : undefined;
  return transition(() => rollToHit(state, key, { die, damageDie }, CONFIG.CASE.universalTable));
}

/** Effects on the target of a resolved to-hit: holds become conditions. */
async function afterToHit(state: ExchangeState, key: string, messageId: string): Promise<void> {
  const target = targetOf(state, key);
  const result = target.toHit?.result;
  if (result !== "partialHold" && result !== "fullHold") return;
  const actor = await targetActor(target);
  await setStatus(actor, result, { holderUuid: state.attacker.uuid, messageId });
}

/** The shifts on a defender's roll: extra-defence penalty, talents, conditions. */
async function defenceShifts(actor: Actor.Implementation, defence: DefenceChoice): Promise<CsReason[]> {
  if (defence === "none" || !isCharacter(actor)) return [];
  const used = await combatBridge.defencesUsed(actor);
  const penalty = defencePenalty(used, actor.system.stats.freeDefences);
  const shifts: CsReason[] = penalty !== 0 ? [{ cs: penalty, label: "CASE.Exchange.ExtraDefence", localize: true }] : [];
  for (const t of talentShifts(actor, DEFENCE_SCORE[defence], undefined, defence)) shifts.push({ ...t });
  for (const s of statusShift(actor.statuses)) shifts.push({ ...s, localize: true });
  return shifts;
}

/** Where a defender keeps its bonus against a foe: `flags.case.foeBonus.<foe actor id>`. */
export function foeBonusKey(foeUuid: string): string {
  return foeUuid.replace(/[^A-Za-z0-9]/g, "_");
}

async function setFoeBonus(actor: Actor.Implementation, foeUuid: string, cs: number): Promise<void> {
  await actor.update({ [`flags.${SYSTEM_ID}.foeBonus.${foeBonusKey(foeUuid)}`]: cs });
}

// ── queries ──────────────────────────────────────────────────────────────────────────────

export const defendQuery = defineQuery({
  name: "defend",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    const defence = choiceOf<DefenceChoice>(r, "defence", [...DEFENCE_CODES, "none"]);
    return { ...parseTargetRef(r), defence, die: defence === "none" ? null : intField(r, "die", 1, 100) };
  },
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mustOwnTarget(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    const target = transition(() => targetOf(state, p.targetKey));
    if (target.phase !== "awaitingDefence") throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.AlreadyDefended", { name: target.name }));
    const actor = await targetActor(target);
    // Under the declared-dodge rule, a dodger's Dodge (or "no defence") against a dodgeable
    // attack uses the dodge rolled after initiative: no new roll, no defence spent.
    const declared = game.settings.get(SYSTEM_ID, "declaredDodge") ? await combatBridge.declaredDodgeShift(actor) : 0;
    const useDeclared = declared < 0 && (p.defence === "dodge" || p.defence === "none") && defenceOptions(state, p.targetKey).includes("dodge");
    const cs = await defenceShifts(actor, p.defence);
    let next: ExchangeState;
    if (useDeclared) next = transition(() => applyDeclaredDodge(state, p.targetKey, declared));
    else if (p.defence === "none" || p.die === null) next = transition(() => declineDefence(state, p.targetKey));
    else next = transition(() => chooseDefence(state, p.targetKey, { defence: p.defence as DefenceCode, die: p.die as number, cs }, CONFIG.CASE.universalTable));
    next = await rollPendingToHit(next, p.targetKey);
    await saveCard(message, next);
    if (!useDeclared && p.defence !== "none") await combatBridge.recordDefence(actor, p.defence);
    await afterToHit(next, p.targetKey, p.messageId);
    // A yellow or red Evasion/Feint: +1/+2 CS on the defender's next action against this foe.
    const bonus = targetOf(next, p.targetKey).defence?.outcome.bonusCs ?? 0;
    if (bonus > 0) await setFoeBonus(actor, next.attacker.uuid, bonus);
  },
});

export const rollToHitQuery = defineQuery({
  name: "rollToHit",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { messageId: stringField(r, "messageId", ID) };
  },
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mustOwnAttacker(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    let next = state;
    for (const t of state.targets) next = await rollPendingToHit(next, t.key);
    if (next === state) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.NothingToRoll"));
    await saveCard(message, next);
    for (const t of next.targets) if (state.targets.find((x) => x.key === t.key)?.phase === "awaitingToHit") await afterToHit(next, t.key, p.messageId);
  },
});

export const pullQuery = defineQuery({
  name: "pull",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    const color = r.color === undefined ? undefined : choiceOf<Color>(r, "color", COLORS);
    const damage = r.damage === undefined ? undefined : intField(r, "damage", 0, 1_000_000);
    if (color === undefined && damage === undefined) throw new QueryRefusal("malformed", "A pull needs a colour or a damage.");
    return { ...parseTargetRef(r), color, damage };
  },
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mustOwnAttacker(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    const next = transition(() => pullBlow(state, p.targetKey, { color: p.color, damage: p.damage }, CONFIG.CASE.universalTable));
    await saveCard(message, next);
  },
});

async function autoRollNpcConsequences(state: ExchangeState, key: string, messageId: string, actor: Actor.Implementation): Promise<void> {
  if (actor.type !== "npc" || !game.settings.get(SYSTEM_ID, "autoNpcConsequences")) return;
  for (const c of targetOf(state, key).consequences) {
    if (c.outcome === null) await resolveConsequenceNow(messageId, key, c.check, await d100());
  }
}

/**
 * Writes the Health an apply or an undo computed: the target's, and on a charge the charger's.
 * Absolute values, not decrements, so writing them twice changes nothing.
 */
async function writeHealth(target: Actor.Implementation, charger: Actor.Implementation | null, result: DamageApplication): Promise<void> {
  await target.update({ "system.health.value": result.health } as Actor.UpdateData);
  if (charger && result.chargerHealth !== null) await charger.update({ "system.health.value": result.chargerHealth } as Actor.UpdateData);
}

export const applyDamageQuery = defineQuery({
  name: "applyDamage",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mayApplyDamage(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    const target = transition(() => targetOf(state, p.targetKey));
    const actor = await targetActor(target);
    if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
    const health = { value: actor.system.health.value, max: actor.system.health.max };
    // A charge: the target's armor rebounds onto the charger.
    const charger = (target.damage?.rebound ?? 0) > 0 ? await attackerActor(state) : null;
    const chargerHealth = charger && isCharacter(charger) ? { value: charger.system.health.value, max: charger.system.health.max } : undefined;
    const applied = transition(() => applyDamage(state, p.targetKey, health, chargerHealth));
    await saveCard(message, applied.state);
    await writeHealth(actor, charger, applied);
    await autoRollNpcConsequences(applied.state, p.targetKey, p.messageId, actor);
  },
});

export const undoDamageQuery = defineQuery({
  name: "undoDamage",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mayApplyDamage(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    const target = transition(() => targetOf(state, p.targetKey));
    const actor = await targetActor(target);
    const undone = transition(() => undoDamage(state, p.targetKey));
    await saveCard(message, undone.state);
    await writeHealth(actor, undone.chargerHealth !== null ? await attackerActor(state) : null, undone);
  },
});

/** Resolves a due check with the target's d100 (and a d10 the GM rolls when needed), then its effects. */
async function resolveConsequenceNow(messageId: string, key: string, check: "slam" | "stun" | "kill", die: number): Promise<void> {
  const { message, state } = loadCard(messageId);
  const target = transition(() => targetOf(state, key));
  const actor = await targetActor(target);
  const endurance = isCharacter(actor) ? actor.system.abilities.endurance.value : target.scores["endurance.res"];
  const due = target.consequences.find((c) => c.check === check);
  if (!due) throw new QueryRefusal("malformed", `No ${check} check is due for ${target.name}.`);
  if (due.outcome !== null || target.phase !== "applied") throw new QueryRefusal("stale", `The ${check} check of ${target.name} was already rolled.`);
  const hasActed = await combatBridge.hasActed(actor);
  // The d10 (slam direction, long stun turns) is rolled here and used only when the result needs it.
  const tenSided = check === "kill" ? undefined : await d10();
  const next = transition(() => resolveConsequence(state, key, { check, die, d10: tenSided, hasActed, endurance }, CONFIG.CASE.universalTable));
  await saveCard(message, next);
  await consequenceEffects(next, key, check, actor);
}

async function consequenceEffects(state: ExchangeState, key: string, check: "slam" | "stun" | "kill", actor: Actor.Implementation): Promise<void> {
  const outcome = targetOf(state, key).consequences.find((c) => c.check === check)?.outcome;
  if (!outcome) return;
  switch (outcome.check) {
    case "slam":
      if (outcome.result === "grandSlam" || outcome.result === "oneArea") {
        await setStatus(actor, "slammed", { direction: outcome.direction ?? "", ...(outcome.areas !== null ? { areas: outcome.areas } : {}) });
      }
      return;
    case "stun":
      if (outcome.result !== "none") {
        await setStatus(actor, "stunned", { turns: outcome.turns, startsNextTurn: !outcome.thisTurn });
        await combatBridge.recordStun(actor, outcome.turns, !outcome.thisTurn);
      }
      return;
    case "kill":
      if (outcome.result === "enduranceLoss") {
        await actor.update({ "system.abilities.endurance.value": outcome.endurance } as Actor.UpdateData);
        await setStatus(actor, "dying", { aided: false });
        if (outcome.dead) await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: true, overlay: true });
      }
      return;
  }
}

export const consequenceQuery = defineQuery({
  name: "consequence",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), check: choiceOf(r, "check", ["slam", "stun", "kill"] as const), die: intField(r, "die", 1, 100) };
  },
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mustOwnTarget(user, p),
  handle: (_user, p) => resolveConsequenceNow(p.messageId, p.targetKey, p.check, p.die),
});

export const escapeQuery = defineQuery({
  name: "escape",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    // `attempt`: how many escapes the card showed when the button was clicked, so a double
    // click or a replay (the same attempt again) changes nothing.
    return { ...parseTargetRef(r), die: intField(r, "die", 1, 100), attempt: intField(r, "attempt", 0, 1000) };
  },
  lockKey: (p) => p.messageId,
  authorize: (user, p) => mustOwnTarget(user, p),
  async handle(_user, p) {
    const { message, state } = loadCard(p.messageId);
    const target = transition(() => targetOf(state, p.targetKey));
    if (target.escapes.length !== p.attempt) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.EscapeAlreadyTried", { name: target.name }));
    const actor = await targetActor(target);
    const cs: CsReason[] = statusShift(actor.statuses, "escape").map((s) => ({ ...s, localize: true }));
    const next = transition(() => escapeHold(state, p.targetKey, p.die, cs, CONFIG.CASE.universalTable));
    await saveCard(message, next);
    const last = targetOf(next, p.targetKey).escapes.at(-1);
    if (last && last.result !== "fail") {
      await clearStatus(actor, "partialHold");
      await clearStatus(actor, "fullHold");
    }
  },
});

/** Registers every exchange query with `register` (gm.ts's registerQuery in init). */
export function registerExchangeQueries(register: <P, R>(query: QueryDefinition<P, R>) => void): void {
  register(defendQuery);
  register(rollToHitQuery);
  register(pullQuery);
  register(applyDamageQuery);
  register(undoDamageQuery);
  register(consequenceQuery);
  register(escapeQuery);
}
