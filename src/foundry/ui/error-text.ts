/**
 * Errors as their users read them, beyond describeError: a refused request (a QueryRefusal
 * names its text by key, said here in the reader's language, or was made with en.json's words),
 * and a refused effect change (the rules' reason, kept by key in the data layer, which has no
 * localisation).
 */
import { isKeyedError, type ErrorData, type KeyedError } from "../../rules/errors";
import { changeKeyLabel, type EffectProblem } from "../data/actor/effect-changes";
import { QueryRefusal } from "../requests/router";
import { describeError, describeRef } from "../core/describe-error";

/** As refusalText, for a site that has logged the error itself (with what it was doing). */
export function describeLogged(error: unknown): string {
  if (error instanceof QueryRefusal) return refusalWords(error);
  return isKeyedError(error) ? describeRef(error) : game.i18n.localize("CASE.RulesError.unexpected");
}

/** The text of a refused request, or of another failure, for a notification. */
export function refusalText(error: unknown): string {
  return error instanceof QueryRefusal ? refusalWords(error) : describeError(error);
}

/** A refusal's words: the text its key names, in this reader's language, or the words it was made with (from en.json). */
function refusalWords(refusal: QueryRefusal): string {
  return refusal.error ? describeRef(refusal.error) : refusal.message;
}

/** Why an effect change was refused: the rules' reason in the reader's language when it has one. */
export function effectProblemDetail(problem: EffectProblem): string {
  return problem.cause ? describeRef(problem.cause) : game.i18n.format(problem.reason, { key: game.i18n.localize(changeKeyLabel(problem.key).label), value: problem.value });
}

/** A rules error as the `caseFormat` helper's key and data: a template shows it in the reader's language (its field named first). */
export function errorFormat(error: KeyedError): { readonly key: string; readonly data: ErrorData } {
  const data = Object.fromEntries(Object.entries(error.data).map(([name, value]) => [name, name === "field" && typeof value === "string" ? `CASE.RulesField.${value}` : value]));
  return { key: `CASE.RulesError.${error.key}`, data };
}
