/**
 * ChatMessage subtype `request`: a player's request to the active GM (queries.ts). The server
 * stamps its author, so the GM knows who asked; it is whispered to the GMs and never shown in
 * the chat log. The GM writes its answer onto it, which is how the asker hears back, and how a
 * request already handled is never handled again.
 */
function requestSchema() {
  const f = foundry.data.fields;
  return {
    /** The query's name (queries.ts). */
    query: new f.StringField({ required: true, blank: false, initial: "unknown" }),
    /** The query's payload: untrusted until the GM parses it. */
    payload: new f.ObjectField({ required: true, initial: {} }),
    /** The GM's answer (a QueryResult), or null while unanswered. */
    answer: new f.ObjectField({ required: true, nullable: true, initial: null }),
  };
}
type RequestSchema = ReturnType<typeof requestSchema>;

export class RequestMessageData extends foundry.abstract.TypeDataModel<RequestSchema, ChatMessage.Implementation> {
  static override defineSchema(): RequestSchema {
    return requestSchema();
  }
}
