/**
 * The GM halves of a resisted power's row on the attack card (rules exchange/resist.ts): *Resist*
 * (the target's owner asks; the GM reads the target's ability, rolls, spends the Karma added
 * where the world allows it, and the rules decide), *Apply* the power's effect and *Undo* it.
 * Each runs as gm-actions.ts says: the card's lock and its actors', the GM's note before an
 * effect (its nonce on what the effect writes), the card last. Who asks comes from the router
 * (the request's server-stamped author), never from the payload.
 */
import { applyResisted, resistActions, resistPower, resistanceOf, targetOf, undoResisted, type ExchangeState, type ResistedPower } from "../../rules/index";
import { actorLock } from "../actor-writes";
import { isCharacter, isItemType } from "../core/guards";
import { SYSTEM_ID } from "../core/constants";
import { rollShifts } from "../dice/talents";
import { QueryRefusal, payloadRecord } from "../requests/router";
import { karmaField, mayAddRowKarma, spendRowKarma } from "./row-karma";
import { clearStatus, setStatus, statusDetails } from "../status-effects";
import { requestGM } from "../requests/gm";
import type { ClickActions } from "../ui/click-actions";
import { cardRevision, journalStep, rollDie, type LoadedCard } from "./card-store";
import { cardLockKeys } from "./card-request";
import { caseFlag, type ResistedFlag } from "../core/flags";
import { cardFor } from "./damage-steps";
import { defineCardQuery, effectId, latestNote, mayApplyDamage, mustOwnTarget, parseTargetRef, save, targetActor, transition, type CardContext, type RowRequest } from "./card-step";

/** The power a power item makes its targets resist, or null when it names no ability (it is defended). */
export function resistedPowerOfItem(item: Item.Implementation): ResistedPower | null {
  if (!isItemType(item, "power")) return null;
  // An item made before resisted powers (or without its model's defaults) is not resisted.
  const r = item.system.resisted as typeof item.system.resisted | undefined;
  if (!r || r.by === "none") return null;
  return { rank: item.system.rank, resistedBy: r.by, effect: r.effect === "condition" ? { kind: "condition", condition: r.condition, turns: r.turns } : { kind: "hold", hold: r.effect } };
}

function resistedFlag(effect: ActiveEffect.Implementation): ResistedFlag | null {
  return caseFlag(effect.flags, "resisted") ?? null;
}

/** Loads the row's card for a click; null on a replay. */
function rowCard(p: RowRequest, context: CardContext, action: string): Promise<LoadedCard | null> {
  return cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: p.targetKey, action });
}

// ── Resist ─────────────────────────────────────────────────────────────────────────────────

export const resistQuery = defineCardQuery({
  name: "resist",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { ...parseTargetRef(r), karma: karmaField(r) };
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "resist"),
  async handle(_user, p, context) {
    const loaded = await rowCard(p, context, "resist");
    if (!loaded) return null;
    const target = transition(() => targetOf(loaded.state, p.targetKey));
    const power = (loaded.state as ExchangeState & { resisted?: ResistedPower }).resisted;
    if (!power) throw new QueryRefusal("malformed", game.i18n.format("CASE.Resisted.NotResisted", { source: loaded.state.source }));
    if (!resistActions(loaded.state, p.targetKey).resist) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.AlreadyDefended", { name: target.name }));
    const actor = await targetActor(target);
    if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
    // Karma on a resistance is Karma on a check (the world's ruling); refused, nothing rolled or spent, when not allowed or not there.
    const karmaStep = await mayAddRowKarma(loaded, p.targetKey, "resist", actor, "check", p.karma);
    // A resistance is a check, not an action: the helpless roll it too (as they roll Kill?).
    const die = await rollDie("1d100");
    const cs = rollShifts(actor, { score: power.resistedBy });
    const next = transition(() => resistPower(loaded.state, p.targetKey, { die: die.total, value: actor.system.score(power.resistedBy), cs, karma: p.karma }, CONFIG.CASE.universalTable));
    await spendRowKarma(karmaStep, actor, p.karma, context, game.i18n.format("CASE.Resisted.KarmaReason", { name: loaded.state.source }));
    await save("resist", loaded, next, context, [die]);
    return null;
  },
});

// ── Apply and undo the effect ────────────────────────────────────────────────────────────────

export const applyResistedQuery = defineCardQuery({
  name: "applyResisted",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mayApplyDamage(user, p, "applyDamage"),
  async handle(_user, p, context) {
    const loaded = await rowCard(p, context, "applyDamage");
    if (!loaded) return null;
    const target = transition(() => targetOf(loaded.state, p.targetKey));
    const effect = resistanceOf(target)?.effect;
    if (!resistActions(loaded.state, p.targetKey).apply || !effect) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToApply", { name: target.name }));
    const next = transition(() => applyResisted(loaded.state, p.targetKey));
    const actor = await targetActor(target);
    const messageId = loaded.message.id ?? "";
    const { nonce } = await journalStep(loaded, effectId(loaded, p.targetKey, "resistApply"));
    await context.scope.within([actorLock(actor.uuid)], async () => {
      if (effect.kind === "hold") return setStatus(actor, effect.hold, { holderUuid: loaded.state.attacker.uuid, messageId });
      // A retry finds the effect its note's nonce names and makes no second one.
      if (actor.effects.some((e) => resistedFlag(e)?.nonce === nonce)) return;
      const flag: ResistedFlag = { card: messageId, key: p.targetKey, nonce };
      await actor.createEmbeddedDocuments("ActiveEffect", [{ name: effect.condition, img: "icons/svg/daze.svg", duration: { rounds: effect.turns }, flags: { [SYSTEM_ID]: { resisted: flag } } } as ActiveEffect.CreateData]);
    });
    await save("applyResisted", loaded, next, context, []);
    return null;
  },
});

export const undoResistedQuery = defineCardQuery({
  name: "undoResisted",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mayApplyDamage(user, p, "undoDamage"),
  async handle(_user, p, context) {
    const loaded = await rowCard(p, context, "undoDamage");
    if (!loaded) return null;
    const target = transition(() => targetOf(loaded.state, p.targetKey));
    const effect = resistanceOf(target)?.effect;
    if (!resistActions(loaded.state, p.targetKey).undo || !effect) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToUndo", { name: target.name }));
    const next = transition(() => undoResisted(loaded.state, p.targetKey));
    const actor = await targetActor(target);
    const messageId = loaded.message.id ?? "";
    // Only what this card's apply put on: the effect carrying the GM's nonce, the hold this card made.
    const nonce = latestNote(loaded, p.targetKey, "resistApply")?.nonce;
    await context.scope.within([actorLock(actor.uuid)], async () => {
      if (effect.kind === "hold") {
        if (statusDetails(actor, effect.hold)?.messageId === messageId) await clearStatus(actor, effect.hold);
        return;
      }
      const ids = actor.effects.filter((e) => nonce !== undefined && resistedFlag(e)?.nonce === nonce).map((e) => e.id ?? "");
      if (ids.length > 0) await actor.deleteEmbeddedDocuments("ActiveEffect", ids);
    });
    await save("undoResisted", loaded, next, context, []);
    return null;
  },
});

/** The resisted power's queries, for the root to register. */
export const RESIST_QUERIES = [resistQuery, applyResistedQuery, undoResistedQuery] as const;

// ── The buttons' client halves ─────────────────────────────────────────────────────────────

/** The Karma typed beside a row's Resist or defence buttons (0 when empty). */
export function karmaBeside(button: HTMLElement): number {
  const input = button.closest("[data-karma-group]")?.querySelector<HTMLInputElement>("input[name=karma]");
  const value = Number(input?.value ?? 0);
  // Anything but a whole number goes as typed, for the GM to refuse with its reason.
  return Number.isInteger(value) ? value : -1;
}

/** The resist row's buttons (card.ts wires them with the card's others). */
export const RESIST_ACTIONS: ClickActions<{ readonly messageId: string }> = {
  caseResist(_event, target) {
    return requestGM(resistQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "", karma: karmaBeside(target) });
  },
  caseApplyResisted(_event, target) {
    return requestGM(applyResistedQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
  caseUndoResisted(_event, target) {
    return requestGM(undoResistedQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
};
