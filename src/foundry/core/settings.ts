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
  KARMA_KILL_RULINGS,
  KARMA_LOST_FOR_KILL,
  KARMA_POOL_DRAW_LIMIT,
  KARMA_POOL_DRAW_LIMITS,
  type KarmaPoolDrawLimit,
  karmaPoolDrawLimitOf,
  KARMA_AGAINST_DEATH,
  KARMA_ON_CHECKS,
  KARMA_ON_DEFENCE,
  POWER_STUNTS_ALLOWED,
  resolveKarmaRulings,
  type KarmaRulings,
  KILL_LOSS_AT_OWN_WRAP_UP,
  MEDICAL_CARE_HEALTH_FACTOR,
  MINOR_FOE_RULES,
  MINOR_FOE_RULE_DEFAULT,
  DEFAULT_NPC_DEFENCE_MODE,
  NPC_DEFENCE_MODES,
  type NpcDefenceMode,
  REGENERATION_TURNS,
  STRENGTH_CONTEST_RULES,
  TAKE_AND_FULL_HOLD_BY,
  UNCONSCIOUS_AT_ZERO_HEALTH,
  type MinorFoeRule,
  type StrengthContestRule,
  resolveRecoveryRulings,
  type InitiativeMode,
  type KarmaKillRuling,
  type RecoveryRulings,
} from "../../rules/index";
import { SYSTEM_ID } from "./constants";
import { RefusalError } from "./refusal-texts";

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
    "case.attacksInTurn": boolean;
    "case.worldSchemaVersion": number;
    "case.damageAppliedBy": DamageAppliedBySetting;
    "case.hideNpcDefences": boolean;
    "case.autoNpcConsequences": boolean;
    "case.restHealthPerDay": number;
    "case.restMedicalFactor": number;
    "case.restDaysPerEnduranceRank": number;
    "case.restDaysPerEnduranceRankMedical": number;
    "case.slamMovesTokens": boolean;
    "case.lastDefence": string;
    "case.trackerHintFolded": boolean;
    "case.karmaPool": boolean;
    "case.karmaPoolDrawLimit": KarmaPoolDrawLimit;
    "case.karmaLostForKill": KarmaKillRuling;
    "case.karmaPoolState": Record<string, unknown>;
    "case.minorFoeRule": MinorFoeRule;
    "case.regenerationTurns": number;
    "case.unconsciousAtZeroHealth": boolean;
    "case.killLossAtOwnWrapUp": boolean;
    "case.strengthContest": StrengthContestRule;
    "case.npcDefence": NpcDefenceMode;
    "case.karmaOnDefence": boolean;
    "case.karmaOnChecks": boolean;
    "case.karmaAgainstDeath": boolean;
    "case.powerStunts": boolean;
  }
}

/** What a member may draw from the group pool, and the most one move takes: the rules' (karma.ts). */
export { KARMA_POOL_DRAW_LIMITS, MAX_KARMA_POOL_AMOUNT, type KarmaPoolDrawLimit } from "../../rules/index";

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
  // An attack in a running combat is the attacker's action (rules turn/able.ts attackInTurn): on its action it spends it; out of turn it is refused (off: only flagged on the card).
  game.settings.register(SYSTEM_ID, "attacksInTurn", {
    name: "CASE.Setting.attacksInTurn.Name",
    hint: "CASE.Setting.attacksInTurn.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
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
  game.settings.register(SYSTEM_ID, "slamMovesTokens", {
    name: "CASE.Setting.slamMovesTokens.Name",
    hint: "CASE.Setting.slamMovesTokens.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  // The defence this user chose last on a card: what the defence shortcut uses (exchange/defence-shortcut.ts).
  game.settings.register(SYSTEM_ID, "lastDefence", {
    scope: "client",
    config: false,
    type: String,
    default: "",
  });
  // This user folded the tracker's phase hint and waiting list (apps/tracker/combat-tracker.ts).
  game.settings.register(SYSTEM_ID, "trackerHintFolded", {
    scope: "client",
    config: false,
    type: Boolean,
    default: false,
  });
  registerRecoverySettings();
  registerKarmaPoolSettings();
  registerMinorFoeSetting();
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
  // Who picks an NPC's defence on an attack card (rules npc-defence.ts): the Judge by a click, or the Judge's client.
  game.settings.register(SYSTEM_ID, "npcDefence", {
    name: "CASE.Setting.npcDefence.Name",
    hint: "CASE.Setting.npcDefence.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("npcDefence", NPC_DEFENCE_MODES),
    default: DEFAULT_NPC_DEFENCE_MODE,
  });
  game.settings.register(SYSTEM_ID, "killLossAtOwnWrapUp", {
    name: "CASE.Setting.killLossAtOwnWrapUp.Name",
    hint: "CASE.Setting.killLossAtOwnWrapUp.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: KILL_LOSS_AT_OWN_WRAP_UP,
  });
  // The Karma and stunt rulings (rules power-rulings.ts): each a world switch, the ruling its default.
  for (const [key, initial] of [["karmaOnDefence", KARMA_ON_DEFENCE], ["karmaOnChecks", KARMA_ON_CHECKS], ["karmaAgainstDeath", KARMA_AGAINST_DEATH], ["powerStunts", POWER_STUNTS_ALLOWED]] as const) {
    game.settings.register(SYSTEM_ID, key, { name: `CASE.Setting.${key}.Name`, hint: `CASE.Setting.${key}.Hint`, scope: "world", config: true, type: Boolean, default: initial });
  }
}

/** The world's Karma rulings (rules power-rulings.ts), through the rules' checks. */
export function karmaRulings(): KarmaRulings {
  return resolveKarmaRulings({ onDefence: game.settings.get(SYSTEM_ID, "karmaOnDefence"), onChecks: game.settings.get(SYSTEM_ID, "karmaOnChecks"), againstDeath: game.settings.get(SYSTEM_ID, "karmaAgainstDeath") });
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

// ---------------------------------------------------------------------------------------------
// The group Karma pool (rules karma.ts): on or off, the draw limit, and the pool itself. The
// pool is a world setting, so only a GM's client can write it (Foundry refuses a player's
// write of a world setting); players change it through the GM (api/karma-pool.ts).
// ---------------------------------------------------------------------------------------------

/** The pool as stored: the rules' KarmaPool and the requests already applied to it (a retry changes nothing twice). */
export interface StoredKarmaPool {
  readonly total: number;
  readonly contributed: Readonly<Record<string, number>>;
  readonly requests: readonly string[];
}

export const EMPTY_KARMA_POOL: StoredKarmaPool = Object.freeze({ total: 0, contributed: {}, requests: [] });

function registerKarmaPoolSettings(): void {
  game.settings.register(SYSTEM_ID, "karmaPool", {
    name: "CASE.Setting.karmaPool.Name",
    hint: "CASE.Setting.karmaPool.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(SYSTEM_ID, "karmaPoolDrawLimit", {
    name: "CASE.Setting.karmaPoolDrawLimit.Name",
    hint: "CASE.Setting.karmaPoolDrawLimit.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("karmaPoolDrawLimit", KARMA_POOL_DRAW_LIMITS),
    default: KARMA_POOL_DRAW_LIMIT,
  });
  game.settings.register(SYSTEM_ID, "karmaLostForKill", {
    name: "CASE.Setting.karmaLostForKill.Name",
    hint: "CASE.Setting.karmaLostForKill.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("karmaLostForKill", KARMA_KILL_RULINGS),
    default: KARMA_LOST_FOR_KILL,
  });
  game.settings.register(SYSTEM_ID, "karmaPoolState", {
    scope: "world",
    config: false,
    type: Object,
    default: { ...EMPTY_KARMA_POOL },
  });
}

/** Whether the world uses a group Karma pool. */
export function karmaPoolEnabled(): boolean {
  return game.settings.get(SYSTEM_ID, "karmaPool");
}

/** The world's draw limit (a stored value that is not one of the choices is a clear error). */
/**
 * The active GM on `ready`: a stored draw limit this version does not offer (an older version's
 * name for a choice) is set back to the ruling's, and the GM is told what it held. Nothing
 * happens to a limit this version offers.
 */
export async function settleKarmaPoolDrawLimit(): Promise<void> {
  const stored: unknown = game.settings.get(SYSTEM_ID, "karmaPoolDrawLimit");
  if (KARMA_POOL_DRAW_LIMITS.some((v) => v === stored)) return;
  await game.settings.set(SYSTEM_ID, "karmaPoolDrawLimit", KARMA_POOL_DRAW_LIMIT);
  ui.notifications.warn(
    game.i18n.format("CASE.Setting.ChoiceReset", {
      setting: game.i18n.localize("CASE.Setting.karmaPoolDrawLimit.Name"),
      stored: String(stored),
      now: game.i18n.localize(`CASE.Setting.karmaPoolDrawLimit.${KARMA_POOL_DRAW_LIMIT}`),
    }),
  );
}

export function karmaPoolDrawLimit(): KarmaPoolDrawLimit {
  return karmaPoolDrawLimitOf(game.settings.get(SYSTEM_ID, "karmaPoolDrawLimit"));
}

/** The world's ruling on the Karma a kill costs (a stored value that is not one of the choices is a clear error). */
export function karmaLostForKillRuling(): KarmaKillRuling {
  const value: unknown = game.settings.get(SYSTEM_ID, "karmaLostForKill");
  const found = KARMA_KILL_RULINGS.find((v) => v === value);
  // Said to the Judge who meets it (the award is theirs), named as the settings name it.
  if (!found) throw new RefusalError("settingBad", { setting: game.i18n.localize("CASE.Setting.karmaLostForKill.Name"), stored: String(value).slice(0, 100) });
  return found;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The stored pool, checked (RangeError naming what is wrong: a broken pool is never read as empty). */
export function readKarmaPool(raw: unknown): StoredKarmaPool {
  if (raw === undefined || raw === null) return EMPTY_KARMA_POOL;
  if (typeof raw !== "object") throw new RangeError("The stored group Karma pool is not an object.");
  const r = raw as Record<string, unknown>;
  if (!isCount(r.total)) throw new RangeError(`The stored group Karma pool's total (${String(r.total)}) is not a whole number of 0 or more.`);
  const contributed: unknown = r.contributed ?? {};
  if (typeof contributed !== "object" || contributed === null || Object.values(contributed).some((v) => typeof v !== "number" || !Number.isInteger(v))) {
    throw new RangeError("The stored group Karma pool's contributions are not whole numbers.");
  }
  const requests = Array.isArray(r.requests) ? r.requests.filter((x): x is string => typeof x === "string") : [];
  return { total: r.total, contributed: contributed as Record<string, number>, requests };
}

/** The world's group Karma pool. */
export function karmaPoolState(): StoredKarmaPool {
  return readKarmaPool(game.settings.get(SYSTEM_ID, "karmaPoolState"));
}
/** What happens to a minor foe (an NPC marked "minor") hit by an attack: the rules' MINOR_FOE_RULES. */
function registerMinorFoeSetting(): void {
  game.settings.register(SYSTEM_ID, "minorFoeRule", {
    name: "CASE.Setting.minorFoeRule.Name",
    hint: "CASE.Setting.minorFoeRule.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: choices("minorFoeRule", MINOR_FOE_RULES),
    default: MINOR_FOE_RULE_DEFAULT,
  });
}
