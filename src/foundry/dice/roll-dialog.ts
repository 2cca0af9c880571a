/**
 * The dialog before an ACTION: column shifts, intensity, Karma, blindsided. Re-asks with the
 * values kept when an entry is refused, so nothing typed is lost. While the player types, a
 * preview under the fields shows the column after shifts, the colour needed and the odds
 * (rules `previewAction`), or says which entry is refused.
 */
import { COLORS, IMPOSSIBLE, KARMA_MINIMUM, RANKS, previewAction, rankOf } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { formatSigned } from "../core/format";
import { parseRollInput, DEFAULT_ROLL_INPUT, type RollInput } from "./roll-input";

export const ROLL_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/roll-dialog.hbs`;
export const ROLL_PREVIEW_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/roll-preview.hbs`;

export interface RollDialogSubject {
  /** What is rolled, shown as the title. */
  readonly subject: string;
  readonly value: number;
  readonly karmaPool: number;
  /** Names of the talents that apply, and their total shift (as shown, and as a number). */
  readonly talents: readonly string[];
  readonly talentCs: string;
  readonly talentShift: number;
  /** The intensity is set by whoever asked for the roll (a Judge's request): shown, not chosen. */
  readonly intensityFixed?: boolean;
}

/** The preview under the dialog's fields: what the roll will be read on and what it needs, or the refused entry. */
export type RollPreview =
  | {
      readonly ok: true;
      /** The total column shift ("+2"), null when none. */
      readonly cs: string | null;
      readonly columnKey: string;
      /** The shifts moved the column. */
      readonly moved: boolean;
      readonly belowShift0: boolean;
      /** `CASE.Color.<colour>` of the colour needed (or Impossible). */
      readonly requiredKey: string;
      readonly impossible: boolean;
      readonly odds: readonly { readonly color: string; readonly letterKey: string; readonly labelKey: string; readonly percent: number }[];
      /** The chance of success in per cent, Karma counted. */
      readonly success: number;
      readonly karma: number;
    }
  | { readonly ok: false; readonly errorKey: string; readonly data: Readonly<Record<"max" | "min" | "pool", string>> };

/** The live preview for the dialog's current form values (exported for tests). */
export function rollPreviewContext(subject: RollDialogSubject, form: Record<string, unknown>): RollPreview {
  const parsed = parseRollInput(form, subject.karmaPool);
  // Every message's fields, so the template reads each whether or not this message has it.
  if (!parsed.ok) return { ok: false, errorKey: parsed.errorKey, data: { max: "", min: "", pool: "", ...parsed.data } };
  const input = parsed.value;
  const total = subject.talentShift + input.cs;
  const preview = previewAction({
    value: subject.value,
    cs: total,
    karma: input.karma,
    blindsided: input.blindsided,
    ...(input.intensity === null ? {} : { intensity: input.intensity }),
  });
  return {
    ok: true,
    cs: total === 0 ? null : formatSigned(total),
    columnKey: `CASE.Rank.${preview.column.key}`,
    moved: preview.column.key !== rankOf(subject.value).key,
    belowShift0: preview.belowShift0,
    requiredKey: `CASE.Color.${preview.required}`,
    impossible: preview.required === IMPOSSIBLE,
    odds: COLORS.map((color) => ({ color, letterKey: `CASE.Color.Letter.${color}`, labelKey: `CASE.Color.${color}`, percent: Math.round(preview.odds[color] * 100) })),
    success: Math.round(preview.success * 100),
    karma: input.karma,
  };
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
    preview: rollPreviewContext(subject, { ...input, intensity: input.intensity ?? "" }),
  };
}

/**
 * Keeps the preview in step with the form: on every input or change, the form's values are
 * read and the preview part re-rendered (a later render wins over a slower earlier one).
 */
export function livePreview(
  form: HTMLFormElement,
  subject: RollDialogSubject,
  render: (values: Record<string, unknown>) => Promise<string> = (values) => foundry.applications.handlebars.renderTemplate(ROLL_PREVIEW_TEMPLATE, { preview: rollPreviewContext(subject, values) }),
): void {
  const box = form.querySelector<HTMLElement>(".roll-dialog-preview");
  if (!box) return;
  let latest = 0;
  const update = async () => {
    const mine = ++latest;
    const html = await render(new foundry.applications.ux.FormDataExtended(form).object);
    if (mine === latest) box.innerHTML = html;
  };
  form.addEventListener("input", () => void update());
  form.addEventListener("change", () => void update());
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
      render: (_event, dialog) => {
        const element = dialog.element.querySelector("form") ?? dialog.element;
        if (element instanceof HTMLFormElement) livePreview(element, subject);
      },
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
