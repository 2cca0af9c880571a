/**
 * An area attack's card at table scale, in Chromium: an explosion on five minor foes with long
 * names in a 300 px chat column, the area noted in the header, each row's distance from the
 * centre, and the foes the minor-foe rule took out saying so. Light and dark themes, axe-core,
 * screenshots under test/artifacts/.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { attackCardContext, type Viewer } from "../../src/foundry/exchange/card-context";
import { applyDamage, createExchange, rollToHit, type ExchangeState, type TargetInput } from "../../src/rules/index";
import { renderTemplate } from "../support/handlebars";
import { chatColumn, picture, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { exchangeInput } from "../support/exchange-input";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const browser = sharedBrowser();
const GM_VIEW: Viewer = { isGM: true, owns: () => true, isNpc: () => true };

afterAll(async () => {
  await browser.close();
});

const NAMES = ["Harbour Gang Enforcer Bartholomew-Smythe", "Unnamed Thug With a Very Long Crowbar", "Goon", "Henchperson Number Fourteen of Sixteen", "The Getaway Driver Who Should Have Stayed Put"];

function thug(i: number): TargetInput {
  return {
    uuid: `Scene.s.Token.t${String(i)}`,
    actorUuid: `Actor.t${String(i)}`,
    name: NAMES[i] ?? "",
    scores: { "agility.bal": 6, "fighting.def": 6, "strength.mgt": 6, "endurance.res": 6 },
    armor: { body: 0, energy: 0 },
    areaDistance: [0, 1, 1, 2, 2][i] ?? 0,
  };
}

/** A Concussion Grenade (Fo, Incredible 40, explosive burst of 2), blindsided thugs; two applied and out, the rest waiting. */
function grenade(): ExchangeState {
  let s = createExchange(exchangeInput({
    attack: "Fo",
    source: "Concussion Grenade",
    attacker: { uuid: "Actor.a", name: "Kestrel", value: 30, strength: 20, armor: 0 },
    blindsided: true,
    targets: [0, 1, 2, 3, 4].map(thug),
    area: { shape: "burst", radius: 2, explosive: true },
  }));
  for (const t of s.targets) s = rollToHit(s, t.key, { die: 90 });
  for (const key of ["0", "1"]) s = applyDamage(s, key, { value: 24, max: 24 }, undefined, "outOnAnyDamage").state;
  return s;
}

async function show(page: Page, state: ExchangeState, theme: "light" | "dark"): Promise<void> {
  const card = renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, GM_VIEW, { hideNpcDefences: false, ownersApplyDamage: false }));
  await showPage(page, sheetDocument(chatColumn(card), theme, STYLESHEETS));
}

describe("area attack card in Chromium", () => {
  it("area attack: five minor foes in one card fit 300 px; the area, each row's distance and 'Out of the fight' show, in both themes", { timeout: 60_000 }, async () => {
    mkdirSync("test/artifacts", { recursive: true });
    const { page } = await browser.get();
    await page.setViewportSize({ width: 360, height: 1200 });
    for (const theme of ["light", "dark"] as const) {
      await show(page, grenade(), theme);
      await expect(page.locator(".area-tag").innerText()).resolves.toBe("Area: an explosion of radius 2 · targets: 5 (damage falls off)");
      await expect(page.locator(".target-row").count()).resolves.toBe(5);
      await expect(page.locator(".out-of-fight").count()).resolves.toBe(2);
      const distances = (await page.locator(".area-distance").allTextContents()).map((t) => t.trim());
      expect(distances).toEqual(["· areas from the centre: 1", "· areas from the centre: 1", "· areas from the centre: 2", "· areas from the centre: 2"]);
      const sideways = await page.evaluate(() => {
        const log = document.querySelector("#chat-log");
        let worst = log ? log.scrollWidth - log.clientWidth : 0;
        for (const row of document.querySelectorAll(".target-row")) worst = Math.max(worst, row.scrollWidth - row.clientWidth);
        return worst;
      });
      expect(sideways).toBe(0);
      await picture(page, { path: `test/artifacts/area-attack-card-${theme}.png`, fullPage: true });
      await expectAccessible(page, ".attack-card", `area attack card, ${theme}`);
    }
  });
});
