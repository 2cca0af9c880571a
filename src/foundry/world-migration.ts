/**
 * World migration. `migrateData` (data/migrations.ts) already turns every old source into the
 * current shape when Foundry loads it; this writes those migrated sources back, once, so the
 * database itself is current. It runs on `ready` on the active GM only, and only when the
 * world's stored system schema version is older than this code's.
 *
 * What it covers, after dnd5e's migrateWorld (foundryvtt/dnd5e, module/migration.mjs): world
 * actors and their items, world items, the actor deltas of unlinked tokens on every scene,
 * the world's own compendia of actors and items, attack cards and combats (with their
 * combatants). Documents that failed validation are not in the collections; they are listed
 * (`invalidDocumentIds`, as dnd5e reads them) and reported, and the world version is set only
 * when every document was migrated, so the next load tries again.
 *
 * How it writes. The client's `_source` is the migrated source after Foundry's cleaning, which
 * prunes keys the schema does not define; the database still holds them. So a write sends the
 * whole migrated `system` without differencing it against `_source` (`diff: false`: the
 * differences from an already migrated `_source` would be nothing but the version) and merges
 * it into the stored record (`recursive: true`): every key we know is brought up to date, every
 * key we do not know stays in the database (Foundry's DatabaseUpdateOperation: `recursive`
 * "Merge objects recursively. If false, inner objects will be replaced explicitly").
 */
import { CHARACTER_SCHEMA_VERSION } from "./data/actor/character";
import { ITEM_SCHEMA_VERSION } from "./data/item/items";
import { COMBAT_SCHEMA_VERSION } from "./data/combat/combat";
import { COMBATANT_SCHEMA_VERSION } from "./data/combat/combatant";
import { ATTACK_CARD_SCHEMA_VERSION } from "./exchange/card-model";
import { migrateCharacterSource, type LostValues } from "./data/migrations";
import { LOST_FLAG, lostEntries, lostFlagValue, lostValuesOf, warnLostValues, type LostEntry } from "./documents/migration-lost";
import { deletionUpdate } from "./core/compat";
import { SYSTEM_ID } from "./core/constants";

/** The world schema version this code writes: the highest document schema version. */
export const WORLD_SCHEMA_VERSION = Math.max(CHARACTER_SCHEMA_VERSION, ITEM_SCHEMA_VERSION, COMBAT_SCHEMA_VERSION, COMBATANT_SCHEMA_VERSION, ATTACK_CARD_SCHEMA_VERSION);

/** A document as the planner sees it: its stored schema version (undefined when never written). */
export interface StoredDocument {
  readonly uuid: string;
  readonly storedVersion: number | undefined;
  readonly currentVersion: number;
}

/** The documents whose stored system data is older than the code's (pure; tested). */
export function documentsToMigrate(docs: readonly StoredDocument[]): string[] {
  return docs.filter((d) => d.storedVersion === undefined || d.storedVersion < d.currentVersion).map((d) => d.uuid);
}

/** True when this client should migrate the world now. */
export function shouldMigrateWorld(isActiveGM: boolean, worldVersion: number): boolean {
  return isActiveGM && worldVersion < WORLD_SCHEMA_VERSION;
}

// ── migration functions of the system data that migrateData does not cover ───────────────────

type SystemSource = Record<string, unknown>;

/**
 * An attack card's `system` (ChatMessage type "attack"): the identity for now. A later schema
 * change of the card migrates here, keeping every key it does not understand.
 */
export function migrateAttackCardSystem(system: SystemSource): SystemSource {
  return system;
}

/** A combat's `system` (the CASE turn): the identity for now, keeping every key. */
export function migrateCombatSystem(system: SystemSource): SystemSource {
  return system;
}

/** A combatant's `system` (its declaration and counters): the identity for now, keeping every key. */
export function migrateCombatantSystem(system: SystemSource): SystemSource {
  return system;
}

// ── what the migration reads of Foundry's documents and collections ──────────────────────────

/** A document: Foundry's Actor, Item, ActorDelta, ChatMessage, Combat and Combatant have these members. */
export interface MigratableDocument {
  readonly uuid: string;
  readonly name?: string | null;
  readonly type?: string;
  readonly _source: { readonly system?: unknown; readonly flags?: unknown };
  update(data: object, options?: object): Promise<unknown>;
}

/**
 * A collection: its valid documents, and the ids of those that failed validation, which
 * Foundry keeps out of it (WorldCollection, EmbeddedCollection, CompendiumCollection;
 * `invalidDocumentIds` and `getInvalid(id)`, as dnd5e's migrateWorld reads them).
 */
export interface MigratableCollection<T> extends Iterable<T> {
  readonly invalidDocumentIds?: ReadonlySet<string>;
  getInvalid?(id: string): unknown;
}

export interface MigratableActor extends MigratableDocument {
  readonly items: MigratableCollection<MigratableDocument>;
}

export interface MigratableToken {
  readonly actorLink: boolean;
  /** The token's actor (synthetic when unlinked): here only its type is read. */
  readonly actor: { readonly type?: string } | null;
  /** The unlinked token's own overrides; its `system` is partial. */
  readonly delta: MigratableDocument | null;
}

export interface MigratableScene {
  readonly tokens: Iterable<MigratableToken>;
}

export interface MigratablePack extends MigratableCollection<unknown> {
  readonly collection: string;
  readonly documentName: string;
  readonly locked: boolean;
  readonly metadata: { readonly packageType?: string; readonly system?: string };
  configure(changes: { locked: boolean }): Promise<unknown>;
  getDocuments(): Promise<unknown[]>;
}

export interface MigratableCombat extends MigratableDocument {
  readonly combatants: MigratableCollection<MigratableDocument>;
}

/** The world as the migration reads it (Foundry's `game`). */
export interface MigratableWorld {
  readonly actors: MigratableCollection<MigratableActor>;
  readonly items: MigratableCollection<MigratableDocument>;
  readonly scenes: Iterable<MigratableScene>;
  readonly packs: Iterable<MigratablePack>;
  readonly messages: MigratableCollection<MigratableDocument>;
  readonly combats: MigratableCollection<MigratableCombat>;
}

/** What a migration did and could not do. */
export interface MigrationReport {
  /** Documents written. */
  written: number;
  /** Documents (or packs) whose write failed: their stored data is unchanged. */
  readonly failed: string[];
  /** Documents that failed validation, so Foundry kept them out of the world: not migrated. */
  readonly invalid: string[];
  /** Numbers too large to keep, found in the documents written (their text is kept in flags). */
  readonly lost: LostEntry[];
}

// ── helpers ─────────────────────────────────────────────────────────────────────────────────

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameData(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameData(a[k], b[k]));
  }
  return false;
}

function storedVersion(system: Record<string, unknown>): number | undefined {
  const v = system.schemaVersion;
  return typeof v === "number" ? v : undefined;
}

function label(doc: { readonly name?: string | null; readonly uuid: string }): string {
  return doc.name ? `${doc.name} (${doc.uuid})` : doc.uuid;
}

/** The write every whole-document migration uses: see the header. */
const MERGE_WHOLE = { diff: false, recursive: true, render: false } as const;

async function write(doc: MigratableDocument, update: object, options: object, report: MigrationReport): Promise<boolean> {
  try {
    await doc.update(update, options);
    report.written += 1;
    return true;
  } catch (error) {
    // Keep going: one bad document must not stop the others; its stored data stays as it was.
    console.error(`${SYSTEM_ID} | could not migrate ${label(doc)}`, error);
    report.failed.push(doc.uuid);
    return false;
  }
}

/** Lists the documents of `collection` that failed validation (those `accept` takes). */
function noteInvalid(collection: MigratableCollection<unknown>, where: string, report: MigrationReport, accept: (doc: unknown) => boolean = () => true): void {
  for (const id of collection.invalidDocumentIds ?? []) {
    let doc: unknown;
    try {
      doc = collection.getInvalid?.(id);
    } catch {
      doc = undefined;
    }
    if (doc !== undefined && !accept(doc)) continue;
    const named = isRecord(doc) && typeof doc.uuid === "string" ? label(doc as { name?: string | null; uuid: string }) : `${where} ${id}`;
    console.warn(`${SYSTEM_ID} | ${named} failed validation, so Foundry left it out of the world; it was not migrated`);
    report.invalid.push(named);
  }
}

// ── the steps ───────────────────────────────────────────────────────────────────────────────

/** A whole actor or item: its migrated `system`, with the current version, merged into the stored record. */
async function migrateWhole(doc: MigratableDocument, current: number, report: MigrationReport): Promise<void> {
  const system = doc._source.system;
  if (!isRecord(system)) return;
  if (documentsToMigrate([{ uuid: doc.uuid, storedVersion: storedVersion(system), currentVersion: current }]).length === 0) return;
  const update: Record<string, unknown> = { system: { ...structuredClone(system), schemaVersion: current } };
  const lost = lostValuesOf(doc._source);
  if (Object.keys(lost).length > 0) update.flags = { [SYSTEM_ID]: { [LOST_FLAG]: lostFlagValue(lost) } };
  if (await write(doc, update, MERGE_WHOLE, report)) report.lost.push(...lostEntries(doc.name ?? doc.uuid, lost));
}

async function migrateItems(items: MigratableCollection<MigratableDocument>, where: string, report: MigrationReport): Promise<void> {
  noteInvalid(items, where, report);
  for (const item of items) await migrateWhole(item, ITEM_SCHEMA_VERSION, report);
}

async function migrateActors(actors: MigratableCollection<MigratableActor>, where: string, report: MigrationReport): Promise<void> {
  noteInvalid(actors, where, report);
  for (const actor of actors) {
    await migrateWhole(actor, CHARACTER_SCHEMA_VERSION, report);
    await migrateItems(actor.items, `${label(actor)}: Item`, report);
  }
}

/** The actor types whose system data is a character's. */
const CHARACTER_TYPES: ReadonlySet<string | undefined> = new Set(["hero", "npc"]);

/**
 * An unlinked token's actor delta. Its `system` holds only what the token overrides, so it is
 * migrated as a partial source and written as such (never the synthetic actor's whole data,
 * which would cut the token off from later changes to its base actor). A refused value is
 * deleted from the delta, so the token reads its base actor's value again.
 */
async function migrateDelta(delta: MigratableDocument, report: MigrationReport): Promise<void> {
  const raw = delta._source.system;
  if (!isRecord(raw) || Object.keys(raw).length === 0) return;
  const lost: LostValues = {};
  const migrated = migrateCharacterSource(structuredClone(raw), lost, { partial: true });
  const refused = Object.keys(lost);
  if (refused.length === 0 && sameData(migrated, raw)) return;
  const update: Record<string, unknown> = { system: migrated };
  for (const path of refused) {
    const parts = path.split(".");
    const key = parts.pop() ?? path;
    const parent = parts.reduce<unknown>((node, part) => (isRecord(node) ? node[part] : undefined), migrated);
    // A value that stood alone (`health: "999…"`) is already replaced by the object in `migrated`.
    if (isRecord(parent)) Object.assign(update, deletionUpdate(["system", ...parts].join("."), [key]));
  }
  const kept = { ...lostValuesOf(delta._source), ...lost };
  if (refused.length > 0) update.flags = { [SYSTEM_ID]: { [LOST_FLAG]: lostFlagValue(kept) } };
  if (await write(delta, update, MERGE_WHOLE, report)) report.lost.push(...lostEntries(delta.name ?? delta.uuid, lost));
}

/**
 * A document whose system data has a migration function here: written only where the function
 * changed something, and then only the changed paths (Foundry differences the update against
 * the document; `recursive` merges).
 */
async function migrateByFunction(doc: MigratableDocument, migrate: (system: SystemSource) => SystemSource, report: MigrationReport): Promise<void> {
  const system = doc._source.system;
  if (!isRecord(system)) return;
  const migrated = migrate(structuredClone(system));
  if (sameData(migrated, system)) return;
  await write(doc, { system: migrated }, { recursive: true, render: false }, report);
}

/**
 * The packs this migration writes: the world's own compendia of actors and items for this system
 * (dnd5e migrates every world pack and never a system's; a module's packs belong to its author).
 */
export function shouldMigratePack(pack: Pick<MigratablePack, "documentName" | "metadata">): boolean {
  if (pack.documentName !== "Actor" && pack.documentName !== "Item") return false;
  if (pack.metadata.packageType !== "world") return false;
  return pack.metadata.system === undefined || pack.metadata.system === SYSTEM_ID;
}

/** A world compendium: unlocked for the writes if it was locked, and locked again after (as dnd5e does). */
async function migratePack(pack: MigratablePack, report: MigrationReport): Promise<void> {
  const wasLocked = pack.locked;
  try {
    if (wasLocked) await pack.configure({ locked: false });
    const documents = await pack.getDocuments();
    noteInvalid(pack, `${pack.collection}:`, report);
    for (const doc of documents) {
      if (pack.documentName === "Actor") {
        const actor = doc as MigratableActor;
        await migrateWhole(actor, CHARACTER_SCHEMA_VERSION, report);
        await migrateItems(actor.items, `${label(actor)}: Item`, report);
      } else await migrateWhole(doc as MigratableDocument, ITEM_SCHEMA_VERSION, report);
    }
  } catch (error) {
    console.error(`${SYSTEM_ID} | could not migrate the compendium ${pack.collection}`, error);
    report.failed.push(pack.collection);
  } finally {
    if (wasLocked) {
      try {
        await pack.configure({ locked: true });
      } catch (error) {
        console.error(`${SYSTEM_ID} | could not lock the compendium ${pack.collection} again`, error);
        report.failed.push(pack.collection);
      }
    }
  }
}

function isAttackCard(doc: unknown): boolean {
  return isRecord(doc) && doc.type === "attack";
}

/** Migrates every part of the world this system's data lives in; returns what it did (notifies nobody). */
export async function runWorldMigration(world: MigratableWorld): Promise<MigrationReport> {
  const report: MigrationReport = { written: 0, failed: [], invalid: [], lost: [] };
  await migrateActors(world.actors, "Actor", report);
  await migrateItems(world.items, "Item", report);
  for (const scene of world.scenes) {
    for (const token of scene.tokens) {
      if (token.actorLink || !token.delta || !CHARACTER_TYPES.has(token.actor?.type)) continue;
      await migrateDelta(token.delta, report);
    }
  }
  for (const pack of world.packs) if (shouldMigratePack(pack)) await migratePack(pack, report);
  noteInvalid(world.messages, "ChatMessage", report, isAttackCard);
  for (const message of world.messages) if (isAttackCard(message)) await migrateByFunction(message, migrateAttackCardSystem, report);
  noteInvalid(world.combats, "Combat", report);
  for (const combat of world.combats) {
    await migrateByFunction(combat, migrateCombatSystem, report);
    noteInvalid(combat.combatants, `${label(combat)}: Combatant`, report);
    for (const combatant of combat.combatants) await migrateByFunction(combatant, migrateCombatantSystem, report);
  }
  return report;
}

/** Runs the world migration if this client should. Notifies the GM of the result. */
export async function migrateWorld(): Promise<void> {
  const worldVersion = game.settings.get(SYSTEM_ID, "worldSchemaVersion");
  if (!shouldMigrateWorld(game.users.activeGM?.isSelf === true, worldVersion)) return;
  const report = await runWorldMigration(game);
  warnLostValues(report.lost);
  if (report.invalid.length > 0) {
    const list = report.invalid.length > 5 ? `${report.invalid.slice(0, 5).join("; ")}; …` : report.invalid.join("; ");
    ui.notifications.error(game.i18n.format("CASE.Migration.Invalid", { count: String(report.invalid.length), list }), { permanent: true });
  }
  if (report.failed.length > 0) {
    ui.notifications.error(game.i18n.format("CASE.Migration.Failed", { count: String(report.failed.length) }), { permanent: true });
  }
  // Set only when everything is migrated: otherwise the next load tries again.
  if (report.invalid.length > 0 || report.failed.length > 0) return;
  await game.settings.set(SYSTEM_ID, "worldSchemaVersion", WORLD_SCHEMA_VERSION);
  if (report.written > 0) ui.notifications.info(game.i18n.format("CASE.Migration.Done", { count: String(report.written), version: String(WORLD_SCHEMA_VERSION) }));
}
