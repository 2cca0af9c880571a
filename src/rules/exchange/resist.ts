/**
 * A resisted power on the attack card (power-rulings.ts `resistedPowerOutcome`): the power is not
 * dodged and rolls no to-hit; each target's row waits on a *Resist* instead of a defence.
 *
 *   awaitingDefence ─(resistance rolled)─▶ resolved ─(effect applied, if not resisted)─▶ applied ─(undo)─▶ undone
 *
 * A row that resisted ends "resolved" with nothing to apply. Like every transition here, each
 * checks the phase it starts from ("stale" when it already happened).
 */
import { applyKarma, KARMA_MINIMUM, type RequiredColor } from "../actions";
import { assertResistedPower, resistedPowerOutcome, type ResistedEffect, type ResistedPower } from "../power-rulings";
import { type Color, type UniversalTable } from "../universal-table";
import { replaceTarget } from "./copy";
import { checkCs, createExchange, ExchangeError, expectPhase, invalid, invalidFrom, sumCs, targetOf, type CsReason, type ExchangeInput, type ExchangeState, type ExchangeTarget } from "./state";

/** What a row's resistance roll decided, as the card keeps it. */
export interface ResistanceRecord {
  readonly die: number;
  readonly karma: number;
  /** Die plus Karma, capped at 100. */
  readonly total: number;
  /** The target's rank number in the ability the power names. */
  readonly value: number;
  readonly cs: readonly CsReason[];
  readonly color: Color;
  readonly required: RequiredColor;
  readonly resisted: boolean;
  /** The power's effect on the target when not resisted, else null. */
  readonly effect: ResistedEffect | null;
}

/** A row of a resisted power's card: its resistance, once rolled. */
export type ResistedTarget = ExchangeTarget & { readonly resistance?: ResistanceRecord };

/** A resisted power's card state: the power as the attack was made with it. */
export type ResistedExchange = ExchangeState & { readonly resisted?: ResistedPower };

/** A plain copy of a well-formed power; "invalid" naming the fault otherwise (power-rulings `assertResistedPower`). */
function checkedPower(p: ResistedPower): ResistedPower {
  try {
    assertResistedPower(p);
  } catch (error) {
    return invalidFrom(error);
  }
  return { rank: p.rank, resistedBy: p.resistedBy, effect: { ...p.effect } };
}

/**
 * Starts the card of a resisted power: the exchange of `input` with the power kept on it. A
 * blindsided target cannot be offered a *Resist*, so a blindsided resisted power is refused
 * ("invalid"), as is a bad power.
 */
export function createResistedExchange(input: ExchangeInput, power: ResistedPower): ResistedExchange {
  const resisted = checkedPower(power);
  if (input.blindsided) invalid("exchangeResistBlindsided");
  if (input.karma !== 0) invalid("exchangeResistKarma");
  return { ...createExchange(input), resisted };
}

/** The power a card resists, or null for an ordinary attack. */
export function resistedPowerOf(state: ExchangeState): ResistedPower | null {
  return (state as ResistedExchange).resisted ?? null;
}

/** A row's resistance, or null before it is rolled (or on an ordinary attack). */
export function resistanceOf(target: ExchangeTarget): ResistanceRecord | null {
  return (target as ResistedTarget).resistance ?? null;
}

/** The resistance roll as the GM rolled it. */
export interface ResistanceInput {
  readonly die: number;
  /** The target's rank number in the ability the power names (read by the GM from the target). */
  readonly value: number;
  readonly cs?: readonly CsReason[];
  /** Karma the owner added (power-rulings `karmaOnRoll` says whether and how much). */
  readonly karma?: number;
}

/** Row `key` resists the power (awaitingDefence → resolved): the rules decide the outcome. */
export function resistPower(state: ExchangeState, key: string, roll: ResistanceInput, table?: UniversalTable): ExchangeState {
  const power = resistedPowerOf(state);
  const target = targetOf(state, key);
  if (!power) invalid("exchangeNotResistedDefends", { source: state.source, name: target.name });
  expectPhase(target, "awaitingDefence");
  const cs = roll.cs ?? [];
  checkCs(cs, "resist.cs");
  const karma = roll.karma ?? 0;
  if (!Number.isInteger(karma) || karma < 0 || (karma > 0 && karma < KARMA_MINIMUM)) invalid("exchangeKarmaMinimum", { min: KARMA_MINIMUM });
  let outcome: ReturnType<typeof resistedPowerOutcome>;
  try {
    outcome = resistedPowerOutcome(power, { value: roll.value, die: roll.die, cs: sumCs(cs), karma, ...(table ? { table } : {}) });
  } catch (error) {
    return invalidFrom(error);
  }
  const resistance: ResistanceRecord = { die: roll.die, karma, total: applyKarma(roll.die, karma), value: roll.value, cs: cs.map((c) => ({ ...c })), color: outcome.color, required: outcome.required, resisted: outcome.resisted, effect: outcome.effect };
  const row: ResistedTarget = { ...target, phase: "resolved", resistance };
  return replaceTarget(state, row);
}

/** What a resisted power's row offers next (the card's buttons; the GM's handlers check the same). */
export interface ResistActions {
  /** The target may roll its resistance. */
  readonly resist: boolean;
  /** The power's effect may be put on the target. */
  readonly apply: boolean;
  /** The effect put on the target may be taken back. */
  readonly undo: boolean;
}

/** {@link ResistActions} of row `key`; all false on an ordinary attack. `mayResist`: the target is not helpless. */
export function resistActions(state: ExchangeState, key: string, mayResist = true): ResistActions {
  const t = targetOf(state, key);
  const r = resistanceOf(t);
  if (!resistedPowerOf(state)) return { resist: false, apply: false, undo: false };
  return {
    resist: mayResist && t.phase === "awaitingDefence",
    apply: t.phase === "resolved" && r !== null && !r.resisted,
    undo: t.phase === "applied" && r !== null && !r.resisted,
  };
}

/** Whether a row waits on its resisted effect being applied (so its card is not complete). */
export function resistancePending(target: ExchangeTarget): boolean {
  const r = resistanceOf(target);
  return target.phase === "resolved" && r !== null && !r.resisted;
}

function step(state: ExchangeState, key: string, allowed: (a: ResistActions) => boolean, phase: "applied" | "undone"): ExchangeState {
  const target = targetOf(state, key);
  if (!resistedPowerOf(state)) invalid("exchangeNotResisted", { source: state.source });
  if (!allowed(resistActions(state, key))) throw new ExchangeError("stale", "exchangeWrongPhase", { name: target.name, phase: target.phase });
  return replaceTarget(state, { ...target, phase });
}

/** The power's effect is on the target (resolved → applied). */
export function applyResisted(state: ExchangeState, key: string): ExchangeState {
  return step(state, key, (a) => a.apply, "applied");
}

/** The power's effect is taken back (applied → undone: the row is void, as an undone hit is). */
export function undoResisted(state: ExchangeState, key: string): ExchangeState {
  return step(state, key, (a) => a.undo, "undone");
}
