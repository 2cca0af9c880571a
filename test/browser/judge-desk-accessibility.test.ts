/**
 * Accessibility of the Judge's desk views (issue 23 items 1 and 6), in Chromium, in Foundry's
 * light and dark themes, as test/browser/accessibility.test.ts checks the other views: the real
 * templates with the system's real stylesheets, checked by axe-core (zero serious or critical
 * violations) and walked with the Tab key (every control reached, its focus visibly marked).
 * Views: the award dialog (with the FASERIP categories), the heal dialog, the stat-block paste
 * dialog and its preview (with lines not understood), and the team sheet (for the Judge and for
 * a player).
 */
import "../support/foundry-globals";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { dialogFrame, sharedBrowser, themedPage } from "../support/browser";
import { localize, renderSheet, renderTemplate } from "../support/handlebars";
import { stubI18nAndNotifications } from "../support/foundry-stubs";
import { teamSheetContext } from "../../src/foundry/apps/sheet/team-context";
import { TEAM_PARTS } from "../../src/foundry/apps/sheet/team-sheet";
import { controlsIn, expectAccessible, tabThrough } from "../support/accessibility";
import { awardPromptContext } from "../../src/foundry/api/campaign-forms";
import { healDialogContext } from "../../src/foundry/api/heal-forms";
import { statBlockPasteContext, statBlockPreviewContext } from "../../src/foundry/apps/builder/stat-block-import";
import { readStatBlock } from "../../src/rules/index";

type Theme = "light" | "dark";
const THEMES: readonly Theme[] = ["light", "dark"];
const browser = sharedBrowser();

afterAll(async () => {
  await browser.close();
});

// The stat block preview says what the block lacks in the reader's language (game.i18n).
beforeAll(() => {
  stubI18nAndNotifications();
});

const showView = themedPage(browser);

/** A view at this file's size. */
function open(html: string, theme: Theme): Promise<Page> {
  return showView(html, theme, { width: 480, height: 800 });
}


const BLOCK = "Doctor Gravel\nF: Excellent (20)\nA: Good 10\nS: RM (30)\nE: Incredible\nR: Ty (6)\nI: 10\nP: Poor\nHealth: 120\nPowers:\nBody Armor: Remarkable (30)\nStone Skin: Good (30)\nHe hates the sun.";

const dialogs: Record<string, () => string> = {
  "award karma": () =>
    dialogFrame(localize("CASE.Campaign.Award.Title"), renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext(["Kestrel", "Wren"], "award1", "all")), [localize("CASE.Campaign.Award.Give"), localize("CASE.Dialog.Cancel")]),
  heal: () => dialogFrame(localize("CASE.Heal.Title"), renderTemplate("templates/dialog/heal-dialog.hbs", healDialogContext(["Kestrel"], "heal1")), [localize("CASE.Heal.Heal"), localize("CASE.Dialog.Cancel")]),
  "stat block paste": () =>
    dialogFrame(localize("CASE.StatBlock.Title"), renderTemplate("templates/dialog/stat-block-paste.hbs", statBlockPasteContext("sb1", BLOCK)), [localize("CASE.StatBlock.Preview"), localize("CASE.Dialog.Cancel")]),
  "stat block preview": () =>
    dialogFrame(localize("CASE.StatBlock.PreviewTitle"), renderTemplate("templates/dialog/stat-block-preview.hbs", statBlockPreviewContext(readStatBlock(BLOCK))), [localize("CASE.StatBlock.Create"), localize("CASE.Dialog.Cancel")]),
  "stat block preview, incomplete": () =>
    dialogFrame(localize("CASE.StatBlock.PreviewTitle"), renderTemplate("templates/dialog/stat-block-preview.hbs", statBlockPreviewContext(readStatBlock("Mook\nF: Good"))), [localize("CASE.StatBlock.Create"), localize("CASE.Dialog.Cancel")]),
};

describe("accessibility of the Judge's desk", () => {
  for (const theme of THEMES) {
    for (const [name, html] of Object.entries(dialogs)) {
      it(`accessibility: ${name} dialog, ${theme} theme; every field reached by Tab`, { timeout: 60_000 }, async () => {
        const page = await open(html(), theme);
        await expectAccessible(page, "dialog.application", `judge-${name}-${theme}`);
        const controls = await controlsIn(page, "dialog.application");
        const stops = await tabThrough(page, "dialog.application");
        expect(stops.length).toBe(controls.length);
        expect(stops.filter((s) => !s.marked)).toEqual([]);
      });
    }
  }
});

const member = (uuid: string, name: string, health: number, statuses: string[]) => ({ uuid, name, img: null, health: { value: health, max: 110 }, karma: { value: 30, max: 26 }, resources: 10, statuses });

describe("accessibility of the team sheet", () => {
  for (const theme of THEMES) {
    for (const isGM of [true, false]) {
      it(`accessibility: team sheet for ${isGM ? "the Judge" : "a player"}, ${theme} theme; every control reached by Tab`, { timeout: 60_000 }, async () => {
        const team = teamSheetContext({ members: [member("Actor.a", "Kestrel, the Unbreakable Sentinel of the Northern Reach", 20, ["Stunned"]), member("Actor.b", "Wren", 0, ["Unconscious"])], missing: [], pool: 40, isGM });
        const html = renderSheet(TEAM_PARTS, { actor: { name: "The Sentinels" }, team }, { classes: ["case", "sheet", "actor", "team"], title: "The Sentinels", position: { width: 640 } });
        const page = await open(html, theme);
        await expectAccessible(page, ".application", `team-${isGM ? "gm" : "player"}-${theme}`);
        const controls = await controlsIn(page, ".application");
        const stops = await tabThrough(page, ".application");
        expect(stops.length).toBe(controls.length);
        expect(stops.filter((s) => !s.marked)).toEqual([]);
      });
    }
  }
});
