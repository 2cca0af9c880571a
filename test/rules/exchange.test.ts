/**
 * The attack exchange's lifecycle: creation and its validation, every transition in and out of
 * phase (a refused transition is "stale" and changes nothing), blindsiding, avoidance, Karma,
 * called shots, pulled blows, charging, grabbing and holds, escapes, Health and undo, and the
 * Slam?/Stun?/Kill? bookkeeping. Expected values come from CASE-RULES.md.
 */
import { describe, expect, it } from "vitest";
import { exchangeInput as plainExchangeInput } from "../support/exchange-input";
import { ATTACK_CODES, EDGED_THROWING_PULL_RULE, type AttackCode } from "../../src/rules/attacks";
import {
  DEFENCE_SCORE,
  applyDeclaredDodge,
  ExchangeError,
  TARGET_SCORE_KEYS,
  applyDamage,
  chooseDefence,
  createExchange,
  declineDefence,
  defenceOptions,
  escapeHold,
  exchangeComplete,
  holdStands,
  pullBlow,
  resolveConsequence,
  rollToHit,
  targetOf,
  undoDamage,
  undoPlan,
  UNDO_TAKES_BACK_CHECKS,
  UNDO_VOIDS_THE_ROW,
  applyDamageToOthers,
  recordSlamMove,
  targetActions,
  MAX_ESCAPE_ATTEMPTS,
  type ExchangeInput,
  type ExchangeState,
  type ExchangeTarget,
  type TargetInput,
} from "../../src/rules/exchange";
import { docColorOn, docRankAt, docRankOf, docRollFor, rulesSection, rulesTable, signedNumber, tableRecords, type DocColor, RESULT_WORDS } from "../support/rules-doc";

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

const section2 = rulesSection(2).replace(/\s+/g, " ");
const section5 = rulesSection(5).replace(/\s+/g, " ");
const attackDoc = tableRecords(rulesTable(5, "code", "attack", "white", "green", "yellow", "red", "may pull"));

function attackRow(code: AttackCode): Record<string, string> {
  const row = attackDoc.find((r) => r["code"] === code);
  if (!row) throw new Error(`§5 has no ${code}.`);
  return row;
}

/** The first colour of `code` whose §5 cell is `word`. */
function colorOf(code: AttackCode, word: string): DocColor {
  const c = (["white", "green", "yellow", "red"] as const).find((x) => attackRow(code)[x] === word);
  if (!c) throw new Error(`${code} has no ${word}.`);
  return c;
}


/** §2 "(at least 10 points)" and "(capped at 100)". */
const KARMA_MIN = Number(/declared before the roll \(at least (\d+) points\)/.exec(section2)?.[1]);
const KARMA_CAP = Number(/\(capped at (\d+)\)/.exec(section2)?.[1]);

/** §5 "may pull" → what may be lowered; ET's split cell by the source attacks.ts follows ([001]). */
function docMayPull(code: AttackCode): { color: boolean; damage: boolean } {
  const cell = attackRow(code)["may pull"] ?? "";
  const words = (text: string) => ({ color: /colour/.test(text) && !/^no\b/.test(text), damage: /damage/.test(text) && !/^no\b/.test(text) });
  if (!cell.includes("[")) return words(cell.trim() === "—" ? "no" : cell);
  const part = cell.split(";").find((p) => p.includes("[001]")) ?? "";
  return words(part.replace(/\[\d+\]/, "").trim());
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const AM = 50;
const AM_INDEX = docRankOf(AM).index;

function targetInput(i = 0, over: Partial<TargetInput> = {}): TargetInput {
  return {
    uuid: `Scene.s.Token.t${i}`,
    actorUuid: `Actor.t${i}`,
    name: `Target ${i}`,
    scores: { "agility.bal": 40, "fighting.def": 40, "strength.mgt": 40, "endurance.res": 30 },
    armor: { body: 0, energy: 0 },
    ...over,
  };
}

function exchangeInput(attack: AttackCode = "BA", over: Partial<ExchangeInput> = {}): ExchangeInput {
  return plainExchangeInput({ attack, source: "test", attacker: { uuid: "Actor.a", name: "Attacker", value: AM, strength: 50, armor: 0 }, targets: [targetInput(0)], ...over });
}

const t0 = (s: ExchangeState): ExchangeTarget => targetOf(s, "0");
const roll = (c: DocColor, index = AM_INDEX) => docRollFor(index, c);

function hit(attack: AttackCode, c: DocColor, over: Partial<ExchangeInput> = {}): ExchangeState {
  const s = declineDefence(createExchange(exchangeInput(attack, over)), "0");
  return rollToHit(s, "0", { die: roll(c) });
}

/** `s` with row `key` voided as Undo leaves it (UNDO_VOIDS_THE_ROW): undone, nothing applied, no checks. */
function voided(s: ExchangeState, key: string): ExchangeState {
  return { ...s, targets: s.targets.map((t) => (t.key === key ? { ...t, phase: "undone" as const, applied: null, consequences: [] } : t)) };
}

function expectError(fn: () => unknown, kind: "stale" | "invalid", message?: RegExp): ExchangeError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ExchangeError);
  const error = caught as ExchangeError;
  expect(error.kind).toBe(kind);
  expect(error.name).toBe("ExchangeError");
  if (message) expect(error.message).toMatch(message);
  return error;
}

/** The transition is refused with `kind`, and the state it was given is left exactly as it was. */
function expectRefused(state: ExchangeState, fn: (s: ExchangeState) => unknown, kind: "stale" | "invalid", message?: RegExp): void {
  const before = JSON.stringify(state);
  expectError(() => fn(state), kind, message);
  expect(JSON.stringify(state)).toBe(before);
}

// ---------------------------------------------------------------------------------------------

describe("createExchange", () => {
  it("range per target: each row's own to-hit shift (its range) moves its column alone, after the card's", () => {
    const near = targetInput(0);
    const far = targetInput(1, { toHitCs: [{ cs: -6, label: "CASE.Exchange.RangePenaltyLabel", localize: true }] });
    const card = [{ cs: 1, label: "Marksman", localize: false }];
    let s = createExchange(exchangeInput("Sh", { targets: [near, far], toHitCs: card }));
    expect(s.targets.map((t) => t.toHitCs)).toEqual([undefined, [{ cs: -6, label: "CASE.Exchange.RangePenaltyLabel", localize: true }]]);
    s = declineDefence(declineDefence(s, "0"), "1");
    const die = roll("green");
    s = rollToHit(rollToHit(s, "0", { die }), "1", { die });
    expect(t0(s).toHit?.cs).toEqual(card);
    expect(targetOf(s, "1").toHit?.cs).toEqual([...card, { cs: -6, label: "CASE.Exchange.RangePenaltyLabel", localize: true }]);
    expect(targetOf(s, "1").toHit?.column).not.toBe(t0(s).toHit?.column);
    // A malformed row shift is refused, naming the row.
    expectError(() => createExchange(exchangeInput("Sh", { targets: [targetInput(0, { toHitCs: [{ cs: 0.5, label: "x", localize: false }] })] })), "invalid", /targets\.0\.toHitCs/);
  });

  it("starts every target awaiting its defence, with stable keys and nothing rolled", () => {
    const s = createExchange(exchangeInput("BA", { targets: [targetInput(0), targetInput(1), targetInput(2)] }));
    expect(s.version).toBeGreaterThanOrEqual(1);
    expect(s.targets.map((t) => [t.key, t.phase, t.defence, t.toHit, t.damage, t.applied, t.consequences, t.escapes])).toEqual(
      ["0", "1", "2"].map((k) => [k, "awaitingDefence", null, null, null, null, [], []]),
    );
    expect(s.targets.map((t) => t.uuid)).toEqual(["Scene.s.Token.t0", "Scene.s.Token.t1", "Scene.s.Token.t2"]);
  });

  it("does not change its input", () => {
    const input = exchangeInput("Sh", { targets: [targetInput(0), targetInput(1)], toHitCs: [{ cs: -1, label: "range", localize: false }] });
    const before = JSON.stringify(input);
    createExchange(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it.each(["XX", "ba", "", "Gr", "Sl"])("refuses the unknown attack code %j", (code) => {
    expectError(() => createExchange(exchangeInput(code as AttackCode)), "invalid", new RegExp(`"${code}"`));
  });

  const bad = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number, null as unknown as number];
  it.each(bad.map((v) => [String(v), v]))("refuses the non-rank number %s anywhere a rank number goes", (_n, v) => {
    const a = exchangeInput().attacker;
    expectError(() => createExchange(exchangeInput("BA", { attacker: { ...a, value: v } })), "invalid", /attacker\.value/);
    expectError(() => createExchange(exchangeInput("BA", { attacker: { ...a, strength: v } })), "invalid", /attacker\.strength/);
    expectError(() => createExchange(exchangeInput("BA", { attacker: { ...a, armor: v } })), "invalid", /attacker\.armor/);
    expectError(() => createExchange(exchangeInput("BA", { damage: { method: "static", value: v } })), "invalid", /damage\.value/);
    for (const key of TARGET_SCORE_KEYS) {
      expectError(() => createExchange(exchangeInput("BA", { targets: [targetInput(0, { scores: { ...targetInput().scores, [key]: v } })] })), "invalid", new RegExp(key.replace(".", "\\.")));
    }
    expectError(() => createExchange(exchangeInput("BA", { targets: [targetInput(0, { armor: { body: v, energy: 0 } })] })), "invalid", /armor\.body/);
    expectError(() => createExchange(exchangeInput("BA", { targets: [targetInput(0, { armor: { body: 0, energy: v } })] })), "invalid", /armor\.energy/);
  });

  it.each(TARGET_SCORE_KEYS.map((k) => [k]))("refuses a target whose %s is missing (not just a wrong one)", (key) => {
    const scores = Object.fromEntries(Object.entries(targetInput().scores).filter(([k]) => k !== key));
    expectError(() => createExchange(exchangeInput("BA", { targets: [targetInput(0, { scores: scores as unknown as TargetInput["scores"] })] })), "invalid", new RegExp(key.replace(".", "\\.")));
  });

  it(`Karma: 0 (none) or at least the §2 minimum (${KARMA_MIN}), a whole number`, () => {
    expect(KARMA_MIN).toBe(10);
    for (let k = 1; k < KARMA_MIN; k++) expectError(() => createExchange(exchangeInput("BA", { karma: k })), "invalid", /Karma/);
    for (const k of [-10, 10.5, Number.NaN]) expectError(() => createExchange(exchangeInput("BA", { karma: k })), "invalid", /Karma/);
    for (const k of [0, KARMA_MIN, 25, 100, 250]) expect(createExchange(exchangeInput("BA", { karma: k })).karma).toBe(k);
  });

  it.each(ATTACK_CODES.map((a) => [a]))("a called shot with %s only when its §5 row has a Bullseye", (attack) => {
    const hasBullseye = ["white", "green", "yellow", "red"].some((c) => attackRow(attack)[c] === "Bullseye");
    if (hasBullseye) expect(createExchange(exchangeInput(attack, { calledShot: true })).calledShot).toBe(true);
    else expectError(() => createExchange(exchangeInput(attack, { calledShot: true })), "invalid", new RegExp(`${attack}.*Bullseye`));
  });

  it("refuses no targets, a target listed twice, a target without a UUID", () => {
    expectError(() => createExchange(exchangeInput("BA", { targets: [] })), "invalid", /at least one target/);
    expectError(() => createExchange(exchangeInput("BA", { targets: [targetInput(0), targetInput(1), { ...targetInput(2), uuid: "Scene.s.Token.t0" }] })), "invalid", /twice/);
    expectError(() => createExchange(exchangeInput("BA", { targets: [{ ...targetInput(0), uuid: "" }] })), "invalid", /UUID/);
  });

  it("refuses an unknown damage method, projectile, or a fractional to-hit shift", () => {
    expectError(() => createExchange(exchangeInput("BA", { damage: { method: "rolled" as "static", value: 10 } })), "invalid", /damage\.method/);
    expectError(() => createExchange(exchangeInput("BT", { projectile: "rock" as "thrown" })), "invalid", /projectile/);
    expectError(() => createExchange(exchangeInput("BA", { toHitCs: [{ cs: 1.5, label: "x", localize: false }] })), "invalid", /column shift/);
  });
});

describe("refused transitions are 'stale' and change nothing", () => {
  it("chooseDefence / declineDefence: only once, only while awaiting the defence", () => {
    const s0 = createExchange(exchangeInput("BA"));
    const dodged = chooseDefence(s0, "0", { defence: "weave", die: 50, cs: [] });
    const first = JSON.stringify(dodged);
    expectRefused(dodged, (s) => chooseDefence(s, "0", { defence: "weave", die: 50, cs: [] }), "stale");
    expectRefused(dodged, (s) => chooseDefence(s, "0", { defence: "evasion", die: 99, cs: [] }), "stale");
    expectRefused(dodged, (s) => declineDefence(s, "0"), "stale");
    expect(JSON.stringify(dodged)).toBe(first);
    const declined = declineDefence(s0, "0");
    expectRefused(declined, (s) => declineDefence(s, "0"), "stale");
    expectRefused(declined, (s) => chooseDefence(s, "0", { defence: "weave", die: 50, cs: [] }), "stale");
    // The original state is untouched by either branch.
    expect(t0(s0).phase).toBe("awaitingDefence");
  });

  it("rollToHit: not before the defence, not twice, not after an avoidance", () => {
    const s0 = createExchange(exchangeInput("BA"));
    expectRefused(s0, (s) => rollToHit(s, "0", { die: 50 }), "stale");
    const rolled = rollToHit(declineDefence(s0, "0"), "0", { die: 50 });
    expectRefused(rolled, (s) => rollToHit(s, "0", { die: 50 }), "stale");
    expectRefused(rolled, (s) => rollToHit(s, "0", { die: 99 }), "stale");
    const evaded = chooseDefence(s0, "0", { defence: "evasion", die: docRollFor(docRankOf(40).index, "green"), cs: [] });
    expectRefused(evaded, (s) => rollToHit(s, "0", { die: 100 }), "stale");
  });

  it("pullBlow: only after the to-hit and before the damage is applied", () => {
    const s0 = createExchange(exchangeInput("BA"));
    expectRefused(s0, (s) => pullBlow(s, "0", { damage: 10 }), "stale");
    expectRefused(declineDefence(s0, "0"), (s) => pullBlow(s, "0", { damage: 10 }), "stale");
    const applied = applyDamage(hit("BA", "red"), "0", { value: 100, max: 100 }).state;
    expectRefused(applied, (s) => pullBlow(s, "0", { damage: 10 }), "stale");
  });

  it("applyDamage: only once, only after the to-hit", () => {
    const s0 = createExchange(exchangeInput("BA"));
    expectRefused(s0, (s) => applyDamage(s, "0", { value: 100, max: 100 }), "stale");
    expectRefused(declineDefence(s0, "0"), (s) => applyDamage(s, "0", { value: 100, max: 100 }), "stale");
    const once = applyDamage(hit("BA", "green"), "0", { value: 100, max: 100 });
    expect(once.health).toBe(60);
    expectRefused(once.state, (s) => applyDamage(s, "0", { value: 60, max: 100 }), "stale");
    expect(t0(once.state).applied).toEqual({ healthBefore: 100, healthAfter: 60, max: 100, reachedZero: false, rebound: null });
  });

  it("undoDamage: only after applying, only once", () => {
    const resolved = hit("BA", "green");
    expectRefused(resolved, (s) => undoDamage(s, "0", { value: 100, max: 100 }), "stale");
    const applied = applyDamage(resolved, "0", { value: 100, max: 100 });
    const undone = undoDamage(applied.state, "0", { value: applied.health, max: 100 });
    expect(undone.health).toBe(100);
    expectRefused(undone.state, (s) => undoDamage(s, "0", { value: 100, max: 100 }), "stale");
    // The row is voided (UNDO_VOIDS_THE_ROW): undone, its checks gone; no second Apply.
    expect(undone.state).toEqual(voided(resolved, "0"));
    expectRefused(undone.state, (s) => applyDamage(s, "0", { value: 100, max: 100 }), "stale");
  });

  it("resolveConsequence: only after the damage is applied, each check once", () => {
    const resolved = hit("BA", colorOf("BA", "Slam"));
    expectRefused(resolved, (s) => resolveConsequence(s, "0", { check: "slam", die: 99, d10: 1 }), "stale");
    const applied = applyDamage(resolved, "0", { value: 100, max: 100 }).state;
    const slammed = resolveConsequence(applied, "0", { check: "slam", die: 99, d10: 1 });
    expectRefused(slammed, (s) => resolveConsequence(s, "0", { check: "slam", die: 99, d10: 1 }), "stale");
    expectRefused(slammed, (s) => resolveConsequence(s, "0", { check: "slam", die: 1, d10: 9 }), "stale");
    // A check that is not due is bad input, not a replay.
    expectRefused(applied, (s) => resolveConsequence(s, "0", { check: "stun", die: 50 }), "invalid", /no stun check/);
    // Once a check is rolled, the damage may still be undone (UNDO_TAKES_BACK_CHECKS): the row is voided, no check due.
    const undone = undoDamage(slammed, "0", { value: 60, max: 100 });
    expect(undone.state).toEqual(voided(resolved, "0"));
    expect(targetActions(undone.state, "0").checks).toEqual([]);
    expectRefused(undone.state, (s) => resolveConsequence(s, "0", { check: "slam", die: 99, d10: 1 }), "stale");
    expectRefused(undone.state, (s) => undoDamage(s, "0", { value: 100, max: 100 }), "stale");
  });

  it("undo after checks: the rules say what the Undo takes back (undoPlan), and a row put on others may not be undone", () => {
    const slam = applyDamage(hit("BA", colorOf("BA", "Slam")), "0", { value: 100, max: 100 }).state;
    expect(UNDO_TAKES_BACK_CHECKS).toBe(true);
    expect(undoPlan(slam, "0")).toEqual({ out: false, stun: false, slam: null, kill: null, hold: null, defence: null });
    // A slam that throws (white on the End (res) column: a grand slam) takes Slammed (and a token's move) back.
    const slammed = resolveConsequence(slam, "0", { check: "slam", die: 1, d10: 1 });
    expect(targetActions(slammed, "0").undo).toBe(true);
    expect(undoPlan(slammed, "0").slam).toEqual({ moved: null });
    const stun = applyDamage(hit("BA", "red"), "0", { value: 100, max: 100 }).state;
    const stunned = resolveConsequence(stun, "0", { check: "stun", die: 1, d10: 3 });
    expect(undoPlan(stunned, "0")).toMatchObject({ stun: true, slam: null, kill: null });
    const zero = applyDamage(hit("BA", "green"), "0", { value: 10, max: 100 }).state;
    const killed = resolveConsequence(zero, "0", { check: "kill", die: 1, endurance: 30 });
    expect(undoPlan(killed, "0")).toMatchObject({ kill: { dead: false } });
    // Nothing applied, or damage put on others: no Undo.
    expectRefused(hit("BA", "green"), (s) => undoPlan(s, "0"), "stale");
    const others = applyDamageToOthers(hit("BA", "green"), "0", [{ uuid: "Actor.x", name: "X", value: 50, max: 50 }]).state;
    expect(targetActions(others, "0").undo).toBe(false);
    expectRefused(others, (s) => undoPlan(s, "0"), "stale");
  });

  it("an undone row is terminal (UNDO_VOIDS_THE_ROW): no Apply, no checks, no Escape, no second Undo; the exchange counts it settled", () => {
    expect(UNDO_VOIDS_THE_ROW).toBe(true);
    const stun = applyDamage(hit("BA", "red", { targets: [targetInput(0), targetInput(1)] }), "0", { value: 100, max: 100 }).state;
    const undone = undoDamage(stun, "0", { value: 60, max: 100 }).state;
    expect(t0(undone).phase).toBe("undone");
    // The record of what was rolled stays; what the hit did is gone.
    expect(t0(undone).toHit).toEqual(t0(stun).toHit);
    expect(t0(undone).applied).toBeNull();
    expect(targetActions(undone, "0")).toEqual({ defend: [], awaitingDefence: false, rollToHit: false, pull: false, apply: false, undo: false, checks: [], escape: false, finished: false });
    expectRefused(undone, (s) => applyDamage(s, "0", { value: 100, max: 100 }), "stale");
    expectRefused(undone, (s) => resolveConsequence(s, "0", { check: "stun", die: 50 }), "stale");
    expectRefused(undone, (s) => undoDamage(s, "0", { value: 100, max: 100 }), "stale");
    expectRefused(undone, (s) => pullBlow(s, "0", { damage: 1 }), "stale");
    // Target 1 still waits on its defence; once it is settled, so is the exchange.
    expect(exchangeComplete(undone)).toBe(false);
    expect(exchangeComplete(chooseDefence(undone, "1", { defence: "evasion", die: 100, cs: [] }))).toBe(true);
  });

  it("undoPlan names the hold the row's to-hit set (while it stands) and the defence it rolled, for Undo to take back", () => {
    const strong = { attacker: { uuid: "a", name: "A", value: AM, strength: 50, armor: 0 }, targets: [targetInput(0, { scores: { ...targetInput().scores, "strength.mgt": 40 } })] };
    const held = applyDamage(hit("Gp", colorOf("Gp", "Full Hold"), strong), "0", { value: 100, max: 100 }).state;
    expect(undoPlan(held, "0")).toMatchObject({ hold: "fullHold", defence: null });
    // A hold the target escaped is not the row's to clear.
    const strIndex = docRankOf(40).index;
    const escaped = escapeHold(held, "0", docRollFor(strIndex, "yellow"));
    expect(undoPlan(escaped, "0").hold).toBeNull();
    const blocked = createExchange(exchangeInput("BA"));
    const rolled = rollToHit(chooseDefence(blocked, "0", { defence: "block", die: 50, cs: [] }), "0", { die: 100 });
    expect(undoPlan(applyDamage(rolled, "0", { value: 100, max: 100 }).state, "0")).toMatchObject({ hold: null, defence: "block" });
    // No defence rolled: nothing to give back.
    expect(undoPlan(applyDamage(hit("BA", "red"), "0", { value: 100, max: 100 }).state, "0").defence).toBeNull();
  });

  it("undoDamage gives back this card's own change to the CURRENT Health, clamped: damage dealt since stands", () => {
    const applied = applyDamage(hit("BA", "green"), "0", { value: 110, max: 130 }); // 40 dealt: 110 → 70
    expect(applied.health).toBe(70);
    // Another card then took 15 more (70 → 55): undoing this card gives back its 40 only.
    expect(undoDamage(applied.state, "0", { value: 55, max: 130 }).health).toBe(95);
    // Healed above in the meantime: the give-back stops at the maximum.
    expect(undoDamage(applied.state, "0", { value: 120, max: 130 }).health).toBe(130);
    // Bad Health is refused, never guessed.
    expectRefused(applied.state, (s) => undoDamage(s, "0", { value: -1, max: 130 }), "invalid");
    expectRefused(applied.state, (s) => undoDamage(s, "0", { value: 1.5, max: 130 }), "invalid");
  });

  it("a pull is final (PULL_IS_FINAL): a second pull is stale", () => {
    const pulled = pullBlow(hit("BA", "red"), "0", { color: "yellow" });
    expectRefused(pulled, (s) => pullBlow(s, "0", { color: "green" }), "stale", /already pulled/);
    expect(targetActions(pulled, "0").pull).toBe(false);
  });

  it("escapes: one per combat turn per hold (mayEscape), at most MAX_ESCAPE_ATTEMPTS", () => {
    const held = hit("Gp", colorOf("Gp", "Full Hold"));
    const white = 1;
    const tried = escapeHold(held, "0", white, [], undefined, 3);
    expect(targetActions(tried, "0", 3).escape).toBe(false);
    expectRefused(tried, (s) => escapeHold(s, "0", white, [], undefined, 3), "stale", /this turn/);
    // The next turn, again.
    expect(targetActions(tried, "0", 4).escape).toBe(true);
    // Outside a combat (turn null) tries follow each other, up to the cap.
    let s = held;
    for (let i = 0; i < MAX_ESCAPE_ATTEMPTS; i++) s = escapeHold(s, "0", white);
    expect(targetActions(s, "0").escape).toBe(false);
    expectRefused(s, (x) => escapeHold(x, "0", white), "stale");
  });

  it("wording: targetActions offers no pull when no damage gets through (armor soaks it all), and does when some does", () => {
    // Damage 40 against body armor 40: a red hit deals 0, so there is nothing to pull.
    const soaked = hit("BA", "red", { targets: [targetInput(0, { armor: { body: 40, energy: 0 } })] });
    expect(soaked.targets[0]?.damage?.dealt).toBe(0);
    expect(targetActions(soaked, "0").pull).toBe(false);
    // One point less armor lets 1 through: the pull is offered again.
    const through = hit("BA", "red", { targets: [targetInput(0, { armor: { body: 39, energy: 0 } })] });
    expect(through.targets[0]?.damage?.dealt).toBeGreaterThan(0);
    expect(targetActions(through, "0").pull).toBe(true);
  });

  it("targetActions says what may happen next, phase by phase", () => {
    const s0 = createExchange(exchangeInput("BA"));
    expect(targetActions(s0, "0")).toEqual({ defend: defenceOptions(s0, "0"), awaitingDefence: true, rollToHit: false, pull: false, apply: false, undo: false, checks: [], escape: false, finished: false });
    // A helpless target (rules turn/able.ts) still waits on its defence, but is offered No defence only.
    expect(targetActions(s0, "0", null, { mayDefend: false })).toMatchObject({ defend: [], awaitingDefence: true, escape: false });
    const declined = declineDefence(s0, "0");
    expect(targetActions(declined, "0")).toMatchObject({ defend: [], rollToHit: true, apply: false });
    const red = hit("BA", "red");
    expect(targetActions(red, "0")).toMatchObject({ rollToHit: false, pull: true, apply: true, undo: false, checks: [] });
    const applied = applyDamage(red, "0", { value: 100, max: 100 }).state;
    expect(targetActions(applied, "0")).toMatchObject({ pull: false, apply: false, undo: true, checks: ["stun"] });
    const stunned = resolveConsequence(applied, "0", { check: "stun", die: 99 });
    expect(targetActions(stunned, "0")).toMatchObject({ undo: true, checks: [] });
  });

  it("escapeHold: only against a standing hold from this attack", () => {
    const s0 = createExchange(exchangeInput("Gp"));
    expectRefused(s0, (s) => escapeHold(s, "0", 99), "stale");
    expectRefused(declineDefence(s0, "0"), (s) => escapeHold(s, "0", 99), "stale");
    expectRefused(hit("BA", "red"), (s) => escapeHold(s, "0", 99), "stale", /not held/);
    expectRefused(hit("Gp", colorOf("Gp", "Miss")), (s) => escapeHold(s, "0", 99), "stale");
  });

  it("an unknown target key is invalid for every transition", () => {
    const s = createExchange(exchangeInput("BA"));
    for (const fn of [
      (x: ExchangeState) => chooseDefence(x, "9", { defence: "weave", die: 1, cs: [] }),
      (x: ExchangeState) => declineDefence(x, "9"),
      (x: ExchangeState) => rollToHit(x, "9", { die: 1 }),
      (x: ExchangeState) => pullBlow(x, "9", {}),
      (x: ExchangeState) => applyDamage(x, "9", { value: 1, max: 1 }),
      (x: ExchangeState) => undoDamage(x, "9", { value: 1, max: 1 }),
      (x: ExchangeState) => resolveConsequence(x, "9", { check: "kill", die: 1 }),
      (x: ExchangeState) => escapeHold(x, "9", 1),
      (x: ExchangeState) => defenceOptions(x, "9"),
    ]) {
      expectRefused(s, fn, "invalid", /"9"/);
    }
  });

  it("bad dice are refused and change nothing", () => {
    const s0 = createExchange(exchangeInput("BA"));
    for (const die of [0, 101, 1.5, Number.NaN]) {
      expect(() => chooseDefence(s0, "0", { defence: "weave", die, cs: [] })).toThrow();
      expect(() => rollToHit(declineDefence(s0, "0"), "0", { die })).toThrow();
    }
    expect(t0(s0).phase).toBe("awaitingDefence");
  });

  it("a defence the attack does not allow is invalid (Block vs Sh, Escape vs anything, Catch without a projectile)", () => {
    expectRefused(createExchange(exchangeInput("Sh")), (s) => chooseDefence(s, "0", { defence: "block", die: 50, cs: [] }), "invalid");
    for (const a of ATTACK_CODES) expectRefused(createExchange(exchangeInput(a)), (s) => chooseDefence(s, "0", { defence: "escape", die: 50, cs: [] }), "invalid");
    expectRefused(createExchange(exchangeInput("BT", { projectile: null })), (s) => chooseDefence(s, "0", { defence: "catch", die: 50, cs: [] }), "invalid");
  });

  it("targets are independent: a transition on one never touches another", () => {
    const s0 = createExchange(exchangeInput("BA", { targets: [targetInput(0), targetInput(1)] }));
    const s1 = rollToHit(declineDefence(s0, "1"), "1", { die: 100 });
    expect(s1.targets[0]).toEqual(s0.targets[0]);
    const s2 = applyDamage(s1, "1", { value: 50, max: 50 }).state;
    expect(s2.targets[0]).toEqual(s0.targets[0]);
    expectRefused(s2, (s) => rollToHit(s, "0", { die: 100 }), "stale");
  });
});

describe("defence timing and blindsiding", () => {
  it("a blindsided target gets no defence and goes straight to the to-hit roll (§5)", () => {
    const s0 = createExchange(exchangeInput("Sh", { blindsided: true, targets: [targetInput(0), targetInput(1)] }));
    expect(s0.targets.map((t) => t.phase)).toEqual(["awaitingToHit", "awaitingToHit"]);
    expectRefused(s0, (s) => chooseDefence(s, "0", { defence: "dodge", die: 100, cs: [] }), "stale");
    expectRefused(s0, (s) => declineDefence(s, "0"), "stale");
    const s1 = rollToHit(s0, "0", { die: 100 });
    expect(t0(s1).defence).toBeNull();
    expect(t0(s1).toHit?.cs).toEqual([]);
    expect(t0(s1).toHit?.result).toBe("kill");
  });

  it.each([
    ["BA", "evasion"],
    ["Sh", "feint"],
  ] as const)("%s: an avoiding %s ends the exchange for that target with no to-hit roll", (attack, defence) => {
    const s = chooseDefence(createExchange(exchangeInput(attack)), "0", { defence, die: 100, cs: [] });
    expect(t0(s)).toMatchObject({ phase: "resolved", toHit: null, damage: null, consequences: [] });
    expect(exchangeComplete(s)).toBe(true);
  });

  it("a Catch that catches the attack also ends it; the Catch roll carries its own −3 CS (§6)", () => {
    const catchCs = signedNumber(/Catch: ([+−-]\d+) CS when the object is aimed at the catcher/.exec(rulesSection(6).replace(/\s+/g, " "))?.[1] ?? "NaN");
    const input = exchangeInput("BT", { projectile: "thrown" });
    const column = docRankOf(40).index + catchCs;
    const s = chooseDefence(createExchange(input), "0", { defence: "catch", die: docRollFor(column, "red"), cs: [] });
    expect(t0(s).defence?.column).toBe(docRankAt(column).name.toLowerCase());
    expect(t0(s).defence?.cs.map((c) => c.cs)).toEqual([catchCs]);
    expect(t0(s)).toMatchObject({ phase: "resolved", toHit: null });
    // Other shifts on the defence roll add to it.
    const shifted = chooseDefence(createExchange(input), "0", { defence: "catch", die: docRollFor(column - 2, "red"), cs: [{ cs: -2, label: "extra defence", localize: false }] });
    expect(t0(shifted).defence?.color).toBe("red");
    expect(t0(shifted).defence?.column).toBe(docRankAt(column - 2).name.toLowerCase());
  });

  it("the defence roll reads the sub-score §6 names, with its shifts", () => {
    const scores = { "agility.bal": 2, "fighting.def": 100, "strength.mgt": 6, "endurance.res": 30 };
    const cases = [
      ["Sh", "dodge", 2],
      ["BA", "weave", 100],
      ["BA", "block", 6],
      ["En", "brace", 30],
    ] as const;
    for (const [attack, defence, value] of cases) {
      for (const die of [1, 30, 50, 70, 90, 100]) {
        const s = chooseDefence(createExchange(exchangeInput(attack, { targets: [targetInput(0, { scores })] })), "0", { defence, die, cs: [{ cs: -1, label: "x", localize: false }] });
        expect({ defence, die, color: t0(s).defence?.color }).toEqual({ defence, die, color: docColorOn(docRankOf(value).index - 1, die) });
      }
    }
  });
});

describe("Karma on the to-hit roll (§2)", () => {
  it("is added to the die, capped at 100, and read on the attack's column", () => {
    for (const karma of [KARMA_MIN, 25, 60]) {
      for (const die of [1, 20, 45, 70, 95, 100]) {
        const s = rollToHit(declineDefence(createExchange(exchangeInput("BA", { karma })), "0"), "0", { die });
        const total = Math.min(KARMA_CAP, die + karma);
        expect(t0(s).toHit).toMatchObject({ die, total, color: docColorOn(AM_INDEX, total) });
      }
    }
  });

  it("applies to the to-hit roll against each target", () => {
    let s = createExchange(exchangeInput("Sh", { karma: 30, targets: [targetInput(0), targetInput(1)] }));
    s = declineDefence(declineDefence(s, "0"), "1");
    s = rollToHit(rollToHit(s, "0", { die: 10 }), "1", { die: 10 });
    expect(s.targets.map((t) => t.toHit?.total)).toEqual([40, 40]);
  });

  it("cannot lift a roll whose column fell below Shift 0", () => {
    let s = createExchange(exchangeInput("Sh", { karma: 100, toHitCs: [{ cs: -9, label: "far", localize: false }] }));
    s = rollToHit(declineDefence(s, "0"), "0", { die: 100 });
    expect(t0(s).toHit).toMatchObject({ total: 100, belowShift0: true, result: "miss" });
  });

  it("to-hit shifts add up with the defence's", () => {
    let s = createExchange(exchangeInput("Sh", { toHitCs: [{ cs: -1, label: "range", localize: false }, { cs: -2, label: "window", localize: false }] }));
    s = chooseDefence(s, "0", { defence: "dodge", die: docRollFor(docRankOf(40).index, "green"), cs: [] });
    s = rollToHit(s, "0", { die: 60 });
    expect(t0(s).toHit?.cs.map((c) => c.cs)).toEqual([-1, -2, -2]);
    expect(t0(s).toHit?.color).toBe(docColorOn(AM_INDEX - 5, 60));
  });
});

describe("called shots (§5: a called shot needs a Bullseye)", () => {
  const bullseyeAttacks = ATTACK_CODES.filter((a) => ["white", "green", "yellow", "red"].some((c) => attackRow(a)[c] === "Bullseye"));
  it.each(bullseyeAttacks.map((a) => [a]))("%s: only the Bullseye colour lands the called shot", (attack) => {
    for (const c of ["white", "green", "yellow", "red"] as const) {
      const s = hit(attack, c, { calledShot: true });
      const word = attackRow(attack)[c];
      const t = t0(s);
      expect(t.toHit?.calledShotMissed).toBe(word !== "Miss" && word !== "Bullseye");
      if (word === "Bullseye") expect(t.damage?.dealt).toBe(40);
      else {
        expect(t.damage).toBeNull();
        expect(t.consequences).toEqual([]);
      }
      // Without a called shot the Bullseye is just a hit.
      const plain = t0(hit(attack, c));
      expect(plain.damage === null).toBe(word === "Miss");
    }
  });
});

describe("pulling the blow (§5 'may pull')", () => {
  it("ET follows attacks.ts's ruling, which takes [001] over [000]", () => {
    expect(EDGED_THROWING_PULL_RULE).toBe("none");
    expect(docMayPull("ET")).toEqual({ color: false, damage: false });
  });

  it.each(ATTACK_CODES.map((a) => [a]))("%s: colour and damage may be pulled exactly as §5 allows", (attack) => {
    const may = docMayPull(attack);
    const s = hit(attack, "red"); // red: every attack's best result, a hit for all that deal damage
    const t = t0(s);
    if (t.damage === null) {
      // Gb deals no damage: nothing to pull.
      expectRefused(s, (x) => pullBlow(x, "0", { color: "green" }), "invalid");
      return;
    }
    const lower: DocColor = attack === "Gp" ? "yellow" : "green";
    if (may.color) {
      const p = t0(pullBlow(s, "0", { color: lower }));
      expect(p.toHit).toMatchObject({ color: lower, rolledColor: "red", pulled: true, result: RESULT_WORDS[attackRow(attack)[lower] ?? ""] });
    } else expectRefused(s, (x) => pullBlow(x, "0", { color: lower }), "invalid", /colour/);
    if (may.damage) {
      const p = t0(pullBlow(s, "0", { damage: 10 }));
      expect(p.damage).toMatchObject({ raw: 10, rolledRaw: t.damage.raw, dealt: 10 });
      expect(p.toHit?.color).toBe("red");
    } else expectRefused(s, (x) => pullBlow(x, "0", { damage: 10 }), "invalid", /damage/);
    // Choosing exactly what was rolled is no pull, and is always allowed.
    expect(t0(pullBlow(s, "0", { color: "red", damage: t.damage.raw })).damage).toEqual(t.damage);
  });

  it("a replayed pull (double click) changes nothing more: it is stale, the pull is final", () => {
    const s = hit("BA", "red");
    for (const choice of [{ color: "green" as const }, { damage: 10 }, { color: "yellow" as const, damage: 5 }]) {
      const once = pullBlow(s, "0", choice);
      expectRefused(once, (x) => pullBlow(x, "0", choice), "stale");
    }
  });

  it("a pull only lowers: never a better colour or more damage", () => {
    const s = hit("BA", "green");
    expectRefused(s, (x) => pullBlow(x, "0", { color: "red" }), "invalid");
    expectRefused(s, (x) => pullBlow(x, "0", { damage: 41 }), "invalid");
    expectRefused(s, (x) => pullBlow(x, "0", { damage: -1 }), "invalid");
    expectRefused(s, (x) => pullBlow(x, "0", { color: "purple" as DocColor }), "invalid");
  });

  it("pulling the colour changes the result and the check it calls for", () => {
    const stun = hit("BA", colorOf("BA", "Stun"));
    expect(t0(stun).consequences.map((c) => c.check)).toEqual(["stun"]);
    const slam = t0(pullBlow(stun, "0", { color: colorOf("BA", "Slam") }));
    expect(slam.toHit?.result).toBe("slam");
    expect(slam.consequences.map((c) => c.check)).toEqual(["slam"]);
    const plain = t0(pullBlow(stun, "0", { color: colorOf("BA", "Hit") }));
    expect(plain.toHit?.result).toBe("hit");
    expect(plain.consequences).toEqual([]);
    const miss = t0(pullBlow(stun, "0", { color: "white" }));
    expect(miss.toHit?.result).toBe("miss");
    expect(miss.damage).toBeNull();
  });

  it("pulling the damage to nothing removes the check (§8: only when damage got through)", () => {
    const s = t0(pullBlow(hit("BA", colorOf("BA", "Stun")), "0", { damage: 0 }));
    expect(s.damage?.dealt).toBe(0);
    expect(s.consequences).toEqual([]);
  });

  it("a called shot pulled off its Bullseye no longer lands", () => {
    const s = hit("BT", colorOf("BT", "Bullseye"), { calledShot: true });
    expect(t0(s).toHit?.calledShotMissed).toBe(false);
    const p = t0(pullBlow(s, "0", { color: colorOf("BT", "Hit") }));
    expect(p.damage).toBeNull();
    expect(p.toHit?.calledShotMissed).toBe(true);
  });

  it("a pulled intensity blow keeps its damage roll", () => {
    const s = declineDefence(createExchange(exchangeInput("BA", { damage: { method: "intensity", value: 50 } })), "0");
    const r = rollToHit(s, "0", { die: 100, damageDie: 100 });
    const p = t0(pullBlow(r, "0", { damage: 5 }));
    expect(p.damage).toMatchObject({ raw: 5, rolledRaw: t0(r).damage?.raw, die: 100, dieColor: "red" });
  });
});

describe("charging (§5)", () => {
  it("a charger takes the target's body armor back, less its own armor", () => {
    for (const [targetArmor, chargerArmor] of [
      [30, 0],
      [30, 10],
      [30, 40],
      [0, 0],
    ] as const) {
      const s = hit("Ch", "green", { attacker: { uuid: "a", name: "A", value: AM, strength: 10, armor: chargerArmor }, targets: [targetInput(0, { armor: { body: targetArmor, energy: 0 } })] });
      expect(t0(s).damage).toMatchObject({ armor: targetArmor, rebound: Math.max(0, targetArmor - chargerArmor), dealt: Math.max(0, 40 - targetArmor) });
    }
  });

  it("no other attack rebounds", () => {
    for (const a of ATTACK_CODES.filter((x) => x !== "Ch")) {
      const d = t0(hit(a, "red", { targets: [targetInput(0, { armor: { body: 30, energy: 30 } })] })).damage;
      if (d) expect(d.rebound).toBe(0);
    }
  });
});

describe("grabbing and grappling (§5)", () => {
  it("Grabbing: Take, Grab and Break deal no damage and call for no check", () => {
    for (const [word, result] of [
      ["Miss", "miss"],
      ["Take", "take"],
      ["Grab", "grab"],
      ["Break", "break"],
    ] as const) {
      const t = t0(hit("Gb", colorOf("Gb", word)));
      expect(t.toHit?.result).toBe(result);
      expect(t.damage).toBeNull();
      expect(t.consequences).toEqual([]);
    }
  });

  it("Grappling: a partial hold deals no damage; a full hold deals the holder's Strength only if stronger, less body armor", () => {
    expect(t0(hit("Gp", colorOf("Gp", "Partial Hold"))).toHit?.result).toBe("partialHold");
    expect(t0(hit("Gp", colorOf("Gp", "Partial Hold"))).damage).toBeNull();
    const full = colorOf("Gp", "Full Hold");
    for (const [holder, held, armor] of [
      [50, 40, 0],
      [50, 40, 20],
      [40, 40, 0],
      [30, 40, 0],
    ] as const) {
      const t = t0(hit("Gp", full, { attacker: { uuid: "a", name: "A", value: AM, strength: holder, armor: 0 }, targets: [targetInput(0, { scores: { ...targetInput().scores, "strength.mgt": held }, armor: { body: armor, energy: 0 } })] }));
      expect(t.toHit?.result).toBe("fullHold");
      if (holder > held) expect(t.damage).toMatchObject({ raw: holder, armor, dealt: holder - armor });
      else expect(t.damage).toBeNull();
    }
  });
});

describe("escaping a hold (§6 Escape: Str (mgt); white/green fail, yellow escape, red reversal)", () => {
  const strIndex = docRankOf(40).index;
  const partial = colorOf("Gp", "Partial Hold");
  const full = colorOf("Gp", "Full Hold");

  it.each([partial, full].map((c) => [c]))("from a %s hold", (c) => {
    const held = hit("Gp", c);
    expect(holdStands(t0(held))).toBe(true);
    let s = escapeHold(held, "0", docRollFor(strIndex, "white"));
    s = escapeHold(s, "0", docRollFor(strIndex, "green"));
    expect(t0(s).escapes.map((e) => e.result)).toEqual(["fail", "fail"]);
    expect(holdStands(t0(s))).toBe(true);
    const escaped = escapeHold(s, "0", docRollFor(strIndex, "yellow"));
    expect(t0(escaped).escapes.map((e) => e.result)).toEqual(["fail", "fail", "escape"]);
    expect(holdStands(t0(escaped))).toBe(false);
    expectRefused(escaped, (x) => escapeHold(x, "0", 100), "stale");
    const reversed = escapeHold(held, "0", docRollFor(strIndex, "red"));
    expect(t0(reversed).escapes.map((e) => e.result)).toEqual(["reversal"]);
    expectRefused(reversed, (x) => escapeHold(x, "0", 100), "stale");
  });

  it("the hold's −2 CS (§5 Partial Hold) shifts the escape roll when the caller passes it", () => {
    const cs = signedNumber(/Partial Hold: ([+−-]\d+) CS on all actions of the held/.exec(section5)?.[1] ?? "NaN");
    const die = docRollFor(strIndex, "yellow");
    const s = escapeHold(hit("Gp", partial), "0", die, [{ cs, label: "hold", localize: false }]);
    expect(t0(s).escapes[0]?.color).toBe(docColorOn(strIndex + cs, die));
  });

  it("works once the damage is applied too", () => {
    const applied = applyDamage(hit("Gp", full), "0", { value: 100, max: 100 }).state;
    expect(t0(escapeHold(applied, "0", 100)).escapes.map((e) => e.result)).toEqual(["reversal"]);
  });
});

describe("Health (§7, §8)", () => {
  it("damage comes off Health, never below 0; undo restores it exactly", () => {
    for (const [value, max, expected] of [
      [100, 100, 60],
      [40, 100, 0],
      [10, 100, 0],
      [0, 100, 0],
    ] as const) {
      const r = applyDamage(hit("BA", "green"), "0", { value, max });
      expect(r.health).toBe(expected);
      expect(t0(r.state).applied).toMatchObject({ healthBefore: value, healthAfter: expected, max });
      expect(undoDamage(r.state, "0", { value: r.health, max }).health).toBe(value);
    }
  });

  it("Health above its maximum (the maximum fell) is clamped, not refused; undo gives back the change, clamped to the maximum", () => {
    const r = applyDamage(hit("BA", "green"), "0", { value: 120, max: 100 });
    expect(r.health).toBe(60);
    expect(undoDamage(r.state, "0", { value: 60, max: 100 }).health).toBe(100);
    const none = applyDamage(hit("BA", "white"), "0", { value: 120, max: 100 });
    expect(none.health).toBe(100);
  });

  it("a miss applies as no damage", () => {
    const r = applyDamage(hit("BA", "white"), "0", { value: 50, max: 100 });
    expect(r.health).toBe(50);
    expect(t0(r.state).consequences).toEqual([]);
    expect(exchangeComplete(r.state)).toBe(true);
  });

  it("bad Health is refused and changes nothing", () => {
    const s = hit("BA", "green");
    for (const h of [
      { value: -1, max: 100 },
      { value: 1.5, max: 100 },
      { value: Number.NaN, max: 100 },
      { value: 10, max: -5 },
    ]) {
      const before = JSON.stringify(s);
      expect(() => applyDamage(s, "0", h)).toThrow();
      expect(JSON.stringify(s)).toBe(before);
    }
  });

  it("reaching 0 adds a Kill? check; undo takes it away again, keeping the result's own check", () => {
    const slam = hit("BA", colorOf("BA", "Slam"));
    const applied = applyDamage(slam, "0", { value: 30, max: 100 });
    expect(t0(applied.state).applied?.reachedZero).toBe(true);
    expect(t0(applied.state).consequences.map((c) => [c.check, c.cause])).toEqual([
      ["slam", "result"],
      ["kill", "health"],
    ]);
    const undone = undoDamage(applied.state, "0", { value: applied.health, max: 100 });
    expect(undone.health).toBe(30);
    // The row is voided (UNDO_VOIDS_THE_ROW): no check is left, and it is not applied again.
    expect(t0(undone.state).consequences).toEqual([]);
    expect(undone.state).toEqual(voided(slam, "0"));
    expectRefused(undone.state, (s) => applyDamage(s, "0", { value: 100, max: 100 }), "stale");
  });
});

describe("consequence input", () => {
  it("a bad Endurance is refused before it reaches the stored state", () => {
    const s = applyDamage(hit("EA", colorOf("EA", "Kill")), "0", { value: 100, max: 100 }).state;
    for (const endurance of [-1, 2.5, Number.NaN]) {
      expectRefused(s, (x) => resolveConsequence(x, "0", { check: "kill", die: 100, endurance }), "invalid", /Endurance/);
    }
    // A bad die is refused too (a RangeError from the Universal Table, not an ExchangeError).
    const before = JSON.stringify(s);
    expect(() => resolveConsequence(s, "0", { check: "kill", die: 0, endurance: 30 })).toThrow(RangeError);
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe("exchangeComplete", () => {
  it("is false while anything is pending and true once every target is settled", () => {
    let s = createExchange(exchangeInput("BA", { targets: [targetInput(0), targetInput(1)] }));
    expect(exchangeComplete(s)).toBe(false);
    s = chooseDefence(s, "1", { defence: "evasion", die: 100, cs: [] }); // avoided
    expect(exchangeComplete(s)).toBe(false);
    s = rollToHit(declineDefence(s, "0"), "0", { die: roll(colorOf("BA", "Stun")) });
    expect(exchangeComplete(s)).toBe(false); // damage not applied
    s = applyDamage(s, "0", { value: 100, max: 100 }).state;
    expect(exchangeComplete(s)).toBe(false); // Stun? not rolled
    s = resolveConsequence(s, "0", { check: "stun", die: 100 });
    expect(exchangeComplete(s)).toBe(true);
  });

  it("a hit that does no damage needs no applying", () => {
    const s = hit("BA", "green", { targets: [targetInput(0, { armor: { body: 100, energy: 0 } })] });
    expect(exchangeComplete(s)).toBe(true);
  });
});

describe("the stored state", () => {
  it("never changes in place: frozen states go through every transition", () => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === "object") {
        Object.freeze(o);
        for (const v of Object.values(o)) deepFreeze(v);
      }
      return o;
    };
    let s = deepFreeze(createExchange(exchangeInput("BA", { targets: [targetInput(0), targetInput(1)] })));
    s = deepFreeze(chooseDefence(s, "0", { defence: "block", die: 50, cs: [] }));
    s = deepFreeze(rollToHit(s, "0", { die: 100 }));
    s = deepFreeze(pullBlow(s, "0", { color: colorOf("BA", "Stun") }));
    s = deepFreeze(applyDamage(s, "0", { value: 10, max: 100 }).state);
    const applied = s;
    s = deepFreeze(resolveConsequence(s, "0", { check: "stun", die: 1, d10: 4 }));
    s = deepFreeze(resolveConsequence(s, "0", { check: "kill", die: 1, endurance: 30 }));
    expect(t0(s).consequences.every((c) => c.outcome !== null)).toBe(true);
    expect(t0(deepFreeze(undoDamage(applied, "0", { value: 10, max: 100 }).state)).phase).toBe("undone");
    expect(JSON.parse(JSON.stringify(s))).toStrictEqual(s);
  });
});

describe("a declared dodge (optional rule, §6)", () => {
  const input = (attack: "Sh" | "BA") =>
    createExchange(exchangeInput(attack, {
      source: "Test",
      attacker: { uuid: "Actor.a", name: "A", value: 30, strength: 10, armor: 0 },
      damage: { method: "static", value: 20 },
      targets: [{ uuid: "Actor.t", actorUuid: "Actor.t", name: "T", scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 } }],
    }));

  it("settles the defence with the shift rolled after initiative, and the to-hit reads it", () => {
    const dodged = applyDeclaredDodge(input("Sh"), "0", -4);
    expect(dodged.targets[0]).toMatchObject({ phase: "awaitingToHit", defence: { code: "dodge", die: null, outcome: { attackCs: -4 } } });
    // Agy (dex) Remarkable −4 CS is Poor: 60 is green there (56–85).
    expect(rollToHit(dodged, "0", { die: 60 }).targets[0]?.toHit).toMatchObject({ column: "poor", color: "green" });
  });

  it("is refused against an attack that cannot be dodged, with a positive shift, and twice", () => {
    expect(() => applyDeclaredDodge(input("BA"), "0", -2)).toThrow(/cannot be dodged/);
    expect(() => applyDeclaredDodge(input("Sh"), "0", 2)).toThrow(/0 or negative/);
    const once = applyDeclaredDodge(input("Sh"), "0", -2);
    expect(() => applyDeclaredDodge(once, "0", -2)).toThrow(expect.objectContaining({ kind: "stale" }) as Error);
  });
});

describe("the score each defence rolls on", () => {
  it("is the §6 table's 'rolls on' column, for every defence", () => {
    const words: Record<string, string> = { Ftg: "fighting", Agy: "agility", Str: "strength", End: "endurance" };
    for (const row of tableRecords(rulesTable(6, "defence", "rolls on"))) {
      const m = /^(\w+) \((\w+)\)$/.exec(row["rolls on"] ?? "");
      expect(m, row.defence).not.toBeNull();
      const code = (row.defence ?? "").toLowerCase() as keyof typeof DEFENCE_SCORE;
      expect(DEFENCE_SCORE[code]).toBe(`${words[m?.[1] ?? ""] ?? "?"}.${m?.[2] ?? ""}`);
    }
  });
});

describe("apply to selected and slam moves: the exchange's board records", () => {
  it("apply to selected: the row's damage goes to the others instead of the target, once; no checks, no undo", () => {
    const resolved = hit("BA", colorOf("BA", "Slam"));
    const dealt = t0(resolved).damage?.dealt ?? 0;
    expect(dealt).toBe(40);
    const others = [
      { uuid: "Scene.s.Token.b1", name: "Bystander", value: 30, max: 50 },
      { uuid: "Scene.s.Token.b2", name: "Second", value: 100, max: 100 },
    ];
    const done = applyDamageToOthers(resolved, "0", others);
    expect(done.health).toEqual([
      { uuid: "Scene.s.Token.b1", health: 0 },
      { uuid: "Scene.s.Token.b2", health: 60 },
    ]);
    const row = t0(done.state);
    expect(row.phase).toBe("applied");
    expect(row.applied?.others).toEqual([
      { uuid: "Scene.s.Token.b1", name: "Bystander", before: 30, after: 0, max: 50 },
      { uuid: "Scene.s.Token.b2", name: "Second", before: 100, after: 60, max: 100 },
    ]);
    expect(row.consequences).toEqual([]);
    expect(targetActions(done.state, "0")).toMatchObject({ apply: false, undo: false, checks: [] });
    expect(exchangeComplete(done.state)).toBe(true);
    expectRefused(done.state, (s) => applyDamageToOthers(s, "0", others), "stale");
    expectRefused(resolved, (s) => applyDamageToOthers(s, "0", []), "invalid");
    const bystander = { uuid: "Scene.s.Token.b1", name: "Bystander", value: 30, max: 50 };
    expectRefused(resolved, (s) => applyDamageToOthers(s, "0", [bystander, bystander]), "invalid");
    expectRefused(resolved, (s) => applyDamageToOthers(s, "0", [{ ...bystander, value: -1 }]), "invalid");
    expectRefused(createExchange(exchangeInput("BA")), (s) => applyDamageToOthers(s, "0", others), "stale");
  });

  it("slam moves: the card records where the token went, once, and only after a slam was rolled", () => {
    const applied = applyDamage(hit("BA", colorOf("BA", "Slam")), "0", { value: 100, max: 100 }).state;
    const move = { heading: "away", to: { x: 4, y: 2 }, areas: 1, edge: false } as const;
    expectRefused(applied, (s) => recordSlamMove(s, "0", move), "invalid");
    const slammed = resolveConsequence(applied, "0", { check: "slam", die: 30, d10: 7 });
    const moved = recordSlamMove(slammed, "0", move);
    expect(t0(moved).consequences.find((c) => c.check === "slam")?.moved).toEqual(move);
    expectRefused(moved, (s) => recordSlamMove(s, "0", move), "stale");
  });
});
