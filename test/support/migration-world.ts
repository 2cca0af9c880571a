/**
 * A world for the world migration (src/foundry/world-migration.ts): a server's stored records
 * and the client documents built from them, doing what Foundry documents doing, and nothing more.
 *
 * - Construction (ActorDouble, ItemDouble, as `Actor`/`Item` under CaseActor/CaseItem): the
 *   constructor hands the raw source to `_initializeSource`, which runs the type's
 *   `migrateData` on `system` and cleans it: missing fields take their initial value and keys the
 *   schema does not define are pruned. Foundry's API: DataModelCleaningOptions `prune` "Remove
 *   keys which do not belong to the defined data schema"; `_source` "Once constructed, the source
 *   object is sealed such that no keys may be added nor removed". A subclass may rewrite the raw
 *   source before calling super, as dnd5e's Actor5e._initializeSource does
 *   (foundryvtt/dnd5e, module/documents/actor/actor.mjs). `flags` is an object field: kept as given.
 * - The server keeps the raw record (`db`): Foundry's server does not run a system's data models,
 *   so keys our schema does not know stay in the database until a write replaces them.
 * - `update(changes, { diff, recursive })` as DatabaseUpdateOperation documents it: with `diff`
 *   (the default) only the differences from the client's `_source` are sent; the server merges
 *   them into the record recursively, or, with `recursive: false`, replaces inner objects ("If
 *   false, inner objects will be replaced explicitly"); a `-=key` key deletes `key` (v13 syntax), and
 *   on 14 so does the ForcedDeletion operator instance as a value (update-operators.ts: a class throws).
 *   A write to a locked compendium is refused (dnd5e unlocks a pack before migrating it).
 * - An unlinked token's ActorDelta keeps its `system` as a partial object, as stored (the
 *   overrides only; pf2e's migration runner reads `token.delta._source.system` the same way).
 * - Collections hold only valid documents; those that failed validation are listed by
 *   `invalidDocumentIds` and fetched with `getInvalid(id)` (dnd5e's migrateWorld reads them so).
 */
import { ObjectField, SchemaField, type DataField } from "./foundry-double";
import { deletesKey } from "./update-operators";

type Data = Record<string, unknown>;

export interface ModelClass {
  defineSchema(): Record<string, DataField>;
  new (source: Data): { readonly _source: Data };
}

function isRecord(value: unknown): value is Data {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Removes keys `field` (a SchemaField) does not define, at every depth of nested schemas. */
function prune(value: unknown, field: DataField): unknown {
  if (!(field instanceof SchemaField) || !isRecord(value)) return value;
  const out: Data = {};
  for (const [name, child] of Object.entries(field.fields)) if (name in value) out[name] = child instanceof ObjectField ? value[name] : prune(value[name], child);
  return out;
}

/** A system source as Foundry builds it from raw data: migrated, defaults filled, unknown keys pruned. */
export function cleanSystem(Model: ModelClass, raw: unknown): Data {
  const built = new Model(structuredClone(isRecord(raw) ? raw : {}))._source;
  return prune(built, new SchemaField(Model.defineSchema())) as Data;
}

// ── the server's side of an update ──────────────────────────────────────────────────────────

function expand(data: Data): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const parts = key.startsWith("-=") ? [key] : key.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = isRecord(next) ? next : (node[part] = {});
    }
    const last = parts[parts.length - 1] ?? key;
    const before = node[last];
    node[last] = deletesKey(value) ? value : isRecord(value) && isRecord(before) ? { ...before, ...expand(value) } : isRecord(value) ? expand(value) : value;
  }
  return out;
}

/** Foundry's diffObject: what `update` holds that `source` does not (deletions always). */
function diff(source: unknown, update: Data): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(update)) {
    if (key.startsWith("-=") || deletesKey(value)) {
      out[key] = value;
      continue;
    }
    const before = isRecord(source) ? source[key] : undefined;
    if (isRecord(value) && isRecord(before)) {
      const inner = diff(before, value);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else if (JSON.stringify(value) !== JSON.stringify(before)) out[key] = value;
  }
  return out;
}

function merge(target: Data, update: Data, recursive: boolean): void {
  for (const [key, value] of Object.entries(update)) {
    if (key.startsWith("-=") || deletesKey(value)) {
      Reflect.deleteProperty(target, key.startsWith("-=") ? key.slice(2) : key);
      continue;
    }
    const before = target[key];
    if (recursive && isRecord(value) && isRecord(before)) merge(before, value, true);
    else target[key] = structuredClone(value);
  }
}

/** One stored record and the writes the server applied to it. */
export class StoredRecord {
  readonly writes: { sent: Data; options: Data }[] = [];
  constructor(
    public db: Data,
    public locked: () => boolean = () => false,
  ) {}

  /** Makes the record refuse writes while `pack` is locked (a compendium's record). */
  withLock(pack: { readonly locked: boolean }): this {
    this.locked = () => pack.locked;
    return this;
  }

  apply(clientSource: unknown, changes: object, options: Data = {}): void {
    if (this.locked()) throw new Error("You may not modify a locked compendium.");
    const expanded = expand(changes as Data);
    const sent = options.diff === false ? expanded : diff(clientSource, expanded);
    this.writes.push({ sent: structuredClone(sent), options });
    if (Object.keys(sent).length > 0) merge(this.db, sent, options.recursive !== false);
  }
}

// ── documents ───────────────────────────────────────────────────────────────────────────────

/** Where a document writes: its record on the server. */
const stores = new WeakMap<object, StoredRecord>();

export class DocumentDouble {
  /** The data models by type (CONFIG.<Document>.dataModels). */
  static models: Record<string, ModelClass> = {};
  static documentName = "Document";
  readonly _source: Data;
  readonly parent: unknown;

  constructor(data: Data = {}, options: { parent?: unknown } = {}) {
    this._source = this._initializeSource(data, options);
    this.parent = options.parent ?? null;
  }

  protected _initializeSource(data: unknown, _options?: unknown): Data {
    const source = isRecord(data) ? data : {};
    const Model = (this.constructor as typeof DocumentDouble).models[String(source.type)];
    return { ...source, system: Model ? cleanSystem(Model, source.system) : source.system, flags: isRecord(source.flags) ? source.flags : {} };
  }

  get name(): string {
    return typeof this._source.name === "string" ? this._source.name : "";
  }

  get type(): string {
    return typeof this._source.type === "string" ? this._source.type : "base";
  }

  get id(): string {
    return typeof this._source._id === "string" ? this._source._id : "";
  }

  get uuid(): string {
    const parent = this.parent as { uuid?: string } | null;
    const name = (this.constructor as typeof DocumentDouble).documentName;
    return parent?.uuid ? `${parent.uuid}.${name}.${this.id}` : `${name}.${this.id}`;
  }

  /** A copy of the source (Foundry's `toObject()`, whose default is the source data). */
  toObject(): Data {
    return structuredClone(this._source);
  }

  /** Applies changes to the source in place, merging inner objects (Foundry's default). */
  updateSource(changes: object): Data {
    merge(this._source, expand(changes as Data), true);
    return changes as Data;
  }

  protected _preCreate(_data: unknown, _options: unknown, _user: unknown): Promise<boolean | undefined> {
    return Promise.resolve(undefined);
  }

  update(changes: object, options: Data = {}): Promise<this> {
    const store = stores.get(this);
    if (!store) throw new Error("This document is not stored.");
    store.apply(this._source, changes, options);
    return Promise.resolve(this);
  }
}

export class ItemDouble extends DocumentDouble {
  static override documentName = "Item";
}

export class ActorDouble extends DocumentDouble {
  static override documentName = "Actor";
  items: DocCollection<DocumentDouble> = new DocCollection([]);
}

/** A collection of valid documents, with those that failed validation kept apart. */
export class DocCollection<T> {
  readonly invalidDocumentIds: Set<string>;
  constructor(
    readonly contents: T[],
    private readonly invalid: Map<string, unknown> = new Map(),
  ) {
    this.invalidDocumentIds = new Set(invalid.keys());
  }
  [Symbol.iterator](): Iterator<T> {
    return this.contents[Symbol.iterator]();
  }
  get size(): number {
    return this.contents.length;
  }
  getInvalid(id: string): unknown {
    if (!this.invalid.has(id)) throw new Error(`${id} is not an invalid document of this collection.`);
    return this.invalid.get(id);
  }
}

export interface DocumentClasses {
  readonly Actor: new (data: Data, options?: { parent?: unknown }) => ActorDouble;
  readonly Item: new (data: Data, options?: { parent?: unknown }) => DocumentDouble;
}

/**
 * Builds a stored actor's document (with its embedded items) from its record, as a world load
 * or a compendium's getDocuments does; every write goes to the record.
 */
export function loadActor(classes: DocumentClasses, record: StoredRecord): ActorDouble {
  const raw = structuredClone(record.db);
  const items = Array.isArray(raw.items) ? (raw.items as Data[]) : [];
  const actor = new classes.Actor({ ...raw, items: undefined });
  stores.set(actor, record);
  actor.items = new DocCollection(
    items.map((itemRaw, i) => {
      const item = new classes.Item(itemRaw, { parent: actor });
      // An embedded item's write lands in its entry of the actor's record.
      stores.set(item, new StoredRecord((record.db.items as Data[])[i] as Data, record.locked));
      return item;
    }),
  );
  return actor;
}

export function loadItem(classes: DocumentClasses, record: StoredRecord): DocumentDouble {
  const item = new classes.Item(structuredClone(record.db));
  stores.set(item, record);
  return item;
}

/** A document without a data model here (a delta, a chat message, a combat): its source is the record as stored. */
export class RawDocument {
  readonly _source: Data;
  constructor(
    readonly uuid: string,
    readonly record: StoredRecord,
    readonly type?: string,
    readonly name?: string,
  ) {
    this._source = structuredClone(record.db);
  }
  toObject(): Data {
    return structuredClone(this._source);
  }
  update(changes: object, options: Data = {}): Promise<this> {
    this.record.apply(this._source, changes, options);
    return Promise.resolve(this);
  }
}

/** A compendium: its records, its lock, and getDocuments building the documents from them. */
export class PackDouble<T> extends DocCollection<T> {
  configures: boolean[] = [];
  constructor(
    readonly collection: string,
    readonly documentName: "Actor" | "Item",
    public locked: boolean,
    readonly metadata: { packageType: string; system?: string },
    private readonly load: (pack: PackDouble<T>) => T[],
  ) {
    super([]);
  }
  configure(changes: { locked: boolean }): Promise<this> {
    this.configures.push(changes.locked);
    this.locked = changes.locked;
    return Promise.resolve(this);
  }
  getDocuments(): Promise<T[]> {
    return Promise.resolve(this.load(this));
  }
}
