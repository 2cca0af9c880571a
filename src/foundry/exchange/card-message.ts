/**
 * The attack card's model (ChatMessage subtype `attack`, its stored shape in card-model.ts): the
 * card's template, its context for the user on this client and its buttons (card.ts), so the
 * document class only asks the model. Apart from card-model.ts, which the card's own modules
 * read, so that loading them never loads this file.
 */
import type { ExchangeState } from "../../rules/index";
import { ChatCardModel, type CardOwner } from "../ui/chat-card";
import type { ClickActions } from "../ui/click-actions";
import { ATTACK_CARD_TEMPLATE, CARD_ACTIONS, activateAttackCard, announceAttackCard, attackCardView } from "./card";
import { attackCardSchema, readExchange, type AttackCardSchema } from "./card-model";

export class AttackCardData extends ChatCardModel<AttackCardSchema> {
  static override defineSchema(): AttackCardSchema {
    return attackCardSchema();
  }

  override get template(): string {
    return ATTACK_CARD_TEMPLATE;
  }

  override context(): Promise<object> {
    return attackCardView(this.parent);
  }

  override get actions(): ClickActions<CardOwner> {
    return CARD_ACTIONS;
  }

  protected override activate(content: HTMLElement): void {
    activateAttackCard(this.parent, content);
  }

  protected override rendered(html: HTMLElement): void {
    announceAttackCard(this.parent, html);
  }

  /** The exchange, validated; RangeError with a clear message when it cannot be read. */
  get state(): ExchangeState {
    return readExchange(this.exchange);
  }
}

