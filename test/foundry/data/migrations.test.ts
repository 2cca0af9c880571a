/**
 * The system-data migrations themselves (src/foundry/data/migrations.ts), on plain sources:
 * pools without `value`, digit strings too large to be a whole number, partial sources (an
 * unlinked token's actor delta), and keys the migration does not understand.
 */
import "../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { migrateCharacterSource, migrateItemSource, type LostValues } from "../../../src/foundry/data/migrations";
import { HeroData } from "../../../src/foundry/data/actor/character";
import { PowerData } from "../../../src/foundry/data/item/items";

type Hero = InstanceType<typeof HeroData>;

function hero(source: Record<string, unknown>): Hero {
  const model = new (HeroData as unknown as new (s: Record<string, unknown>) => Hero)(source);
  model.prepareDerivedData();
  return model;
}

describe("pools without a value (M6)", () => {
  it("{ max } or { current } alone keeps that number as the value, never 0", () => {
    expect(migrateCharacterSource({ health: { max: 77 } })).toEqual({ health: { value: 77 } });
    expect(migrateCharacterSource({ karma: { current: "12", max: 40 } })).toMatchObject({ karma: { value: 12 } });
    expect(migrateCharacterSource({ health: { value: 40, current: 55, max: 90 } })).toMatchObject({ health: { value: 40 } });
    // Through the model: an old hero stored with only its maxima is not left dying at 0 Health.
    expect(hero({ health: { max: 77 }, karma: { max: "20" } }).health.value).toBe(77);
    expect(hero({ health: { max: 77 }, karma: { max: "20" } }).karma.value).toBe(20);
  });

  it("in a partial source (a token's delta) a lone max says nothing about the value", () => {
    const delta = migrateCharacterSource({ health: { max: 77 } }, {}, { partial: true });
    expect(delta).toEqual({ health: {} });
    expect(migrateCharacterSource({ health: { current: 5 } }, {}, { partial: true })).toMatchObject({ health: { value: 5 } });
    // Nothing absent is invented: a delta without abilities or pools stays without them.
    expect(migrateCharacterSource({ notes: "x" }, {}, { partial: true })).toEqual({ notes: "x" });
  });
});

describe("digit strings too large to be a whole number (M6)", () => {
  const HUGE = "99999999999999999999";

  it("are refused with their text recorded by path, and the field reads as its default", () => {
    const lost: LostValues = {};
    const source = migrateCharacterSource(
      { abilities: { fighting: { value: HUGE, off: "30" }, agility: HUGE }, health: { value: HUGE }, karma: HUGE, resources: HUGE, popularity: "-5" },
      lost,
    );
    expect(lost).toEqual({
      "abilities.fighting.value": HUGE,
      "abilities.agility": HUGE,
      "health.value": HUGE,
      karma: HUGE,
      resources: HUGE,
    });
    expect(source).toEqual({ abilities: { fighting: { off: 30 }, agility: {} }, health: {}, karma: {}, popularity: -5 });
    // The document stays valid: every refused field takes its initial value.
    const m = hero({ abilities: { fighting: { value: HUGE } }, resources: HUGE });
    expect(m.abilities.fighting.value).toBe(6);
    expect(m.resources).toBe(6);
    expect(Number.isSafeInteger(m.health.max)).toBe(true);
  });

  it("the largest safe integer is still a number; text fields are never touched", () => {
    const lost: LostValues = {};
    expect(migrateCharacterSource({ resources: String(Number.MAX_SAFE_INTEGER) }, lost)).toEqual({ resources: Number.MAX_SAFE_INTEGER });
    expect(lost).toEqual({});
    const item = migrateItemSource({ rank: HUGE, attack: { range: HUGE, type: "12" }, description: HUGE, duration: "30" }, lost);
    expect(item).toEqual({ attack: { type: "12" }, description: HUGE, duration: "30" });
    expect(lost).toEqual({ rank: HUGE, "attack.range": HUGE });
    expect(new (PowerData as unknown as new (s: Record<string, unknown>) => { rank: number })({ rank: HUGE }).rank).toBe(6);
  });
});

describe("keys the migration does not understand", () => {
  it("are kept by the migration (Foundry's cleaning, not the migration, decides what the model holds)", () => {
    const source = migrateCharacterSource({ abilities: { reason: { value: "6", notes: "keep me" } }, homebrew: { x: 1 } });
    expect(source).toEqual({ abilities: { reason: { value: 6, notes: "keep me" } }, homebrew: { x: 1 } });
  });
});

describe("area attack: an item's area (migration defaults)", () => {
  type Area = { shape: string; radius: number; explosive: boolean };
  const power = (source: Record<string, unknown>) => new (PowerData as unknown as new (s: Record<string, unknown>) => { attack: { area: Area; range: number } })(source).attack;

  it("an item without an area reads as none; its other attack fields are kept", () => {
    expect(power({ attack: { enabled: true, type: "En", range: 5 } })).toMatchObject({ range: 5, area: { shape: "none", radius: 1, explosive: false } });
  });

  it("a bare radius is a burst of that size; a shape alone takes the default size; a top-level area moves under the attack", () => {
    expect(migrateItemSource({ attack: { area: 2 } })).toEqual({ attack: { area: { shape: "burst", radius: 2 } } });
    expect(migrateItemSource({ attack: { area: "3" } })).toEqual({ attack: { area: { shape: "burst", radius: 3 } } });
    expect(migrateItemSource({ attack: { area: "line" } })).toEqual({ attack: { area: { shape: "line" } } });
    expect(migrateItemSource({ area: { shape: "burst", radius: "4", explosive: true }, attack: { type: "Sh" } })).toEqual({ attack: { type: "Sh", area: { shape: "burst", radius: 4, explosive: true } } });
    expect(power({ attack: { area: 2 } }).area).toEqual({ shape: "burst", radius: 2, explosive: false });
  });

  it("what it does not understand is kept for validation to name, and a too-large radius is recorded, not guessed", () => {
    expect(migrateItemSource({ attack: { area: { shape: "cone", radius: 2, colour: "red" } } })).toEqual({ attack: { area: { shape: "cone", radius: 2, colour: "red" } } });
    const lost: LostValues = {};
    expect(migrateItemSource({ attack: { area: { shape: "burst", radius: "99999999999999999999" } } }, lost)).toEqual({ attack: { area: { shape: "burst" } } });
    expect(lost).toEqual({ "attack.area.radius": "99999999999999999999" });
  });
});

describe("resisted power: a power's resistance (migration defaults)", () => {
  type Resisted = { by: string; effect: string; condition: string; turns: number };
  const power = (source: Record<string, unknown>) => new (PowerData as unknown as new (s: Record<string, unknown>) => { resisted: Resisted; stunts: unknown[] })(source);

  it("resisted power: an older power is not resisted and has no stunts; a bare ability, a top-level resistedBy and a hold's name are read; turns as text become a number", () => {
    expect(power({})).toMatchObject({ resisted: { by: "none", effect: "condition", condition: "", turns: 1 }, stunts: [] });
    expect(migrateItemSource({ resisted: "Psyche" })).toEqual({ resisted: { by: "psyche" } });
    expect(migrateItemSource({ resistedBy: "strength", rank: "20" })).toEqual({ resisted: { by: "strength" }, rank: 20 });
    expect(migrateItemSource({ resisted: { by: "Endurance", effect: "Full Hold", turns: "3" } })).toEqual({ resisted: { by: "endurance", effect: "fullHold", turns: 3 } });
    expect(power({ resisted: "psyche" }).resisted).toEqual({ by: "psyche", effect: "condition", condition: "", turns: 1 });
  });

  it("resisted power: what it does not understand is kept for validation to name", () => {
    expect(migrateItemSource({ resisted: { by: "luck", effect: "petrified", colour: "red" } })).toEqual({ resisted: { by: "luck", effect: "petrified", colour: "red" } });
  });
});
