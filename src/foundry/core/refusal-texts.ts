/**
 * The adapters' own refusals, by key: each is a text of CASE's Refusal section in lang/en.json
 * (there in English; the reader's language pack may say it otherwise), filled with the values
 * listed here. A refusal travels as its key and data (an ErrorRef of kind "refusal", ./describe-error.ts), so
 * the asking client says it in its reader's language, as it does the rules' errors
 * (src/rules/errors.ts). test/lang.test.ts holds en.json to this list (every key, its
 * placeholders, no other key).
 */
import type { ErrorData, ErrorValue } from "../../rules/errors";

/** Every refusal key, with the names of the values its text is made from. */
export const REFUSAL_DATA = {
  combatGone: [],
  notYourCombatant: ["name"],
  judgeRunsTurn: [],
  turnWriter: [],
  notObject: [],
  fieldText: ["key"],
  fieldForm: ["key"],
  fieldRange: ["key", "min", "max"],
  fieldChoice: ["key", "allowed"],
  fieldLength: ["key", "min", "max"],
  fieldList: ["key", "min", "max"],
  combatantTwice: [],
  cardNotAttack: [],
  cardNotCreated: [],
  pullNeedsChoice: [],
  rollNoResult: [],
  unknownUser: ["id"],
  unknownQuery: ["query"],
  busy: ["name", "count"],
  noGM: [],
  unreadable: [],
  notPosted: [],
  unexpected: [],
  cardNewer: ["version"],
  cardMalformed: ["part"],
  rollDataBad: ["part"],
  notWrittenByGM: [],
  settingBad: ["setting", "stored"],
} as const satisfies Record<string, readonly string[]>;

export type RefusalKey = keyof typeof REFUSAL_DATA;

/** The values a refusal's text needs: exactly its placeholders. */
export type RefusalData<K extends RefusalKey> = { readonly [N in (typeof REFUSAL_DATA)[K][number]]: ErrorValue };

/** The data argument of a refusal: none for a text without placeholders. */
export type RefusalDataArg<K extends RefusalKey> = [(typeof REFUSAL_DATA)[K][number]] extends [never] ? [] : [RefusalData<K>];

/** Whether `key` names an adapter refusal (an own key: a key from the wire is checked with this). */
export function isRefusalKey(key: string): key is RefusalKey {
  return Object.hasOwn(REFUSAL_DATA, key);
}

/** A refusal's message for the logs: its key and values (the reader's text is made where it is read). */
export function refusalLogText(key: RefusalKey, data: ErrorData): string {
  return Object.keys(data).length === 0 ? key : `${key} ${JSON.stringify(data)}`;
}

/**
 * Bad stored data the adapters refuse to read (a card, a roll): names its text as a refusal does,
 * so `describeError` and `QueryRefusal.of` say it in the reader's language. A RangeError still.
 */
export class RefusalError<K extends RefusalKey = RefusalKey> extends RangeError {
  readonly kind = "refusal";
  readonly data: ErrorData;

  constructor(
    readonly key: K,
    ...data: RefusalDataArg<K>
  ) {
    const values: ErrorData = data[0] ?? {};
    super(refusalLogText(key, values));
    this.data = values;
    this.name = "RangeError";
  }
}

/** Whether `error` is an adapter's refusal of stored data (with its key's type: `instanceof` alone gives the class with every key). */
export function isRefusalError(error: unknown): error is RefusalError {
  return error instanceof RefusalError;
}
