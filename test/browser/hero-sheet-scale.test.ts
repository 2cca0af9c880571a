/**
 * The hero sheet at 15 powers in Chromium, in a 720 px window, light and dark: the real
 * templates and stylesheets, and the item lists' own DOM code (src/foundry/apps/sheet/item-lists.ts,
 * bundled by vite) doing in the page what the sheet does in Foundry: fold a section, open a
 * row's summary, filter. Clicks on other actions are recorded and fed to the real handlers.
 * Screenshots go to test/artifacts/.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../../src/foundry/dice/entry-points", () => ({ rollScore: vi.fn(), rollItem: vi.fn() }));
vi.mock("../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));

import type { Page } from "playwright-core";
import { CaseCharacterSheet, HeroSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { pageBundle, picture, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible, tabThrough } from "../support/accessibility";
import { renderSheet } from "../support/handlebars";
import { FIFTEEN_POWER_NAMES, SHEET_TEMPLATES, heroItemsAtScale, heroSheetData } from "../support/sheet-fixtures";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const CLASSES = [...(CaseCharacterSheet.DEFAULT_OPTIONS as { classes: string[] }).classes, ...(HeroSheet.DEFAULT_OPTIONS as { classes: string[] }).classes];
/** The narrow window the issue names; the sheet's default height. */
const WINDOW = { width: 720, height: 800 };

/** src/foundry/apps/sheet/item-lists.ts bundled for the page, as `CaseLists`. */
function listsBundle(): Promise<string> {
  return pageBundle("src/foundry/apps/sheet/item-lists.ts", "CaseLists");
}

/** What the sheet's handlers do to the DOM for these two actions, with the module's own functions; the filter boxes bound as in _onRender. */
const WIRE = `
document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
  if (!target) return;
  if (target.dataset.action === "toggleSection") {
    const section = target.closest(".case-item-section");
    CaseLists.setSectionFolded(section, !section.classList.contains("collapsed"));
  }
  if (target.dataset.action === "toggleSummary") {
    const row = target.closest("li[data-item-id]");
    CaseLists.setSummaryOpen(row, !row.classList.contains("expanded"));
  }
});
CaseLists.bindFilters(document.body, new Map());
`;

let bundle: Promise<string> | null = null;

function sheetHtml(options: Parameters<typeof heroSheetData>[0] = {}): string {
  return renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ items: heroItemsAtScale(), ...options }) }, { classes: CLASSES, title: "Kestrel", position: WINDOW });
}

const browser = sharedBrowser();

/** The file's one page, each view set in place (showPage); the bundle stays loaded, the handlers are wired again for each view. */
let shared: Page | null = null;

async function open(theme: "light" | "dark", options: Parameters<typeof heroSheetData>[0] = {}): Promise<Page> {
  shared ??= await (await browser.get()).context.newPage();
  const page = shared;
  await showPage(page, sheetDocument(sheetHtml(options), theme, STYLESHEETS));
  bundle ??= listsBundle();
  if (!(await page.evaluate(() => "CaseLists" in window))) await page.addScriptTag({ content: await bundle });
  await page.addScriptTag({ content: WIRE });
  return page;
}

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

/** Boxes of the power rows and what overflows where. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => el.getBoundingClientRect();
    const rows = [...document.querySelectorAll('section[data-tab="powers"] li.case-item')];
    const tab = document.querySelector('section[data-tab="powers"]');
    if (!tab) throw new Error("no powers tab");
    const tabBox = box(tab);
    // Every element that clips its own text: it must say so (an ellipsis) and carry the whole text in a tooltip.
    const clipped = [...document.querySelectorAll<HTMLElement>(".window-content *")]
      .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      .map((el) => ({
        cls: el.className,
        ellipsis: getComputedStyle(el).textOverflow === "ellipsis",
        tooltip: el.dataset.tooltip ?? el.closest("[data-tooltip]")?.getAttribute("data-tooltip") ?? null,
        text: el.textContent.trim(),
      }));
    const nav = document.querySelector("nav.case-tabs");
    if (!nav) throw new Error("no tab strip");
    const navBox = box(nav);
    const tabs = [...nav.querySelectorAll("button")].map((b) => {
      const r = box(b);
      return { name: b.textContent.trim(), top: r.top, left: r.left, right: r.right };
    });
    const content = document.querySelector(".window-content");
    return {
      rowHeights: rows.map((r) => box(r.querySelector(".case-item-row") ?? r).height),
      rowsFullyVisible: rows.filter((r) => box(r).top >= tabBox.top - 0.5 && box(r).bottom <= tabBox.bottom + 0.5).length,
      clipped,
      nav: { left: navBox.left, right: navBox.right, scrolls: nav.scrollWidth > nav.clientWidth },
      tabs,
      contentOverflow: content ? content.scrollWidth - content.clientWidth : 99,
    };
  });
}

describe("sheet at 15 powers in Chromium, 720 px", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`sheet at 15 powers (${theme}): rows of one fixed height, tags on one line, long names ellipsised with a tooltip, every tab fits`, async () => {
      const page = await open(theme);
      const l = await layout(page);
      expect(l.rowHeights).toHaveLength(15);
      expect(Math.max(...l.rowHeights) - Math.min(...l.rowHeights)).toBeLessThan(0.5);
      // Rows are compact: 10 or more where the issue counted 7 fit in the tab at the sheet's default height.
      expect(l.rowsFullyVisible).toBeGreaterThanOrEqual(10);
      // The facts of a row are one line: its facts box is one line high.
      const factHeights = await page.locator('section[data-tab="powers"] .case-item-facts').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
      for (const h of factHeights) expect(h).toBeLessThan(22);
      // Nothing is cut silently: whatever clips its text ends in an ellipsis, and a clipped item name has its full name as a tooltip.
      for (const c of l.clipped) expect(c.ellipsis, `${c.cls}: ${c.text}`).toBe(true);
      const names = l.clipped.filter((c) => c.cls.includes("case-item-name"));
      expect(names.length).toBeGreaterThan(0);
      for (const n of names) expect(n.tooltip).toBe(n.text);
      expect(names.map((n) => n.text).every((t) => (FIFTEEN_POWER_NAMES as readonly string[]).includes(t))).toBe(true);
      // The tab strip: one line, every tab inside the strip (no scrolling needed at 720 px).
      expect(new Set(l.tabs.map((t) => Math.round(t.top))).size).toBe(1);
      for (const t of l.tabs) expect([t.name, t.left >= l.nav.left - 0.5 && t.right <= l.nav.right + 0.5]).toEqual([t.name, true]);
      expect(l.nav.scrolls).toBe(false);
      expect(l.contentOverflow).toBeLessThanOrEqual(0);
      await picture(page.locator("form.application"), { path: `test/artifacts/hero-sheet-15-powers-${theme}.png` });
      await expectAccessible(page, "form.application", `hero sheet at 15 powers (${theme})`);
    });
  }

  it("sheet at 15 powers: the Biography tab is not clipped at 720 px", async () => {
    const page = await open("light", { activeTab: "biography" });
    const boxes = await page.evaluate(() => {
      const win = document.querySelector(".window-content")?.getBoundingClientRect();
      const bio = document.querySelector('section[data-tab="biography"]');
      const tab = document.querySelector('nav.case-tabs button[data-tab="biography"]')?.getBoundingClientRect();
      if (!win || !bio || !tab) throw new Error("missing");
      const b = bio.getBoundingClientRect();
      return { win: win.toJSON() as DOMRect, bio: b.toJSON() as DOMRect, tab: tab.toJSON() as DOMRect, overflowX: bio.scrollWidth - bio.clientWidth };
    });
    expect(boxes.tab.right).toBeLessThanOrEqual(boxes.win.right + 0.5);
    expect(boxes.bio.right).toBeLessThanOrEqual(boxes.win.right + 0.5);
    expect(boxes.bio.width).toBeGreaterThan(300);
    expect(boxes.overflowX).toBeLessThanOrEqual(0);
    await expect(page.locator('section[data-tab="biography"] prose-mirror').first().isVisible()).resolves.toBe(true);
    await picture(page.locator("form.application"), { path: "test/artifacts/hero-sheet-15-powers-biography.png" });
  });

  it("collapse: clicking a section heading folds it (list and filter hidden) and again unfolds it", async () => {
    const page = await open("light");
    const toggle = page.locator('section[data-item-type="power"] button[data-action="toggleSection"]');
    await toggle.click();
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(page.locator('section[data-item-type="power"] ol.case-item-list').isVisible()).resolves.toBe(false);
    await expect(page.locator('section[data-item-type="power"] input.case-item-filter').isVisible()).resolves.toBe(false);
    await toggle.click();
    await expect(page.locator('section[data-item-type="power"] ol.case-item-list').isVisible()).resolves.toBe(true);
    const clicks = await recordedClicks(page);
    expect(clicks.map((c) => [c.action, c.dataset.section])).toEqual([
      ["toggleSection", "power"],
      ["toggleSection", "power"],
    ]);
  });

  it("the filter box shows only the matching rows as the user types, and says when nothing matches", async () => {
    const page = await open("light");
    const filter = page.locator('input.case-item-filter[data-filter="power"]');
    await filter.fill("gull");
    await expect(page.locator('section[data-item-type="power"] li.case-item:visible .case-item-name').allTextContents()).resolves.toEqual(["Telepathic Link to Every Gull on the Docks"]);
    await filter.fill("zzz");
    await expect(page.locator('section[data-item-type="power"] li.case-item:visible').count()).resolves.toBe(0);
    await expect(page.locator('section[data-item-type="power"] .case-filter-empty').isVisible()).resolves.toBe(true);
    await filter.fill("");
    await expect(page.locator('section[data-item-type="power"] li.case-item:visible').count()).resolves.toBe(15);
  });

  it("keyboard: Tab reaches a row's details button, Enter opens the summary (description, post, edit, duplicate, delete), Space flips the equip switch", async () => {
    const page = await open("dark");
    const details = page.locator('li[data-item-id="p03"] button[data-action="toggleSummary"]');
    // Tab to it as a keyboard user would, from the row's name area onward.
    await page.locator('li[data-item-id="p03"] button[data-action="toggleItem"]').focus();
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await details.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await expect(details.getAttribute("aria-expanded")).resolves.toBe("true");
    const summary = page.locator('li[data-item-id="p03"] .case-item-summary');
    await expect(summary.isVisible()).resolves.toBe(true);
    await expect(summary.locator(".case-summary-description").innerText()).resolves.toContain("Kinetic Absorption Field");
    await picture(page.locator("form.application"), { path: "test/artifacts/hero-sheet-15-powers-summary-dark.png" });
    // The summary's actions are the next stops.
    const stops: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      stops.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action ?? ""));
    }
    expect(stops).toEqual(["postItem", "editItem", "duplicateItem", "deleteItem"]);
    await page.keyboard.press("Enter");
    // The equip switch of the hook, by keyboard on the Gear tab's list (the tab is rendered open here).
    await page.locator('li[data-item-id="p04"] button[data-action="toggleItem"]').focus();
    await page.keyboard.press("Space");
    const clicks = await recordedClicks(page);
    expect(clicks.map((c) => [c.action, c.dataset.itemId ?? ""])).toEqual([
      ["toggleSummary", "p03"],
      ["deleteItem", "p03"],
      ["toggleItem", "p04"],
    ]);
    expect(clicks[2]?.dataset.field).toBe("system.protection.active");
    // Every stop in the sheet is visibly focused.
    const walk = await tabThrough(page, "form.application", 300);
    expect(walk.filter((s) => !s.marked).map((s) => s.name)).toEqual([]);
    await expectAccessible(page, "form.application", "hero sheet with an open summary (dark)");
  });
});
