/**
 * Minor foes ("mooks"): an optional rule that takes henchmen out faster, and groups that declare
 * and act as one. CASE has no such rule; the options follow the other games the reference names
 * as the bar: 002 (Feng Shui) "unnamed characters" are out of the fight on a good enough hit,
 * 004 (Mutants & Masterminds) minions "suffer the worst degree of the effect" when they fail a
 * resistance check. Both are offered as settings; the default is CASE as written.
 */
import { assertAttackResult, type AttackResult } from "./attacks";
import { assertD10, consequenceCheck, type ConsequenceCheck } from "./consequences";
import { assertArray, assertBooleanValue, assertInteger, assertObject, assertOneOfValues, assertWholeNumber } from "./checks";
import type { InitiativeSettings } from "./initiative";
import { RulesRangeError, RulesTypeError } from "./errors";

/**
 * The minor-foe rules: "normal" (CASE as written: Health, Slam?/Stun?/Kill? as for anyone),
 * "outOnAnyDamage" (002: a hit that does damage after protection takes the foe out),
 * "outOnSlamOrStun" (004: a Slam, Stun or Kill result that did damage takes the foe out with no
 * check rolled: the worst degree).
 */
export const MINOR_FOE_RULES = ["normal", "outOnAnyDamage", "outOnSlamOrStun"] as const;
export type MinorFoeRule = (typeof MINOR_FOE_RULES)[number];

/** [RULING] The default minor-foe rule: CASE as written. A world setting picks another. */
export const MINOR_FOE_RULE_DEFAULT: MinorFoeRule = "normal";

/** What happens to a minor foe hit by an attack. */
export interface MinorFoeOutcome {
  /** The foe is out of the fight (the Foundry side marks it defeated). */
  readonly out: boolean;
  /** The Slam?/Stun?/Kill? check still to roll, or null (none due, or the foe is already out). */
  readonly check: ConsequenceCheck | null;
}

/**
 * A minor foe's fate after an attack with result `result` dealt `damageDealt` (after
 * protection), under `rule`. A non-minor character is always "normal".
 */
export function minorFoeOutcome(result: AttackResult, damageDealt: number, rule: MinorFoeRule = MINOR_FOE_RULE_DEFAULT): MinorFoeOutcome {
  assertAttackResult(result);
  assertWholeNumber(damageDealt, "damageDealt");
  assertOneOfValues(rule, MINOR_FOE_RULES, "minorFoeRule");
  const check = consequenceCheck(result, damageDealt);
  switch (rule) {
    case "normal":
      return { out: false, check };
    case "outOnAnyDamage":
      return damageDealt > 0 ? { out: true, check: null } : { out: false, check: null };
    case "outOnSlamOrStun":
      return check !== null ? { out: true, check: null } : { out: false, check: null };
  }
}

/**
 * [RULING] Under a rule other than "normal", a minor foe whose Health reaches 0 is out of the
 * fight too, with no Kill? check: the rule makes mooks easier to take out, never harder.
 */
export const MINOR_FOE_OUT_AT_ZERO_HEALTH = true as boolean;

/**
 * A minor foe's fate when the damage is applied: {@link minorFoeOutcome}, and under a rule other
 * than "normal" also out when the damage took its Health to 0 ({@link MINOR_FOE_OUT_AT_ZERO_HEALTH}).
 */
export function minorFoeAfterDamage(result: AttackResult, damageDealt: number, healthAfter: number, rule: MinorFoeRule = MINOR_FOE_RULE_DEFAULT): MinorFoeOutcome {
  const outcome = minorFoeOutcome(result, damageDealt, rule);
  assertWholeNumber(healthAfter, "healthAfterTheDamage");
  if (rule !== "normal" && !outcome.out && MINOR_FOE_OUT_AT_ZERO_HEALTH && damageDealt > 0 && healthAfter === 0) return { out: true, check: null };
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Groups: one declaration, one initiative
// ---------------------------------------------------------------------------------------------

/**
 * How a group of minor foes picks the one initiative modifier it rolls with: "first" (its
 * leader, listed first: 001's team tactic "have one character roll"), "best" or "worst".
 */
export const GROUP_INITIATIVE_PICKS = ["first", "best", "worst"] as const;
export type GroupInitiativePick = (typeof GROUP_INITIATIVE_PICKS)[number];

/** [RULING] A group rolls initiative with its leader's (the first member's) modifier [001 team initiative]. */
export const GROUP_INITIATIVE_PICK_DEFAULT: GroupInitiativePick = "first";

/** The Table 23 modifier a group rolls with (RangeError for an empty group or a bad modifier). */
export function groupInitiativeModifier(modifiers: readonly number[], pick: GroupInitiativePick = GROUP_INITIATIVE_PICK_DEFAULT): number {
  assertArray(modifiers, { input: "groupInitiativeModifiers" });
  if (modifiers.length === 0) throw new RulesRangeError("groupNoMembers");
  modifiers.forEach((m, i) => {
    assertInteger(m, ["memberInitiativeModifier", i + 1]);
  });
  assertOneOfValues(pick, GROUP_INITIATIVE_PICKS, "groupInitiativePick");
  if (pick === "first") return modifiers[0] as number;
  return pick === "best" ? Math.max(...modifiers) : Math.min(...modifiers);
}

/** The initiative every member of a group acts on: one d10 plus the group's modifier [001]. */
export function groupInitiative(d10: number, modifiers: readonly number[], pick: GroupInitiativePick = GROUP_INITIATIVE_PICK_DEFAULT): number {
  assertD10(d10);
  return d10 + groupInitiativeModifier(modifiers, pick);
}

/** The team a group of minor foes takes in the turn (team initiative in rules/turn): one roll, one unit. */
export const MINOR_FOE_GROUP_PREFIX = "minor:";

/**
 * The turn's initiative settings with minor-foe groups in the fight ({@link minorFoeGroups}): a
 * group rolls as a team, so with a group present (and the world's team initiative off) team
 * initiative is on, and only the groups' members have a team ({@link initiativeTeamOf}): everyone
 * else is a unit of one. Otherwise the settings stand (the same object).
 */
export function initiativeWithMinorGroups(settings: InitiativeSettings, anyGroup: boolean): InitiativeSettings {
  assertObject(settings, { input: "initiativeSettings" });
  assertBooleanValue(settings.team, "teamInitiative");
  assertBooleanValue(anyGroup, "anyMinorFoeGroup");
  return anyGroup && !settings.team ? { ...settings, team: true } : settings;
}

/**
 * The team a combatant rolls initiative with: under the world's team initiative its side's
 * (`sideTeam`: its own team, or the players' or the Judge's); otherwise its minor-foe group's,
 * or none (a unit of one).
 */
export function initiativeTeamOf(worldTeamInitiative: boolean, sideTeam: string, minorGroup: string | null): string | null {
  assertBooleanValue(worldTeamInitiative, "teamInitiative");
  if (typeof sideTeam !== "string") throw new RulesTypeError("notText", { field: "sideTeam", got: String(sideTeam) });
  if (minorGroup !== null && typeof minorGroup !== "string") throw new RulesTypeError("notText", { field: "minorFoeGroup", got: String(minorGroup) });
  return worldTeamInitiative ? sideTeam : minorGroup;
}

/** A combatant as grouping sees it. */
export interface MinorFoeCandidate {
  readonly id: string;
  /** Its character is flagged a minor foe. */
  readonly minor: boolean;
  readonly playerOwned: boolean;
  /** The base actor its token was made from (unlinked tokens of one actor share it); null without one. */
  readonly baseActorId: string | null;
}

/**
 * [RULING] Minor foes grouped: the Judge's minor foes (never a player's) made from the same base
 * actor form one group when there are two or more of them, with one declaration and one
 * initiative (the group rolls as a team, [001] team initiative). The group's key by member id;
 * a combatant in no group is absent.
 */
export function minorFoeGroups(candidates: readonly MinorFoeCandidate[]): ReadonlyMap<string, string> {
  const byBase = new Map<string, string[]>();
  for (const c of candidates) {
    if (!c.minor || c.playerOwned || c.baseActorId === null || c.baseActorId === "") continue;
    const members = byBase.get(c.baseActorId);
    if (members) members.push(c.id);
    else byBase.set(c.baseActorId, [c.id]);
  }
  const out = new Map<string, string>();
  for (const [base, members] of byBase) if (members.length >= 2) for (const id of members) out.set(id, `${MINOR_FOE_GROUP_PREFIX}${base}`);
  return out;
}
