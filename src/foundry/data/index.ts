/**
 * The actors' and items' data models by subtype, matching the documentTypes of system.json
 * (the root, ../register.ts, puts them in CONFIG.<Document>.dataModels). The chat message
 * subtypes' models live with their flows (exchange/, requests/, combat records) and are
 * named to fvtt-types in the root.
 */
import { HeroData, NpcData } from "./actor/character";
import { TeamData } from "./actor/team";
import { ArmorData, ContactData, PowerData, TalentData, WeaponData } from "./item/items";

export const ACTOR_DATA_MODELS = { hero: HeroData, npc: NpcData, team: TeamData } as const;
export const ITEM_DATA_MODELS = {
  power: PowerData,
  talent: TalentData,
  weapon: WeaponData,
  armor: ArmorData,
  contact: ContactData,
} as const;

declare module "fvtt-types/configuration" {
  interface DataModelConfig {
    Actor: {
      hero: typeof HeroData;
      npc: typeof NpcData;
      team: typeof TeamData;
    };
    Item: {
      power: typeof PowerData;
      talent: typeof TalentData;
      weapon: typeof WeaponData;
      armor: typeof ArmorData;
      contact: typeof ContactData;
    };
  }
}
