/**
 * CASE for Foundry VTT — entry point. Registers everything on Hooks.once("init").
 * Imports point down only: case.ts → foundry/* → rules/*.
 */
import * as rules from "./rules/index";
import { SYSTEM_ID } from "./foundry/constants";
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
  /** The Universal Table in use. A module may replace it with a validated table. */
  universalTable: rules.UniversalTable;
}

Hooks.once("init", () => {
  console.log(`${SYSTEM_ID} | Initialising the Costumed Adventurer Simulation Engine`);
  CONFIG.CASE = { rules, universalTable: rules.UNIVERSAL_TABLE };
  registerSettings();
});
