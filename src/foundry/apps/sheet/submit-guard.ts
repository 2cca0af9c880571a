/**
 * Refused input on a sheet. The data models refuse a bad value (a rank of −3, a fraction)
 * through Foundry's validation, which throws. The sheet must not swallow that: it shows
 * Foundry's own message, logs the error, saves nothing, and re-renders so the inputs show
 * the stored values again instead of the refused text. A rules error (the derivation refusing
 * a value) is shown in the reader's language instead.
 */
import { isKeyedError } from "../../../rules/errors";
import { describeRef } from "../../core/describe-error";
import { RANK_NUMBER_ERROR } from "../../data/fields";

/** What the guard needs of a sheet. */
export interface RenderableSheet {
  render(options?: { force?: boolean }): unknown;
}

/** The message of a refused update, for the notification. */
export function refusalMessage(error: unknown): string {
  if (isKeyedError(error)) return describeRef(error);
  // Foundry's own validation error: kept as Foundry wrote it, but for CASE's own words in it (a rank field's), said in the reader's.
  if (error instanceof Error) return error.message.replaceAll(RANK_NUMBER_ERROR, game.i18n.localize("CASE.Sheet.RankNumber"));
  return String(error);
}

/** Shows a refused update to the user and restores the stored values on the sheet. */
export function reportRefusedInput(sheet: RenderableSheet, error: unknown): void {
  console.error(error);
  ui.notifications.error(game.i18n.format("CASE.Sheet.InputRefused", { error: refusalMessage(error) }));
  void sheet.render();
}

/**
 * Runs the sheet's own submit-data preparation (where Foundry validates the form against the
 * data model). On refusal: reports it and returns nothing to save.
 */
export function guardPrepare<T extends object>(sheet: RenderableSheet, prepare: () => T): T | Record<string, never> {
  try {
    return prepare();
  } catch (error) {
    reportRefusedInput(sheet, error);
    return {};
  }
}

/** Runs the update itself (Foundry validates again there); on refusal, the same report. */
export async function guardProcess(sheet: RenderableSheet, process: () => Promise<unknown>): Promise<void> {
  try {
    await process();
  } catch (error) {
    reportRefusedInput(sheet, error);
  }
}
