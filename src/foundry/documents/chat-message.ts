/**
 * The system's ChatMessage class. It asks the message's model, never its type: a card's model
 * (ui/chat-card.ts `ChatCardModel`: the attack card, the roll request, the impact card, the FEAT
 * card) renders it each time it is shown, for the user looking at it, so a reload loses nothing
 * and each client sees what it may do; bookkeeping models (requests, claims, the GM's records,
 * data/message-model.ts) are never shown in the chat log.
 */
import { CaseMessageModel } from "../data/message-model";
import { ChatCardModel } from "../ui/chat-card";

export class CaseChatMessage<SubType extends ChatMessage.SubType = ChatMessage.SubType> extends ChatMessage<SubType> {
  /** What the model says: bookkeeping is visible to nobody (core's ChatLog renders only visible messages). */
  override get visible(): boolean {
    const model: unknown = this.system;
    return model instanceof CaseMessageModel && !model.shownInChat ? false : super.visible;
  }

  override async renderHTML(options?: Parameters<ChatMessage["renderHTML"]>[0]): Promise<HTMLElement> {
    const html = await super.renderHTML(options);
    const model: unknown = this.system;
    if (model instanceof ChatCardModel) await model.renderCard(html);
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
