/**
 * CASE's hidden bookkeeping messages and the chat log's render batch (documents/chat-batch.ts),
 * against the chat log double (test/support/chat-log.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { chatBatchSize, registerChatBatch } from "../../../src/foundry/documents/chat-batch";
import { CORE_BATCH_SIZE, renderedBatch } from "../../support/chat-log";

afterEach(() => {
  vi.unstubAllGlobals();
});

interface Message {
  readonly id: string;
  readonly visible: boolean;
}

/** `shown` visible messages, then a fight's `hidden` records and requests. */
function session(shown: number, hidden: number): Message[] {
  return [...Array.from({ length: shown }, (_, i) => ({ id: `card${String(i)}`, visible: true })), ...Array.from({ length: hidden }, (_, i) => ({ id: `record${String(i)}`, visible: false }))];
}

describe("the chat log's render batch", () => {
  it("requests pruned: hidden records and requests do not use up the chat log's batch; a reload shows core's hundred messages", () => {
    const messages = session(150, 180);
    const hooks = new Map<string, (() => void)[]>();
    const add = (name: string, fn: () => void) => hooks.set(name, [...(hooks.get(name) ?? []), fn]);
    const config = { ChatMessage: { batchSize: CORE_BATCH_SIZE } };
    vi.stubGlobal("CONFIG", config);
    vi.stubGlobal("Hooks", { on: add, once: add });
    vi.stubGlobal("game", { messages: { contents: messages } });
    registerChatBatch();
    for (const fn of hooks.get("ready") ?? []) fn();
    expect(renderedBatch(messages, config.ChatMessage.batchSize)).toHaveLength(CORE_BATCH_SIZE);
    // As the fight goes on, each new record widens the batch again.
    messages.push({ id: "record-new", visible: false });
    for (const fn of hooks.get("createChatMessage") ?? []) fn();
    expect(renderedBatch(messages, config.ChatMessage.batchSize)).toHaveLength(CORE_BATCH_SIZE);
  });

  it("the batch is never smaller than core's, and takes only what it needs", () => {
    expect(chatBatchSize(session(10, 0), CORE_BATCH_SIZE)).toBe(CORE_BATCH_SIZE);
    expect(chatBatchSize(session(500, 0), CORE_BATCH_SIZE)).toBe(CORE_BATCH_SIZE);
    expect(chatBatchSize(session(500, 30), CORE_BATCH_SIZE)).toBe(CORE_BATCH_SIZE + 30);
    expect(chatBatchSize(session(20, 30), CORE_BATCH_SIZE)).toBe(CORE_BATCH_SIZE);
  });
});
