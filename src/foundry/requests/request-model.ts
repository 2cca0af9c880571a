/**
 * ChatMessage subtype `request`: a player's request to the active GM (queries.ts). The server
 * stamps its author, so the GM knows who asked; it is whispered to the GMs and never shown in
 * the chat log. The GM writes its answer onto it, which is how the asker hears back, and how a
 * request already handled is never handled again.
 */
import { CaseMessageModel } from "../data/message-model";

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

export class RequestMessageData extends CaseMessageModel<RequestSchema> {
  static override defineSchema(): RequestSchema {
    return requestSchema();
  }
}

/**
 * ChatMessage subtype `requestClaim`: a GM's claim on a request it handles, whispered to the
 * GMs. Only a GM may write one (the handlers read claims whose author is a GM), so neither the
 * asker nor another player can make a request look unhandled again: the asker may edit its own
 * request message (its author may), including the answer on it, but never a GM's claim. A new
 * active GM skips a request another connected GM has claimed and not finished, finishes one a
 * GM claimed and left (dropped, or itself before a reload), and never runs one whose claim is done.
 */
function requestClaimSchema() {
  const f = foundry.data.fields;
  return {
    /** The request message claimed. */
    requestId: new f.StringField({ required: true, blank: false, initial: "unknown" }),
    /** True once the GM wrote the request's answer. */
    done: new f.BooleanField({ required: true, initial: false }),
  };
}
type RequestClaimSchema = ReturnType<typeof requestClaimSchema>;

export class RequestClaimData extends CaseMessageModel<RequestClaimSchema> {
  static override defineSchema(): RequestClaimSchema {
    return requestClaimSchema();
  }
}
