/**
 * The migration on an old-schema actor: created with bare-number abilities, a digit string and
 * pools without a value, marked schema version 0; read through the data model (migrated on
 * load), then written back by the real world migration run on a world that holds only it.
 */
import { ABILITY_KEYS } from "../../rules/index";
import { isCharacter } from "../core/guards";
import { CHARACTER_SCHEMA_VERSION } from "../data/actor/character";
import { runWorldMigration, type MigratableActor } from "../world-migration";
import { MIGRATED_HERO, OLD_SCHEMA_HERO, batchSpec } from "./batches";
import { scratchActor, type Scratch } from "./scratch";

interface StoredCharacter {
  schemaVersion?: unknown;
  abilities?: Record<string, unknown>;
  health?: unknown;
  karma?: unknown;
}

function stored(actor: Actor.Implementation): StoredCharacter {
  return actor._source.system as StoredCharacter;
}

function storedValue(node: unknown): unknown {
  return typeof node === "object" && node !== null ? (node as { value?: unknown }).value : node;
}

/** A world of just `actors`: the migration touches nothing of the user's. */
async function migrateOnly(actors: readonly MigratableActor[]): ReturnType<typeof runWorldMigration> {
  return runWorldMigration({ actors, items: [], scenes: [], packs: [], messages: [], combats: [] });
}

export const migrationBatch = batchSpec<Scratch>("migration", ({ describe, it, assert }, scratch) => {
  describe("an old-schema actor", () => {
    let actor: Actor.Implementation | null = null;

    it("is read in the current shape as it loads", async () => {
      actor = await scratchActor(scratch, "old schema", { ...OLD_SCHEMA_HERO, schemaVersion: 0 });
      assert.ok(isCharacter(actor), "a character");
      if (!isCharacter(actor)) return;
      const system = actor.system;
      for (const key of ABILITY_KEYS) assert.equal(system.abilities[key].value, MIGRATED_HERO.abilities[key], `${key} reads as a rank number`);
      assert.equal(system.health.value, MIGRATED_HERO.health, "Health keeps its old maximum as its value");
      assert.equal(system.karma.value, MIGRATED_HERO.karma, "Karma keeps its old current value");
    });

    it("is written back once by the world migration, in the current schema", async () => {
      assert.ok(actor, "the actor exists (the test before passed)");
      if (!actor) return;
      const first = await migrateOnly([actor]);
      assert.equal(first.written, 1, "the actor was written");
      assert.deepEqual(first.failed, [], "nothing failed");
      const system = stored(actor);
      assert.equal(system.schemaVersion, CHARACTER_SCHEMA_VERSION, "the stored schema version is current");
      for (const key of ABILITY_KEYS) assert.equal(storedValue(system.abilities?.[key]), MIGRATED_HERO.abilities[key], `${key} is stored as { value }`);
      assert.equal(storedValue(system.health), MIGRATED_HERO.health, "Health is stored as { value }");
      const second = await migrateOnly([actor]);
      assert.equal(second.written, 0, "a second run writes nothing");
    });
  });
});
