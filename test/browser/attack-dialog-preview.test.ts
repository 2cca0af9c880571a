/**
 * The attack dialog's preview per target (issue 24, item 5), live, in Chromium: the dialog's
 * real template with the system's stylesheets, the preview built by `attackPreviewContext`
 * (src/foundry/exchange/attack-preview.ts, bundled by vite) and rendered with the real
 * attack-preview template on every input, as the dialog's render callback wires it through the
 * roll dialog's `livePreview`. Foundry's FormDataExtended is stood in for as in the roll dialog
 * preview's test (named fields, number inputs as numbers). A pistol (range 3) at four targets
 * 1, 4, 9 and 2 areas away: each target's own column and odds.
 */
import "../support/foundry-globals";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { AttackPreviewSubject } from "../../src/foundry/exchange/attack-preview";
import { DEFAULT_ATTACK_INPUT, obstacleOptions } from "../../src/foundry/exchange/attack-input";
import { shiftColumn } from "../../src/rules/index";
import { pageBundle, FRAME_CSS, picture, sharedBrowser, showPage } from "../support/browser";
import { expectAccessible } from "../support/accessibility";
import { localize, renderTemplate } from "../support/handlebars";

const STYLESHEETS = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;
const TARGETS = [
  { uuid: "Scene.s.Token.dread00000000001", name: "Doctor Dread, Tyrant of the Underways", areas: 1 },
  { uuid: "Scene.s.Token.bruiser000000001", name: "Gravel Gang Bruiser with the Lead Pipe", areas: 4 },
  { uuid: "Scene.s.Token.sniper0000000001", name: "The Unnamed Sniper on the Clock Tower", areas: 9 },
  { uuid: "Scene.s.Token.cinder0000000001", name: "Captain Cinder of the Burning Legion", areas: 2 },
];
/** Kestrel's pistol: Agy (dex) Remarkable 30, Marksman +1 CS, range 3. */
const SUBJECT: AttackPreviewSubject = {
  attack: "Sh",
  value: 30,
  karmaPool: 56,
  shift: 1,
  setup: { attack: "Sh", basis: "rank", itemRank: 10, strength: 20, endurance: 30, bodyArmor: 0, range: 3 },
  targets: TARGETS.map(({ uuid, name }) => ({ uuid, name })),
};

const FOUNDRY_STANDINS = `
window.foundry = { applications: { ux: { FormDataExtended: class {
  constructor(form) {
    this.object = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") this.object[el.name] = el.checked;
      else if (el.type === "number") this.object[el.name] = el.value === "" ? null : Number(el.value);
      else this.object[el.name] = el.value;
    }
  }
} } } };
`;

const browser = sharedBrowser();
afterAll(async () => {
  await browser.close();
});

async function openDialog(theme: "light" | "dark"): Promise<Page> {
  const page = await (await browser.get()).context.newPage();
  await page.exposeFunction("caseRender", (path: string, context: object) => renderTemplate(path, context));
  const content = renderTemplate("templates/dialog/attack-dialog.hbs", {
    subject: "Kestrel attacks with Pistol",
    attackKey: "CASE.Attack.Sh",
    rollsOnKey: "CASE.Score.agility.dex",
    rankKey: "CASE.Rank.remarkable",
    value: 30,
    talents: ["Marksman"],
    targetCount: "4",
    ranged: true,
    range: "3",
    measured: true,
    charge: false,
    canCallShot: true,
    karmaPool: 56,
    karmaMinimum: 10,
    input: DEFAULT_ATTACK_INPUT,
    targets: TARGETS.map(({ name, areas }) => ({ name, areas })),
    obstacleOptions: obstacleOptions(0),
    id: "atk0000000000001",
  });
  const links = STYLESHEETS.map((href) => `<link rel="stylesheet" href="/${href}">`).join("\n");
  await showPage(
    page,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>attack</title><style>${FRAME_CSS}</style>${links}</head>
<body class="theme-${theme}"><dialog open class="application dialog" style="width: 420px; position: static;"><header class="window-header"><h1 class="window-title">Kestrel attacks with Pistol</h1></header>
<form class="window-content">${content}</form></dialog></body></html>`,
  );
  await page.addScriptTag({ content: FOUNDRY_STANDINS });
  await page.addScriptTag({ content: await pageBundle("src/foundry/exchange/attack-preview.ts", "CaseAttackPreview") });
  // The dialog's render callback: the preview follows every input, and shows at once.
  await page.evaluate((subject) => {
    const form = document.querySelector("form");
    const box = form?.querySelector(".roll-dialog-preview");
    if (!form || !box) throw new Error("no form or preview");
    const w = window as unknown as {
      foundry: { applications: { ux: { FormDataExtended: new (f: HTMLFormElement) => { object: Record<string, unknown> } } } };
      CaseAttackPreview: { attackPreviewContext(s: unknown, v: Record<string, unknown>): object };
      caseRender(path: string, context: object): Promise<string>;
    };
    const update = async () => {
      box.innerHTML = await w.caseRender("templates/dialog/attack-preview.hbs", w.CaseAttackPreview.attackPreviewContext(subject, new w.foundry.applications.ux.FormDataExtended(form).object));
    };
    form.addEventListener("input", () => void update());
    form.dispatchEvent(new Event("input"));
  }, SUBJECT);
  return page;
}

/** The column each target's preview names, in order. */
async function columns(page: Page): Promise<string[]> {
  return (await page.locator(".attack-preview-target .roll-preview-column strong").allInnerTexts()).map((t) => t.trim());
}

const column = (cs: number): string => localize(`CASE.Rank.${shiftColumn(30, cs).rank.key}`);

describe("attack dialog preview in Chromium", () => {
  mkdirSync("test/artifacts", { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    it(`attack dialog preview (${theme}): each target's column after its own range shift and the odds of each result; follows the distances typed`, { timeout: 60_000 }, async () => {
      const page = await openDialog(theme);
      try {
        // Marksman +1, range 3: 1 and 2 areas no shift, 4 areas −1, 9 areas −6 (before: one distance, the farthest's −6, for all).
        await expect.poll(() => columns(page)).toEqual([column(1), column(0), column(-5), column(1)]);
        await expect(page.locator(".attack-preview-target > strong").allInnerTexts()).resolves.toEqual(TARGETS.map((t) => t.name));
        // The odds name the attack's results (a pistol: Miss, Hit, Bullseye, Kill).
        const titles = await page.locator(".attack-preview-target").first().locator(".odds").evaluateAll((els) => els.map((e) => e.getAttribute("title")));
        expect(titles).toEqual(["miss", "hit", "bullseye", "kill"].map((result) => localize(`CASE.AttackResult.${result}`)));
        // The sniper's distance changed to 3: in range, its column moves back; the others stay.
        await page.locator('input[name="distance2"]').fill("3");
        await expect.poll(() => columns(page)).toEqual([column(1), column(0), column(1), column(1)]);
        // A shift typed in the dialog counts for every target.
        await page.locator('input[name="cs"]').fill("-1");
        await expect.poll(() => columns(page)).toEqual([column(0), column(-1), column(0), column(0)]);
        // A refused entry is named once, nothing guessed.
        await page.locator('input[name="distance0"]').fill("-2");
        await expect.poll(() => page.locator(".roll-dialog-preview").innerText()).toBe(localize("CASE.Dialog.Error.Distance"));
        await page.locator('input[name="distance0"]').fill("1");
        const box = await page.locator("dialog").boundingBox();
        console.log(`attack dialog preview (${theme}): dialog ${Math.round(box?.height ?? 0)} px high with 4 targets`);
        await picture(page.locator("dialog"), { path: `test/artifacts/attack-dialog-preview-${theme}.png` });
        const report = await expectAccessible(page, "dialog", `attack dialog preview (${theme})`);
        expect(report.failures).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
