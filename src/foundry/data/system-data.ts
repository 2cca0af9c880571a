/**
 * Types derived from the data models, so each stored shape is declared once: in its schema.
 * `SystemSource<typeof Model>` is the stored `system` of a model; `MessageSystem<"attack">` that
 * of a ChatMessage subtype. And `messageUpdate`, an update of some of a message's `system`
 * fields, checked against its schema.
 */
import type { DataModelConfig } from "fvtt-types/configuration";

/** The schema a data model class defines. */
export type SchemaOf<Model> = Model extends { defineSchema(): infer Schema extends foundry.data.fields.DataSchema } ? Schema : never;

/** A data model's `system` as stored (its schema's source data). */
export type SystemSource<Model> = foundry.data.fields.SchemaField.SourceData<SchemaOf<Model>>;

/** What an update of a data model's `system` takes (its schema's update data). */
type SystemUpdate<Model> = foundry.data.fields.SchemaField.UpdateData<SchemaOf<Model>>;

/** `system.<field>` paths of a data model's top-level fields, each with the value an update of that field takes. */
export type SystemPaths<Model> = {
  readonly [K in keyof SchemaOf<Model> & keyof SystemUpdate<Model> & string as `system.${K}`]?: SystemUpdate<Model>[K];
};

/** The ChatMessage subtypes' models, as the root (../register.ts) names them to fvtt-types. */
type MessageModels = DataModelConfig["ChatMessage"];

/** A ChatMessage subtype of this system. */
export type MessageType = keyof MessageModels;

/** The stored `system` of a ChatMessage subtype. */
export type MessageSystem<T extends MessageType> = SystemSource<MessageModels[T]>;

/**
 * An update of a ChatMessage of subtype `type` that sets some of its `system` fields by dotted
 * path (Foundry's form that leaves the other fields alone; an array given is replaced whole)
 * and, optionally, its rolls (JSON). Keys and values are checked against the subtype's schema
 * (fvtt-types' `ChatMessage.UpdateData` has no dotted keys, so a literal would need a cast).
 */
export function messageUpdate<T extends MessageType>(
  _type: T,
  system: SystemPaths<MessageModels[T]>,
  rest: { readonly rolls?: string[] } = {},
): ChatMessage.UpdateData {
  return { ...system, ...rest };
}
