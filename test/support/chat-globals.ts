/** A stand-in ChatMessage base class, so the system's ChatMessage subclass module can load. */
const g = globalThis as Record<string, unknown>;
g.ChatMessage ??= class ChatMessage {
  readonly documentName = "ChatMessage";
};
export {};
