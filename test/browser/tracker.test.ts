/**
 * The CASE tracker in Chromium: the real templates, rendered from the real context builder,
 * with the system's real stylesheets, in a sidebar-wide column. The Judge clicks "advance";
 * the click is recorded in the page, turned into the request the tracker sends, and run
 * through the GM's real query handler and turn engine (on an in-memory combat); the tracker
 * re-rendered from the new state shows the next phase. Then a player picks a flurry the same
 * way. Screenshots go to test/artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { AskingUser } from "../../src/foundry/requests/router";
import { NO_TURNS, gmRouter } from "../support/gm-router";
import { advancePhaseQuery, chooseExtraModeQuery } from "../../src/foundry/combat/queries";
import { advanceRequest, buildTrackerContext, type TrackerInput } from "../../src/foundry/apps/tracker/tracker-context";
import { parseDeclaration } from "../../src/rules/index";
import { localize, renderTemplate } from "../support/handlebars";
import { picture, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../support/combat-world";
import { stats } from "../support/turn-play";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const COMBAT = "combat0000000001";
const GM: AskingUser = { id: "gm00000000000000", isGM: true, active: true, name: "Judge" };
const ALICE: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
const USERS = new Map([GM, ALICE].map((u) => [u.id, u]));
const browser = sharedBrowser();

const gm = gmRouter(GM, USERS);


let world: TurnWorld;

beforeEach(() => {
  world = turnWorld(
    [
      worldCombatant("hero000000000001", stats({ offence: 50, initiativeModifier: 2, freeDefences: 2 }), { name: "Kestrel", playerOwned: true, owners: [ALICE.id] }),
      worldCombatant("hero000000000002", stats(), { name: "Wren", playerOwned: true }),
      worldCombatant("villain000000001", stats({ offence: 30, initiativeModifier: 3 }), { name: "Doctor Dread" }),
    ],
    {},
    COMBAT,
  );
  gm.services.turns = {
    engine: (id) => (id === COMBAT ? world.engine : null),
    owns: (user, _combatId, combatantId) => world.combatants.find((c) => c.id === combatantId)?.owners.includes(user.id) ?? null,
    nameOf: (_combatId, id) => world.combatants.find((c) => c.id === id)?.name ?? id,
  };
});

afterEach(() => {
  gm.services.turns = NO_TURNS;
});

afterAll(async () => {
  await browser.close();
});

function input(viewer: AskingUser): TrackerInput {
  return trackerInputFor(world, viewer);
}

/** The sidebar tab as Foundry lays it out: the tracker part and the footer part, in a sidebar-wide column. */
function trackerPage(viewer: AskingUser, theme: "light" | "dark"): string {
  const ctx = { case: buildTrackerContext(input(viewer), localize) };
  const parts = `${renderTemplate("templates/combat/tracker.hbs", ctx)}${renderTemplate("templates/combat/footer.hbs", ctx)}`;
  const frame = `<style>.sidebar-stand-in { width: 300px; } .sidebar-stand-in .window-content { padding: 0; }</style>
<section id="combat" class="application sidebar-stand-in case tab sidebar-tab combat-sidebar" data-tab="combat">
  <header class="window-header"><h1 class="window-title">Combat Encounters</h1></header>
  <div class="window-content">${parts}</div>
</section>`;
  return sheetDocument(frame, theme, STYLESHEETS);
}

async function open(page: Page, viewer: AskingUser, theme: "light" | "dark" = "dark"): Promise<void> {
  await showPage(page, trackerPage(viewer, theme));
}

async function lastClick(page: Page) {
  const click = (await recordedClicks(page)).at(-1);
  if (!click) throw new Error("The click was not recorded.");
  return click;
}

describe("the tracker in Chromium", () => {
  it("the Judge advances the phase; the next phase is rendered", async () => {
    const { page } = await browser.get();
    await world.engine.declare("hero000000000001", parseDeclaration({ text: "Two jabs at the doctor", kind: "attack", attack: "BA", actions: 2 }));
    await world.engine.declare("villain000000001", parseDeclaration({ text: "Death ray", kind: "attack", attack: "En" }));
    await open(page, GM);
    await expect(page.locator(".case-phase-label").textContent()).resolves.toBe("Declare");
    await expect(page.locator(".case-step.current .case-step-label").textContent()).resolves.toBe("Declare");
    expect(await page.locator(".case-combatant").count()).toBe(3);
    const advance = page.locator("button.case-advance");
    expect(await advance.isVisible()).toBe(true);
    await expect(advance.textContent()).resolves.toBe("Roll extra actions");

    await advance.click();
    const click = await lastClick(page);
    expect(click.action).toBe("caseAdvance");
    // Wren has not declared, so the button forces; the Judge has confirmed it.
    const request = advanceRequest(COMBAT, click.dataset, true);
    expect(request).toEqual({ combatId: COMBAT, from: "declare", force: true });
    world.dice.push(30); // Kestrel's extra-action roll: Amazing wanting 2 needs green; 30 is green
    const result = await gm.router.runLocally(advancePhaseQuery, request);
    expect(result).toEqual({ ok: true, value: { changed: true } });

    await open(page, GM);
    await expect(page.locator(".case-phase-label").textContent()).resolves.toBe("Extra actions");
    await expect(page.locator(".case-step.current .case-step-label").textContent()).resolves.toBe("Extra actions");
    await expect(page.locator(".case-step.done .case-step-label").allTextContents()).resolves.toEqual(["Declare"]);
    await expect(page.locator('[data-combatant-id="hero000000000001"] .case-extra-result').textContent()).resolves.toBe("Rolled 30, Green: passed.");
    const box = await page.locator("#combat").boundingBox();
    expect(box?.width).toBe(300);
    mkdirSync("test/artifacts", { recursive: true });
    await picture(page.locator("#combat"), { path: "test/artifacts/tracker.png" });
  });

  it("a player picks a flurry for her hero; the NPC's declaration stays hidden from her", async () => {
    const { page } = await browser.get();
    await world.engine.declare("hero000000000001", parseDeclaration({ text: "Two jabs at the doctor", kind: "attack", attack: "BA", actions: 2 }));
    await world.engine.declare("villain000000001", parseDeclaration({ text: "Death ray", kind: "attack", attack: "En" }));
    world.dice.push(30);
    await world.engine.advance("declare", true);
    await open(page, ALICE, "light");
    expect(await page.locator("body").textContent()).not.toContain("Death ray");
    await expect(page.locator('[data-combatant-id="villain000000001"] .case-declaration').textContent()).resolves.toContain("Declared");
    expect(await page.locator("button.case-advance").count()).toBe(0);
    await page.locator('[data-combatant-id="hero000000000001"] button[data-mode="flurry"]').click();
    const click = await lastClick(page);
    expect(click).toMatchObject({ action: "caseChooseMode", dataset: { mode: "flurry" } });
    const result = await gm.ask(chooseExtraModeQuery, ALICE.id, { combatId: COMBAT, combatantId: "hero000000000001", mode: click.dataset.mode });
    expect(result).toEqual({ ok: true, value: { changed: true } });
    await open(page, ALICE, "light");
    await expect(page.locator('[data-combatant-id="hero000000000001"] .case-extra-mode').textContent()).resolves.toBe("Flurry");
    await expect(page.locator('[data-combatant-id="hero000000000001"] .case-actions-left').textContent()).resolves.toBe("1/1 damage +1 CS");
    mkdirSync("test/artifacts", { recursive: true });
    await picture(page.locator("#combat"), { path: "test/artifacts/tracker-player.png" });
  });
});
