/**
 * The sheets' item lists at table scale: the view model of a hero with 15 powers (rows, the
 * equip / protection switch, the summary's facts and description, folded sections, open
 * summaries), the filter's matching, the rendered list, the chat card an item posts, and the
 * handlers behind the buttons and the right-click menu (context menu) against the doubles.
 */
import "../../../support/foundry-globals";
import { contextMenuEntries } from "../../../../src/foundry/core/compat";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../../../../src/foundry/dice/entry-points", () => ({ rollScore: vi.fn(), rollItem: vi.fn() }));
vi.mock("../../../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));

import { matchesFilter } from "../../../../src/foundry/apps/sheet/item-rows";
import { COLLAPSED_SETTING, parseCollapsed, registerItemListSetting, rowMenuEntries } from "../../../../src/foundry/apps/sheet/item-lists";
import { CHARACTER_SHEET_ACTIONS, ITEM_CARD_TEMPLATE, itemRowMenu } from "../../../../src/foundry/apps/sheet/sheet-actions";
import { renderSheet, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { FIFTEEN_POWER_NAMES, SHEET_TEMPLATES, heroItemsAtScale, heroSheetData } from "../../../support/sheet-fixtures";
import { fakeActor, fakeClick, fakeItem, stubI18nAndNotifications, type FakeActor, type FakeItem } from "../../../support/foundry-stubs";
import { SettingsDouble } from "../../../support/settings-double";

type Handler = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;
const actions = CHARACTER_SHEET_ACTIONS as unknown as Record<string, Handler>;

const atScale = () => heroSheetData({ items: heroItemsAtScale() });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("sheet at 15 powers: the view model", () => {
  it("lists the 15 powers in the sheet's order, each with its full name, rank and summary", () => {
    const powers = atScale().lists.power.items;
    expect(powers.map((p) => p.name)).toEqual([...FIFTEEN_POWER_NAMES]);
    const kinetic = powers[2];
    expect(kinetic?.summary.description).toBe("<p>Kinetic Absorption Field with Rebound Discharge: the power as Kestrel uses it, with its limits and its <em>cost</em>.</p>");
    // The summary's key numbers: the rank, the row's tags, then what only the summary shows (the protection's rank).
    expect(kinetic?.summary.facts.map((f) => [f.label, f.text, f.rank?.value ?? null])).toEqual([
      ["CASE.Item.Rank", null, 40],
      ["CASE.PowerCategory.mental", null, null],
      ["CASE.Item.ProtectionTag", null, null],
      ["CASE.Item.ProtectionRank", null, 40],
    ]);
  });

  it("protective powers get the protection switch (on or dropped); other powers none", () => {
    const powers = atScale().lists.power.items;
    expect(powers.filter((p) => p.toggle !== null).map((p) => [p.id, p.toggle?.field, p.toggle?.on])).toEqual([
      ["p03", "system.protection.active", true],
      ["p04", "system.protection.active", false],
    ]);
  });

  it("weapons and armor get the equip switch; gear chips are words, not abbreviations", () => {
    const data = atScale();
    expect(data.lists.weapon.items.map((w) => [w.id, w.toggle?.field, w.toggle?.on])).toEqual([
      ["baton", "system.equipped", true],
      ["hook", "system.equipped", false],
    ]);
    const kevlar = data.lists.armor.items[0];
    expect(kevlar?.rankOf).toBe("CASE.Item.PhysicalProtection");
    expect(kevlar?.tags).toEqual([{ label: "CASE.Item.EnergyProtection", text: null, rank: { key: "shift0", label: "CASE.Rank.shift0", abbr: "CASE.RankAbbr.shift0", value: 0 } }]);
  });

  it("collapse: folded sections and open summaries come from the input; unknown ones change nothing", () => {
    const data = heroSheetData({ items: heroItemsAtScale(), collapsed: ["talent", "armor"], expanded: ["p02", "nobody"] });
    expect(Object.values(data.lists).map((l) => [l.type, l.collapsed])).toEqual([
      ["power", false],
      ["talent", true],
      ["weapon", false],
      ["armor", true],
      ["contact", false],
    ]);
    expect(data.lists.power.items.filter((p) => p.expanded).map((p) => p.id)).toEqual(["p02"]);
  });

  it("the filter matches every word of the query in the name, ignoring case and accents", () => {
    expect(matchesFilter("Plasma Bolt of the Burning Harbour Lighthouse", "bolt PLASMA")).toBe(true);
    expect(matchesFilter("Plasma Bolt", "bolt flight")).toBe(false);
    expect(matchesFilter("Énergie solide", "energie")).toBe(true);
    expect(matchesFilter("Flight", "   ")).toBe(true);
    // A word matches anywhere in the name ("the" is in "Weather" too).
    expect(FIFTEEN_POWER_NAMES.filter((n) => matchesFilter(n, "the"))).toEqual([
      "Plasma Bolt of the Burning Harbour Lighthouse",
      "Telepathic Link to Every Gull on the Docks",
      "Shadow Step Across the Rooftops at Midnight",
      "Weather Control: Fog Banks and Squalls",
    ]);
  });

  it("collapse: the stored client setting is read strictly (unknown list types dropped, in list order)", () => {
    expect(parseCollapsed("armor,bogus,power")).toEqual(["power", "armor"]);
    expect(parseCollapsed(42)).toEqual([]);
    expect(parseCollapsed("")).toEqual([]);
  });
});

describe("sheet at 15 powers: the rendered list", () => {
  const doc = () => parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ items: heroItemsAtScale(), collapsed: ["talent"], expanded: ["p03"] }) }, { classes: [], title: "" }));

  it("every row carries its full name as a tooltip and data for the filter", () => {
    const rows = queryAll(doc(), `section[data-item-type="power"] li.case-item`);
    expect(rows).toHaveLength(15);
    for (const [i, row] of rows.entries()) {
      const name = FIFTEEN_POWER_NAMES[i];
      expect(attr(queryOne(row, ".case-item-name"), "data-tooltip")).toBe(name);
      expect(attr(row, "data-item-name")).toBe(name);
    }
  });

  it("an open summary shows its facts, description and actions; a closed one is hidden, its button says so", () => {
    const d = doc();
    const open = queryOne(d, `li[data-item-id="p03"]`);
    expect(attr(queryOne(open, ".case-item-summary"), "hidden")).toBeUndefined();
    expect(attr(queryOne(open, ".case-summary-toggle"), "aria-expanded")).toBe("true");
    expect(queryAll(open, ".case-summary-facts .case-tag").map(text)).toEqual(["Rank Incredible (40)", "Mental", "Protection", "Protection rank Incredible (40)"]);
    expect(text(queryOne(open, ".case-summary-description"))).toContain("Kinetic Absorption Field with Rebound Discharge: the power");
    expect(queryAll(open, ".case-summary-actions button").map((b) => attr(b, "data-action"))).toEqual(["postItem", "editItem", "duplicateItem", "deleteItem"]);
    const closed = queryOne(d, `li[data-item-id="p01"]`);
    expect(attr(queryOne(closed, ".case-item-summary"), "hidden")).toBe("");
    expect(attr(queryOne(closed, ".case-summary-toggle"), "aria-expanded")).toBe("false");
    expect(attr(queryOne(closed, ".case-summary-toggle"), "aria-controls")).toBe(attr(queryOne(closed, ".case-item-summary"), "id"));
  });

  it("collapse: a folded section keeps its heading button (aria-expanded false) and hides its list and filter", () => {
    const talents = queryOne(doc(), `section.case-item-section[data-item-type="talent"]`);
    const toggle = queryOne(talents, `button[data-action="toggleSection"]`);
    expect(attr(toggle, "aria-expanded")).toBe("false");
    expect(text(toggle)).toBe("Talents (1)");
    expect(attr(queryOne(talents, "ol.case-item-list"), "hidden")).toBe("");
    expect(attr(queryOne(talents, "input.case-item-filter"), "hidden")).toBe("");
    expect(attr(queryOne(talents, "input.case-item-filter"), "aria-label")).toBe("Filter Talents by name");
    // The filter box is not a form field: it is never submitted with the actor.
    expect(attr(queryOne(talents, "input.case-item-filter"), "name")).toBeUndefined();
  });

  it("every icon button has visible text, so it reads without the icon font", () => {
    for (const button of queryAll(doc(), "button")) {
      const label = text(button).trim() || attr(button, "aria-label") || "";
      expect(label, attr(button, "data-action")).not.toBe("");
      if (queryAll(button, "i").length > 0) expect(text(button).trim(), attr(button, "data-action")).not.toBe("");
    }
  });

  it("read-only: the switches are disabled, and no duplicate or delete is offered", () => {
    const d = parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ items: heroItemsAtScale(), editable: false }) }, { classes: [], title: "" }));
    for (const toggle of queryAll(d, `button[data-action="toggleItem"]`)) expect(attr(toggle, "disabled")).toBe("");
    expect(queryAll(d, `[data-action="duplicateItem"]`)).toHaveLength(0);
    expect(queryAll(d, `[data-action="deleteItem"]`)).toHaveLength(0);
    expect(queryAll(d, `[data-action="postItem"]`).length).toBeGreaterThan(15);
  });

  it("the chat card of a posted item shows its name, type, owner, facts and description", () => {
    const row = atScale().lists.armor.items[0];
    const card = parseHtml(renderTemplate(ITEM_CARD_TEMPLATE.replace(/^systems\/case\//, ""), { actor: "Kestrel", item: row }));
    expect(text(queryOne(card, ".case-item-card-name"))).toBe("Kevlar Suit");
    expect(text(queryOne(card, ".case-item-card-type"))).toBe("Armor · Kestrel");
    expect(queryAll(card, ".case-item-card-facts .case-tag").map(text)).toEqual(["Body armor Good (10)", "Energy protection Shift 0 (0)"]);
  });
});

/** A row element as the handlers see it: dataset, classes, the summary and its button. */
function fakeRow(id: string, expanded = false) {
  const classes = new Set(expanded ? ["expanded"] : []);
  const summary = { hidden: !expanded };
  const button = { attrs: {} as Record<string, string>, setAttribute(name: string, value: string) { this.attrs[name] = value; } };
  const row = {
    dataset: { itemId: id },
    classList: {
      contains: (c: string) => classes.has(c),
      toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)),
    },
    querySelector: (sel: string) => (sel === ".case-item-summary" ? summary : sel === ".case-summary-toggle" ? button : null),
    closest: (sel: string) => (sel === "li[data-item-id]" || sel === "[data-item-id]" ? row : null),
  };
  return { row: row as unknown as HTMLElement, summary, button, classes };
}

/** A section element: its list and filter, its heading button. */
function fakeSection() {
  const classes = new Set<string>();
  const parts = [{ hidden: false }, { hidden: false }];
  const button = { attrs: {} as Record<string, string>, setAttribute(name: string, value: string) { this.attrs[name] = value; } };
  const section = {
    classList: { toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)) },
    querySelectorAll: () => parts,
    querySelector: () => button,
  };
  const target = { dataset: { section: "power" }, closest: () => section } as unknown as HTMLElement;
  return { target, parts, button, classes };
}

describe("collapse, summary and switches: the handlers", () => {
  let settings: SettingsDouble;
  beforeEach(() => {
    settings = new SettingsDouble();
    stubI18nAndNotifications({ settings });
    registerItemListSetting();
  });

  it("registers the folded lists as a client setting, hidden from the settings window", () => {
    expect(settings.registered).toEqual([{ namespace: "case", key: COLLAPSED_SETTING, config: { scope: "client", config: false, type: String, default: "" } }]);
  });

  it("collapse: the heading button folds the list, remembers it for this client, and unfolds it again", async () => {
    const actor = fakeActor();
    const { target, parts, button, classes } = fakeSection();
    await actions.toggleSection?.call({ actor, isEditable: false }, fakeClick(), target);
    expect(settings.values.get("case.collapsedItemLists")).toBe("power");
    expect([classes.has("collapsed"), parts.map((p) => p.hidden), button.attrs["aria-expanded"]]).toEqual([true, [true, true], "false"]);
    await actions.toggleSection?.call({ actor, isEditable: false }, fakeClick(), target);
    expect(settings.values.get("case.collapsedItemLists")).toBe("");
    expect([classes.has("collapsed"), parts.map((p) => p.hidden), button.attrs["aria-expanded"]]).toEqual([false, [false, false], "true"]);
  });

  it("collapse: a heading naming no item list is refused, nothing stored", async () => {
    const { target } = fakeSection();
    (target.dataset as Record<string, string>).section = "villains";
    await expect(actions.toggleSection?.call({ actor: fakeActor(), isEditable: true }, fakeClick(), target)).rejects.toThrow(/"villains" is not an item list/);
    expect(settings.values.get("case.collapsedItemLists")).toBe("");
  });

  it("the details button opens and closes a row's summary, and the sheet remembers it across renders", async () => {
    const expandedItems = new Set<string>();
    const { row, summary, button } = fakeRow("p01");
    await actions.toggleSummary?.call({ actor: fakeActor(), isEditable: true, expandedItems }, fakeClick(), row);
    expect([summary.hidden, button.attrs["aria-expanded"], [...expandedItems]]).toEqual([false, "true", ["p01"]]);
    await actions.toggleSummary?.call({ actor: fakeActor(), isEditable: true, expandedItems }, fakeClick(), row);
    expect([summary.hidden, button.attrs["aria-expanded"], [...expandedItems]]).toEqual([true, "false", []]);
  });
});

/** An item the switch and duplicate handlers can write: its system data, update() and clone() recorded. */
function writableItem(actor: FakeActor, id: string, type: string, system: Record<string, unknown>): FakeItem & { system: Record<string, unknown>; update: ReturnType<typeof vi.fn>; clone: ReturnType<typeof vi.fn> } {
  const item = fakeItem(actor, id, { type, name: `The ${id}` });
  return Object.assign(item, { system, update: vi.fn(() => Promise.resolve(item)), clone: vi.fn(() => Promise.resolve(item)) });
}

function targetFor(id: string, data: Record<string, string> = {}): HTMLElement {
  return { dataset: { itemId: id, ...data }, closest: () => null } as unknown as HTMLElement;
}

describe("equip toggle and duplicate: the handlers", () => {
  beforeEach(() => {
    stubI18nAndNotifications();
  });

  it("flips a weapon's or armor's Equipped and a protective power's protection, one update each", async () => {
    const actor = fakeActor();
    const hook = writableItem(actor, "hook", "weapon", { equipped: false });
    const field = writableItem(actor, "field", "power", { protection: { active: true } });
    await actions.toggleItem?.call({ actor, isEditable: true }, fakeClick(), targetFor("hook", { field: "system.equipped" }));
    await actions.toggleItem?.call({ actor, isEditable: true }, fakeClick(), targetFor("field", { field: "system.protection.active" }));
    expect(hook.update.mock.calls).toEqual([[{ "system.equipped": true }]]);
    expect(field.update.mock.calls).toEqual([[{ "system.protection.active": false }]]);
  });

  it("refuses a switch the item's type does not have, and writes nothing on a read-only sheet", async () => {
    const actor = fakeActor();
    const talent = writableItem(actor, "marksman", "talent", {});
    await expect(actions.toggleItem?.call({ actor, isEditable: true }, fakeClick(), targetFor("marksman", { field: "system.equipped" }))).rejects.toThrow(/A talent has no switch "system.equipped"/);
    const armor = writableItem(actor, "kevlar", "armor", { equipped: true });
    await actions.toggleItem?.call({ actor, isEditable: false }, fakeClick(), targetFor("kevlar", { field: "system.equipped" }));
    expect([talent.update, armor.update].map((u) => u.mock.calls.length)).toEqual([0, 0]);
  });

  it("duplicates an item on the same character, named as a copy (Foundry's clone with save)", async () => {
    const actor = fakeActor();
    const bolt = writableItem(actor, "bolt", "power", {});
    await actions.duplicateItem?.call({ actor, isEditable: true }, fakeClick(), targetFor("bolt"));
    expect(bolt.clone.mock.calls).toEqual([[{ name: "The bolt (copy)" }, { save: true }]]);
    await actions.duplicateItem?.call({ actor, isEditable: false }, fakeClick(), targetFor("bolt"));
    expect(bolt.clone).toHaveBeenCalledTimes(1);
  });
});

describe("post to chat: the handler", () => {
  it("renders the item card with the enriched description and posts it as the actor", async () => {
    stubI18nAndNotifications();
    const created: unknown[] = [];
    const enrichHTML = vi.fn((html: string) => Promise.resolve(`${html}<p>(enriched)</p>`));
    const render = vi.fn((path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)));
    vi.stubGlobal("foundry", {
      ...globalThis.foundry,
      applications: { ...globalThis.foundry.applications, ux: { TextEditor: { implementation: { enrichHTML } } }, handlebars: { renderTemplate: render } },
    });
    vi.stubGlobal("ChatMessage", {
      implementation: { create: (data: unknown) => Promise.resolve(created.push(JSON.parse(JSON.stringify(data)))) },
      getSpeaker: ({ actor }: { actor: FakeActor }) => ({ actor: actor.uuid, alias: actor.name }),
    });
    const actor = fakeActor();
    const item = heroItemsAtScale().find((i) => i.id === "p01");
    if (!item) throw new Error("fixture");
    fakeItem(actor, "p01", { type: "power", name: item.name });
    Object.assign(actor.items.get("p01") ?? {}, { system: item.system, sort: item.sort, img: item.img });
    await actions.postItem?.call({ actor, isEditable: false }, fakeClick(), targetFor("p01"));
    expect(enrichHTML).toHaveBeenCalledTimes(1);
    expect(created).toHaveLength(1);
    const message = created[0] as { content: string; speaker: unknown };
    expect(message.speaker).toEqual({ actor: "Actor.kestrel", alias: "Kestrel" });
    const card = parseHtml(message.content);
    expect(text(queryOne(card, ".case-item-card-name"))).toBe("Plasma Bolt of the Burning Harbour Lighthouse");
    expect(text(queryOne(card, ".case-item-card-description"))).toContain("(enriched)");
    expect(queryAll(card, ".case-item-card-facts .case-tag").map(text)).toEqual(["Rank Excellent (20)", "Energy Generation", "instant", "Energy", "Range 3"]);
  });
});

describe("context menu", () => {
  it("offers edit, duplicate, delete and post; duplicate and delete only on an editable sheet", () => {
    let editable = true;
    const entries = rowMenuEntries(() => () => Promise.resolve(), () => editable);
    const row = {} as HTMLElement;
    expect(entries.map((e) => [e.name, e.condition(row)])).toEqual([
      ["CASE.Sheet.Edit", true],
      ["CASE.ItemList.Duplicate", true],
      ["CASE.Sheet.Delete", true],
      ["CASE.ItemList.Post", true],
    ]);
    editable = false;
    expect(entries.filter((e) => e.condition(row)).map((e) => e.name)).toEqual(["CASE.Sheet.Edit", "CASE.ItemList.Post"]);
    // Foundry localises the names: each is in en.json.
    stubI18nAndNotifications();
    for (const e of entries) expect(game.i18n.localize(e.name), e.name).not.toBe(e.name);
  });

  it("v14 context menu: on 14 the entries take v14's form (label, visible, onClick(event, target)) and run the sheet's handlers; on 13 v13's", async () => {
    stubI18nAndNotifications();
    vi.stubGlobal("PointerEvent", class {
      constructor(readonly type: string) {}
    });
    const actor = fakeActor();
    const bolt = writableItem(actor, "bolt", "power", {});
    const row = targetFor("bolt");
    /**
     * v14's ContextMenu as it reads an entry (v14 API, ContextMenuEntry: label, icon, visible,
     * onClick(event, target)); the v13 keys name/condition/callback log a deprecation warning.
     */
    const deprecations: string[] = [];
    const openV14 = (entries: readonly object[], target: HTMLElement) =>
      entries.flatMap((e) => {
        for (const key of ["name", "condition", "callback"]) if (key in e) deprecations.push(`ContextMenu entry ${key} is deprecated`);
        const entry = e as { label?: string; visible?: (t: HTMLElement) => boolean; onClick?: (event: Event | null, t: HTMLElement) => unknown };
        return entry.visible === undefined || entry.visible(target) ? [{ label: entry.label, click: () => entry.onClick?.(null, target) }] : [];
      });
    const v14 = contextMenuEntries(itemRowMenu({ actor, isEditable: false } as never), 14);
    const shown = openV14(v14, row);
    expect(deprecations).toEqual([]);
    expect(shown.map((e) => e.label)).toEqual(["CASE.Sheet.Edit", "CASE.ItemList.Post"]);
    await shown[0]?.click();
    expect(bolt.sheet.render).toHaveBeenCalledTimes(1);
    // 13: v13's own form, unchanged.
    expect(contextMenuEntries(itemRowMenu({ actor, isEditable: true } as never), 13).map((e) => Object.keys(e).sort())).toEqual(Array(4).fill(["callback", "condition", "icon", "name"]));
  });

  it("the sheet's menu runs the sheet's own handlers on the right-clicked row (edit, duplicate, delete)", async () => {
    stubI18nAndNotifications();
    // ContextMenu runs in a browser, where PointerEvent exists; the handlers here ignore the event.
    vi.stubGlobal("PointerEvent", class {
      constructor(readonly type: string) {}
    });
    const actor = fakeActor();
    const bolt = writableItem(actor, "bolt", "power", {});
    const entries = itemRowMenu({ actor, isEditable: true } as never);
    const row = targetFor("bolt");
    for (const name of ["CASE.Sheet.Edit", "CASE.ItemList.Duplicate", "CASE.Sheet.Delete"]) await entries.find((e) => e.name === name)?.callback(row);
    expect([bolt.sheet.render.mock.calls.length, bolt.clone.mock.calls.length, bolt.deleteDialog.mock.calls.length]).toEqual([1, 1, 1]);
    // On a read-only sheet the menu hides duplicate and delete, and their handlers write nothing anyway.
    const readOnly = itemRowMenu({ actor, isEditable: false } as never);
    expect(readOnly.filter((e) => e.condition(row)).map((e) => e.name)).toEqual(["CASE.Sheet.Edit", "CASE.ItemList.Post"]);
    await readOnly.find((e) => e.name === "CASE.Sheet.Delete")?.callback(row);
    expect(bolt.deleteDialog).toHaveBeenCalledTimes(1);
  });
});
