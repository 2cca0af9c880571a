#!/usr/bin/env node
// `npm run bench`: the rules engine's throughput (scripts/bench-rules.ts), then one whole CASE
// turn for 10, 100 and 1,000 combatants (scripts/bench-turn.ts). Both are TypeScript run
// through tsx; each exits non-zero when a number breaks its limit.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const tsx = join("node_modules", ".bin", "tsx");
let failed = false;
for (const script of ["scripts/bench-rules.ts", "scripts/bench-turn.ts"]) {
  console.log(`\n▶ ${script}`);
  const result = spawnSync(tsx, [script], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
