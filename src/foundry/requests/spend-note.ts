/**
 * The GM's whispered note of what a request spends on its asker's own documents (an attack's
 * Karma and ammunition, a roll request's Karma). A request's id is its author's to choose
 * (Foundry's `keepId`), and an actor or a weapon is its owner's to write, so a ledger entry there
 * could be written ahead by the player to skip the spend. Before spending, the GM writes a record
 * (an `attackRecord` whispered to the GMs, naming the request as its origin) with a note whose
 * random nonce the spend's ledger entry carries; an entry counts only with it, and no player ever
 * receives the nonce. A retry finds the note. An attack's card takes this record once made
 * (exchange/card-store.ts).
 */
import type { MessageSystem } from "../data/system-data";

type RecordSystem = Partial<MessageSystem<"attackRecord">>;

/** The id of the spend's note in the record's journal. */
export const SPEND_NOTE = "spend";

/** The GM's record a request began before it spent anything (no card yet), when there is one. */
export function begunRecord(origin: string): ChatMessage.Implementation | null {
  for (const m of game.messages) {
    if (m.type !== "attackRecord" || m.author?.isGM !== true) continue;
    const system = m.system as RecordSystem;
    if (system.origin === origin && !system.cardId) return m;
  }
  return null;
}

/** The nonce of the note a request left before spending, or null when it has not begun. */
export function spendNonce(origin: string): string | null {
  const journal = (begunRecord(origin)?.system as RecordSystem | undefined)?.journal ?? [];
  return journal.find((e) => e.id === SPEND_NOTE)?.nonce ?? null;
}

/** Writes the note of a request's spends (once: a retry finds it); resolves to its nonce. */
export async function beginSpend(origin: string): Promise<string> {
  const found = spendNonce(origin);
  if (found !== null) return found;
  const nonce = foundry.utils.randomID(16);
  const whisper = game.users.filter((u) => u.isGM).map((u) => u.id);
  await ChatMessage.implementation.create({ type: "attackRecord", whisper, content: "", system: { cardId: "", origin, secrets: [], journal: [{ id: SPEND_NOTE, nonce, data: {} }] } });
  return nonce;
}
