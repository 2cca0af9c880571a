import "../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { CHARACTER_SCHEMA_VERSION, HeroData, NpcData } from "../../../src/foundry/data/actor/character";
import { RANK_NUMBER_ERROR } from "../../../src/foundry/data/fields";
import type { NumberField, SchemaField } from "../../support/foundry-double";
import { HERO_SOURCE } from "../../support/sheet-fixtures";

type Model = InstanceType<typeof HeroData>;

function make(source: Record<string, unknown>, Model: typeof HeroData | typeof NpcData = HeroData): Model {
  const model = new (Model as unknown as new (s: Record<string, unknown>) => Model)(source);
  model.prepareDerivedData();
  return model;
}

// The hand-worked hero of the sheet fixtures: Ftg Rm(30) with def set apart at In(40), Agy Ex(20)
// with dex Rm(30), Str Gd(10), End Am(50), Rea Ty(6), Int In(40), Psy Gd(10), Resources Ex(20).
const hero = HERO_SOURCE;

describe("hero data", () => {
  it("derives Health and Karma maxima from the abilities (hand-worked)", () => {
    const m = make(hero);
    expect(m.health.max).toBe(30 + 20 + 10 + 50);
    expect(m.karma.max).toBe(6 + 40 + 10);
    expect(m.health.value).toBe(80);
  });

  it("derives ranks, sub-scores that follow or are set apart, and the turn tables (hand-worked)", () => {
    const m = make(hero);
    expect(m.stats.ranks.fighting).toBe("remarkable");
    expect(m.stats.ranks.endurance).toBe("amazing");
    expect(m.score("fighting.off")).toBe(30); // follows Fighting
    expect(m.score("fighting.def")).toBe(40); // set apart
    expect(m.stats.setApart["fighting.def"]).toBe(true);
    expect(m.stats.setApart["fighting.off"]).toBe(false);
    expect(m.score("agility.dex")).toBe(30);
    expect(m.score("agility.bal")).toBe(20);
    // Table 23: Incredible Intuition → +4.
    expect(m.initiative).toBe(4);
    // Table 22: Remarkable Ftg (off) → 2 actions; Incredible Ftg (def) → 2 free defences.
    expect(m.stats.actionsPerTurn).toBe(2);
    expect(m.stats.freeDefences).toBe(2);
    // Table 24: Good Strength → 2 areas.
    expect(m.thrownRange).toBe(2);
    expect(m.resourcesRank).toBe("excellent");
  });

  it("a new hero is Typical everywhere with 24 Health and 18 Karma max", () => {
    const m = make({});
    expect(m.health.max).toBe(24);
    expect(m.karma.max).toBe(18);
    expect(m.stats.ranks.psyche).toBe("typical");
    // Data without a version predates versioning: it reads as version 0, so the world migration
    // sees it as old. A document created by CaseActor gets the current version (its _preCreate).
    expect(m.schemaVersion).toBe(0);
    expect(make({ schemaVersion: CHARACTER_SCHEMA_VERSION }).schemaVersion).toBe(CHARACTER_SCHEMA_VERSION);
  });

  it("a pool stored as { max } or { current } alone keeps that number as its value (never 0)", () => {
    expect(make({ health: { max: 77 } }).health.value).toBe(77);
    expect(make({ health: { current: 55, max: 90 } }).health.value).toBe(55);
    expect(make({ karma: { current: "12" } }).karma.value).toBe(12);
    expect(make({ health: { value: 40, current: 55 } }).health.value).toBe(40);
  });

  it("an npc derives the same way and has the minor-foe flag", () => {
    const m = make({ ...hero, minor: true }, NpcData);
    expect(m.health.max).toBe(110);
    expect((m as unknown as { minor: boolean }).minor).toBe(true);
    expect((make({}, NpcData) as unknown as { minor: boolean }).minor).toBe(false);
  });

  it("refuses a rank of −3 with a clear message (Foundry validates with our option)", () => {
    const schema = HeroData.defineSchema() as unknown as { abilities: SchemaField };
    const fighting = schema.abilities.fields.fighting as SchemaField;
    const value = fighting.fields.value as NumberField;
    const validate = value.options.validate as (v: unknown) => boolean | undefined;
    expect(validate(-3)).toBe(false);
    expect(validate(2.5)).toBe(false);
    expect(validate(30)).toBeUndefined();
    expect(value.options).toMatchObject({ integer: true, min: 0, nullable: false, validationError: RANK_NUMBER_ERROR });
    const off = fighting.fields.off as NumberField;
    expect(off.options).toMatchObject({ nullable: true, initial: null });
  });

  it("derivation itself names a bad value instead of guessing", () => {
    expect(() => make({ abilities: { ...hero.abilities, strength: { value: -3, mgt: null, vgr: null } } })).toThrow(/Strength must be a non-negative whole number, got -3/);
  });
});

describe("character migrations", () => {
  it("turns bare-number abilities and pools (other systems' exports) into the current shape", () => {
    const m = make({
      abilities: { fighting: 30, agility: "20", strength: 10, endurance: 50, reason: 6, intuition: 40, psyche: 10 },
      health: 75,
      karma: { value: "12", max: 999 },
    });
    expect(m.abilities.fighting.value).toBe(30);
    expect(m.abilities.agility.value).toBe(20);
    expect(m.health.value).toBe(75);
    expect(m.karma.value).toBe(12);
    expect(m.karma.max).toBe(56); // derived, not the stale stored 999
  });

  it("keeps values it does not understand for validation to name", () => {
    const m = make({ abilities: { ...hero.abilities, reason: { value: 6, notes: "keep me" } } });
    expect((m.abilities.reason as unknown as { notes: string }).notes).toBe("keep me");
  });
});
