#!/usr/bin/env node
// The README's test command: type check, lint, then every vitest test (rules, adapters,
// templates, browser). Ends with one plain line "N passed, N failed, N skipped" that CI reads;
// a failed type check or lint counts as one failed test each, so the line never hides them.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
const bin = (name) => join("node_modules", ".bin", name);

function run(label, cmd, args) {
  const started = Date.now();
  console.log(`\n▶ ${label}: ${cmd} ${args.join(" ")}`);
  const result = spawnSync(cmd, args, { stdio: "inherit", env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`${ok ? "✔" : "✘"} ${label} (${seconds} s)`);
  return ok;
}

let failed = 0;
if (!run("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"])) failed++;
if (!run("lint", bin("eslint"), ["--max-warnings=0", "."])) failed++;

const reportDir = join("test", "artifacts");
mkdirSync(reportDir, { recursive: true });
const reportFile = join(reportDir, "vitest-report.json");
rmSync(reportFile, { force: true });
const vitestOk = run("vitest", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${reportFile}`,
  ...process.argv.slice(2),
]);

let passed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  passed = report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A test file that failed to load has no tests in the counts: count it as a failure.
  for (const file of report.testResults ?? []) {
    if (file.status === "failed" && (file.assertionResults ?? []).every((t) => t.status !== "failed")) failed++;
  }
} catch (error) {
  console.error(`Could not read the vitest report (${String(error)}).`);
  failed++;
}
if (!vitestOk && failed === 0) failed++;

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
