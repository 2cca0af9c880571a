/**
 * The Judge's request card in a 300 px chat column, as a player and as the GM sees it, light
 * and dark: four characters with long names, two rolled and two waiting. Nothing sticks out
 * sideways, the Roll button is reachable by keyboard, axe finds nothing serious. Screenshots
 * go to test/artifacts/. (The Judge's dialog is checked with the other dialogs, accessibility.test.ts.)
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createRollRequest, recordRequestResult, type RollRequest } from "../../src/rules/index";
import { requestCardContext, type RequestViewer } from "../../src/foundry/roll-requests/request-card-context";
import { renderTemplate } from "../support/handlebars";
import { chatColumn, picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const browser = sharedBrowser();

afterAll(async () => {
  await browser.close();
});

const NAMES = ["Kestrel of the Thousand Winds and the Seven Storms", "Doctor Gravelbottom-Featherstonehaugh the Unbreakable", "Miss Incomprehensibilities", "Wren"];

function request(): RollRequest {
  let r = createRollRequest("endurance", 40, "Hold your breath in the flooded vault", NAMES.map((name, i) => ({ actorUuid: `Actor.a${String(i)}`, name })));
  r = recordRequestResult(r, "0", { die: 20, value: 100, shift: -2, karma: 10, color: "green", success: true });
  r = recordRequestResult(r, "1", { die: 99, value: 30, shift: 0, karma: 0, color: "red", success: true });
  return r;
}

const PLAYER: RequestViewer = { isGM: false, owns: (uuid) => uuid === "Actor.a2", portrait: () => null };
const GM: RequestViewer = { isGM: true, owns: () => true, portrait: () => null };

async function show(page: Page, viewer: RequestViewer, theme: "light" | "dark"): Promise<void> {
  const card = renderTemplate("templates/chat/roll-request.hbs", requestCardContext(request(), viewer));
  await showPage(page, sheetDocument(chatColumn(card), theme, STYLESHEETS));
}

describe("request card in the chat", () => {
  it("request card: four characters in 300 px, the player's Roll button on their row, light and dark, accessible", { timeout: 60_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 700 });
    for (const theme of ["light", "dark"] as const) {
      await show(page, PLAYER, theme);
      const sideways = await page.evaluate(() => {
        const log = document.querySelector("#chat-log");
        let most = log ? log.scrollWidth - log.clientWidth : 0;
        for (const row of document.querySelectorAll(".request-row")) most = Math.max(most, row.scrollWidth - row.clientWidth);
        return most;
      });
      expect(sideways).toBe(0);
      expect(await page.locator("button.request-roll").count()).toBe(1);
      await picture(page, { path: `test/artifacts/roll-request-player-${theme}.png`, fullPage: true });
      await expectAccessible(page, ".roll-request-card", `request card, player, ${theme}`);
      // A long name is cut with an ellipsis and kept whole in its title.
      await expect(page.locator(".request-name").first().getAttribute("title")).resolves.toBe(NAMES[0]);
    }
    // Keyboard: Tab reaches the Roll button.
    await page.locator("body").focus();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement?.classList.contains("request-roll") === true);
    }
    expect(reached).toBe(true);
    await show(page, GM, "light");
    expect(await page.locator("button.request-roll").count()).toBe(2);
    await picture(page, { path: "test/artifacts/roll-request-gm.png", fullPage: true });
  });
});
