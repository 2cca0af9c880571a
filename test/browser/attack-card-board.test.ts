/**
 * The attack card linked to the board, in Chromium: four targets on tokens, with long names, in a
 * 300 px chat column, as the Judge sees it mid-fight (one row waiting on a defence, one hit ready
 * for *Apply* / *Apply to selected*, one slammed with the token's move, one applied to other
 * tokens). A person hovers a row and walks the card by keyboard; the rows' pointer and focus
 * events are recorded in the page and fed to the card's real highlight (exchange/board.ts)
 * against the canvas double. Light and dark, axe-core, screenshots under test/artifacts/.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { attackCardContext, type Viewer } from "../../src/foundry/exchange/card-context";
import { hoverToken, unhoverToken } from "../../src/foundry/exchange/board";
import { applyDamage, applyDamageToOthers, createExchange, declineDefence, recordSlamMove, resolveConsequence, rollToHit, type ExchangeState, type TargetInput } from "../../src/rules/index";
import { renderTemplate } from "../support/handlebars";
import { chatColumn, picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { CanvasDouble } from "../support/canvas-double";
import { docRankOf, docRollFor } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const browser = sharedBrowser();
const GM_VIEW: Viewer = { isGM: true, owns: () => true, isNpc: () => false, portrait: () => null };
const SCENE = "scene00000000001";

afterAll(async () => {
  await browser.close();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const NAMES = ["Kestrel of the Thousand Winds and the Seven Storms", "Doctor Gravelbottom-Featherstonehaugh the Unbreakable", "Miss Incomprehensibilities", "The Remarkably Long-Named Henchman Number Fourteen"];
const tokenId = (i: number) => `token00000000${String(i).padStart(3, "0")}`;

function target(i: number): TargetInput {
  return { uuid: `Scene.${SCENE}.Token.${tokenId(i)}`, actorUuid: `Actor.t${String(i)}`, name: NAMES[i] ?? "", scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 20, "endurance.res": 30 }, armor: { body: 0, energy: 0 } };
}

/** Mid-fight: row 0 waits on its defence, row 1 is hit (ready to apply), row 2 slammed one area away, row 3 applied to two bystanders. */
function midFight(): ExchangeState {
  let s = createExchange(exchangeInput({
    source: "Thunderclap Haymaker",
    targets: [0, 1, 2, 3].map(target),
  }));
  const yellow = docRollFor(docRankOf(40).index, "yellow");
  s = rollToHit(declineDefence(s, "1"), "1", { die: 40 });
  s = rollToHit(declineDefence(s, "2"), "2", { die: yellow });
  s = applyDamage(s, "2", { value: 110, max: 110 }).state;
  s = resolveConsequence(s, "2", { check: "slam", die: docRollFor(docRankOf(30).index, "green"), d10: 7 });
  s = recordSlamMove(s, "2", { heading: "away", to: { x: 7, y: 4 }, areas: 1, edge: false });
  s = rollToHit(declineDefence(s, "3"), "3", { die: 40 });
  s = applyDamageToOthers(s, "3", [
    { uuid: "Scene.s.Token.b1", name: "Bystander Bob", value: 60, max: 60 },
    { uuid: "Scene.s.Token.b2", name: "Innocent Ingrid", value: 30, max: 30 },
  ]).state;
  return s;
}

/** Records, in the page, every pointer or focus entry into a token row (what card.ts listens for). */
const ROW_RECORDER = `
window.__rowEvents = [];
for (const row of document.querySelectorAll(".target-row[data-token-uuid]")) {
  for (const type of ["pointerenter", "pointerleave", "focusin", "focusout"]) row.addEventListener(type, () => window.__rowEvents.push([type, row.dataset.tokenUuid]));
}`;

async function show(page: Page, theme: "light" | "dark"): Promise<void> {
  const card = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(midFight(), GM_VIEW, { hideNpcDefences: false, ownersApplyDamage: false }));
  // A new document each time: the hover test reads pointer events from a fresh page.
  await showPage(page, sheetDocument(chatColumn(card), theme, STYLESHEETS), { fresh: true });
  await page.evaluate(ROW_RECORDER);
}

async function rowEvents(page: Page): Promise<[string, string][]> {
  return page.evaluate(() => (window as unknown as { __rowEvents: [string, string][] }).__rowEvents.splice(0));
}

/** Feeds the page's row events to the card's real highlight, as card.ts's listeners do. */
function replay(events: readonly [string, string][]): void {
  for (const [type, uuid] of events) {
    const event = new Event(type);
    if (type === "pointerenter" || type === "focusin") hoverToken(uuid, event);
    else unhoverToken(event);
  }
}

describe("the attack card on the board, in Chromium", () => {
  it("range from tokens, apply to selected, slam moves, defence waiting: four token rows in 300 px, hover and keyboard highlight each token, light and dark pass axe", { timeout: 60_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const board = new CanvasDouble({ sceneId: SCENE });
    for (const i of [0, 1, 2, 3]) board.add({ id: tokenId(i), x: 2 + 2 * i, y: 4 });
    board.install();
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 1100 });

    for (const theme of ["light", "dark"] as const) {
      await show(page, theme);
      const sideways = await page.evaluate(() => {
        const log = document.querySelector("#chat-log");
        return log ? log.scrollWidth - log.clientWidth : -1;
      });
      expect(sideways).toBe(0);
      await expect(page.locator(".target-row[data-token-uuid]").count()).resolves.toBe(4);
      await expect(page.locator('[data-action="caseApplyToSelected"]').count()).resolves.toBe(1);
      await expect(page.locator(".slam-moved").innerText()).resolves.toBe("Token moved 1 area away from the attacker.");
      await expect(page.locator(".applied-to").textContent()).resolves.toBe("Applied instead to: Bystander Bob 60 → 20 / 60, Innocent Ingrid 30 → 0 / 30");
      await picture(page, { path: `test/artifacts/attack-card-board-${theme}.png`, fullPage: true });
      await expectAccessible(page, ".attack-card", `attack card on the board, ${theme}`);
    }

    // Hover: the pointer over row 1 highlights its token, then row 0's (row 1's hovered out), then leaves.
    await rowEvents(page);
    await page.locator(".target-row").nth(1).hover();
    await page.locator(".target-row").nth(0).hover();
    await page.mouse.move(350, 1090);
    const hovered = await rowEvents(page);
    expect(hovered.map(([type]) => type)).toEqual(["pointerenter", "pointerleave", "pointerenter", "pointerleave"]);
    replay(hovered.slice(0, 3));
    expect(board.log).toEqual([`hoverIn:${tokenId(1)}`, `hoverOut:${tokenId(1)}`, `hoverIn:${tokenId(0)}`]);
    replay(hovered.slice(3));
    expect(board.all().filter((t) => t.hover)).toEqual([]);

    // Keyboard: Tab from the card's first control walks into each token row in turn; focus highlights, leaving ends it.
    board.log.length = 0;
    await page.locator(".attack-card button").first().focus();
    await rowEvents(page);
    const visited = new Set<string>();
    for (let i = 0; i < 30 && visited.size < 4; i++) {
      await page.keyboard.press("Tab");
      for (const [type, uuid] of await rowEvents(page)) {
        replay([[type, uuid]]);
        if (type === "focusin") visited.add(uuid);
      }
    }
    expect([...visited].sort()).toEqual([0, 1, 2, 3].map((i) => board.uuid(tokenId(i))).sort());
    expect(board.log.filter((l) => l.startsWith("hoverIn")).map((l) => l.slice(8))).toEqual(expect.arrayContaining([tokenId(1), tokenId(2), tokenId(3)]));
    // A visible focus ring on the focused control.
    const outline = await page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).outlineStyle : "none"));
    expect(outline).not.toBe("none");
  });
});
