/**
 * Accessibility checks in Chromium: axe-core (the npm package, its source injected into the
 * page) run on one element of the page, and a keyboard walk that tabs through it.
 *
 * `expectAccessible(page, selector)` fails on every serious or critical violation, the
 * color-contrast rule included (axe computes it from the real stylesheets in the page), and on
 * a color-contrast check axe could not decide (an "incomplete" result): a contrast that cannot
 * be measured is not a contrast that passes.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, ImpactValue, Result } from "axe-core";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
/** axe-core's own build, injected as it is. */
export const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** The impacts that fail a view. */
export const FAILING_IMPACTS: readonly ImpactValue[] = ["serious", "critical"];

export interface AxeFinding {
  readonly rule: string;
  readonly impact: ImpactValue | null;
  readonly help: string;
  /** Each node: its CSS path and axe's summary of what is wrong. */
  readonly nodes: readonly string[];
}

export interface AxeReport {
  /** Serious and critical violations. */
  readonly failures: readonly AxeFinding[];
  /** Moderate and minor violations (reported, not failing). */
  readonly minor: readonly AxeFinding[];
  /** color-contrast checks axe could not decide. */
  readonly undecidedContrast: readonly AxeFinding[];
  /** Every rule that passed on at least one node (to show the checks ran: color-contrast among them). */
  readonly passed: readonly string[];
  /** How many text nodes the color-contrast rule measured and passed. */
  readonly contrastPasses: number;
}

/** Runs axe-core on the first element matching `selector` (every rule axe enables by default). */
export async function axeReport(page: Page, selector: string): Promise<AxeReport> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  // Only what the report reads crosses back: the full results hold DOM references and every
  // node of every passing rule (serialising those cost more than running the rules).
  const results = await page.evaluate(async (sel) => {
    const root = document.querySelector(sel);
    if (!root) throw new Error(`axe: nothing matches ${sel}`);
    const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<AxeResults> } }).axe;
    const r = await axe.run(root, { resultTypes: ["violations", "incomplete", "passes"] });
    const finding = (result: Result) => ({
      rule: result.id,
      impact: result.impact ?? null,
      help: result.help,
      nodes: result.nodes.map((n) => `${n.target.map(String).join(" ")}: ${(n.failureSummary ?? n.any.map((c) => c.message).join("; ")).replace(/\s+/g, " ")}`),
    });
    return {
      violations: r.violations.map(finding),
      undecidedContrast: r.incomplete.filter((v) => v.id === "color-contrast").map(finding),
      passed: r.passes.map((p) => p.id),
      contrastPasses: r.passes.find((p) => p.id === "color-contrast")?.nodes.length ?? 0,
    };
  }, selector);
  const failing = (f: AxeFinding) => f.impact !== null && FAILING_IMPACTS.includes(f.impact);
  return {
    failures: results.violations.filter(failing),
    minor: results.violations.filter((f) => !failing(f)),
    undecidedContrast: results.undecidedContrast,
    passed: results.passed,
    contrastPasses: results.contrastPasses,
  };
}

/** Readable lines for a failed check. */
export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings.map((f) => `${f.rule} (${f.impact ?? "?"}): ${f.help}\n    ${f.nodes.join("\n    ")}`).join("\n");
}

/**
 * Fails unless axe finds no serious or critical violation in `selector` and decides every
 * contrast it meets; the contrast rule must have measured some text (a check that saw nothing
 * proves nothing). Returns the report.
 */
export async function expectAccessible(page: Page, selector: string, label = selector): Promise<AxeReport> {
  const report = await axeReport(page, selector);
  const problems = [...report.failures, ...report.undecidedContrast];
  if (problems.length > 0) throw new Error(`${label}: axe-core found\n${describeFindings(problems)}`);
  if (report.contrastPasses === 0) throw new Error(`${label}: axe-core's color-contrast rule measured no text.`);
  return report;
}

export interface FocusStop {
  readonly tag: string;
  readonly name: string;
  /** A visible focus mark: an outline at least 2px wide (or Chromium's own ring), or a box-shadow the element lacks unfocused. */
  readonly marked: boolean;
}

/**
 * Controls Foundry itself drives that the system cannot make keyboard-operable from a template:
 * the portrait's `editImage` action works only on an <img> (Foundry's image picker reads and
 * writes the image element), and an <img> cannot take keyboard activation without code.
 */
export const FOUNDRY_IMAGE_CONTROLS = 'img[data-action="editImage"]';

/** Every enabled, rendered control inside `selector` that a person can operate (Foundry's image picker aside). */
export async function controlsIn(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    ([sel, skip]) => {
    const root = document.querySelector(sel);
    if (!root) throw new Error(`nothing matches ${sel}`);
    const controls = [...root.querySelectorAll<HTMLElement>("button, a, input, select, textarea, summary, [data-action], [tabindex]")];
    return controls
      .filter((e) => e.getClientRects().length > 0 && !(e as HTMLButtonElement).disabled && (e as HTMLInputElement).type !== "hidden" && !e.closest("[inert]") && !e.matches(skip))
      .map((e) => e.outerHTML.slice(0, 120));
    },
    [selector, FOUNDRY_IMAGE_CONTROLS] as const,
  );
}

/**
 * Tabs from the top of the page through every focusable element inside `selector` (at most
 * `limit` presses), recording each stop and whether its focus is visibly marked. The elements
 * are marked with data-case-focus-index so the caller can compare the stops with controlsIn.
 */
export async function tabThrough(page: Page, selector: string, limit = 200): Promise<FocusStop[]> {
  // Start from the top: a focus point before everything else (blurring alone would leave the
  // sequential navigation starting at the last focused element, an autofocused one say).
  await page.evaluate(() => {
    const start = document.createElement("span");
    start.tabIndex = -1;
    start.dataset.caseFocusStart = "";
    document.body.prepend(start);
    start.focus();
    window.scrollTo(0, 0);
  });
  const stops: FocusStop[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    // One round trip per stop: the focused element's mark, and (for a new stop inside the
    // root) its box-shadow blurred, then focus given back as the keyboard gave it.
    const stop = await page.evaluate((sel) => {
      const el = document.activeElement as HTMLElement | null;
      const root = document.querySelector(sel);
      if (!el || el === document.body || !root || "caseFocusStart" in el.dataset) return null;
      const inside = root.contains(el);
      const isNew = el.dataset.caseFocusIndex === undefined;
      el.dataset.caseFocusIndex ??= String(document.querySelectorAll("[data-case-focus-index]").length);
      const focused = getComputedStyle(el);
      // Chromium's own focus ring ("auto") is drawn at least 2px wide whatever the width says.
      const mark = { outline: focused.outlineStyle === "auto" || (focused.outlineStyle !== "none" && parseFloat(focused.outlineWidth) >= 2), shadow: focused.boxShadow };
      const label = el.getAttribute("aria-label") ?? el.textContent.trim();
      // The same element unfocused: its box-shadow then (a focus ring drawn as a shadow must be new).
      let blurredShadow = "none";
      if (inside && isNew) {
        el.blur();
        blurredShadow = getComputedStyle(el).boxShadow;
        el.focus({ focusVisible: true } as FocusOptions);
      }
      return { inside, key: el.dataset.caseFocusIndex, tag: el.tagName.toLowerCase(), name: label.slice(0, 60) || el.outerHTML.slice(0, 80), mark, blurredShadow };
    }, selector);
    if (!stop) break;
    if (seen.has(stop.key)) break;
    seen.add(stop.key);
    if (!stop.inside) continue;
    const blurredShadow = stop.blurredShadow;
    stops.push({ tag: stop.tag, name: stop.name, marked: stop.mark.outline || (stop.mark.shadow !== "none" && stop.mark.shadow !== blurredShadow) });
  }
  return stops;
}
