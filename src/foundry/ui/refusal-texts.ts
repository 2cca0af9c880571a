/**
 * The adapters' own refusals, by key: each is a text of CASE's Refusal section in lang/en.json
 * (there in English; the reader's language pack may say it otherwise), filled with the values
 * listed here. A refusal travels as its key and data (an ErrorRef of kind "refusal", ./describe-error.ts), so
 * the asking client says it in its reader's language, as it does the rules' errors
 * (src/rules/errors.ts). test/lang.test.ts holds en.json to this list (every key, its
 * placeholders, no other key).
 */
import type { ErrorValue } from "../../rules/errors";

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
