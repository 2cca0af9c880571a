/**
 * The sheets' context builders, from real data models (through the foundry test double).
 * Every label they produce must exist in lang/en.json (they are built at run time, so the
 * lang test's scan of string literals cannot see them).
 */
import "../../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { ABILITY_KEYS, ATTACK_CODES, DEFENCE_CODES, RANK_KEYS, SUB_SCORE_REFS, TALENT_COVERS } from "../../../../src/rules/index";
import { characterSheetData, sheetTabs, type CharacterSheetData } from "../../../../src/foundry/apps/sheet/sheet-context";
import { coverLabel, itemAttack, itemLists } from "../../../../src/foundry/apps/sheet/item-rows";
import { rankLabel } from "../../../../src/foundry/apps/sheet/rank-label";
import { coverGroups, fieldAt, fieldChoices, itemSheetData } from "../../../../src/foundry/apps/sheet/item-context";
import { TalentData, PowerData } from "../../../../src/foundry/data/item/items";
import { localize } from "../../../support/handlebars";
import { heroItems, heroSheetData, heroSystem, itemSheetFixture, npcSheetData } from "../../../support/sheet-fixtures";
import { formatSigned } from "../../../../src/foundry/core/format";

/** Every string in a context that looks like a localisation key. */
function keysIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string" && /^(CASE|TYPES)\.[\w.-]+$/.test(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) keysIn(v, out);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) keysIn(v, out);
  return out;
}

describe("character sheet data", () => {
  const data: CharacterSheetData = heroSheetData();

  it("reads ranks, effective sub-scores and set-apart flags from the prepared model", () => {
    const fighting = data.abilities.find((a) => a.key === "fighting");
    expect(fighting?.rank).toEqual({ key: "remarkable", label: "CASE.Rank.remarkable", abbr: "CASE.RankAbbr.remarkable", value: 30 });
    expect(fighting?.subs.map((s) => [s.ref, s.setApart, s.inputValue, s.rank.value])).toEqual([
      ["fighting.off", false, "", 30],
      ["fighting.def", true, "40", 40],
    ]);
    expect(data.abilities.map((a) => a.key)).toEqual([...ABILITY_KEYS]);
    expect(data.abilities.flatMap((a) => a.subs.map((s) => s.ref))).toEqual([...SUB_SCORE_REFS]);
    expect(data.abilities.find((a) => a.key === "psyche")?.subs).toEqual([]);
  });

  it("pools: value, derived max, and a bar width clamped to 0–100", () => {
    expect(data.health).toMatchObject({ name: "system.health.value", value: 80, max: 110, percent: 73 });
    expect(data.karma).toMatchObject({ value: 56, max: 56, percent: 100 });
    const over = heroSheetData({ source: { health: { value: 500 } } });
    expect(over.health.percent).toBe(100);
  });

  it("derived values follow the rules' tables (hand-worked), with line of sight for Class 5000 Strength", () => {
    expect(data.derived.map((d) => [d.label, d.value, d.unit])).toEqual([
      ["CASE.Sheet.Initiative", "+4", null],
      ["CASE.Sheet.ActionsPerTurn", "2", null],
      ["CASE.Sheet.FreeDefences", "2", null],
      ["CASE.Sheet.RunningSpeed", "2", "CASE.Sheet.Areas"],
      ["CASE.Sheet.ThrownRange", "2", "CASE.Sheet.Areas"],
    ]);
    const titan = heroSheetData({ source: { abilities: { strength: { value: 5000, mgt: null, vgr: null }, intuition: { value: 2 } } } });
    expect(titan.derived[4]).toMatchObject({ value: "", unit: "CASE.Sheet.LineOfSight" });
    expect(titan.derived[0]?.value).toBe("\u22122"); // Feeble Intuition: −2
  });

  it("groups items by type in sort order and lists only enabled attacks", () => {
    expect(Object.fromEntries(Object.entries(data.lists).map(([t, l]) => [t, l.items.map((i) => i.id)]))).toEqual({
      power: ["bolt", "flight"],
      talent: ["marksman"],
      weapon: ["baton", "hook"],
      armor: ["kevlar"],
      contact: ["ruiz"],
    });
    expect(data.attacks.map((a) => [a.id, a.attack?.code, a.attack?.range])).toEqual([
      ["bolt", "En", 3],
      ["baton", "BA", 0],
    ]);
    const reversed = itemLists(heroItems().map((i) => ({ ...i, sort: -i.sort })));
    expect(reversed.power.items.map((i) => i.id)).toEqual(["flight", "bolt"]);
  });

  it("ignores items of types a character does not hold, and items without an id", () => {
    const lists = itemLists([{ id: "x", uuid: "u", name: "Odd", img: null, type: "spell", sort: 0, system: {} }, { ...heroItems()[0], id: null } as never]);
    expect(Object.values(lists).flatMap((l) => l.items)).toEqual([]);
  });

  it("an item attacks only if it is a power or weapon with its attack enabled and a known type", () => {
    expect(itemAttack("power", { attack: { enabled: true, type: "Sh", range: 5 } })).toEqual({ code: "Sh", label: "CASE.Attack.Sh", range: 5 });
    expect(itemAttack("power", { attack: { enabled: false, type: "Sh", range: 5 } })).toBeNull();
    expect(itemAttack("weapon", { attack: { enabled: true, type: "XX", range: 0 } })).toBeNull();
    expect(itemAttack("armor", { attack: { enabled: true, type: "BA", range: 0 } })).toBeNull();
  });

  it("tabs: the active one marked, an unknown tab falls back to the first", () => {
    expect(sheetTabs(["a", "b"], "b").map((t) => [t.id, t.active, t.cssClass])).toEqual([
      ["a", false, ""],
      ["b", true, "active"],
    ]);
    expect(sheetTabs(["a", "b"], "zzz").map((t) => t.active)).toEqual([true, false]);
    expect(heroSheetData({ activeTab: "contacts" }).tabs.contacts?.active).toBe(true);
  });

  it("npc data: minor flag and type", () => {
    const npc = npcSheetData();
    expect(npc.isNpc).toBe(true);
    expect(npc.minor).toBe(true);
    expect(npc.img).toBe("icons/svg/mystery-man.svg");
    expect(data.isNpc).toBe(false);
  });

  it("every label key it builds exists in lang/en.json", () => {
    const keys = new Set([...keysIn(heroSheetData()), ...keysIn(npcSheetData()), ...keysIn(heroSheetData({ activeTab: "biography" }))]);
    for (const value of [0, 2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150, 200, 500, 1000, 3000, 5000]) keysIn(rankLabel(value), keys);
    for (const c of TALENT_COVERS) keys.add(coverLabel(c));
    expect([...keys].filter((k) => k.startsWith("CASE.Rank.")).length).toBe(RANK_KEYS.length);
    expect(keys.size).toBeGreaterThan(40);
    for (const key of keys) expect(() => localize(key), key).not.toThrow();
  });

  it("signed modifiers", () => {
    expect([formatSigned(4, "+0"), formatSigned(0, "+0"), formatSigned(-3, "+0")]).toEqual(["+4", "+0", "\u22123"]);
  });
});

describe("character builder entry on the sheet", () => {
  it("character builder: a hero is blank while every ability is Typical and it has no items; a made hero or an NPC is not", () => {
    const blankSource = { abilities: Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: 6 }])) };
    const blank = characterSheetData({ name: "New hero", img: null, type: "hero", system: heroSystem(blankSource), biography: "", notes: "", items: [], editable: true });
    expect(blank.blank).toBe(true);
    expect(characterSheetData({ name: "New hero", img: null, type: "hero", system: heroSystem(blankSource), biography: "", notes: "", items: heroItems(), editable: true }).blank).toBe(false);
    expect(heroSheetData().blank).toBe(false);
    expect(npcSheetData().blank).toBe(false);
  });
});

describe("item sheet data", () => {
  it("reads select choices from the data model's own fields", () => {
    const fields = PowerData.defineSchema() as unknown as Record<string, unknown>;
    expect(Object.keys(fieldChoices(fieldAt(fields, "category")))).toHaveLength(9);
    expect(fieldChoices(fieldAt(fields, "attack.type"))).toEqual(Object.fromEntries(ATTACK_CODES.map((c) => [c, `CASE.Attack.${c}`])));
    expect(() => fieldAt(fields, "attack.nope")).toThrow(/no field "attack.nope"/);
    expect(() => fieldChoices(fieldAt(fields, "rank"))).toThrow(/no choices/);
  });

  it("talent covers: all of the model's choices in four groups, the chosen ones selected", () => {
    const fields = TalentData.defineSchema() as unknown as Record<string, unknown>;
    const choices = fieldChoices(fieldAt(fields, "covers.element"));
    const groups = coverGroups(choices, ["strength", "Gb", "brace"]);
    expect(groups.map((g) => g.label)).toEqual(["CASE.Item.CoversGroup.abilities", "CASE.Item.CoversGroup.subScores", "CASE.Item.CoversGroup.attacks", "CASE.Item.CoversGroup.defences"]);
    expect(groups.flatMap((g) => g.options.map((o) => o.value)).sort()).toEqual([...TALENT_COVERS].sort());
    expect(groups.flatMap((g) => g.options.filter((o) => o.selected).map((o) => o.value))).toEqual(["strength", "Gb", "brace"]);
    expect(groups[3]?.options.map((o) => o.value)).toEqual([...DEFENCE_CODES]);
    expect(() => coverGroups({ ...choices, mystery: "mystery" }, [])).toThrow(/without a group: mystery/);
  });

  it("rank fields by type, and notes only for contacts", () => {
    expect(itemSheetFixture("weapon", { damage: { mode: "rank", rank: 75 }, materialStrength: 20 }).ranks).toMatchObject({
      damageRank: { key: "monstrous", value: 75 },
      materialStrength: { key: "excellent", value: 20 },
    });
    expect(itemSheetFixture("armor", {}).ranks).toMatchObject({ physical: { value: 6 }, energy: { key: "shift0", value: 0 } });
    expect(itemSheetFixture("contact", {}).notes).toMatchObject({ name: "system.notes" });
    expect(itemSheetFixture("power", {}).notes).toBeNull();
    expect(itemSheetFixture("talent", {}).choices).toEqual({});
    expect(Object.keys(itemSheetFixture("weapon", {}).choices)).toEqual(["attackType", "areaShape", "damageMode"]);
  });

  it("refuses an item type it cannot show", () => {
    expect(() => itemSheetData({ name: "x", img: null, type: "spell", system: {}, fields: {}, editable: true })).toThrow(/cannot show a "spell"/);
  });

  it("every label key it builds exists in lang/en.json", () => {
    const keys = new Set<string>();
    for (const type of ["power", "talent", "weapon", "armor", "contact"]) keysIn(itemSheetFixture(type, {}), keys);
    for (const key of keys) expect(() => localize(key), key).not.toThrow();
  });
});
