/**
 * The GM's records survive "Clear Chat Log". A turn record (`turnRecord`: a combat's secret NPC
 * declarations, its back-step history and the authoritative copy of each combatant's turn
 * state) and an attack record (`attackRecord`: a card's
 * secrets) are whispered chat messages, the one store Foundry keeps from the players' clients,
 * so the chat log's *Clear* (or a GM's delete) takes them too. While the combat or the card
 * they belong to is still there, the active GM writes them again at once from the deleted
 * message's own data (Foundry's `deleteChatMessage` hook hands it over whole), and points the
 * card at its new record. A record whose combat or card is gone as well is let go. The copy is
 * never rebuilt from the combatants (their owners may write those): a turn record comes back
 * whole, its combatants' turn state as the GM last wrote it.
 */
import type { MessageSystem } from "../data/system-data";
import { messageUpdate } from "../data/system-data";
import { gmIds } from "../dice/dice-so-nice";

type RecordType = "turnRecord" | "attackRecord";

function isRecordType(type: string): type is RecordType {
  return type === "turnRecord" || type === "attackRecord";
}

/** Who still needs a deleted record: its combat (a turn record) or its card (an attack record); null when nothing does. */
function stillNeeded(type: RecordType, system: Record<string, unknown>): { readonly card: ChatMessage.Implementation | null } | null {
  if (type === "turnRecord") {
    const combatId = typeof system.combatId === "string" ? system.combatId : "";
    const combat = combatId ? game.combats.get(combatId) : undefined;
    const other = game.messages.find((m) => m.type === "turnRecord" && m.author?.isGM === true && (m.system as Partial<MessageSystem<"turnRecord">>).combatId === combatId);
    return combat && !other ? { card: null } : null;
  }
  const cardId = typeof system.cardId === "string" ? system.cardId : "";
  const card = cardId ? game.messages.get(cardId) : undefined;
  return card && card.type === "attack" && card.author?.isGM === true ? { card } : null;
}

/**
 * On the active GM: writes a deleted record again while its combat or card needs it. Resolves
 * to the new record, or null when none was needed (or this is not the active GM).
 */
export async function keepRecord(deleted: ChatMessage.Implementation): Promise<ChatMessage.Implementation | null> {
  if (game.users.activeGM?.isSelf !== true || !isRecordType(deleted.type) || deleted.author?.isGM !== true) return null;
  const system = structuredClone(deleted.system) as Record<string, unknown>;
  const needed = stillNeeded(deleted.type, system);
  if (!needed) return null;
  const created = await ChatMessage.implementation.create({ type: deleted.type, whisper: gmIds(), content: "", system, rolls: deleted.rolls.map((r) => JSON.stringify(r.toJSON())) });
  if (!created) return null;
  // LOCKS: card <cardId> (only its recordId; the card's revision is unchanged)
  if (needed.card) await needed.card.update(messageUpdate("attack", { "system.recordId": created.id }));
  return created;
}

/** Registers {@link keepRecord} on `deleteChatMessage` (every client; only the active GM writes). */
export function registerKeptRecords(): void {
  Hooks.on("deleteChatMessage", (message: ChatMessage.Implementation) => void keepRecord(message));
}
