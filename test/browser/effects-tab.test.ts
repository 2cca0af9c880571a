/**
 * The hero sheet's Effects tab in Chromium: the real templates with the system's stylesheets,
 * in Foundry's light and dark themes, with a realistic load (15 powers with long names, each
 * carrying an active effect, plus the fixture's refused, switched-off and suppressed ones).
 * Screenshots go to test/artifacts/; axe-core must find nothing serious or critical. The
 * buttons are clicked as a person would, and the recorded clicks fed to the real handlers.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The sheet module loads the roll and attack entry points, which need Foundry's Roll; this test clicks neither.
vi.mock("../../src/foundry/dice/entry-points", () => ({ rollScore: vi.fn(), rollItem: vi.fn() }));
vi.mock("../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));

import type { Page } from "playwright-core";
import { CaseCharacterSheet, HeroSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { characterSheetData } from "../../src/foundry/apps/sheet/sheet-context";
import { EFFECT_ACTIONS } from "../../src/foundry/apps/sheet/effect-actions";
import { picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { renderSheet } from "../support/handlebars";
import { SHEET_TEMPLATES, heroEffects, heroItems, heroSystemWithEffects, type FixtureEffect } from "../support/sheet-fixtures";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const CLASSES = [...(CaseCharacterSheet.DEFAULT_OPTIONS as { classes: string[] }).classes, ...(HeroSheet.DEFAULT_OPTIONS as { classes: string[] }).classes];
const POSITION = (HeroSheet.DEFAULT_OPTIONS as { position: { width: number; height: number } }).position;

const LONG_NAMES = [
  "Mantle of the Seventeenth Storm-Warden",
  "Unyielding Bulwark of the Drowned Cathedral",
  "Quantum Tunnelling Through Reinforced Concrete",
  "Borrowed Thunder",
  "Gravitic Anchor",
  "Sympathetic Resonance With Nearby Machinery",
  "Cold Iron Skin",
  "Hyper-Reflexes",
  "Second Heart",
  "Eyes of the Lighthouse",
  "Whispering Compass",
  "Glass-Bone Brittleness",
  "Stolen Vigour",
  "Iron Lungs",
  "Patchwork Regeneration",
];

/** 15 powers, each with an effect on a different score: a realistic long list. */
function manyEffects(): FixtureEffect[] {
  const keys = ["system.abilities.strength.mgt", "system.protection.physical", "system.abilities.agility.bal", "system.abilities.endurance.value", "system.protection.energy"];
  return LONG_NAMES.map((name, i) => ({
    effect: { id: `fx${String(i).padStart(2, "0")}`, name: `${name}: sustained`, img: null, disabled: i % 5 === 4, isSuppressed: i % 7 === 6, changes: [{ key: keys[i % keys.length] ?? "", mode: 2 + (i % 4), value: String(10 + i) }] },
    item: { id: `power${String(i)}`, name },
  }));
}

function effectsHtml(): string {
  const system = heroSystemWithEffects();
  const sheet = characterSheetData({
    name: "Kestrel",
    img: "icons/kestrel.webp",
    type: "hero",
    system,
    biography: system.biography,
    notes: system.notes,
    items: heroItems(),
    editable: true,
    activeTab: "effects",
    effects: [...heroEffects(), ...manyEffects()],
  });
  return renderSheet(SHEET_TEMPLATES.hero, { sheet }, { classes: CLASSES, title: "Kestrel", position: POSITION });
}

const browser = sharedBrowser();

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await browser.close();
});

async function open(theme: "light" | "dark"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await showPage(page, sheetDocument(effectsHtml(), theme, STYLESHEETS));
  return page;
}

describe("active effect tab in Chromium", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`shows 19 effects without spilling, their buttons unobstructed, and passes axe-core (${theme} theme)`, async () => {
      const page = await open(theme);
      try {
        const tab = page.locator('section[data-tab="effects"]');
        await expect(tab.isVisible()).resolves.toBe(true);
        await expect(page.locator('section[data-tab="powers"]').isVisible()).resolves.toBe(false);
        await expect(tab.locator("li.case-effect").count()).resolves.toBe(19);
        const overflow = await page.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await picture(page.locator("form.application"), { path: `test/artifacts/hero-effects-tab-${theme}.png` });
        // Every row's controls end inside the tab (none clipped by the window).
        const tabBox = await tab.boundingBox();
        if (!tabBox) throw new Error("The tab is not laid out.");
        for (const box of await tab.locator("li.case-effect .case-item-controls").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) {
          expect(box).toBeLessThanOrEqual(tabBox.x + tabBox.width + 1);
        }
        // The longest name wraps inside its row; the controls sit beside it, not over it.
        const row = tab.locator('li[data-effect-id="fx05"]');
        await row.scrollIntoViewIfNeeded();
        const name = await row.locator(".case-item-name").boundingBox();
        const controls = await row.locator(".case-item-controls").boundingBox();
        if (!name || !controls) throw new Error("The row is not laid out.");
        expect(name.x + name.width <= controls.x + 1 || name.y + name.height <= controls.y + 1).toBe(true);
        await expectAccessible(page, "form.application", `hero sheet Effects tab (${theme})`);
      } finally {
        await page.close();
      }
    });
  }

  it("the toggle, edit and delete buttons of an item's effect reach the real handlers for that effect", async () => {
    const page = await open("light");
    try {
      const row = page.locator('li[data-effect-id="visor"]');
      await row.locator('[data-action="toggleEffect"]').click();
      await row.locator('[data-action="editEffect"]').click();
      const rowData = await row.evaluate((el) => Object.fromEntries(Object.entries((el as HTMLElement).dataset)));
      expect(rowData).toEqual({ effectId: "visor", itemId: "kevlar" });
      // The document the sheet shows: an Actor whose item "kevlar" carries the effect "visor".
      class ActorStub {
        readonly documentName = "Actor";
      }
      vi.stubGlobal("Actor", ActorStub);
      const update = vi.fn(() => Promise.resolve());
      const render = vi.fn();
      const visor = { disabled: true, update, sheet: { render } };
      const actor = Object.assign(new ActorStub(), {
        items: { get: (id: string) => (id === "kevlar" ? { effects: { get: (e: string) => (e === "visor" ? visor : undefined) } } : undefined) },
        effects: { get: () => undefined },
      });
      const target = { dataset: {}, closest: (sel: string) => (sel === "[data-effect-id]" ? { dataset: rowData } : null) } as unknown as HTMLElement;
      await EFFECT_ACTIONS.toggleEffect.call({ document: actor as never, isEditable: true }, {} as PointerEvent, target);
      expect(update).toHaveBeenCalledWith({ disabled: false });
      vi.stubGlobal("foundry", { ...(globalThis as unknown as { foundry: object }).foundry, applications: { api: { ApplicationV2: class ApplicationStub {
        readonly rendered = false;
      } } } });
      await EFFECT_ACTIONS.editEffect.call({ document: actor as never, isEditable: true }, {} as PointerEvent, target);
      expect(render).toHaveBeenCalledWith(true);
      // A read-only sheet does not switch it.
      update.mockClear();
      await EFFECT_ACTIONS.toggleEffect.call({ document: actor as never, isEditable: false }, {} as PointerEvent, target);
      expect(update).not.toHaveBeenCalled();
    } finally {
      await page.close();
    }
  });
});
