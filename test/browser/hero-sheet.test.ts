/**
 * The hero sheet in Chromium: the real templates (rendered by the harness) with the system's
 * real stylesheets, in Foundry's light and dark themes. Screenshots go to test/artifacts/.
 * Buttons are clicked as a person would (no `force`: Playwright refuses a button that is
 * hidden or covered); the clicks a page script records are fed to the sheet's real action
 * handlers, with the roll entry points mocked.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../../src/foundry/dice/entry-points", () => ({
  rollScore: vi.fn(() => Promise.resolve()),
  rollItem: vi.fn(() => Promise.resolve()),
}));
vi.mock("../../src/foundry/exchange/make-attack", () => ({
  makeAttack: vi.fn(() => Promise.resolve()),
}));

import type { Page } from "playwright-core";
import { rollItem, rollScore } from "../../src/foundry/dice/entry-points";
import { makeAttack } from "../../src/foundry/exchange/make-attack";
import { ABILITY_KEYS, SUB_SCORE_REFS } from "../../src/rules/index";
import { CaseCharacterSheet, HeroSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { chromiumPath, picture, type RecordedClick, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { renderSheet } from "../support/handlebars";
import { SHEET_TEMPLATES, heroItems, heroSheetData } from "../support/sheet-fixtures";
import { fakeActor, fakeItem, fakeTarget, type FakeActor } from "../support/foundry-stubs";

type Handler = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;
const actions = (CaseCharacterSheet.DEFAULT_OPTIONS as { actions: Record<string, Handler> }).actions;

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const CLASSES = [
  ...((CaseCharacterSheet.DEFAULT_OPTIONS as { classes: string[] }).classes),
  ...((HeroSheet.DEFAULT_OPTIONS as { classes: string[] }).classes),
];
const POSITION = (HeroSheet.DEFAULT_OPTIONS as { position: { width: number; height: number } }).position;

function heroHtml(): string {
  return renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData() }, { classes: CLASSES, title: "Kestrel", position: POSITION });
}

/** Kestrel as the handlers see her: her items by id, the attack ones able to attack. */
function kestrel(): FakeActor {
  const actor = fakeActor();
  for (const item of heroItems()) fakeItem(actor, item.id, { type: item.type, isAttack: item.isAttack, name: item.name });
  return actor;
}

/** Runs the sheet's real handler for a click recorded in the page. */
async function dispatch(click: RecordedClick, actor: FakeActor): Promise<void> {
  const handler = actions[click.action];
  if (!handler) throw new Error(`The sheet declares no handler for data-action="${click.action}"`);
  await handler.call({ actor, isEditable: true }, { shiftKey: click.shiftKey } as PointerEvent, fakeTarget(click.dataset, click.row));
}

const browser = sharedBrowser();
let lightPage: Promise<Page> | null = null;

/** The hero sheet in the light theme, opened once for the tests that share it. */
function heroPage(): Promise<Page> {
  lightPage ??= (async () => {
    const { page } = await browser.get();
    await showPage(page, sheetDocument(heroHtml(), "light", STYLESHEETS));
    return page;
  })();
  return lightPage;
}

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

beforeEach(() => {
  vi.mocked(rollScore).mockClear();
  vi.mocked(rollItem).mockClear();
  vi.mocked(makeAttack).mockClear();
});

describe("browser test set-up", () => {
  it("fails with a clear message when Chromium is missing or cannot be unpacked (never skips)", async () => {
    await expect(chromiumPath(() => Promise.resolve("/nonexistent/chromium"))).rejects.toThrow(/Chromium is missing at \/nonexistent\/chromium.*npm ci.*fail, never skip/);
    await expect(chromiumPath(() => Promise.reject(new Error("disk full")))).rejects.toThrow(/could not be unpacked: Error: disk full.*fail, never skip/);
  });
});

describe("hero sheet in Chromium", () => {
  it("loads the system's stylesheets and lays out header, abilities beside the tabs", async () => {
    const page = await heroPage();
    // sheets.css is applied: the window content is a grid with the abilities at the side.
    const display = await page.locator(".window-content").evaluate((el) => getComputedStyle(el).display);
    expect(display).toBe("grid");
    const header = await page.locator(".case-header").boundingBox();
    const abilities = await page.locator(".case-abilities").boundingBox();
    const tabs = await page.locator("nav.case-tabs").boundingBox();
    const powers = await page.locator('section[data-tab="powers"]').boundingBox();
    if (!header || !abilities || !tabs || !powers) throw new Error("A part of the sheet is not laid out.");
    expect(abilities.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
    expect(tabs.x).toBeGreaterThan(abilities.x + abilities.width - 1);
    expect(powers.y).toBeGreaterThanOrEqual(tabs.y + tabs.height - 1);
    // Only the active tab shows.
    await expect(page.locator('section[data-tab="powers"]').isVisible()).resolves.toBe(true);
    for (const tab of ["talents", "gear", "contacts", "biography"]) {
      await expect(page.locator(`section[data-tab="${tab}"]`).isVisible(), tab).resolves.toBe(false);
    }
    // Nothing spills sideways out of the window.
    const overflow = await page.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await picture(page.locator("form.application"), { path: "test/artifacts/hero-sheet.png" });
  });

  it("each ability row keeps its roll button, number and rank name side by side, none covering another", async () => {
    const page = await heroPage();
    const rows = page.locator(".case-ability-main, .case-subscore");
    const count = await rows.count();
    expect(count).toBe(ABILITY_KEYS.length + SUB_SCORE_REFS.length);
    for (let i = 0; i < count; i++) {
      const boxes = await rows.nth(i).evaluate((row) =>
        [...row.children].map((c) => {
          const r = c.getBoundingClientRect();
          return { left: r.left, right: r.right, width: r.width, height: r.height };
        }),
      );
      expect(boxes).toHaveLength(3);
      for (const b of boxes) expect(b.width * b.height).toBeGreaterThan(0);
      for (let j = 1; j < boxes.length; j++) expect(boxes[j]?.left ?? 0).toBeGreaterThanOrEqual((boxes[j - 1]?.right ?? 0) - 0.5);
    }
  });

  it("clicking an ability's roll button rolls that ability for the sheet's actor", async () => {
    const page = await heroPage();
    const actor = kestrel();
    await page.locator('button[data-action="rollScore"][data-score="fighting"]').click();
    const clicks = await recordedClicks(page);
    const click = clicks[clicks.length - 1];
    expect(click).toMatchObject({ action: "rollScore", dataset: { action: "rollScore", score: "fighting" }, shiftKey: false });
    await dispatch(click as RecordedClick, actor);
    expect(rollScore).toHaveBeenCalledTimes(1);
    expect(rollScore).toHaveBeenCalledWith(actor, "fighting", { skipDialog: false });
  });

  it("every ability and sub-score button can be clicked and rolls its own score; shift-click skips the dialog", async () => {
    const page = await heroPage();
    const actor = kestrel();
    const before = (await recordedClicks(page)).length;
    for (const ref of [...ABILITY_KEYS, ...SUB_SCORE_REFS]) {
      await page.locator(`button[data-action="rollScore"][data-score="${ref}"]`).click({ timeout: 5_000 });
    }
    await page.locator('button[data-action="rollScore"][data-score="agility.dex"]').click({ modifiers: ["Shift"] });
    const clicks = (await recordedClicks(page)).slice(before);
    for (const click of clicks) await dispatch(click, actor);
    expect(vi.mocked(rollScore).mock.calls.map(([a, ref, options]) => [(a as unknown) === actor, ref, options?.skipDialog])).toEqual([
      ...[...ABILITY_KEYS, ...SUB_SCORE_REFS].map((ref) => [true, ref, false]),
      [true, "agility.dex", true],
    ]);
  });

  it("the attack and roll buttons of a power work; the power without an attack has none", async () => {
    const page = await heroPage();
    const actor = kestrel();
    const before = (await recordedClicks(page)).length;
    await page.locator('li[data-item-id="bolt"] button[data-action="attack"]').click();
    await page.locator('li[data-item-id="bolt"] button[data-action="rollItem"]').click();
    await expect(page.locator('li[data-item-id="flight"] button[data-action="attack"]').count()).resolves.toBe(0);
    for (const click of (await recordedClicks(page)).slice(before)) await dispatch(click, actor);
    expect(makeAttack).toHaveBeenCalledWith(actor.items.get("bolt"), { skipDialog: false });
    expect(rollItem).toHaveBeenCalledWith(actor.items.get("bolt"), { skipDialog: false });
  });

  it("reads in Foundry's dark theme too", async () => {
    const dark = await (await browser.get()).context.newPage();
    try {
      await showPage(dark, sheetDocument(heroHtml(), "dark", STYLESHEETS));
      const [text, background] = await dark.locator(".case-ability-main .case-rank-name").first().evaluate((el) => {
        const app = el.closest(".application");
        return [getComputedStyle(el).color, app ? getComputedStyle(app).backgroundColor : ""];
      });
      // Light text on the dark window: the rank names follow the theme.
      const lum = (rgb: string) => {
        const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      expect(lum(text) - lum(background)).toBeGreaterThan(100);
      await dark.locator('button[data-action="rollScore"][data-score="psyche"]').click();
      await picture(dark.locator("form.application"), { path: "test/artifacts/hero-sheet-dark.png" });
    } finally {
      await dark.close();
    }
  });

  it("the Karma tab lays out the rest, the advancement table and the log without spilling; its buttons reach the handlers", async () => {
    const page = await (await browser.get()).context.newPage();
    try {
      const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ activeTab: "karma" }) }, { classes: CLASSES, title: "Kestrel", position: POSITION });
      await showPage(page, sheetDocument(html, "light", STYLESHEETS));
      await expect(page.locator('section[data-tab="karma"]').isVisible()).resolves.toBe(true);
      await expect(page.locator(".case-karma-log tbody tr").count()).resolves.toBe(2);
      await expect(page.locator(".case-karma-log tbody tr").first().locator("td").nth(2).innerText()).resolves.toBe("Roll: Fighting");
      const overflow = await page.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Every advance button is visible and clickable (Playwright refuses a covered one).
      await page.locator('button[data-action="advance"][data-ability="psyche"][data-step="rank"]').click();
      await page.locator('button[data-action="rest"]').click();
      await page.locator('button[data-action="rollFeat"][data-feat="popularity"]').click();
      const clicks = await recordedClicks(page);
      expect(clicks.map((c) => [c.action, c.dataset.ability ?? c.dataset.feat ?? ""])).toEqual([
        ["advance", "psyche"],
        ["rest", ""],
        ["rollFeat", "popularity"],
      ]);
      await picture(page.locator("form.application"), { path: "test/artifacts/hero-sheet-karma.png" });
    } finally {
      await page.close();
    }
  });
});
