/**
 * World migration. `migrateData` (data/migrations.ts) already turns every old source into the
 * current shape when Foundry loads it; this writes those migrated sources back, once, so the
 * database itself is current. It runs on `ready` on the active GM only, and only when the
 * world's stored system schema version is older than this code's.
 */
import { CHARACTER_SCHEMA_VERSION } from "./data/actor/character";
import { ITEM_SCHEMA_VERSION } from "./data/item/items";
import { SYSTEM_ID } from "./constants";

/** The world schema version this code writes: the highest document schema version. */
export const WORLD_SCHEMA_VERSION = Math.max(CHARACTER_SCHEMA_VERSION, ITEM_SCHEMA_VERSION);

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

type Migratable = { uuid: string; _source: { system?: unknown }; toObject(): { system?: unknown }; update(data: object, options?: object): Promise<unknown> };

function storedVersion(doc: Migratable): number | undefined {
  const v = (doc._source.system as { schemaVersion?: unknown } | undefined)?.schemaVersion;
  return typeof v === "number" ? v : undefined;
}

async function migrateCollection(docs: readonly Migratable[], current: number, failures: string[]): Promise<number> {
  const byUuid = new Map(docs.map((d) => [d.uuid, d]));
  const todo = documentsToMigrate(docs.map((d) => ({ uuid: d.uuid, storedVersion: storedVersion(d), currentVersion: current })));
  for (const uuid of todo) {
    const doc = byUuid.get(uuid);
    if (!doc) continue;
    try {
      const system = doc.toObject().system as Record<string, unknown> | undefined;
      if (!system) continue;
      await doc.update({ system: { ...system, schemaVersion: current } }, { diff: false, recursive: false });
    } catch (error) {
      // Keep going: one bad document must not stop the others; its source stays as it was.
      console.error(`${SYSTEM_ID} | could not migrate ${uuid}`, error);
      failures.push(uuid);
    }
  }
  return todo.length;
}

/** Runs the world migration if this client should. Notifies the GM of the result. */
export async function migrateWorld(): Promise<void> {
  const worldVersion = game.settings.get(SYSTEM_ID, "worldSchemaVersion");
  if (!shouldMigrateWorld(game.users.activeGM?.isSelf === true, worldVersion)) return;
  const failures: string[] = [];
  let count = 0;
  const actors = [...game.actors] as unknown as Migratable[];
  count += await migrateCollection(actors, CHARACTER_SCHEMA_VERSION, failures);
  for (const actor of game.actors) {
    count += await migrateCollection([...actor.items], ITEM_SCHEMA_VERSION, failures);
  }
  count += await migrateCollection([...game.items], ITEM_SCHEMA_VERSION, failures);
  if (failures.length > 0) {
    ui.notifications.error(game.i18n.format("CASE.Migration.Failed", { count: String(failures.length) }), { permanent: true });
    return;
  }
  await game.settings.set(SYSTEM_ID, "worldSchemaVersion", WORLD_SCHEMA_VERSION);
  if (count > 0) ui.notifications.info(game.i18n.format("CASE.Migration.Done", { count: String(count), version: String(WORLD_SCHEMA_VERSION) }));
}
