/**
 * Step 3 of the turn, initiative [001 Step 3]: recording the rolls, the roll-offs and the declared
 * dodges. A roll-off round worked out from the remembered waiting answer (no lookups by id) and
 * the simple path it must equal. The units are initiative-units.ts, what the step waits for
 * initiative-waiting.ts, and the acting order the phase ends with acting-order.ts.
 */
import { RulesRangeError, RulesTypeError } from "../errors";
import { combatantCopy, initiativeWith, rollOffsWith } from "./copy";
import { resolveAction } from "../actions";
import { dodgeShift } from "../defences";
import { INITIATIVE_DIE_SIDES, assertInitiativeRoll, initiativeTotalForMode } from "../initiative";
import { assertD100 } from "../universal-table";
import { TurnError, assertId, phasesWaitingFor, show } from "./phases";
import { type CombatantTurn, INITIATIVE_MAX_ROLL_OFFS, type TurnChange, type TurnState, combatantOf, heldActionCs } from "./state";
import { Draft, NO_CHANGE, NO_FIELDS, NO_LOSSES, assertPhase, changeOf } from "./change";
import { type InitiativeUnit, initiativeUnits, rollsDie, takesPartInInitiative, unitsAreCombatants } from "./initiative-units";
import { type InitiativeScratch, type InitiativeWaiting, type WaitingMemo, initiativeScratch, initiativeWaiting } from "./initiative-waiting";

/**
 * Records initiative d10s [001 Step 3], rollers' ids → d10 (a team's roller rolls for the team),
 * all at once (O(n log n) for the batch). Modes that roll no die refuse them. A d10 the roller
 * already has changes nothing; a different one is stale.
 */
export function recordInitiativeRolls(state: TurnState, rolls: Readonly<Record<string, number>>): TurnChange {
  assertPhase(state, phasesWaitingFor("initiativeRoll"));
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new RulesTypeError("turnRollsNotObject", { got: show(input) });
  const { mode } = state.settings.initiative;
  if (!rollsDie(mode)) throw new TurnError("cannotAct", "turnModeNoDie", { mode });
  // Ids and d10s side by side (Object.entries made a pair per roller), checked before anything changes.
  const ids = Object.keys(rolls);
  const d10s: number[] = [];
  const rollers: CombatantTurn[] = [];
  for (const id of ids) {
    rollers.push(combatantOf(state, id));
    const d10 = rolls[id] as number;
    assertInitiativeRoll(d10);
    d10s.push(d10);
  }
  // Without team initiative each combatant in the fight is its own unit and roller: no units to build.
  const alone = unitsAreCombatants(state.settings.initiative);
  const unitOf = new Map<string, InitiativeUnit>();
  if (!alone) for (const u of initiativeUnits(state)) for (const id of u.memberIds) unitOf.set(id, u);
  const draft = new Draft(state);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as string;
    const d10 = d10s[i] as number;
    const c = rollers[i] as CombatantTurn;
    let rollerId: string;
    let modifier: number;
    if (alone) {
      if (!takesPartInInitiative(c) || c.id !== id) throw new TurnError("cannotAct", "turnNoInitiative", { id });
      rollerId = c.id;
      modifier = c.stats.initiativeModifier;
    } else {
      const unit = unitOf.get(id);
      if (!unit) throw new TurnError("cannotAct", "turnNoInitiative", { id });
      rollerId = unit.rollerId;
      modifier = unit.modifier;
    }
    if (rollerId !== id) throw new TurnError("cannotAct", "turnTeamRoll", { id, roller: rollerId });
    if (c.initiative.d10 !== null) {
      if (c.initiative.d10 === d10) continue;
      throw new TurnError("stale", "turnInitiativeRolled", { id, roll: String(c.initiative.d10) });
    }
    draft.editNew(c).initiative = initiativeWith(c.initiative, { d10, total: initiativeTotalForMode(mode, modifier, d10) });
  }
  return draft.change();
}

/** {@link recordInitiativeRolls} for one roller. */
export function recordInitiativeRoll(state: TurnState, rollerId: string, d10: number): TurnChange {
  assertId(rollerId);
  return recordInitiativeRolls(state, { [rollerId]: d10 });
}

/**
 * Records one roll-off d10 for every roller of every tied group ({@link initiativeWaiting}):
 * `rolls` must name exactly those rollers. Higher goes first; a group still tied rolls again.
 * TurnError("stale") when they are not (or no longer) tied.
 */
export function recordInitiativeRollOffs(state: TurnState, rolls: Readonly<Record<string, number>>): TurnChange {
  assertPhase(state, phasesWaitingFor("rollOff"));
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new RulesTypeError("turnRollsNotObject", { got: show(input) });
  const waiting = initiativeWaiting(state);
  if (waiting.rolls.length > 0) throw new TurnError("notReady", "turnRollOffEarly", { ids: waiting.rolls.join(", ") });
  const given = Object.keys(rolls);
  const scratch = initiativeScratch(state.combatants);
  const base = scratch.memo !== null && scratch.memo.result === waiting ? scratch.memo : null;
  if (base !== null && listsGroupsInOrder(given, waiting.rollOffs)) return rollOffRound(scratch, base, rolls);
  return rollOffsSimple(state, waiting, given, rolls);
}

/** True when `given` names exactly the groups' members, in the groups' order (what the tracker and the bench send). */
function listsGroupsInOrder(given: readonly string[], groups: readonly (readonly string[])[]): boolean {
  let j = 0;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as readonly string[];
    for (let k = 0; k < group.length; k++, j++) if (given[j] !== group[k]) return false;
  }
  return j === given.length;
}

/**
 * {@link recordInitiativeRollOffs} when `rolls` lists every tied roller in the groups' order and
 * the waiting answer is remembered with where each member sits ({@link WaitingMemo.groupAt}):
 * no lookups by id, and the next answer is worked out from this one, O(tied), and remembered
 * for the state after the change. Only the tied rollers change, each by one more roll-off, so
 * each group splits by the new d10 (higher first, tracker order kept within), a part of two or
 * more still tied, and nobody else's place changes: the fresh fast path (and the simple path)
 * give the same groups. Equal to {@link rollOffsSimple}.
 *
 * The groups come in acting order, which jumps about the tracker; the rollers are copied in
 * tracker order instead (the order they were last copied in, so mostly the order they lie in
 * memory: at ten thousand combatants, visiting them in acting order cost a cache miss at
 * nearly every read), each copy put at its roller's place in the change.
 */
function rollOffRound(scratch: InitiativeScratch, base: WaitingMemo, rolls: Readonly<Record<string, number>>): TurnChange {
  const snapshot = base.snapshot.slice();
  const size = snapshot.length;
  const groups = base.result.rollOffs;
  // Each roller's d10 and place in the change, by its place in the snapshot (0: not tied).
  const d10At = scratchInts(scratch, 0, size);
  const changeAt = scratchInts(scratch, 1, size);
  d10At.fill(0, 0, size);
  let tied = 0;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as readonly string[];
    const at = base.groupAt[g] as readonly number[];
    for (let k = 0; k < group.length; k++) {
      const d10 = rolls[group[k] as string] as number;
      assertInitiativeRoll(d10);
      const place = at[k] as number;
      d10At[place] = d10;
      changeAt[place] = tied++;
    }
  }
  const changed = new Array<CombatantTurn>(tied);
  for (let place = 0; place < size; place++) {
    const d10 = d10At[place] as number;
    if (d10 === 0) continue;
    const c = snapshot[place] as CombatantTurn;
    const next = combatantCopy(c);
    next.initiative = initiativeWith(c.initiative, { rollOffs: rollOffsWith(c.initiative.rollOffs, d10) });
    Object.freeze(next);
    snapshot[place] = next;
    changed[changeAt[place] as number] = next;
    // From here on, a roller's sign says whether it reached the roll-off limit (a group with one rolls no more).
    if (next.initiative.rollOffs.length >= INITIATIVE_MAX_ROLL_OFFS) d10At[place] = -d10;
  }
  const rollOffs: string[][] = [];
  const groupAt: number[][] = [];
  const count = scratch.rollCounts;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as readonly string[];
    const at = base.groupAt[g] as readonly number[];
    // The group splits by the new d10, higher first, keeping the group's order within each part (a counting sort).
    count.fill(0);
    for (let k = 0; k < group.length; k++) {
      const d10 = Math.abs(d10At[at[k] as number] as number);
      count[d10] = (count[d10] as number) + 1;
    }
    const sorted = scratchInts(scratch, 2, group.length);
    const start = scratch.rollStarts;
    for (let d = INITIATIVE_DIE_SIDES, s = 0; d >= 1; d--) {
      start[d] = s;
      s += count[d] as number;
    }
    for (let k = 0; k < group.length; k++) {
      const d10 = Math.abs(d10At[at[k] as number] as number);
      const m = start[d10] as number;
      sorted[m] = k;
      start[d10] = m + 1;
    }
    for (let d = INITIATIVE_DIE_SIDES, s = 0; d >= 1; d--) {
      const part = count[d] as number;
      if (part >= 2) {
        // Made at their size (a list grown by push from empty reserves room for sixteen).
        const ids = new Array<string>(part);
        const places = new Array<number>(part);
        let open = true;
        for (let m = s, j = 0; m < s + part; m++, j++) {
          const k = sorted[m] as number;
          const place = at[k] as number;
          if ((d10At[place] as number) < 0) open = false;
          ids[j] = group[k] as string;
          places[j] = place;
        }
        if (open) {
          rollOffs.push(ids);
          groupAt.push(places);
        }
      }
      s += part;
    }
  }
  const result: InitiativeWaiting = Object.freeze({ rolls: base.result.rolls, rollOffs, dodges: base.result.dodges });
  scratch.memo = { ...base, snapshot, result, groupAt };
  return { combat: NO_FIELDS, combatants: changed, enduranceLosses: NO_LOSSES };
}

function scratchInts(scratch: InitiativeScratch, which: 0 | 1 | 2, n: number): Int32Array {
  let a = scratch.ints[which] as Int32Array;
  if (a.length < n) scratch.ints[which] = a = new Int32Array(Math.max(n, 2 * a.length));
  return a;
}

/** {@link recordInitiativeRollOffs} for whatever `rolls`: checks each id (unknown, not tied, missing) and records one roll-off each. */
function rollOffsSimple(state: TurnState, waiting: InitiativeWaiting, given: readonly string[], rolls: Readonly<Record<string, number>>): TurnChange {
  const tied = new Set<string>();
  for (const group of waiting.rollOffs) for (const id of group) tied.add(id);
  const combatants: CombatantTurn[] = [];
  for (const id of given) {
    combatants.push(combatantOf(state, id));
    if (!tied.has(id)) throw new TurnError("stale", "turnNotTied", { id });
  }
  // Every given id is tied and ids are distinct, so one is missing exactly when there are fewer; the set (nearly everyone can tie, and a list lookup made the turn grow as n^1.25) is built only to name it.
  if (given.length < tied.size) {
    const givenIds = new Set(given);
    for (const id of tied) if (!givenIds.has(id)) throw new RulesRangeError("turnRollOffMissing", { id });
  }
  const draft = new Draft(state);
  for (let i = 0; i < given.length; i++) {
    const id = given[i] as string;
    const d10 = rolls[id] as number;
    assertInitiativeRoll(d10);
    const c = combatants[i] as CombatantTurn;
    draft.put(c, { initiative: initiativeWith(c.initiative, { rollOffs: rollOffsWith(c.initiative.rollOffs, d10) }) });
  }
  return draft.change();
}

/**
 * Records a declared dodger's Agy (bal) FEAT, rolled right after initiative (§6 optional rule,
 * [000]): its colour's shift (white 0, green −2, yellow −4, red −6) applies to every attack on
 * the dodger this turn. The roll is at the dodger's hold shift, when it has one. The same roll again
 * changes nothing; another is stale.
 */
export function recordDodgeRoll(state: TurnState, id: string, d100: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, phasesWaitingFor("dodgeRoll"));
  assertD100(d100);
  if (c.dodge === null) throw new TurnError("cannotAct", "turnNoDeclaredDodge", { id });
  if (c.dodge.roll !== null) {
    if (c.dodge.roll === d100) return NO_CHANGE;
    throw new TurnError("stale", "turnDodgeRolled", { id, roll: String(c.dodge.roll) });
  }
  const result = resolveAction({ value: c.stats.balance, roll: d100, cs: heldActionCs(c.hold) });
  const next = combatantCopy(c);
  next.dodge = { roll: d100, color: result.color, shift: dodgeShift(result.color) };
  return changeOf(next);
}
