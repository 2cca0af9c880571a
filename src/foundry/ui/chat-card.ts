/**
 * A chat card's model: a chat-message model (data/message-model.ts) that is shown, and owns how:
 * it declares its template, builds its context for the user on this client, and lists its click
 * actions (a `ClickActions` table, as an application's `DEFAULT_OPTIONS.actions`). The document
 * class (documents/chat-message.ts) only calls `renderCard`, each time the message is shown, so
 * a reload loses nothing and each client sees what it may do. The shape follows dnd5e's public
 * `ChatMessageDataModel` (`module/data/abstract/chat-message-data-model.mjs`: a template and
 * click actions per message type) and Draw Steel's chat-message models.
 */
import { SYSTEM_PATH } from "../core/constants";
import { CaseMessageModel } from "../data/message-model";
import { listenForActions, type ClickActions } from "./click-actions";
import { describeLogged } from "./error-text";

/** What a card's action runs on: the chat message the card is in. */
export interface CardOwner {
  readonly messageId: string;
}

/** What a card shows when it cannot be read: the error, said on the card. */
export const CARD_ERROR_TEMPLATE = `${SYSTEM_PATH}/templates/chat/roll-error.hbs`;

export abstract class ChatCardModel<Schema extends foundry.data.fields.DataSchema> extends CaseMessageModel<Schema> {
  override get shownInChat(): boolean {
    return true;
  }

  /** The card's Handlebars template (a path under the system's `templates/chat/`). */
  abstract get template(): string;

  /** The card's view for the user on this client: the template's data. */
  abstract context(): Promise<object>;

  /** The card's buttons, by `data-action`; `this` is the card's message. */
  abstract get actions(): ClickActions<CardOwner>;

  /** After the card is in the page, for what is not a click action (hovers, notices). Nothing by default. */
  protected activate(_content: HTMLElement): void {
    // Nothing to add.
  }

  /** After the card is filled in, even with an error: for the card's `case.*` hook. Nothing by default. */
  protected rendered(_html: HTMLElement): void {
    // Nothing to announce.
  }

  /** Fills the rendered message's content with the card for this user and wires its actions; a card that cannot be read says why. */
  async renderCard(html: HTMLElement): Promise<void> {
    const content = html.querySelector<HTMLElement>(".message-content");
    if (!content) return;
    try {
      content.innerHTML = await foundry.applications.handlebars.renderTemplate(this.template, { ...(await this.context()) });
      listenForActions(content, this.actions, { messageId: this.parent.id ?? "" });
      this.activate(content);
    } catch (error) {
      console.error(`case | cannot render a ${this.parent.type} card`, error);
      content.innerHTML = await foundry.applications.handlebars.renderTemplate(CARD_ERROR_TEMPLATE, { message: describeLogged(error), total: null });
    }
    this.rendered(html);
  }
}
