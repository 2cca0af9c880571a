/**
 * What the rest of the system calls to make a roll or an attack: sheet buttons, hotbar
 * macros, canvas drops and enrichers all come through here, so there is one path to test.
 */
import { formatSigned } from "../core/format";
import { CaseRoll } from "./case-roll";
import { rollDialog } from "./roll-dialog";
import { DEFAULT_ROLL_INPUT, type RollInput } from "./roll-input";
import type { RollCheck, ShiftReason } from "./roll-check";
import { isItemType } from "../core/guards";
import { POPULARITY_FEAT_KARMA_ALLOWED, RESOURCES_FEAT_KARMA_ALLOWED, popularityColumnValue, resourcesRetryWait, type PopularityAudience, type ScoreRef } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { caseFlag } from "../core/flags";
import { characterData, rollShifts, spendActorKarma } from "./talents";
import { helplessNow, turnRollShifts } from "../combat/turn-feed";


export interface RollOptions {
  /** Skip the dialog (shift-click): roll with no extra shifts, no Karma, no intensity. */
  skipDialog?: boolean;
  /** An intensity set by whoever asked for the roll (a `[[/case check …]]` link): shown in the dialog, not chosen. */
  intensity?: number | null;
}

/**
 * The running turn's part of a FEAT by `actor` (rules turn/shifts.ts, turn/able.ts), read from
 * this client's combat: the turn's shifts on it (a declared dodger's −2 CS, extra actions …),
 * or null, after telling the user, when the character cannot act (Stunned, Unconscious, dying
 * unaided). Outside a running combat: no shifts.
 */
async function featTurn(actor: Actor.Implementation): Promise<ShiftReason[] | null> {
  const bridge = (CONFIG as Partial<CONFIG>).CASE?.router.services.combat;
  const standing = bridge ? await bridge.standing(actor) : null;
  const reason = helplessNow(actor, standing);
  if (reason !== null) {
    ui.notifications.warn(game.i18n.format("CASE.Helpless.Feat", { name: actor.name, reason: game.i18n.localize(`CASE.Helpless.${reason}`) }));
    return null;
  }
  return turnRollShifts(standing, "feat");
}

/** Asks for the roll's input (or takes the defaults when the dialog is skipped). */
async function askInput(subject: string, value: number, karmaPool: number, talents: ShiftReason[], skip: boolean, intensity?: number | null): Promise<RollInput | null> {
  const initial = intensity === undefined ? DEFAULT_ROLL_INPUT : { ...DEFAULT_ROLL_INPUT, intensity };
  if (skip) return initial;
  const talentCs = talents.reduce((s, t) => s + t.cs, 0);
  const labels = talents.map((t) => (t.localize ? game.i18n.localize(t.label) : t.label));
  return rollDialog({ subject, value, karmaPool, talents: labels, talentCs: formatSigned(talentCs), talentShift: talentCs, intensityFixed: intensity !== undefined }, initial);
}

/** The check a roll makes from the dialog's input. */
export function checkFromInput(base: Omit<RollCheck, "shifts" | "karma" | "intensity" | "blindsided">, talents: ShiftReason[], input: RollInput): RollCheck {
  const extra: ShiftReason[] = input.cs === 0 ? [] : [{ cs: input.cs, label: input.reason || "CASE.Dialog.Modifier", localize: input.reason === "" }];
  return { ...base, shifts: [...talents, ...extra], karma: input.karma, intensity: input.intensity, blindsided: input.blindsided };
}

/**
 * Rolls a check for `actor`: spends the Karma first (it is spent whatever the roll; the pool
 * never goes below 0), then rolls and posts the card.
 */
export async function performRoll(actor: Actor.Implementation, check: RollCheck): Promise<CaseRoll | null> {
  const label = check.localizeLabel ? game.i18n.localize(check.label) : check.label;
  if (!(await spendActorKarma(actor, check.karma, game.i18n.format("CASE.KarmaLog.RollReason", { label })))) return null;
  const roll = CaseRoll.fromCheck(check);
  await roll.evaluate();
  await roll.toMessage({ type: "action", speaker: ChatMessage.getSpeaker({ actor }) });
  return roll;
}

/** A FEAT/ACTION roll on an ability or sub-score of `actor`. */
export async function rollScore(actor: Actor.Implementation, score: ScoreRef, options: RollOptions = {}): Promise<CaseRoll | null> {
  const system = characterData(actor);
  if (!system) {
    ui.notifications.error(game.i18n.localize("CASE.Roll.NotACharacter"));
    return null;
  }
  const value = system.score(score);
  const turn = await featTurn(actor);
  if (!turn) return null;
  const talents = [...rollShifts(actor, { score }), ...turn];
  const subject = `${actor.name}: ${game.i18n.localize(`CASE.Score.${score}`)}`;
  const input = await askInput(subject, value, system.karma.value, talents, options.skipDialog === true, options.intensity);
  if (!input) return null;
  const check = checkFromInput({ label: `CASE.Score.${score}`, localizeLabel: true, score, value, needed: null, attack: null }, talents, input);
  return performRoll(actor, check);
}

/** A FEAT/ACTION roll on a power's rank. */
export async function rollItem(item: Item.Implementation, options: RollOptions = {}): Promise<CaseRoll | null> {
  const actor = item.actor;
  if (!actor || !isItemType(item, "power")) {
    ui.notifications.error(game.i18n.localize("CASE.Roll.NotAPower"));
    return null;
  }
  const system = characterData(actor);
  const value = item.system.rank;
  const turn = await featTurn(actor);
  if (!turn) return null;
  const conditions = [...rollShifts(actor, { score: null }), ...turn];
  const input = await askInput(`${actor.name}: ${item.name}`, value, system?.karma.value ?? 0, conditions, options.skipDialog === true);
  if (!input) return null;
  const check = checkFromInput({ label: item.name, localizeLabel: false, score: null, value, needed: null, attack: null }, conditions, input);
  return performRoll(actor, check);
}

/** The FEATs a character's standing rolls: Resources (a rank) and Popularity (a number, may be negative). */
export const STANDING_FEATS = ["resources", "popularity"] as const;
export type StandingFeat = (typeof STANDING_FEATS)[number];

/** True for a {@link StandingFeat} name. */
export function isStandingFeat(value: unknown): value is StandingFeat {
  return typeof value === "string" && (STANDING_FEATS as readonly string[]).includes(value);
}

/** The column a standing FEAT rolls on and whether Karma may be spent on it (rules feats.ts). */
export function standingFeatColumn(feat: StandingFeat, system: { readonly resources: number; readonly popularity: number }, audience: PopularityAudience = "public"): { value: number; karmaAllowed: boolean } {
  if (feat === "resources") return { value: system.resources, karmaAllowed: RESOURCES_FEAT_KARMA_ALLOWED };
  // The public reads a negative Popularity as Shift 0, the underworld its size (rules popularityColumnValue).
  return { value: popularityColumnValue(system.popularity, audience), karmaAllowed: POPULARITY_FEAT_KARMA_ALLOWED };
}

/** The actor's failed Resources FEATs: cost rank → world time (seconds) of the failure (rules `resourcesRetryWait`). */
export function failedResourcesFeats(actor: Actor.Implementation): Record<string, number> {
  return { ...caseFlag(actor.flags, "resourcesFailed") };
}

/**
 * A Resources or Popularity FEAT (rules feats.ts): always through the dialog, which must name
 * the intensity (the item's cost rank, or what is asked); Karma is refused where the ruling
 * forbids it (Resources), with nothing spent. The card shows the colour against the intensity.
 */
export async function rollStandingFeat(actor: Actor.Implementation, feat: StandingFeat, audience: PopularityAudience = "public"): Promise<CaseRoll | null> {
  const system = characterData(actor);
  if (!system) {
    ui.notifications.error(game.i18n.localize("CASE.Roll.NotACharacter"));
    return null;
  }
  const { value, karmaAllowed } = standingFeatColumn(feat, system, audience);
  const label = feat === "resources" ? "CASE.Feat.Resources" : audience === "underworld" ? "CASE.Feat.Underworld" : "CASE.Feat.Popularity";
  const turn = await featTurn(actor);
  if (!turn) return null;
  const conditions = [...rollShifts(actor, { score: null }), ...turn];
  const subject = `${actor.name}: ${game.i18n.localize(label)}`;
  const input = await askInput(subject, value, system.karma.value, conditions, false);
  if (!input) return null;
  if (input.karma > 0 && !karmaAllowed) {
    ui.notifications.error(game.i18n.localize("CASE.Feat.NoKarma"));
    return null;
  }
  if (input.intensity === null) {
    ui.notifications.error(game.i18n.localize("CASE.Feat.NeedsIntensity"));
    return null;
  }
  const failed = failedResourcesFeats(actor);
  const wait = feat === "resources" && String(input.intensity) in failed ? resourcesRetryWait(failed, input.intensity, game.time.worldTime) : 0;
  if (wait > 0) {
    ui.notifications.error(game.i18n.format("CASE.Feat.RetryWait", { days: String(wait) }));
    return null;
  }
  const check = checkFromInput({ label, localizeLabel: true, score: null, value, needed: null, attack: null }, conditions, input);
  const roll = await performRoll(actor, check);
  // A failed Resources FEAT is noted (the owner's own actor) so a retry for that cost waits the week.
  if (feat === "resources" && roll?.outcome?.success === false) await actor.update({ [`flags.${SYSTEM_ID}.resourcesFailed`]: { ...failed, [String(input.intensity)]: game.time.worldTime } } as Actor.UpdateData);
  return roll;
}
