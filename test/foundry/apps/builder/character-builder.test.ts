/**
 * The character builder (issue 11 item 6) on the Foundry side: its model (builder-context.ts)
 * driven by pre-rolled dice over the real compendium packs, the window's click handlers on a
 * host, the rendered templates (real Handlebars, strict), and the confirmed write against the
 * exchange world's actors (the real data model; ownership as Foundry's testUserPermission).
 * Expected numbers come from the real rules (creation.ts, character.ts), never copies.
 */
import "../../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import {
  ABILITY_KEYS,
  DEFAULT_POINT_RULES,
  POWER_COUNT_TABLE,
  TALENT_COUNT_TABLE,
  characterStats,
  checkPointBuild,
  randomCharacter,
  randomRank,
  readD100Table,
  rollsFrom,
  type RollFn,
} from "../../../../src/rules/index";
import {
  BLANK_RANK,
  MAX_BUILDER_ITEMS,
  addEntry,
  applyEdits,
  blankBuild,
  builderContext,
  builderWrite,
  drawDistinct,
  mayConfirm,
  removeEntry,
  reroll,
  rollBuild,
  startBuild,
  type BuilderCatalogue,
  type BuilderState,
  type BuilderTarget,
} from "../../../../src/foundry/apps/builder/builder-context";
import { BUILDER_ACTIONS, BUILDER_TEMPLATE, CharacterBuilder, mayBuild, openCharacterBuilder, rerollStepOf, writeBuild, type BuilderHost } from "../../../../src/foundry/apps/builder/character-builder";
import { readPack } from "../../../support/pack-files";
import { renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { fakeTarget, stubI18nAndNotifications } from "../../../support/foundry-stubs";
import { BUILDER_PACKS, loadBuilderCatalogue, loadBuilderWindow } from "../../../../src/foundry/apps/builder/builder-loader";
import { packIndexDouble } from "../../../support/compendium-index";
import { ALICE, BOB, FakeActor, characterSource, installWorld, type World } from "../../../support/exchange-world";

/** The catalogue as the window reads it from the compendium indexes: the real packs, sorted by name. */
function catalogueFromPacks(): BuilderCatalogue {
  const entries = (pack: string) =>
    readPack(pack)
      .flatMap(({ doc }) => (doc ? [{ uuid: `Compendium.case.${pack}.Item.${String(doc._id)}`, name: String(doc.name), rank: null }] : []))
      .sort((a, b) => a.name.localeCompare(b.name));
  return { powers: entries("powers"), talents: entries("talents") };
}
const CATALOGUE = catalogueFromPacks();
const contactName = (n: number) => `Contact ${n}`;

/** A die that always rolls `n` (clamped to the die). */
const always = (n: number): RollFn => (sides) => Math.min(n, sides);

describe("character builder: builder pack ranks", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("builder pack ranks: the catalogue reads each power's rank from its compendium's index, so a power added by hand starts at its pack rank and costs its points", async () => {
    const packs = { powers: packIndexDouble("powers"), talents: packIndexDouble("talents") };
    stubI18nAndNotifications({ packs: { get: (id: string) => (id === BUILDER_PACKS.powers ? packs.powers : id === BUILDER_PACKS.talents ? packs.talents : undefined) } });
    const catalogue = await loadBuilderCatalogue();
    const sources = readPack("powers").flatMap(({ doc }) => (doc ? [doc as { _id: string; system: { rank: number } }] : []));
    expect(catalogue.powers).toHaveLength(sources.length);
    for (const doc of sources) expect(catalogue.powers.find((e) => e.uuid.endsWith(`.${doc._id}`))?.rank).toBe(doc.system.rank);
    // The pack's first power (by name) is not Typical, so a default rank would show.
    const first = catalogue.powers[0];
    if (!first) throw new Error("The powers pack is empty.");
    expect(first.rank).not.toBe(BLANK_RANK);
    const build = addEntry(blankBuild("points"), "powers", catalogue, contactName);
    expect(build.powers[0]?.rank).toBe(first.rank);
    expect(catalogue.talents.every((t) => t.rank === null)).toBe(true);
  });
});

describe("character builder: the model", () => {
  it("the compendiums offer enough to draw from (the packs are read, not empty)", () => {
    expect(CATALOGUE.powers.length).toBeGreaterThanOrEqual(5);
    expect(CATALOGUE.talents.length).toBeGreaterThanOrEqual(4);
  });

  it("a random build: abilities and Resources from creation.ts, then that many distinct powers (each at a rolled rank), talents and contacts", () => {
    // 11 rolls for randomCharacter, then the draws: a d(n) per pick and a d100 per power's rank.
    const base = [50, 70, 85, 30, 15, 8, 99, 45, 61, 71, 90];
    // The powers are drawn first (a d(n) each), then each power's rank (a d100 each), then the talents.
    const rolls = [...base, 1, 1, 1, 1, 100, 97, 3, 50, 2, 1, 1];
    const expected = randomCharacter(rollsFrom(base));
    const build = rollBuild(rollsFrom(rolls), CATALOGUE, contactName, "Kestrel");
    expect(build.abilities).toEqual(expected.abilities);
    expect(build.resources).toBe(expected.resources);
    expect(build.powers).toHaveLength(expected.powers);
    expect(build.powers.map((p) => p.rank)).toEqual([randomRank(100), randomRank(97), randomRank(3), randomRank(50)]);
    expect(build.powers.map((p) => p.name)).toEqual(CATALOGUE.powers.slice(0, 4).map((p) => p.name));
    expect(new Set(build.powers.map((p) => p.uuid)).size).toBe(build.powers.length);
    expect(build.talents).toHaveLength(expected.talents);
    expect(build.contacts).toEqual(["Contact 1", "Contact 2"].slice(0, expected.contacts));
    expect(build.name).toBe("Kestrel");
  });

  it("every step can be re-rolled alone: one ability, Resources, a power, a power's rank, a talent; the rest is kept", () => {
    const start = rollBuild(always(50), CATALOGUE, contactName);
    const one = reroll(start, { step: "ability", key: "strength" }, always(99), CATALOGUE, contactName);
    expect(one.abilities.strength).toBe(randomRank(99));
    for (const k of ABILITY_KEYS.filter((k) => k !== "strength")) expect(one.abilities[k]).toBe(start.abilities[k]);
    expect(one.powers).toEqual(start.powers);
    expect(reroll(start, { step: "resources" }, always(1), CATALOGUE, contactName).resources).toBe(randomRank(1));
    const power = reroll(start, { step: "power", index: 0 }, always(1), CATALOGUE, contactName);
    expect(power.powers[0]?.uuid).not.toBe(start.powers[0]?.uuid);
    expect(power.powers.slice(1)).toEqual(start.powers.slice(1));
    const rank = reroll(start, { step: "powerRank", index: 1 }, always(100), CATALOGUE, contactName);
    expect(rank.powers[1]).toEqual({ ...start.powers[1], rank: randomRank(100) });
    const counts = reroll(start, { step: "powers" }, always(100), CATALOGUE, contactName);
    expect(counts.powers).toHaveLength(readD100Table(POWER_COUNT_TABLE, 100));
    expect(reroll(start, { step: "talents" }, always(1), CATALOGUE, contactName).talents).toHaveLength(readD100Table(TALENT_COUNT_TABLE, 1));
  });

  it("edits: a rank of −3, an unknown power, the same talent twice and an empty contact are refused with an error, the old value kept", () => {
    const start = addEntry(addEntry(addEntry(addEntry(blankBuild("points"), "powers", CATALOGUE, contactName), "talents", CATALOGUE, contactName), "talents", CATALOGUE, contactName), "contacts", CATALOGUE, contactName);
    const edited = applyEdits(start, { "abilities.strength": "-3", "powers.0.uuid": "Compendium.case.powers.Item.nope", "talents.1.uuid": start.talents[0]?.uuid, "contacts.0": "  ", "abilities.agility": "30", popularity: "-5" }, CATALOGUE);
    expect(edited.abilities.strength).toBe(start.abilities.strength);
    expect(edited.abilities.agility).toBe(30);
    expect(edited.popularity).toBe(-5);
    expect(edited.powers).toEqual(start.powers);
    expect(edited.talents).toEqual(start.talents);
    expect(edited.contacts).toEqual(start.contacts);
    expect(edited.errors.map((e) => [e.code, e.field])).toEqual([
      ["rank", "abilities.strength"],
      ["unknownPower", "powers.0.uuid"],
      ["empty", "contacts.0"],
      ["duplicate", "talents.1.uuid"],
    ]);
    expect(mayConfirm(edited)).toBe(false);
    // The next good edit clears the errors.
    expect(applyEdits(edited, { "abilities.strength": "40" }, CATALOGUE)).toMatchObject({ errors: [], abilities: { strength: 40 } });
  });

  it("a point build is checked by creation.ts: over budget it may not be confirmed", () => {
    let build = addEntry(blankBuild("points"), "powers", CATALOGUE, contactName);
    expect(builderContext(build, CATALOGUE, null).points).toMatchObject({ budget: DEFAULT_POINT_RULES.budget, spent: checkPointBuild({ abilities: build.abilities, powers: [6], talents: 0, contacts: 0, resources: 6 }).spent });
    expect(mayConfirm(build)).toBe(true);
    const tooHigh = builderContext(applyEdits(build, { "powers.0.rank": "1000" }, CATALOGUE), CATALOGUE, null);
    expect(tooHigh.problems.map((p) => p.key)).toEqual(["CASE.Builder.Problem.aboveMaxRank"]);
    expect(tooHigh.canConfirm).toBe(false);
    for (let i = 0; i < 9; i++) build = addEntry(build, "powers", CATALOGUE, contactName);
    build = applyEdits(build, Object.fromEntries(build.powers.map((_, i) => [`powers.${i}.rank`, "100"])), CATALOGUE);
    const over = builderContext(build, CATALOGUE, null);
    expect(over.points?.over).toBe(true);
    expect(over.problems.map((p) => p.key)).toEqual(["CASE.Builder.Problem.overBudget"]);
    expect(over.canConfirm).toBe(false);
  });

  it("add and remove stop at the limits: no power taken twice, at most MAX_BUILDER_ITEMS", () => {
    let build = blankBuild("points");
    for (let i = 0; i < MAX_BUILDER_ITEMS + 5; i++) build = addEntry(build, "powers", CATALOGUE, contactName);
    expect(build.powers).toHaveLength(Math.min(MAX_BUILDER_ITEMS, CATALOGUE.powers.length));
    expect(new Set(build.powers.map((p) => p.uuid)).size).toBe(build.powers.length);
    expect(removeEntry(build, "powers", 0).powers).toEqual(build.powers.slice(1));
    expect(drawDistinct(CATALOGUE.talents, 1000, always(1))).toHaveLength(CATALOGUE.talents.length);
  });

  it("property: re-rolling one ability changes that ability only, and Health and Karma follow the abilities", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 40, maxLength: 40 }), fc.constantFrom(...ABILITY_KEYS), fc.integer({ min: 1, max: 100 }), (rolls, key, die) => {
        const cycle: RollFn = (() => {
          let i = 0;
          return (sides: number) => ((rolls[i++ % rolls.length] ?? 1) - 1) % sides + 1;
        })();
        const start = rollBuild(cycle, CATALOGUE, contactName);
        const after = reroll(start, { step: "ability", key }, always(die), CATALOGUE, contactName);
        expect({ ...after.abilities, [key]: 0 }).toEqual({ ...start.abilities, [key]: 0 });
        const write = builderWrite(after, null);
        const stats = characterStats(Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: after.abilities[k] }])) as Parameters<typeof characterStats>[0]);
        expect(write.update["system.health.value"]).toBe(stats.healthMax);
        expect(write.update["system.karma.value"]).toBe(stats.karmaMax);
      }),
    );
  });
});

describe("character builder: what confirming writes", () => {
  const target: BuilderTarget = {
    name: "Kestrel",
    abilities: { fighting: 6, agility: 6, strength: 6, endurance: 6, reason: 6, intuition: 6, psyche: 6 },
    resources: 6,
    popularity: 0,
    health: 24,
    karma: 18,
    items: [{ type: "power", name: "Flight" }, { type: "weapon", name: "Sling" }],
  };

  it("a build on an existing hero starts from its abilities, Resources and Popularity: untouched, it replaces only Health and Karma (filled)", () => {
    const spent = { ...target, karma: 5 };
    const build = startBuild("points", spent);
    expect(build).toMatchObject({ name: "Kestrel", abilities: target.abilities, resources: 6, popularity: 0 });
    expect(builderWrite(build, spent).changes).toEqual([{ label: "CASE.Sheet.Karma", from: 5, to: 18 }]);
    expect(builderWrite(startBuild("points", null), null).changes).toEqual([]);
  });

  it("one update (abilities, Resources, Popularity, Health and Karma full) and the items not already there; says what it replaces", () => {
    const flight = CATALOGUE.powers.find((p) => p.name === "Flight");
    const claws = CATALOGUE.powers.find((p) => p.name === "Claws");
    if (!flight || !claws) throw new Error("The powers pack lost Flight or Claws.");
    const build: BuilderState = { ...blankBuild("random"), abilities: { ...target.abilities, strength: 40 }, powers: [{ ...flight, rank: 30 }, { ...claws, rank: 10 }], contacts: ["Lt. Ruiz"] };
    const write = builderWrite(build, target);
    expect(Object.keys(write.update).sort()).toEqual([...ABILITY_KEYS.map((k) => `system.abilities.${k}.value`), "system.health.value", "system.karma.value", "system.popularity", "system.resources"].sort());
    expect(write.changes).toEqual([
      { label: "CASE.Ability.strength", from: 6, to: 40 },
      { label: "CASE.Sheet.Health", from: 24, to: 58 },
    ]);
    expect(write.kept).toEqual(["Flight"]);
    expect(write.create).toEqual([{ type: "power", uuid: claws.uuid, name: "Claws", rank: 10 }, { type: "contact", name: "Lt. Ruiz" }]);
  });
});

describe("character builder: loading its window", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("loads the window's module on first use", async () => {
    const notifications = stubI18nAndNotifications();
    const builder = await loadBuilderWindow();
    expect(builder?.openCharacterBuilder).toBe(openCharacterBuilder);
    expect(notifications.error).not.toHaveBeenCalled();
  });

  it("tells the user to reload when the window's chunk cannot be had (a system updated under an open session), and opens nothing", async () => {
    const notifications = stubI18nAndNotifications();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const missing = new TypeError("Failed to fetch dynamically imported module: /systems/case/chunks/character-builder-OLD.mjs");
    expect(await loadBuilderWindow(() => Promise.reject(missing))).toBeNull();
    expect(notifications.error).toHaveBeenCalledExactlyOnceWith(expect.stringMatching(/could not be loaded.*Reload the page/));
    expect(console.error).toHaveBeenCalledWith(missing);
  });
});

describe("character builder: the window's handlers", () => {
  function host(build: BuilderState): BuilderHost & { refreshed: number; confirmed: number } {
    return {
      build,
      catalogue: CATALOGUE,
      roll: always(100),
      contactName,
      refreshed: 0,
      confirmed: 0,
      refresh() {
        this.refreshed += 1;
        return Promise.resolve();
      },
      confirmBuild() {
        this.confirmed += 1;
        return Promise.resolve(true);
      },
    };
  }
  const click = {} as PointerEvent;

  it("roll everything, re-roll a step, add, remove: each changes the build and shows it again", async () => {
    const h = host(blankBuild("random", "Kestrel"));
    await BUILDER_ACTIONS.builderRollAll.call(h);
    expect(h.build.abilities.strength).toBe(randomRank(100));
    expect(h.build.name).toBe("Kestrel");
    await BUILDER_ACTIONS.builderReroll.call(h, click, fakeTarget({ step: "ability", key: "psyche" }));
    await BUILDER_ACTIONS.builderAdd.call(h, click, fakeTarget({ list: "contacts" }));
    const contacts = h.build.contacts.length;
    await BUILDER_ACTIONS.builderRemove.call(h, click, fakeTarget({ list: "contacts", index: "0" }));
    expect(h.build.contacts).toHaveLength(contacts - 1);
    expect(h.refreshed).toBe(4);
  });

  it("refuses buttons that name no step, list or row; confirm does nothing while the build is not legal", async () => {
    expect(() => rerollStepOf(fakeTarget({ step: "everything" }))).toThrow(/no step/);
    expect(() => rerollStepOf(fakeTarget({ step: "ability", key: "luck" }))).toThrow(/no ability/);
    expect(() => rerollStepOf(fakeTarget({ step: "power", index: "-1" }))).toThrow(/no row/);
    const h = host(blankBuild("points"));
    await expect(BUILDER_ACTIONS.builderAdd.call(h, click, fakeTarget({ list: "gear" }))).rejects.toThrow(/no list/);
    h.build = applyEdits(h.build, { "abilities.fighting": "5000" }, CATALOGUE);
    await BUILDER_ACTIONS.builderConfirm.call(h);
    expect(h.confirmed).toBe(0);
    h.build = blankBuild("points");
    await BUILDER_ACTIONS.builderConfirm.call(h);
    expect(h.confirmed).toBe(1);
  });

  it("the window declares exactly the handlers its template uses", () => {
    const build = rollBuild(always(100), CATALOGUE, contactName);
    const html = renderTemplate(BUILDER_TEMPLATE, builderContext(build, CATALOGUE, null));
    const used = new Set(queryAll(parseHtml(html), "[data-action]").map((el) => attr(el, "data-action") ?? ""));
    expect([...used].sort()).toEqual(Object.keys(BUILDER_ACTIONS).sort());
    expect((CharacterBuilder.DEFAULT_OPTIONS as { actions: object }).actions).toBe(BUILDER_ACTIONS);
  });
});

describe("character builder: the rendered template", () => {
  it("random: seven abilities with their rank names and a re-roll each, the drawn powers with ranks, derived Health and Karma", () => {
    const build = rollBuild(always(100), CATALOGUE, contactName);
    const doc = parseHtml(renderTemplate(BUILDER_TEMPLATE, builderContext(build, CATALOGUE, null)));
    expect(queryAll(doc, 'button[data-step="ability"]')).toHaveLength(7);
    expect(attr(queryOne(doc, 'input[name="abilities.strength"]'), "value")).toBe(String(randomRank(100)));
    expect(queryAll(doc, "li.case-builder-item select")).toHaveLength(build.powers.length + build.talents.length);
    expect(text(queryOne(doc, ".case-derived"))).toContain(String(build.abilities.fighting * 4));
    expect(queryAll(doc, 'input[name="name"]')).toHaveLength(1); // a new hero is named here
    expect(queryAll(doc, ".case-builder-points")).toHaveLength(0);
  });

  it("points: no dice, the points line, the problems, confirm disabled over budget; an existing hero says what confirming replaces", () => {
    const build = applyEdits(addEntry(blankBuild("points"), "powers", CATALOGUE, contactName), { "powers.0.rank": "1000", "abilities.strength": "-3" }, CATALOGUE);
    const target: BuilderTarget = { name: "Kestrel", abilities: { ...build.abilities, fighting: 30 }, resources: 6, popularity: 0, health: 10, karma: 18, items: [] };
    const doc = parseHtml(renderTemplate(BUILDER_TEMPLATE, builderContext(build, CATALOGUE, target)));
    expect(queryAll(doc, 'button[data-action="builderReroll"]')).toHaveLength(0);
    expect(text(queryOne(doc, ".case-builder-points"))).toMatch(/Points: \d+ of 100 spent/);
    expect(text(queryOne(doc, ".case-builder-problems"))).toContain("above the highest a new hero may start at");
    expect(text(queryOne(doc, ".case-builder-errors"))).toContain("Not a rank number");
    expect(queryOne(doc, "button.case-builder-confirm").attribs.disabled).toBeDefined();
    expect(text(queryOne(doc, ".case-builder-replaces"))).toContain("Fighting: 30 → 6");
    expect(queryAll(doc, 'input[name="name"]')).toHaveLength(0);
    const confirm = parseHtml(renderTemplate("templates/dialog/builder-confirm.hbs", builderContext(build, CATALOGUE, target)));
    expect(text(confirm)).toContain("Fighting: 30 → 6");
    expect(text(confirm)).toContain("are kept");
  });
});

describe("character builder: confirming on a player's own actor", () => {
  let world: World;
  let hero: FakeActor & { created: unknown[][] };
  let user = ALICE;
  const itemDocs = new Map(CATALOGUE.powers.concat(CATALOGUE.talents).map((e) => [e.uuid, { documentName: "Item", name: e.name, uuid: e.uuid }]));

  beforeEach(() => {
    world = installWorld();
    hero = Object.assign(new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({}, 50), [ALICE.id]), { created: [] as unknown[][] });
    // Document#createEmbeddedDocuments(embeddedName, data): one call creates every item (Foundry's API docs).
    Object.assign(hero, {
      items: Object.assign([], { contents: [] as { name: string; type: string }[] }),
      createEmbeddedDocuments: (name: string, data: unknown[]) => {
        hero.created.push([name, structuredClone(data)]);
        return Promise.resolve(data);
      },
    });
    world.actors.set(hero.id, hero);
    user = ALICE;
    const g = (globalThis as unknown as { game: Record<string, unknown> }).game;
    vi.stubGlobal("game", {
      ...g,
      get user() {
        return { ...user, can: () => false };
      },
      // CompendiumCollection data as WorldCollection#fromCompendium returns it: a plain source without _id.
      items: { fromCompendium: (doc: { name: string }) => ({ name: doc.name, type: "power", system: { rank: 6, description: "" } }) },
    });
    vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(itemDocs.get(uuid) ?? [...world.actors.values()].find((a) => a.uuid === uuid) ?? null));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("the owner's confirm writes once: one actor update and one createEmbeddedDocuments, the powers at the build's ranks", async () => {
    const build = { ...rollBuild(always(100), CATALOGUE, contactName), contacts: ["Lt. Ruiz"] };
    const written = await writeBuild(build, hero as unknown as Actor.Implementation);
    expect(written).toBe(hero);
    expect(hero.updates).toHaveLength(1);
    expect(hero.system.abilities.strength.value).toBe(randomRank(100));
    expect(hero.system.health.value).toBe(hero.system.health.max);
    expect(hero.created).toHaveLength(1);
    const [name, items] = hero.created[0] as [string, { name: string; type: string; system?: { rank: number } }[]];
    expect(name).toBe("Item");
    expect(items).toHaveLength(build.powers.length + build.talents.length + 1);
    expect(items.slice(0, build.powers.length).map((i) => i.system?.rank)).toEqual(build.powers.map((p) => p.rank));
    expect(items.at(-1)).toEqual({ name: "Lt. Ruiz", type: "contact" });
  });

  it("a player may not build someone else's actor: refused with a message, nothing written, no window", async () => {
    user = BOB;
    expect(mayBuild(hero as unknown as Actor.Implementation, BOB as unknown as User.Implementation)).toBe(false);
    expect(await writeBuild(blankBuild("random"), hero as unknown as Actor.Implementation)).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("You may build only a character you own.");
    expect(hero.updates).toHaveLength(0);
    expect(await openCharacterBuilder(hero.uuid)).toBeNull();
    expect(await openCharacterBuilder("Actor.nobody0000000")).toBeNull();
    expect(world.notifications.error).toHaveBeenLastCalledWith("No actor has the UUID Actor.nobody0000000.");
  });

  it("a compendium item gone before confirming: nothing is written and the player is told", async () => {
    const build: BuilderState = { ...blankBuild("random"), powers: [{ uuid: "Compendium.case.powers.Item.gone", name: "Gone", rank: 10 }] };
    expect(await writeBuild(build, hero as unknown as Actor.Implementation)).toBeNull();
    expect(hero.updates).toHaveLength(0);
    expect(world.notifications.error).toHaveBeenCalledWith("The build was not saved: Gone is no longer in the compendium.");
  });
});
