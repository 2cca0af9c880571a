/**
 * Playing the CASE turn in the rules tests (test/rules/turn/): a table that applies each step's
 * change, stats with defaults, a seeded die, a mixed party, and the arbitraries and random turn
 * of the property tests.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { INITIATIVE_MODES, type InitiativeMode } from "../../src/rules/initiative";
import { type CombatantStats, type CombatantTurn, DEFAULT_TURN_SETTINGS, type Declaration, type MutableTurnState, type TurnChange, TurnError, type TurnErrorCode, type TurnSettings, actionCountChoices, actionsLeft, advancePhase, applyStun, canActThisTurn, chooseExtraMode, combatantOf, commitTurnChange, completeAction, createCombatantTurn, createTurnState, currentCombatantId, declareAction, initiativeWaiting, parseDeclaration, recordDefence, recordDodgeRoll, recordExtraActionRoll, recordInitiativeRollOffs, recordInitiativeRolls } from "../../src/rules/turn";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** A table of combatants whose state the test owns, as Foundry's documents would be. */
export class Table {
  readonly state: MutableTurnState;

  constructor(combatants: CombatantTurn[], settings: TurnSettings = DEFAULT_TURN_SETTINGS) {
    const s = createTurnState(combatants, settings);
    this.state = { combat: s.combat, combatants: new Map(s.combatants), settings: s.settings };
  }

  apply(change: TurnChange): TurnChange {
    commitTurnChange(this.state, change);
    return change;
  }

  c(id: string): CombatantTurn {
    return combatantOf(this.state, id);
  }

  get current(): string | null {
    return currentCombatantId(this.state);
  }

  advance(opts: { force?: boolean } = {}): TurnChange {
    return this.apply(advancePhase(this.state, this.state.combat.phase, opts));
  }

  declare(id: string, decl: Partial<Declaration>): void {
    this.apply(declareAction(this.state, id, parseDeclaration(decl)));
  }

  act(id: string): void {
    this.apply(completeAction(this.state, id));
  }
}

export function stats(s: Partial<CombatantStats> = {}): CombatantStats {
  return { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6, ...s };
}

export function expectTurnError(fn: () => unknown, code: TurnErrorCode, message?: RegExp): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, "expected a TurnError").toBeInstanceOf(TurnError);
  expect((error as TurnError).code).toBe(code);
  if (message) expect((error as TurnError).message).toMatch(message);
}

/** A small deterministic die for properties. */
export function dice(seed: number): { d10(): number; d100(): number } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { d10: () => 1 + Math.floor(next() * 10), d100: () => 1 + Math.floor(next() * 100) };
}


/**
 * cap     Ftg (off) Amazing 50, Agy (bal) Ex 20, Int mod +4, 2 free defences, End Rm 30
 * speedy  Ftg (off) Incredible 40, Agy (bal) Rm 30, Int mod +1, 1 free defence, End Ex 20
 * brick   Ftg (off) Monstrous 75, Agy (bal) Ty 6, mod 0, 3 free defences, End Rm 30
 * thug    Typical everything, mod 0 (NPC)
 * boss    Ftg (off) Rm 30, Agy (bal) Gd 10, mod +5, 2 free defences, End In 40 (NPC)
 */
export function mixedParty(settings: TurnSettings = DEFAULT_TURN_SETTINGS): Table {
  return new Table(
    [
      createCombatantTurn("cap", stats({ offence: 50, balance: 20, initiativeModifier: 4, freeDefences: 2, endurance: 30 })),
      createCombatantTurn("speedy", stats({ offence: 40, balance: 30, initiativeModifier: 1, freeDefences: 1, endurance: 20 })),
      createCombatantTurn("brick", stats({ offence: 75, balance: 6, initiativeModifier: 0, freeDefences: 3, endurance: 30 })),
      createCombatantTurn("thug", stats()),
      createCombatantTurn("boss", stats({ offence: 30, balance: 10, initiativeModifier: 5, freeDefences: 2, endurance: 40 })),
    ],
    settings,
  );
}








export const RANK_NUMBERS = [0, 2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150, 200, 500, 1000, 3000, 5000];

export const statsArb = fc.record({
  initiativeModifier: fc.integer({ min: -3, max: 25 }),
  offence: fc.constantFrom(...RANK_NUMBERS),
  balance: fc.constantFrom(...RANK_NUMBERS),
  freeDefences: fc.integer({ min: 1, max: 8 }),
  endurance: fc.constantFrom(...RANK_NUMBERS),
});

export const partyArb = fc.array(fc.record({ stats: statsArb, pick: fc.nat(), team: fc.constantFrom(null, "players", "judge"), stun: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 12 });

export const settingsArb = fc.record({
  mode: fc.constantFrom<InitiativeMode>(...INITIATIVE_MODES),
  team: fc.boolean(),
  declaredDodge: fc.boolean(),
});

export interface Run {
  table: Table;
  acted: Map<string, number>;
  allowed: Map<string, number>;
}

/**
 * Plays one whole turn with random dice; records how often each combatant acted. With
 * `mayhem`, before each action someone defends (a counted Block) and now and then someone is
 * stunned, as attacks would do.
 */
export function playTurn(table: Table, seed: number, mayhem = false): Run {
  const die = dice(seed);
  for (const c of table.state.combatants.values()) {
    if (!canActThisTurn(c)) continue;
    const choices = actionCountChoices(c.stats.offence);
    const choice = choices[seed % choices.length] ?? choices[0];
    const dodge = seed % 3 === 0;
    table.declare(c.id, dodge ? { kind: "defence", defence: "dodge", actions: 1 } : { text: "Go", actions: choice?.actions ?? 1 });
  }
  table.advance();
  for (const c of [...table.state.combatants.values()]) if (c.extra) table.apply(recordExtraActionRoll(table.state, c.id, die.d100()));
  for (const c of [...table.state.combatants.values()]) if (c.extra?.success) table.apply(chooseExtraMode(table.state, c.id, die.d10() > 5 ? "flurry" : "separate"));
  table.advance();
  const w = initiativeWaiting(table.state);
  if (w.rolls.length > 0) table.apply(recordInitiativeRolls(table.state, Object.fromEntries(w.rolls.map((id) => [id, die.d10()]))));
  for (let ties = initiativeWaiting(table.state).rollOffs; ties.length > 0; ties = initiativeWaiting(table.state).rollOffs) {
    table.apply(recordInitiativeRollOffs(table.state, Object.fromEntries(ties.flat().map((id) => [id, die.d10()]))));
  }
  for (const id of initiativeWaiting(table.state).dodges) table.apply(recordDodgeRoll(table.state, id, die.d100()));
  table.advance();
  const allowed = new Map([...table.state.combatants.values()].map((c) => [c.id, actionsLeft(c)]));
  const acted = new Map<string, number>();
  let guard = 0;
  while (table.state.combat.phase !== "wrapUp") {
    const id = table.current;
    if (id === null) {
      table.advance();
      continue;
    }
    if (mayhem) {
      const ids = [...table.state.combatants.keys()];
      const target = ids[die.d100() % ids.length] as string;
      table.apply(recordDefence(table.state, target, "block").change);
      if (die.d10() === 1) table.apply(applyStun(table.state, ids[die.d100() % ids.length] as string, die.d10()));
      if (table.current !== id) continue; // the stun took the one acting out
    }
    acted.set(id, (acted.get(id) ?? 0) + 1);
    table.act(id);
    if (++guard > 10_000) throw new Error("The turn never ends.");
  }
  return { table, acted, allowed };
}

export function build(party: { stats: CombatantStats; team: string | null; stun: number }[], s: { mode: InitiativeMode; team: boolean; declaredDodge: boolean }): Table {
  return new Table(
    party.map((p, i) => ({ ...createCombatantTurn(`c${i}`, p.stats, { team: p.team }), stunTurns: p.stun > 2 ? 1 : 0 })),
    { initiative: { mode: s.mode, team: s.team }, declaredDodge: s.declaredDodge },
  );
}


export function playUntilResolve(t: Table, seed: number): void {
  const die = dice(seed);
  t.advance({ force: true });
  for (const c of [...t.state.combatants.values()]) if (c.extra) t.apply(recordExtraActionRoll(t.state, c.id, die.d100()));
  t.advance({ force: true });
  const w = initiativeWaiting(t.state);
  if (w.rolls.length > 0) t.apply(recordInitiativeRolls(t.state, Object.fromEntries(w.rolls.map((id) => [id, die.d10()]))));
  for (let ties = initiativeWaiting(t.state).rollOffs; ties.length > 0; ties = initiativeWaiting(t.state).rollOffs) {
    t.apply(recordInitiativeRollOffs(t.state, Object.fromEntries(ties.flat().map((id) => [id, die.d10()]))));
  }
  t.advance();
}
