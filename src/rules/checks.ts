/**
 * Small input checks shared by the campaign modules (protection, ammunition, recovery, karma,
 * feats, creation, minor foes, areas, effects). Every check throws a RangeError or TypeError
 * naming the value, never a silent guess. Internal: not re-exported from the index.
 */

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** RangeError unless `value` is a whole number ≥ `min` (a safe integer). */
export function assertWholeNumber(value: unknown, what: string, min = 0): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be a whole number of ${min} or more, got ${String(value)}.`);
  }
}

/** RangeError unless `value` is a whole number (may be negative). */
export function assertInteger(value: unknown, what: string): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a whole number, got ${String(value)}.`);
  }
}

/** TypeError unless `value` is a boolean. */
export function assertBooleanValue(value: unknown, what: string): asserts value is boolean {
  if (typeof value !== "boolean") throw new TypeError(`${what} must be true or false, got ${String(value)}.`);
}

/** RangeError unless `value` is one of `allowed`. */
export function assertOneOfValues<T extends string>(value: unknown, allowed: readonly T[], what: string): asserts value is T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new RangeError(`${what} must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${show(value)}.`);
  }
}

/** TypeError unless `value` is a non-empty string (after trimming). */
export function assertText(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} must be a non-empty text, got ${show(value)}.`);
}

/** TypeError unless `value` is a plain object (not null, not an array). */
export function assertObject(value: unknown, what: string): asserts value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError(`${what} must be an object, got ${String(value)}.`);
}

/** TypeError unless `value` is an array. */
export function assertArray(value: unknown, what: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`${what} must be an array, got ${String(value)}.`);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** RangeError unless `value` is an ISO 8601 date ("2026-11-25") or date-time ("2026-11-25T01:30:00Z") that exists. */
export function assertIsoDate(value: unknown, what = "Date"): asserts value is string {
  if (typeof value !== "string" || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) {
    throw new RangeError(`${what} must be an ISO 8601 date such as "2026-11-25" or "2026-11-25T01:30:00Z", got ${show(value)}.`);
  }
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) throw new RangeError(`${what} ${value} is not a real calendar date.`);
}
