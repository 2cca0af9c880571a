/**
 * An attack card in Chromium, as a defender and a Judge use it: the real template with the
 * system's real stylesheets in a chat-log-wide column. A person clicks "Dodge"; the click is
 * recorded in the page and run through the card's real action (which asks the GM), the GM's
 * real handler rolls the defence and the to-hit and applies them,
 * and the card re-rendered from the stored exchange shows the next stage. Then the Judge
 * applies the damage the same way. Screenshots go to test/artifacts/.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FakeActor} from "../support/exchange-world";
import { ALICE, FakeMessage, GM, installWorld, type World, kestrelAndGravel } from "../support/exchange-world";
import type * as GmModule from "../../src/foundry/requests/gm";

let world: World;
let asUser = ALICE.id;

vi.mock("../../src/foundry/requests/gm", async (importOriginal) => {
  const original = await importOriginal<typeof GmModule>();
  return {
    ...original,
    // The clicking client's request goes to the GM's real handler in the test world.
    requestGM: async (query: Parameters<typeof original.requestGM>[0], payload: unknown) => {
      const result = await world.ask(query, asUser, payload);
      if (!result.ok) throw new Error(`refused: ${result.reason} ${result.message}`);
      return result.value;
    },
  };
});

import type { Page } from "playwright-core";
import { CARD_ACTIONS } from "../../src/foundry/exchange/card";
import { attackCardContext, type Viewer } from "../../src/foundry/exchange/card-context";
import { readExchange } from "../../src/foundry/exchange/card-model";
import { renderTemplate } from "../support/handlebars";
import { picture, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { createExchange } from "../support/exchange-fixtures";
import { fakeClick, fakeTarget } from "../support/foundry-stubs";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const MESSAGE_ID = "msg0000000000001";
const browser = sharedBrowser();

let hero: FakeActor;
let villain: FakeActor;
let message: FakeMessage;

function viewerOf(userId: string): Viewer {
  const isGM = userId === GM.id;
  return { isGM, owns: (uuid) => !isGM && uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
}

/** The chat message as Foundry frames it, with the card rendered for `userId`. */
function cardHtml(userId: string, theme: "light" | "dark"): string {
  const view = attackCardContext(readExchange(message.system.exchange), viewerOf(userId), { hideNpcDefences: false, ownersApplyDamage: false });
  const card = renderTemplate("templates/chat/attack-card.hbs", view);
  // A stand-in for Foundry's chat log (its CSS is not available here): a sidebar-wide column
  // and a message box in the theme's colours. What is under test is the card inside it.
  const chatCss = `<style>
    .chat-stand-in { width: 300px; list-style: none; margin: 0; padding: 0; }
    .chat-stand-in .chat-message { padding: 6px; border-radius: 5px; }
    .theme-light .chat-stand-in .chat-message { background: #f3efe6; color: #1d1c1a; }
    .theme-dark .chat-stand-in .chat-message { background: #2a2c34; color: #e9e6dd; }
  </style>`;
  const frame = `${chatCss}<ol id="chat-log" class="chat-stand-in"><li class="chat-message message"><div class="message-content">${card}</div></li></ol>`;
  return sheetDocument(frame, theme, STYLESHEETS);
}

async function open(page: Page, userId: string, theme: "light" | "dark" = "light"): Promise<void> {
  await showPage(page, cardHtml(userId, theme));
}

async function clickAndRun(page: Page, selector: string): Promise<void> {
  await page.locator(selector).click();
  const clicks = await recordedClicks(page);
  const click = clicks.at(-1);
  if (!click) throw new Error("The click was not recorded.");
  const action = CARD_ACTIONS[click.action];
  if (!action) throw new Error(`No card action "${click.action}"`);
  // Run as the card's dispatcher runs it: on the card's message, with the clicked button.
  await action.call({ messageId: MESSAGE_ID }, fakeClick(), fakeTarget(click.dataset));
}

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
  message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: villain, targetActor: hero, attack: "BT", damage: 30 }));
  world.messages.set(MESSAGE_ID, message);
});
afterEach(() => {
  vi.unstubAllGlobals();
});
afterAll(async () => {
  await browser.close();
});

describe("an attack card in the browser", () => {
  it("the defender clicks Dodge and sees the defence, the to-hit and the damage; the Judge applies it", { timeout: 60_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 520 });

    asUser = ALICE.id;
    await open(page, ALICE.id);
    const dodge = page.locator('[data-action="caseDefend"][data-defence="dodge"]');
    await expect(dodge.isVisible()).resolves.toBe(true);
    await picture(page, { path: "test/artifacts/attack-card-declared.png", fullPage: true });

    // The GM rolls the defence die (a green Dodge on Remarkable: −2 CS), then the to-hit die: 90 on
    // Agy (dex) Excellent −2 CS = Typical, which is yellow there: a Bullseye (a hit).
    world.dice.push(40, 90);
    await clickAndRun(page, '[data-action="caseDefend"][data-defence="dodge"]');
    const t = readExchange(message.system.exchange).targets[0];
    expect(t?.defence?.code).toBe("dodge");
    expect(t?.phase).toBe("resolved");

    await open(page, GM.id);
    await expect(page.locator(".defence-line").innerText()).resolves.toMatch(/Dodge: 40 on Remarkable\s+Green\s+— −2 CS on the attack/);
    await expect(page.locator(".tohit-line").innerText()).resolves.toMatch(/To hit: 90 on Typical\s+Yellow\s+Bullseye/);
    await expect(page.locator(".damage-line").innerText()).resolves.toMatch(/Damage 30 − protection 0 = 30/);
    await picture(page, { path: "test/artifacts/attack-card-resolved.png", fullPage: true });

    asUser = GM.id;
    const health = hero.system.health.value;
    await clickAndRun(page, '[data-action="caseApplyDamage"]');
    expect(hero.system.health.value).toBe(health - 30);
    await open(page, GM.id, "dark");
    await expect(page.locator(".applied-line").innerText()).resolves.toBe(`Health: ${String(health)} → ${String(health - 30)} / ${String(hero.system.health.max)}`);
    await expect(page.locator('[data-action="caseUndoDamage"]').isVisible()).resolves.toBe(true);
    await picture(page, { path: "test/artifacts/attack-card-applied-dark.png", fullPage: true });
  });
});
