/**
 * Registers the system's data models: CONFIG.<Document>.dataModels[type] = model, matching
 * the documentTypes of system.json.
 */
import { HeroData, NpcData } from "./actor/character";
import { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "./item/items";
import { AttackMessageData, AttackRecordData } from "../exchange/card-model";
import { RequestMessageData } from "../requests/request-model";
import { TurnRecordData } from "./combat/turn-record";

export const ACTOR_DATA_MODELS = { hero: HeroData, npc: NpcData } as const;
export const ITEM_DATA_MODELS = {
  power: PowerData,
  talent: TalentData,
  weapon: WeaponData,
  armor: ArmorData,
  contact: ContactData,
} as const;
export const CHAT_MESSAGE_DATA_MODELS = { attack: AttackMessageData, attackRecord: AttackRecordData, request: RequestMessageData, turnRecord: TurnRecordData } as const;

declare module "fvtt-types/configuration" {
  interface DataModelConfig {
    Actor: {
      hero: typeof HeroData;
      npc: typeof NpcData;
    };
    Item: {
      power: typeof PowerData;
      talent: typeof TalentData;
      weapon: typeof WeaponData;
      armor: typeof ArmorData;
      contact: typeof ContactData;
    };
    ChatMessage: {
      attack: typeof AttackMessageData;
      attackRecord: typeof AttackRecordData;
      request: typeof RequestMessageData;
      turnRecord: typeof TurnRecordData;
    };
  }
}

export function registerDataModels(): void {
  Object.assign(CONFIG.Actor.dataModels, ACTOR_DATA_MODELS);
  Object.assign(CONFIG.Item.dataModels, ITEM_DATA_MODELS);
  Object.assign(CONFIG.ChatMessage.dataModels, CHAT_MESSAGE_DATA_MODELS);
}
