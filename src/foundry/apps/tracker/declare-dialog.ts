/**
 * The declare form: a player (or the Judge) says what a combatant intends this turn, or what
 * it changes its declared action to. Re-asks with what was typed when an entry is refused.
 */
import { SYSTEM_PATH } from "../../core/constants";
import type { Declaration } from "../../../rules/index";
import { DeclarationLineError, buildDeclareContext, declarationFromForm, type DeclareInput } from "./declare-context";
import type { Localize } from "../../core/format";
import { describeError } from "../../core/describe-error";

export const DECLARE_TEMPLATE = `${SYSTEM_PATH}/templates/combat/declare.hbs`;
/** The Judge's bulk-declare form (a line per NPC). */
export const DECLARE_MANY_TEMPLATE = `${SYSTEM_PATH}/templates/combat/declare-many.hbs`;

/** game.i18n as the plain context builders take it. */
export const foundryLocalize: Localize = (key, data) =>
  data ? game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : game.i18n.localize(key);

/** Tells the user why a declaration (or a line of the bulk form, named by its NPC) was refused, in their language. */
export function notifyBadDeclaration(error: unknown): void {
  const message = error instanceof DeclarationLineError ? `${error.npcName}: ${describeError(error.refusal)}` : describeError(error);
  ui.notifications.error(game.i18n.format("CASE.Turn.Notify.BadDeclaration", { message }));
}

/** Shows the form; resolves to the declaration, or null when cancelled. */
export async function declareDialog(input: DeclareInput): Promise<Declaration | null> {
  let current = input.current;
  for (;;) {
    const context = { ...buildDeclareContext({ ...input, current }, foundryLocalize) };
    const content = await foundry.applications.handlebars.renderTemplate(DECLARE_TEMPLATE, context);
    const form: unknown = await foundry.applications.api.DialogV2.wait({
      window: { title: game.i18n.format(input.change ? "CASE.Turn.Declare.ChangeTitle" : "CASE.Turn.Declare.Title", { name: input.name }) },
      content,
      buttons: [
        {
          action: "declare",
          label: input.change ? "CASE.Turn.Button.Change" : "CASE.Turn.Button.Declare",
          icon: "fa-solid fa-bullhorn",
          default: true,
          callback: (_event, button) => new foundry.applications.ux.FormDataExtended(button.form ?? document.createElement("form")).object,
        },
        { action: "cancel", label: "CASE.Dialog.Cancel", icon: "fa-solid fa-xmark" },
      ],
      rejectClose: false,
    });
    if (typeof form !== "object" || form === null) return null;
    const data = form as Record<string, unknown>;
    try {
      return declarationFromForm(input.change ? { ...data, actions: input.current?.actions ?? 1 } : data);
    } catch (error) {
      notifyBadDeclaration(error);
      const text = typeof data.text === "string" ? data.text.slice(0, 500) : "";
      current = { text, kind: null, attack: null, defence: null, actions: 1, secret: false };
    }
  }
}
