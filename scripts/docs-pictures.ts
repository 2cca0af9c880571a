// The README's first-fight pictures, taken from this version's Chromium tests: runs the tests
// that take them, then copies each screenshot from test/artifacts/ into docs/first-fight/.
// `npm run docs:pictures`. test/docs-pictures.test.ts checks that every picture the README
// shows is one of these, so a picture cannot be added by hand.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * docs/first-fight/<name> ← test/artifacts/<screenshot>, the test file that takes it, and the
 * path as that file writes it (a template literal where the file names screenshots by theme).
 */
export interface Picture {
  readonly name: string;
  readonly screenshot: string;
  readonly test: string;
  readonly written?: string;
}

export const PICTURES: readonly Picture[] = [
  { name: "1-hero-sheet.png", screenshot: "hero-sheet.png", test: "test/browser/hero-sheet.test.ts" },
  { name: "2-tracker-declare.png", screenshot: "compact-tracker-gm-light.png", test: "test/browser/compact-tracker.test.ts", written: "test/artifacts/compact-tracker-${viewer.isGM ? \"gm\" : \"player\"}-${theme}.png" },
  { name: "3-attack-card-defend.png", screenshot: "attack-card-declared.png", test: "test/browser/attack-card.test.ts" },
  { name: "4-attack-card-folded.png", screenshot: "attack-card-4-collapsed.png", test: "test/browser/attack-card-scale.test.ts" },
];

if (process.argv[1]?.endsWith("docs-pictures.ts") === true) {
  const tests = [...new Set(PICTURES.map((p) => p.test))];
  // CASE_PICTURES=1: the browser tests write their pictures (a plain run only checks the views).
  execFileSync(join("node_modules", ".bin", "vitest"), ["run", ...tests], { stdio: "inherit", env: { ...process.env, CASE_PICTURES: "1" } });
  mkdirSync(join("docs", "first-fight"), { recursive: true });
  for (const p of PICTURES) {
    copyFileSync(join("test", "artifacts", p.screenshot), join("docs", "first-fight", p.name));
    console.log(`docs/first-fight/${p.name} ← test/artifacts/${p.screenshot}`);
  }
}
