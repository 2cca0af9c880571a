/**
 * Foundry's chat log as far as its render batch goes (a double).
 *
 * What it models (public: Foundry v13 and v14 API pages, `CONFIG.ChatMessage.batchSize` and the
 * ChatLog sidebar's batch rendering): the log renders the newest `CONFIG.ChatMessage.batchSize`
 * messages of `game.messages` (100 by default), oldest first, and skips each one whose `visible`
 * is false for this user; scrolling up renders the batch before it. A hidden message therefore
 * takes a slot of the batch without showing.
 */

/** Core's default batch size. */
export const CORE_BATCH_SIZE = 100;

/** The messages the chat log shows on render (its first batch), given the batch size in CONFIG. */
export function renderedBatch<T extends { readonly visible: boolean }>(messages: readonly T[], batchSize: number): T[] {
  return messages.slice(Math.max(0, messages.length - batchSize)).filter((m) => m.visible);
}
