/**
 * CASE for Foundry VTT — entry point. The root (foundry/register.ts) makes and wires
 * everything on `init`. Imports point down only: case.ts → foundry/register.ts → foundry/* →
 * rules/*.
 */
import type * as rules from "./rules/index";
import type { CaseApi } from "./foundry/api/index";
import type { CaseRouter } from "./foundry/register";
// Everything runs from the core chunk (start.ts); this entry only loads it, by a fixed name and
// with no named import, so a browser's cached case.mjs of an earlier version still loads the
// system the server has now (vite.config.ts: chunks/core.mjs).
import "./start";

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
  /** This client's request router (the root made it with the services the GM's handlers use). */
  readonly router: CaseRouter;
}
