/**
 * The roll dialog preview, live, in Chromium: the dialog's real template with the system's
 * stylesheets, and `livePreview` (src/foundry/dice/roll-dialog.ts, bundled by vite) wired to
 * the form as the dialog's render callback does. Foundry's two helpers it calls are stood in
 * for: FormDataExtended (the form's values, numbers as numbers and checkboxes as booleans, as
 * Foundry documents it) and renderTemplate (the harness's real Handlebars, in node, through
 * page.exposeFunction). A person types; the preview follows.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { rollDialogContext, type RollDialogSubject } from "../../src/foundry/dice/roll-dialog";
import { DEFAULT_ROLL_INPUT } from "../../src/foundry/dice/roll-input";
import { pageBundle, FRAME_CSS, picture, sharedBrowser, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { renderTemplate } from "../support/handlebars";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
/** Kestrel's Agy (dex): Remarkable 30, Marksman +1 CS, 56 Karma. */
const DEX: RollDialogSubject = { subject: "Kestrel: Agy (dex)", value: 30, karmaPool: 56, talents: ["Marksman"], talentCs: "+1", talentShift: 1 };

function dialogBundle(): Promise<string> {
  return pageBundle("src/foundry/dice/roll-dialog.ts", "CaseRollDialog");
}

/** Foundry's FormDataExtended as documented: named fields; number inputs as numbers (empty → null), checkboxes as booleans. */
const FOUNDRY_STANDINS = `
window.foundry = {
  applications: {
    ux: {
      FormDataExtended: class {
        constructor(form) {
          this.object = {};
          for (const el of form.elements) {
            if (!el.name) continue;
            if (el.type === "checkbox") this.object[el.name] = el.checked;
            else if (el.type === "number") this.object[el.name] = el.value === "" ? null : Number(el.value);
            else this.object[el.name] = el.value;
          }
        }
      },
    },
    handlebars: { renderTemplate: (path, context) => window.caseRender(path, context) },
  },
};
`;

const browser = sharedBrowser();

async function openDialog(theme: "light" | "dark"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await page.exposeFunction("caseRender", (path: string, context: object) => renderTemplate(path.replace(/^systems\/case\//, ""), context));
  const content = renderTemplate("templates/dialog/roll-dialog.hbs", rollDialogContext(DEX, DEFAULT_ROLL_INPUT, "r1"));
  const links = STYLESHEETS.map((href) => `<link rel="stylesheet" href="/${href}">`).join("\n");
  await showPage(
    page,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>roll</title><style>${FRAME_CSS}</style>${links}</head>
<body class="theme-${theme}"><dialog open class="application dialog" style="width: 420px; position: static;"><header class="window-header"><h1 class="window-title">Kestrel: Agy (dex)</h1></header>
<form class="window-content">${content}</form></dialog></body></html>`,
  );
  await page.addScriptTag({ content: FOUNDRY_STANDINS });
  await page.addScriptTag({ content: await dialogBundle() });
  await page.evaluate((subject) => {
    const form = document.querySelector("form");
    if (!form) throw new Error("no form");
    (window as unknown as { CaseRollDialog: { livePreview(f: HTMLFormElement, s: unknown): void } }).CaseRollDialog.livePreview(form, subject);
  }, DEX);
  return page;
}

beforeAll(() => {
  mkdirSync("test/artifacts", { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

async function previewText(page: Page): Promise<string> {
  return (await page.locator(".roll-dialog-preview").innerText()).replace(/\s+/g, " ").trim();
}

describe("roll dialog preview in Chromium", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`roll dialog preview (${theme}): follows shifts, intensity and Karma as the user types`, async () => {
      const page = await openDialog(theme);
      try {
        // Opening: the talent's +1 counted, Incredible, green needed (green from 31 → 70%).
        await expect(previewText(page)).resolves.toContain("Read on: Incredible (after +1 CS)");
        await expect(previewText(page)).resolves.toContain("Needs: Green · Chance of success: 70%");
        await page.locator('input[name="cs"]').fill("1");
        await page.locator('select[name="intensity"]').selectOption("40");
        await expect.poll(() => previewText(page)).toContain("Read on: Amazing (after +2 CS)");
        await expect.poll(() => previewText(page)).toContain("Needs: Red · Chance of success: 10%");
        await page.locator('input[name="karma"]').fill("10");
        await expect.poll(() => previewText(page)).toContain("Chance of success: 20% (with 10 Karma)");
        await expect(page.locator(".roll-preview-odds .odds").allInnerTexts()).resolves.toEqual(["W 25%", "G 30%", "Y 35%", "R 10%"]);
        await picture(page.locator("dialog"), { path: `test/artifacts/roll-dialog-preview-${theme}.png` });
        await expectAccessible(page, "dialog", `roll dialog preview (${theme})`);
        // A refused entry is named at once, nothing guessed.
        await page.locator('input[name="karma"]').fill("5");
        await expect.poll(() => previewText(page)).toBe("Spend no Karma, or at least 10.");
        await page.locator('input[name="blindsided"]').check();
        await page.locator('input[name="karma"]').fill("0");
        await expect.poll(() => previewText(page)).toContain("Needs: Red");
      } finally {
        await page.close();
      }
    });
  }
});
