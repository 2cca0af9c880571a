/**
 * What the sheets show of protective powers and ammunition: the power sheet's protection
 * fields (rendered with real Handlebars, the real en.json and the real data model), and the
 * Reload button on the rows of weapons that count ammunition.
 */
import "../../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { PowerData, WeaponData } from "../../../../src/foundry/data/item/items";
import { itemRow, type ItemRow } from "../../../../src/foundry/apps/sheet/item-rows";
import { migrateItemSource } from "../../../../src/foundry/data/migrations";
import { renderSheet, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { checkField } from "../../../support/schema-validator";
import type { DataField } from "../../../support/foundry-double";
import { SHEET_TEMPLATES, itemSheetFixture, model } from "../../../support/sheet-fixtures";

function powerSheet(source: Record<string, unknown>) {
  return parseHtml(renderSheet(SHEET_TEMPLATES.item("power"), { sheet: itemSheetFixture("power", source) }, { classes: ["case", "sheet", "item"], title: "power" }));
}

function row(id: string, type: "weapon" | "power", source: Record<string, unknown>): ItemRow {
  const r = itemRow({ id, uuid: `Actor.a.Item.${id}`, name: id, img: null, type, sort: 0, system: model(type === "weapon" ? WeaponData : PowerData, source) });
  if (!r) throw new Error("no row");
  return r;
}

describe("the power sheet's protection", () => {
  it("protective power: a new power protects against nothing, and its rank follows the power's", () => {
    const doc = powerSheet({ rank: 30 });
    expect(attr(queryOne(doc, `input[name="system.protection.active"]`), "checked")).toBe("");
    expect(attr(queryOne(doc, `input[name="system.protection.physical"]`), "checked")).toBeUndefined();
    expect(attr(queryOne(doc, `input[name="system.protection.energy"]`), "checked")).toBeUndefined();
    const options = queryAll(doc, `multi-checkbox[name="system.protection.against"] option`);
    expect(options.map((o) => attr(o, "value"))).toEqual(["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Gb", "Gp", "Ch"]);
    expect(options.filter((o) => attr(o, "selected") !== undefined)).toEqual([]);
    const rankInput = queryOne(doc, `input[name="system.protection.rank"]`);
    expect(attr(rankInput, "value")).toBe("");
    expect(attr(rankInput, "placeholder")).toBe("30");
    expect(attr(rankInput, "data-tooltip")).toBe("Follows the power's rank. Type a number to set it apart.");
    expect(text(queryOne(doc, ".case-protection-rank .case-rank-name"))).toBe("Remarkable");
  });

  it("protective power: what it protects against, and a rank set apart, are shown as stored", () => {
    const doc = powerSheet({ rank: 30, protection: { physical: true, energy: true, against: ["Fo", "Sh"], rank: 50, active: false } });
    expect(attr(queryOne(doc, `input[name="system.protection.active"]`), "checked")).toBeUndefined();
    expect(attr(queryOne(doc, `input[name="system.protection.physical"]`), "checked")).toBe("");
    expect(attr(queryOne(doc, `input[name="system.protection.energy"]`), "checked")).toBe("");
    const selected = queryAll(doc, `multi-checkbox[name="system.protection.against"] option`).filter((o) => attr(o, "selected") !== undefined);
    expect(selected.map(text)).toEqual(["Force", "Shooting"]);
    expect(attr(queryOne(doc, `input[name="system.protection.rank"]`), "value")).toBe("50");
    expect(text(queryOne(doc, ".case-protection-rank .case-rank-name"))).toBe("Amazing");
  });

  it("protective power: the data model refuses an unknown attack type or a bad rank in the protection", () => {
    const fields = PowerData.defineSchema() as unknown as Record<string, DataField>;
    const protection = (value: Record<string, unknown>) => checkField(fields.protection as DataField, { active: true, physical: false, energy: false, against: [], rank: null, ...value }, "system.protection");
    expect(protection({})).toEqual([]);
    expect(protection({ against: ["Fo"], rank: 30 })).toEqual([]);
    expect(protection({ against: ["XX"] }).join()).toContain("system.protection.against");
    expect(protection({ rank: -5 }).join()).toContain("system.protection.rank");
  });

  it("protective power: an imported bare protection rank becomes body protection at that rank; text numbers are read", () => {
    expect(migrateItemSource({ rank: 30, protection: 40 })).toEqual({ rank: 30, protection: { physical: true, rank: 40 } });
    expect(migrateItemSource({ protection: { rank: "20", energy: true, homebrew: "kept" } })).toEqual({ protection: { rank: 20, energy: true, homebrew: "kept" } });
    const power = model(PowerData, migrateItemSource({ rank: 30, protection: "40" })) as { protection: { physical: boolean; rank: number | null } };
    expect(power.protection).toMatchObject({ physical: true, rank: 40 });
  });

  it("protective power: the power's row is tagged while its protection is up", () => {
    expect(row("skin", "power", { rank: 30, protection: { physical: true } }).tags.map((t) => t.label)).toContain("CASE.Item.ProtectionTag");
    expect(row("skin", "power", { rank: 30, protection: { physical: true, active: false } }).tags.map((t) => t.label)).not.toContain("CASE.Item.ProtectionTag");
    expect(row("flight", "power", { rank: 30 }).tags.map((t) => t.label)).not.toContain("CASE.Item.ProtectionTag");
  });
});

describe("the Reload button", () => {
  it("ammunition spent: a weapon that counts ammunition has a Reload button on its row; one that does not has none", () => {
    const list = { type: "weapon", label: "CASE.Sheet.List.weapon", collapsed: false, items: [row("gun", "weapon", { ammunition: { tracked: true, value: 2, max: 6 } }), row("club", "weapon", {})] };
    const doc = parseHtml(renderTemplate("templates/parts/item-list.hbs", { list, editable: true }));
    const buttons = queryAll(doc, `button[data-action="reload"]`);
    expect(buttons.map((b) => attr(b, "data-item-id"))).toEqual(["gun"]);
    expect(text(buttons[0] as never)).toBe("Reload");
    expect(attr(buttons[0] as never, "data-tooltip")).toBe("Reload this weapon to its full load.");
    expect(text(queryOne(doc, `li[data-item-id="gun"] .case-item-facts`))).toContain("Ammunition 2/6");
  });
});
