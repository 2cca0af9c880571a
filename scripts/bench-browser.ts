/**
 * `npm run bench -- --browser`: the same bench (scripts/bench-core.ts) in Chromium, Foundry's
 * engine. esbuild (a dependency of vite) bundles the bench into one script; the packaged
 * Chromium (test/support/browser.ts: chromiumPath, CHROMIUM_FLAGS) runs it through
 * playwright-core on a page served with cross-origin isolation, so performance.now() has its
 * fine resolution. Prints the same closing table; exits 1 when a goal is missed.
 *
 *   npx tsx scripts/bench-browser.ts [--json FILE]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, chromiumPath } from "../test/support/browser";
import type { BenchReport } from "./bench-core";

const bundled = await build({
  entryPoints: ["scripts/bench-core.ts"],
  bundle: true,
  format: "iife",
  globalName: "CaseBench",
  platform: "browser",
  target: "es2022",
  write: false,
  logLevel: "warning",
});
const script = bundled.outputFiles[0]?.text;
if (!script) throw new Error("esbuild produced no bundle");

/** A localhost origin (a secure context, so cross-origin isolation applies); every request is routed, none reaches the network. */
const ORIGIN = "http://localhost:47999";
const isolation = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
const page = `<!doctype html><meta charset="utf-8"><title>CASE bench</title><script src="/bench.js"></script>`;

const userDataDir = mkdtempSync(join(tmpdir(), "case-bench-chromium-"));
const context = await chromium.launchPersistentContext(userDataDir, { executablePath: await chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
let report: BenchReport;
let lines: string[];
try {
  const tab = context.pages()[0] ?? (await context.newPage());
  tab.on("console", (message) => {
    if (message.text().startsWith("… ")) console.log(`  ${message.text()}`);
  });
  await tab.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") return route.fulfill({ contentType: "text/html", headers: isolation, body: page });
    if (path === "/bench.js") return route.fulfill({ contentType: "text/javascript", headers: isolation, body: script });
    return route.fulfill({ status: 404, body: "" });
  });
  await tab.goto(`${ORIGIN}/`);
  const engine = `Chromium ${context.browser()?.version() ?? "(packaged)"}`;
  ({ report, lines } = await tab.evaluate((name) => {
    interface Bench {
      runBench(engine: string, extras: readonly never[], progress: (line: string) => void): BenchReport;
      formatReport(r: BenchReport): string[];
    }
    const bench = (globalThis as unknown as { CaseBench: Bench }).CaseBench;
    const r = bench.runBench(`${name}, cross-origin isolated: ${String(globalThis.crossOriginIsolated)}`, [], (line) => {
      console.log(`… ${line}`);
    });
    return { report: r, lines: bench.formatReport(r) };
  }, engine));
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log("");
for (const line of lines) console.log(line);
const at = process.argv.indexOf("--json");
const file = at >= 0 ? process.argv[at + 1] : undefined;
if (file) writeFileSync(file, JSON.stringify(report, null, 2));
process.exitCode = report.ok ? 0 : 1;
