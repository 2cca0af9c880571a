/**
 * Accessibility of every view the system renders, in Chromium, in Foundry's light and dark
 * themes: the real templates with the system's real stylesheets, checked by axe-core (zero
 * serious or critical violations; its color-contrast rule measures the text against what is
 * painted behind it), walked with the Tab key (every control reached, its focus visibly
 * marked), and read with no icon font in the page (every button still shows text).
 *
 * The band palette is read back from styles/case.css as Chromium computes it and checked
 * under simulated deuteranopia, protanopia and tritanopia (test/support/color-vision.ts).
 * Screenshots go to test/artifacts/a11y-*.png.
 */
import "../support/foundry-globals";
import "../support/chat-globals";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ALICE, FakeMessage, GM, installWorld, type World, kestrelAndGravel } from "../support/exchange-world";
import type * as GmModule from "../../src/foundry/requests/gm";

let world: World;
let asUser = ALICE.id;

vi.mock("../../src/foundry/requests/gm", async (importOriginal) => {
  const original = await importOriginal<typeof GmModule>();
  return {
    ...original,
    requestGM: async (query: Parameters<typeof original.requestGM>[0], payload: unknown) => {
      const result = await world.ask(query, asUser, payload);
      if (!result.ok) throw new Error(`refused: ${result.reason} ${result.message}`);
      return result.value;
    },
  };
});
vi.mock("../../src/foundry/dice/entry-points", () => ({
  rollScore: vi.fn(() => Promise.resolve()),
  rollItem: vi.fn(() => Promise.resolve()),
}));
vi.mock("../../src/foundry/exchange/make-attack", () => ({
  makeAttack: vi.fn(() => Promise.resolve()),
}));
vi.mock("../../src/foundry/column-roll", () => ({ rollColumn: vi.fn(() => Promise.resolve(null)) }));

import type { Page } from "playwright-core";
import { CARD_ACTIONS } from "../../src/foundry/exchange/card";
import { attackCardContext, type Viewer } from "../../src/foundry/exchange/card-context";
import { readExchange } from "../../src/foundry/exchange/card-model";
import { actionCardContext } from "../../src/foundry/dice/action-card-context";
import type { RollCheck } from "../../src/foundry/dice/roll-check";
import { rollDialogContext } from "../../src/foundry/dice/roll-dialog";
import { rollRequestDialogContext } from "../../src/foundry/roll-requests/request-card-context";
import { DEFAULT_ROLL_INPUT } from "../../src/foundry/dice/roll-input";
import { DEFAULT_ATTACK_INPUT, obstacleOptions } from "../../src/foundry/exchange/attack-input";
import { impactPromptContext } from "../../src/foundry/api/impact-forms";
import { columnPromptContext, damagePromptContext } from "../../src/foundry/api/macro-forms";
import { buildDeclareContext } from "../../src/foundry/apps/tracker/declare-context";
import { CaseCharacterSheet, HeroSheet, NpcSheet } from "../../src/foundry/apps/sheet/actor-sheets";
import { CaseItemSheet } from "../../src/foundry/apps/sheet/item-sheet";
import { UniversalTableApp } from "../../src/foundry/apps/table/universal-table-app";
import { UNIVERSAL_TABLE_TEMPLATE, universalTableContext } from "../../src/foundry/apps/table/universal-table-context";
import { advanceRequest, buildTrackerContext } from "../../src/foundry/apps/tracker/tracker-context";
import { advancePhaseQuery, type TurnDirectory } from "../../src/foundry/combat/queries";
import type { AskingUser } from "../../src/foundry/requests/router";
import { COLORS, UNIVERSAL_TABLE, chooseDefence, createExchange as createRulesExchange, markPickedDefence, parseDeclaration, resistPower, rollToHit, type CombatantStats, type ExchangeState } from "../../src/rules/index";
import { exchangeInput, exchangeTarget } from "../support/exchange-input";
import { chatColumn, dialogFrame, picture, recordedClicks, screenshotOf, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { localize, renderSheet, renderTemplate } from "../support/handlebars";
import { SHEET_TEMPLATES, heroSheetData, itemSheetFixture, npcSheetData } from "../support/sheet-fixtures";
import { controlsIn, expectAccessible, tabThrough } from "../support/accessibility";
import { bandDistances, contrastRatio, parseRgb, type Rgb, type Vision } from "../support/color-vision";
import { NO_TURNS, gmRouter } from "../support/gm-router";
import { fakeClick, fakeTarget } from "../support/foundry-stubs";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../support/combat-world";
import { createExchange } from "../support/exchange-fixtures";

type Theme = "light" | "dark";
const THEMES: readonly Theme[] = ["light", "dark"];
type Options = { classes: string[]; position: { width: number; height: number } };

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const base = CaseCharacterSheet.DEFAULT_OPTIONS as Options;
const heroOptions = HeroSheet.DEFAULT_OPTIONS as Options;
const npcOptions = NpcSheet.DEFAULT_OPTIONS as Options;
const itemOptions = CaseItemSheet.DEFAULT_OPTIONS as Options;
const tableOptions = UniversalTableApp.DEFAULT_OPTIONS as { classes: string[]; position: { width: number } };

const browser = sharedBrowser();
/** What axe found per view, written to test/artifacts/a11y-axe.json for a person to read. */
const summary: Record<string, { serious: number; minor: string[]; contrastChecked: number; rulesPassed: number }> = {};

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});
afterAll(async () => {
  await browser.close();
  writeFileSync("test/artifacts/a11y-axe.json", `${JSON.stringify(summary, null, 2)}\n`);
});

/**
 * One page serves every view, one after another (tests in a file run in turn): each view
 * replaces the whole document (page.setContent: new nodes, listeners, focus, scroll and
 * stylesheets, loaded again), and only the window's axe-core stays, injected once. A page per
 * view spent about 0.4 s opening, loading and parsing axe-core again, most of a view's time.
 */
let shared: Page | null = null;

async function open(html: string, theme: Theme, viewport = { width: 1000, height: 900 }): Promise<Page> {
  if (shared === null || shared.isClosed()) {
    shared = await (await browser.get()).context.newPage();
    await showPage(shared, sheetDocument("", theme, STYLESHEETS));
  }
  await shared.setViewportSize(viewport);
  await shared.setContent(sheetDocument(html, theme, STYLESHEETS));
  return shared;
}

/** Done with a view: the shared page stays open for the next one (any other page is closed). */
async function release(page: Page): Promise<void> {
  if (page !== shared) await page.close();
}

/** Every rendered button shows text of its own (no icon font is loaded in these pages). */
async function buttonsWithoutText(page: Page, selector: string): Promise<string[]> {
  return page.locator(`${selector} button`).evaluateAll((els) =>
    els.filter((e) => e.getClientRects().length > 0 && (e as HTMLElement).innerText.trim() === "").map((e) => e.outerHTML.slice(0, 160)),
  );
}

/** The checks every view gets: axe, text on every button, and a screenshot. */
async function checkView(page: Page, selector: string, name: string): Promise<void> {
  const report = await expectAccessible(page, selector, name);
  summary[name] = { serious: report.failures.length, minor: report.minor.map((f) => `${f.rule} (${f.impact ?? "?"}) ×${String(f.nodes.length)}`), contrastChecked: report.contrastPasses, rulesPassed: report.passed.length };
  expect(await buttonsWithoutText(page, selector), `${name}: buttons with no visible text`).toEqual([]);
  await screenshotOf(page, selector, `test/artifacts/a11y-${name}.png`);
}

// ── sheets ──────────────────────────────────────────────────────────────────────────────────

describe("accessibility of the sheets", () => {
  for (const theme of THEMES) {
    for (const tab of ["powers", "talents", "gear", "contacts", "karma", "biography"]) {
      it(`accessibility: hero sheet, ${tab} tab, ${theme} theme`, async () => {
        const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData({ activeTab: tab }) }, { classes: [...base.classes, ...heroOptions.classes], title: "Kestrel", position: heroOptions.position });
        const page = await open(html, theme);
        try {
          await checkView(page, "form.application", `hero-${tab}-${theme}`);
        } finally {
          await release(page);
        }
      });
    }

    it(`accessibility: hero sheet, karma tab with the group Karma pool (karma pool, karma advancement of powers and talents) and the character builder prompt, ${theme} theme`, async () => {
      const data = heroSheetData({ activeTab: "karma" });
      const sheet = { ...data, blank: true, campaign: { ...data.campaign, groupPool: { total: 120, yours: 35 } } };
      const html = renderSheet(SHEET_TEMPLATES.hero, { sheet }, { classes: [...base.classes, ...heroOptions.classes], title: "Kestrel", position: heroOptions.position });
      const page = await open(html, theme);
      try {
        expect(await page.locator('button[data-action="poolContribute"]').count()).toBe(1);
        expect(await page.locator('button[data-action="advancePower"]').count()).toBeGreaterThan(0);
        expect(await page.locator('button[data-action="openBuilder"]').count()).toBe(1);
        await checkView(page, "form.application", `hero-karma-pool-${theme}`);
      } finally {
        await page.close();
      }
    });

    it(`accessibility: NPC sheet, ${theme} theme`, async () => {
      const html = renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData() }, { classes: [...base.classes, ...npcOptions.classes], title: "Dock Thug", position: npcOptions.position });
      const page = await open(html, theme);
      try {
        await checkView(page, "form.application", `npc-${theme}`);
      } finally {
        await release(page);
      }
    });

    const items: Record<string, Record<string, unknown>> = {
      power: { category: "energyGeneration", rank: 40, duration: "instant", attack: { enabled: true, type: "En", range: 3 } },
      talent: { covers: ["agility.dex", "Sh", "dodge"], doubled: false },
      weapon: { damage: { mode: "strength", rank: 10 }, ammunition: { tracked: true, value: 4, max: 6 } },
      armor: {},
      contact: {},
    };
    for (const [type, source] of Object.entries(items)) {
      it(`accessibility: ${type} sheet, ${theme} theme`, async () => {
        const html = renderSheet(SHEET_TEMPLATES.item(type), { sheet: itemSheetFixture(type, source) }, { classes: itemOptions.classes, title: type, position: itemOptions.position });
        const page = await open(html, theme);
        try {
          await checkView(page, "form.application", `item-${type}-${theme}`);
        } finally {
          await release(page);
        }
      });
    }
  }

  it("accessibility: the hero sheet is operable by keyboard, every stop visibly focused", async () => {
    const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData() }, { classes: [...base.classes, ...heroOptions.classes], title: "Kestrel", position: heroOptions.position });
    const page = await open(html, "dark");
    try {
      const controls = await controlsIn(page, "form.application");
      const stops = await tabThrough(page, "form.application");
      expect(stops.length).toBe(controls.length);
      expect(stops.filter((s) => !s.marked)).toEqual([]);
      // A tab is a button: Enter on it clicks it, so the sheet's tab handler runs.
      const tab = page.locator('nav.case-tabs [data-tab="gear"]');
      await tab.focus();
      await page.keyboard.press("Enter");
      expect((await recordedClicks(page)).at(-1)).toMatchObject({ action: "tab", dataset: { tab: "gear" } });
      await picture(page.locator("form.application"), { path: "test/artifacts/a11y-hero-focus-dark.png" });
    } finally {
      await release(page);
    }
  });
});

// ── the action card ─────────────────────────────────────────────────────────────────────────

describe("accessibility of the action card", () => {
  const check: RollCheck = { label: "CASE.Score.agility.dex", localizeLabel: true, score: "agility.dex", value: 30, shifts: [], karma: 0, intensity: null, needed: null, blindsided: false, attack: null };
  const cards: Record<string, { view: Record<string, unknown> }> = {
    unrolled: { view: actionCardContext(check, null, UNIVERSAL_TABLE) as unknown as Record<string, unknown> },
    success: { view: actionCardContext({ ...check, shifts: [{ cs: -2, label: "Cover", localize: false }], karma: 10, intensity: 20 }, 60, UNIVERSAL_TABLE) as unknown as Record<string, unknown> },
    failure: { view: actionCardContext({ ...check, intensity: 50 }, 12, UNIVERSAL_TABLE) as unknown as Record<string, unknown> },
    attack: { view: actionCardContext({ ...check, value: 6, shifts: [{ cs: -5, label: "Dodge", localize: false }], attack: "Sh" }, 97, UNIVERSAL_TABLE) as unknown as Record<string, unknown> },
  };
  for (const theme of THEMES) {
    for (const [name, { view }] of Object.entries(cards)) {
      it(`accessibility: action card (${name}), ${theme} theme`, async () => {
        const page = await open(chatColumn(renderTemplate("templates/chat/action-card.hbs", { ...view, formula: "1d100" })), theme, { width: 340, height: 400 });
        try {
          await checkView(page, "#chat-log", `action-card-${name}-${theme}`);
          // Every band shows its letter, not only its colour.
          const letters = await page.locator("li.band").evaluateAll((els) => els.map((e) => getComputedStyle(e, "::before").content));
          expect(letters.length).toBeGreaterThan(0);
          for (const l of letters) expect(l).toMatch(/^"[WGYR]"$/);
        } finally {
          await release(page);
        }
      });
    }
  }
});

// ── the attack card at its stages ───────────────────────────────────────────────────────────

describe("accessibility of the attack card", () => {
  const MESSAGE_ID = "msg0000000000001";

  it("accessibility: the attack card declared, resolved, applied and at its checks, both themes; keyboard operable", { timeout: 120_000 }, async () => {
    world = installWorld();
    const { hero, villain } = kestrelAndGravel(world);
    const message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: villain, targetActor: hero, attack: "BT", damage: 30 }));
    world.messages.set(MESSAGE_ID, message);
    const viewerOf = (userId: string): Viewer => {
      const isGM = userId === GM.id;
      return { isGM, owns: (uuid) => !isGM && uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
    };
    const cardHtml = (userId: string) =>
      chatColumn(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(readExchange(message.system.exchange), viewerOf(userId), { hideNpcDefences: false, ownersApplyDamage: false })));
    const checkStage = async (stage: string, userId: string) => {
      for (const theme of THEMES) {
        const page = await open(cardHtml(userId), theme, { width: 340, height: 700 });
        try {
          await checkView(page, "#chat-log", `attack-card-${stage}-${theme}`);
          const controls = await controlsIn(page, "#chat-log");
          const stops = await tabThrough(page, "#chat-log");
          expect(stops.length, `${stage}: tab stops`).toBe(controls.length);
          expect(stops.filter((s) => !s.marked), `${stage}: focus not marked`).toEqual([]);
        } finally {
          await release(page);
        }
      }
    };

    await checkStage("declared", ALICE.id);
    // The defender chooses Dodge by keyboard: focus, Enter; the click runs the card's real action.
    const page = await open(cardHtml(ALICE.id), "light", { width: 340, height: 700 });
    try {
      await page.locator('[data-action="caseDefend"][data-defence="dodge"]').focus();
      await page.keyboard.press("Enter");
      const click = (await recordedClicks(page)).at(-1);
      expect(click?.action).toBe("caseDefend");
      world.dice.push(40, 97); // a green Dodge (−2 CS), then a red to-hit
      asUser = ALICE.id;
      // Run as the card's dispatcher runs it: on the card's message, with the clicked button.
      await CARD_ACTIONS[click?.action ?? ""]?.call({ messageId: MESSAGE_ID }, fakeClick(), fakeTarget(click?.dataset ?? {}));
    } finally {
      await release(page);
    }
    expect(readExchange(message.system.exchange).targets[0]?.phase).toBe("resolved");
    await checkStage("resolved", GM.id);
    asUser = GM.id;
    await CARD_ACTIONS.caseApplyDamage?.call({ messageId: MESSAGE_ID }, fakeClick(), fakeTarget({ targetKey: readExchange(message.system.exchange).targets[0]?.key ?? "" }));
    await checkStage("applied", GM.id);
  });

  it("accessibility: an NPC's defence picked by the GM's client, with Change defence for the GM, both themes; keyboard operable", { timeout: 60_000 }, async () => {
    world = installWorld();
    const { hero, villain } = kestrelAndGravel(world);
    const made = createExchange({ attackerActor: hero, targetActor: villain, attack: "BA", damage: 30 });
    const picked = rollToHit(markPickedDefence(chooseDefence(made, "0", { defence: "block", die: 50, cs: [] }), "0"), "0", { die: 80 });
    const gmViewer: Viewer = { isGM: true, owns: () => false, isNpc: (uuid) => uuid === villain.uuid };
    for (const theme of THEMES) {
      const page = await open(chatColumn(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(picked, gmViewer, { hideNpcDefences: false, ownersApplyDamage: false }))), theme, { width: 340, height: 700 });
      try {
        await checkView(page, "#chat-log", `attack-card-picked-defence-${theme}`);
        expect(await page.locator('[data-action="caseChangeDefence"]').count()).toBe(1);
        const controls = await controlsIn(page, "#chat-log");
        const stops = await tabThrough(page, "#chat-log");
        expect(stops.length).toBe(controls.length);
        expect(stops.filter((s) => !s.marked)).toEqual([]);
      } finally {
        await release(page);
      }
    }
  });

  it("accessibility: a resisted power's card (Resist with Karma; a failed resistance with Apply effect), Karma on a defence and Karma against death, both themes; keyboard operable", { timeout: 60_000 }, async () => {
    world = installWorld();
    const { hero, villain } = kestrelAndGravel(world);
    const made = createExchange({ attackerActor: villain, targetActor: hero, attack: "En", damage: 30 });
    const resisted: ExchangeState = { ...made, resisted: { rank: 30, resistedBy: "psyche", effect: { kind: "condition", condition: "Mind-controlled", turns: 10 } } } as ExchangeState;
    const t = made.targets[0];
    if (!t) throw new Error("No row.");
    const killed: ExchangeState = { ...made, targets: [{ ...t, phase: "applied", consequences: [{ check: "kill", cause: "result", die: 1, color: "white", outcome: { check: "kill", result: "enduranceLoss", endurance: 0, dead: true } }] }] };
    const owner: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
    const gm: Viewer = { isGM: true, owns: () => false, isNpc: (uuid) => uuid === villain.uuid };
    const settings = { hideNpcDefences: false, ownersApplyDamage: false, karmaOnChecks: true, karmaOnDefence: true, karmaAgainstDeath: true };
    const stages: [string, ExchangeState, Viewer, string][] = [
      ["resist", resisted, owner, "caseResist"],
      ["resisted-apply", resistPower(resisted, "0", { die: 20, value: 10 }), gm, "caseApplyResisted"],
      ["defence-karma", made, owner, "caseDefend"],
      ["karma-against-death", killed, owner, "caseBuyOffDeath"],
    ];
    for (const [stage, state, viewer, action] of stages) {
      for (const theme of THEMES) {
        const page = await open(chatColumn(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, viewer, settings))), theme, { width: 340, height: 700 });
        try {
          await checkView(page, "#chat-log", `attack-card-${stage}-${theme}`);
          expect(await page.locator(`[data-action="${action}"]`).count(), stage).toBeGreaterThan(0);
          const controls = await controlsIn(page, "#chat-log");
          const stops = await tabThrough(page, "#chat-log");
          expect(stops.length, `${stage}: tab stops`).toBe(controls.length);
          expect(stops.filter((s) => !s.marked), `${stage}: focus not marked`).toEqual([]);
        } finally {
          await release(page);
        }
      }
    }
  });
});

// ── dialogs ─────────────────────────────────────────────────────────────────────────────────

describe("accessibility of the dialogs", () => {
  const dialogs: Record<string, () => string> = {
    roll: () =>
      dialogFrame(
        "Agy (dex)",
        renderTemplate("templates/dialog/roll-dialog.hbs", rollDialogContext({ subject: "Kestrel: Agy (dex)", value: 30, karmaPool: 56, talents: ["Marksman"], talentCs: "+1", talentShift: 1 }, DEFAULT_ROLL_INPUT, "roll1")),
        [localize("CASE.Dialog.Roll"), localize("CASE.Dialog.Cancel")],
      ),
    attack: () =>
      dialogFrame(
        "Attack",
        renderTemplate("templates/dialog/attack-dialog.hbs", {
          subject: "Kestrel: Bolt",
          attackKey: "CASE.Attack.En",
          rollsOnKey: "CASE.Score.agility.dex",
          rankKey: "CASE.Rank.remarkable",
          value: 30,
          talents: ["Marksman"],
          targetCount: "4",
          ranged: true,
          range: "3",
          // Range from tokens: four targets measured on the board, each one's distance pre-filled.
          measured: true,
          targets: [
            { name: "Doctor Gravelbottom-Featherstonehaugh the Unbreakable", areas: 9 },
            { name: "Dock Thug", areas: 1 },
            { name: "Miss Incomprehensibilities", areas: 4 },
            { name: "Shade", areas: 6 },
          ],
          charge: false,
          canCallShot: true,
          karmaPool: 56,
          karmaMinimum: 10,
          input: DEFAULT_ATTACK_INPUT,
          obstacleOptions: obstacleOptions(DEFAULT_ATTACK_INPUT.obstacleStrength),
          id: "attack1",
        }),
        [localize("CASE.Dialog.Attack"), localize("CASE.Dialog.Cancel")],
      ),
    column: () => dialogFrame(localize("CASE.Macro.ColumnPrompt.Title"), renderTemplate("templates/dialog/column-roll.hbs", columnPromptContext("remarkable", "column1")), [localize("CASE.Dialog.Roll"), localize("CASE.Dialog.Cancel")]),
    damage: () =>
      dialogFrame(localize("CASE.Macro.DamagePrompt.Title"), renderTemplate("templates/dialog/damage-prompt.hbs", damagePromptContext(["Gravel", "Dock Thug"], "damage1")), [localize("CASE.Macro.DamagePrompt.Apply"), localize("CASE.Dialog.Cancel")]),
    impact: () =>
      dialogFrame(
        localize("CASE.Impact.PromptTitle"),
        renderTemplate("templates/dialog/impact-prompt.hbs", impactPromptContext(["Kestrel, the Unbreakable Sentinel of the Northern Reach", "Dock Thug"], "impact1")),
        [localize("CASE.Impact.Resolve"), localize("CASE.Dialog.Cancel")],
      ),
    declare: () =>
      dialogFrame(
        "Kestrel",
        renderTemplate("templates/combat/declare.hbs", buildDeclareContext({ name: "Kestrel", offence: 30, current: null, change: false, declaredDodge: true }, localize)),
        [localize("CASE.Turn.Button.Declare"), localize("CASE.Dialog.Cancel")],
      ),
    "defence choice": () => {
      const state = createRulesExchange(exchangeInput({ targets: [exchangeTarget({ name: "Kestrel, the Unbreakable Sentinel of the Northern Reach" })] }));
      const row = attackCardContext(state, { isGM: false, owns: () => true, isNpc: () => false }, { hideNpcDefences: false, ownersApplyDamage: false }).rows[0];
      if (!row) throw new Error("The card has no row.");
      const buttons = [...row.defenceButtons.map((b) => localize(b.labelKey)), localize("CASE.Defence.none")];
      return dialogFrame(localize("CASE.Exchange.ChooseDefenceFor", { name: row.name }), renderTemplate("templates/dialog/defence-choice.hbs", { row, source: state.source }), buttons);
    },
    "roll request": () =>
      dialogFrame(localize("CASE.RollRequest.DialogTitle"), renderTemplate("templates/dialog/roll-request.hbs", rollRequestDialogContext("request1", ["Kestrel", "Wren"])), [localize("CASE.RollRequest.Send"), localize("CASE.Dialog.Cancel")]),
    "roll requested": () =>
      dialogFrame(
        "Kestrel: Endurance",
        renderTemplate(
          "templates/dialog/roll-dialog.hbs",
          rollDialogContext({ subject: "Kestrel: Endurance", value: 30, karmaPool: 56, talents: [], talentCs: "0", talentShift: 0, intensityFixed: true }, { ...DEFAULT_ROLL_INPUT, intensity: 40 }, "roll2"),
        ),
        [localize("CASE.Dialog.Roll"), localize("CASE.Dialog.Cancel")],
      ),
  };
  for (const theme of THEMES) {
    for (const [name, html] of Object.entries(dialogs)) {
      it(`accessibility: ${name} dialog, ${theme} theme; every field reached by Tab`, async () => {
        const page = await open(html(), theme, { width: 480, height: 700 });
        try {
          await checkView(page, "dialog.application", `dialog-${name}-${theme}`);
          const controls = await controlsIn(page, "dialog.application");
          const stops = await tabThrough(page, "dialog.application");
          expect(stops.length).toBe(controls.length);
          expect(stops.filter((s) => !s.marked)).toEqual([]);
        } finally {
          await release(page);
        }
      });
    }
  }
});

// ── the Universal Table window ──────────────────────────────────────────────────────────────

describe("accessibility of the Universal Table window", () => {
  const html = () =>
    renderSheet({ table: UNIVERSAL_TABLE_TEMPLATE }, universalTableContext(UNIVERSAL_TABLE, "remarkable"), { classes: tableOptions.classes, title: "Universal Table", position: { width: tableOptions.position.width } });
  for (const theme of THEMES) {
    it(`accessibility: the Universal Table window, ${theme} theme; keyboard operable; every band lettered`, { timeout: 60_000 }, async () => {
      const page = await open(html(), theme, { width: 1180, height: 760 });
      try {
        await checkView(page, "form.application", `universal-table-${theme}`);
        const controls = await controlsIn(page, "form.application");
        const stops = await tabThrough(page, "form.application");
        expect(stops.length).toBe(controls.length);
        expect(stops.filter((s) => !s.marked)).toEqual([]);
        // Space on a column heading selects it (a button: the click reaches the window's handler).
        await page.locator('th.utable-head[data-rank="amazing"] button').focus();
        await page.keyboard.press("Space");
        expect((await recordedClicks(page)).at(-1)).toMatchObject({ action: "caseSelectColumn", dataset: { rank: "amazing" } });
        const letters = await page.locator("td.utable-cell:not(.empty), .utable-summary li").evaluateAll((els) => els.map((e) => getComputedStyle(e, "::before").content));
        expect(letters.length).toBe(17 * 4 - (await page.locator("td.utable-cell.empty").count()) + 4);
        for (const l of letters) expect(l).toMatch(/^"[WGYR]"$/);
      } finally {
        await release(page);
      }
    });
  }
});

// ── the combat tracker ──────────────────────────────────────────────────────────────────────

describe("accessibility of the combat tracker", () => {
  const COMBAT = "combat0000000001";
  const JUDGE: AskingUser = { id: "gm00000000000000", isGM: true, active: true, name: "Judge" };
  const PLAYER: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
  const stats = (s: Partial<CombatantStats> = {}): CombatantStats => ({ initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6, ...s });

  /** The directory of combats the tracker test hands the GM's handlers. */
  let turns: TurnDirectory = NO_TURNS;

  async function trackerWorld(): Promise<TurnWorld> {
    const w = turnWorld(
      [
        worldCombatant("hero000000000001", stats({ offence: 50, initiativeModifier: 2, freeDefences: 2 }), { name: "Kestrel", playerOwned: true, owners: [PLAYER.id] }),
        worldCombatant("hero000000000002", stats(), { name: "Wren", playerOwned: true }),
        worldCombatant("villain000000001", stats({ offence: 30, initiativeModifier: 3 }), { name: "Doctor Dread" }),
      ],
      {},
      COMBAT,
    );
    turns = {
      engine: (id) => (id === COMBAT ? w.engine : null),
      owns: (user, _c, id) => w.combatants.find((c) => c.id === id)?.owners.includes(user.id) ?? null,
      nameOf: (_c, id) => w.combatants.find((c) => c.id === id)?.name ?? id,
    };
    await w.engine.declare("hero000000000001", parseDeclaration({ text: "Two jabs at the doctor", kind: "attack", attack: "BA", actions: 2 }));
    await w.engine.declare("villain000000001", parseDeclaration({ text: "Death ray", kind: "attack", attack: "En" }));
    return w;
  }

  function trackerHtml(w: TurnWorld, viewer: AskingUser): string {
    const input = trackerInputFor(w, viewer);
    const ctx = { case: buildTrackerContext(input, localize) };
    const parts = `${renderTemplate("templates/combat/tracker.hbs", ctx)}${renderTemplate("templates/combat/footer.hbs", ctx)}`;
    return `<style>.sidebar-stand-in { width: 300px; } .sidebar-stand-in .window-content { padding: 0; }</style>
<section id="combat" class="application sidebar-stand-in case tab sidebar-tab combat-sidebar" data-tab="combat">
  <header class="window-header"><h1 class="window-title">Combat Encounters</h1></header>
  <div class="window-content">${parts}</div>
</section>`;
  }

  it("accessibility: the tracker for the Judge and a player, declare and extra-action phases, both themes; keyboard operable", { timeout: 120_000 }, async () => {
    const w = await trackerWorld();
    const gm = gmRouter(JUDGE, new Map([JUDGE, PLAYER].map((u) => [u.id, u])));
    gm.services.turns = turns;
    const checkPhase = async (phase: string) => {
      for (const theme of THEMES) {
        for (const viewer of [JUDGE, PLAYER]) {
          const page = await open(trackerHtml(w, viewer), theme, { width: 340, height: 900 });
          try {
            await checkView(page, "#combat", `tracker-${phase}-${viewer.isGM ? "gm" : "player"}-${theme}`);
            const controls = await controlsIn(page, "#combat");
            const stops = await tabThrough(page, "#combat");
            expect(stops.length).toBe(controls.length);
            expect(stops.filter((s) => !s.marked)).toEqual([]);
          } finally {
            await release(page);
          }
        }
      }
    };
    try {
      await checkPhase("declare");
      w.dice.push(30);
      expect(await gm.router.runLocally(advancePhaseQuery, advanceRequest(COMBAT, { from: "declare", force: "true" }, true))).toEqual({ ok: true, value: { changed: true } });
      await checkPhase("extra");
    } finally {
      gm.services.turns = NO_TURNS;
    }
  });
});

// ── other chat cards ────────────────────────────────────────────────────────────────────────

describe("accessibility of the other chat cards", () => {
  const cards: Record<string, () => string> = {
    "damage-summary": () =>
      renderTemplate("templates/chat/damage-summary.hbs", {
        amount: 30,
        targets: [
          { uuid: "a", name: "Gravel", before: 40, after: 10, max: 80, reachedZero: false },
          { uuid: "b", name: "Dock Thug", before: 20, after: 0, max: 20, reachedZero: true },
        ],
        by: "Judge",
      }),
    "roll-error": () => renderTemplate("templates/chat/roll-error.hbs", { message: "The roll's data could not be read.", total: 42 }),
    "turn-card": () => renderTemplate("templates/combat/chat-card.hbs", { title: localize("CASE.Turn.Chat.DodgeTitle"), lines: ["Kestrel: 40, Green"], dice: [{ formula: "1d100", total: 40 }] }),
  };
  for (const theme of THEMES) {
    for (const [name, html] of Object.entries(cards)) {
      it(`accessibility: ${name} card, ${theme} theme`, async () => {
        const page = await open(chatColumn(html()), theme, { width: 340, height: 300 });
        try {
          await checkView(page, "#chat-log", `${name}-${theme}`);
        } finally {
          await release(page);
        }
      });
    }
  }
});

// ── the band palette under colour-blindness ─────────────────────────────────────────────────

/** The smallest CIEDE2000 distance allowed between two bands, for every vision below. */
const MIN_BAND_DISTANCE = 20;
/** WCAG AA for normal text. */
const MIN_TEXT_CONTRAST = 4.5;

describe("accessibility of the band palette", () => {
  it("accessibility: the four bands stay apart under deuteranopia, protanopia and tritanopia; their text reads at 4.5:1", async () => {
    const page = await open("<div class='case'></div>", "light");
    try {
      const palette = await page.evaluate((colors) => {
        const probe = document.createElement("div");
        document.body.append(probe);
        const read = (name: string) => {
          probe.style.color = `var(${name})`;
          return getComputedStyle(probe).color;
        };
        const out = Object.fromEntries(colors.map((c) => [c, { fill: read(`--case-color-${c}`), text: read(`--case-color-${c}-text`) }]));
        probe.remove();
        return out;
      }, [...COLORS]);
      const fills = Object.fromEntries(Object.entries(palette).map(([c, v]) => [c, parseRgb(v.fill)])) as Record<string, Rgb>;
      for (const c of COLORS) {
        const p = palette[c];
        if (!p) throw new Error(`No palette entry for ${c}`);
        expect(contrastRatio(parseRgb(p.text), parseRgb(p.fill)), `${c}: text on its band`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }
      const visions: Vision[] = ["normal", "deuteranopia", "protanopia", "tritanopia"];
      for (const vision of visions) {
        for (const d of bandDistances(fills, vision)) {
          expect(d.distance, `${vision}: ${d.a} and ${d.b}`).toBeGreaterThanOrEqual(MIN_BAND_DISTANCE);
        }
      }
    } finally {
      await release(page);
    }
  });
});
