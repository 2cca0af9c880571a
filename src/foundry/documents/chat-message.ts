/**
 * The system's ChatMessage class. An `attack` message renders its card (exchange/card.ts), and a
 * `rollRequest` message the Judge's roll request (roll-requests/request-card.ts), each
 * time it is shown, for the user looking at it, so a reload loses nothing and each client
 * sees what it may do. `request`, `requestClaim`, `attackRecord` and `turnRecord` messages are bookkeeping: they
 * are never shown in the chat log.
 */
import { renderAttackCard } from "../exchange/card";
import { renderRollRequestCard } from "../roll-requests/request-card";

/** Message types that are bookkeeping, never shown. */
const HIDDEN_TYPES: ReadonlySet<string> = new Set(["request", "requestClaim", "attackRecord", "turnRecord"]);

export class CaseChatMessage<SubType extends ChatMessage.SubType = ChatMessage.SubType> extends ChatMessage<SubType> {
  /** Bookkeeping messages are visible to nobody in the chat log (core's ChatLog renders only visible messages). */
  override get visible(): boolean {
    return HIDDEN_TYPES.has(this.type) ? false : super.visible;
  }

  override async renderHTML(options?: Parameters<ChatMessage["renderHTML"]>[0]): Promise<HTMLElement> {
    const html = await super.renderHTML(options);
    if (this.type === "attack") await renderAttackCard(this, html);
    else if (this.type === "rollRequest") await renderRollRequestCard(this, html);
    return html;
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    ChatMessage: typeof CaseChatMessage<ChatMessage.SubType>;
  }
  interface ConfiguredChatMessage<SubType extends ChatMessage.SubType> {
    document: CaseChatMessage<SubType>;
  }
}
