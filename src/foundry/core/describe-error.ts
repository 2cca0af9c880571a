/**
 * An error as a user reads it. The rules' errors name their text by a key (src/rules/errors.ts):
 * they are shown from en.json's RulesError entry of their key in the reader's language, with a
 * `field` value named from its RulesField entry. Anything else is not the user's doing (a bug, a lost
 * connection): it is logged whole, and the user reads that something went wrong and where the
 * details are, never a developer's English.
 */
import { isKeyedError, RULES_ERROR_TEXT, RULES_FIELD_TEXT, type ErrorData, type KeyedError, type RulesErrorKey } from "../../rules/errors";
import { isRankKey } from "../../rules/ranks";
import { REFUSAL_DATA, isRefusalError, isRefusalKey } from "./refusal-texts";

/**
 * An error's text key and data as plain JSON: what a refusal carries over the wire. `kind`
 * "refusal": an adapter's own refusal (en.json's Refusal section, ./refusal-texts.ts); absent: a
 * rules error (its RulesError section).
 */
export interface ErrorRef {
  readonly kind?: "refusal";
  readonly key: string;
  readonly data: ErrorData;
}

/** The key and data of a rules error or an adapter's RefusalError, or null for every other error. */
export function errorRef(error: unknown): ErrorRef | null {
  if (isRefusalError(error)) return { kind: "refusal", key: error.key, data: error.data };
  return isKeyedError(error) ? { key: error.key, data: error.data } : null;
}

/** The longest text value read from the wire (a longer one is cut): a notification, not a page. */
export const WIRE_TEXT_MAX = 300;

/**
 * Reads an error reference from JSON (a refusal from the wire); null when it is not one. Its data
 * holds exactly its text's values (a missing one would show as "{name}"), a `field` names a
 * RulesField entry (else its raw key would show), text is cut at {@link WIRE_TEXT_MAX}.
 */
export function readErrorRef(value: unknown): ErrorRef | null {
  if (typeof value !== "object" || value === null) return null;
  const { kind, key, data } = value as { kind?: unknown; key?: unknown; data?: unknown };
  if (typeof key !== "string") return null;
  const refusal = kind === "refusal" && isRefusalKey(key);
  if (!refusal && (kind !== undefined || !Object.hasOwn(RULES_ERROR_TEXT, key))) return null;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const names: readonly string[] = refusal ? REFUSAL_DATA[key] : [...RULES_ERROR_TEXT[key as RulesErrorKey].matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
  const clean: Record<string, string | number> = {};
  for (const name of names) {
    const v: unknown = Object.hasOwn(data, name) ? (data as Record<string, unknown>)[name] : undefined;
    if (typeof v === "number" && Number.isFinite(v)) clean[name] = v;
    else if (typeof v === "string" && (refusal || name !== "field" || Object.hasOwn(RULES_FIELD_TEXT, v))) clean[name] = v.length > WIRE_TEXT_MAX ? `${v.slice(0, WIRE_TEXT_MAX)}…` : v;
    else return null;
  }
  return refusal ? { kind: "refusal", key, data: clean } : { key, data: clean };
}

/** The text of a keyed error or refusal in the reader's language. */
export function describeRef(ref: ErrorRef | KeyedError): string {
  const refusal = "kind" in ref && ref.kind === "refusal";
  const data: Record<string, string> = {};
  for (const [name, value] of Object.entries(ref.data)) {
    if (refusal || typeof value !== "string") data[name] = String(value);
    else if (name === "field") data[name] = game.i18n.localize(`CASE.RulesField.${value}`);
    // A rank is named as the reader's table names it ("Class 5000"), never by its key.
    else data[name] = name === "rank" && isRankKey(value) ? game.i18n.localize(`CASE.Rank.${value}`) : value;
  }
  return game.i18n.format(refusal ? `CASE.Refusal.${ref.key}` : `CASE.RulesError.${ref.key}`, data);
}

/**
 * What to show a user for an error: a rules error in their language; for anything else a
 * localised "something went wrong", the error itself going to the console.
 */
export function describeError(error: unknown): string {
  const ref = errorRef(error);
  if (ref !== null) return describeRef(ref);
  console.error("case |", error);
  return game.i18n.localize("CASE.RulesError.unexpected");
}
