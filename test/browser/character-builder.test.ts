/**
 * The character builder window in Chromium, with the system's real stylesheets: a random build
 * with 15 powers and long names, and a point build over its budget with refused edits, in light
 * and dark. The window's real template from `builderContext`; a re-roll button clicked as a
 * person would, the click fed to the window's real handler and the part rendered again from
 * the new state (as ApplicationV2 replaces a part). axe-core finds no serious or critical
 * problem. Screenshots: test/artifacts/character-builder{,-dark,-points}.png.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { BUILDER_ACTIONS, BUILDER_TEMPLATE, CharacterBuilder, type BuilderHost } from "../../src/foundry/apps/builder/character-builder";
import { addEntry, applyEdits, blankBuild, builderContext, rollBuild, type BuilderCatalogue, type BuilderState, type BuilderTarget } from "../../src/foundry/apps/builder/builder-context";
import { randomRank, type RollFn } from "../../src/rules/index";
import { picture, type RecordedClick, recordedClicks, sharedBrowser, sheetDocument, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { renderSheet } from "../support/handlebars";
import { readPack } from "../support/pack-files";
import { fakeTarget } from "../support/foundry-stubs";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const OPTIONS = CharacterBuilder.DEFAULT_OPTIONS as { classes: string[]; position: { width: number; height: number } };

const CATALOGUE: BuilderCatalogue = (() => {
  const entries = (pack: string) =>
    readPack(pack)
      .flatMap(({ doc }) => (doc ? [{ uuid: `Compendium.case.${pack}.Item.${String(doc._id)}`, name: String(doc.name), rank: null }] : []))
      .sort((a, b) => a.name.localeCompare(b.name));
  return { powers: entries("powers"), talents: entries("talents") };
})();

/** A seeded die (a small LCG), so the screenshots are the same every run. */
function seeded(seed: number): RollFn {
  let s = seed;
  return (sides) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return (s % sides) + 1;
  };
}

const contactName = (n: number) => `Contact ${n}`;

/** Font Awesome is Foundry's, not ours: stand-in glyphs so the icon buttons are not blank in the screenshots. */
const ICON_STAND_IN = `<style>
.fa-dice::before { content: "\\2684\\2684"; font-style: normal; }
.fa-dice-d20::before { content: "\\2684"; font-style: normal; }
.fa-shuffle::before { content: "\\21C4"; font-style: normal; }
.fa-trash::before { content: "\\2715"; font-style: normal; }
.fa-plus::before { content: "+"; font-style: normal; }
.fa-check::before { content: "\\2713"; font-style: normal; }
</style>`;

/** A random build, then grown to 15 powers, with a long name and long contacts. */
function bigRandomBuild(): BuilderState {
  let build = rollBuild(seeded(7), CATALOGUE, contactName, "Captain Marvellous Magnificent the Incomparable Third");
  while (build.powers.length < 15) build = addEntry(build, "powers", CATALOGUE, contactName);
  return { ...build, contacts: ["Lieutenant Detective Alexandra Ruiz-Montgomery of the 13th Precinct", "Dr. Okonkwo"] };
}

const browser = sharedBrowser();

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

function windowHtml(build: BuilderState, target: BuilderTarget | null): string {
  return renderSheet({ builder: BUILDER_TEMPLATE }, builderContext(build, CATALOGUE, target), {
    classes: OPTIONS.classes,
    title: "Character builder",
    // The width as the window opens; the height left to the content, so the screenshot shows every step.
    position: { width: OPTIONS.position.width },
  });
}

async function open(html: string, theme: "light" | "dark"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await page.setViewportSize({ width: 820, height: 1400 });
  await showPage(page, sheetDocument(html, theme, STYLESHEETS).replace("</head>", `${ICON_STAND_IN}</head>`));
  return page;
}

const TARGET: BuilderTarget = {
  name: "Kestrel",
  abilities: { fighting: 20, agility: 30, strength: 10, endurance: 20, reason: 10, intuition: 20, psyche: 10 },
  resources: 10,
  popularity: 5,
  health: 80,
  karma: 40,
  items: [],
};

/** One ability row of the builder as laid out: its boxes, and what of it is cut off. */
interface RowBox {
  ability: string;
  input: { top: number; bottom: number; right: number };
  rankName: { left: number; right: number };
  button: { top: number; bottom: number; left: number; right: number } | null;
  row: { left: number; right: number };
  clipped: boolean;
}

/**
 * The abilities, Resources and Popularity in a grid of two or more columns at the window's width;
 * each row's label, number, rank name and re-roll button on one line, none of them overlapping or
 * cut off, and every row inside its column. A point build has no re-roll buttons.
 */
async function expectBuilderGridLaidOut(page: Page, rerolls: boolean): Promise<void> {
  const layout = await page.locator(".case-builder-grid").evaluate((grid) => {
    const box = (el: Element) => el.getBoundingClientRect();
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ").filter(Boolean).length;
    const rows = Array.from(grid.querySelectorAll<HTMLElement>(".case-builder-row[data-ability]")).map((row) => {
      const input = row.querySelector(".case-rank-number") as Element;
      const rankName = row.querySelector(".case-rank-name") as Element;
      const button = row.querySelector(".case-builder-reroll");
      const clipped = [row, ...Array.from(row.querySelectorAll("*"))].some((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline");
      return { ability: row.dataset.ability ?? "", input: box(input), rankName: box(rankName), button: button ? box(button) : null, row: box(row), clipped };
    });
    const popularity = grid.querySelector('input[name="popularity"]') as HTMLElement;
    return { columns, grid: box(grid), rows, popularity: box(popularity) };
  });
  expect(layout.columns).toBeGreaterThanOrEqual(2);
  expect(layout.rows.map((r: RowBox) => r.ability)).toEqual(["fighting", "agility", "strength", "endurance", "reason", "intuition", "psyche", "resources"]);
  for (const r of layout.rows as RowBox[]) {
    expect(r.clipped, `${r.ability}: nothing cut off`).toBe(false);
    expect(r.rankName.left, `${r.ability}: rank name after the number`).toBeGreaterThanOrEqual(r.input.right);
    expect(r.row.right, `${r.ability}: row inside the grid`).toBeLessThanOrEqual(layout.grid.right + 0.5);
    const button = r.button;
    expect(button === null, `${r.ability}: a re-roll button in a random build only`).toBe(!rerolls);
    if (!button) continue;
    // The same line: the button's box and the input's overlap vertically.
    expect(Math.min(button.bottom, r.input.bottom) - Math.max(button.top, r.input.top), `${r.ability}: re-roll on the input's line`).toBeGreaterThan(0);
    expect(button.left, `${r.ability}: re-roll after the rank name`).toBeGreaterThanOrEqual(r.rankName.right);
    expect(button.right, `${r.ability}: re-roll inside its column`).toBeLessThanOrEqual(r.row.right + 0.5);
  }
  // Popularity in the grid too, its number inside it.
  expect(layout.popularity.width).toBeGreaterThan(0);
  expect(layout.popularity.right).toBeLessThanOrEqual(layout.grid.right + 0.5);
  expect(layout.popularity.bottom).toBeLessThanOrEqual(layout.grid.bottom + 0.5);
}

describe("character builder in Chromium", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`a random build with 15 powers and long names (${theme}): laid out without sideways scrolling, accessible`, async () => {
      const page = await open(windowHtml(bigRandomBuild(), null), theme);
      try {
        expect(await page.locator(".case-builder-list select").count()).toBeGreaterThanOrEqual(15);
        const overflow = await page.locator(".window-content").evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await expectBuilderGridLaidOut(page, true);
        await expectAccessible(page, ".case-builder", `character builder (${theme})`);
        await picture(page.locator("form.application"), { path: `test/artifacts/character-builder${theme === "dark" ? "-dark" : ""}.png` });
      } finally {
        await page.close();
      }
    });
  }

  it("a person re-rolls Strength: the click reaches the real handler and the window shows the new rank", async () => {
    const build = bigRandomBuild();
    const page = await open(windowHtml(build, null), "light");
    try {
      await page.locator('button[data-step="ability"][data-key="strength"]').click();
      const clicks: RecordedClick[] = await recordedClicks(page);
      expect(clicks.map((c) => [c.action, c.dataset.step, c.dataset.key])).toEqual([["builderReroll", "ability", "strength"]]);
      const host: BuilderHost = {
        build,
        catalogue: CATALOGUE,
        roll: () => 100,
        contactName,
        refresh: () => Promise.resolve(),
        confirmBuild: () => Promise.reject(new Error("A re-roll must not confirm.")),
      };
      const click = clicks[0] as RecordedClick;
      await BUILDER_ACTIONS.builderReroll.call(host, {} as PointerEvent, fakeTarget(click.dataset));
      expect(host.build.abilities.strength).toBe(randomRank(100));
      await page.setContent(sheetDocument(windowHtml(host.build, null), "light", STYLESHEETS));
      expect(await page.locator('input[name="abilities.strength"]').inputValue()).toBe(String(randomRank(100)));
    } finally {
      await page.close();
    }
  });

  it("a point build over budget with a refused edit, on an existing hero: the problems, what it replaces, confirm disabled; accessible in both themes", async () => {
    let build = blankBuild("points");
    for (let i = 0; i < 12; i++) build = addEntry(build, "powers", CATALOGUE, contactName);
    build = applyEdits(build, { ...Object.fromEntries(build.powers.map((_, i) => [`powers.${i}.rank`, "50"])), "abilities.reason": "-3" }, CATALOGUE);
    for (const theme of ["light", "dark"] as const) {
      const page = await open(windowHtml(build, TARGET), theme);
      try {
        await expect(page.locator("button.case-builder-confirm").isDisabled()).resolves.toBe(true);
        expect(await page.locator(".case-builder-errors").textContent()).toContain("Not a rank number");
        expect(await page.locator(".case-builder-errors").textContent()).toContain("(Reason)");
        expect(await page.locator(".case-builder-points").textContent()).toMatch(/Points: \d+ of 100 spent, \d+ over the budget\./);
        expect(await page.locator(".case-builder-replaces li").count()).toBeGreaterThan(3);
        await expect(page.locator('button[data-action="builderReroll"]').count()).resolves.toBe(0);
        await expectBuilderGridLaidOut(page, false);
        await expectAccessible(page, ".case-builder", `character builder, points (${theme})`);
        await picture(page.locator("form.application"), { path: `test/artifacts/character-builder-points${theme === "dark" ? "-dark" : ""}.png` });
      } finally {
        await page.close();
      }
    }
  });
});
