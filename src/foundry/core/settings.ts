/**
 * World and client settings. Every rules choice CASE-RULES marks as optional or [RULING]
 * that a Judge may want to change is a world setting here; the rules library receives the
 * chosen value as a plain argument.
 */
import {
  DAYS_PER_ENDURANCE_RANK,
  DAYS_PER_ENDURANCE_RANK_MEDICAL,
  HEALTH_PER_DAY_ENDURANCE_FACTOR,
  INITIATIVE_MODES,
  KILL_LOSS_AT_OWN_WRAP_UP,
  STRENGTH_CONTEST_RULES,
  TAKE_AND_FULL_HOLD_BY,
  type StrengthContestRule,
  MEDICAL_CARE_HEALTH_FACTOR,
  REGENERATION_TURNS,
  UNCONSCIOUS_AT_ZERO_HEALTH,
  resolveRecoveryRulings,
  type InitiativeMode,
  type RecoveryRulings,
} from "../../rules/index";
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
    "case.restHealthPerDay": number;
    "case.restMedicalFactor": number;
    "case.restDaysPerEnduranceRank": number;
    "case.restDaysPerEnduranceRankMedical": number;
    "case.regenerationTurns": number;
    "case.unconsciousAtZeroHealth": boolean;
    "case.killLossAtOwnWrapUp": boolean;
    "case.strengthContest": StrengthContestRule;
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
  registerRecoverySettings();
  game.settings.register(SYSTEM_ID, "worldSchemaVersion", {
    scope: "world",
    config: false,
    type: Number,
    default: 0,
  });
}

/**
 * The rest-and-recovery rulings a Judge may change (rules recovery.ts), each defaulting to the
 * rules' [RULING] constant: setting name → the constant and the smallest value it accepts.
 */
export const RECOVERY_SETTINGS = {
  restHealthPerDay: { default: HEALTH_PER_DAY_ENDURANCE_FACTOR, min: 0 },
  restMedicalFactor: { default: MEDICAL_CARE_HEALTH_FACTOR, min: 1 },
  restDaysPerEnduranceRank: { default: DAYS_PER_ENDURANCE_RANK, min: 1 },
  restDaysPerEnduranceRankMedical: { default: DAYS_PER_ENDURANCE_RANK_MEDICAL, min: 1 },
  regenerationTurns: { default: REGENERATION_TURNS, min: 1 },
} as const;

/** The largest value a recovery setting accepts. */
export const RECOVERY_SETTING_MAX = 100;

function registerRecoverySettings(): void {
  for (const [key, spec] of Object.entries(RECOVERY_SETTINGS) as [keyof typeof RECOVERY_SETTINGS, (typeof RECOVERY_SETTINGS)[keyof typeof RECOVERY_SETTINGS]][]) {
    game.settings.register(SYSTEM_ID, key, {
      name: `CASE.Setting.${key}.Name`,
      hint: `CASE.Setting.${key}.Hint`,
      scope: "world",
      config: true,
      type: Number,
      range: { min: spec.min, max: RECOVERY_SETTING_MAX, step: 1 },
      default: spec.default,
    });
  }
  game.settings.register(SYSTEM_ID, "unconsciousAtZeroHealth", {
    name: "CASE.Setting.unconsciousAtZeroHealth.Name",
    hint: "CASE.Setting.unconsciousAtZeroHealth.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: UNCONSCIOUS_AT_ZERO_HEALTH,
  });
  game.settings.register(SYSTEM_ID, "strengthContest", {
    name: "CASE.Setting.strengthContest.Name",
    hint: "CASE.Setting.strengthContest.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("strengthContest", STRENGTH_CONTEST_RULES),
    default: TAKE_AND_FULL_HOLD_BY,
  });
  game.settings.register(SYSTEM_ID, "killLossAtOwnWrapUp", {
    name: "CASE.Setting.killLossAtOwnWrapUp.Name",
    hint: "CASE.Setting.killLossAtOwnWrapUp.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: KILL_LOSS_AT_OWN_WRAP_UP,
  });
}

/** The world's recovery rulings (the settings through the rules' checks: a bad stored value is a clear error). */
export function recoveryRulings(): RecoveryRulings {
  return resolveRecoveryRulings({
    healthPerDayFactor: game.settings.get(SYSTEM_ID, "restHealthPerDay"),
    medicalCareHealthFactor: game.settings.get(SYSTEM_ID, "restMedicalFactor"),
    daysPerEnduranceRank: game.settings.get(SYSTEM_ID, "restDaysPerEnduranceRank"),
    daysPerEnduranceRankMedical: game.settings.get(SYSTEM_ID, "restDaysPerEnduranceRankMedical"),
    regenerationTurns: game.settings.get(SYSTEM_ID, "regenerationTurns"),
    unconsciousAtZeroHealth: game.settings.get(SYSTEM_ID, "unconsciousAtZeroHealth"),
  });
}
