/**
 * The bench itself, shared by Node (scripts/bench-node.ts) and Chromium (scripts/bench-browser.ts
 * bundles this file): no Node or DOM API beyond `performance.now()`.
 *
 * Honest timing: every input is generated before the clock starts (seeded, typed arrays or
 * prepared objects); a timed loop only reads them and calls the rules engine. Throughputs are
 * the median of {@link RUNS} timed runs after a warm-up run.
 *
 * - universalColor: the peer harness's workload (/work/shared/peer-bench/bench.mjs): 1,000,000
 *   (rank index, d100, column shift) triples in its typed arrays, timed through its lookup
 *   (the rank's number, then universalColor) and loop, from its splitmix32 generator and seed, fingerprint
 *   {@link UC_FINGERPRINT}. Outside the clock every triple is checked against the reference
 *   path (the bands of UNIVERSAL_TABLE read by colorOnColumn) and every bad input must be refused.
 * - resolveAction: a whole ACTION (Karma, intensity, colour needed).
 * - full attack resolution: create → defence → to-hit → damage → Slam?/Stun?/Kill?, one target.
 * - the CASE turn: one whole turn for {@link TURN_SIZES} combatants.
 */
import {
  UNIVERSAL_TABLE,
  applyDamage,
  actionCountChoices,
  advancePhase,
  chooseDefence,
  chooseExtraMode,
  colorOnColumn,
  commitTurnChange,
  completeAction,
  createCombatantTurn,
  createExchange,
  createTurnState,
  currentCombatantId,
  declareAction,
  declineDefence,
  initiativeWaiting,
  parseDeclaration,
  recordDefence,
  recordDodgeRoll,
  recordExtraActionRoll,
  recordInitiativeRollOffs,
  recordInitiativeRolls,
  resolveAction,
  resolveConsequence,
  rollToHit,
  shiftColumn,
  universalColor,
  type ActionCheck,
  type AttackCode,
  type ConsequenceCheck,
  type ConsequenceRoll,
  type Declaration,
  type DefenceRoll,
  type ExchangeInput,
  type MutableTurnState,
  type ToHitRoll,
} from "../src/rules/index";

// ── goals: `npm run bench` exits non-zero when one is missed ──────────────────────────────────
/** A full attack resolution (one target) must run at least this many times a second. */
export const ATTACK_MIN_PER_SECOND = 1_000_000;
/** One whole turn of 1,000 combatants must take less than this (ms). */
export const TURN_1000_MAX_MS = 10;
/** Between successive turn sizes, (time growth) / (n log2 n growth) must not exceed this. */
export const TURN_GROWTH_MAX = 1.1;
/** universalColor must agree with the reference path on every triple of the workload. */
export const UC_MAX_DISAGREEMENTS = 0;

// ── workload parameters ────────────────────────────────────────────────────────────────────
/** The peer harness's workload: n, seed and the fingerprint it prints for them. */
export const UC_N = 1_000_000;
export const UC_SEED = 20240601;
export const UC_FINGERPRINT = "b3181c2f";
export const TURN_SIZES = [10, 100, 1000, 10000] as const;
/** Timed runs per throughput figure (the median is reported). */
export const RUNS = 5;
/** A throughput run lasts at least this long (ms). */
const RUN_MS = 150;
/** Code runs this long (ms) before it is timed: the JIT optimises it first; timing earlier measures the warm-up. */
const WARM_UP_MS = 400;
/**
 * A turn size runs batches of turns of at least TURN_BATCH_MS each, for TURN_BUDGET_MS and at
 * least TURN_MIN_BATCHES. At 10,000 combatants a batch is one turn (50-100 ms), some with a
 * major collection in them and some without: five such batches moved the growth ratio by ±0.2
 * from run to run; fifteen steady the median without changing what a batch holds.
 */
const TURN_BATCH_MS = 25;
const TURN_BUDGET_MS = 500;
const TURN_MIN_BATCHES = 15;
/** Attack scenarios prepared before the clock starts (the timed loop cycles through them). */
const ATTACK_SCENARIOS = 4096;

/** The peer harness's rank ladder: the standard rank number of Feeble … Class 5000. */
const LADDER_VALUES = Int32Array.from([2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150, 200, 500, 1000, 3000, 5000]);

const now = (): number => performance.now();
/** This process's CPU time in ms, where the engine offers it (Node); figures from it show what a busy machine's waiting hides. */
let cpuNow: (() => number) | null = null;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** splitmix32, as the peer harness: a uint32 per call. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Keeps results alive so no timed call is optimised away. */
let sink = 0;

interface Rate {
  readonly perSecond: number;
  readonly min: number;
  readonly max: number;
  /** Operations per second of this process's CPU time (Node only), median. */
  readonly cpuPerSecond: number | null;
}

/** Runs `run` (which does `ops` operations) once to warm up, then RUNS times; median operations per second. */
function throughput(ops: number, run: () => number): Rate {
  const warm = now() + WARM_UP_MS;
  do sink += run();
  while (now() < warm);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c = cpuNow?.() ?? 0;
    const t = now();
    sink += run();
    rates.push((ops * 1000) / Math.max(now() - t, 1e-3));
    if (cpuNow) cpuRates.push((ops * 1000) / Math.max(cpuNow() - c, 1e-3));
  }
  return { perSecond: median(rates), min: Math.min(...rates), max: Math.max(...rates), cpuPerSecond: cpuNow ? median(cpuRates) : null };
}

/** Warms a pass up, then finds how many passes over a prepared set make one run last about RUN_MS. */
function passesFor(pass: () => number): number {
  const warm = now() + WARM_UP_MS;
  for (let k = 0; k < 3 || now() < warm; k++) sink += pass();
  const t = now();
  sink += pass();
  const ms = Math.max(now() - t, 1e-3);
  return Math.max(1, Math.ceil(RUN_MS / ms));
}

// ── universalColor ─────────────────────────────────────────────────────────────────────────

/**
 * The peer harness's workload as it holds it: each triple's rank as an index into the ladder
 * (Feeble … Class 5000), its d100 and its column shift, in the harness's typed arrays.
 */
export interface UcWorkload {
  readonly rank: Uint8Array;
  readonly roll: Uint8Array;
  readonly cs: Int8Array;
  readonly fingerprint: string;
}

/** The peer harness's workload (same generator, draw order, arrays and fingerprint). */
export function ucWorkload(n = UC_N, seed = UC_SEED): UcWorkload {
  const next = splitmix32(seed);
  const rank = new Uint8Array(n);
  const roll = new Uint8Array(n);
  const cs = new Int8Array(n);
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) {
    const r = next() % LADDER_VALUES.length;
    const d = 1 + (next() % 100);
    const s = (next() % 7) - 3;
    rank[i] = r;
    roll[i] = d;
    cs[i] = s;
    h = Math.imul(h ^ (r | (d << 4) | ((s + 3) << 11)), 0x01000193) >>> 0;
  }
  return { rank, roll, cs, fingerprint: h.toString(16).padStart(8, "0") };
}

/** The lookup as the peer harness calls ours: the rank's standard number, then universalColor. */
export const ucLookup = (r: number, d: number, s: number): string => universalColor(LADDER_VALUES[r] as number, d, s);

/** Triples where universalColor differs from the reference path (the table's bands read by colorOnColumn). */
export function ucDisagreements(w: UcWorkload): number {
  let bad = 0;
  for (let i = 0; i < w.rank.length; i++) {
    const v = LADDER_VALUES[w.rank[i] as number] as number;
    const d = w.roll[i] as number;
    const s = w.cs[i] as number;
    if (universalColor(v, d, s) !== colorOnColumn(shiftColumn(v, s).rank, d, UNIVERSAL_TABLE)) bad++;
  }
  return bad;
}

/** Inputs universalColor must refuse with a RangeError: [value, roll, cs]. */
export const UC_BAD_INPUTS: readonly (readonly [number, number, number])[] = [
  [-1, 50, 0],
  [1.5, 50, 0],
  [Number.NaN, 50, 0],
  [Number.POSITIVE_INFINITY, 50, 0],
  [30, 0, 0],
  [30, 101, 0],
  [30, 50.5, 0],
  [30, Number.NaN, 0],
  [30, -5, 0],
  [30, 50, 0.5],
  [30, 50, Number.NaN],
  [30, 50, Number.POSITIVE_INFINITY],
  [2 ** 53, 50, 0],
  [30, 2 ** 32 + 50, 0],
];

/** How many of {@link UC_BAD_INPUTS} (plus non-numbers) universalColor refuses with a RangeError. */
export function ucRefusals(): { refused: number; of: number } {
  const cases: (() => unknown)[] = UC_BAD_INPUTS.map(([v, d, s]) => () => universalColor(v, d, s));
  cases.push(() => universalColor("30" as unknown as number, 50, 0));
  cases.push(() => universalColor(30, "50" as unknown as number, 0));
  cases.push(() => universalColor(30, 50, "1" as unknown as number));
  let refused = 0;
  for (const c of cases) {
    try {
      c();
    } catch (error) {
      if (error instanceof RangeError) refused++;
    }
  }
  return { refused, of: cases.length };
}

/** One timed pass as the peer harness's loop runs it: each triple through the lookup, its answer kept alive. */
export function ucPass(w: UcWorkload, lookup: (r: number, d: number, s: number) => unknown = ucLookup): number {
  const { rank, roll, cs } = w;
  let h = 0;
  for (let i = 0; i < rank.length; i++) if (lookup(rank[i] as number, roll[i] as number, cs[i] as number) === undefined) h++;
  return h;
}

// ── resolveAction ──────────────────────────────────────────────────────────────────────────

const RANKS_USED = [2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150];

function actionChecks(count: number): ActionCheck[] {
  const next = splitmix32(12345);
  const out: ActionCheck[] = [];
  for (let i = 0; i < count; i++) {
    out.push({ value: RANKS_USED[next() % RANKS_USED.length] as number, roll: 1 + (next() % 100), cs: 1, karma: 10, intensity: RANKS_USED[next() % RANKS_USED.length] });
  }
  return out;
}

// ── a full attack resolution ───────────────────────────────────────────────────────────────

const ATTACKS: readonly AttackCode[] = ["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Gb", "Gp", "Ch"];

export interface AttackScenario {
  readonly input: ExchangeInput;
  /** Weave for Blunt and Edged Attacks, no defence for the others. */
  readonly defence: DefenceRoll | null;
  readonly toHit: ToHitRoll;
  readonly health: { readonly value: number; readonly max: number };
  readonly consequence: Readonly<Record<ConsequenceCheck, ConsequenceRoll>>;
}

/** Attack scenarios from a fixed seed (the shape of the earlier bench: weave for BA/EA, static damage). */
export function attackScenarios(count = ATTACK_SCENARIOS, seed = 12345): AttackScenario[] {
  const next = splitmix32(seed);
  const rank = (): number => RANKS_USED[next() % RANKS_USED.length] as number;
  const d100 = (): number => 1 + (next() % 100);
  const d10 = (): number => 1 + (next() % 10);
  const out: AttackScenario[] = [];
  for (let i = 0; i < count; i++) {
    const attack = ATTACKS[next() % ATTACKS.length] as AttackCode;
    const input: ExchangeInput = {
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
    const defence: DefenceRoll | null = attack === "BA" || attack === "EA" ? { defence: "weave", die: d100(), cs: [] } : null;
    const roll = (check: ConsequenceCheck): ConsequenceRoll => ({ check, die: d100(), d10: d10(), hasActed: false, endurance: 30 });
    out.push({ input, defence, toHit: { die: d100() }, health: { value: 100, max: 100 }, consequence: { slam: roll("slam"), stun: roll("stun"), kill: roll("kill") } });
  }
  return out;
}

/** One attack through the pure state machine; returns a number derived from the end state. */
export function resolveAttack(s: AttackScenario): number {
  let state = createExchange(s.input);
  state = s.defence ? chooseDefence(state, "0", s.defence) : declineDefence(state, "0");
  if (state.targets[0]?.phase === "awaitingToHit") state = rollToHit(state, "0", s.toHit);
  const t = state.targets[0];
  if (t?.phase === "resolved" && t.damage && t.damage.dealt > 0) {
    state = applyDamage(state, "0", s.health).state;
    for (const c of state.targets[0]?.consequences ?? []) state = resolveConsequence(state, "0", s.consequence[c.check]);
  }
  return state.targets[0]?.consequences.length ?? 0;
}

// ── the CASE turn ──────────────────────────────────────────────────────────────────────────

const TURN_RANKS = [6, 10, 20, 30, 40, 50, 75, 100, 150];
/** Random uint32s a turn bench reads; it wraps around (the state differs each time round). */
const TAPE_LENGTH = 1 << 20;

export interface TurnTable {
  readonly state: MutableTurnState;
  readonly ids: readonly string[];
  /** Per combatant, one declaration per number of actions it may declare. */
  readonly declarations: readonly (readonly Declaration[])[];
  readonly dodge: Declaration;
  readonly tape: Uint32Array;
  at: number;
}

export function turnTable(n: number): TurnTable {
  const next = splitmix32(n);
  const pick = (k: number): number => next() % k;
  const combatants = Array.from({ length: n }, (_, i) =>
    createCombatantTurn(`c${i}`, {
      initiativeModifier: pick(8) - 1,
      offence: TURN_RANKS[pick(TURN_RANKS.length)] ?? 6,
      balance: TURN_RANKS[pick(TURN_RANKS.length)] ?? 6,
      freeDefences: 1 + pick(3),
      endurance: 30,
    }),
  );
  const s = createTurnState(combatants, { initiative: { mode: "everyTurn", team: false }, declaredDodge: true });
  const declarations = combatants.map((c) => actionCountChoices(c.stats.offence).map((ch) => parseDeclaration({ text: "Attack", kind: "attack", attack: "BA", actions: ch.actions })));
  const tape = new Uint32Array(TAPE_LENGTH);
  for (let i = 0; i < TAPE_LENGTH; i++) tape[i] = next();
  return {
    state: { combat: s.combat, combatants: new Map(s.combatants), settings: s.settings },
    ids: combatants.map((c) => c.id),
    declarations,
    dodge: parseDeclaration({ kind: "defence", defence: "dodge" }),
    tape,
    at: 0,
  };
}

/** Plays one whole turn, reading every die from the table's tape; returns the actions taken. */
export function playTurn(t: TurnTable): number {
  const { state, ids, tape } = t;
  const n = ids.length;
  const next = (k: number): number => {
    const v = (tape[t.at] as number) % k;
    t.at = (t.at + 1) & (TAPE_LENGTH - 1);
    return v;
  };
  for (let i = 0; i < n; i++) {
    const choices = t.declarations[i] as readonly Declaration[];
    const decl = next(10) === 0 ? t.dodge : (choices[next(choices.length)] as Declaration);
    commitTurnChange(state, declareAction(state, ids[i] as string, decl));
  }
  commitTurnChange(state, advancePhase(state, "declare"));
  for (const id of ids) if (state.combatants.get(id)?.extra) commitTurnChange(state, recordExtraActionRoll(state, id, 1 + next(100)));
  for (const id of ids) if (state.combatants.get(id)?.extra?.success) commitTurnChange(state, chooseExtraMode(state, id, next(2) === 0 ? "flurry" : "separate"));
  commitTurnChange(state, advancePhase(state, "extraActions"));
  const rolls: Record<string, number> = {};
  for (const id of initiativeWaiting(state).rolls) rolls[id] = 1 + next(10);
  commitTurnChange(state, recordInitiativeRolls(state, rolls));
  for (let ties = initiativeWaiting(state).rollOffs; ties.length > 0; ties = initiativeWaiting(state).rollOffs) {
    const offs: Record<string, number> = {};
    for (const group of ties) for (const id of group) offs[id] = 1 + next(10);
    commitTurnChange(state, recordInitiativeRollOffs(state, offs));
  }
  for (const id of initiativeWaiting(state).dodges) commitTurnChange(state, recordDodgeRoll(state, id, 1 + next(100)));
  commitTurnChange(state, advancePhase(state, "initiative"));
  let actions = 0;
  while (state.combat.phase !== "wrapUp") {
    const id = currentCombatantId(state);
    if (id === null) {
      commitTurnChange(state, advancePhase(state, state.combat.phase));
      continue;
    }
    commitTurnChange(state, recordDefence(state, ids[next(n)] as string, "block").change);
    commitTurnChange(state, completeAction(state, id));
    actions++;
  }
  commitTurnChange(state, advancePhase(state, "wrapUp"));
  return actions;
}

export interface TurnResult {
  readonly n: number;
  /** Median over batches of the mean time of one turn in the batch. */
  readonly msPerTurn: number;
  readonly actionsPerTurn: number;
  readonly turns: number;
  /** The same in this process's CPU time (Node only). */
  readonly cpuMsPerTurn: number | null;
}

function benchTurn(n: number): TurnResult {
  const table = turnTable(n);
  const warmUntil = now() + WARM_UP_MS;
  do sink += playTurn(table);
  while (now() < warmUntil);
  const t0 = now();
  sink += playTurn(table);
  const estimate = Math.max(now() - t0, 1e-3);
  const perBatch = Math.max(1, Math.ceil(TURN_BATCH_MS / estimate));
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  let actions = 0;
  let turns = 0;
  const started = now();
  while (samples.length < TURN_MIN_BATCHES || now() - started < TURN_BUDGET_MS) {
    const c = cpuNow?.() ?? 0;
    const s = now();
    for (let k = 0; k < perBatch; k++) actions += playTurn(table);
    samples.push((now() - s) / perBatch);
    if (cpuNow) cpuSamples.push((cpuNow() - c) / perBatch);
    turns += perBatch;
  }
  return { n, msPerTurn: median(samples), actionsPerTurn: actions / turns, turns, cpuMsPerTurn: cpuNow ? median(cpuSamples) : null };
}

// ── the run ────────────────────────────────────────────────────────────────────────────────

export interface ThroughputRow extends Rate {
  readonly name: string;
}

/** An extra throughput row (Node adds the attack card's view and render). `op(i)` for i = 0, 1, 2 … */
export interface ExtraBench {
  readonly name: string;
  readonly op: (i: number) => number;
}

export interface Check {
  readonly what: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface BenchReport {
  readonly engine: string;
  readonly throughput: readonly ThroughputRow[];
  readonly turn: readonly TurnResult[];
  readonly checks: readonly Check[];
  readonly ok: boolean;
}

const nLogN = (n: number): number => n * Math.log2(n);

/** Runs every bench; `progress` gets a line as each part ends. */
export function runBench(engine: string, extras: readonly ExtraBench[] = [], progress: (line: string) => void = () => undefined, cpuClock: (() => number) | null = null): BenchReport {
  cpuNow = cpuClock;
  const rows: ThroughputRow[] = [];
  const checks: Check[] = [];
  const row = (name: string, r: Rate): void => {
    rows.push({ name, ...r });
    progress(`${name}: ${fmtRate(r.perSecond)}/s`);
  };

  const w = ucWorkload();
  checks.push({ what: "universalColor workload", ok: w.fingerprint === UC_FINGERPRINT, detail: `fingerprint ${w.fingerprint} (peer harness: ${UC_FINGERPRINT})` });
  row(`universalColor (${fmtInt(UC_N)} peer triples)`, throughput(UC_N, () => ucPass(w)));

  const checksIn = actionChecks(4096);
  const actionPass = (): number => {
    let h = 0;
    for (const c of checksIn) if (resolveAction(c).success) h++;
    return h;
  };
  const actionPasses = passesFor(actionPass);
  row("resolveAction (Karma, intensity)", throughput(checksIn.length * actionPasses, () => repeat(actionPasses, actionPass)));

  const scenarios = attackScenarios();
  const attackPass = (): number => {
    let h = 0;
    for (const s of scenarios) h += resolveAttack(s);
    return h;
  };
  const attackPasses = passesFor(attackPass);
  const attack = throughput(scenarios.length * attackPasses, () => repeat(attackPasses, attackPass));
  row("full attack resolution (one target)", attack);
  checks.push({ what: "full attack resolution", ok: attack.perSecond >= ATTACK_MIN_PER_SECOND, detail: `${fmtRate(attack.perSecond)}/s (goal ≥ ${fmtRate(ATTACK_MIN_PER_SECOND)}/s)` });

  for (const x of extras) {
    const pass = (): number => {
      let h = 0;
      for (let i = 0; i < 256; i++) h += x.op(i);
      return h;
    };
    const passes = passesFor(pass);
    row(x.name, throughput(256 * passes, () => repeat(passes, pass)));
  }

  const turn: TurnResult[] = [];
  for (const n of TURN_SIZES) {
    const r = benchTurn(n);
    turn.push(r);
    progress(`turn, ${fmtInt(n)} combatants: ${r.msPerTurn.toFixed(3)} ms`);
  }
  const at1000 = turn.find((r) => r.n === 1000);
  if (at1000) checks.push({ what: "turn of 1,000 combatants", ok: at1000.msPerTurn < TURN_1000_MAX_MS, detail: `${at1000.msPerTurn.toFixed(2)} ms (goal < ${TURN_1000_MAX_MS} ms)` });
  for (let i = 1; i < turn.length; i++) {
    const a = turn[i - 1] as TurnResult;
    const b = turn[i] as TurnResult;
    const ratio = b.msPerTurn / a.msPerTurn / (nLogN(b.n) / nLogN(a.n));
    checks.push({ what: `turn growth ${fmtInt(a.n)} → ${fmtInt(b.n)}`, ok: ratio <= TURN_GROWTH_MAX, detail: `time ×${(b.msPerTurn / a.msPerTurn).toFixed(2)}, n log n ×${(nLogN(b.n) / nLogN(a.n)).toFixed(2)}, ratio ${ratio.toFixed(2)} (goal ≤ ${TURN_GROWTH_MAX})` });
  }
  // Correctness last: bad input (strings, NaN) would teach the rules' checked paths types the
  // timed code never sees and slow it down.
  const disagreements = ucDisagreements(w);
  checks.push({ what: "universalColor = reference table", ok: disagreements <= UC_MAX_DISAGREEMENTS, detail: `${fmtInt(disagreements)} of ${fmtInt(UC_N)} triples disagree` });
  const refusals = ucRefusals();
  checks.push({ what: "universalColor refuses bad input", ok: refusals.refused === refusals.of, detail: `${refusals.refused} of ${refusals.of} bad inputs refused (RangeError)` });
  if (sink === -1) progress("");
  return { engine, throughput: rows, turn, checks, ok: checks.every((c) => c.ok) };
}

function repeat(times: number, pass: () => number): number {
  let h = 0;
  for (let k = 0; k < times; k++) h += pass();
  return h;
}

const fmtInt = (x: number): string => Math.round(x).toLocaleString("en-US");
const fmtRate = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : `${(x / 1e3).toFixed(1)} k`);

/** The closing table, as lines. */
export function formatReport(r: BenchReport): string[] {
  const out: string[] = [];
  out.push(`CASE bench — ${r.engine} (median of ${RUNS} runs; inputs prepared before timing)`);
  out.push("");
  const cpu = r.throughput.some((t) => t.cpuPerSecond !== null);
  out.push(`${"throughput".padEnd(44)} ${"ops/s".padStart(14)} ${"ns each".padStart(10)}${cpu ? " ops/s of CPU".padStart(15) : ""}   min–max ops/s`);
  for (const t of r.throughput) {
    const c = cpu ? (t.cpuPerSecond === null ? "" : fmtInt(t.cpuPerSecond)).padStart(15) : "";
    out.push(`${t.name.padEnd(44)} ${fmtInt(t.perSecond).padStart(14)} ${(1e9 / t.perSecond).toFixed(1).padStart(10)}${c}   ${fmtInt(t.min)}–${fmtInt(t.max)}`);
  }
  out.push("");
  out.push(`${"turn: combatants".padEnd(18)} ${"ms/turn".padStart(10)}${cpu ? " CPU ms/turn".padStart(12) : ""} ${"actions/turn".padStart(13)} ${"turns timed".padStart(12)} ${"µs per n log2 n".padStart(16)}`);
  for (const t of r.turn) {
    const c = cpu ? (t.cpuMsPerTurn === null ? "" : t.cpuMsPerTurn.toFixed(3)).padStart(12) : "";
    out.push(`${fmtInt(t.n).padStart(18)} ${t.msPerTurn.toFixed(3).padStart(10)}${c} ${t.actionsPerTurn.toFixed(0).padStart(13)} ${String(t.turns).padStart(12)} ${((t.msPerTurn * 1000) / nLogN(t.n)).toFixed(4).padStart(16)}`);
  }
  out.push("");
  for (const c of r.checks) out.push(`${c.ok ? "ok  " : "FAIL"} ${c.what}: ${c.detail}`);
  if (cpu) out.push("Goals are judged on elapsed time; the CPU columns show the same work without the waiting a busy machine adds.");
  out.push(r.ok ? "All goals met." : "GOALS MISSED (see FAIL above).");
  return out;
}
