import "../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { WORLD_SCHEMA_VERSION, documentsToMigrate, shouldMigrateWorld } from "../../src/foundry/world-migration";
import { CHARACTER_SCHEMA_VERSION } from "../../src/foundry/data/actor/character";

describe("world migration", () => {
  it("runs only on the active GM, and only when the world is older than the code", () => {
    expect(shouldMigrateWorld(true, 0)).toBe(true);
    expect(shouldMigrateWorld(false, 0)).toBe(false);
    expect(shouldMigrateWorld(true, WORLD_SCHEMA_VERSION)).toBe(false);
    expect(WORLD_SCHEMA_VERSION).toBeGreaterThanOrEqual(CHARACTER_SCHEMA_VERSION);
  });

  it("picks exactly the documents stored with an older (or no) schema version", () => {
    expect(
      documentsToMigrate([
        { uuid: "Actor.new", storedVersion: 2, currentVersion: 2 },
        { uuid: "Actor.old", storedVersion: 1, currentVersion: 2 },
        { uuid: "Actor.never", storedVersion: undefined, currentVersion: 2 },
        { uuid: "Actor.future", storedVersion: 3, currentVersion: 2 },
      ]),
    ).toEqual(["Actor.old", "Actor.never"]);
  });
});
