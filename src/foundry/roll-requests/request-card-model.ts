/**
 * ChatMessage subtype `rollRequest`: the Judge's request for a roll ("Roll Endurance against
 * Incredible"), stored whole in `system.request` (rules roll-request.ts) so the card re-renders
 * from it after a reload. Only a GM writes it: the rows' owners ask the active GM to roll
 * (gm-request.ts), and each answer is one message update.
 */
import { readRollRequest, type RollRequest } from "../../rules/index";
import { schemaVersionField } from "../data/fields";
import type { AnyMutableObject } from "fvtt-types/utils";
import { ChatCardModel, type CardOwner } from "../ui/chat-card";
import type { ClickActions } from "../ui/click-actions";
import { REQUEST_CARD_ACTIONS, ROLL_REQUEST_TEMPLATE, rollRequestCardView } from "./request-card";
// The writer's constants live with the writer, so the client side (and the `[[/case check]]`
// links) load without this class, which needs Foundry's data model classes at load.
import { ROLL_REQUEST_CARD_SCHEMA_VERSION } from "./gm-request";

function rollRequestCardSchema() {
  const f = foundry.data.fields;
  return {
    // Written as a RollRequest; read as a plain object, which readRollRequest checks.
    request: new f.ObjectField<{ required: true }, RollRequest, AnyMutableObject, AnyMutableObject>({ required: true }),
    /** The ids of the requests this card has applied, newest last. */
    requests: new f.ArrayField(new f.StringField({ required: true, blank: false }), { required: true, initial: [] }),
    schemaVersion: schemaVersionField(ROLL_REQUEST_CARD_SCHEMA_VERSION),
  };
}
type RollRequestCardSchema = ReturnType<typeof rollRequestCardSchema>;

export class RollRequestCardData extends ChatCardModel<RollRequestCardSchema> {
  static override defineSchema(): RollRequestCardSchema {
    return rollRequestCardSchema();
  }

  override get template(): string {
    return ROLL_REQUEST_TEMPLATE;
  }

  override context(): Promise<object> {
    return Promise.resolve(rollRequestCardView(this.parent, () => this.state));
  }

  override get actions(): ClickActions<CardOwner> {
    return REQUEST_CARD_ACTIONS;
  }

  /** The request, validated; a RollRequestError with a clear message when it cannot be read. */
  get state(): RollRequest {
    return readRollRequest(this.request);
  }
}
