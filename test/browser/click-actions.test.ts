/**
 * The click dispatcher (src/foundry/ui/click-actions.ts) on a real page in Chromium: the
 * module bundled by vite, a card-like root inside an element that has a data-action of its
 * own, and real clicks. What the node test checks on stand-ins, checked on the DOM itself:
 * the closest [data-action] inside the root runs, with the owner as `this` and the element
 * as target; a click elsewhere runs nothing and is left alone; a button is disabled while its
 * action runs; `stopPropagation` keeps the window around from hearing the click.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { pageBundle, sharedBrowser, showPage } from "../support/browser";

const browser = sharedBrowser();

afterAll(async () => {
  await browser.close();
});

/** src/foundry/ui/click-actions.ts bundled for the page, as `CaseClicks`. */
function dispatcherBundle(): Promise<string> {
  return pageBundle("src/foundry/ui/click-actions.ts", "CaseClicks");
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>clicks</title></head><body>
<section id="window" data-action="windowAction">
  <div id="card">
    <p id="text">A line of the card.</p>
    <ul><li data-target-key="t1"><button type="button" id="dodge" data-action="caseDefend" data-target-key="t1" data-defence="dodge"><i id="icon">⚀</i> Dodge</button></li></ul>
    <a id="apply" data-action="caseApply" href="#applied">Apply</a>
    <button type="button" id="unknown" data-action="caseUnknown">?</button>
  </div>
  <p id="link-host"><a id="link" data-action="caseApply" href="#followed"><i id="link-icon">⚀</i> Roll</a></p>
</section>
</body></html>`;

/** Installs the dispatcher on #card (owner msg1) and on #link (owner link, the click stopped there). */
const WIRE = `
window.__calls = [];
window.__heard = [];
document.getElementById("window").addEventListener("click", (event) => {
  window.__heard.push({ target: event.target.id, defaultPrevented: event.defaultPrevented });
});
const actions = {
  caseDefend(event, target) {
    window.__calls.push({ action: "caseDefend", owner: this.id, target: target.id, type: event.type, defence: target.dataset.defence, disabled: target.disabled });
    return new Promise((release) => { window.__release = release; });
  },
  caseApply(event, target) {
    window.__calls.push({ action: "caseApply", owner: this.id, target: target.id, type: event.type });
  },
};
CaseClicks.listenForActions(document.getElementById("card"), actions, { id: "msg1" });
CaseClicks.listenForActions(document.getElementById("link"), actions, { id: "link" }, { stopPropagation: true });
`;

interface Call {
  action: string;
  owner: string;
  target: string;
  type: string;
  defence?: string;
  disabled?: boolean;
}

const calls = (page: Page) => page.evaluate(() => (window as unknown as { __calls: Call[] }).__calls);
const heard = (page: Page) => page.evaluate(() => (window as unknown as { __heard: { target: string; defaultPrevented: boolean }[] }).__heard);
const disabled = (page: Page, id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLButtonElement).disabled, id);

describe("the click dispatcher in a real page", () => {
  it("runs the clicked action on its owner with its element; leaves other clicks alone", { timeout: 60_000 }, async () => {
    const bundle = await dispatcherBundle();
    const page = await (await browser.get()).context.newPage();
    try {
      await showPage(page, PAGE);
      await page.addScriptTag({ content: bundle });
      await page.addScriptTag({ content: WIRE });

      // A click on the icon inside the button: the button's action, with the button; disabled while it runs.
      await page.click("#icon");
      await expect(calls(page)).resolves.toEqual([{ action: "caseDefend", owner: "msg1", target: "dodge", type: "click", defence: "dodge", disabled: true }]);
      await expect(disabled(page, "dodge")).resolves.toBe(true);
      await page.evaluate(() => {
        (window as unknown as { __release: () => void }).__release();
      });
      await page.waitForFunction(() => !(document.getElementById("dodge") as HTMLButtonElement).disabled);

      // Text of the card, and a name the table lacks: nothing runs, nothing is prevented.
      await page.click("#text");
      await page.click("#unknown");
      await expect(calls(page)).resolves.toHaveLength(1);

      // A link's action: its default (following the href) is prevented; the window still hears it.
      await page.click("#apply");
      expect(new URL(page.url()).hash).toBe("");

      // The link that stops its clicks: the window around never hears them, and the href is not followed.
      await page.click("#link-icon");
      expect(new URL(page.url()).hash).toBe("");

      await expect(calls(page)).resolves.toEqual([
        { action: "caseDefend", owner: "msg1", target: "dodge", type: "click", defence: "dodge", disabled: true },
        { action: "caseApply", owner: "msg1", target: "apply", type: "click" },
        { action: "caseApply", owner: "link", target: "link", type: "click" },
      ]);
      await expect(heard(page)).resolves.toEqual([
        { target: "icon", defaultPrevented: true },
        { target: "text", defaultPrevented: false },
        { target: "unknown", defaultPrevented: false },
        { target: "apply", defaultPrevented: true },
      ]);
    } finally {
      await page.close();
    }
  });
});
