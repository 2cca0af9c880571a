/**
 * Issue 24, "The GM's card fits": a four-target card as the GM reads it in a 300 px chat
 * column, with long names and an extra defence's shift on every row, waiting on defences and
 * resolved (three hits to apply, pulls open to the attacker). At most 520 px tall in both
 * themes, nothing sideways, axe clean, every action two clicks away at most (the rows' menus
 * and folded waiting rows are native <details>). Screenshots go to test/artifacts/.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { attackCardContext, type ExchangeSettings, type Viewer } from "../../src/foundry/exchange/card-context";
import { createExchange, declineDefence, rollToHit, type ExchangeState } from "../../src/rules/index";
import { renderTemplate } from "../support/handlebars";
import { chatColumn, picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { exchangeInput, longNamedTargets } from "../support/exchange-input";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const browser = sharedBrowser();
const GM_VIEW: Viewer = { isGM: true, owns: () => true, isNpc: () => false, portrait: () => "tokens/portrait.webp" };
/** The GM's shifts on every defence: the row's defender already used its free defences. */
const SETTINGS: ExchangeSettings = {
  hideNpcDefences: false,
  ownersApplyDamage: false,
  defenceCs: () => [{ cs: -2, label: "CASE.Exchange.ExtraDefence", localize: true }],
};
/** The goal: a four-target card at most this tall for the GM in a 300 px column. */
const MAX_HEIGHT = 520;

afterAll(async () => {
  await browser.close();
});


/** Gravel's Blunt Attack on four heroes: every row waits on its defence (Block, Evasion, Weave, No defence). */
function waiting(): ExchangeState {
  return createExchange(exchangeInput({ source: "Thunderclap Haymaker", targets: longNamedTargets() }));
}

/** Every row resolved: three red hits (Stun, 40 damage each, pulls open) and a miss. */
function resolved(): ExchangeState {
  let s = waiting();
  for (const key of ["0", "1", "2"]) s = rollToHit(declineDefence(s, key), key, { die: 99 });
  return rollToHit(declineDefence(s, "3"), "3", { die: 2 });
}

async function show(page: Page, state: ExchangeState, theme: "light" | "dark"): Promise<void> {
  const card = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, GM_VIEW, SETTINGS));
  await showPage(page, sheetDocument(chatColumn(card), theme, STYLESHEETS));
}

async function measure(page: Page): Promise<{ height: number; sideways: number; buttons: number }> {
  return page.evaluate(() => {
    const log = document.querySelector("#chat-log");
    const card = document.querySelector(".attack-card");
    if (!log || !card) throw new Error("No card.");
    let sideways = log.scrollWidth - log.clientWidth;
    for (const row of document.querySelectorAll(".target-row")) sideways = Math.max(sideways, row.scrollWidth - row.clientWidth);
    const buttons = [...card.querySelectorAll("button, summary")].filter((b) => b.checkVisibility()).length;
    return { height: Math.round(card.getBoundingClientRect().height), sideways, buttons };
  });
}

describe("issue 24: the GM's four-target card", () => {
  it("gm card fits: waiting and resolved, four long-named targets fit 520 px in a 300 px column, both themes, axe clean", { timeout: 90_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 1200 });
    const figures: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      for (const [name, state] of [["waiting", waiting()], ["resolved", resolved()]] as const) {
        await show(page, state, theme);
        const m = await measure(page);
        figures.push(`${theme} ${name}: ${String(m.height)} px, ${String(m.buttons)} controls shown`);
        await picture(page, { path: `test/artifacts/gm-card-4-${name}-${theme}.png`, fullPage: true });
        expect(m.sideways, `${theme} ${name}: nothing sticks out sideways`).toBe(0);
        expect(m.height, `${theme} ${name}: the card's height`).toBeLessThanOrEqual(MAX_HEIGHT);
        await expectAccessible(page, ".attack-card", `GM card, four rows ${name}, ${theme}`);
      }
    }
    console.info(`gm card fits, 4 targets in 300 px: ${figures.join("; ")}`);

    // Every action two clicks away at most: a waiting row opens to its defences (click 1, then the defence);
    // a resolved row's menu opens to its pulls and Apply to selected (click 1, then the action). Keyboard too.
    await show(page, waiting(), "light");
    const first = page.locator(".target-row").first();
    await expect(first.locator('[data-action="caseDefend"]').first().isVisible()).resolves.toBe(false);
    await first.locator("summary.row-summary").click();
    await expect(first.locator('[data-action="caseDefend"][data-defence="evasion"]').isVisible()).resolves.toBe(true);
    await picture(page, { path: "test/artifacts/gm-card-4-waiting-open.png", fullPage: true });
    await show(page, resolved(), "light");
    const row = page.locator(".target-row").first();
    await expect(row.locator('[data-action="casePull"]').first().isVisible()).resolves.toBe(false);
    await row.locator(".row-menu > summary").focus();
    await page.keyboard.press("Enter");
    for (const action of ["casePull", "casePullDamage", "caseApplyToSelected"]) await expect(row.locator(`[data-action="${action}"]`).first().isVisible(), action).resolves.toBe(true);
    await expect(row.locator('[data-action="caseApplyDamage"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('.card-header [data-action="caseApplyAll"]').isVisible()).resolves.toBe(true);
    await picture(page, { path: "test/artifacts/gm-card-4-menu-open.png", fullPage: true });
    await expectAccessible(page, ".attack-card", "GM card, a row's menu open");
  });
});
