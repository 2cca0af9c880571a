/**
 * The acting order as the resolve phase begins [001 Step 3], each unit's initiative total
 * written on its members: the fast path without team initiative (one native sort of number
 * keys, initiative-waiting.ts's initiativeKeys) and the path through units and entries it must equal.
 */
import { initiativeWith } from "./copy";
import { type InitiativeEntry, initiativeTotalForMode, orderInitiative } from "../initiative";
import { TurnError } from "./phases";
import { type InitiativeUnit, initiativeUnits, rollOffTiebreak, rollsDie, takesPartInInitiative, unitEntries, unitsAreCombatants } from "./initiative-units";
import { initiativeKeys, initiativeScratch } from "./initiative-waiting";
import { type CombatantTurn } from "./state";
import { type Draft } from "./change";

/**
 * The acting order as the resolve phase begins, each unit's total written on its members
 * ({@link buildOrderSimple}, without units when every combatant is its own unit).
 */
export function buildOrder(draft: Draft): string[] {
  const { mode } = draft.state.settings.initiative;
  if (mode !== "fixedOrder" && unitsAreCombatants(draft.state.settings.initiative)) return buildOrderAlone(draft);
  return buildOrderSimple(draft);
}

/** {@link buildOrder} as first written, through units and entries: the reference the fast path must equal (and the path under team initiative). */
export function buildOrderSimple(draft: Draft): string[] {
  const state = draft.state;
  const units = initiativeUnits(state);
  if (state.settings.initiative.mode === "fixedOrder") return units.flatMap((u) => u.memberIds);
  const entries = unitEntries(state, units, (id) => draft.get(id));
  if (entries === null) throw new TurnError("notReady", "turnInitiativeIncomplete");
  const byKey = new Map(units.map((u) => [u.key, u]));
  const totals = new Map(entries.map((e) => [e.id, e.total]));
  const order: string[] = [];
  for (const key of orderInitiative(entries)) {
    const unit = byKey.get(key) as InitiativeUnit;
    for (const id of unit.memberIds) {
      order.push(id);
      const c = draft.get(id) as CombatantTurn;
      const total = totals.get(key) ?? null;
      if (c.initiative.total !== total) draft.put(c, { initiative: initiativeWith(c.initiative, { total }) });
    }
  }
  return order;
}

/**
 * {@link buildOrder} without team initiative: every combatant in the fight is a unit of its
 * own, so the entries are built straight from the combatants (no units, no maps from key to
 * unit and total); the order, the totals written and the errors are the same.
 */
function buildOrderAlone(draft: Draft): string[] {
  const state = draft.state;
  const { mode } = state.settings.initiative;
  const die = rollsDie(mode);
  const members: CombatantTurn[] = [];
  const ids: string[] = [];
  let longest = 0;
  for (const listed of state.combatants.values()) {
    if (!takesPartInInitiative(listed)) continue;
    const c = draft.current(listed);
    members.push(c);
    ids.push(c.id);
    if (c.initiative.rollOffs.length > longest) longest = c.initiative.rollOffs.length;
  }
  const sorted = members.length === 0 ? null : initiativeKeys(initiativeScratch(state.combatants), members, die, longest);
  if (sorted === null) return buildOrderByEntries(draft, members, longest);
  const { keys, indexSpan } = sorted;
  const n = members.length;
  // Which totals to write is found in tracker order, the order the combatants were read in
  // (and mostly lie in memory); the order itself reads only `ids`, and the totals are written
  // in acting order, as the entries path writes them.
  let stale: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const c = members[i] as CombatantTurn;
    if (c.initiative.total !== unitTotal(c, die)) (stale ??= new Uint8Array(n))[i] = 1;
  }
  const order: string[] = [];
  for (let k = 0; k < n; k++) {
    const i = (keys[k] as number) % indexSpan;
    order.push(ids[i] as string);
    if (stale !== null && stale[i] === 1) {
      const c = members[i] as CombatantTurn;
      draft.edit(c).initiative = initiativeWith(c.initiative, { total: unitTotal(c, die) });
    }
  }
  return order;
}

/** A combatant's initiative total once {@link initiativeKeys} accepted it: d10 + modifier when the mode rolls, else the modifier. */
function unitTotal(c: CombatantTurn, die: boolean): number {
  const modifier = c.stats.initiativeModifier;
  return die ? (c.initiative.d10 as number) + modifier : modifier;
}

/** {@link buildOrderAlone} through entries and orderInitiative: values the number keys do not cover, and their errors. */
function buildOrderByEntries(draft: Draft, members: readonly CombatantTurn[], longest: number): string[] {
  const { mode } = draft.state.settings.initiative;
  const die = rollsDie(mode);
  const entries: InitiativeEntry[] = [];
  const totals: number[] = [];
  for (const c of members) {
    const modifier = c.stats.initiativeModifier;
    const { d10, rollOffs } = c.initiative;
    let total: number | null;
    if (die) {
      if (d10 === null) throw new TurnError("notReady", "turnInitiativeIncomplete");
      total = initiativeTotalForMode(mode, modifier, d10);
    } else {
      total = initiativeTotalForMode(mode, modifier);
    }
    if (total === null) throw new TurnError("notReady", "turnInitiativeIncomplete");
    totals.push(total);
    const tiebreak = rollOffTiebreak(rollOffs, longest);
    entries.push(tiebreak === undefined ? { id: c.id, total, modifier } : { id: c.id, total, modifier, tiebreak });
  }
  const order = orderInitiative(entries);
  const at = new Map<string, number>();
  for (let i = 0; i < members.length; i++) at.set((members[i] as CombatantTurn).id, i);
  for (const id of order) {
    const i = at.get(id) as number;
    const c = draft.get(id) as CombatantTurn;
    const total = totals[i] as number;
    if (c.initiative.total !== total) draft.edit(c).initiative = initiativeWith(c.initiative, { total });
  }
  return order;
}
