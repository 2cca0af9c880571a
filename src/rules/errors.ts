/**
 * The rules' errors. Every error the rules throw names its text by a key and
 * carries the values the text is made from, so a reader sees it in their own language:
 * lang/en.json holds each key under CASE's RulesError (and each field name under its
 * RulesField), and the adapters show an error through `describeError`
 * (src/foundry/core/describe-error.ts). The English texts (./error-texts.ts, ./field-texts.ts) make the error's own `message`, for
 * logs, tests and the rules used outside Foundry; test/lang.test.ts holds en.json to them
 * (every key there, with the same placeholders).
 *
 * A text's placeholders are `{name}`, as Foundry's localisation fills them. A value named
 * `field` is a key of {@link RULES_FIELD_TEXT} (what was wrong, said in the reader's language);
 * every other value is shown as it is (numbers, identifiers, the player's own words).
 */

import { RULES_ERROR_TEXT } from "./error-texts";
import { RULES_FIELD_TEXT } from "./field-texts";

export { RULES_ERROR_TEXT, RULES_FIELD_TEXT };

/** A value an error's text is made from. */
export type ErrorValue = string | number;
export type ErrorData = Readonly<Record<string, ErrorValue>>;

export type RulesErrorKey = keyof typeof RULES_ERROR_TEXT;

export type RulesFieldKey = keyof typeof RULES_FIELD_TEXT;

/** An error that names its text: what the adapters localise. */
export interface KeyedError {
  readonly key: RulesErrorKey;
  readonly data: ErrorData;
}

/** The English text of a key, filled with its data (a `field` value by its English name). */
export function rulesErrorText(key: RulesErrorKey, data: ErrorData = {}): string {
  return RULES_ERROR_TEXT[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = data[name];
    if (value === undefined) return whole;
    if (name === "field" && typeof value === "string" && Object.hasOwn(RULES_FIELD_TEXT, value)) return RULES_FIELD_TEXT[value as RulesFieldKey];
    return String(value);
  });
}

/** Bad input of the right type: out of range, not whole, not one of the allowed values. */
export class RulesRangeError extends RangeError implements KeyedError {
  constructor(
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "RangeError";
  }
}

/** Input of the wrong type (a string where a number belongs, a missing object). */
export class RulesTypeError extends TypeError implements KeyedError {
  constructor(
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "TypeError";
  }
}

/** Whether an error names its text (one of the rules' errors). */
export function isKeyedError(error: unknown): error is Error & KeyedError {
  return error instanceof Error && typeof (error as Partial<KeyedError>).key === "string" && Object.hasOwn(RULES_ERROR_TEXT, (error as Partial<KeyedError>).key as string);
}
