/**
 * `npm run bench` in Node: scripts/bench-core.ts plus the attack card's view and its render
 * through the real template and Handlebars (Node only: the template is read from disk). Prints
 * the closing table; exits 1 when a goal is missed. `--json FILE` also writes the report.
 *
 *   npx tsx scripts/bench-node.ts [--json FILE]
 */
import { writeFileSync } from "node:fs";
import { createExchange, declineDefence, rollToHit } from "../src/rules/index";
import { attackCardContext } from "../src/foundry/exchange/card-context";
import { renderTemplate } from "../test/support/handlebars";
import { attackScenarios, formatReport, runBench, type ExtraBench } from "./bench-core";

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
const file = at >= 0 ? process.argv[at + 1] : undefined;
if (file) writeFileSync(file, JSON.stringify(report, null, 2));
process.exitCode = report.ok ? 0 : 1;
