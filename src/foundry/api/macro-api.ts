/**
 * What the system's macros (the "Macros" compendium) call, through `CONFIG.CASE.api`: each
 * macro is one line, so a macro keeps working however these change.
 */
import { SYSTEM_PATH } from "../core/constants";
import { rollColumn } from "../column-roll";
import { applyDamage, type DamageSummary } from "./damage-api";
import { columnPromptContext, damagePromptContext, readColumnPrompt, readDamageAmount } from "./macro-forms";
import { rememberedColumn } from "../apps/table/universal-table-app";
import type { CaseRoll } from "../dice/case-roll";
import { askForm } from "../ui/dialogs";

export const COLUMN_PROMPT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/column-roll.hbs`;
export const DAMAGE_PROMPT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/damage-prompt.hbs`;

/** Asks for a column (and, optionally, an attack and a label), then rolls on it. */
export async function promptColumnRoll(): Promise<CaseRoll | null> {
  const content = await foundry.applications.handlebars.renderTemplate(COLUMN_PROMPT_TEMPLATE, columnPromptContext(rememberedColumn(), foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Macro.ColumnPrompt.Title"), content, "CASE.Dialog.Roll", "fa-solid fa-dice-d20");
  if (!form) return null;
  const answer = readColumnPrompt(form);
  if (!answer) {
    ui.notifications.error(game.i18n.localize("CASE.Macro.ColumnPrompt.Invalid"));
    return null;
  }
  return rollColumn(answer.column, { attack: answer.attack, label: answer.label });
}

/** Asks for an amount, then applies it to the actors of the controlled tokens (see applyDamage). */
export async function promptDamageToControlled(): Promise<DamageSummary | null> {
  const tokens = canvas.tokens?.controlled ?? [];
  if (tokens.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Macro.DamagePrompt.NoTokens"));
    return null;
  }
  const content = await foundry.applications.handlebars.renderTemplate(DAMAGE_PROMPT_TEMPLATE, damagePromptContext(tokens.map((t) => t.name), foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Macro.DamagePrompt.Title"), content, "CASE.Macro.DamagePrompt.Apply", "fa-solid fa-heart-crack");
  if (!form) return null;
  const amount = readDamageAmount(form.amount);
  if (amount === null) {
    ui.notifications.error(game.i18n.localize("CASE.Macro.DamagePrompt.Invalid"));
    return null;
  }
  return applyDamage(
    tokens.map((t) => t.document.uuid),
    amount,
  );
}

/**
 * Starts the current combat (Foundry's Begin Combat; the CASE turn keeps its declarations).
 * A notification, and nothing done, when there is no combat, it has started, or the user is
 * not a GM. Resolves to true when the combat was started.
 */
export async function startCombatTurn(): Promise<boolean> {
  const combat = game.combat;
  if (!combat) {
    ui.notifications.warn(game.i18n.localize("CASE.Macro.StartTurn.NoCombat"));
    return false;
  }
  if (combat.started) {
    ui.notifications.info(game.i18n.localize("CASE.Macro.StartTurn.AlreadyStarted"));
    return false;
  }
  if (!game.user.isGM) {
    ui.notifications.warn(game.i18n.localize("CASE.Macro.StartTurn.GMOnly"));
    return false;
  }
  await combat.startCombat();
  return true;
}
