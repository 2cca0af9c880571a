/**
 * Each sheet at its default size (hero 860 px, NPC 640 px, item 540 px) and at the smallest size
 * it is laid out for (hero 720 px, NPC 600 px, item 440 px), in Chromium with the real templates
 * and stylesheets: nothing reaches past the window's content box, no tab hides behind a scroll
 * strip, and the Effects tab lays each effect out as a grid (icon, body and state, buttons beside).
 * Screenshots go to test/artifacts/.
 */
import "../support/foundry-globals";
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../../src/foundry/dice/entry-points", () => ({ rollScore: vi.fn(), rollItem: vi.fn() }));
vi.mock("../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));

import type { Page } from "playwright-core";
import { CaseCharacterSheet, HeroSheet, NpcSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { CaseItemSheet } from "../../src/foundry/apps/sheet/item-sheet";
import { picture, sharedBrowser, themedPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { renderSheet } from "../support/handlebars";
import { SHEET_TEMPLATES, heroItemsAtScale, heroSheetData, itemSheetFixture, npcSheetData } from "../support/sheet-fixtures";

type Options = { classes: string[]; position: { width: number; height: number } };
const base = CaseCharacterSheet.DEFAULT_OPTIONS as Options;
const hero = HeroSheet.DEFAULT_OPTIONS as Options;
const npc = NpcSheet.DEFAULT_OPTIONS as Options;
const item = CaseItemSheet.DEFAULT_OPTIONS as Options;
/** The smallest width each sheet is laid out for. */
const SMALLEST = { hero: 720, npc: 600, item: 440 } as const;

const browser = sharedBrowser();

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

const showView = themedPage(browser);

/** A view on the file's one page (each replaces the last), at the browser's default viewport. */
function open(html: string, theme: "light" | "dark"): Promise<Page> {
  return showView(html, theme, { width: 1000, height: 900 });
}

/** What reaches past the window's content box sideways (outside a scrolling box), and whether the tab strip scrolls. */
async function spill(page: Page): Promise<{ spilled: string[]; tabsScroll: boolean; hiddenTabs: string[]; tabLines: number }> {
  return page.evaluate(() => {
    const content = document.querySelector(".window-content");
    if (!content) throw new Error("no window content");
    const right = content.getBoundingClientRect().right - parseFloat(getComputedStyle(content).paddingRight);
    const spilled = [...content.querySelectorAll<HTMLElement>("*")]
      .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > right + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" right ${Math.round(el.getBoundingClientRect().right)} > ${Math.round(right)}`);
    const nav = document.querySelector("nav.case-tabs");
    const navBox = nav?.getBoundingClientRect();
    const tabs = nav ? [...nav.querySelectorAll("button")] : [];
    const hiddenTabs = navBox ? tabs.filter((b) => b.getBoundingClientRect().right > navBox.right + 0.5).map((b) => b.textContent.trim()) : [];
    const tabLines = new Set(tabs.map((b) => Math.round(b.getBoundingClientRect().top))).size;
    return { spilled, tabsScroll: nav ? nav.scrollWidth > nav.clientWidth : false, hiddenTabs, tabLines };
  });
}

const area = { category: "energyGeneration", rank: 40, duration: "instant", attack: { enabled: true, type: "En", range: 3, area: { shape: "burst", radius: 2, explosive: true } } };

const cases = [
  ...(["default", "smallest"] as const).flatMap((size) => [
    { name: `hero sheet at default size (${size}: Biography)`, size, width: size === "default" ? hero.position.width : SMALLEST.hero, html: (width: number) => renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ items: heroItemsAtScale(), activeTab: "biography" }) }, { classes: [...base.classes, ...hero.classes], title: "Kestrel", position: { width, height: hero.position.height } }) },
    { name: `NPC sheet at default size (${size})`, size, width: size === "default" ? npc.position.width : SMALLEST.npc, html: (width: number) => renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData() }, { classes: [...base.classes, ...npc.classes], title: "Dock Thug", position: { width, height: npc.position.height } }) },
    { name: `item sheet at default size (${size}: an area power)`, size, width: size === "default" ? item.position.width : SMALLEST.item, html: (width: number) => renderSheet(SHEET_TEMPLATES.item("power"), { sheet: itemSheetFixture("power", area) }, { classes: item.classes, title: "Plasma Burst", position: { width, height: item.position.height } }) },
  ]),
];

describe("sheet at default size in Chromium", () => {
  it("the hero sheet's default is 860 px, the item sheet's 540 px", () => {
    expect([hero.position.width, item.position.width]).toEqual([860, 540]);
  });

  for (const c of cases) {
    for (const theme of ["light", "dark"] as const) {
      it(`sheet at default size: ${c.name}, ${String(c.width)} px (${theme}): nothing spills, every tab in view`, async () => {
        const page = await open(c.html(c.width), theme);
        const s = await spill(page);
        expect(s.spilled).toEqual([]);
        expect(s.hiddenTabs).toEqual([]);
        expect(s.tabsScroll).toBe(false);
        expect(s.tabLines).toBeLessThanOrEqual(1); // the hero's seven tabs on one line (the other sheets have none)
        const slug = c.name.replace(/[^a-z]+/gi, "-").toLowerCase();
        await picture(page.locator("form.application"), { path: `test/artifacts/default-size-${slug}-${String(c.width)}-${theme}.png` });
        await expectAccessible(page, "form.application", `${c.name} ${String(c.width)} px (${theme})`);
      });
    }
  }
});

describe("effects tab grid in Chromium", () => {
  for (const width of [hero.position.width, SMALLEST.hero]) {
    it(`effects tab grid at ${String(width)} px: icon, body and buttons side by side, each change by its label`, async () => {
      const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ activeTab: "effects", withEffects: true }) }, { classes: [...base.classes, ...hero.classes], title: "Kestrel", position: { width, height: hero.position.height } });
      const page = await open(html, "light");
      const rows = await page.locator("li.case-effect").evaluateAll((els) =>
        els.map((el) => {
          const box = (sel: string) => {
            const e = el.querySelector(sel);
            if (!e) throw new Error(`no ${sel}`);
            return e.getBoundingClientRect();
          };
          const img = box(".case-item-img");
          const body = box(".case-effect-body");
          const controls = box(".case-item-controls");
          const state = box(".case-effect-state");
          return { display: getComputedStyle(el).display, img, body, controls, state, keys: [...el.querySelectorAll(".case-effect-key, .case-effect-problem")].map((k) => k.textContent.trim()) };
        }),
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.display).toBe("grid");
        // The icon, the body and the buttons are side by side on the row's first line.
        expect(r.img.right).toBeLessThanOrEqual(r.body.left + 0.5);
        expect(r.body.right).toBeLessThanOrEqual(r.controls.left + 0.5);
        expect(Math.abs(r.img.top - r.body.top)).toBeLessThan(4);
        expect(r.controls.top).toBeLessThan(r.body.bottom);
        // The state tag sits under the body, beside the icon's column.
        expect(r.state.top).toBeGreaterThanOrEqual(r.body.bottom - 0.5);
        // No raw change key (system.… or flags.…) is shown.
        for (const k of r.keys) expect(k).not.toMatch(/\b(system|flags)\.[a-z]/);
      }
      await picture(page.locator("form.application"), { path: `test/artifacts/effects-tab-grid-${String(width)}.png` });
      await expectAccessible(page, "form.application", `Effects tab grid ${String(width)} px`);
    });
  }
});
