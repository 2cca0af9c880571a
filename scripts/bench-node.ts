/**
 * `npm run bench` in Node: scripts/bench-core.ts plus the attack card's view and its render
 * through the real template and Handlebars (Node only: the template is read from disk). Prints
 * the closing table; exits 1 when a goal is missed. `--json FILE` also writes the report.
 *
 * The bench and the rules engine run bundled into one module by esbuild, as in Chromium and as
 * the system ships (vite bundles it): run straight from the sources under tsx, every call from
 * one rules file into another went through the getter tsx puts on each export, a third of the
 * turn's time at 1,000 combatants that no player's browser pays.
 *
 *   npx tsx scripts/bench-node.ts [--json FILE]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { createExchange, declineDefence, rollToHit } from "../src/rules/index";
import { attackCardContext } from "../src/foundry/exchange/card-context";
import { renderTemplate } from "../test/support/handlebars";
import type * as BenchCore from "./bench-core";
import type { ExtraBench } from "./bench-core";

const bundled = await build({ entryPoints: ["scripts/bench-core.ts"], bundle: true, format: "esm", platform: "node", target: "es2022", write: false, logLevel: "warning" });
const code = bundled.outputFiles[0]?.text;
if (!code) throw new Error("esbuild produced no bundle");
const dir = mkdtempSync(join(tmpdir(), "case-bench-node-"));
const file = join(dir, "bench-core.mjs");
writeFileSync(file, code);
let core: typeof BenchCore;
try {
  core = (await import(pathToFileURL(file).href)) as typeof BenchCore;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const { attackScenarios, formatReport, runBench } = core;

const scenario = attackScenarios(1)[0];
if (!scenario) throw new Error("no attack scenario");
let cardState = createExchange({ ...scenario.input, attack: "BA" });
cardState = declineDefence(cardState, "0");
cardState = rollToHit(cardState, "0", { die: 70 });
const viewer = { isGM: true, owns: () => true, isNpc: () => false };
const settings = { hideNpcDefences: false, ownersApplyDamage: false };

const extras: ExtraBench[] = [
  { name: "attack card view (one viewer)", op: () => attackCardContext(cardState, viewer, settings).rows.length },
  { name: "attack card view + Handlebars render", op: () => renderTemplate("templates/chat/attack-card.hbs", attackCardContext(cardState, viewer, settings)).length },
];

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const report = runBench(
  `Node ${process.version} (V8 ${process.versions.v8})`,
  extras,
  (line) => {
    console.log(`  … ${line}`);
  },
  cpuMs,
);
console.log("");
for (const line of formatReport(report)) console.log(line);
const at = process.argv.indexOf("--json");
const jsonFile = at >= 0 ? process.argv[at + 1] : undefined;
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(report, null, 2));
process.exitCode = report.ok ? 0 : 1;
