/**
 * `CONFIG.CASE.api.applyDamage(tokenUuids, amount)`: takes `amount` Health off each named
 * token's (or actor's) character, outside an attack card — falls, hazards, a Judge's ruling.
 *
 * It runs on the active GM through the query router (one writer): the GM side refuses a
 * malformed request, and a player who does not own every target (nothing is applied then).
 * Health is clamped to [0, max] first and damage never takes it below 0
 * (rules `clampHealth`, `applyDamageToHealth`). A short summary is whispered to the GMs and the
 * asking user. Each request carries a requestId, and each Health write records it with the
 * asking user in the actor's ledger (actor-writes.ts), under the actor's lock shared with the
 * attack cards and the turn: a replayed request (a double click, a resent request, a GM
 * reload) finds its entries, returns the first result and changes nothing. Two tokens of the
 * same linked actor are one target (damaged once).
 */
import { applyDamageToHealth, clampHealth } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { MAX_DAMAGE, MAX_TARGETS } from "./damage-limits";
import { actorFromUuid, characterSystem, isCharacter } from "../core/guards";
import { requestGM, userOwns } from "../requests/gm";
import { QueryRefusal, defineQuery, intField, payloadRecord, stringField, uuidListField, type AskingUser } from "../requests/router";
import { actorLock, actorLocksOf, ledgerEntry, writeOnce } from "../actor-writes";
import { refusalText } from "../ui/error-text";

export { MAX_DAMAGE, MAX_TARGETS };
export const DAMAGE_SUMMARY_TEMPLATE = `${SYSTEM_PATH}/templates/chat/damage-summary.hbs`;

const REQUEST_ID = /^[A-Za-z0-9]{16}$/;

export interface DamagePayload {
  readonly requestId: string;
  readonly tokenUuids: readonly string[];
  readonly amount: number;
}

export interface DamagedTarget {
  /** The actor's UUID (a token's synthetic actor for an unlinked token). */
  readonly uuid: string;
  readonly name: string;
  readonly before: number;
  readonly after: number;
  readonly max: number;
  readonly lost: number;
  readonly reachedZero: boolean;
}

export interface DamageSummary {
  readonly requestId: string;
  readonly amount: number;
  readonly targets: readonly DamagedTarget[];
  /** True when this answer is the remembered result of an earlier request with the same id. */
  readonly replayed: boolean;
}

/** Validates untrusted data into a payload, or throws QueryRefusal("malformed"). */
export function parseDamagePayload(raw: unknown): DamagePayload {
  const r = payloadRecord(raw);
  const requestId = stringField(r, "requestId", REQUEST_ID);
  const amount = intField(r, "amount", 1, MAX_DAMAGE);
  return { requestId, tokenUuids: uuidListField(r, "tokenUuids", MAX_TARGETS), amount };
}

/** The characters the payload names, one per actor; refused when one is gone or is not a character. */
async function targetsOf(payload: DamagePayload): Promise<Actor.Implementation[]> {
  const actors = new Map<string, Actor.Implementation>();
  for (const uuid of payload.tokenUuids) {
    const actor = await actorFromUuid(uuid);
    if (!actor) throw new QueryRefusal("stale", game.i18n.format("CASE.DamageApi.TargetGone", { uuid }));
    if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.format("CASE.DamageApi.NotCharacter", { name: actor.name }));
    if (!actors.has(actor.uuid)) actors.set(actor.uuid, actor);
  }
  return [...actors.values()];
}

/** Whispers the summary to the GMs and the asking user. */
async function postSummary(user: AskingUser, summary: DamageSummary): Promise<void> {
  const content = await foundry.applications.handlebars.renderTemplate(DAMAGE_SUMMARY_TEMPLATE, { ...summary, by: user.name });
  const whisper = [...new Set([...ChatMessage.getWhisperRecipients("GM").map((u) => u.id), user.id])].filter((id): id is string => typeof id === "string" && id !== "");
  await ChatMessage.implementation.create({ content, whisper, speaker: { scene: null, actor: null, token: null, alias: user.name } });
}

export const applyDamageApiQuery = defineQuery({
  name: "applyDamageToTokens",
  parse: parseDamagePayload,
  // The actors' own locks (the same as the cards' and the turn's).
  lockKeys: (p) => actorLocksOf(p.tokenUuids),
  async authorize(user: AskingUser, payload: DamagePayload) {
    if (user.isGM) return;
    for (const actor of await targetsOf(payload)) {
      if (!userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.DamageApi.NotYours", { name: actor.name }));
    }
  },
  async handle(user: AskingUser, payload: DamagePayload, context): Promise<DamageSummary> {
    // The ledger key: the asking user (server-stamped) and the caller's request id.
    const id = `damage:${user.id}:${payload.requestId}`;
    const field = "system.health.value";
    const actors = await targetsOf(payload);
    let replayed = true as boolean;
    const targets = await context.scope.within(actors.map((a) => actorLock(a.uuid)), async () => {
      const out: DamagedTarget[] = [];
      for (const actor of actors) {
        // Read inside the lock; a replay reuses the "before" its entry recorded.
        const health = characterSystem(actor).health;
        const entry = ledgerEntry(actor, id, field);
        if (!entry) replayed = false;
        const before = entry?.before ?? clampHealth(health.value, health.max);
        // A replay reports what its first run wrote, whatever its payload says now.
        const after = entry?.after ?? applyDamageToHealth(before, health.max, payload.amount).health;
        await writeOnce(context.scope, actor, id, field, before, after);
        out.push({ uuid: actor.uuid, name: actor.name, before, after, max: health.max, lost: before - after, reachedZero: after === 0 && before > 0 });
      }
      return out;
    });
    const summary: DamageSummary = { requestId: payload.requestId, amount: payload.amount, targets, replayed };
    if (!replayed) await postSummary(user, summary);
    return summary;
  },
});

/**
 * Takes `amount` Health off each character the UUIDs name (tokens or actors), through the
 * active GM. Resolves to the summary, or null (after a localised notification) when the
 * request is refused.
 */
export async function applyDamage(tokenUuids: readonly string[], amount: number): Promise<DamageSummary | null> {
  const payload = { requestId: foundry.utils.randomID(16), tokenUuids: [...tokenUuids], amount };
  try {
    parseDamagePayload(payload);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.DamageApi.Invalid", { message: refusalText(error) }));
    return null;
  }
  return (await requestGM(applyDamageApiQuery, payload)) ?? null;
}
