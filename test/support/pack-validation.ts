/**
 * Validates the `system` data of pack documents against our real data models, built through
 * the foundry test double: the data must pass every declared field option (schema-validator),
 * build a model, derive its values, and come out of the model's migration unchanged.
 */
import "./foundry-globals";
import { isDeepStrictEqual } from "node:util";
import { ACTOR_DATA_MODELS, ITEM_DATA_MODELS } from "../../src/foundry/data/index";
import type { DataField } from "./foundry-double";
import { checkSchema } from "./schema-validator";

/** What the tests need of a model class built on the double. */
export interface ModelClass {
  defineSchema(): Record<string, DataField>;
  new (source: Record<string, unknown>): ModelInstance;
}

export interface ModelInstance {
  readonly _source: Record<string, unknown>;
  prepareDerivedData(): void;
}

/** The model class of a document type, or undefined for a type the system does not define. */
export function modelClass(documentName: string, type: string): ModelClass | undefined {
  const models: Record<string, unknown> = documentName === "Actor" ? ACTOR_DATA_MODELS : documentName === "Item" ? ITEM_DATA_MODELS : {};
  return Object.hasOwn(models, type) ? (models[type] as ModelClass) : undefined;
}

/** A model built from `system` with its derived data prepared (throws if the model does). */
export function buildModel(documentName: string, type: string, system: Record<string, unknown>): ModelInstance {
  const Model = modelClass(documentName, type);
  if (!Model) throw new Error(`No ${documentName} data model for type "${type}".`);
  const model = new Model(structuredClone(system));
  model.prepareDerivedData();
  return model;
}

/**
 * Every problem with one document's system data, each starting with `where` (file and
 * document path), e.g. "packs/powers/X.json: system.rank: must be at least 0 (got -3)".
 */
export function systemProblems(where: string, documentName: string, type: unknown, system: unknown, path = "system"): string[] {
  if (typeof type !== "string") return [`${where}: type is missing`];
  const Model = modelClass(documentName, type);
  if (!Model) return [`${where}: ${documentName} type "${type}" has no data model`];
  const problems = checkSchema(Model.defineSchema(), system, path, { complete: true }).map((p) => `${where}: ${p}`);
  if (problems.length > 0) return problems;
  let model: ModelInstance;
  try {
    model = buildModel(documentName, type, system as Record<string, unknown>);
  } catch (error) {
    return [`${where}: ${path}: the data model refused it: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (!isDeepStrictEqual(model._source, system)) {
    return [`${where}: ${path}: the data model's migration or cleaning changes this data; write it in the current shape`];
  }
  return checkSchema(Model.defineSchema(), model._source, path, { complete: true }).map((p) => `${where}: ${p}`);
}
