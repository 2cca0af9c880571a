#!/usr/bin/env node
// `npm run bench`: the rules engine's throughput and the CASE turn (scripts/bench-core.ts) in
// Node, with the attack card's view and render (scripts/bench-node.ts).
// `npm run bench -- --browser`: the same bench in the packaged Chromium (scripts/bench-browser.ts).
// `npm run bench -- --all`: both, one after the other. `--json FILE` writes the report(s) as JSON
// (FILE, or FILE with ".browser" before its extension for Chromium under --all).
// Each prints a closing table and exits non-zero when a goal (the constants at the top of
// scripts/bench-core.ts) is missed.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const tsx = join("node_modules", ".bin", "tsx");
const browser = args.includes("--browser") || args.includes("--all");
const node = !args.includes("--browser") || args.includes("--all");
const at = args.indexOf("--json");
const json = at >= 0 ? args[at + 1] : undefined;
const jsonFor = (which) => (json && which === "browser" && node ? json.replace(/(\.\w+)?$/, ".browser$1") : json);

console.log(`Load average (1 min) before the bench: ${loadavg()[0].toFixed(2)} on this machine (a busy machine slows every figure).`);
let failed = false;
for (const [which, script] of [...(node ? [["node", "scripts/bench-node.ts"]] : []), ...(browser ? [["browser", "scripts/bench-browser.ts"]] : [])]) {
  console.log(`\n▶ ${script}`);
  const out = jsonFor(which);
  const result = spawnSync(tsx, [script, ...(out ? ["--json", out] : [])], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
