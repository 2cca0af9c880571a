/**
 * The compact tracker in Chromium, at table scale: 12 combatants with long names (4 heroes, 8
 * NPCs), Health on every row, a card waiting on a defence, in a 300 px sidebar, light and dark,
 * for the Judge and for a player. Layout (rows of at most 48 px, 12 rows within 1000 px) and
 * axe-core (0 serious or critical) are asserted; screenshots go to test/artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { AskingUser } from "../../src/foundry/requests/router";
import { buildTrackerContext, type TrackerInput } from "../../src/foundry/apps/tracker/tracker-context";
import { buildBulkDeclareContext } from "../../src/foundry/apps/tracker/declare-context";
import { parseDeclaration } from "../../src/rules/index";
import { localize, renderTemplate } from "../support/handlebars";
import { picture, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../support/combat-world";
import { stats } from "../support/turn-play";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const COMBAT = "combat0000000001";
const GM: AskingUser = { id: "gm00000000000000", isGM: true, active: true, name: "Judge" };
const ALICE: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
const browser = sharedBrowser();

afterAll(async () => {
  await browser.close();
});


const HEROES = ["Kestrel, the Hawk of Harbour City", "Bulwark (Professor Aldous Grantham-Hale)", "Wren Nightingale-Okonkwo", "Doctor Meridian, Mistress of the Tides"];
const NPCS = [
  "Doctor Dread, Tyrant of the Underways",
  "Gravel Gang Bruiser with the Lead Pipe",
  "Gravel Gang Lookout on the Fire Escape",
  "Gravel Gang Driver of the Getaway Van",
  "Madame Vitriol's Acid-Spitting Automaton",
  "Captain Cinder of the Burning Legion",
  "Hired Gun from the Docks",
  "The Unnamed Sniper on the Clock Tower",
];
/** Health [value, max] per combatant: the heroes' whole or hurt, the NPCs' in every band. */
const HEALTH: [number, number][] = [
  [120, 120], [84, 160], [30, 90], [150, 150],
  [200, 240], [40, 40], [12, 40], [0, 40], [95, 100], [60, 130], [30, 30], [5, 60],
];

function twelve(): { world: TurnWorld; ids: string[] } {
  const ids = [...HEROES, ...NPCS].map((_, i) => `c${String(i).padStart(15, "0")}`);
  const world = turnWorld(
    [...HEROES, ...NPCS].map((name, i) =>
      worldCombatant(ids[i] as string, stats({ offence: i % 3 === 0 ? 50 : 20, initiativeModifier: i % 5 }), {
        name,
        playerOwned: i < HEROES.length,
        owners: i === 0 ? [ALICE.id] : [],
      }),
    ),
    {},
    COMBAT,
  );
  return { world, ids };
}

function input(world: TurnWorld, viewer: AskingUser, waitingOn: string, hintFolded = false): TrackerInput {
  return {
    ...trackerInputFor(world, viewer, {
      row: (c, i) => ({ health: { value: (HEALTH[i] as [number, number])[0], max: (HEALTH[i] as [number, number])[1] }, onScene: true, defenceWaiting: c.id === waitingOn }),
      history: viewer.isGM ? { steps: 3, phase: "declare", turn: 1, cause: "advance", name: null } : null,
    }),
    hintFolded,
  };
}

function page(world: TurnWorld, ids: string[], viewer: AskingUser, theme: "light" | "dark", hintFolded = false): string {
  const ctx = { case: buildTrackerContext(input(world, viewer, ids[0] as string, hintFolded), localize) };
  const parts = `${renderTemplate("templates/combat/tracker.hbs", ctx)}${renderTemplate("templates/combat/footer.hbs", ctx)}`;
  const frame = `<style>.sidebar-stand-in { width: 300px; } .sidebar-stand-in .window-content { padding: 0; }</style>
<section id="combat" class="application sidebar-stand-in case tab sidebar-tab combat-sidebar" data-tab="combat">
  <header class="window-header"><h1 class="window-title">Combat Encounters</h1></header>
  <div class="window-content">${parts}</div>
</section>`;
  return sheetDocument(frame, theme, STYLESHEETS);
}

async function declareSome(world: TurnWorld, ids: string[]): Promise<void> {
  await world.engine.declare(ids[0] as string, parseDeclaration({ text: "Two jabs at Doctor Dread, then leap to the fire escape", kind: "attack", attack: "BA", actions: 2 }));
  await world.engine.declare(ids[1] as string, parseDeclaration({ text: "Shield Wren from the sniper's line of fire", kind: "defence", defence: "block" }));
  await world.engine.declare(ids[4] as string, parseDeclaration({ text: "Death ray at Kestrel's wings", kind: "attack", attack: "En" }));
  await world.engine.declare(ids[5] as string, parseDeclaration({ text: "Swing the lead pipe at Bulwark's knees", kind: "attack", attack: "BA" }));
}

async function rowHeights(p: Page): Promise<number[]> {
  return p.locator("li.case-combatant").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
}

/** The characters of each row's name the viewer sees (up to where the row cuts it), in row order. */
async function visibleNames(p: Page): Promise<string[]> {
  return p.locator("li.case-combatant .case-name").evaluateAll((buttons) =>
    buttons.map((button) => {
      const name = button.querySelector(".name");
      const node = name?.firstChild;
      if (!name || !node || node.nodeType !== Node.TEXT_NODE) return "";
      const text = node.textContent ?? "";
      const box = button.getBoundingClientRect();
      const range = document.createRange();
      let shown = 0;
      for (let i = 1; i <= text.length; i++) {
        range.setStart(node, 0);
        range.setEnd(node, i);
        const rects = [...range.getClientRects()];
        // A character is seen when it is laid out inside the button (not past its edge, nor on a line below its last:
        // a glyph's box is 2 px taller than the 13 px line, so a line counts while it starts inside).
        if (rects.every((r) => r.right <= box.right + 0.5 && r.top + 6 <= box.bottom)) shown = i;
        else break;
      }
      // A cut name gives its last character's place to the ellipsis.
      return text.slice(0, shown < text.length ? Math.max(0, shown - 1) : shown);
    }),
  );
}

describe("compact tracker", () => {
  it("compact tracker: 12 combatants with long names, rows of at most 48 px, all 12 within 1000 px, light and dark, for the Judge and a player", { timeout: 120_000 }, async () => {
    const { world, ids } = twelve();
    await declareSome(world, ids);
    mkdirSync("test/artifacts", { recursive: true });
    const { page: p } = await browser.get();
    await p.setViewportSize({ width: 360, height: 1100 });
    for (const theme of ["dark", "light"] as const) {
      for (const viewer of [GM, ALICE]) {
        await showPage(p, page(world, ids, viewer, theme));
        const heights = await rowHeights(p);
        expect(heights).toHaveLength(12);
        for (const h of heights) expect(h).toBeLessThanOrEqual(48);
        // The whole tab — phase strip, 12 rows and the footer — fits in 1000 px.
        const box = await p.locator("#combat").boundingBox();
        expect(box?.height ?? Infinity).toBeLessThanOrEqual(1000);
        const first = await p.locator("li.case-combatant").first().boundingBox();
        const last = await p.locator("li.case-combatant").last().boundingBox();
        expect((last?.y ?? 0) + (last?.height ?? 0) - (first?.y ?? 0)).toBeLessThanOrEqual(1000);
        // Long names take at most two lines on the row; the whole name is the find button's text.
        const name = p.locator(`[data-combatant-id="${ids[4] as string}"] .case-name`);
        await expect(name.textContent()).resolves.toBe(NPCS[0]);
        const nameBox = await name.boundingBox();
        expect(nameBox?.height ?? 99).toBeLessThanOrEqual(27);
        // Phase names, not just numbers, on the strip; the current one highlighted.
        await expect(p.locator(".case-step .case-step-label").allTextContents()).resolves.toEqual(["Declare", "Extra actions", "Initiative", "Resolve", "Extra rounds", "Wrap up"]);
        expect(await p.locator(".case-step.current").count()).toBe(1);
        await expect(p.locator(".case-step.current .case-step-label").textContent()).resolves.toBe("Declare");
        for (const label of await p.locator(".case-step-label").all()) expect(await label.isVisible()).toBe(true);
        const report = await expectAccessible(p, "#combat", `compact-tracker-${viewer.isGM ? "gm" : "player"}-${theme}`);
        expect(report.failures).toEqual([]);
        await picture(p.locator("#combat"), { path: `test/artifacts/compact-tracker-${viewer.isGM ? "gm" : "player"}-${theme}.png` });
      }
    }
  });

  it("compact tracker: the declaration on the row and its tooltip, in full in the details; NPC Health to a player is a band without numbers", async () => {
    const { world, ids } = twelve();
    await declareSome(world, ids);
    const { page: p } = await browser.get();
    await showPage(p, page(world, ids, ALICE, "light"));
    const hero = p.locator(`[data-combatant-id="${ids[0] as string}"]`);
    await expect(hero.locator(".case-row-summary").getAttribute("data-tooltip")).resolves.toBe("Blunt Attack · Two jabs at Doctor Dread, then leap to the fire escape");
    // The details are closed, and open from a keyboard-reachable toggle that says what it controls.
    const toggle = hero.locator(".case-expand");
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(toggle.getAttribute("aria-controls")).resolves.toBe(`case-details-${ids[0] as string}`);
    expect(await hero.locator(".case-row-details").isVisible()).toBe(false);
    await toggle.focus();
    await p.keyboard.press("Enter");
    expect((await recordedClicks(p)).at(-1)).toMatchObject({ action: "caseToggleRow" });
    // Her own hero: exact Health; an NPC's: a band only, and its declaration stays secret.
    await expect(hero.locator(".case-health").getAttribute("aria-label")).resolves.toBe("Health 120/120 (unhurt)");
    const dread = p.locator(`[data-combatant-id="${ids[4] as string}"]`);
    await expect(dread.locator(".case-health").getAttribute("aria-label")).resolves.toBe("Health: hurt");
    await expect(dread.locator(".case-health").getAttribute("aria-valuenow")).resolves.toBe("75");
    const npcText = await p.locator(`[data-combatant-id="${ids[4] as string}"]`).innerText();
    expect(npcText).not.toMatch(/\d+\s*\/\s*240/);
    expect(await p.locator("body").innerHTML()).not.toContain("Death ray");
    await expect(dread.locator(".case-row-summary").textContent()).resolves.toBe("Declared");
    // A player has no back, bulk declare, hide or defeated control.
    for (const action of ["caseStepBack", "caseBulkDeclare", "caseRepeatDeclarations", "caseToggleHidden", "caseToggleDefeated"]) {
      expect(await p.locator(`[data-action="${action}"]`).count(), action).toBe(0);
    }
    // Her own row's pressing button is on the compact row.
    await expect(hero.locator(".case-row-primary").count()).resolves.toBe(0); // already declared
    await expect(p.locator(`[data-combatant-id="${ids[0] as string}"] [data-action="casePingToken"]`).count()).resolves.toBe(1);
  });

  it("defence waiting: the row of a combatant an attack card waits on carries the badge, for everyone who sees the row", async () => {
    const { world, ids } = twelve();
    const { page: p } = await browser.get();
    for (const viewer of [GM, ALICE]) {
      await showPage(p, page(world, ids, viewer, "dark"));
      await expect(p.locator(".case-defence-waiting").count()).resolves.toBe(1);
      await expect(p.locator(`[data-combatant-id="${ids[0] as string}"] .case-defence-waiting`).textContent()).resolves.toBe("Defend!");
    }
  });

  it("back one step and bulk declare: the Judge's footer offers them, with what the step goes back to", async () => {
    const { world, ids } = twelve();
    const { page: p } = await browser.get();
    await showPage(p, page(world, ids, GM, "dark"));
    const back = p.locator('[data-action="caseStepBack"]');
    await expect(back.getAttribute("data-steps")).resolves.toBe("3");
    await expect(back.getAttribute("data-tooltip")).resolves.toBe("Back to Declare, turn 1");
    await p.locator('[data-action="caseBulkDeclare"]').click();
    expect((await recordedClicks(p)).at(-1)).toMatchObject({ action: "caseBulkDeclare" });
    expect(await p.locator('[data-action="caseRepeatDeclarations"]').count()).toBe(1);
  });

  it("tracker full names: at 12 combatants in a 300 px sidebar every long name shows enough to tell it apart (no \"Gravel Gang…\" three times), light and dark, Judge and player", { timeout: 120_000 }, async () => {
    const { world, ids } = twelve();
    const { page: p } = await browser.get();
    await p.setViewportSize({ width: 360, height: 1100 });
    for (const theme of ["dark", "light"] as const) {
      for (const viewer of [GM, ALICE]) {
        // The declare phase: every row the viewer commands offers its Declare on the compact row.
        await showPage(p, page(world, ids, viewer, theme));
        const shown = await visibleNames(p);
        expect(shown).toHaveLength(12);
        console.log(`tracker full names (${viewer.isGM ? "Judge" : "player"}, ${theme}): ${shown.map((n) => n.length).join(", ")} characters shown`);
        const all = [...HEROES, ...NPCS];
        for (const [i, seen] of shown.entries()) expect(seen.length, `${all[i] as string}: "${seen}"`).toBeGreaterThanOrEqual(Math.min((all[i] as string).length, 20));
        // Most names are whole on their two lines (before: none, 5 to 13 characters each).
        expect(shown.filter((n, i) => n === all[i]).length).toBeGreaterThanOrEqual(9);
        // The three Gravel Gang names differ where they are cut.
        const gang = shown.filter((n) => n.startsWith("Gravel Gang"));
        expect(new Set(gang).size).toBe(3);
        for (const g of gang) expect(g.length).toBeGreaterThan("Gravel Gang ".length + 3);
        // The Judge's rows keep their Declare button beside the two-line names; the row stays 48 px at most.
        if (viewer.isGM) await expect(p.locator(`[data-combatant-id="${ids[4] as string}"] .case-row-primary`).textContent()).resolves.toBe("Declare");
        for (const h of await rowHeights(p)) expect(h).toBeLessThanOrEqual(48);
        const report = await expectAccessible(p, "#combat", `tracker-full-names-${viewer.isGM ? "gm" : "player"}-${theme}`);
        expect(report.failures).toEqual([]);
      }
    }
  });

  it("tracker hint folds: at 12 combatants the hint and waiting list fold to one line (header measured), light and dark, Judge and player", { timeout: 120_000 }, async () => {
    const { world, ids } = twelve();
    const { page: p } = await browser.get();
    await p.setViewportSize({ width: 360, height: 1100 });
    for (const theme of ["dark", "light"] as const) {
      for (const viewer of [GM, ALICE]) {
        await showPage(p, page(world, ids, viewer, theme));
        const open = (await p.locator(".case-phase-help").boundingBox())?.height ?? 0;
        await p.locator('[data-action="caseToggleHint"]').click();
        expect((await recordedClicks(p)).at(-1)).toMatchObject({ action: "caseToggleHint" });
        await showPage(p, page(world, ids, viewer, theme, true));
        const folded = (await p.locator(".case-phase-help").boundingBox())?.height ?? Infinity;
        console.log(`tracker hint folds (${viewer.isGM ? "Judge" : "player"}, ${theme}): hint and waiting list ${Math.round(open)} px, folded ${Math.round(folded)} px`);
        expect(open).toBeGreaterThan(100);
        expect(folded).toBeLessThanOrEqual(24);
        expect(await p.locator(".case-phase-hint").isVisible()).toBe(false);
        expect(await p.locator(".case-waiting").isVisible()).toBe(true);
        await expect(p.locator('[data-action="caseToggleHint"]').getAttribute("aria-expanded")).resolves.toBe("false");
        const report = await expectAccessible(p, "#combat", `tracker-hint-folded-${viewer.isGM ? "gm" : "player"}-${theme}`);
        expect(report.failures).toEqual([]);
        if (viewer.isGM) await picture(p.locator("#combat"), { path: `test/artifacts/tracker-hint-folded-${theme}.png` });
      }
    }
  });

  it("bulk declare: one dialog with a line per NPC, light and dark, accessible", { timeout: 60_000 }, async () => {
    const { world } = twelve();
    const npcs = world.combatants.filter((c) => !c.playerOwned).map((c) => ({ id: c.id, name: c.name, offence: c.stats?.offence ?? 6, current: null }));
    const html = renderTemplate("templates/combat/declare-many.hbs", buildBulkDeclareContext(npcs, localize));
    const { page: p } = await browser.get();
    await p.setViewportSize({ width: 760, height: 700 });
    for (const theme of ["dark", "light"] as const) {
      await showPage(p, sheetDocument(`<section id="bulk" class="application" style="width: 720px"><div class="window-content"><form>${html}</form></div></section>`, theme, STYLESHEETS));
      expect(await p.locator("tbody tr").count()).toBe(8);
      await expect(p.locator("tbody th").allTextContents()).resolves.toEqual(NPCS);
      const report = await expectAccessible(p, "#bulk", `bulk-declare-${theme}`);
      expect(report.failures).toEqual([]);
      await picture(p.locator("#bulk"), { path: `test/artifacts/bulk-declare-${theme}.png` });
    }
  });
});
