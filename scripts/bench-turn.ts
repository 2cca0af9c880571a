/**
 * Bench of the CASE turn (src/rules/turn/): one whole turn — declare → extra-action rolls →
 * initiative (with roll-offs and declared dodges) → resolve every action (each one drawing a
 * defence from someone) → extra rounds → wrap-up — for 10, 100 and 1,000 combatants.
 *
 * Prints the time per turn and checks the growth from one size to the next against n log n:
 * the printed ratio is (time growth) / (n log n growth), and the run fails when it exceeds
 * GROWTH_TOLERANCE (1 = exactly n log n; timing noise and caches need some room).
 *
 *   npx tsx scripts/bench-turn.ts
 */
import { performance } from "node:perf_hooks";
import {
  actionCountChoices,
  advancePhase,
  chooseExtraMode,
  commitTurnChange,
  completeAction,
  createCombatantTurn,
  createTurnState,
  currentCombatantId,
  declareAction,
  initiativeWaiting,
  parseDeclaration,
  recordDefence,
  recordDodgeRoll,
  recordExtraActionRoll,
  recordInitiativeRollOffs,
  recordInitiativeRolls,
  type MutableTurnState,
  type TurnChange,
} from "../src/rules/index";

const SIZES = [10, 100, 1000, 10000] as const;
/** Each size runs turns for at least this long (and at least MIN_TURNS turns). */
const BUDGET_MS = 400;
const MIN_TURNS = 5;
/** Allowed (time growth) / (n log n growth) between successive sizes. */
const GROWTH_TOLERANCE = 1.5;

const RANK_NUMBERS = [6, 10, 20, 30, 40, 50, 75, 100, 150];

/** A small deterministic die. */
function dice(seed: number): { d10(): number; d100(): number; pick(n: number): number } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { d10: () => 1 + Math.floor(next() * 10), d100: () => 1 + Math.floor(next() * 100), pick: (n) => Math.floor(next() * n) };
}

function table(n: number): MutableTurnState {
  const die = dice(n);
  const combatants = Array.from({ length: n }, (_, i) =>
    createCombatantTurn(`c${i}`, {
      initiativeModifier: die.pick(8) - 1,
      offence: RANK_NUMBERS[die.pick(RANK_NUMBERS.length)] ?? 6,
      balance: RANK_NUMBERS[die.pick(RANK_NUMBERS.length)] ?? 6,
      freeDefences: 1 + die.pick(3),
      endurance: 30,
    }),
  );
  const s = createTurnState(combatants, { initiative: { mode: "everyTurn", team: false }, declaredDodge: true });
  return { combat: s.combat, combatants: new Map(s.combatants), settings: s.settings };
}

/** Plays one whole turn; returns the number of actions taken. */
function playTurn(state: MutableTurnState, seed: number): number {
  const die = dice(seed);
  const apply = (change: TurnChange): void => {
    commitTurnChange(state, change);
  };
  const ids = [...state.combatants.keys()];
  for (const c of state.combatants.values()) {
    const choices = actionCountChoices(c.stats.offence);
    const dodge = die.pick(10) === 0;
    const actions = choices[die.pick(choices.length)]?.actions ?? 1;
    apply(declareAction(state, c.id, parseDeclaration(dodge ? { kind: "defence", defence: "dodge" } : { text: "Attack", kind: "attack", attack: "BA", actions })));
  }
  apply(advancePhase(state, "declare"));
  for (const id of ids) if (state.combatants.get(id)?.extra) apply(recordExtraActionRoll(state, id, die.d100()));
  for (const id of ids) if (state.combatants.get(id)?.extra?.success) apply(chooseExtraMode(state, id, die.pick(2) === 0 ? "flurry" : "separate"));
  apply(advancePhase(state, "extraActions"));
  const waiting = initiativeWaiting(state);
  apply(recordInitiativeRolls(state, Object.fromEntries(waiting.rolls.map((id) => [id, die.d10()]))));
  for (let ties = initiativeWaiting(state).rollOffs; ties.length > 0; ties = initiativeWaiting(state).rollOffs) {
    apply(recordInitiativeRollOffs(state, Object.fromEntries(ties.flat().map((id) => [id, die.d10()]))));
  }
  for (const id of initiativeWaiting(state).dodges) apply(recordDodgeRoll(state, id, die.d100()));
  apply(advancePhase(state, "initiative"));
  let actions = 0;
  while (state.combat.phase !== "wrapUp") {
    const id = currentCombatantId(state);
    if (id === null) {
      apply(advancePhase(state, state.combat.phase));
      continue;
    }
    const target = ids[die.pick(ids.length)] ?? id;
    apply(recordDefence(state, target, "block").change);
    apply(completeAction(state, id));
    actions++;
  }
  apply(advancePhase(state, "wrapUp"));
  return actions;
}

interface Result {
  readonly n: number;
  readonly msPerTurn: number;
  readonly actionsPerTurn: number;
}

function bench(n: number): Result {
  const state = table(n);
  playTurn(state, 1); // warm up
  let turns = 0;
  let actions = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < BUDGET_MS || turns < MIN_TURNS) {
    actions += playTurn(state, turns + 2);
    turns++;
    elapsed = performance.now() - started;
  }
  return { n, msPerTurn: elapsed / turns, actionsPerTurn: actions / turns };
}

const nLogN = (n: number): number => n * Math.log2(n);

const results = SIZES.map(bench);
console.log("CASE turn — one whole turn (declare → extra actions → initiative → resolve → extra rounds → wrap-up)");
console.log("combatants   ms/turn   actions/turn   µs per (n log2 n)");
for (const r of results) {
  console.log(`${String(r.n).padStart(10)} ${r.msPerTurn.toFixed(3).padStart(9)} ${r.actionsPerTurn.toFixed(0).padStart(14)} ${((r.msPerTurn * 1000) / nLogN(r.n)).toFixed(3).padStart(19)}`);
}
let ok = true;
for (let i = 1; i < results.length; i++) {
  const a = results[i - 1] as Result;
  const b = results[i] as Result;
  const growth = b.msPerTurn / a.msPerTurn;
  const allowed = nLogN(b.n) / nLogN(a.n);
  const ratio = growth / allowed;
  const pass = ratio <= GROWTH_TOLERANCE;
  ok &&= pass;
  console.log(`${a.n} → ${b.n}: time ×${growth.toFixed(2)}, n log n ×${allowed.toFixed(2)}, ratio ${ratio.toFixed(2)} (≤ ${GROWTH_TOLERANCE}) ${pass ? "ok" : "TOO FAST A GROWTH"}`);
}
if (!ok) process.exitCode = 1;
