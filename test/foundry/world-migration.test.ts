import "../support/foundry-globals";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  WORLD_SCHEMA_VERSION,
  documentsToMigrate,
  migrateAttackCardSystem,
  migrateCombatSystem,
  migrateCombatantSystem,
  migrateWorld,
  shouldMigratePack,
  shouldMigrateWorld,
  type MigratableCombat,
  type MigratableScene,
} from "../../src/foundry/world-migration";
import { CHARACTER_SCHEMA_VERSION } from "../../src/foundry/data/actor/character";
import { ITEM_SCHEMA_VERSION } from "../../src/foundry/data/item/items";
import { ACTOR_DATA_MODELS, ITEM_DATA_MODELS } from "../../src/foundry/data/index";
import { stubI18nAndNotifications, type Notifications } from "../support/foundry-stubs";
import { installOperators } from "../support/update-operators";
import {
  ActorDouble,
  DocCollection,
  ItemDouble,
  PackDouble,
  RawDocument,
  StoredRecord,
  loadActor,
  loadItem,
  type DocumentClasses,
} from "../support/migration-world";

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

describe("new documents and their token settings (CaseActor, CaseItem)", () => {
  it("a new document gets the current schema version unless its data names one", async () => {
    const { withSchemaVersion } = await import("../../src/foundry/data/fields");
    expect(withSchemaVersion(undefined, 2)).toEqual({ schemaVersion: 2 });
    expect(withSchemaVersion({ abilities: {} }, 2)).toEqual({ schemaVersion: 2 });
    // An import names its own (old) version: kept, so the world migration brings it up to date.
    expect(withSchemaVersion({ schemaVersion: 1 }, 2)).toBeNull();
  });

  it("token defaults fill only what the creation data leaves out: an import or a Duplicate keeps its own", async () => {
    // Foundry's CONST.TOKEN_DISPOSITIONS, and a stand-in Actor base for the module to load.
    vi.stubGlobal("CONST", { TOKEN_DISPOSITIONS: { FRIENDLY: 1, HOSTILE: -1 } });
    vi.stubGlobal("Actor", ActorDouble);
    const { prototypeTokenDefaults } = await import("../../src/foundry/documents/actor");
    expect(prototypeTokenDefaults("hero", undefined)).toEqual({ actorLink: true, disposition: 1, bar1: { attribute: "health" }, bar2: { attribute: "karma" } });
    expect(prototypeTokenDefaults("npc", {})).toEqual({ actorLink: false, disposition: -1, bar1: { attribute: "health" }, bar2: { attribute: "karma" } });
    // A villain set up as linked and neutral in a compendium, with its own bar: all kept.
    expect(prototypeTokenDefaults("npc", { actorLink: true, disposition: 0, bar1: { attribute: "karma" }, bar2: { attribute: "health" } })).toEqual({});
    expect(prototypeTokenDefaults("npc", { actorLink: true })).toEqual({ disposition: -1, bar1: { attribute: "health" }, bar2: { attribute: "karma" } });
  });
});

// ── the whole migration, over a world of stored records (test/support/migration-world.ts) ────

const HUGE = "99999999999999999999";

type Data = Record<string, unknown>;
let classes: DocumentClasses;

beforeAll(async () => {
  ActorDouble.models = ACTOR_DATA_MODELS;
  ItemDouble.models = ITEM_DATA_MODELS;
  vi.stubGlobal("Actor", ActorDouble);
  vi.stubGlobal("Item", ItemDouble);
  // Foundry's CONST.TOKEN_DISPOSITIONS (public API: SECRET -2, HOSTILE -1, NEUTRAL 0, FRIENDLY 1).
  vi.stubGlobal("CONST", { TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 } });
  const { CaseActor } = await import("../../src/foundry/documents/actor");
  const { CaseItem } = await import("../../src/foundry/documents/item");
  // At run time these extend the doubles (the globals `Actor` and `Item` above); their types are Foundry's.
  classes = { Actor: CaseActor as unknown as DocumentClasses["Actor"], Item: CaseItem as unknown as DocumentClasses["Item"] };
});

afterAll(() => {
  vi.unstubAllGlobals();
});

interface WorldParts {
  actors?: StoredRecord[];
  invalidActors?: Map<string, unknown>;
  items?: StoredRecord[];
  scenes?: MigratableScene[];
  packs?: PackDouble<unknown>[];
  messages?: DocCollection<RawDocument>;
  combats?: DocCollection<MigratableCombat>;
}

interface Run {
  notifications: Notifications;
  setting: { version: number };
  /** What the migration wrote to console.warn, one entry per call. */
  warnings: string[];
}

/** Loads the world from its records (as a world load does) and runs migrateWorld as the active GM. */
async function migrate(parts: WorldParts, worldVersion = 0, generation: 13 | 14 = 13): Promise<Run> {
  const setting = { version: worldVersion };
  installOperators(generation);
  const notifications = stubI18nAndNotifications({
    release: { generation },
    users: { activeGM: { isSelf: true } },
    settings: {
      get: () => setting.version,
      set: (_ns: string, _key: string, value: number) => {
        setting.version = value;
        return Promise.resolve(value);
      },
    },
    actors: new DocCollection((parts.actors ?? []).map((r) => loadActor(classes, r)), parts.invalidActors),
    items: new DocCollection((parts.items ?? []).map((r) => loadItem(classes, r))),
    scenes: parts.scenes ?? [],
    packs: parts.packs ?? [],
    messages: parts.messages ?? new DocCollection([]),
    combats: parts.combats ?? new DocCollection([]),
  });
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  let warnings: string[] = [];
  try {
    await migrateWorld();
  } finally {
    warnings = warn.mock.calls.map((c) => String(c[0]));
    error.mockRestore();
    warn.mockRestore();
  }
  return { notifications, setting, warnings };
}

function hero(id: string, system: Data, extra: Data = {}): StoredRecord {
  return new StoredRecord({ _id: id, name: `Hero ${id}`, type: "hero", system, flags: {}, ...extra });
}

describe("migrateWorld: what it finds and how it writes", () => {
  it("migrates a document stored without schemaVersion (it no longer reads as current: B5)", async () => {
    const old = hero("old", { abilities: { fighting: "30" }, health: 75 });
    const current = hero("cur", { schemaVersion: CHARACTER_SCHEMA_VERSION, health: { value: 20 } });
    const run = await migrate({ actors: [old, current] });
    expect(old.db.system).toMatchObject({ schemaVersion: CHARACTER_SCHEMA_VERSION, abilities: { fighting: { value: 30 } }, health: { value: 75 } });
    expect(current.writes).toEqual([]);
    expect(run.setting.version).toBe(WORLD_SCHEMA_VERSION);
  });

  it("merges the migrated data into the stored record: keys the schema does not know stay, old shapes are replaced", async () => {
    // Stored with an old version, so the write-back itself is what is tested (not B5).
    const record = hero("h", { schemaVersion: 0, abilities: { fighting: "30", reason: { value: "6", notes: "keep me" } }, health: { max: 77 }, homebrew: { origin: "Mars" } });
    await migrate({ actors: [record] });
    const system = record.db.system as Data;
    expect(system.homebrew).toEqual({ origin: "Mars" });
    expect(system.abilities).toMatchObject({ fighting: { value: 30 }, reason: { value: 6, notes: "keep me" } });
    // The pool kept its number (M6), and the write merged rather than replaced.
    expect((system.health as Data).value).toBe(77);
    expect(record.writes[0]?.options).toMatchObject({ diff: false, recursive: true });
  });

  it("migrates the items of world actors and world items, and writes nothing the second time", async () => {
    const actor = hero("a", { health: 5 }, { items: [{ _id: "i1", name: "Blast", type: "power", system: { rank: "30" }, flags: {} }] });
    const item = new StoredRecord({ _id: "w1", name: "Club", type: "weapon", system: { damage: { rank: "10" } }, flags: {} });
    await migrate({ actors: [actor], items: [item] });
    expect((actor.db.items as Data[])[0]?.system).toMatchObject({ rank: 30, schemaVersion: ITEM_SCHEMA_VERSION });
    expect(item.db.system).toMatchObject({ damage: { rank: 10 }, schemaVersion: ITEM_SCHEMA_VERSION });
    const writes = actor.writes.length + item.writes.length;
    await migrate({ actors: [actor], items: [item] });
    expect(actor.writes.length + item.writes.length).toBe(writes);
  });

  it("migrates the world's own compendia of actors and items, locked ones unlocked and locked again; never a system's or another system's", async () => {
    const packed = hero("p", { health: 40 }, { items: [{ _id: "i1", name: "Blast", type: "power", system: { rank: "20" }, flags: {} }] });
    const worldPack = new PackDouble<unknown>("world.villains", "Actor", true, { packageType: "world", system: "case" }, (p) => [loadActor(classes, packed.withLock(p))]);
    const shipped = hero("s", { health: 40 });
    const systemLoads = vi.fn(() => [loadActor(classes, shipped)]);
    const systemPack = new PackDouble<unknown>("case.heroes", "Actor", true, { packageType: "system", system: "case" }, systemLoads);
    const otherLoads = vi.fn(() => []);
    const otherSystem = new PackDouble<unknown>("world.dnd", "Item", false, { packageType: "world", system: "dnd5e" }, otherLoads);
    await migrate({ packs: [worldPack, systemPack, otherSystem] });
    expect(packed.db.system).toMatchObject({ health: { value: 40 }, schemaVersion: CHARACTER_SCHEMA_VERSION });
    expect((packed.db.items as Data[])[0]?.system).toMatchObject({ rank: 20, schemaVersion: ITEM_SCHEMA_VERSION });
    expect(worldPack.configures).toEqual([false, true]);
    expect(worldPack.locked).toBe(true);
    expect(systemLoads).not.toHaveBeenCalled();
    expect(otherLoads).not.toHaveBeenCalled();
    expect(shipped.writes).toEqual([]);
    expect(shouldMigratePack({ documentName: "Scene", metadata: { packageType: "world" } })).toBe(false);
    expect(shouldMigratePack({ documentName: "Item", metadata: { packageType: "world" } })).toBe(true);
  });

  it("migrates an unlinked token's actor delta as the partial data it is; linked tokens and current deltas are not written", async () => {
    const delta = new StoredRecord({ system: { health: 75, abilities: { fighting: "30" }, homebrew: 1 } });
    const current = new StoredRecord({ system: { health: { value: 5 } } });
    const linked = new StoredRecord({ system: { health: 9 } });
    const refused = new StoredRecord({ system: { abilities: { fighting: { value: HUGE, off: 20 } } }, flags: {} });
    const token = (record: StoredRecord, actorLink = false) => ({ actorLink, actor: { type: "npc" }, delta: new RawDocument(`Scene.s.Token.t.ActorDelta.${String(record.db.name)}`, record) });
    const run = await migrate({ scenes: [{ tokens: [token(delta), token(current), token(linked, true), token(refused)] }] });
    // Only what the delta overrides, migrated: the base actor's other data is not copied in.
    expect(delta.db.system).toEqual({ health: { value: 75 }, abilities: { fighting: { value: 30 } }, homebrew: 1 });
    expect(current.writes).toEqual([]);
    expect(linked.writes).toEqual([]);
    // A refused number is deleted from the delta (the base actor's value shows), its text kept.
    expect(refused.db.system).toEqual({ abilities: { fighting: { off: 20 } } });
    expect(refused.db.flags).toEqual({ case: { migrationLost: [{ path: "abilities.fighting.value", text: HUGE }] } });
    expect(run.notifications.warn).toHaveBeenCalledTimes(1);
  });

  it.each([13, 14] as const)("deletion really deletes on %i: a refused number is deleted from an unlinked token's delta, so the base actor's value shows", async (generation) => {
    const refused = new StoredRecord({ system: { abilities: { fighting: { value: HUGE, off: 20 } } }, flags: {} });
    const token = { actorLink: false, actor: { type: "npc" }, delta: new RawDocument("Scene.s.Token.t.ActorDelta.d", refused) };
    await migrate({ scenes: [{ tokens: [token] }] }, 0, generation);
    expect(refused.db.system).toEqual({ abilities: { fighting: { off: 20 } } });
    expect(refused.db.flags).toEqual({ case: { migrationLost: [{ path: "abilities.fighting.value", text: HUGE }] } });
  });

  it("a number too large to keep: the document stays valid, the field reads as its default, the text is kept in flags and the GM is warned naming the field", async () => {
    const record = hero("big", { abilities: { fighting: { value: HUGE } }, resources: HUGE });
    const run = await migrate({ actors: [record] });
    const system = record.db.system as { abilities: { fighting: { value: number } }; resources: number };
    expect(system.abilities.fighting.value).toBe(6);
    expect(system.resources).toBe(6);
    expect(record.db.flags).toEqual({
      case: {
        migrationLost: [
          { path: "abilities.fighting.value", text: HUGE },
          { path: "resources", text: HUGE },
        ],
      },
    });
    expect(run.notifications.warn).toHaveBeenCalledTimes(1);
    const text = String(run.notifications.warn.mock.calls[0]?.[0]);
    expect(text).toContain("system.abilities.fighting.value");
    expect(text).toContain(HUGE);
    expect(text).toContain("flags.case.migrationLost");
    expect(run.setting.version).toBe(WORLD_SCHEMA_VERSION);
  });

  it("reports documents that failed validation (console and one GM notification) and then does not set the world version", async () => {
    const invalid = new Map<string, unknown>([
      ["bad1", { name: "Broken Hero", uuid: "Actor.bad1", type: "hero" }],
      ["bad2", { name: "Broken Villain", uuid: "Actor.bad2", type: "npc" }],
    ]);
    const fine = hero("ok", { health: 5 });
    const run = await migrate({ actors: [fine], invalidActors: invalid });
    expect(fine.db.system).toMatchObject({ schemaVersion: CHARACTER_SCHEMA_VERSION });
    expect(run.notifications.error).toHaveBeenCalledTimes(1);
    const text = String(run.notifications.error.mock.calls[0]?.[0]);
    expect(text).toContain("2 document(s) failed validation");
    expect(text).toContain("Broken Hero (Actor.bad1)");
    expect(run.warnings.filter((w) => w.includes("failed validation"))).toHaveLength(2);
    expect(run.setting.version).toBe(0);
  });

  it("a write that fails is reported and the world version stays", async () => {
    const locked = hero("l", { health: 5 });
    const broken = new StoredRecord(locked.db, () => true);
    const run = await migrate({ actors: [broken] });
    expect(run.notifications.error).toHaveBeenCalledTimes(1);
    expect(String(run.notifications.error.mock.calls[0]?.[0])).toContain("1 document(s) could not be migrated");
    expect(run.setting.version).toBe(0);
  });

  it("visits attack cards and combats: their migrations keep every key, and invalid ones are reported", async () => {
    const system = { exchange: { version: 1 }, revision: 2, future: { kept: true } };
    expect(migrateAttackCardSystem(structuredClone(system))).toEqual(system);
    expect(migrateCombatSystem({ phase: "declare", later: 1 })).toEqual({ phase: "declare", later: 1 });
    expect(migrateCombatantSystem({ declaration: null, later: 1 })).toEqual({ declaration: null, later: 1 });
    const card = new StoredRecord({ type: "attack", system });
    const messages = new DocCollection(
      [new RawDocument("ChatMessage.c1", card, "attack")],
      new Map<string, unknown>([
        ["m2", { uuid: "ChatMessage.m2", type: "attack" }],
        ["m3", { uuid: "ChatMessage.m3", type: "base" }],
      ]),
    );
    const combatant = new RawDocument("Combat.k.Combatant.a", new StoredRecord({ system: { declaration: null } }));
    const combat = Object.assign(new RawDocument("Combat.k", new StoredRecord({ system: { phase: "declare" } })), {
      combatants: new DocCollection([combatant], new Map<string, unknown>([["b", { uuid: "Combat.k.Combatant.b" }]])),
    });
    const run = await migrate({ messages, combats: new DocCollection<MigratableCombat>([combat]) });
    expect(card.writes).toEqual([]);
    const text = String(run.notifications.error.mock.calls[0]?.[0]);
    expect(text).toContain("2 document(s) failed validation");
    expect(text).toContain("ChatMessage.m2");
    expect(text).toContain("Combat.k.Combatant.b");
    expect(text).not.toContain("ChatMessage.m3");
  });
});
