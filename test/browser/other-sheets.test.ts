/**
 * The NPC sheet, the hero sheet's other tabs and the item sheets in Chromium, with the
 * system's real stylesheets: laid out without overlap, buttons reachable, screenshots in
 * test/artifacts/ for a person to look at.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../../src/foundry/dice/entry-points", () => ({
  rollScore: vi.fn(() => Promise.resolve()),
  rollItem: vi.fn(() => Promise.resolve()),
}));
vi.mock("../../src/foundry/exchange/make-attack", () => ({
  makeAttack: vi.fn(() => Promise.resolve()),
}));

import type { Page } from "playwright-core";
import { makeAttack } from "../../src/foundry/exchange/make-attack";
import { CaseCharacterSheet, HeroSheet, NpcSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { CaseItemSheet } from "../../src/foundry/apps/sheet/item-sheet";
import { picture, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { renderSheet } from "../support/handlebars";
import { SHEET_TEMPLATES, heroSheetData, itemSheetFixture, npcSheetData } from "../support/sheet-fixtures";
import { fakeActor, fakeItem, fakeTarget } from "../support/foundry-stubs";

type Options = { classes: string[]; position: { width: number; height: number } };
type Handler = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const base = CaseCharacterSheet.DEFAULT_OPTIONS as Options;
const heroOptions = HeroSheet.DEFAULT_OPTIONS as Options;
const npcOptions = NpcSheet.DEFAULT_OPTIONS as Options;
const itemOptions = CaseItemSheet.DEFAULT_OPTIONS as Options;

const browser = sharedBrowser();

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

async function open(html: string, theme: "light" | "dark" = "light"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await showPage(page, sheetDocument(html, theme, STYLESHEETS));
  return page;
}

/** No two of these elements overlap (by their boxes). */
async function expectNoOverlap(page: Page, selector: string): Promise<void> {
  const boxes = await page.locator(selector).evaluateAll((els) =>
    els.filter((e) => e.getClientRects().length > 0).map((e) => {
      const r = e.getBoundingClientRect();
      return { l: r.left, r: r.right, t: r.top, b: r.bottom, name: (e as HTMLElement).dataset.score ?? e.textContent.trim() };
    }),
  );
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (!a || !b) continue;
      const overlap = a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
      expect(overlap, `${a.name} overlaps ${b.name}`).toBe(false);
    }
  }
}

describe("NPC sheet in Chromium", () => {
  it("one compact page: abilities in a row, the attack button works, nothing overlaps", async () => {
    const html = renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData() }, { classes: [...base.classes, ...npcOptions.classes], title: "Dock Thug", position: npcOptions.position });
    const page = await open(html);
    try {
      const abilities = await page.locator(".case-npc-ability").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
      expect(new Set(abilities).size).toBe(1); // all seven on one row
      await expectNoOverlap(page, ".case-npc-abilities button, .case-npc-abilities input");
      const overflow = await page.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.locator('.case-npc-attacks button[data-action="attack"][data-item-id="club"]').click();
      const [click] = await recordedClicks(page);
      const actor = fakeActor("thug", "Dock Thug");
      const club = fakeItem(actor, "club", { type: "weapon", isAttack: true });
      if (!click) throw new Error("The click was not recorded.");
      const handler = (base as unknown as { actions: Record<string, Handler> }).actions[click.action];
      await handler?.call({ actor, isEditable: true }, { shiftKey: false } as PointerEvent, fakeTarget(click.dataset, click.row));
      expect(makeAttack).toHaveBeenCalledWith(club, { skipDialog: false });
      await picture(page.locator("form.application"), { path: "test/artifacts/npc-sheet.png" });
    } finally {
      await page.close();
    }
  });
});

describe("hero sheet tabs in Chromium", () => {
  for (const tab of ["talents", "gear", "contacts", "biography"]) {
    it(`the ${tab} tab shows alone when active`, async () => {
      const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ activeTab: tab }) }, { classes: [...base.classes, ...heroOptions.classes], title: "Kestrel", position: heroOptions.position });
      const page = await open(html, tab === "gear" ? "dark" : "light");
      try {
        const visible = await page.locator("section.tab").evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).map((e) => (e as HTMLElement).dataset.tab));
        expect(visible).toEqual([tab]);
        await expectNoOverlap(page, `section[data-tab="${tab}"] .case-item-controls button`);
        await picture(page.locator("form.application"), { path: `test/artifacts/hero-sheet-${tab}.png` });
      } finally {
        await page.close();
      }
    });
  }
});

describe("item sheets in Chromium", () => {
  const sources: Record<string, Record<string, unknown>> = {
    power: { category: "energyGeneration", rank: 40, duration: "instant", attack: { enabled: true, type: "En", range: 3 } },
    talent: { covers: ["agility.dex", "Sh", "dodge"], doubled: false },
    weapon: { damage: { mode: "strength", rank: 10 }, ammunition: { tracked: true, value: 4, max: 6 } },
  };
  for (const [type, source] of Object.entries(sources)) {
    it(`the ${type} sheet lays out its fields`, async () => {
      const html = renderSheet(SHEET_TEMPLATES.item(type), { sheet: itemSheetFixture(type, source) }, { classes: itemOptions.classes, title: type, position: itemOptions.position });
      const page = await open(html, type === "talent" ? "dark" : "light");
      try {
        await expectNoOverlap(page, ".case-item-fields .form-group > label, .case-item-fields select, .case-item-fields input");
        await picture(page.locator("form.application"), { path: `test/artifacts/item-sheet-${type}.png` });
      } finally {
        await page.close();
      }
    });
  }
});
