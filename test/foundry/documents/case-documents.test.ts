/**
 * CaseActor and CaseItem over the Document double of test/support/migration-world.ts (which
 * builds a source as Foundry does: `_initializeSource` migrates and cleans it): what a new
 * document gets on creation, what a compendium import or a Duplicate keeps, and where a number
 * too large to keep goes.
 */
import "../../support/foundry-globals";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTOR_DATA_MODELS, ITEM_DATA_MODELS } from "../../../src/foundry/data/index";
import { CHARACTER_SCHEMA_VERSION } from "../../../src/foundry/data/actor/character";
import { ITEM_SCHEMA_VERSION } from "../../../src/foundry/data/item/items";
import { ActorDouble, ItemDouble } from "../../support/migration-world";
import { stubI18nAndNotifications } from "../../support/foundry-stubs";

type Data = Record<string, unknown>;

interface Created {
  readonly _source: Data;
  _preCreate(data: Data, options: Data, user: unknown): Promise<boolean | undefined>;
}

let CaseActor: new (data: Data) => Created;
let CaseItem: new (data: Data) => Created;

const HUGE = "99999999999999999999";

beforeAll(async () => {
  ActorDouble.models = ACTOR_DATA_MODELS;
  ItemDouble.models = ITEM_DATA_MODELS;
  vi.stubGlobal("Actor", ActorDouble);
  vi.stubGlobal("Item", ItemDouble);
  // Foundry's CONST.TOKEN_DISPOSITIONS (public API: SECRET -2, HOSTILE -1, NEUTRAL 0, FRIENDLY 1).
  vi.stubGlobal("CONST", { TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 } });
  CaseActor = (await import("../../../src/foundry/documents/actor")).CaseActor as unknown as typeof CaseActor;
  CaseItem = (await import("../../../src/foundry/documents/item")).CaseItem as unknown as typeof CaseItem;
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** Builds the pending document from creation data and runs its _preCreate, as Foundry's create does. */
async function create(Class: new (data: Data) => Created, data: Data): Promise<Created> {
  const doc = new Class(structuredClone(data));
  await doc._preCreate(data, {}, null);
  return doc;
}

describe("CaseActor on creation: token settings (B4)", () => {
  it("a new hero gets a linked, friendly token with Health and Karma bars; a new NPC an unlinked, hostile one", async () => {
    stubI18nAndNotifications();
    const hero = await create(CaseActor, { name: "Kestrel", type: "hero" });
    expect(hero._source.prototypeToken).toEqual({ actorLink: true, disposition: 1, bar1: { attribute: "health" }, bar2: { attribute: "karma" } });
    const npc = await create(CaseActor, { name: "Thug", type: "npc" });
    expect(npc._source.prototypeToken).toMatchObject({ actorLink: false, disposition: -1 });
  });

  it("a compendium import or a Duplicate keeps the token settings it brings", async () => {
    stubI18nAndNotifications();
    const token = { actorLink: true, disposition: 0, bar1: { attribute: "karma" }, bar2: { attribute: null } };
    const villain = await create(CaseActor, { name: "Lady Lullaby", type: "npc", prototypeToken: token, system: { schemaVersion: CHARACTER_SCHEMA_VERSION } });
    expect(villain._source.prototypeToken).toEqual(token);
    // Settings the data leaves out still get the defaults.
    const partial = await create(CaseActor, { name: "Kestrel", type: "hero", prototypeToken: { actorLink: false } });
    expect(partial._source.prototypeToken).toEqual({ actorLink: false, disposition: 1, bar1: { attribute: "health" }, bar2: { attribute: "karma" } });
  });
});

describe("CaseActor and CaseItem on creation: schema version and refused numbers", () => {
  it("a new document gets the current schema version", async () => {
    stubI18nAndNotifications();
    expect(((await create(CaseActor, { name: "K", type: "hero" }))._source.system as Data).schemaVersion).toBe(CHARACTER_SCHEMA_VERSION);
    expect(((await create(CaseItem, { name: "Blast", type: "power" }))._source.system as Data).schemaVersion).toBe(ITEM_SCHEMA_VERSION);
  });

  it("an import with a number too large to keep: valid, the field at its default, the text in flags, the user warned naming the field", async () => {
    const notifications = stubI18nAndNotifications();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const actor = await create(CaseActor, { name: "Import", type: "hero", system: { abilities: { fighting: { value: HUGE } } } });
    const item = await create(CaseItem, { name: "Blast", type: "power", system: { rank: HUGE } });
    warn.mockRestore();
    expect((actor._source.system as { abilities: { fighting: { value: unknown } } }).abilities.fighting.value).toBe(6);
    expect(actor._source.flags).toEqual({ case: { migrationLost: [{ path: "abilities.fighting.value", text: HUGE }] } });
    expect((item._source.system as Data).rank).toBe(6);
    expect(item._source.flags).toEqual({ case: { migrationLost: [{ path: "rank", text: HUGE }] } });
    expect(notifications.warn).toHaveBeenCalledTimes(2);
    expect(String(notifications.warn.mock.calls[0]?.[0])).toContain(`Import: system.abilities.fighting.value (${HUGE})`);
    // A Duplicate of that actor (already migrated, its record in flags) refuses nothing new: no warning.
    const copy = await create(CaseActor, structuredClone(actor._source));
    expect(copy._source.flags).toEqual(actor._source.flags);
    expect(notifications.warn).toHaveBeenCalledTimes(2);
  });
});
