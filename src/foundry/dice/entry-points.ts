/**
 * What the rest of the system calls to make a roll or an attack: sheet buttons, hotbar
 * macros, canvas drops and enrichers all come through here, so there is one path to test.
 */
import { formatCs } from "./action-card";
import { CaseRoll } from "./case-roll";
import { rollDialog } from "./roll-dialog";
import { DEFAULT_ROLL_INPUT, type RollInput } from "./roll-input";
import type { RollCheck, ShiftReason } from "./roll-check";
import { isItemType } from "../documents/guards";
import { spendKarma, type ScoreRef } from "../../rules/index";
import { characterData, talentShifts } from "./talents";

export { makeAttack, type AttackOptions } from "../chat/make-attack";

export interface RollOptions {
  /** Skip the dialog (shift-click): roll with no extra shifts, no Karma, no intensity. */
  skipDialog?: boolean;
}

/** Asks for the roll's input (or takes the defaults when the dialog is skipped). */
async function askInput(subject: string, value: number, karmaPool: number, talents: ShiftReason[], skip: boolean): Promise<RollInput | null> {
  if (skip) return DEFAULT_ROLL_INPUT;
  const talentCs = talents.reduce((s, t) => s + t.cs, 0);
  return rollDialog({ subject, value, karmaPool, talents: talents.map((t) => t.label), talentCs: formatCs(talentCs) });
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
  const system = characterData(actor);
  if (check.karma > 0) {
    if (!system) return null;
    let pool: number;
    try {
      pool = spendKarma(system.karma.value, check.karma);
    } catch (error) {
      ui.notifications.error(error instanceof Error ? error.message : String(error));
      return null;
    }
    await actor.update({ "system.karma.value": pool } as Actor.UpdateData);
  }
  const roll = CaseRoll.fromCheck(check);
  await roll.evaluate();
  await roll.toMessage({ speaker: ChatMessage.getSpeaker({ actor }) });
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
  const talents = talentShifts(actor, score);
  const subject = `${actor.name}: ${game.i18n.localize(`CASE.Score.${score}`)}`;
  const input = await askInput(subject, value, system.karma.value, talents, options.skipDialog === true);
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
  const input = await askInput(`${actor.name}: ${item.name}`, value, system?.karma.value ?? 0, [], options.skipDialog === true);
  if (!input) return null;
  const check = checkFromInput({ label: item.name, localizeLabel: false, score: null, value, needed: null, attack: null }, [], input);
  return performRoll(actor, check);
}
