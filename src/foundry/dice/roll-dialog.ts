/**
 * The dialog before an ACTION: column shifts, intensity, Karma, blindsided. Re-asks with the
 * values kept when an entry is refused, so nothing typed is lost.
 */
import { KARMA_MINIMUM, RANKS, rankOf } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { parseRollInput, DEFAULT_ROLL_INPUT, type RollInput } from "./roll-input";

export const ROLL_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/roll-dialog.hbs`;

export interface RollDialogSubject {
  /** What is rolled, shown as the title. */
  readonly subject: string;
  readonly value: number;
  readonly karmaPool: number;
  /** Names of the talents that apply, and their total shift. */
  readonly talents: readonly string[];
  readonly talentCs: string;
  /** The intensity is set by whoever asked for the roll (a Judge's request): shown, not chosen. */
  readonly intensityFixed?: boolean;
}

/** The dialog's template data (exported for tests). */
export function rollDialogContext(subject: RollDialogSubject, input: RollInput, id: string) {
  return {
    ...subject,
    id,
    input,
    karmaMinimum: KARMA_MINIMUM,
    rankKey: `CASE.Rank.${rankOf(subject.value).key}`,
    intensityFixed: subject.intensityFixed === true,
    intensityKey: input.intensity === null ? null : `CASE.Rank.${rankOf(input.intensity).key}`,
    ranks: RANKS.map((r) => ({ number: r.number, labelKey: `CASE.Rank.${r.key}`, selected: input.intensity === r.number })),
  };
}

/** Shows the dialog (filled with `initial`); resolves to the player's validated input, or null when cancelled. */
export async function rollDialog(subject: RollDialogSubject, initial: RollInput = DEFAULT_ROLL_INPUT): Promise<RollInput | null> {
  let input: RollInput = initial;
  for (;;) {
    const content = await foundry.applications.handlebars.renderTemplate(ROLL_DIALOG_TEMPLATE, rollDialogContext(subject, input, foundry.utils.randomID()));
    const form: unknown = await foundry.applications.api.DialogV2.wait({
      window: { title: subject.subject },
      content,
      buttons: [
        {
          action: "roll",
          label: "CASE.Dialog.Roll",
          icon: "fa-solid fa-dice-d20",
          default: true,
          callback: (_event, button) => {
            const data = new foundry.applications.ux.FormDataExtended(button.form ?? document.createElement("form"));
            return data.object;
          },
        },
        { action: "cancel", label: "CASE.Dialog.Cancel", icon: "fa-solid fa-xmark" },
      ],
      rejectClose: false,
    });
    if (typeof form !== "object" || form === null) return null;
    const parsed = parseRollInput(form as Record<string, unknown>, subject.karmaPool);
    if (parsed.ok) return parsed.value;
    ui.notifications.error(game.i18n.format(parsed.errorKey, parsed.data ?? {}));
    const f = form as Record<string, unknown>;
    input = {
      cs: Number(f.cs) || 0,
      reason: typeof f.reason === "string" ? f.reason : "",
      intensity: f.intensity ? Number(f.intensity) : null,
      karma: Number(f.karma) || 0,
      blindsided: f.blindsided === true,
    };
  }
}
