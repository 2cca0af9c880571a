/**
 * Chromium for the browser tests, from the npm package @sparticuz/chromium (it ships a
 * headless Chromium inside the package and unpacks it on first use: no system package, no
 * download at run time), driven by playwright-core. A fresh profile per launch; the page is
 * served from a made-up origin (http://case.test/) by request routing, so the sheet loads the
 * system's real files (styles/*.css) by URL, as it does inside Foundry, and nothing goes to
 * the network. A Chromium that cannot start is a test FAILURE with a clear message.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { unpackChromium } from "./chromium-unpack";
import type * as Playwright from "playwright-core";
import type { BrowserContext, Locator, Page } from "playwright-core";

/**
 * playwright-core by require: imported as ES modules, its two bundles (7 MB of CommonJS) were
 * scanned for their exports in every test file, 0.2 CPU-seconds each time.
 */
const { chromium } = createRequire(import.meta.url)("playwright-core") as typeof Playwright;

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Every page of a launch in one renderer process: a test file opens a page per view, and
  // starting a renderer for each (50 in a run) cost more than drawing the pages.
  "--renderer-process-limit=1",
  // No optimising compiler (TurboFan) for pages that live a second: it spent more than it saved
  // (axe and the tests' pages, about 10 % of the browser tests' CPU time).
  "--js-flags=--no-opt",
];

/** The origin the test pages are served from (never resolved: every request is routed). */
export const ORIGIN = "http://case.test";

export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * The packaged Chromium's path (unpacked on first use). Throws a clear error when it cannot be
 * had: the browser tests must fail, not skip.
 */
export async function chromiumPath(unpack: () => Promise<string> = () => unpackChromium()): Promise<string> {
  let path: string;
  try {
    path = await unpack();
  } catch (error) {
    throw new Error(`The packaged Chromium (@sparticuz/chromium) could not be unpacked: ${String(error)}. Run "npm ci". The browser tests fail, never skip, without it.`);
  }
  if (!existsSync(path)) throw new Error(`The packaged Chromium is missing at ${path}. Run "npm ci". The browser tests fail, never skip, without it.`);
  return path;
}

/** Launches Chromium with a fresh profile directory (removed on close). */
export async function openBrowser(viewport = { width: 1000, height: 900 }): Promise<BrowserSession> {
  const executablePath = await chromiumPath();
  const userDataDir = mkdtempSync(join(tmpdir(), "case-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * One browser for a test file, launched by the first test that asks for it. When the launch
 * fails (Chromium missing), every test that asks fails with that error — none is skipped, as
 * they would be if a beforeAll hook threw.
 */
export function sharedBrowser(): { get(): Promise<BrowserSession>; close(): Promise<void> } {
  let launched: Promise<BrowserSession> | null = null;
  return {
    get() {
      launched ??= openBrowser();
      return launched;
    },
    async close() {
      if (!launched) return;
      const session = await launched.catch(() => null);
      await session?.close();
    },
  };
}

const TYPES: Record<string, string> = { ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html" };

/** A neutral placeholder picture for any image the page asks for (portraits, item icons). */
const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#7d8597"/><circle cx="32" cy="24" r="12" fill="#c9ccd3"/><rect x="14" y="40" width="36" height="18" rx="9" fill="#c9ccd3"/></svg>`;

/** What each page serves at ORIGIN/ (showPage routes a page once, then changes what it serves). */
const servedPages = new WeakMap<Page, { html: string }>();

/**
 * Serves `html` at ORIGIN/, the repository's `styles/` at ORIGIN/styles/…, and a placeholder
 * for every image; then opens the page. A page that already shows a view gets the next one in
 * place (Playwright's setContent: the document is rewritten, its stylesheets and images still
 * served here), which costs a fraction of a navigation (the browser tests ran some 20 % faster);
 * `fresh` navigates anew, for a test that needs a new document (pointer and focus state, the
 * window's globals).
 */
export async function showPage(page: Page, html: string, options: { fresh?: boolean } = {}): Promise<void> {
  const served = servedPages.get(page);
  if (served) {
    served.html = html;
    if (options.fresh === true) await page.goto(`${ORIGIN}/`);
    else await page.setContent(html);
    return;
  }
  const view = { html };
  servedPages.set(page, view);
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname);
    if (path === "/") return route.fulfill({ contentType: "text/html", body: view.html });
    const ext = extname(path);
    if (path.startsWith("/styles/") && ext === ".css") {
      const file = normalize(join("styles", path.slice("/styles/".length)));
      if (!file.startsWith("styles") || !existsSync(file)) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ contentType: TYPES[ext] ?? "text/plain", body: readFileSync(file, "utf8") });
    }
    if ([".webp", ".png", ".svg", ".jpg"].includes(ext)) return route.fulfill({ contentType: "image/svg+xml", body: PLACEHOLDER_SVG });
    return route.fulfill({ status: 404, body: "" });
  });
  await page.goto(`${ORIGIN}/`);
}

/**
 * Whether this run writes its pictures to test/artifacts/: with CASE_PICTURES=1 (`npm run
 * docs:pictures` sets it, for the README's pictures; set it to look at every view). A plain
 * run checks the same views without encoding some sixty PNGs (about 5 CPU-seconds and 10 s of a
 * run's time on two cores).
 */
export const KEEP_PICTURES = process.env.CASE_PICTURES === "1";

/**
 * A picture of a page or of an element, written to `options.path` when this run keeps pictures
 * (KEEP_PICTURES). Otherwise the element is still checked as a screenshot of it would: there,
 * one, and visible.
 */
export async function picture(target: Page, options: Parameters<Page["screenshot"]>[0] & { path: string }): Promise<void>;
export async function picture(target: Locator, options: Parameters<Locator["screenshot"]>[0] & { path: string }): Promise<void>;
export async function picture(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  if ("goto" in target) {
    if (KEEP_PICTURES) await target.screenshot(options);
    return;
  }
  if (KEEP_PICTURES) await target.screenshot(options);
  else if ((await target.boundingBox()) === null) throw new Error(`picture: nothing visible for ${options.path} (${target.toString()})`);
}

/**
 * A screenshot of the first element matching `selector`: the page clipped to the element's box.
 * Locator.screenshot takes the same picture, but first waits for the element to hold still
 * over several animation frames and scrolls it into view, about 40 ms a picture; the views
 * here are set whole and still (no animation, nothing left loading) and not scrolled.
 */
export async function screenshotOf(page: Page, selector: string, path: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`screenshot: nothing visible matches ${selector}`);
  if (!KEEP_PICTURES) return;
  // Whole CSS pixels around the box, as locator.screenshot rounds it.
  const x = Math.floor(box.x + 1e-3);
  const y = Math.floor(box.y + 1e-3);
  const clip = { x, y, width: Math.ceil(box.x + box.width - 1e-3) - x, height: Math.ceil(box.y + box.height - 1e-3) - y };
  await page.screenshot({ clip, fullPage: true, path });
}

/**
 * A stand-in for Foundry's window frame and page (Foundry's own CSS is not available here):
 * the page background, the application's size and themed background, and the window
 * content box. What the test checks is the system's CSS inside it.
 */
export const FRAME_CSS = `
body { margin: 0; padding: 16px; font-family: "Signika", "Segoe UI", Arial, sans-serif; font-size: 14px; }
body.theme-light { background: #c9c4b6; }
body.theme-dark { background: #0e0f13; }
.application { display: flex; flex-direction: column; box-sizing: border-box; border-radius: 6px; overflow: hidden; box-shadow: 0 0 16px rgb(0 0 0 / 45%); }
.theme-light .application { background: #ece8dd; color: #1d1c1a; }
.theme-dark .application { background: #22242b; color: #e9e6dd; }
.application .window-header { display: flex; align-items: center; height: 32px; padding: 0 10px; background: rgb(0 0 0 / 55%); color: #f0f0e0; }
.application .window-title { margin: 0; font-size: 14px; font-weight: 400; }
.application .window-content { flex: 1; min-height: 0; padding: 12px; overflow: hidden; }
`;

/**
 * A source module and everything it imports, bundled by vite for a page as one script (an
 * IIFE that sets `window[globalName]`), so a browser test runs the real code.
 */
export async function pageBundle(entry: string, globalName: string): Promise<string> {
  // Imported here: most browser test files bundle nothing, and vite is slow to load.
  const { build } = await import("vite");
  const output = await build({
    configFile: false,
    logLevel: "silent",
    publicDir: false,
    build: { write: false, minify: false, emptyOutDir: false, lib: { entry: resolve(entry), formats: ["iife"], name: globalName, fileName: () => `${globalName}.js` } },
  });
  for (const result of Array.isArray(output) ? output : [output]) {
    if ("output" in result) for (const chunk of result.output) if (chunk.type === "chunk") return chunk.code;
  }
  throw new Error(`vite produced no bundle of ${entry}.`);
}

/**
 * Foundry's chat column as a stand-in (its CSS is not available here): a 300 px log with one
 * message holding `content`, in each theme's message colours. Overflow scrolls, so a card that
 * is too wide shows as scroll width the tests can measure.
 */
export function chatColumn(content: string): string {
  return `<style>
  .chat-stand-in { width: 300px; list-style: none; margin: 0; padding: 0; overflow-x: auto; }
  .chat-stand-in .chat-message { padding: 6px; border-radius: 5px; }
  .theme-light .chat-stand-in .chat-message { background: #f3efe6; color: #1d1c1a; }
  .theme-dark .chat-stand-in .chat-message { background: #2a2c34; color: #e9e6dd; }
</style><ol id="chat-log" class="chat-stand-in"><li class="chat-message message"><div class="message-content">${content}</div></li></ol>`;
}

/**
 * Records every click on an element with a data-action, as ApplicationV2's click
 * delegation finds it: the closest [data-action], its dataset, its item row's dataset, and
 * whether Shift was held. The test feeds these to the sheet's real handlers.
 */
export const CLICK_RECORDER = `
window.__caseClicks = [];
document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
  if (!target) return;
  event.preventDefault();
  const row = target.closest("[data-item-id]");
  window.__caseClicks.push({
    action: target.dataset.action,
    dataset: { ...target.dataset },
    row: row ? { ...row.dataset } : null,
    shiftKey: event.shiftKey,
  });
});
`;

export interface RecordedClick {
  readonly action: string;
  readonly dataset: Record<string, string>;
  readonly row: Record<string, string> | null;
  readonly shiftKey: boolean;
}

/** A full page around a rendered sheet, in a Foundry theme, with the system's stylesheets. */
export function sheetDocument(sheetHtml: string, theme: "light" | "dark", stylesheets: readonly string[]): string {
  const links = stylesheets.map((href) => `<link rel="stylesheet" href="/${href}">`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>CASE sheet</title>
<style>${FRAME_CSS}</style>
${links}
</head>
<body class="theme-${theme}">
${sheetHtml}
<script>${CLICK_RECORDER}</script>
</body>
</html>`;
}

/** The clicks recorded so far on the page. */
export async function recordedClicks(page: Page): Promise<RecordedClick[]> {
  return page.evaluate(() => (window as unknown as { __caseClicks: RecordedClick[] }).__caseClicks);
}

/** The stylesheets system.json names, as Foundry loads them for the system. */
export const SYSTEM_STYLESHEETS: readonly string[] = (JSON.parse(readFileSync("system.json", "utf8")) as { styles: string[] }).styles;

/**
 * One page serving one view after another (tests in a file run in turn): each view replaces
 * the whole document with the system's stylesheets in `theme` (axe-core, once injected, stays).
 */
export function themedPage(browser: { get(): Promise<BrowserSession> }): (html: string, theme: "light" | "dark", viewport: { width: number; height: number }) => Promise<Page> {
  let shared: Page | null = null;
  return async (html, theme, viewport) => {
    if (shared === null || shared.isClosed()) shared = await (await browser.get()).context.newPage();
    await shared.setViewportSize(viewport);
    await showPage(shared, sheetDocument(html, theme, SYSTEM_STYLESHEETS));
    return shared;
  };
}

/** A DialogV2 as Foundry frames it: the title, the content in a form, a footer of buttons (the first the default). */
export function dialogFrame(title: string, content: string, buttons: readonly string[], width = 420): string {
  const footer = buttons.map((b, i) => `<button type="button" data-action="b${String(i)}"${i === 0 ? " autofocus" : ""}>${b}</button>`).join("");
  return `<dialog open class="application dialog" style="position: static; width: ${String(width)}px; border: none; padding: 0;">
  <header class="window-header"><h1 class="window-title">${title}</h1></header>
  <form class="window-content"><div class="dialog-content standard-form">${content}</div><footer class="form-footer">${footer}</footer></form>
</dialog>`;
}
