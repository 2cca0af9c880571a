/**
 * Field builders shared by the data models. A rank number field only accepts what the rules
 * accept (a non-negative whole number): Foundry refuses every other value with a validation
 * error, so a bad form entry or import never reaches the stored data.
 */
import { isRankNumber } from "../../rules/index";
import type { AnyObject } from "fvtt-types/utils";

/** The message Foundry shows when a rank number is refused. */
export const RANK_NUMBER_ERROR = "must be a rank number: a whole number of 0 or more";

function validateRankNumber(value: unknown): boolean | undefined {
  // Returning false makes Foundry raise a validation failure with `validationError`.
  return value === null || value === undefined || isRankNumber(value) ? undefined : false;
}

/** A required rank number (an ability, a power's rank, a weapon's damage …). */
export function rankNumberField(initial: number) {
  return new foundry.data.fields.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: 0,
    initial,
    validate: validateRankNumber,
    validationError: RANK_NUMBER_ERROR,
  });
}

/** A sub-score set apart from its ability, or null when it follows the ability. */
export function subScoreField() {
  return new foundry.data.fields.NumberField({
    required: true,
    nullable: true,
    integer: true,
    min: 0,
    initial: null,
    validate: validateRankNumber,
    validationError: RANK_NUMBER_ERROR,
  });
}

/** A whole number of 0 or more that is not a rank (areas, counts, pool values). */
export function countField(initial: number) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial });
}

/** A string restricted to `choices`, each labelled by `CASE.<labelPrefix>.<choice>`. */
export function choiceField<T extends string>(choices: readonly T[], initial: T, labelPrefix: string) {
  return new foundry.data.fields.StringField({
    required: true,
    nullable: false,
    blank: false,
    initial,
    choices: Object.fromEntries(choices.map((c) => [c, `CASE.${labelPrefix}.${c}`])) as Record<T, string>,
  });
}

/**
 * A plain-object field whose values this code writes and reads as `T` (an array element, say):
 * fvtt-types types an ObjectField as an untyped object unless told, so the shape is declared here,
 * once, and the stored `system` types derived from the schema carry it. `T` is a type literal
 * (an interface has no index signature, which fvtt-types requires of a stored object).
 */
export function typedObjectField<T extends AnyObject>() {
  return new foundry.data.fields.ObjectField<foundry.data.fields.ObjectField.DefaultOptions, T, T, T>();
}

/** Rich text. */
export function htmlField() {
  return new foundry.data.fields.HTMLField({ required: true, blank: true, initial: "" });
}

/** The schema version a document's system data was last written with. */
export function schemaVersionField(current: number) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: current });
}

/**
 * The schema version of data that arrives from outside (characters and items: imports,
 * other systems, old worlds). Initial 0, not the current version: a stored source without a
 * version predates versioning and must look old to the world migration. New documents get
 * the current version in their `_preCreate` (CaseActor, CaseItem; {@link withSchemaVersion}).
 */
export function importedSchemaVersionField() {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 0 });
}

/** The `system.schemaVersion` a document being created gets when its data names none. */
export function withSchemaVersion(system: unknown, current: number): { schemaVersion: number } | null {
  const given = typeof system === "object" && system !== null ? ("schemaVersion" in system ? system.schemaVersion : undefined) : undefined;
  return typeof given === "number" ? null : { schemaVersion: current };
}
