/**
 * Checks data against a data model's schema the way Foundry's field options declare it, by
 * walking the fields of the foundry test double: `required`, `nullable`, `integer`, `min`,
 * `max`, `blank`, `choices` and a custom `validate` function, through nested schemas and
 * arrays. Each problem names the field path and the value, so a bad pack file reads as
 * "system.attack.type: not one of BA, EA, … (got "Zz")".
 *
 * Stricter than Foundry on purpose, because it checks content we ship:
 * - `complete`: every schema field must be written out (pack sources never lean on defaults);
 * - keys the schema does not know are reported (Foundry would silently drop them);
 * - `nullable` is false unless a field says otherwise.
 */
import { ArrayField, BooleanField, type DataField, NumberField, ObjectField, SchemaField, StringField } from "./foundry-double";

export interface SchemaCheckOptions {
  /** Report fields missing from the data instead of validating their initial value. */
  readonly complete?: boolean;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function choiceValues(choices: unknown): string[] | undefined {
  if (choices === undefined || choices === null) return undefined;
  const resolved: unknown = typeof choices === "function" ? (choices as () => unknown)() : choices;
  if (Array.isArray(resolved)) return resolved.map(String);
  if (typeof resolved === "object" && resolved !== null) return Object.keys(resolved);
  return undefined;
}

function checkChoices(field: DataField, value: unknown, path: string, problems: string[]): void {
  const allowed = choiceValues(field.options.choices);
  if (allowed && !allowed.includes(String(value))) problems.push(`${path}: not one of ${allowed.join(", ")} (got ${show(value)})`);
}

function checkCustom(field: DataField, value: unknown, path: string, problems: string[]): void {
  const validate = field.options.validate;
  if (typeof validate !== "function") return;
  let verdict: unknown;
  try {
    verdict = (validate as (v: unknown) => unknown)(value);
  } catch (error) {
    problems.push(`${path}: ${error instanceof Error ? error.message : String(error)} (got ${show(value)})`);
    return;
  }
  if (verdict === false) {
    const message = typeof field.options.validationError === "string" ? field.options.validationError : "failed validation";
    problems.push(`${path}: ${message} (got ${show(value)})`);
  }
}

/** The problems of `value` against `field` at `path` (empty when valid). */
export function checkField(field: DataField, value: unknown, path: string, options: SchemaCheckOptions = {}, problems: string[] = []): string[] {
  if (value === undefined) {
    if (options.complete === true) {
      problems.push(`${path}: is missing`);
      return problems;
    }
    const initial = field.getInitialValue();
    if (initial === undefined) {
      if (field.options.required === true) problems.push(`${path}: is required`);
      return problems;
    }
    return checkField(field, initial, path, options, problems);
  }
  if (value === null) {
    if (field.options.nullable !== true) problems.push(`${path}: may not be null`);
    return problems;
  }

  if (field instanceof SchemaField) {
    if (typeof value !== "object" || Array.isArray(value)) {
      problems.push(`${path}: must be an object (got ${show(value)})`);
      return problems;
    }
    const record = value as Record<string, unknown>;
    for (const [name, child] of Object.entries(field.fields)) checkField(child, record[name], `${path}.${name}`, options, problems);
    for (const key of Object.keys(record)) {
      if (!(key in field.fields)) problems.push(`${path}.${key}: is not a field of the schema`);
    }
  } else if (field instanceof ArrayField) {
    if (!Array.isArray(value)) {
      problems.push(`${path}: must be an array (got ${show(value)})`);
      return problems;
    }
    value.forEach((element, i) => checkField(field.element, element, `${path}.${i}`, options, problems));
  } else if (field instanceof NumberField) {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      problems.push(`${path}: must be a finite number (got ${show(value)})`);
      return problems;
    }
    const { integer, min, max } = field.options;
    if (integer === true && !Number.isInteger(value)) problems.push(`${path}: must be a whole number (got ${show(value)})`);
    if (typeof min === "number" && value < min) problems.push(`${path}: must be at least ${min} (got ${show(value)})`);
    if (typeof max === "number" && value > max) problems.push(`${path}: must be at most ${max} (got ${show(value)})`);
    checkChoices(field, value, path, problems);
  } else if (field instanceof StringField) {
    if (typeof value !== "string") {
      problems.push(`${path}: must be text (got ${show(value)})`);
      return problems;
    }
    if (field.options.blank === false && value.trim() === "") problems.push(`${path}: may not be blank`);
    checkChoices(field, value, path, problems);
  } else if (field instanceof BooleanField) {
    if (typeof value !== "boolean") problems.push(`${path}: must be true or false (got ${show(value)})`);
  } else if (field instanceof ObjectField) {
    if (typeof value !== "object") problems.push(`${path}: must be an object (got ${show(value)})`);
  } else {
    problems.push(`${path}: the validator does not know the field class ${field.constructor.name}`);
  }
  checkCustom(field, value, path, problems);
  return problems;
}

/** The problems of a whole `system` object against a model's `defineSchema()` result. */
export function checkSchema(schema: Record<string, DataField>, data: unknown, path = "system", options: SchemaCheckOptions = {}): string[] {
  return checkField(new SchemaField(schema), data, path, options);
}
