/**
 * World and client settings. Every rules choice CASE-RULES marks as optional or [RULING]
 * that a Judge may want to change is a world setting here; the rules library receives the
 * chosen value as a plain argument.
 */
import { INITIATIVE_MODES, type InitiativeMode } from "../../rules/index";
import { SYSTEM_ID } from "./constants";

export const DAMAGE_METHODS = ["static", "intensity"] as const;
export type DamageMethodSetting = (typeof DAMAGE_METHODS)[number];

export const DAMAGE_APPLIED_BY = ["gm", "owners"] as const;
export type DamageAppliedBySetting = (typeof DAMAGE_APPLIED_BY)[number];

/** The initiative modes are the rules' (src/rules/initiative.ts), not a copy. */
export { INITIATIVE_MODES };
export type InitiativeModeSetting = InitiativeMode;

declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "case.damageMethod": DamageMethodSetting;
    "case.initiativeMode": InitiativeModeSetting;
    "case.teamInitiative": boolean;
    "case.declaredDodge": boolean;
    "case.worldSchemaVersion": number;
    "case.damageAppliedBy": DamageAppliedBySetting;
    "case.hideNpcDefences": boolean;
    "case.autoNpcConsequences": boolean;
  }
}

/** Builds `{ value: "CASE.Setting.<name>.<value>" }` choices for a string setting. */
function choices<T extends string>(name: string, values: readonly T[]): Record<T, string> {
  return Object.fromEntries(values.map((v) => [v, `CASE.Setting.${name}.${v}`])) as Record<T, string>;
}

export function registerSettings(): void {
  game.settings.register(SYSTEM_ID, "damageMethod", {
    name: "CASE.Setting.damageMethod.Name",
    hint: "CASE.Setting.damageMethod.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("damageMethod", DAMAGE_METHODS),
    default: "static",
  });
  game.settings.register(SYSTEM_ID, "initiativeMode", {
    name: "CASE.Setting.initiativeMode.Name",
    hint: "CASE.Setting.initiativeMode.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("initiativeMode", INITIATIVE_MODES),
    default: "everyTurn",
  });
  game.settings.register(SYSTEM_ID, "teamInitiative", {
    name: "CASE.Setting.teamInitiative.Name",
    hint: "CASE.Setting.teamInitiative.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(SYSTEM_ID, "declaredDodge", {
    name: "CASE.Setting.declaredDodge.Name",
    hint: "CASE.Setting.declaredDodge.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(SYSTEM_ID, "damageAppliedBy", {
    name: "CASE.Setting.damageAppliedBy.Name",
    hint: "CASE.Setting.damageAppliedBy.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("damageAppliedBy", DAMAGE_APPLIED_BY),
    default: "gm",
  });
  game.settings.register(SYSTEM_ID, "hideNpcDefences", {
    name: "CASE.Setting.hideNpcDefences.Name",
    hint: "CASE.Setting.hideNpcDefences.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(SYSTEM_ID, "autoNpcConsequences", {
    name: "CASE.Setting.autoNpcConsequences.Name",
    hint: "CASE.Setting.autoNpcConsequences.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
  });
  game.settings.register(SYSTEM_ID, "worldSchemaVersion", {
    scope: "world",
    config: false,
    type: Number,
    default: 0,
  });
}
