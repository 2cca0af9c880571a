/**
 * ChatMessage subtype `impact`: the card of one impact (impact-api.ts), stored whole (the
 * request's id, who asked, what happened to each character) so its model renders it each time
 * it is shown. Only a GM writes one; a card another user wrote is not read.
 */
import { typedObjectField } from "../data/fields";
import { ChatCardModel, type CardOwner } from "../ui/chat-card";
import type { ClickActions } from "../ui/click-actions";
import { IMPACT_CARD_TEMPLATE, impactCardContext, type ImpactSummary } from "./impact-api";
import { RefusalError } from "../core/refusal-texts";

function impactCardSchema() {
  const f = foundry.data.fields;
  return {
    /** The impact request whose card this is: a replay finds it and posts no second card. */
    requestId: new f.StringField({ required: true, blank: true, initial: "" }),
    /** Who asked (the Judge's name). */
    by: new f.StringField({ required: true, blank: true, initial: "" }),
    summary: typedObjectField<ImpactSummary>(),
  };
}
type ImpactCardSchema = ReturnType<typeof impactCardSchema>;

/** The impact card has no buttons: the GM rolls each Kill? check it calls for. */
const NO_ACTIONS: ClickActions<CardOwner> = {};

export class ImpactCardData extends ChatCardModel<ImpactCardSchema> {
  static override defineSchema(): ImpactCardSchema {
    return impactCardSchema();
  }

  override get template(): string {
    return IMPACT_CARD_TEMPLATE;
  }

  override context(): Promise<object> {
    if (this.parent.author?.isGM !== true) return Promise.reject(new RefusalError("notWrittenByGM"));
    return Promise.resolve(impactCardContext(this.summary, this.by));
  }

  override get actions(): ClickActions<CardOwner> {
    return NO_ACTIONS;
  }
}
