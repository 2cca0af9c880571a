/**
 * The performance fast paths of src/rules agree with the plain code they stand in for, on every
 * input they take and on the inputs they hand back to the plain path: rankOf's table, the
 * default defence list per attack, the field-by-field copies of exchange states and turn parts
 * (each against the spread it replaces, and the exchange's memory of what it last wrote against
 * copies it cannot know), the membership checks written as switches (against their lists), and
 * universalColor on every rank number, roll and shift.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, ATTACK_RESULTS, HIT_RESULTS, isAttackCode, isAttackResult, isHit } from "../../src/rules/attacks";
import { DAMAGE_METHODS, isDamageMethod } from "../../src/rules/damage";
import { DEFAULT_DEFENCE_RULINGS, DEFENCE_CODES, combineProtection, defenceApplies, defencesAgainst, attackColorAfterAutoHit } from "../../src/rules/defences";
import {
  ExchangeError,
  applyDamage,
  chooseDefence,
  createExchange,
  declineDefence,
  defenceOptions,
  escapeHold,
  holdStands,
  pullBlow,
  resolveConsequence,
  rollToHit,
  targetOf,
  undoDamage,
  type ExchangeInput,
  type ExchangeState,
} from "../../src/rules/exchange";
import { hasExactlyStateKeys, replaceTarget } from "../../src/rules/exchange/copy";
import { initiativeTies, orderInitiative, type InitiativeEntry } from "../../src/rules/initiative";
import { MAX_RANK_INDEX, RANKS, rankOf, shiftColumn } from "../../src/rules/ranks";
import { createCombatTurn, createCombatantTurn, type CombatTurn, type CombatantTurn, type InitiativeState } from "../../src/rules/turn";
import { combatWith, combatantCopy, fieldsThatDiffer, initiativeWith } from "../../src/rules/turn/copy";
import { COLORS, UNIVERSAL_TABLE, colorOnColumn, isColor, universalColor } from "../../src/rules/universal-table";
import { exchangeInput, exchangeTarget } from "../support/exchange-input";

/** The rank whose range holds `value`, straight from the ladder's rows (the reference). */
function ladderRank(value: number): (typeof RANKS)[number] {
  let found = RANKS[0];
  for (const r of RANKS) if (value >= r.min) found = r;
  if (!found) throw new Error("empty ladder");
  return found;
}

describe("rankOf's table", () => {
  it("agrees with the ladder's ranges for every rank number 0 … 6,000 and some beyond", () => {
    const top = RANKS[MAX_RANK_INDEX];
    if (!top) throw new Error("no top rank");
    for (let v = 0; v <= 6000; v++) expect(rankOf(v)).toBe(ladderRank(v));
    for (const v of [top.min - 1, top.min, top.min + 1, 10_000, 2 ** 31, Number.MAX_SAFE_INTEGER]) expect(rankOf(v)).toBe(ladderRank(v));
  });

  it("still refuses what is not a rank number, with the same RangeError", () => {
    for (const v of [-1, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "30" as unknown as number]) {
      expect(() => rankOf(v)).toThrow(RangeError);
    }
    expect(rankOf(-0)).toBe(RANKS[0]);
  });
});

describe("universalColor's fast path", () => {
  it("agrees with the bands read by colorOnColumn for every rank number up to 5,200, roll and shift −20 … +20", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (let v = 0; v <= 5200; v += v < 200 ? 1 : 7) {
      for (let cs = -20; cs <= 20; cs++) {
        const column = shiftColumn(v, cs).rank;
        for (let roll = 1; roll <= 100; roll++, checked++) if (universalColor(v, roll, cs) !== colorOnColumn(column, roll, UNIVERSAL_TABLE)) wrong.push(`${v}/${roll}/${cs}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(3_000_000);
  });

  it("agrees on any input, refusing the same ones", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double()), fc.oneof(fc.integer({ min: -5, max: 110 }), fc.double()), fc.oneof(fc.integer({ min: -200, max: 200 }), fc.double()), (v, roll, cs) => {
        let reference: string;
        try {
          if (!Number.isInteger(roll) || roll < 1 || roll > 100) throw new RangeError("roll");
          reference = colorOnColumn(shiftColumn(v, cs).rank, roll, UNIVERSAL_TABLE);
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          expect(() => universalColor(v, roll, cs)).toThrow(RangeError);
          return;
        }
        expect(universalColor(v, roll, cs)).toBe(reference);
        expect(COLORS).toContain(reference);
      }),
    );
  });
});

describe("defences under the default rulings", () => {
  it("the cached list per attack equals the defence-by-defence check with the default rulings spelt out", () => {
    for (const a of ATTACK_CODES) {
      const reference = DEFENCE_CODES.filter((d) => defenceApplies(d, a, { ...DEFAULT_DEFENCE_RULINGS }));
      expect(defencesAgainst(a)).toEqual(reference);
      expect(defencesAgainst(a, {})).toEqual(reference);
      expect(defencesAgainst(a, { ...DEFAULT_DEFENCE_RULINGS })).toEqual(reference);
      for (const d of DEFENCE_CODES) expect(defenceApplies(d, a)).toBe(reference.includes(d));
    }
  });

  it("hands out a fresh list each time (a caller may change its copy)", () => {
    const first = defencesAgainst("BA");
    first.length = 0;
    expect(defencesAgainst("BA").length).toBeGreaterThan(0);
    expect(defencesAgainst("BA")).not.toBe(defencesAgainst("BA"));
  });

  it("still merges and checks rulings that are given", () => {
    expect(defencesAgainst("Ch", { blockAppliesToCharge: false })).not.toContain("block");
    expect(() => defencesAgainst("BA", { blockAppliesToCharge: "yes" as unknown as boolean })).toThrow(TypeError);
    expect(() => defencesAgainst("BA", null as unknown as object)).toThrow(TypeError);
    expect(combineProtection(30, 30)).toBe(combineProtection(30, 30, { ...DEFAULT_DEFENCE_RULINGS }));
    expect(combineProtection(30, 30, { buddyStackMaxRankGap: 0, buddyStackCs: 2 })).toBeGreaterThan(combineProtection(30, 30));
    expect(attackColorAfterAutoHit("white")).toBe(DEFAULT_DEFENCE_RULINGS.autoHitMinColor);
    expect(attackColorAfterAutoHit("white", { autoHitMinColor: "yellow" })).toBe("yellow");
  });
});

function input(): ExchangeInput {
  const scores = { "agility.bal": 20, "fighting.def": 20, "strength.mgt": 20, "endurance.res": 20 };
  return exchangeInput({
    source: "Fist",
    attacker: { uuid: "Actor.a", name: "A", value: 30, strength: 30, armor: 0 },
    damage: { method: "static", value: 30 },
    targets: [exchangeTarget({ scores }), exchangeTarget({ uuid: "Actor.u", actorUuid: "Actor.u", name: "U", scores })],
  });
}

describe("replaceTarget (exchange states)", () => {
  it("equals the spread it replaces, key order included, for one target and for several", () => {
    const two = createExchange(input());
    const one = createExchange({ ...input(), targets: input().targets.slice(0, 1) });
    for (const state of [one, two]) {
      for (const target of state.targets) {
        const row = { ...target, phase: "awaitingToHit" as const };
        const spread: ExchangeState = { ...state, targets: state.targets.map((t) => (t.key === row.key ? row : t)) };
        const fast = replaceTarget(state, row);
        expect(fast).toStrictEqual(spread);
        expect(Object.keys(fast)).toEqual(Object.keys(spread));
        expect(fast.targets[Number(row.key)]).toBe(row);
      }
    }
  });

  it("keeps a field this version does not know (a stored state), and any key order", () => {
    const state = { ...createExchange(input()), addedByANewerVersion: { x: 1 } } as ExchangeState;
    expect(hasExactlyStateKeys(state)).toBe(false);
    const next = declineDefence(state, "0");
    expect((next as unknown as Record<string, unknown>).addedByANewerVersion).toEqual({ x: 1 });
    const { targets, ...rest } = createExchange(input());
    const reordered = { targets, ...rest } as ExchangeState;
    expect(hasExactlyStateKeys(reordered)).toBe(true);
    expect(rollToHit(declineDefence(reordered, "1"), "1", { die: 90 })).toStrictEqual(rollToHit(declineDefence(createExchange(input()), "1"), "1", { die: 90 }));
    const missing: Record<string, unknown> = { ...createExchange(input()) };
    delete missing.source;
    expect(hasExactlyStateKeys(missing as unknown as ExchangeState)).toBe(false);
    expect("source" in declineDefence(missing as unknown as ExchangeState, "0")).toBe(false);
  });
});

/** One step of an exchange walk: which row, and the dice and choices it uses. */
interface WalkStep {
  readonly key: number;
  readonly die: number;
  readonly die2: number;
  readonly d10: number;
  readonly pick: number;
}

/** The transition `step` stands for in `s` (the row's next natural step), applied to `s`. */
function transition(s: ExchangeState, step: WalkStep): ExchangeState {
  const key = String(step.key % s.targets.length);
  const t = targetOf(s, key);
  switch (t.phase) {
    case "awaitingDefence": {
      const options = defenceOptions(s, key);
      if (step.pick % 3 === 0 || options.length === 0) return declineDefence(s, key);
      return chooseDefence(s, key, { defence: options[step.pick % options.length] ?? "dodge", die: step.die, cs: step.pick % 2 ? [{ cs: -1, label: "extra", localize: false }] : [] });
    }
    case "awaitingToHit":
      return rollToHit(s, key, { die: step.die, damageDie: step.die2, strengthDie: step.die2 });
    case "resolved":
      if (holdStands(t) && step.pick % 4 === 0) return escapeHold(s, key, step.die);
      if (step.pick % 5 === 1) return pullBlow(s, key, { color: COLORS[step.pick % 4] });
      return applyDamage(s, key, { value: step.die2, max: 100 }, { value: 40, max: 40 }).state;
    case "applied": {
      const due = t.consequences.find((c) => c.outcome === null);
      if (due) return resolveConsequence(s, key, { check: due.check, die: step.die, d10: step.d10, hasActed: step.pick % 2 === 0, endurance: t.scores["endurance.res"] });
      return undoDamage(s, key, { value: 10, max: 100 }).state;
    }
    case "undone":
      // Terminal (UNDO_VOIDS_THE_ROW): refused, which ends the walk.
      return undoDamage(s, key, { value: 10, max: 100 }).state;
  }
}

/** The states a walk from `start(new state)` goes through (as JSON text: key order counts), each step handed `hand(previous)`; a refusal ends it. */
function walkThrough(input: ExchangeInput, steps: readonly WalkStep[], hand: (s: ExchangeState) => ExchangeState, start: (s: ExchangeState) => ExchangeState = (s) => s): string[] {
  const seen: string[] = [];
  let s = start(createExchange(input));
  seen.push(JSON.stringify(s));
  for (const step of steps) {
    try {
      s = transition(hand(s), step);
    } catch (error) {
      seen.push(error instanceof ExchangeError ? `${error.kind}: ${error.message}` : String(error));
      break;
    }
    seen.push(JSON.stringify(s));
  }
  return seen;
}

const rankArb = fc.constantFrom(0, 2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150);
const walkInputArb = fc
  .record({
    attack: fc.constantFrom(...ATTACK_CODES),
    value: rankArb,
    strength: rankArb,
    armor: rankArb,
    damage: rankArb,
    intensity: fc.boolean(),
    karma: fc.constantFrom(0, 10, 30),
    blindsided: fc.boolean(),
    action: fc.boolean(),
    area: fc.nat(3),
    targets: fc.array(fc.tuple(rankArb, rankArb, rankArb, rankArb, rankArb, rankArb), { minLength: 1, maxLength: 3 }),
  })
  .map((r): ExchangeInput => {
    const area = r.area === 0 && ATTACKS_RANGED.has(r.attack) ? { shape: "burst" as const, radius: 1, explosive: true } : undefined;
    return {
      attack: r.attack,
      source: "Walk",
      attacker: { uuid: "Actor.a", name: "A", value: r.value, strength: r.strength, armor: r.armor },
      toHitCs: r.karma === 30 ? [] : [{ cs: -1, label: "range", localize: false }],
      karma: r.karma,
      damage: { method: r.intensity ? "intensity" : "static", value: r.damage },
      calledShot: false,
      blindsided: r.blindsided,
      projectile: r.attack === "BT" ? "thrown" : null,
      ...(r.action ? { strengthContest: "action" as const } : {}),
      ...(area ? { area } : {}),
      targets: r.targets.map(([bal, def, mgt, res, body, energy], i) => ({ uuid: `Actor.t${i}`, actorUuid: `Actor.t${i}`, name: `T${i}`, scores: { "agility.bal": bal, "fighting.def": def, "strength.mgt": mgt, "endurance.res": res }, armor: { body, energy }, ...(area ? { areaDistance: i % 2 } : {}) })),
    };
  });
const ATTACKS_RANGED: ReadonlySet<string> = new Set(["BT", "ET", "En", "Fo", "Sh"]);
const walkStepsArb = fc.array(fc.record({ key: fc.nat(2), die: fc.integer({ min: 1, max: 100 }), die2: fc.integer({ min: 1, max: 100 }), d10: fc.integer({ min: 1, max: 10 }), pick: fc.nat(59) }), { maxLength: 14 });

describe("the exchange's memory of the last state and row it wrote", () => {
  it("a walk handed each state as returned (remembered) goes through the same states, key order included, as one handed copies (keys read) or spreads", () => {
    fc.assert(
      fc.property(walkInputArb, walkStepsArb, (input, steps) => {
        const remembered = walkThrough(input, steps, (s) => s);
        expect(walkThrough(input, steps, (s) => JSON.parse(JSON.stringify(s)) as ExchangeState)).toEqual(remembered);
        expect(walkThrough(input, steps, (s) => ({ ...s, targets: s.targets.map((t) => ({ ...t })) }))).toEqual(remembered);
      }),
      { numRuns: 400 },
    );
  });

  it("a state and rows with a field this version does not know keep it through a whole walk, handed on as returned or fresh", () => {
    const withExtra = (s: ExchangeState): ExchangeState => ({ ...s, fromANewerVersion: 1, targets: s.targets.map((t) => ({ ...t, sealed: false })) }) as ExchangeState;
    const withoutExtra = (text: string): string => {
      if (!text.startsWith("{")) return text;
      const { fromANewerVersion, ...state } = JSON.parse(text) as ExchangeState & { fromANewerVersion?: number };
      expect(fromANewerVersion).toBe(1);
      for (const t of state.targets) expect(t.sealed).toBe(false);
      return JSON.stringify({ ...state, targets: state.targets.map(({ sealed: _sealed, ...t }) => t) });
    };
    fc.assert(
      fc.property(walkInputArb, walkStepsArb, (input, steps) => {
        const remembered = walkThrough(input, steps, (s) => s);
        for (const extra of [walkThrough(input, steps, (s) => s, withExtra), walkThrough(input, steps, withExtra, withExtra)]) {
          expect(extra.length).toBe(remembered.length);
          expect(extra.map(withoutExtra)).toEqual(remembered);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("membership checks written as switches", () => {
  const strangers: unknown[] = ["", "ba", "BA ", "Bullseye", "WHITE", "blue", "none", "static ", "__proto__", "constructor", "toString", "hasOwnProperty", 0, 1, null, undefined, true, {}, [], ["BA"], new String("BA"), Symbol("BA")];

  it("isAttackCode, isAttackResult, isColor and isDamageMethod say yes to exactly their lists' members", () => {
    const checks: [(v: unknown) => boolean, readonly unknown[]][] = [
      [isAttackCode, ATTACK_CODES],
      [isAttackResult, ATTACK_RESULTS],
      [isColor, COLORS],
      [isDamageMethod, DAMAGE_METHODS],
    ];
    const everyMember = [...ATTACK_CODES, ...ATTACK_RESULTS, ...COLORS, ...DAMAGE_METHODS];
    for (const [check, list] of checks) {
      for (const v of [...everyMember, ...strangers]) expect(check(v)).toBe(list.includes(v));
      fc.assert(fc.property(fc.oneof(fc.string(), fc.anything()), (v) => check(v) === list.includes(v)));
    }
  });

  it("isHit says yes to exactly HIT_RESULTS, and still refuses what is no result", () => {
    for (const r of ATTACK_RESULTS) expect(isHit(r)).toBe(HIT_RESULTS.includes(r));
    for (const v of strangers) expect(() => isHit(v as (typeof ATTACK_RESULTS)[number])).toThrow(RangeError);
  });
});

function combatant(): CombatantTurn {
  return createCombatantTurn("c1", { initiativeModifier: 2, offence: 30, balance: 20, freeDefences: 2, endurance: 30 });
}

describe("the turn's copies", () => {
  const fieldSets: Partial<CombatantTurn>[] = [{}, { actionsUsed: 1 }, { actionsUsed: 2, actedInRound: 1, nextActionCs: 0 }, { initiative: { d10: 4, total: 6, rollOffs: [] }, declaration: null }];

  /** What a step makes of `c`: its copy, `fields` set on it, frozen. */
  const stepCopy = (c: CombatantTurn, fields: Partial<CombatantTurn>): CombatantTurn => Object.freeze(Object.assign(combatantCopy(c), fields));

  it("a combatant's copy with fields set and frozen equals Object.freeze({ ...c, ...fields }): values, key order, frozen", () => {
    for (const fields of fieldSets) {
      const c = combatant();
      expect(combatantCopy(c)).toStrictEqual({ ...c });
      const fast = stepCopy(c, fields);
      const spread = Object.freeze({ ...c, ...fields });
      expect(fast).toStrictEqual(spread);
      expect(Object.keys(fast)).toEqual(Object.keys(spread));
      expect(Object.isFrozen(fast)).toBe(true);
      expect(Object.isFrozen(c)).toBe(true);
    }
  });

  it("a combatant with an unknown field or without one, or a new field set, keeps them as the spread would", () => {
    const odd = Object.freeze({ ...combatant(), fromAModule: 1 }) as CombatantTurn;
    const fast = stepCopy(odd, { actionsUsed: 1 });
    expect((fast as unknown as Record<string, unknown>).fromAModule).toBe(1);
    expect(Object.keys(fast)).toEqual(Object.keys({ ...odd, actionsUsed: 1 }));
    const { dyingFresh: _, ...older } = combatant();
    const lacking = Object.freeze(older) as CombatantTurn;
    expect(Object.keys(stepCopy(lacking, { actionsUsed: 1 }))).toEqual(Object.keys({ ...lacking, actionsUsed: 1 }));
    expect(stepCopy(lacking, { dyingFresh: true })).toStrictEqual({ ...lacking, dyingFresh: true });
    const added = stepCopy(combatant(), { extraField: 2 } as Partial<CombatantTurn>);
    expect(Object.keys(added)).toEqual([...Object.keys(combatant()), "extraField"]);
  });

  it("combatWith, initiativeWith and fieldsThatDiffer equal the spreads and filters they replace", () => {
    const combat: CombatTurn = createCombatTurn();
    for (const fields of [{}, { cursor: 3 }, { phase: "resolve", round: 1, order: ["a"] }] as Partial<CombatTurn>[]) {
      expect(combatWith(combat, fields)).toStrictEqual({ ...combat, ...fields });
      expect(Object.keys(combatWith(combat, fields))).toEqual(Object.keys({ ...combat, ...fields }));
      const reference = Object.fromEntries(Object.entries(fields).filter(([k, v]) => (combat as unknown as Record<string, unknown>)[k] !== v));
      expect(fieldsThatDiffer(combat, { ...fields, number: combat.number })).toStrictEqual(reference);
    }
    const odd = { ...combat, extra: true } as CombatTurn;
    expect(combatWith(odd, { cursor: 1 })).toStrictEqual({ ...odd, cursor: 1 });
    const initiative: InitiativeState = { d10: null, total: null, rollOffs: [] };
    expect(initiativeWith(initiative, { d10: 3, total: 5 })).toStrictEqual({ ...initiative, d10: 3, total: 5 });
    expect(initiativeWith(Object.freeze(initiative), { rollOffs: [4] })).toStrictEqual({ d10: null, total: null, rollOffs: [4] });
  });
});

describe("initiative order by number keys", () => {
  /** The order rule spelt out (CASE-RULES §4 and the rulings): total, modifier, tiebreak (none lowest), then input order. */
  function reference(entries: readonly InitiativeEntry[], byModifier: boolean): string[] {
    return entries
      .map((e, i) => ({ e, i }))
      .sort((a, b) => b.e.total - a.e.total || (byModifier ? b.e.modifier - a.e.modifier : 0) || (b.e.tiebreak ?? -Infinity) - (a.e.tiebreak ?? -Infinity) || a.i - b.i)
      .map((x) => x.e.id);
  }
  const entry = fc.record(
    {
      total: fc.oneof(fc.integer({ min: -3, max: 20 }), fc.integer({ min: -100_000, max: 100_000 })),
      modifier: fc.oneof(fc.integer({ min: -3, max: 8 }), fc.integer({ min: -5000, max: 5000 })),
      tiebreak: fc.oneof(fc.integer({ min: 0, max: 161_051 }), fc.integer({ min: -5, max: 2 ** 31 + 5 }), fc.double({ min: -10, max: 10, noNaN: true })),
    },
    { requiredKeys: ["total", "modifier"] },
  );

  it("orderInitiative and initiativeTies give the order of the rule, fast keys or not", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), fc.boolean(), (raw, byModifier) => {
        const entries: InitiativeEntry[] = raw.map((e, i) => ({ id: `c${i}`, ...e }));
        const want = reference(entries, byModifier);
        expect(orderInitiative(entries, { tiesByModifier: byModifier })).toEqual(want);
        for (const group of initiativeTies(entries, { tiesByModifier: byModifier })) {
          const at = want.indexOf(group[0] as string);
          expect(want.slice(at, at + group.length)).toEqual(group);
        }
      }),
      { numRuns: 500 },
    );
  });
});
