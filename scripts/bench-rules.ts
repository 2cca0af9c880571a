/**
 * Throughput of the rules engine and of an attack card's view, on this machine:
 *
 * - universalColor: one d100 read on a column (with a column shift);
 * - resolveAction: a whole ACTION (Karma, intensity, colour needed);
 * - a full attack resolution: create the exchange → defence roll → to-hit → damage applied →
 *   Slam?/Stun?/Kill? rolled, for one target, through the pure state machine;
 * - an attack card's view for one viewer, and that view rendered through the real template
 *   with real Handlebars (what a card update costs before the browser lays it out).
 *
 * Each is run for a time budget and reported as operations per second and microseconds per
 * operation. A frame at 60 fps is 16,667 µs: the run fails if an attack resolution or a card
 * view costs more than FRAME_BUDGET_SHARE of a frame.
 *
 *   npx tsx scripts/bench-rules.ts
 */
import { performance } from "node:perf_hooks";
import {
  applyDamage,
  chooseDefence,
  createExchange,
  declineDefence,
  resolveAction,
  resolveConsequence,
  rollToHit,
  universalColor,
  type AttackCode,
  type ExchangeInput,
} from "../src/rules/index";
import { attackCardContext } from "../src/foundry/exchange/card-context";
import { renderTemplate } from "../test/support/handlebars";

const BUDGET_MS = 500;
const FRAME_US = 1_000_000 / 60;
/** An attack resolution or a card view must cost less than this share of a 60 fps frame. */
const FRAME_BUDGET_SHARE = 0.05;

/** A tiny deterministic generator, so runs are comparable. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = lcg(12345);
const d100 = (): number => 1 + Math.floor(rnd() * 100);
const d10 = (): number => 1 + Math.floor(rnd() * 10);
const rank = (): number => [2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150][Math.floor(rnd() * 11)] ?? 30;

let sink = 0;

function bench(name: string, op: () => void): number {
  for (let i = 0; i < 2000; i++) op(); // warm up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < BUDGET_MS) {
    for (let i = 0; i < 1000; i++) op();
    n += 1000;
    now = performance.now();
  }
  const us = ((now - start) * 1000) / n;
  console.log(`${name.padEnd(44)} ${Math.round(1e6 / us).toLocaleString("en").padStart(12)} /s   ${us.toFixed(3).padStart(9)} µs each`);
  return us;
}

const ATTACKS: AttackCode[] = ["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Gb", "Gp", "Ch"];

function exchangeInput(attack: AttackCode): ExchangeInput {
  return {
    attack,
    source: "Bench",
    attacker: { uuid: "Actor.a", name: "A", value: rank(), strength: rank(), armor: 0 },
    toHitCs: [{ cs: -1, label: "range", localize: false }],
    karma: 0,
    damage: { method: "static", value: rank() },
    calledShot: false,
    blindsided: false,
    projectile: null,
    targets: [{ uuid: "Actor.t", actorUuid: "Actor.t", name: "T", scores: { "agility.bal": rank(), "fighting.def": rank(), "strength.mgt": rank(), "endurance.res": rank() }, armor: { body: 10, energy: 0 } }],
  };
}

function fullAttack(): void {
  const attack = ATTACKS[Math.floor(rnd() * ATTACKS.length)] ?? "BA";
  let state = createExchange(exchangeInput(attack));
  const weave = attack === "BA" || attack === "EA";
  state = weave ? chooseDefence(state, "0", { defence: "weave", die: d100(), cs: [] }) : declineDefence(state, "0");
  const t0 = state.targets[0];
  if (t0?.phase === "awaitingToHit") state = rollToHit(state, "0", { die: d100() });
  const t1 = state.targets[0];
  if (t1?.phase === "resolved" && t1.damage && t1.damage.dealt > 0) {
    state = applyDamage(state, "0", { value: 100, max: 100 }).state;
    for (const c of state.targets[0]?.consequences ?? []) {
      state = resolveConsequence(state, "0", { check: c.check, die: d100(), d10: d10(), hasActed: false, endurance: 30 });
    }
  }
  sink += state.targets.length;
}

console.log(`Rules engine throughput (budget ${String(BUDGET_MS)} ms each)`);
bench("universalColor (rank, d100, CS)", () => {
  sink += universalColor(rank(), d100(), -1).length;
});
bench("resolveAction (Karma, intensity)", () => {
  sink += resolveAction({ value: rank(), roll: d100(), cs: 1, karma: 10, intensity: rank() }).success ? 1 : 0;
});
const attackUs = bench("full attack resolution (one target)", fullAttack);

let cardState = createExchange(exchangeInput("BA"));
cardState = declineDefence(cardState, "0");
cardState = rollToHit(cardState, "0", { die: 70 });
const viewer = { isGM: true, owns: () => true, isNpc: () => false };
const viewUs = bench("attack card view (one viewer)", () => {
  sink += attackCardContext(cardState, viewer, { hideNpcDefences: false, ownersApplyDamage: false }).rows.length;
});

// The whole re-render of a card's content: view + the real template through real Handlebars.
const renderUs = bench("attack card view + Handlebars render", () => {
  sink += renderTemplate("templates/chat/attack-card.hbs", attackCardContext(cardState, viewer, { hideNpcDefences: false, ownersApplyDamage: false })).length;
});

const limit = FRAME_US * FRAME_BUDGET_SHARE;
let failed = false;
for (const [name, us] of [["full attack resolution", attackUs], ["attack card view", viewUs], ["attack card render", renderUs]] as const) {
  const ok = us < limit;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${us.toFixed(1)} µs, limit ${limit.toFixed(0)} µs (${String(FRAME_BUDGET_SHARE * 100)}% of a 60 fps frame)`);
  if (!ok) failed = true;
}
if (sink === -1) console.log("");
process.exit(failed ? 1 : 0);
