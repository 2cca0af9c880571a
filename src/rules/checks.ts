/**
 * Small input checks shared by the campaign modules (protection, ammunition, recovery, karma,
 * feats, creation, minor foes, areas, effects). Every check throws a RangeError or TypeError
 * naming the value, never a silent guess. Internal: not re-exported from the index.
 */

import { RulesRangeError, RulesTypeError, type ErrorData, type RulesErrorKey, type RulesFieldKey } from "./errors";

/**
 * What a check names: a field; the n-th of a list ("Score change 2", counted from 1); or an
 * input by its name in the code (`{ input: "rulings.onDefence" }`: an identifier, not words to
 * translate).
 */
export type FieldRef = RulesFieldKey | readonly [field: RulesFieldKey, n: number] | { readonly input: string };

const NTH = { notWholeAtLeast: "nthNotWholeAtLeast", notWhole: "nthNotWhole", notBoolean: "nthNotBoolean", notOneOf: "nthNotOneOf", notObject: "nthNotObject" } as const;
const INPUT = { notWholeAtLeast: "inputNotWholeAtLeast", notWhole: "inputNotWhole", notBoolean: "inputNotBoolean", notOneOf: "inputNotOneOf", notObject: "inputNotObject" } as const;

/** The key and data of a refusal of `field` in one of the shapes. */
export function refusal(shape: keyof typeof NTH, field: FieldRef, data: ErrorData): [RulesErrorKey, ErrorData] {
  if (typeof field === "string") return [shape, { ...data, field }];
  return "input" in field ? [INPUT[shape], { ...data, name: field.input }] : [NTH[shape], { ...data, field: field[0], n: field[1] }];
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** RangeError unless `value` is a whole number ≥ `min` (a safe integer). */
export function assertWholeNumber(value: unknown, field: FieldRef, min = 0): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) throw new RulesRangeError(...refusal("notWholeAtLeast", field, { min, got: String(value) }));
}

/** RangeError unless `value` is a whole number (may be negative). */
export function assertInteger(value: unknown, field: FieldRef): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new RulesRangeError(...refusal("notWhole", field, { got: String(value) }));
}

/** TypeError unless `value` is a boolean. */
export function assertBooleanValue(value: unknown, field: FieldRef): asserts value is boolean {
  if (typeof value !== "boolean") throw new RulesTypeError(...refusal("notBoolean", field, { got: String(value) }));
}

/** RangeError unless `value` is one of `allowed`. */
export function assertOneOfValues<T extends string>(value: unknown, allowed: readonly T[], field: FieldRef): asserts value is T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new RulesRangeError(...refusal("notOneOf", field, { allowed: allowed.map((a) => `"${a}"`).join(", "), got: show(value) }));
  }
}

/** TypeError unless `value` is a non-empty string (after trimming). */
export function assertText(value: unknown, field: RulesFieldKey): asserts value is string {
  if (typeof value !== "string" || value.trim() === "") throw new RulesTypeError("notText", { field, got: show(value) });
}

/** TypeError unless `value` is a plain object (not null, not an array). */
export function assertObject(value: unknown, field: FieldRef): asserts value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new RulesTypeError(...refusal("notObject", field, { got: String(value) }));
}

/** TypeError unless `value` is an array. */
export function assertArray(value: unknown, field: RulesFieldKey | { readonly input: string }): asserts value is readonly unknown[] {
  if (Array.isArray(value)) return;
  throw typeof field === "string" ? new RulesTypeError("notArray", { field, got: String(value) }) : new RulesTypeError("inputNotArray", { name: field.input, got: String(value) });
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** RangeError unless `value` is an ISO 8601 date ("2026-11-25") or date-time ("2026-11-25T01:30:00Z") that exists. */
export function assertIsoDate(value: unknown, field: RulesFieldKey = "date"): asserts value is string {
  if (typeof value !== "string" || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) throw new RulesRangeError("notIsoDate", { field, got: show(value) });
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) throw new RulesRangeError("notRealDate", { field, got: value });
}
