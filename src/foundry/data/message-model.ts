/**
 * The one base of the system's chat-message models: every ChatMessage subtype system.json
 * declares has a model that extends this (as dnd5e and Draw Steel give each chat-message type a
 * TypeDataModel that owns its behaviour), so the document class asks the model, never the
 * type. A model here is bookkeeping (requests, claims, the GM's records: never shown in the
 * chat log); a card extends `ChatCardModel` (ui/chat-card.ts), which declares its template,
 * builds its context and lists its actions.
 */
export abstract class CaseMessageModel<Schema extends foundry.data.fields.DataSchema> extends foundry.abstract.TypeDataModel<Schema, ChatMessage.Implementation> {
  /** Whether the chat log shows the message: bookkeeping is visible to nobody (core's ChatLog renders only visible messages). */
  get shownInChat(): boolean {
    return false;
  }
}
