/**
 * The Effects tab and part (templates/parts/effects.hbs) on the hero sheet, the NPC sheet and
 * the item sheets, rendered by real Handlebars with the real en.json from the sheets' own
 * context builders; and the ability notes for effects and lost Endurance ranks.
 */
import { describe, expect, it } from "vitest";
import { renderSheet } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { HERO_SOURCE, SHEET_TEMPLATES, heroEffects, heroSheetData, itemSheetFixture, npcSheetData } from "../../../support/sheet-fixtures";
import { itemSheetData } from "../../../../src/foundry/apps/sheet/item-context";
import { PowerData } from "../../../../src/foundry/data/item/items";
import { model } from "../../../support/sheet-fixtures";

function hero(options: Parameters<typeof heroSheetData>[0] = {}) {
  return parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ withEffects: true, activeTab: "effects", ...options }) }, { classes: ["case", "sheet", "actor", "hero"], title: "Kestrel" }));
}

describe("active effect tab on the hero sheet", () => {
  it("lists every effect with where it comes from, its state and its changes in words", () => {
    const doc = hero();
    const tab = queryOne(doc, `section.tab[data-tab="effects"]`);
    expect((attr(tab, "class") ?? "").split(" ")).toContain("active");
    const rows = queryAll(tab, "li.case-effect");
    expect(rows.map((r) => attr(r, "data-effect-id"))).toEqual(heroEffects().map((e) => e.effect.id));
    const [amulet, ss, visor, servos] = rows;
    if (!amulet || !ss || !visor || !servos) throw new Error("four rows expected");
    expect(text(queryOne(amulet, ".case-effect-origin"))).toBe("On the character");
    expect(attr(amulet, "data-item-id")).toBeUndefined();
    expect(text(queryOne(ss, ".case-effect-origin"))).toBe("From Plasma Bolt");
    expect(attr(ss, "data-item-id")).toBe("bolt");
    expect(text(queryOne(ss, ".case-effect-changes"))).toBe("Strength · at least @rank");
    expect(queryAll(visor, ".case-effect-changes li").map(text)).toEqual(["Agy (dex) · add 10", "another field (not a CASE score) · custom x"]);
    expect(text(queryOne(servos, ".case-effect-changes"))).toBe("Protection (physical) · at least 20");
    expect(rows.map((r) => text(queryOne(r, ".case-effect-state")))).toEqual(["On", "On", "Off", "Not in use"]);
  });

  it("a refused change is shown on its effect with the reason and the rules' explanation, and summarised above the list", () => {
    const tab = queryOne(hero(), `section.tab[data-tab="effects"]`);
    expect(text(queryOne(tab, ".case-effects-warning"))).toContain("Some changes were refused");
    const problems = queryAll(tab, ".case-effect-problem");
    expect(problems).toHaveLength(1);
    const amulet = queryOne(tab, `li[data-effect-id="amulet"]`);
    expect(text(queryOne(amulet, ".case-effect-problem"))).toContain(`"-3" is not a valid value for "Fighting"`);
    expect(text(queryOne(amulet, ".case-effect-detail"))).toMatch(/-3/);
  });

  it("each effect has toggle, edit and delete buttons named for it; a read-only sheet keeps only edit", () => {
    const tab = queryOne(hero(), `section.tab[data-tab="effects"]`);
    expect(queryAll(tab, `[data-action="createEffect"]`)).toHaveLength(1);
    const visor = queryOne(tab, `li[data-effect-id="visor"]`);
    const toggle = queryOne(visor, `[data-action="toggleEffect"]`);
    expect(attr(toggle, "aria-pressed")).toBe("false");
    expect(attr(toggle, "aria-label")).toBe("Switch Targeting visor on or off");
    expect(attr(queryOne(visor, `[data-action="editEffect"]`), "aria-label")).toBe("Edit Targeting visor");
    expect(attr(queryOne(visor, `[data-action="deleteEffect"]`), "aria-label")).toBe("Delete Targeting visor");
    const readOnly = queryOne(hero({ editable: false }), `section.tab[data-tab="effects"]`);
    for (const action of ["createEffect", "toggleEffect", "deleteEffect"]) expect(queryAll(readOnly, `[data-action="${action}"]`)).toHaveLength(0);
    expect(queryAll(readOnly, `[data-action="editEffect"]`)).toHaveLength(4);
  });

  it("the abilities show the effective rank, the stored number in the input and a note when an active effect changed it", () => {
    const doc = hero();
    const strength = queryOne(doc, `li.case-ability[data-ability="strength"]`);
    expect(attr(queryOne(strength, "input.case-score"), "value")).toBe("10");
    expect(text(queryOne(strength, ".case-rank-name"))).toBe("Incredible");
    expect(text(queryOne(strength, ".case-ability-note"))).toBe("(10 stored, 40 with effects)");
    // The refused override leaves Fighting alone: no note.
    expect(queryAll(queryOne(doc, `li.case-ability[data-ability="fighting"]`), ".case-ability-note")).toHaveLength(0);
  });

  it("lost Endurance ranks show on the sheet: Endurance Incredible (−1 rank lost), the input keeps the stored 50", () => {
    const doc = hero({ withEffects: false, source: { ...HERO_SOURCE, lostEnduranceRanks: 1 } });
    const endurance = queryOne(doc, `li.case-ability[data-ability="endurance"]`);
    expect(text(queryOne(endurance, ".case-rank-name"))).toBe("Incredible");
    expect(attr(queryOne(endurance, "input.case-score"), "value")).toBe("50");
    expect(text(queryOne(endurance, ".case-ability-note"))).toBe("(−1 rank lost)");
    const two = queryOne(hero({ withEffects: false, source: { ...HERO_SOURCE, lostEnduranceRanks: 2 } }), `li.case-ability[data-ability="endurance"]`);
    expect(text(queryOne(two, ".case-ability-note"))).toBe("(−2 ranks lost)");
  });
});

describe("active effect part on the NPC and item sheets", () => {
  it("the NPC sheet lists its effects (none yet) with an add button", () => {
    const doc = parseHtml(renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData() }, { classes: ["case", "sheet", "actor", "npc"], title: "Dock Thug" }));
    const part = queryOne(doc, ".case-effects");
    expect(text(queryOne(part, "h3"))).toBe("Active Effects");
    expect(text(queryOne(part, ".case-empty"))).toBe("No Active Effects.");
    expect(queryAll(part, `[data-action="createEffect"]`)).toHaveLength(1);
  });

  it("a power's sheet shows its active switch and its effects; a talent's has no effects part", () => {
    const Model = PowerData as unknown as { defineSchema(): Record<string, unknown> };
    const sheet = itemSheetData({
      name: "Super Strength",
      img: null,
      type: "power",
      system: model(PowerData, { category: "physicalEnhancement", rank: 75, active: false }),
      fields: Model.defineSchema(),
      editable: true,
      effects: [{ effect: { id: "ss", name: "Super Strength", img: null, disabled: false, isSuppressed: true, changes: [{ key: "system.abilities.strength.value", mode: 4, value: "@rank" }] }, item: null }],
    });
    const doc = parseHtml(renderSheet(SHEET_TEMPLATES.item("power"), { sheet }, { classes: ["case", "sheet", "item"], title: "Super Strength" }));
    expect(attr(queryOne(doc, `input[name="system.active"]`), "checked")).toBeUndefined();
    const row = queryOne(doc, `.case-item-effects li[data-effect-id="ss"]`);
    expect(text(queryOne(row, ".case-effect-state"))).toBe("Not in use");
    expect(text(queryOne(row, ".case-effect-origin"))).toBe("On the character");
    const talent = parseHtml(renderSheet(SHEET_TEMPLATES.item("talent"), { sheet: itemSheetFixture("talent", { covers: [] }) }, { classes: [], title: "" }));
    expect(queryAll(talent, ".case-effects")).toHaveLength(0);
  });
});
