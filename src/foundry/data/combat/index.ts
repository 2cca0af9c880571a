/**
 * The CASE turn's data models for Foundry's default Combat and Combatant type
 * ("base"), so every combat and combatant carries them without a type to pick (as Draw Steel
 * does in v13). system.json declares no Combat/Combatant subtypes for that reason.
 */
import { CaseCombatData } from "./combat";
import { CaseCombatantData } from "./combatant";

/** Foundry's default document subtype. */
export const DEFAULT_DOCUMENT_TYPE = "base";

declare module "fvtt-types/configuration" {
  interface DataModelConfig {
    Combat: {
      base: typeof CaseCombatData;
    };
    Combatant: {
      base: typeof CaseCombatantData;
    };
  }
}

export const COMBAT_DATA_MODELS = { [DEFAULT_DOCUMENT_TYPE]: CaseCombatData } as const;
export const COMBATANT_DATA_MODELS = { [DEFAULT_DOCUMENT_TYPE]: CaseCombatantData } as const;
