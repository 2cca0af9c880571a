/**
 * ChatMessage subtype `action`: a FEAT or ACTION roll's card. The roll (a CaseRoll in the
 * message's `rolls`) carries the check, so the model stores nothing but its version; it renders the
 * card from the roll each time the message is shown. A roll this user may not see (a blind or
 * private roll) is left as core renders it.
 */
import { schemaVersionField } from "../data/fields";
import { ChatCardModel, type CardOwner } from "../ui/chat-card";
import type { ClickActions } from "../ui/click-actions";
import { ACTION_CARD_TEMPLATE, CaseRoll } from "./case-roll";

/** Its only field: the version of this (empty) shape, for a later migration. */
export const ACTION_CARD_SCHEMA_VERSION = 1;

function actionCardSchema() {
  return { schemaVersion: schemaVersionField(ACTION_CARD_SCHEMA_VERSION) };
}
type ActionCardSchema = ReturnType<typeof actionCardSchema>;

/** The FEAT card has no buttons. */
const NO_ACTIONS: ClickActions<CardOwner> = {};

export class ActionCardData extends ChatCardModel<ActionCardSchema> {
  static override defineSchema(): ActionCardSchema {
    return actionCardSchema();
  }

  override get template(): string {
    return ACTION_CARD_TEMPLATE;
  }

  override context(): Promise<object> {
    const roll = this.parent.rolls[0];
    if (!(roll instanceof CaseRoll)) return Promise.reject(new RangeError("The FEAT card holds no CASE roll."));
    return Promise.resolve(roll.cardContext());
  }

  override get actions(): ClickActions<CardOwner> {
    return NO_ACTIONS;
  }

  override async renderCard(html: HTMLElement): Promise<void> {
    if (this.parent.isContentVisible) await super.renderCard(html);
  }
}
