/**
 * The fight log's data, gathered on the active GM (rules fight-log.ts decides its shape and
 * counts): the attack cards the combat's turn made (`turnAction.combatId`), read with the GM's
 * record so NPCs' numbers are whole, and the ledger entries the turn's wrap-up wrote on its
 * combatants' actors (`dying:<combat>:<round>:…`, `regen:<combat>:<round>:…`,
 * actor-writes.ts). It names NPCs' numbers, so it is a GM-only query: a player is refused, and
 * a player's client could not gather it anyway (the records are whispered to the GMs).
 *
 * Sides: a target token's disposition (hostile: a foe) when the token is still there, else the
 * actor's type (an NPC: a foe).
 */
import { buildFightLog, type FightCard, type FightLedgerEvent, type FightLog, type FightSide } from "../../rules/index";
import { actorFromUuid } from "../core/guards";
import { ledgerOf } from "../actor-writes";
import { cardForViewer } from "../exchange/card-store";
import { QueryRefusal, defineQuery, payloadRecord, stringField, type AskingUser } from "../requests/router";

const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;

/** The attack cards a GM wrote, with their exchange as this (GM) client reads it; unreadable cards skipped. */
function attackCards(): { message: ChatMessage.Implementation; card: FightCard }[] {
  const out: { message: ChatMessage.Implementation; card: FightCard }[] = [];
  for (const message of game.messages) {
    if (message.type !== "attack" || message.author?.isGM !== true) continue;
    try {
      const state = cardForViewer(message);
      out.push({ message, card: { id: message.id, at: message.timestamp, state } });
    } catch {
      // A card no GM wrote or a newer version's: it counts for nothing here either.
    }
  }
  return out;
}

/** The ids of the combats that have attack cards, newest card first: what the Judge may open a log of after the fight. */
export function foughtCombatIds(): string[] {
  const cards = attackCards().sort((a, b) => b.card.at - a.card.at);
  return [...new Set(cards.map((c) => c.card.state.turnAction?.combatId).filter((id): id is string => typeof id === "string" && id !== ""))];
}

const LEDGER_KIND = /^(dying|regen):([^:]+):(\d+):/;

/** The wrap-up's ledgered changes of combat `combatId` on these actors. */
function ledgerEvents(combatId: string, actors: readonly Actor.Implementation[]): FightLedgerEvent[] {
  const events: FightLedgerEvent[] = [];
  for (const actor of actors) {
    for (const e of ledgerOf(actor)) {
      const m = LEDGER_KIND.exec(e.id);
      if (!m || m[2] !== combatId) continue;
      events.push({ round: Number(m[3]), actorUuid: actor.uuid, name: actor.name, kind: m[1] === "dying" ? "dying" : "regen", before: e.before, after: e.after });
    }
  }
  return events;
}

const HOSTILE = -1;

/** A token's or actor's side ({@link FightSide}). */
async function sideOfUuid(uuid: string): Promise<FightSide> {
  const doc: unknown = await fromUuid(uuid);
  if (doc instanceof TokenDocument && typeof doc.disposition === "number") return doc.disposition === HOSTILE ? "foe" : "ally";
  const actor = await actorFromUuid(uuid);
  return actor?.type === "npc" ? "foe" : "ally";
}

/** The fight log of combat `combatId` as this GM client reads it. */
export async function gatherFightLog(combatId: string): Promise<FightLog> {
  const cards = attackCards()
    .filter((c) => c.card.state.turnAction?.combatId === combatId)
    .map((c) => c.card);
  const uuids = new Set<string>();
  const sides = new Map<string, FightSide>();
  for (const c of cards) {
    uuids.add(c.state.attacker.uuid);
    for (const t of c.state.targets) {
      uuids.add(t.actorUuid);
      // The row's token says the target's side; the actor UUID is what the log names.
      if (!sides.has(t.actorUuid)) sides.set(t.actorUuid, await sideOfUuid(t.uuid));
    }
  }
  const actors = new Map<string, Actor.Implementation>();
  for (const combatant of game.combats.get(combatId)?.combatants.contents ?? []) {
    const actor = combatant.actor;
    if (actor) actors.set(actor.uuid, actor);
  }
  for (const uuid of uuids) {
    if (!sides.has(uuid)) sides.set(uuid, await sideOfUuid(uuid));
    const actor = actors.has(uuid) ? null : await actorFromUuid(uuid);
    if (actor) actors.set(actor.uuid, actor);
  }
  for (const actor of actors.values()) if (!sides.has(actor.uuid)) sides.set(actor.uuid, actor.type === "npc" ? "foe" : "ally");
  return buildFightLog(combatId, cards, ledgerEvents(combatId, [...actors.values()]), (uuid) => sides.get(uuid) ?? "ally");
}

export interface FightLogPayload {
  readonly combatId: string;
}

/** Validates untrusted data into a fight-log request, or throws QueryRefusal("malformed"). */
export function parseFightLogPayload(raw: unknown): FightLogPayload {
  return { combatId: stringField(payloadRecord(raw), "combatId", DOCUMENT_ID) };
}

/** The fight log, for a GM only (it names NPCs' numbers). Writes nothing, so it holds no lock. */
export const fightLogQuery = defineQuery({
  name: "fightLog",
  parse: parseFightLogPayload,
  lockKeys: () => [],
  authorize(user: AskingUser): void {
    if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Campaign.GMOnly"));
  },
  handle: (_user, payload: FightLogPayload): Promise<FightLog> => gatherFightLog(payload.combatId),
});
