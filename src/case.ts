/**
 * CASE for Foundry VTT — entry point. Registers everything on Hooks.once("init").
 * Imports point down only: case.ts → foundry/* → rules/*.
 */
import * as rules from "./rules/index";
import { SYSTEM_ID } from "./foundry/core/constants";
import { registerDataModels } from "./foundry/data/index";
import { CaseActor } from "./foundry/documents/actor";
import { CaseItem } from "./foundry/documents/item";
import { registerSettings } from "./foundry/core/settings";
import { CASE_API, type CaseApi } from "./foundry/api/index";
import { preloadSheetTemplates, registerSheets } from "./foundry/apps/index";
import { registerCanvasDropHook } from "./foundry/hooks/canvas-drop";
import { registerHotbarHook } from "./foundry/hooks/hotbar";
import { CaseChatMessage } from "./foundry/documents/chat-message";
import { CaseRoll } from "./foundry/dice/case-roll";
import { registerCardQueries } from "./foundry/exchange/gm-actions";
import { attackQuery } from "./foundry/exchange/make-attack";
import { registerQuery, registerRequestHooks } from "./foundry/requests/gm";
import { registerHandlebarsHelpers } from "./foundry/core/handlebars-helpers";
import { registerStatusEffects } from "./foundry/status-effects";
import { registerCombatTurn } from "./foundry/combat/register";
import { migrateWorld } from "./foundry/world-migration";
import { registerEnrichers } from "./foundry/enrichers";
import { registerUniversalTableSetting } from "./foundry/apps/universal-table-app";
import { registerUniversalTableControls } from "./foundry/hooks/reference-controls";
import { applyDamageApiQuery } from "./foundry/api/damage-api";
import { REFERENCE_API } from "./foundry/api/reference-api";
import { registerSelfTest } from "./foundry/self-test/quench";
import "./foundry/core/fvtt-config";

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
  /** Stable functions for macros and modules, e.g. `CONFIG.CASE.api.attackWithItem(uuid)` (hotbar attack macros call it). */
  readonly api: CaseApi;
}

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | Initialising the Costumed Adventurer Simulation Engine`);
  CONFIG.CASE = { rules, universalTable: rules.UNIVERSAL_TABLE, api: Object.freeze({ ...CASE_API, ...REFERENCE_API }) };
  CONFIG.Actor.documentClass = CaseActor;
  CONFIG.Item.documentClass = CaseItem;
  CONFIG.ChatMessage.documentClass = CaseChatMessage;
  CONFIG.Dice.rolls.push(CaseRoll);
  registerDataModels();
  registerCardQueries(registerQuery);
  registerQuery(attackQuery);
  registerQuery(applyDamageApiQuery);
  registerRequestHooks();
  registerStatusEffects();
  registerHandlebarsHelpers();
  // Health and Karma are pools whose max is derived: name them as bars for token HUDs.
  CONFIG.Actor.trackableAttributes = {
    hero: { bar: ["health", "karma"], value: ["initiative"] },
    npc: { bar: ["health", "karma"], value: ["initiative"] },
  };
  registerSettings();
  registerUniversalTableSetting();
  registerUniversalTableControls();
  registerEnrichers();
  registerSheets();
  void preloadSheetTemplates();
  registerHotbarHook();
  registerCanvasDropHook();
  registerCombatTurn();
  registerSelfTest();
});

Hooks.once("ready", () => {
  void migrateWorld();
});
