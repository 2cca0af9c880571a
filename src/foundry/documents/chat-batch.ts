/**
 * The chat log's render batch and CASE's hidden messages. Core's ChatLog renders the newest
 * `CONFIG.ChatMessage.batchSize` messages (100) and skips those not `visible`; CASE's bookkeeping
 * messages (requests, the GM's records: chat-message.ts) are never visible, so without this a
 * fight's records could fill the batch and a reload would show the players only a few messages.
 */

/**
 * How many of the newest messages the chat log must take for its batch to hold `base` it shows:
 * core's ChatLog renders a batch of the newest `CONFIG.ChatMessage.batchSize` messages and skips
 * those not `visible` (bookkeeping, whispers to others), so hidden ones would use up the batch and
 * a reload mid-session could show only a few messages.
 */
export function chatBatchSize(messages: readonly { readonly visible: boolean }[], base: number): number {
  let shown = 0;
  let taken = 0;
  for (let i = messages.length - 1; i >= 0 && shown < base; i--) {
    taken++;
    if (messages[i]?.visible === true) shown++;
  }
  return Math.max(base, taken);
}

/** Keeps the chat log's batch at core's size in messages shown: widened by the hidden ones among the newest (on ready, and as messages come and go). */
export function registerChatBatch(): void {
  const base = CONFIG.ChatMessage.batchSize;
  const update = (): void => {
    CONFIG.ChatMessage.batchSize = chatBatchSize(game.messages.contents, base);
  };
  Hooks.once("ready", update);
  Hooks.on("createChatMessage", update);
  Hooks.on("deleteChatMessage", update);
}
