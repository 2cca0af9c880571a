/**
 * The attack card at table scale: four targets with long names in a 300 px chat column. Finished
 * rows fold to their outcome (collapse); nothing scrolls sideways; the folded card is measured
 * against the same card with every row open. Screenshots go to test/artifacts/.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { attackCardContext, type Viewer } from "../../src/foundry/exchange/card-context";
import { applyDamage, chooseDefence, createExchange, declineDefence, resolveConsequence, rollToHit, type ExchangeState } from "../../src/rules/index";
import { renderTemplate } from "../support/handlebars";
import { chatColumn, picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { exchangeInput, longNamedTargets } from "../support/exchange-input";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const browser = sharedBrowser();
const GM_VIEW: Viewer = { isGM: true, owns: () => true, isNpc: () => false };

afterAll(async () => {
  await browser.close();
});


function declared(): ExchangeState {
  return createExchange(exchangeInput({
    source: "Thunderclap Haymaker",
    targets: longNamedTargets(),
  }));
}

/** Every row finished: a miss, an avoided attack, a hit applied with its Stun? rolled, a hit applied with nothing due. */
function finished(): ExchangeState {
  let s = declared();
  s = rollToHit(declineDefence(s, "0"), "0", { die: 2 });
  s = chooseDefence(s, "1", { defence: "evasion", die: 97, cs: [] });
  s = rollToHit(declineDefence(s, "2"), "2", { die: 95 });
  s = applyDamage(s, "2", { value: 110, max: 110 }).state;
  s = resolveConsequence(s, "2", { check: "stun", die: 40, d10: 3, hasActed: false });
  s = rollToHit(declineDefence(s, "3"), "3", { die: 40 });
  s = applyDamage(s, "3", { value: 110, max: 110 }).state;
  return s;
}

async function show(page: Page, state: ExchangeState, theme: "light" | "dark" = "light"): Promise<void> {
  const card = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, GM_VIEW, { hideNpcDefences: false, ownersApplyDamage: false }));
  await showPage(page, sheetDocument(chatColumn(card), theme, STYLESHEETS));
}

async function measure(page: Page): Promise<{ height: number; sideways: number }> {
  return page.evaluate(() => {
    const log = document.querySelector("#chat-log");
    const card = document.querySelector(".attack-card");
    if (!log || !card) throw new Error("No card.");
    // Sideways: how far anything in the column sticks out past its width.
    let sideways = log.scrollWidth - log.clientWidth;
    for (const row of document.querySelectorAll(".target-row")) sideways = Math.max(sideways, row.scrollWidth - row.clientWidth);
    return { height: Math.round(card.getBoundingClientRect().height), sideways };
  });
}

describe("the attack card at table scale", () => {
  it("collapse: four finished targets with long names fold to their outcomes, fit 300 px without scrolling sideways, and open again", { timeout: 60_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 900 });

    await show(page, declared());
    const waiting = await measure(page);
    await picture(page, { path: "test/artifacts/attack-card-4-declared.png", fullPage: true });
    expect(waiting.sideways).toBe(0);

    await show(page, finished());
    expect(await page.locator("details.row-details").count()).toBe(4);
    const folded = await measure(page);
    expect(folded.sideways).toBe(0);
    await picture(page, { path: "test/artifacts/attack-card-4-collapsed.png", fullPage: true });
    await expectAccessible(page, ".attack-card", "attack card, four finished rows");

    // A click on a row's line opens it (native <details>): its rolls show.
    await expect(page.locator(".target-row").nth(2).locator(".tohit-line").isVisible()).resolves.toBe(false);
    await page.locator(".row-summary").nth(2).click();
    await expect(page.locator(".target-row").nth(2).locator(".tohit-line").isVisible()).resolves.toBe(true);
    // Every row open: the card as it was before rows folded.
    await page.evaluate(() => {
      for (const d of document.querySelectorAll("details.row-details")) d.setAttribute("open", "");
    });
    const open = await measure(page);
    expect(open.sideways).toBe(0);
    await picture(page, { path: "test/artifacts/attack-card-4-expanded.png", fullPage: true });
    // Folding saves real height: the folded card is well under the open one.
    expect(folded.height).toBeLessThan(open.height * 0.75);
    console.info(`attack card, 4 targets in 300 px: declared ${String(waiting.height)} px; finished folded ${String(folded.height)} px, open ${String(open.height)} px`);

    await show(page, finished(), "dark");
    await expectAccessible(page, ".attack-card", "attack card, four finished rows, dark");
    // Keyboard: a row's line is reachable and opens with Enter.
    await page.locator(".row-summary").first().focus();
    await page.keyboard.press("Enter");
    await expect(page.locator("details.row-details").first().getAttribute("open")).resolves.not.toBeNull();
  });
});
