/**
 * The Universal Table window and the `[[/case …]]` enricher in Chromium, with the system's
 * real stylesheets.
 *
 * The window: the real template rendered by the harness from `universalTableContext`; a column
 * heading clicked as a person would; the click the page records fed to the window's real
 * action handler; the part re-rendered from the real context function with the new selection
 * (as ApplicationV2 replaces a part); the highlight checked by computed style. Screenshots:
 * test/artifacts/universal-table.png (light) and universal-table-dark.png.
 *
 * The enricher: src/foundry/enrichers.ts bundled by vite for the page, on stand-ins for the
 * few Foundry globals it touches (a Roll that records what it is given, game.i18n over the
 * real en.json); journal text enriched match by match as Foundry's enricher loop does; links
 * clicked and the CaseRoll it built read back. Screenshot: test/artifacts/enricher.png.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../../src/foundry/column-roll", () => ({ rollColumn: vi.fn(() => Promise.resolve(null)) }));

import type { Page } from "playwright-core";
import { UniversalTableApp } from "../../src/foundry/apps/table/universal-table-app";
import { UNIVERSAL_TABLE_ACTIONS, UNIVERSAL_TABLE_TEMPLATE, universalTableContext, type UniversalTableHost } from "../../src/foundry/apps/table/universal-table-context";
import { UNIVERSAL_TABLE, type RankKey } from "../../src/rules/index";
import { pageBundle, picture, ORIGIN, type RecordedClick, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { EN, markPart, renderSheet, renderTemplate } from "../support/handlebars";
import { fakeTarget } from "../support/foundry-stubs";
import { flattenKeys } from "../support/lang";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const OPTIONS = UniversalTableApp.DEFAULT_OPTIONS as { classes: string[]; position: { width: number } };

/**
 * Font Awesome is Foundry's, not ours: a stand-in glyph for the die icon so the roll buttons
 * are not blank in the screenshot.
 */
const ICON_STAND_IN = `<style>.fa-dice-d20::before { content: "\\2684"; font-style: normal; } .fa-triangle-exclamation::before { content: "\\26A0"; font-style: normal; }</style>`;

const browser = sharedBrowser();

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

function windowHtml(selected: RankKey): string {
  return renderSheet({ table: UNIVERSAL_TABLE_TEMPLATE }, universalTableContext(UNIVERSAL_TABLE, selected), {
    classes: OPTIONS.classes,
    title: "Universal Table",
    position: { width: OPTIONS.position.width },
  });
}

async function open(html: string, theme: "light" | "dark"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await page.setViewportSize({ width: 1180, height: 700 });
  await showPage(page, sheetDocument(html, theme, STYLESHEETS).replace("</head>", `${ICON_STAND_IN}</head>`));
  return page;
}

/** The window's state as the page shows it: selected heading, highlighted cells, the select's value. */
async function highlight(page: Page) {
  return page.evaluate(() => {
    const heads = [...document.querySelectorAll<HTMLElement>("th.utable-head.selected")].map((h) => h.dataset.rank);
    const cells = [...document.querySelectorAll<HTMLElement>("td.selected")].map((c) => c.dataset.rank);
    const select = document.querySelector<HTMLSelectElement>("select[data-case-column-select]");
    return { heads, cells: [...new Set(cells)], cellCount: cells.length, select: select?.value };
  });
}

/** Computed styles of one column's heading button and its first band cell. */
async function columnStyle(page: Page, key: string) {
  return page.evaluate((k) => {
    const button = document.querySelector(`th.utable-head[data-rank="${k}"] button`);
    const cell = document.querySelector(`td.utable-cell[data-rank="${k}"]`);
    const ink = getComputedStyle(document.documentElement).getPropertyValue("--case-color-white-text").trim();
    const probe = document.createElement("div");
    probe.style.color = ink;
    document.body.append(probe);
    const inkRgb = getComputedStyle(probe).color;
    probe.remove();
    return {
      headBackground: button ? getComputedStyle(button).backgroundColor : null,
      cellShadow: cell ? getComputedStyle(cell).boxShadow : null,
      cellWeight: cell ? getComputedStyle(cell).fontWeight : null,
      inkRgb,
    };
  }, key);
}

describe("the Universal Table window in Chromium", () => {
  it("clicking a column heading selects it: the real handler, re-rendered from the real context, highlighted", async () => {
    const page = await open(windowHtml("typical"), "light");
    try {
      expect(await highlight(page)).toEqual({ heads: ["typical"], cells: ["typical"], cellCount: 5, select: "typical" });

      // A person clicks the "Rm" heading.
      await page.locator('th.utable-head[data-rank="remarkable"] button').click();
      const clicks: RecordedClick[] = await recordedClicks(page);
      expect(clicks.map((c) => [c.action, c.dataset.rank])).toEqual([["caseSelectColumn", "remarkable"]]);

      // The window's own handler, on a host that keeps the selection as the window does.
      let selected: RankKey = "typical";
      const host: UniversalTableHost = {
        selectColumn: (key) => {
          selected = key;
          return Promise.resolve();
        },
        rollOnColumn: () => Promise.reject(new Error("A heading must not roll.")),
      };
      const click = clicks[0] as RecordedClick;
      await UNIVERSAL_TABLE_ACTIONS[click.action as keyof typeof UNIVERSAL_TABLE_ACTIONS].call(host, {} as PointerEvent, fakeTarget(click.dataset));
      expect(selected).toBe("remarkable");

      // Re-render the part from the real context, as ApplicationV2 replaces a part's element.
      const part = markPart(renderTemplate(UNIVERSAL_TABLE_TEMPLATE, universalTableContext(UNIVERSAL_TABLE, selected)), "table");
      await page.evaluate((html) => {
        const old = document.querySelector('[data-application-part="table"]');
        if (!old) throw new Error("No table part.");
        old.outerHTML = html;
      }, part);

      expect(await highlight(page)).toEqual({ heads: ["remarkable"], cells: ["remarkable"], cellCount: 5, select: "remarkable" });
      const chosen = await columnStyle(page, "remarkable");
      const other = await columnStyle(page, "typical");
      expect(chosen.headBackground).toBe(chosen.inkRgb); // the heading is filled with the palette's ink
      expect(other.headBackground).toBe("rgba(0, 0, 0, 0)");
      expect(chosen.cellShadow).toContain("inset");
      expect(other.cellShadow).toBe("none");
      expect(Number(chosen.cellWeight)).toBeGreaterThan(Number(other.cellWeight));
      expect((await page.locator("button.utable-roll-selected").textContent())?.trim()).toBe("Roll on Remarkable");

      // A die under a column rolls on that column.
      await page.locator('td.utable-foot[data-rank="monstrous"] button').click();
      const roll = (await recordedClicks(page))[1];
      expect([roll?.action, roll?.dataset.rank]).toEqual(["caseRollColumn", "monstrous"]);
      const rolled: RankKey[] = [];
      await UNIVERSAL_TABLE_ACTIONS.caseRollColumn.call(
        {
          selectColumn: () => Promise.resolve(),
          rollOnColumn: (key: RankKey) => {
            rolled.push(key);
            return Promise.resolve();
          },
        },
        {} as PointerEvent,
        fakeTarget(roll?.dataset ?? {}),
      );
      expect(rolled).toEqual(["monstrous"]);

      await picture(page.locator("form.application"), { path: "test/artifacts/universal-table.png" });
    } finally {
      await page.close();
    }
  });

  it("lays out all seventeen columns at the window's width: nothing overflows, every range readable", async () => {
    const page = await open(windowHtml("shiftX"), "dark");
    try {
      const layout = await page.evaluate(() => {
        const content = document.querySelector(".window-content");
        const table = document.querySelector("table.utable");
        const cells = [...document.querySelectorAll<HTMLElement>("td.utable-cell, th.utable-head")];
        return {
          contentOverflow: content ? content.scrollWidth - content.clientWidth : -1,
          tableWidth: table?.getBoundingClientRect().width ?? 0,
          contentWidth: content?.clientWidth ?? 0,
          clipped: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${c.dataset.rank ?? ""}: ${c.textContent.trim()}`),
          columns: new Set([...document.querySelectorAll<HTMLElement>("th.utable-head")].map((h) => Math.round(h.getBoundingClientRect().width))).size,
          background: getComputedStyle(document.querySelector('td.utable-cell.color-red[data-rank="shift0"]') ?? document.body).backgroundColor,
        };
      });
      expect(layout.contentOverflow).toBeLessThanOrEqual(0);
      expect(layout.tableWidth).toBeLessThanOrEqual(layout.contentWidth);
      expect(layout.clipped).toEqual([]);
      expect(layout.columns).toBe(1); // fixed layout: every column the same width
      expect(layout.background).toBe("rgb(210, 63, 14)"); // --case-color-red (#d23f0e)
      expect(await highlight(page)).toMatchObject({ heads: ["shiftX"] });
      await picture(page.locator("form.application"), { path: "test/artifacts/universal-table-dark.png" });
    } finally {
      await page.close();
    }
  });
});

// ── the enricher ──────────────────────────────────────────────────────────────────────────────

/** src/foundry/enrichers.ts and everything it imports, bundled for the page. */
function enricherBundle(): Promise<string> {
  return pageBundle("src/foundry/enrichers.ts", "CaseEnrichers");
}

/** The few Foundry globals the enricher and CaseRoll touch, in the page. */
function foundryStandIns(): string {
  const strings = Object.fromEntries([...flattenKeys(EN)].filter(([, v]) => typeof v === "string"));
  return `
window.__rolls = [];
window.__notes = [];
window.__dice = [];
const STRINGS = ${JSON.stringify(strings)};
const lookup = (key) => { if (!(key in STRINGS)) throw new Error("en.json has no " + key); return STRINGS[key]; };
window.game = {
  user: { name: "Alice", character: null },
  i18n: {
    localize: lookup,
    format: (key, data) => lookup(key).replace(/\\{([A-Za-z0-9_]+)\\}/g, (m, n) => (n in data ? String(data[n]) : m)),
  },
};
window.ui = { notifications: { error: (m) => window.__notes.push(m), warn: (m) => window.__notes.push(m) } };
window.ChatMessage = { getSpeaker: ({ actor }) => ({ actor: actor.id, alias: actor.name }) };
window.CONFIG = { TextEditor: { enrichers: [] }, CASE: { universalTable: ${JSON.stringify(UNIVERSAL_TABLE)} } };
window.Roll = class Roll {
  constructor(formula, data = {}, options = {}) { this.formula = formula; this.data = data; this.options = options; this._evaluated = false; }
  async evaluate() { this.total = window.__dice.shift() ?? 50; this._evaluated = true; return this; }
  async toMessage(data) { window.__rolls.push({ className: this.constructor.name, check: this.options.case, speaker: data.speaker, total: this.total }); }
};
`;
}

/**
 * Foundry's enricher loop, as much as a custom enricher sees of it: each match of each text node
 * replaced by the element returned. An enricher with an id has its element wrapped in an
 * <enriched-content> element, whose onRender callback runs once it is in the page
 * (TextEditorEnricherConfig: "id … Required if you want to use the onRender callback"; "onRender:
 * invoked when the enriched content is added to the DOM"). Nothing listens on the document.
 */
const ENRICH = `
async function enrich(root) {
  for (const { id, pattern, enricher, onRender } of CONFIG.TextEditor.enrichers) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.textContent;
      const parts = [];
      let last = 0;
      for (const match of text.matchAll(pattern)) {
        parts.push(document.createTextNode(text.slice(last, match.index)));
        const element = await enricher(match, {});
        let part = element ?? document.createTextNode(match[0]);
        if (element && id) {
          part = document.createElement("enriched-content");
          part.dataset.enricherId = id;
          part.append(element);
          rendered.push([onRender, part]);
        }
        parts.push(part);
        last = match.index + match[0].length;
      }
      if (parts.length === 0) continue;
      parts.push(document.createTextNode(text.slice(last)));
      node.replaceWith(...parts);
    }
  }
  for (const [onRender, part] of rendered) onRender?.(part);
}
const rendered = [];
`;

const JOURNAL = `
<section class="journal-page-content" style="max-width: 720px; padding: 12px 16px;">
  <h2>The Chasm</h2>
  <p>Anyone may try to jump: [[/case remarkable]]{Leap the chasm}. A Judge who wants the bare column writes [[/case 30]] or [[/case Shift X]].</p>
  <p>The troll swings its club: [[/case attack BA incredible]]. Its rock: [[/case attack bt 20]]{Thrown boulder}.</p>
  <p>Typos show, and roll nothing: [[/case mighty]], [[/case attack ZZ good]], [[/case]].</p>
  <p>Markup typed in the text stays text: [[/case &lt;img src=x onerror="window.__pwned=1"&gt;]], [[/case good]]{&lt;b&gt;bold&lt;/b&gt;}.</p>
</section>`;

/** What a player with no character is told when a check link is clicked (en.json). */
const EN_NO_CHARACTER = ((EN as { CASE: { RollRequest: { NoCharacter: string } } }).CASE.RollRequest.NoCharacter);

describe("the [[/case …]] enricher in Chromium", () => {
  it("renders clickable rolls and visible, localised errors; a click rolls the right CaseRoll", async () => {
    const bundle = await enricherBundle();
    const page = await (await browser.get()).context.newPage();
    try {
      await page.setViewportSize({ width: 800, height: 400 });
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${STYLESHEETS.map((s) => `<link rel="stylesheet" href="/${s}">`).join("")}${ICON_STAND_IN}
<style>body { margin: 0; padding: 16px; font-family: "Signika", Arial, sans-serif; font-size: 14px; background: #ece8dd; color: #1d1c1a; }</style></head>
<body class="theme-light"><div class="journal-entry-page">${JOURNAL}</div></body></html>`;
      await showPage(page, html);
      await page.addScriptTag({ content: foundryStandIns() });
      await page.addScriptTag({ content: bundle });
      await page.addScriptTag({ content: `${ENRICH}\nCaseEnrichers.registerEnrichers(); window.__enriched = enrich(document.querySelector(".journal-page-content"));` });
      await page.evaluate(() => (window as unknown as { __enriched: Promise<void> }).__enriched);
      expect(page.url()).toBe(`${ORIGIN}/`);

      const links = await page.locator("a.case-table-roll").evaluateAll((els) => els.map((e) => [e.textContent.trim(), (e as HTMLElement).dataset.tooltip]));
      expect(links).toEqual([
        ["Leap the chasm", "Roll Remarkable (30) on the Universal Table"],
        ["Remarkable (30)", "Roll Remarkable (30) on the Universal Table"],
        ["Shift X (150)", "Roll Shift X (150) on the Universal Table"],
        ["Blunt Attack on Incredible (40)", "Roll Blunt Attack on Incredible (40) on the Universal Table"],
        ["Thrown boulder", "Roll Blunt Throwing on Excellent (20) on the Universal Table"],
        ["<b>bold</b>", "Roll Good (10) on the Universal Table"],
      ]);
      const errors = await page.locator(".case-enricher-error").evaluateAll((els) => els.map((e) => [e.textContent.trim(), (e as HTMLElement).title]));
      expect(errors).toEqual([
        ["CASE roll: “mighty” is not a column. Use a rank (remarkable, Rm, Shift X) or a rank number (30).", "[[/case mighty]]"],
        ["CASE roll: “ZZ” is not an attack type (BA, EA, BT, ET, En, Fo, Sh, Gb, Gp, Ch).", "[[/case attack ZZ good]]"],
        ["CASE roll: name a column, for example “/case remarkable” or “/case 30”.", "[[/case]]"],
        [`CASE roll: “<img src=x onerror="window.__pwned=1">” is not a column. Use a rank (remarkable, Rm, Shift X) or a rank number (30).`, `[[/case <img src=x onerror="window.__pwned=1">]]`],
      ]);
      // Markup typed in the text is never markup in the page.
      expect(await page.locator(".journal-page-content img, .journal-page-content b").count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      const errorColor = await page.locator(".case-enricher-error").first().evaluate((e) => getComputedStyle(e).color);
      expect(errorColor).toBe("rgb(168, 50, 11)"); // --case-ink-red on the light theme (#a8320b)

      // Clicks: the labelled leap, then the troll's club (a 91: red, Stun for a Blunt Attack), then Enter on the boulder.
      await page.evaluate(() => {
        (window as unknown as { __dice: number[] }).__dice.push(40, 91, 5);
      });
      await page.getByText("Leap the chasm").click();
      await page.getByText("Blunt Attack on Incredible (40)").click();
      await page.getByText("Thrown boulder").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => (window as unknown as { __rolls: unknown[] }).__rolls.length === 3);
      const rolls = await page.evaluate(() => (window as unknown as { __rolls: { className: string; check: Record<string, unknown>; speaker: unknown; total: number }[] }).__rolls);
      expect(rolls.map((r) => r.className)).toEqual(["CaseRoll", "CaseRoll", "CaseRoll"]);
      expect(rolls[0]?.check).toMatchObject({ value: 30, attack: null, label: "Leap the chasm", localizeLabel: false, shifts: [], karma: 0 });
      expect(rolls[1]?.check).toMatchObject({ value: 40, attack: "BA", label: "CASE.Attack.BA", localizeLabel: true });
      expect(rolls[2]?.check).toMatchObject({ value: 20, attack: "BT", label: "Thrown boulder" });
      expect(rolls.map((r) => r.speaker)).toEqual(Array(3).fill({ scene: null, actor: null, token: null, alias: "Alice" }));
      expect(await page.evaluate(() => (window as unknown as { __notes: string[] }).__notes)).toEqual([]);

      // An error is not a link: clicking it rolls nothing.
      await page.getByText("“mighty” is not a column", { exact: false }).click();
      expect(await page.evaluate(() => (window as unknown as { __rolls: unknown[] }).__rolls.length)).toBe(3);

      // A window popped out into a document of its own (Foundry 14): the link's own listener goes with it.
      const popped = await page.evaluate(() => {
        const frame = document.createElement("iframe");
        document.body.append(frame);
        const doc = frame.contentDocument as Document;
        const link = document.querySelectorAll("a.case-table-roll")[1] as HTMLElement;
        doc.body.append(doc.adoptNode(link.closest("enriched-content") as HTMLElement));
        (window as unknown as { __dice: number[] }).__dice.push(50);
        (doc.querySelector("a.case-table-roll") as HTMLElement).click();
        return doc.querySelectorAll("a.case-table-roll").length;
      });
      expect(popped).toBe(1);
      await page.waitForFunction(() => (window as unknown as { __rolls: unknown[] }).__rolls.length === 4);

      await picture(page.locator(".journal-page-content"), { path: "test/artifacts/enricher.png" });
    } finally {
      await page.close();
    }
  }, 60_000);

  it("request card: check links name the roll asked for, an unknown score is a visible error, and a player without a character is told so", async () => {
    const bundle = await enricherBundle();
    const page = await (await browser.get()).context.newPage();
    try {
      const journal = `<section class="journal-page-content"><p>Everyone roll [[/case check endurance incredible]]{Hold your breath}, then [[/case check End(res)]],
        [[/case check psyche Rm]] and [[/case check luck]].</p></section>`;
      await showPage(page, `<!doctype html><html lang="en"><head><meta charset="utf-8">${STYLESHEETS.map((s) => `<link rel="stylesheet" href="/${s}">`).join("")}</head><body class="theme-light">${journal}</body></html>`);
      await page.addScriptTag({ content: foundryStandIns() });
      await page.addScriptTag({ content: bundle });
      await page.addScriptTag({ content: `${ENRICH}\nCaseEnrichers.registerEnrichers(); window.__enriched = enrich(document.querySelector(".journal-page-content"));` });
      await page.evaluate(() => (window as unknown as { __enriched: Promise<void> }).__enriched);
      const links = await page.locator("a.case-table-roll").evaluateAll((els) => els.map((e) => [e.textContent.trim(), (e as HTMLElement).dataset.action, (e as HTMLElement).dataset.caseCheck]));
      expect(links).toEqual([
        ["Hold your breath", "caseCheckRoll", "endurance"],
        ["Roll End (res)", "caseCheckRoll", "endurance.res"],
        ["Roll Psyche against Remarkable", "caseCheckRoll", "psyche"],
      ]);
      const errors = await page.locator(".case-enricher-error").evaluateAll((els) => els.map((e) => e.textContent.trim()));
      expect(errors).toEqual(["CASE roll: “luck” is not an ability or sub-score (endurance, End, endurance.res, End(res))."]);
      // A player (the stand-in user has no character and nothing is selected) is told what to do; nothing is rolled.
      await page.getByText("Hold your breath").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => (window as unknown as { __notes: string[] }).__notes.length === 1);
      expect(await page.evaluate(() => (window as unknown as { __notes: string[] }).__notes)).toEqual([EN_NO_CHARACTER]);
      expect(await page.evaluate(() => (window as unknown as { __rolls: unknown[] }).__rolls.length)).toBe(0);
    } finally {
      await page.close();
    }
  }, 60_000);
});
