/**
 * The sheets as adapters: their declared actions call the system's entry points with the
 * right arguments, refused input is shown and not swallowed, dropped items are copied or
 * sorted, and the sheets register as the defaults. Foundry is the test double
 * (test/support/foundry-double.ts); the entry points are mocked.
 */
import "../../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../../../../src/foundry/dice/entry-points", () => ({
  rollScore: vi.fn(() => Promise.resolve()),
  rollItem: vi.fn(() => Promise.resolve()),
}));
vi.mock("../../../../src/foundry/exchange/make-attack", () => ({
  makeAttack: vi.fn(() => Promise.resolve()),
}));

import { rollItem, rollScore } from "../../../../src/foundry/dice/entry-points";
import { makeAttack } from "../../../../src/foundry/exchange/make-attack";
import { ABILITY_KEYS, SUB_SCORE_REFS } from "../../../../src/rules/index";
import { CaseCharacterSheet, HeroSheet, NpcSheet } from "../../../../src/foundry/apps/sheet/actor-sheets";
import { CaseItemSheet, itemPartsFor } from "../../../../src/foundry/apps/sheet/item-sheet";
import { CHARACTER_SHEET_ACTIONS } from "../../../../src/foundry/apps/sheet/sheet-actions";
import { registerSheets } from "../../../../src/foundry/apps/index";
import { guardPrepare, guardProcess } from "../../../../src/foundry/apps/sheet/submit-guard";
import { HERO_PARTS, ITEM_PARTS, NPC_PARTS, systemPath } from "../../../../src/foundry/apps/templates";
import { ActorSheetV2 } from "../../../support/foundry-double";
import { renderSheet } from "../../../support/handlebars";
import { attr, parseHtml, queryAll } from "../../../support/html";
import { SHEET_TEMPLATES, heroSheetData, npcSheetData } from "../../../support/sheet-fixtures";
import { fakeActor, fakeClick, fakeItem, fakeTarget, stubI18nAndNotifications, stubI18nOverriding, type FakeActor } from "../../../support/foundry-stubs";
import { RulesRangeError } from "../../../../src/rules/errors";
import { localize } from "../../../support/handlebars";

type Handler = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;

const declared = (CaseCharacterSheet.DEFAULT_OPTIONS as { actions: Record<string, Handler> }).actions;

function host(actor: FakeActor, isEditable = true) {
  return { actor, isEditable };
}

beforeEach(() => {
  vi.mocked(rollScore).mockClear();
  vi.mocked(rollItem).mockClear();
  vi.mocked(makeAttack).mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("declared actions", () => {
  it("every data-action in the rendered hero and NPC sheets has a handler (ours, or Foundry's editImage/tab)", () => {
    const foundryOwn = new Set(["editImage", "tab"]);
    const html = [
      renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ withEffects: true }) }, { classes: [], title: "" }),
      renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData() }, { classes: [], title: "" }),
    ].join("");
    const used = new Set(queryAll(parseHtml(html), "[data-action]").map((el) => attr(el, "data-action") ?? ""));
    expect([...used].sort()).toEqual([
      "advance",
      "advancePower",
      "attack",
      "createEffect",
      "createItem",
      "deleteEffect",
      "deleteItem",
      "duplicateItem",
      "editEffect",
      "editImage",
      "editItem",
      "learnTalent",
      "openBuilder",
      "postItem",
      "rest",
      "rollFeat",
      "rollItem",
      "rollScore",
      "rollUnderworld",
      "stunt",
      "tab",
      "toggleEffect",
      "toggleItem",
      "toggleSection",
      "toggleSummary",
    ]);
    for (const action of used) expect(foundryOwn.has(action) || typeof declared[action] === "function", action).toBe(true);
    expect(declared).toEqual(CHARACTER_SHEET_ACTIONS);
  });

  it("rollScore: every ability and sub-score button rolls that score for the sheet's actor; shift-click skips the dialog", async () => {
    const actor = fakeActor();
    for (const ref of [...ABILITY_KEYS, ...SUB_SCORE_REFS]) {
      await declared.rollScore?.call(host(actor), fakeClick(false), fakeTarget({ action: "rollScore", score: ref }));
      expect(rollScore).toHaveBeenLastCalledWith(actor, ref, { skipDialog: false });
    }
    await declared.rollScore?.call(host(actor), fakeClick(true), fakeTarget({ action: "rollScore", score: "agility.dex" }));
    expect(rollScore).toHaveBeenLastCalledWith(actor, "agility.dex", { skipDialog: true });
    expect(rollScore).toHaveBeenCalledTimes(ABILITY_KEYS.length + SUB_SCORE_REFS.length + 1);
  });

  it("rollScore refuses a button that names no score, rolling nothing", async () => {
    const actor = fakeActor();
    await expect(declared.rollScore?.call(host(actor), fakeClick(), fakeTarget({ score: "fighting.dex" }))).rejects.toThrow(/no ability or sub-score/);
    expect(rollScore).not.toHaveBeenCalled();
  });

  it("rollItem rolls the power of the button (or of its row)", async () => {
    const actor = fakeActor();
    const bolt = fakeItem(actor, "bolt");
    await declared.rollItem?.call(host(actor), fakeClick(), fakeTarget({ itemId: "bolt" }));
    expect(rollItem).toHaveBeenLastCalledWith(bolt, { skipDialog: false });
    await declared.rollItem?.call(host(actor), fakeClick(true), fakeTarget({}, { itemId: "bolt" }));
    expect(rollItem).toHaveBeenLastCalledWith(bolt, { skipDialog: true });
    await declared.rollItem?.call(host(actor), fakeClick(), fakeTarget({ itemId: "gone" }));
    expect(rollItem).toHaveBeenCalledTimes(2);
  });

  it("attack makes the item's attack, only for an item that can attack", async () => {
    const actor = fakeActor();
    const bolt = fakeItem(actor, "bolt", { isAttack: true });
    fakeItem(actor, "flight", { isAttack: false });
    await declared.attack?.call(host(actor), fakeClick(true), fakeTarget({ itemId: "bolt" }));
    expect(makeAttack).toHaveBeenCalledWith(bolt, { skipDialog: true });
    await declared.attack?.call(host(actor), fakeClick(), fakeTarget({ itemId: "flight" }));
    expect(makeAttack).toHaveBeenCalledTimes(1);
  });

  it("editItem opens the item's sheet; deleteItem asks Foundry's confirmation, and only on an editable sheet", async () => {
    const actor = fakeActor();
    const bolt = fakeItem(actor, "bolt");
    await declared.editItem?.call(host(actor), fakeClick(), fakeTarget({ itemId: "bolt" }));
    expect(bolt.sheet.render).toHaveBeenCalledWith({ force: true });
    // A module's older (ApplicationV1) item sheet is opened the older way.
    const legacy = { ...fakeItem(actor, "legacy"), sheet: { render: vi.fn() } };
    actor.items.set("legacy", legacy);
    await declared.editItem?.call(host(actor), fakeClick(), fakeTarget({ itemId: "legacy" }));
    expect(legacy.sheet.render).toHaveBeenCalledWith(true);
    await declared.deleteItem?.call(host(actor, false), fakeClick(), fakeTarget({ itemId: "bolt" }));
    expect(bolt.deleteDialog).not.toHaveBeenCalled();
    await declared.deleteItem?.call(host(actor), fakeClick(), fakeTarget({ itemId: "bolt" }));
    expect(bolt.deleteDialog).toHaveBeenCalledTimes(1);
  });

  it("createItem creates an item of the button's type on the actor and opens it", async () => {
    const actor = fakeActor();
    const create = vi.fn(() => Promise.resolve({}));
    vi.stubGlobal("Item", { implementation: { create, defaultName: ({ type }: { type: string }) => `New ${type}` } });
    await declared.createItem?.call(host(actor), fakeClick(), fakeTarget({ type: "talent" }));
    expect(create).toHaveBeenCalledWith({ name: "New talent", type: "talent" }, { parent: actor, renderSheet: true });
    await expect(declared.createItem?.call(host(actor), fakeClick(), fakeTarget({ type: "spell" }))).rejects.toThrow(/type "spell"/);
    await declared.createItem?.call(host(actor, false), fakeClick(), fakeTarget({ type: "talent" }));
    expect(create).toHaveBeenCalledTimes(1);
  });
});

describe("sheet classes", () => {
  it("hero: tabbed parts from the system's templates, edited in place and saved on change", () => {
    expect(Object.keys(HeroSheet.PARTS)).toEqual(Object.keys(HERO_PARTS));
    expect(HeroSheet.PARTS.powers).toEqual({ template: systemPath(HERO_PARTS.powers), scrollable: [""] });
    expect(HeroSheet.PARTS.header.template).toBe("systems/case/templates/actor/hero-header.hbs");
    expect(CaseCharacterSheet.DEFAULT_OPTIONS).toMatchObject({ form: { submitOnChange: true }, classes: ["case", "sheet", "actor", "character"] });
    expect(new HeroSheet().tabGroups).toEqual({ primary: "powers" });
    expect(Object.keys(NpcSheet.PARTS)).toEqual(Object.keys(NPC_PARTS));
  });

  it("item sheet: a part per item type between header and description; powers, weapons and armor end with their active effects", () => {
    expect(Object.keys(CaseItemSheet.PARTS)).toEqual(Object.keys(ITEM_PARTS));
    expect(itemPartsFor("weapon")).toEqual(["header", "weapon", "description", "effects"]);
    expect(itemPartsFor("armor")).toEqual(["header", "armor", "description", "effects"]);
    expect(itemPartsFor("power")).toEqual(["header", "power", "description", "effects"]);
    expect(itemPartsFor("talent")).toEqual(["header", "talent", "description"]);
    expect(itemPartsFor("contact")).toEqual(["header", "contact", "description"]);
    expect(itemPartsFor("description")).toEqual(["header", "description"]);
    expect(CaseItemSheet.DEFAULT_OPTIONS).toMatchObject({ form: { submitOnChange: true } });
  });

  it("registers the hero, NPC and item sheets as the defaults for their types, with labels in en.json", () => {
    const Actors = { registerSheet: vi.fn() };
    const Items = { registerSheet: vi.fn() };
    vi.stubGlobal("foundry", { ...(globalThis as unknown as { foundry: object }).foundry, documents: { collections: { Actors, Items } } });
    registerSheets();
    expect(Actors.registerSheet).toHaveBeenCalledWith("case", HeroSheet, { types: ["hero"], makeDefault: true, label: "CASE.Sheet.HeroSheet" });
    expect(Actors.registerSheet).toHaveBeenCalledWith("case", NpcSheet, { types: ["npc"], makeDefault: true, label: "CASE.Sheet.NpcSheet" });
    expect(Items.registerSheet).toHaveBeenCalledWith("case", CaseItemSheet, {
      types: ["power", "talent", "weapon", "armor", "contact"],
      makeDefault: true,
      label: "CASE.Sheet.ItemSheet",
    });
    for (const call of [...Actors.registerSheet.mock.calls, ...Items.registerSheet.mock.calls]) {
      expect(() => localize((call[2] as { label: string }).label)).not.toThrow();
    }
  });
});

describe("refused input (a rank of −3)", () => {
  const refusal = new Error("HeroData validation errors:\n  abilities.fighting.value: must be a rank number: a whole number of 0 or more");

  it("shows Foundry's message, saves nothing and re-renders the stored values", () => {
    const notifications = stubI18nAndNotifications();
    const sheet = { render: vi.fn() };
    const result = guardPrepare(sheet, () => {
      throw refusal;
    });
    expect(result).toEqual({});
    expect(notifications.error).toHaveBeenCalledWith(`Not saved: ${refusal.message}`);
    expect(sheet.render).toHaveBeenCalledTimes(1);
    expect(console.error).toHaveBeenCalledWith(refusal);
  });

  it("rules errors localised: a rules error refusing the input reads en.json's words; Foundry's own validation message is kept as Foundry wrote it", () => {
    const notifications = stubI18nOverriding({ "CASE.RulesError.notNonNegativeWhole": "{field} NEGATIVE {got}", "CASE.RulesField.strength": "STR" });
    const sheet = { render: vi.fn() };
    guardPrepare(sheet, () => {
      throw new RulesRangeError("notNonNegativeWhole", { field: "strength", got: "-3" });
    });
    guardPrepare(sheet, () => {
      throw refusal;
    });
    expect(notifications.error.mock.calls.map((c) => String(c[0]))).toEqual([localize("CASE.Sheet.InputRefused", { error: "STR NEGATIVE -3" }), `Not saved: ${refusal.message}`]);
  });

  it("rules errors localised: CASE's own words in Foundry's validation message (a rank field's) are said in the reader's", () => {
    const notifications = stubI18nOverriding({ "CASE.Sheet.RankNumber": "MUSS EINE RANGZAHL SEIN" });
    guardPrepare({ render: vi.fn() }, () => {
      throw refusal;
    });
    expect(notifications.error.mock.calls.map((c) => String(c[0]))).toEqual(["Not saved: HeroData validation errors:\n  abilities.fighting.value: MUSS EINE RANGZAHL SEIN"]);
  });

  it("passes good input through untouched", () => {
    const notifications = stubI18nAndNotifications();
    const sheet = { render: vi.fn() };
    expect(guardPrepare(sheet, () => ({ "system.abilities.fighting.value": 30 }))).toEqual({ "system.abilities.fighting.value": 30 });
    expect(notifications.error).not.toHaveBeenCalled();
    expect(sheet.render).not.toHaveBeenCalled();
  });

  it("a refusal from the update itself is reported the same way", async () => {
    const notifications = stubI18nAndNotifications();
    const sheet = { render: vi.fn() };
    await guardProcess(sheet, () => Promise.reject(refusal));
    expect(notifications.error).toHaveBeenCalledWith(`Not saved: ${refusal.message}`);
    expect(sheet.render).toHaveBeenCalledTimes(1);
    await guardProcess(sheet, () => Promise.resolve());
    expect(notifications.error).toHaveBeenCalledTimes(1);
  });

  it("the sheets route Foundry's submit preparation and update through the guard", async () => {
    const notifications = stubI18nAndNotifications();
    const proto = ActorSheetV2.prototype as unknown as Record<string, unknown>;
    proto._prepareSubmitData = () => {
      throw refusal;
    };
    proto._processSubmitData = () => Promise.reject(refusal);
    try {
      const sheet = new HeroSheet() as unknown as {
        render: () => void;
        _prepareSubmitData: (...args: unknown[]) => unknown;
        _processSubmitData: (...args: unknown[]) => Promise<void>;
      };
      sheet.render = vi.fn();
      expect(sheet._prepareSubmitData({}, {}, {})).toEqual({});
      await sheet._processSubmitData({}, {}, {});
      expect(notifications.error).toHaveBeenCalledTimes(2);
      expect(sheet.render).toHaveBeenCalledTimes(2);
    } finally {
      delete proto._prepareSubmitData;
      delete proto._processSubmitData;
    }
  });

  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
});

describe("dropping items on a character sheet", () => {
  type DropSheet = { _onDropItem: (event: unknown, item: unknown) => Promise<unknown>; _onSortItem: (event: unknown, item: unknown) => unknown };

  function sheetFor(actor: FakeActor, isEditable = true): DropSheet {
    const sheet = new HeroSheet();
    Object.defineProperties(sheet, { actor: { value: actor }, isEditable: { value: isEditable } });
    return sheet as unknown as DropSheet;
  }

  function stubCreation() {
    const fromCompendium = vi.fn((item: { name: string; type: string }, options: object) => ({ name: item.name, type: item.type, copiedWith: options }));
    const create = vi.fn((data: object) => Promise.resolve({ created: data }));
    stubI18nAndNotifications({ items: { fromCompendium } });
    vi.stubGlobal("Item", { implementation: { create } });
    return { fromCompendium, create };
  }

  it("an item from another actor (or a compendium) is copied onto this character, keeping its id when free", async () => {
    const { fromCompendium, create } = stubCreation();
    const actor = fakeActor();
    const other = fakeActor("villain", "Villain");
    const bolt = fakeItem(other, "bolt", { isAttack: true, name: "Plasma Bolt" });
    const result = await sheetFor(actor)._onDropItem({}, bolt);
    expect(fromCompendium).toHaveBeenCalledWith(bolt, { keepId: true, clearFolder: true });
    expect(create).toHaveBeenCalledWith({ name: "Plasma Bolt", type: "power", copiedWith: { keepId: true, clearFolder: true } }, { parent: actor, keepId: true });
    expect(result).toEqual({ created: { name: "Plasma Bolt", type: "power", copiedWith: { keepId: true, clearFolder: true } } });

    fakeItem(actor, "bolt"); // this character already has an item with that id
    await sheetFor(actor)._onDropItem({}, bolt);
    expect(create).toHaveBeenLastCalledWith(expect.anything(), { parent: actor, keepId: false });
  });

  it("an item type a character cannot hold is refused with a warning", async () => {
    const { create } = stubCreation();
    const notifications = (globalThis as unknown as { ui: { notifications: { warn: ReturnType<typeof vi.fn> } } }).ui.notifications;
    const spell = fakeItem(null, "fireball", { type: "spell", name: "Fireball" });
    expect(await sheetFor(fakeActor())._onDropItem({}, spell)).toBeNull();
    expect(create).not.toHaveBeenCalled();
    expect(notifications.warn).toHaveBeenCalledWith('Fireball is a "spell" item, which a CASE character cannot hold.');
  });

  it("nothing is dropped on a sheet the user cannot edit", async () => {
    const { create } = stubCreation();
    expect(await sheetFor(fakeActor(), false)._onDropItem({}, fakeItem(null, "bolt"))).toBeNull();
    expect(create).not.toHaveBeenCalled();
  });

  it("an item dropped within its own character is left to Foundry's sort, within its own list only", async () => {
    const { create } = stubCreation();
    const proto = ActorSheetV2.prototype as unknown as Record<string, unknown>;
    const coreDrop = vi.fn(() => Promise.resolve("sorted"));
    const coreSort = vi.fn(() => Promise.resolve([]));
    proto._onDropItem = coreDrop;
    proto._onSortItem = coreSort;
    try {
      const actor = fakeActor();
      const bolt = fakeItem(actor, "bolt", { type: "power" });
      fakeItem(actor, "flight", { type: "power" });
      fakeItem(actor, "baton", { type: "weapon" });
      const sheet = sheetFor(actor);
      expect(await sheet._onDropItem({}, bolt)).toBe("sorted");
      expect(create).not.toHaveBeenCalled();

      // The drop's target is an element inside the row of the item it was dropped on.
      class FakeElement {
        constructor(private readonly rowId: string) {}
        closest(selector: string) {
          return selector === "[data-item-id]" ? { dataset: { itemId: this.rowId } } : null;
        }
      }
      vi.stubGlobal("Element", FakeElement);
      const dropOn = (id: string) => ({ target: new FakeElement(id) });
      await sheet._onSortItem(dropOn("flight"), bolt);
      expect(coreSort).toHaveBeenCalledTimes(1);
      await sheet._onSortItem(dropOn("baton"), bolt);
      expect(coreSort).toHaveBeenCalledTimes(1);
    } finally {
      delete proto._onDropItem;
      delete proto._onSortItem;
    }
  });
});
