/**
 * CASE for Foundry VTT — entry point. Registers everything on Hooks.once("init").
 * Imports point down only: case.ts → foundry/* → rules/*.
 */
import * as rules from "./rules/index";
import { SYSTEM_ID } from "./foundry/constants";
import { registerDataModels } from "./foundry/data/index";
import { CaseActor } from "./foundry/documents/actor";
import { CaseItem } from "./foundry/documents/item";
import { registerSettings } from "./foundry/settings";
import "./foundry/fvtt-config";

declare module "fvtt-types/configuration" {
  interface SystemNameConfig {
    name: "case";
  }
}

declare global {
  interface CONFIG {
    /** The CASE system's configuration: the rules library and its data, open to modules. */
    CASE: CaseConfig;
  }
}

export interface CaseConfig {
  /** The pure rules library (src/rules), for macros and modules. */
  readonly rules: typeof rules;
  /** The Universal Table in use. A module may replace it with a table that passes `rules.validateUniversalTable`. */
  universalTable: rules.UniversalTable;
}

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | Initialising the Costumed Adventurer Simulation Engine`);
  CONFIG.CASE = { rules, universalTable: rules.UNIVERSAL_TABLE };
  CONFIG.Actor.documentClass = CaseActor;
  CONFIG.Item.documentClass = CaseItem;
  registerDataModels();
  // Health and Karma are pools whose max is derived: name them as bars for token HUDs.
  CONFIG.Actor.trackableAttributes = {
    hero: { bar: ["health", "karma"], value: ["initiative"] },
    npc: { bar: ["health", "karma"], value: ["initiative"] },
  };
  registerSettings();
});
