/**
 * The CASE turn (src/rules/turn/): the fast paths agree with the simple paths they replace
 * (initiativeWaiting with initiativeWaitingSimple, its remembered answer with a fresh one,
 * buildOrder with buildOrderSimple, a declaration parsed before with a fresh parse, a hold's
 * remembered shift with holdEffects, a Draft's copies with spreads), answers and errors alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INITIATIVE_MODES } from "../../../src/rules/initiative";
import { type CombatantTurn, DEFAULT_TURN_SETTINGS, INITIATIVE_MAX_ROLL_OFFS, type MutableTurnState, type TurnSettings, actionsLeft, commitTurnChange, completeAction, createCombatTurn, createCombatantTurn, createTurnState, parseDeclaration, recordInitiativeRollOffs } from "../../../src/rules/turn";
import { type HoldState, holdEffects } from "../../../src/rules/attacks";
import { type TurnState, heldActionCs } from "../../../src/rules/turn/state";
import { Draft } from "../../../src/rules/turn/change";
import { rollOffsWith } from "../../../src/rules/turn/copy";
import { forgetInitiativeWaiting, initiativeWaiting, initiativeWaitingSimple } from "../../../src/rules/turn/initiative-waiting";
import { buildOrder, buildOrderSimple } from "../../../src/rules/turn/acting-order";
import { stats } from "../../support/turn-play";

/** What a call gave: its value, or its error's name and message. */
function outcome<T>(fn: () => T): { value: T } | { error: string } {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/** What toStrictEqual leaves out: every object's own keys in their order, and whether it is frozen, all the way down. */
function layout(value: unknown): unknown {
  if (value === null || typeof value !== "object") return typeof value;
  return { frozen: Object.isFrozen(value), keys: Object.keys(value), inner: Object.values(value).map(layout) };
}

const d10Arb = fc.integer({ min: 1, max: 10 });
const combatantArb = fc.record({
  modifier: fc.integer({ min: -3, max: 6 }),
  d10: fc.option(d10Arb, { nil: null }),
  rollOffs: fc.array(d10Arb, { maxLength: 6 }),
  team: fc.option(fc.constantFrom("a", "b"), { nil: null }),
  defeated: fc.boolean(),
  dead: fc.boolean(),
  stunTurns: fc.constantFrom(0, 0, 0, 1),
  dodge: fc.constantFrom("none", "none", "unrolled", "rolled"),
});
const settingsArb = fc.record({ mode: fc.constantFrom(...INITIATIVE_MODES), team: fc.boolean(), declaredDodge: fc.boolean() });
/** Combatants, most often with every d10 rolled (else the roll-offs are never reached), and often all with the same roll-offs (ties that stand, up to the limit and past it). */
const crowdArb = fc.tuple(fc.array(combatantArb, { maxLength: 24 }), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 6 })).map(([specs, missing, same, length]) => {
  const shared = Array.from({ length }, (_, i) => 1 + i);
  return specs.map((s) => ({ ...s, d10: missing ? s.d10 : (s.d10 ?? 1 + (s.modifier & 1)), rollOffs: same ? shared : s.rollOffs }));
});

/** Up to 60 combatants on two totals, every d10 rolled and no roll-off yet: large groups tied, that split in several parts. */
const tiedCrowdArb = fc.array(combatantArb, { minLength: 2, maxLength: 60 }).map((specs) => specs.map((s) => ({ ...s, modifier: Math.abs(s.modifier) % 2, d10: 1 + ((s.d10 ?? 0) % 2), rollOffs: [] })));

type Spec = typeof combatantArb extends fc.Arbitrary<infer T> ? T : never;

function combatant(i: number, s: Spec): CombatantTurn {
  const base = createCombatantTurn(`c${i}`, stats({ initiativeModifier: s.modifier }), { team: s.team, defeated: s.defeated });
  const dodge = s.dodge === "none" ? null : { roll: s.dodge === "rolled" ? 40 : null, color: null, shift: 0 };
  return Object.freeze({ ...base, dead: s.dead, stunTurns: s.stunTurns, dodge, initiative: { d10: s.d10, total: null, rollOffs: Object.freeze([...s.rollOffs]) } });
}

function initiativeState(specs: readonly Spec[], settings: { mode: (typeof INITIATIVE_MODES)[number]; team: boolean; declaredDodge: boolean }): MutableTurnState {
  const turnSettings: TurnSettings = { initiative: { mode: settings.mode, team: settings.team }, declaredDodge: settings.declaredDodge };
  const s = createTurnState(
    specs.map((spec, i) => combatant(i, spec)),
    turnSettings,
    { ...createCombatTurn(), phase: "initiative" },
  );
  return { combat: s.combat, combatants: new Map(s.combatants), settings: s.settings };
}

function fresh(state: TurnState): ReturnType<typeof outcome> {
  forgetInitiativeWaiting(state);
  return outcome(() => initiativeWaiting(state));
}

function orders(state: TurnState): { fast: unknown; simple: unknown } {
  const run = (build: (d: Draft) => string[]): unknown => {
    const draft = new Draft(state);
    return outcome(() => ({ order: build(draft), change: draft.change() }));
  };
  return { fast: run(buildOrder), simple: run(buildOrderSimple) };
}

describe("the initiative fast paths agree with the simple paths", () => {
  it("initiativeWaiting equals initiativeWaitingSimple, fresh and remembered, and after a change", () => {
    fc.assert(
      fc.property(crowdArb, settingsArb, fc.nat(), fc.array(d10Arb, { minLength: 1, maxLength: 3 }), (specs, settings, pick, more) => {
        const state = initiativeState(specs, settings);
        const simple = outcome(() => initiativeWaitingSimple(state));
        expect(fresh(state)).toEqual(simple);
        expect(outcome(() => initiativeWaiting(state))).toEqual(simple); // remembered
        if (specs.length === 0) return;
        // A new combatant object in the same map: the remembered answer must not be reused.
        const c = [...state.combatants.values()][pick % specs.length] as CombatantTurn;
        state.combatants.set(c.id, Object.freeze({ ...c, initiative: { ...c.initiative, rollOffs: Object.freeze([...c.initiative.rollOffs, ...more]) } }));
        const after = outcome(() => initiativeWaitingSimple(state));
        expect(outcome(() => initiativeWaiting(state))).toEqual(after);
        expect(fresh(state)).toEqual(after);
      }),
    );
  });

  it("buildOrder equals buildOrderSimple: the order, the totals written, and the errors", () => {
    fc.assert(
      fc.property(crowdArb, settingsArb, (specs, settings) => {
        const { fast, simple } = orders(initiativeState(specs, settings));
        expect(fast).toEqual(simple);
      }),
    );
  });

  it("a tie that stood through the last allowed roll-off rolls no more; one roll-off short, it rolls again", () => {
    const tied = (rollOffs: number[]): Spec[] => [0, 1].map(() => ({ modifier: 0, d10: 3, rollOffs, team: null, defeated: false, dead: false, stunTurns: 0, dodge: "none" }));
    const settings = { mode: "everyTurn", team: false, declaredDodge: false } as const;
    const last = Array.from({ length: INITIATIVE_MAX_ROLL_OFFS }, (_, i) => 1 + i);
    expect(fresh(initiativeState(tied(last), settings))).toEqual({ value: { rolls: [], rollOffs: [], dodges: [] } });
    expect(fresh(initiativeState(tied(last.slice(1)), settings))).toEqual({ value: { rolls: [], rollOffs: [["c0", "c1"]], dodges: [] } });
  });

  it("a roll-off round worked out from the last answer equals a fresh one: the change, the next waiting answer and the errors, round after round", () => {
    type Step = { waiting: unknown; change?: unknown };
    /** Plays every roll-off round of the crowd; `forget` makes each answer and each round start afresh. */
    const play = (specs: readonly Spec[], settings: Parameters<typeof initiativeState>[1], dice: readonly number[], how: string, forget: boolean): { steps: Step[]; end: CombatantTurn[] } => {
      const state = initiativeState(specs, settings);
      const steps: Step[] = [];
      let d = 0;
      forgetInitiativeWaiting(state);
      for (let round = 0; round <= INITIATIVE_MAX_ROLL_OFFS; round++) {
        if (forget) forgetInitiativeWaiting(state);
        const waiting = outcome(() => initiativeWaiting(state));
        const step: Step = { waiting };
        steps.push(step);
        if (forget) expect(waiting).toEqual(outcome(() => initiativeWaitingSimple(state)));
        if (!("value" in waiting) || waiting.value.rollOffs.length === 0) break;
        let ids = waiting.value.rollOffs.flat();
        if (how === "reversed") ids = ids.reverse();
        const rolls = Object.fromEntries(ids.map((id, i) => [id, how === "badDie" && round === 1 && i === ids.length - 1 ? 11 : (dice[d++ % dice.length] as number)]));
        if (forget) forgetInitiativeWaiting(state);
        const change = outcome(() => recordInitiativeRollOffs(state, rolls));
        step.change = change;
        if (!("value" in change)) break;
        commitTurnChange(state, change.value);
      }
      return { steps, end: [...state.combatants.values()] };
    };
    fc.assert(
      // Dice from 1–2 keep groups tied and split them in two: the order of the parts matters.
      fc.property(fc.oneof(crowdArb, tiedCrowdArb), settingsArb, fc.oneof(fc.array(d10Arb, { minLength: 1, maxLength: 400 }), fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 400 })), fc.constantFrom("inOrder", "inOrder", "reversed", "badDie"), (specs, settings, dice, how) => {
        expect(play(specs, settings, dice, how, false)).toEqual(play(specs, settings, dice, how, true));
      }),
      { numRuns: 200 },
    );
  });

  it("agrees through every roll-off round of a crowd that ties a lot", () => {
    const specs: Spec[] = Array.from({ length: 600 }, (_, i) => ({ modifier: i % 2, d10: 1 + (i % 3), rollOffs: [], team: null, defeated: i % 97 === 0, dead: false, stunTurns: 0, dodge: i % 50 === 0 ? "unrolled" : "none" }));
    const state = initiativeState(specs, { mode: "everyTurn", team: false, declaredDodge: true });
    let rounds = 0;
    for (;;) {
      const simple = initiativeWaitingSimple(state);
      expect(initiativeWaiting(state)).toEqual(simple);
      expect(fresh(state)).toEqual({ value: simple });
      if (simple.rollOffs.length === 0) break;
      rounds++;
      let k = rounds;
      for (const group of simple.rollOffs) {
        for (const id of group) {
          const c = state.combatants.get(id) as CombatantTurn;
          k = (k * 7 + 3) % 10;
          state.combatants.set(id, Object.freeze({ ...c, initiative: { ...c.initiative, rollOffs: Object.freeze([...c.initiative.rollOffs, 1 + k]) } }));
        }
      }
    }
    expect(rounds).toBeGreaterThan(1);
    const { fast, simple } = orders(state);
    expect(fast).toEqual(simple);
    expect(fast).toMatchObject({ value: { order: expect.any(Array) as unknown } });
  });
});

describe("a declaration parsed before is kept, not parsed afresh", () => {
  /** Each field present or not, valid or not, in tracker order or reversed, with a stray field or not, frozen or not. */
  const rawArb = fc
    .tuple(
      fc.record(
        {
          text: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(" padded ", 5, null)),
          kind: fc.constantFrom(null, "attack", "defence", "move", "other", "dance", undefined),
          attack: fc.constantFrom(null, "BA", "Ch", "XX", undefined),
          defence: fc.constantFrom(null, "dodge", "block", "zz", undefined),
          actions: fc.constantFrom(1, 2, 3, 9, 1.5, "2", undefined),
          secret: fc.constantFrom(true, false, "yes", undefined),
        },
        { requiredKeys: [] },
      ),
      fc.boolean(),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([fields, reversed, stray, frozen]) => {
      const entries = Object.entries(fields);
      const raw: Record<string, unknown> = Object.fromEntries(reversed ? entries.reverse() : entries);
      if (stray) raw.note = "x";
      return frozen ? Object.freeze(raw) : raw;
    });

  it("parsing any object gives what parsing an unfrozen copy of it gives (which is always parsed afresh): value, key order, frozen, errors", () => {
    fc.assert(
      fc.property(rawArb, (raw) => {
        const kept = outcome(() => parseDeclaration(raw));
        expect(kept).toStrictEqual(outcome(() => parseDeclaration({ ...raw })));
        if ("value" in kept) {
          expect(Object.keys(kept.value)).toEqual(["text", "kind", "attack", "defence", "actions", "secret"]);
          expect(Object.isFrozen(kept.value)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a parsed declaration parses to itself; an unfrozen or reordered one with the same fields does not", () => {
    fc.assert(
      fc.property(rawArb, (raw) => {
        const first = outcome(() => parseDeclaration(raw));
        fc.pre("value" in first);
        const parsed = first.value;
        expect(parseDeclaration(parsed)).toBe(parsed);
        expect(parseDeclaration(parsed)).toStrictEqual(parseDeclaration({ ...parsed }));
        const unfrozen = { ...parsed };
        expect(parseDeclaration(unfrozen)).not.toBe(unfrozen);
        expect(Object.isFrozen(parseDeclaration(unfrozen))).toBe(true);
        const padded = Object.freeze({ ...parsed, text: ` ${parsed.text} ` });
        expect(parseDeclaration(padded)).toStrictEqual(parsed);
        const reordered = Object.freeze(Object.fromEntries(Object.entries(parsed).reverse()));
        expect(parseDeclaration(reordered)).not.toBe(reordered);
        expect(parseDeclaration(reordered)).toStrictEqual(parsed);
      }),
    );
  });
});

describe("a hold's shift, read once", () => {
  it("equals holdEffects' for every hold, and refuses what holdEffects refuses", () => {
    for (const hold of ["none", "partialHold", "fullHold"] as const satisfies readonly HoldState[]) expect(heldActionCs(hold)).toBe(holdEffects(hold).heldActionCs);
    for (const bad of ["grab", "toString", ""]) expect(outcome(() => heldActionCs(bad as HoldState))).toStrictEqual(outcome(() => holdEffects(bad as HoldState).heldActionCs));
  });
});

describe("a Draft's copies", () => {
  /** A step's edits: a pass over every combatant first (or not), then edits of one combatant, read back from the draft or taken from the state. */
  const editsArb = fc.record({
    size: fc.integer({ min: 1, max: 6 }),
    pass: fc.boolean(),
    edits: fc.array(fc.record({ who: fc.nat(), fromState: fc.boolean(), field: fc.constantFrom("actionsUsed", "defencesUsed", "stunTurns"), value: fc.integer({ min: 0, max: 3 }) }), { maxLength: 12 }),
  });

  it("equal the spreads they stand for: each edit a spread of the combatant it is given, a later copy of one replacing the earlier in its place", () => {
    fc.assert(
      fc.property(editsArb, ({ size, pass, edits }) => {
        const state = createTurnState(
          Array.from({ length: size }, (_, i) => createCombatantTurn(`c${i}`, stats())),
          DEFAULT_TURN_SETTINGS,
        );
        const draft = new Draft(state);
        const reference = new Map<string, CombatantTurn>();
        if (pass) {
          expect(draft.changedNobody).toBe(true);
          for (const c of state.combatants.values()) {
            draft.editNew(c).actedInRound = 1;
            reference.set(c.id, Object.freeze({ ...c, actedInRound: 1 }));
          }
        }
        for (const e of edits) {
          const id = `c${e.who % size}`;
          const fields = { [e.field]: e.value } as Partial<CombatantTurn>;
          const c = e.fromState ? (state.combatants.get(id) as CombatantTurn) : (draft.get(id) as CombatantTurn);
          expect(c).toStrictEqual(e.fromState ? state.combatants.get(id) : (reference.get(id) ?? state.combatants.get(id)));
          draft.put(c, fields);
          reference.set(id, Object.freeze({ ...c, ...fields }));
        }
        for (const c of state.combatants.values()) expect(draft.current(c)).toStrictEqual(reference.get(c.id) ?? c);
        const change = draft.change();
        expect(change.combatants).toStrictEqual([...reference.values()]);
        for (const c of change.combatants) expect(Object.isFrozen(c)).toBe(true);
        for (const c of state.combatants.values()) expect(Object.isFrozen(c)).toBe(true);
      }),
    );
  });
});

describe("an action's change without a Draft", () => {
  /** Due in `round`, as first written: not acted in it, and an action left. */
  const dueAsWritten = (c: CombatantTurn | undefined, round: number): boolean => c !== undefined && c.actedInRound < round && actionsLeft(c) > 0;

  /** completeAction as first written: a Draft's edit, then the cursor walk as first written (ask whether anyone is due in the next round, then walk it from the start). */
  function completeAsWritten(state: TurnState, id: string): unknown {
    const c = state.combatants.get(id) as CombatantTurn;
    const draft = new Draft(state);
    const next = draft.edit(c);
    next.actionsUsed = c.actionsUsed + 1;
    next.actedInRound = state.combat.round;
    next.nextActionCs = 0;
    const order = state.combat.order;
    let round = state.combat.round;
    let i = state.combat.cursor + 1;
    for (;;) {
      for (; i < order.length && !dueAsWritten(draft.get(order[i] as string), round); i++);
      if (i < order.length) break;
      if (state.combat.phase !== "extraRounds" || !order.some((o) => dueAsWritten(draft.get(o), round + 1))) break;
      round++;
      i = 0;
    }
    draft.setCombat({ cursor: i, round });
    return draft.change();
  }

  const memberArb = fc.record({
    allowed: fc.integer({ min: 0, max: 4 }),
    used: fc.integer({ min: 0, max: 4 }),
    acted: fc.integer({ min: 0, max: 4 }),
    out: fc.constantFrom("none", "none", "none", "stunned", "dying", "dead", "defeated", "lostTurn"),
  });
  const actingArb = fc.record({
    members: fc.array(memberArb, { minLength: 1, maxLength: 12 }),
    phase: fc.constantFrom("resolve", "extraRounds"),
    round: fc.integer({ min: 1, max: 4 }),
    order: fc.array(fc.nat(), { maxLength: 14 }),
    cursor: fc.nat(),
  });

  it("equals the change a Draft makes with the cursor walk as first written (its keys in their order, frozen as it is), in every round, whoever is due or out", () => {
    fc.assert(
      fc.property(actingArb, ({ members, phase, round, order, cursor }) => {
        const combatants = members.map((m, i) => {
          const base = createCombatantTurn(`c${i}`, stats(), { defeated: m.out === "defeated" });
          return Object.freeze({ ...base, actionsAllowed: m.allowed, actionsUsed: m.used, actedInRound: m.acted, stunTurns: m.out === "stunned" ? 1 : 0, dying: m.out === "dying", dead: m.out === "dead", lostTurn: m.out === "lostTurn" });
        });
        // The order names members (some twice, some never) and, now and then, someone unknown.
        const ids = order.map((k) => (k % (members.length + 1) === members.length ? "gone" : `c${k % (members.length + 1)}`));
        ids.push(`c${cursor % members.length}`);
        const at = ids.length - 1;
        const state = createTurnState(combatants, DEFAULT_TURN_SETTINGS, { ...createCombatTurn(), phase, round, order: Object.freeze(ids), cursor: at });
        const id = ids[at] as string;
        const fast = outcome(() => completeAction(state, id));
        const written = outcome(() => completeAsWritten(state, id));
        expect(fast).toStrictEqual(written);
        expect(layout(fast)).toStrictEqual(layout(written));
      }),
    );
  });
});

describe("a roll-off list one roll longer", () => {
  it("equals a frozen concat, and short lists of d10s are one shared array per sequence of rolls", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(d10Arb, fc.integer({ min: -2, max: 40 })), { maxLength: 5 }), fc.oneof(d10Arb, fc.integer({ min: -2, max: 40 })), (list, roll) => {
        const longer = rollOffsWith(Object.freeze([...list]), roll);
        expect(longer).toStrictEqual([...list, roll]);
        expect(Object.isFrozen(longer)).toBe(true);
        expect(rollOffsWith(Object.freeze([...list]), roll) === longer).toBe(list.length < 3 && [...list, roll].every((r) => r >= 1 && r <= 10));
      }),
    );
  });
});
