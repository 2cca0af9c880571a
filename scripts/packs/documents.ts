/**
 * Builders for the Foundry documents our compendium packs hold, as the JSON source files the
 * Foundry CLI compiles (one file per primary document, embedded documents inline). Every id is
 * derived from a stable seed (pack and name), so regenerating the packs never churns ids and
 * links to compendium entries stay valid.
 */
import { createHash } from "node:crypto";

/** The system id (system.json `id`), used in `_stats.systemId` and compendium UUIDs. */
export const SYSTEM_ID = "case";

/**
 * The Foundry core version the sources are written for (`_stats.coreVersion`). Foundry uses it
 * to decide whether a document needs its core migrations; these sources are v13-shaped.
 */
export const CORE_VERSION = "13.351";

/**
 * The system version the content was written against (`_stats.systemVersion`). Not tied to
 * system.json's version on purpose: a release bump must not force regenerating the packs.
 * Our own data migrations key off `system.schemaVersion`, which the pack tests check.
 */
export const CONTENT_SYSTEM_VERSION = "0.1.0";

/** Schema versions the generated `system` data is written in (checked against the models by test/packs). */
export const CHARACTER_SOURCE_SCHEMA_VERSION = 1;
export const ITEM_SOURCE_SCHEMA_VERSION = 1;

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A 16-character alphanumeric document id derived from `seed` (SHA-256; same seed, same id). */
export function stableId(seed: string): string {
  const digest = createHash("sha256").update(seed, "utf8").digest();
  let id = "";
  for (let i = 0; i < 16; i++) id += ID_ALPHABET.charAt((digest[i] ?? 0) % ID_ALPHABET.length);
  return id;
}

/** The document classes our packs hold, and the CLI's collection name for each. */
export const PACK_COLLECTIONS = { Actor: "actors", Item: "items", JournalEntry: "journal", Macro: "macros" } as const;
export type PackDocumentType = keyof typeof PACK_COLLECTIONS;

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A document source as written to a pack file. */
export type DocumentSource = { [key: string]: Json };

/** One pack: its manifest entry fields and its documents. */
export interface PackSource {
  readonly name: string;
  readonly label: string;
  readonly type: PackDocumentType;
  /** system.json ownership defaults for the pack. */
  readonly ownership: Readonly<Record<string, string>>;
  readonly documents: readonly DocumentSource[];
}

/** `_stats` of a generated document; `compendiumSource` links an embedded copy to its pack entry. */
export function stats(compendiumSource: string | null = null): DocumentSource {
  return {
    compendiumSource,
    duplicateSource: null,
    exportSource: null,
    coreVersion: CORE_VERSION,
    systemId: SYSTEM_ID,
    systemVersion: CONTENT_SYSTEM_VERSION,
    createdTime: null,
    modifiedTime: null,
    lastModifiedBy: null,
  };
}

/** The compendium UUID of a primary document in one of our packs. */
export function compendiumUuid(pack: string, type: PackDocumentType, id: string): string {
  return `Compendium.${SYSTEM_ID}.${pack}.${type}.${id}`;
}

/** The file name the Foundry CLI's extractPack would give a document: `<Name_with_underscores>_<id>.json`. */
export function sourceFileName(doc: DocumentSource): string {
  const name = typeof doc.name === "string" ? doc.name : "";
  const id = typeof doc._id === "string" ? doc._id : "";
  return `${name.replace(/[^a-zA-Z0-9А-я]/g, "_")}_${id}.json`;
}

/** One change of an Active Effect: a `system.*` key, Foundry's mode number, the value as text. */
export interface EffectChangeInput {
  readonly key: string;
  readonly mode: number;
  readonly value: string;
}

/** An Active Effect an item carries to its owner (transfer) while in use (src/foundry/documents/active-effect.ts). */
export interface EffectInput {
  readonly name: string;
  readonly img: string;
  readonly description: string;
  readonly changes: readonly EffectChangeInput[];
}

/** An Item's source. `system` must be complete (every schema field written out). */
export interface ItemInput {
  readonly name: string;
  readonly type: string;
  readonly img: string;
  readonly system: DocumentSource;
  readonly effects?: readonly EffectInput[];
}

/**
 * An Active Effect embedded in an item, as Foundry v13 stores one (ActiveEffect's fields, `type`
 * "base"), with the `_key` the Foundry CLI gives an embedded document at `keyPath`.
 */
export function effectDocument(keyPrefix: string, parentPath: string, effect: EffectInput, sort: number): DocumentSource {
  const id = stableId(`${keyPrefix}.${parentPath}.${effect.name}`);
  return {
    _id: id,
    _key: `!${keyPrefix}!${parentPath}.${id}`,
    name: effect.name,
    img: effect.img,
    type: "base",
    system: {},
    changes: effect.changes.map((c) => ({ key: c.key, mode: c.mode, value: c.value, priority: null })),
    disabled: false,
    duration: { startTime: null, seconds: null, combat: null, rounds: null, turns: null, startRound: null, startTurn: null },
    description: effect.description,
    origin: null,
    tint: "#ffffff",
    transfer: true,
    statuses: [],
    sort,
    flags: {},
    _stats: stats(),
  };
}

/** The effects of a source document, re-keyed for a new parent (an item copied into an actor). */
function rekeyEffects(effects: unknown, keyPrefix: string, parentPath: string): DocumentSource[] {
  if (!Array.isArray(effects)) return [];
  const text = (value: Json | undefined): string => (typeof value === "string" ? value : "");
  return (effects as DocumentSource[]).map((e, i) => {
    const changes = Array.isArray(e.changes) ? (e.changes as DocumentSource[]) : [];
    return effectDocument(
      keyPrefix,
      parentPath,
      { name: text(e.name), img: text(e.img), description: text(e.description), changes: changes.map((c) => ({ key: text(c.key), mode: Number(c.mode), value: text(c.value) })) },
      i,
    );
  });
}

/** A primary Item of pack `pack`. */
export function itemDocument(pack: string, item: ItemInput, sort: number): DocumentSource {
  const id = stableId(`${pack}.Item.${item.name}`);
  return {
    _id: id,
    _key: `!items!${id}`,
    name: item.name,
    type: item.type,
    img: item.img,
    system: item.system,
    effects: (item.effects ?? []).map((e, i) => effectDocument("items.effects", id, e, i)),
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: {},
    _stats: stats(),
  };
}

/**
 * A copy of a pack Item embedded in an Actor: same data (with `overrides` merged into its
 * name and system), its own id, the embedded `_key`, and `_stats.compendiumSource` pointing
 * back at the pack entry.
 */
export function embeddedItem(actorId: string, sourcePack: string, source: DocumentSource, sort: number, overrides: { name?: string; system?: DocumentSource } = {}): DocumentSource {
  const sourceId = source._id;
  const sourceName = source.name;
  if (typeof sourceId !== "string" || typeof sourceName !== "string") throw new TypeError("An embedded item's source needs a string _id and name.");
  const name = overrides.name ?? sourceName;
  const id = stableId(`actors.items.${actorId}.${sourcePack}.${sourceId}.${name}`);
  const system = mergeSystem(source.system as DocumentSource, overrides.system ?? {});
  return {
    _id: id,
    _key: `!actors.items!${actorId}.${id}`,
    name,
    type: source.type ?? null,
    img: source.img ?? null,
    system,
    effects: rekeyEffects(source.effects, "actors.items.effects", `${actorId}.${id}`),
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: {},
    _stats: stats(compendiumUuid(sourcePack, "Item", sourceId)),
  };
}

/** Deep-merges plain objects (arrays and scalars in `patch` replace). Neither input is changed. */
export function mergeSystem(base: DocumentSource, patch: DocumentSource): DocumentSource {
  const out: DocumentSource = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    if (isPlainObject(value) && isPlainObject(current)) out[key] = mergeSystem(current, value);
    else out[key] = structuredClone(value);
  }
  return out;
}

function isPlainObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JournalEntry with HTML text pages, in order. */
export function journalDocument(pack: string, name: string, pages: readonly { name: string; content: string }[], sort: number): DocumentSource {
  const id = stableId(`${pack}.JournalEntry.${name}`);
  return {
    _id: id,
    _key: `!journal!${id}`,
    name,
    pages: pages.map((page, i) => {
      const pageId = stableId(`journal.pages.${id}.${page.name}`);
      return {
        _id: pageId,
        _key: `!journal.pages!${id}.${pageId}`,
        name: page.name,
        type: "text",
        title: { show: true, level: 1 },
        text: { format: 1, content: page.content },
        sort: (i + 1) * 100000,
        category: null,
        ownership: { default: -1 },
        flags: {},
        _stats: stats(),
      };
    }),
    categories: [],
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: {},
    _stats: stats(),
  };
}
