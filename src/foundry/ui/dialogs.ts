/**
 * Shows the attack card's and the combat tracker's small dialogs (DialogV2, each from its
 * Handlebars template under templates/dialog/; dialog-forms.ts holds their data and reading).
 */
import {
  BACK_CONFIRM_TEMPLATE,
  FORCE_CONFIRM_TEMPLATE,
  NOTE_EVENT_TEMPLATE,
  PULL_DAMAGE_TEMPLATE,
  backConfirmContext,
  forceConfirmContext,
  noteEventContext,
  pullDamageContext,
  readNoteEvent,
  readPullDamage,
} from "./dialog-forms";

/**
 * The one form dialog (DialogV2): the content (a rendered template), one default button that
 * returns the form's fields, and Cancel. Resolves to the fields, or null when cancelled or
 * closed.
 */
export async function askForm(title: string, content: string, okLabel: string, icon?: string, action = "ok"): Promise<Record<string, unknown> | null> {
  const form: unknown = await foundry.applications.api.DialogV2.wait({
    window: { title },
    content,
    buttons: [
      {
        action,
        label: okLabel,
        ...(icon ? { icon } : {}),
        default: true,
        callback: (_event, button) => new foundry.applications.ux.FormDataExtended(button.form ?? document.createElement("form")).object,
      },
      { action: "cancel", label: "CASE.Dialog.Cancel", ...(icon ? { icon: "fa-solid fa-xmark" } : {}) },
    ],
    rejectClose: false,
  });
  return typeof form === "object" && form !== null ? (form as Record<string, unknown>) : null;
}

/**
 * Asks the attacker how much damage the pulled blow deals (at most `max`, the damage rolled).
 * Null when cancelled, or when what was typed is not a whole number 0…max (then the user is
 * told so; nothing is asked of the GM).
 */
export async function askPullDamage(max: number): Promise<number | null> {
  const content = await foundry.applications.handlebars.renderTemplate(PULL_DAMAGE_TEMPLATE, pullDamageContext(max, foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Exchange.PullDamage"), content, "CASE.Exchange.PullLabel", undefined, "pull");
  if (!form) return null;
  const damage = readPullDamage(form.damage, max);
  if (damage === null) ui.notifications.error(game.i18n.format("CASE.Exchange.PullDamageInvalid", { max: String(max) }));
  return damage;
}

/** Asks the Judge for an event to note in the wrap-up: the text trimmed, or null when cancelled or left empty. */
export async function askNoteEvent(): Promise<string | null> {
  const content = await foundry.applications.handlebars.renderTemplate(NOTE_EVENT_TEMPLATE, noteEventContext(foundry.utils.randomID()));
  const form = await askForm("CASE.Turn.Notify.EventTitle", content, "CASE.Turn.Button.NoteEvent", undefined, "note");
  return form ? readNoteEvent(form.event) : null;
}

/** Asks the GM whether to move on although the phase still waits (`waiting`, in words). */
export async function confirmForceAdvance(waiting: string | null): Promise<boolean> {
  const content = await foundry.applications.handlebars.renderTemplate(FORCE_CONFIRM_TEMPLATE, forceConfirmContext(waiting));
  const answer: unknown = await foundry.applications.api.DialogV2.confirm({
    window: { title: "CASE.Turn.Notify.ForceTitle" },
    content,
    rejectClose: false,
  });
  return answer === true;
}

/** Asks the Judge to confirm going back one step (`target`: what the turn goes back to, in words). */
export async function confirmStepBack(target: string): Promise<boolean> {
  const content = await foundry.applications.handlebars.renderTemplate(BACK_CONFIRM_TEMPLATE, backConfirmContext(target));
  const answer: unknown = await foundry.applications.api.DialogV2.confirm({
    window: { title: "CASE.Tracker.BackConfirmTitle" },
    content,
    rejectClose: false,
  });
  return answer === true;
}
