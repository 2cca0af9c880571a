/**
 * The small dialogs of the attack card and the combat tracker (pure: their templates, their
 * template data and the reading of what was typed), so each is tested with its real template.
 * dialogs.ts shows them.
 */
import { DECLARATION_TEXT_MAX } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { readWhole } from "../core/format";

/** The attacker's "Less damage…" prompt on an attack card. */
export const PULL_DAMAGE_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/pull-damage.hbs`;
/** The Judge's "Note an event" prompt in the tracker's wrap-up. */
export const NOTE_EVENT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/note-event.hbs`;
/** The GM's "Move on?" question when the phase still waits for someone. */
export const FORCE_CONFIRM_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/force-confirm.hbs`;
export const BACK_CONFIRM_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/back-confirm.hbs`;

/** Every template here, for preloading and for the tests. */
export const DIALOG_FORM_TEMPLATES = [PULL_DAMAGE_TEMPLATE, NOTE_EVENT_TEMPLATE, FORCE_CONFIRM_TEMPLATE, BACK_CONFIRM_TEMPLATE] as const;

/**
 * The most damage a pulled blow may deal, from the card button's `data-max` (the rolled
 * damage): a whole number 0 or more. Anything else is a card this client cannot read, an error.
 */
export function pullDamageMax(text: string | undefined): number {
  const max = text === undefined || text.trim() === "" ? Number.NaN : Number(text);
  if (!Number.isInteger(max) || max < 0) throw new Error(`The card's pull button has no readable maximum damage ("${String(text)}").`);
  return max;
}

/** The pull-damage prompt's template data: the field starts at the damage rolled. */
export function pullDamageContext(max: number, id: string) {
  return { id, max, value: max };
}

/** The damage typed in the pull-damage prompt: a whole number 0…max, else null (refused, never rounded or clamped). */
export function readPullDamage(value: unknown, max: number): number | null {
  return readWhole(value, { min: 0, max });
}

/** The note-event prompt's template data. */
export function noteEventContext(id: string) {
  return { id, maxLength: DECLARATION_TEXT_MAX };
}

/** The event typed, trimmed; null when nothing was typed (nothing to note). */
export function readNoteEvent(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return text === "" ? null : text;
}

/** The force-confirm question's template data: who the phase still waits for (already in words). */
export function forceConfirmContext(waiting: string | null) {
  return { waiting: waiting ?? "" };
}

/** The back-one-step question's template data: what the turn goes back to (already in words). */
export function backConfirmContext(target: string) {
  return { target };
}
