import "../support/foundry-globals";
import { readFileSync } from "node:fs";
import { it, vi } from "vitest";
vi.mock("../../src/foundry/dice/entry-points", () => ({ rollScore: vi.fn(), rollItem: vi.fn() }));
vi.mock("../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));
import { CaseCharacterSheet, HeroSheet } from "../../src/foundry/apps/actor-sheets";
import { sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { renderSheet } from "../support/handlebars";
import { SHEET_TEMPLATES, heroItemsAtScale, heroSheetData } from "../support/sheet-fixtures";
const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const CLASSES = [...(CaseCharacterSheet.DEFAULT_OPTIONS as { classes: string[] }).classes, ...(HeroSheet.DEFAULT_OPTIONS as { classes: string[] }).classes];
it("scratch", async () => {
  const b = sharedBrowser();
  const { page } = await b.get();
  for (const tab of ["powers", "biography", "gear"]) {
    const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ items: heroItemsAtScale(), activeTab: tab, expanded: ["p03"] }) }, { classes: CLASSES, title: "Kestrel", position: { width: 720, height: 800 } });
    await showPage(page, sheetDocument(html, "light", STYLESHEETS));
    await page.locator("form.application").screenshot({ path: `/tmp/scratch-${tab}.png` });
  }
  await b.close();
}, 60000);
