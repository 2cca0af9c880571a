/**
 * Step 3 of the turn, initiative [001 Step 3]: units, what the phase waits for, the rolls,
 * roll-offs and declared dodges, with the fast paths that build no units without team initiative, and the simple paths they
 * must equal. The acting order the phase ends with is acting-order.ts.
 */
import { combatantCopy, initiativeWith, rollOffsWith } from "./copy";
import { resolveAction } from "../actions";
import { dodgeShift } from "../defences";
import { INITIATIVE_DIE_SIDES, INITIATIVE_TIES_BY_MODIFIER, type InitiativeEntry, type InitiativeSettings, assertInitiativeRoll, initiativeTies, initiativeTotalForMode } from "../initiative";
import { assertD100 } from "../universal-table";
import { TurnError, assertId, phasesWaitingFor, show } from "./phases";
import { type CombatantTurn, INITIATIVE_MAX_ROLL_OFFS, type TurnChange, type TurnSettings, type TurnState, canActThisTurn, combatantOf, heldActionCs } from "./state";
import { Draft, NO_CHANGE, NO_FIELDS, NO_LOSSES, assertPhase, changeOf } from "./change";

// ── Step 3: Initiative ────────────────────────────────────────────────────────────────────────
/** A group that takes one initiative: one combatant, or a team [001 optional rule]. */
export interface InitiativeUnit {
  /** The unit's key: the combatant id, or "team:<team>". */
  readonly key: string;
  /** The member who rolls for the unit (a team's highest Table 23 modifier; tracker order breaks ties). */
  readonly rollerId: string;
  /** Members in their acting order within the unit (modifier, then tracker order). */
  readonly memberIds: readonly string[];
  readonly modifier: number;
}

export function takesPartInInitiative(c: CombatantTurn): boolean {
  return !c.defeated && !c.dead;
}

/** The initiative units of the turn, in tracker order of their first member. O(n log n). */
export function initiativeUnits(state: TurnState): InitiativeUnit[] {
  const { mode, team } = state.settings.initiative;
  const grouped = new Map<string, CombatantTurn[]>();
  const units: (InitiativeUnit | { key: string; members: CombatantTurn[] })[] = [];
  for (const c of state.combatants.values()) {
    if (!takesPartInInitiative(c)) continue;
    if (team && mode !== "fixedOrder" && c.team !== null) {
      const key = `team:${c.team}`;
      let members = grouped.get(key);
      if (!members) {
        members = [];
        grouped.set(key, members);
        units.push({ key, members });
      }
      members.push(c);
    } else {
      units.push({ key: c.id, rollerId: c.id, memberIds: [c.id], modifier: c.stats.initiativeModifier });
    }
  }
  return units.map((unit) => {
    if (!("members" in unit)) return unit;
    const sorted = unit.members.map((c, i) => ({ c, i })).sort((a, b) => b.c.stats.initiativeModifier - a.c.stats.initiativeModifier || a.i - b.i);
    const roller = (sorted[0] as { c: CombatantTurn }).c;
    return { key: unit.key, rollerId: roller.id, memberIds: sorted.map((s) => s.c.id), modifier: roller.stats.initiativeModifier };
  });
}

/** True for the initiative modes that roll a d10 (every turn, once per combat) [001]. */
export function rollsDie(mode: InitiativeSettings["mode"]): boolean {
  return mode === "everyTurn" || mode === "oncePerCombat";
}

/** Encodes roll-offs (each 1–10, later ones only within a still-tied group) as one sortable number. */
export function rollOffTiebreak(rollOffs: readonly number[], length: number): number | undefined {
  if (rollOffs.length === 0) return undefined;
  let value = 0;
  for (let i = 0; i < length; i++) value = value * (INITIATIVE_DIE_SIDES + 1) + (rollOffs[i] ?? 0);
  return value;
}

export function unitEntries(state: TurnState, units: readonly InitiativeUnit[], get: (id: string) => CombatantTurn | undefined): InitiativeEntry[] | null {
  const { mode } = state.settings.initiative;
  let longest = 0;
  for (const u of units) longest = Math.max(longest, get(u.rollerId)?.initiative.rollOffs.length ?? 0);
  const entries: InitiativeEntry[] = [];
  for (const u of units) {
    const roller = get(u.rollerId);
    if (!roller) return null;
    const { d10, rollOffs } = roller.initiative;
    let total: number | null;
    if (rollsDie(mode)) {
      if (d10 === null) return null;
      total = initiativeTotalForMode(mode, u.modifier, d10);
    } else {
      total = initiativeTotalForMode(mode, u.modifier);
    }
    if (total === null) return null;
    const tiebreak = rollOffTiebreak(rollOffs, longest);
    entries.push(tiebreak === undefined ? { id: u.key, total, modifier: u.modifier } : { id: u.key, total, modifier: u.modifier, tiebreak });
  }
  return entries;
}

/**
 * What the initiative phase still waits for. The answer for a state is remembered and handed
 * to everyone who asks again: read it, never change it. Its lists are not frozen — V8 walks a
 * frozen array in a for-of loop many times slower, and callers walk these.
 */
export interface InitiativeWaiting {
  /** Rollers (combatant ids) whose d10 is still to be rolled. */
  readonly rolls: readonly string[];
  /** Groups of rollers tied after totals and modifiers (and earlier roll-offs) who roll off with a d10. */
  readonly rollOffs: readonly (readonly string[])[];
  /** Declared dodgers whose Agy (bal) FEAT is still to be rolled. */
  readonly dodges: readonly string[];
}

/**
 * What the initiative phase waits for (empty lists outside it). O(n log n), with no object per
 * combatant when every combatant is its own unit (no team initiative): the bench's roll-off
 * rounds call this several times a turn. Equal to {@link initiativeWaitingSimple}.
 */
export function initiativeWaiting(state: TurnState): InitiativeWaiting {
  if (state.combat.phase !== "initiative") return { rolls: [], rollOffs: [], dodges: [] };
  const scratch = initiativeScratch(state.combatants);
  const remembered = recall(scratch, state);
  if (remembered !== null) return remembered;
  return initiativeWaitingFast(scratch, state) ?? initiativeWaitingSimple(state);
}

/**
 * The last answer of the fast path for a combatants' map, with what it was worked out from:
 * every combatant in the map (in order), and the settings. The turn's data is immutable (every
 * step makes new combatants), so the same map holding the very same combatants, under the
 * same settings, has the same answer: a roll-off round asks it two or three times (the caller,
 * the roll-off step, the phase's end), and checking identities walks only the map's own
 * storage, never a combatant. One entry per map ({@link InitiativeScratch.memo}).
 */
interface WaitingMemo {
  readonly snapshot: readonly CombatantTurn[];
  readonly settings: TurnSettings;
  readonly mode: InitiativeSettings["mode"];
  readonly team: boolean;
  readonly result: InitiativeWaiting;
  /** For each group of `result.rollOffs`, each member's place in `snapshot` (a roll-off round updates them without a search). */
  readonly groupAt: readonly (readonly number[])[];
}

/**
 * What the initiative questions keep between calls for one combatants' map: the remembered
 * answer, and scratch numbers. A typed array of thousands of numbers lives outside V8's heap,
 * and allocating one per call (several per roll-off round) cost more than the sort and pressed
 * the collector into full collections. Scratch is only read within one synchronous call.
 * Kept in a WeakMap keyed by the map (no module state: it lives exactly as long as the map,
 * and a state committed to in place, as the engine's scratch state and the bench are, keeps
 * it for the whole turn; a state made by applyTurnChange starts afresh).
 */
export interface InitiativeScratch {
  memo: WaitingMemo | null;
  fields: Float64Array;
  keys: Float64Array;
  /** Three lists of whole numbers for {@link rollOffRound}. */
  readonly ints: Int32Array[];
  /** Per d10 face, for {@link rollOffRound}: how many in a group rolled it, and where its part begins. */
  readonly rollCounts: Int32Array;
  readonly rollStarts: Int32Array;
}

const scratchByMap = new WeakMap<ReadonlyMap<string, CombatantTurn>, InitiativeScratch>();

/** The {@link InitiativeScratch} of a combatants' map (made on first use). */
export function initiativeScratch(combatants: ReadonlyMap<string, CombatantTurn>): InitiativeScratch {
  let scratch = scratchByMap.get(combatants);
  if (scratch === undefined) {
    const ints = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];
    scratch = { memo: null, fields: new Float64Array(0), keys: new Float64Array(0), ints, rollCounts: new Int32Array(INITIATIVE_DIE_SIDES + 1), rollStarts: new Int32Array(INITIATIVE_DIE_SIDES + 1) };
    scratchByMap.set(combatants, scratch);
  }
  return scratch;
}

/** The remembered answer when `state` is what it was worked out from, else null. */
function recall(scratch: InitiativeScratch, state: TurnState): InitiativeWaiting | null {
  const m = scratch.memo;
  if (m === null || m.settings !== state.settings) return null;
  if (m.mode !== state.settings.initiative.mode || m.team !== state.settings.initiative.team) return null;
  if (m.snapshot.length !== state.combatants.size) return null;
  let i = 0;
  for (const c of state.combatants.values()) if (c !== m.snapshot[i++]) return null;
  return m.result;
}

/** Forgets the answer remembered for `state`'s combatants (tests compare the fast path with the simple one afresh). */
export function forgetInitiativeWaiting(state: TurnState): void {
  initiativeScratch(state.combatants).memo = null;
}

/** True when every initiative unit is one combatant (its key and roller are its id): no team initiative in force. */
export function unitsAreCombatants(settings: InitiativeSettings): boolean {
  return !(settings.team && settings.mode !== "fixedOrder");
}

function scratchFields(scratch: InitiativeScratch, n: number): Float64Array {
  if (scratch.fields.length < 3 * n) scratch.fields = new Float64Array(3 * Math.max(n, 2 * (scratch.fields.length / 3)));
  return scratch.fields;
}

/** The first `n` of the scratch keys, as a view (sorting it sorts only those). */
function scratchKeys(scratch: InitiativeScratch, n: number): Float64Array {
  if (scratch.keys.length < n) scratch.keys = new Float64Array(Math.max(n, 2 * scratch.keys.length));
  return scratch.keys.subarray(0, n);
}

/**
 * The units in acting order as sorted numbers, with no entries and no comparator: each unit's
 * place (total, modifier, tiebreak, then tracker position — the packing of initiative.ts's
 * sort) times `indexSpan` plus its index in `units`, in one native sort of `scratch`'s keys
 * (read it before the next call). `longest` is the most roll-offs any unit has. Null for any
 * value the packing does not cover (a missing or bad d10 or modifier, an odd roll-off, ranges
 * too wide): the caller takes its entries path, which also raises the errors.
 */
export function initiativeKeys(scratch: InitiativeScratch, units: readonly CombatantTurn[], die: boolean, longest: number): { keys: Float64Array; indexSpan: number } | null {
  const n = units.length;
  const fields = scratchFields(scratch, n);
  let totalMin = Infinity;
  let totalMax = -Infinity;
  let modMin = Infinity;
  let modMax = -Infinity;
  let tbMax = 0;
  for (let i = 0; i < n; i++) {
    const c = units[i] as CombatantTurn;
    const modifier = c.stats.initiativeModifier;
    if (!Number.isSafeInteger(modifier)) return null;
    let total = modifier;
    if (die) {
      const d10 = c.initiative.d10;
      if (d10 === null || !Number.isInteger(d10) || d10 < 1 || d10 > INITIATIVE_DIE_SIDES) return null;
      total = d10 + modifier;
    }
    const tiebreak = rollOffTiebreak(c.initiative.rollOffs, longest);
    if (tiebreak !== undefined && !(Number.isInteger(tiebreak) && tiebreak >= 0)) return null;
    const mod = (INITIATIVE_TIES_BY_MODIFIER as boolean) ? modifier : 0;
    const tb = tiebreak === undefined ? 0 : tiebreak + 1;
    fields[3 * i] = total;
    fields[3 * i + 1] = mod;
    fields[3 * i + 2] = tb;
    if (total < totalMin) totalMin = total;
    if (total > totalMax) totalMax = total;
    if (mod < modMin) modMin = mod;
    if (mod > modMax) modMax = mod;
    if (tb > tbMax) tbMax = tb;
  }
  const indexSpan = 2 ** Math.ceil(Math.log2(n + 1));
  const tbSpan = tbMax + 1;
  const modSpan = modMax - modMin + 1;
  const totalSpan = totalMax - totalMin + 1;
  if (!(indexSpan * tbSpan * modSpan * totalSpan <= 2 ** 52)) return null;
  const keys = scratchKeys(scratch, n);
  for (let i = 0; i < n; i++) {
    const place = ((totalMax - (fields[3 * i] as number)) * modSpan + (modMax - (fields[3 * i + 1] as number))) * tbSpan + (tbMax - (fields[3 * i + 2] as number));
    keys[i] = place * indexSpan + i;
  }
  keys.sort();
  return { keys, indexSpan };
}

/**
 * {@link initiativeWaiting} without building units, entries or a sort of objects: one pass over
 * the combatants, then the roll-off ties from one native sort of numbers (the same packing as
 * initiative.ts's sort: total, modifier, tiebreak, then tracker position). Null — take the
 * simple path, which also raises its errors — under team initiative or for any value the
 * packing does not cover (a bad d10 or modifier, an odd roll-off, ranges too wide).
 */
function initiativeWaitingFast(scratch: InitiativeScratch, state: TurnState): InitiativeWaiting | null {
  const { mode } = state.settings.initiative;
  if (!unitsAreCombatants(state.settings.initiative)) return null;
  const die = rollsDie(mode);
  const rolls: string[] = [];
  const dodges: string[] = [];
  // The lists of every combatant are made at the combatants' count and cut to the units' after
  // (grown by push, each was copied over and over as it grew: garbage at every initiative question).
  const size = state.combatants.size;
  const units = new Array<CombatantTurn>(size);
  /** Each unit's id and place in the snapshot (the groups are read from these, not from the combatants, which they visit out of tracker order). */
  const unitIds = new Array<string>(size);
  const unitAt = new Array<number>(size);
  /** The units at the roll-off limit: a group with one of them rolls no more. */
  const atLimit: number[] = [];
  const snapshot = new Array<CombatantTurn>(size);
  let seen = 0;
  let count = 0;
  let longest = 0;
  for (const c of state.combatants.values()) {
    snapshot[seen] = c;
    if (c.dodge !== null && c.dodge.roll === null && canActThisTurn(c)) dodges.push(c.id);
    if (takesPartInInitiative(c)) {
      units[count] = c;
      unitIds[count] = c.id;
      unitAt[count] = seen;
      const init = c.initiative;
      if (die && init.d10 === null) rolls.push(c.id);
      if (init.rollOffs.length > longest) longest = init.rollOffs.length;
      if (init.rollOffs.length >= INITIATIVE_MAX_ROLL_OFFS) atLimit.push(count);
      count++;
    }
    seen++;
  }
  if (count < size) units.length = unitIds.length = unitAt.length = count;
  const remember = (rollOffs: string[][], groupAt: number[][] = []): InitiativeWaiting => {
    const result: InitiativeWaiting = Object.freeze({ rolls, rollOffs, dodges });
    scratch.memo = { snapshot, settings: state.settings, mode, team: state.settings.initiative.team, result, groupAt };
    return result;
  };
  if (rolls.length > 0 || mode === "fixedOrder") return remember([]);
  const n = units.length;
  if (n === 0) return remember([]);
  const sorted = initiativeKeys(scratch, units, die, longest);
  if (sorted === null) return null;
  const { keys, indexSpan } = sorted;
  let closed: Uint8Array | null = null;
  for (const u of atLimit) (closed ??= new Uint8Array(n))[u] = 1;
  const rollOffs: string[][] = [];
  const groupAt: number[][] = [];
  let start = 0;
  while (start < n) {
    const place = Math.floor((keys[start] as number) / indexSpan);
    let end = start + 1;
    while (end < n && Math.floor((keys[end] as number) / indexSpan) === place) end++;
    if (end - start > 1) {
      const group = new Array<string>(end - start);
      const at = new Array<number>(end - start);
      let open = true;
      for (let k = start; k < end; k++) {
        const u = (keys[k] as number) % indexSpan;
        if (closed !== null && closed[u] === 1) open = false;
        group[k - start] = unitIds[u] as string;
        at[k - start] = unitAt[u] as number;
      }
      if (open) {
        rollOffs.push(group);
        groupAt.push(at);
      }
    }
    start = end;
  }
  return remember(rollOffs, groupAt);
}

/** {@link initiativeWaiting} as first written, through units and entries: the reference the fast path must equal (and the path under team initiative). */
export function initiativeWaitingSimple(state: TurnState): InitiativeWaiting {
  if (state.combat.phase !== "initiative") return { rolls: [], rollOffs: [], dodges: [] };
  const get = (id: string): CombatantTurn | undefined => state.combatants.get(id);
  const { mode } = state.settings.initiative;
  const units = initiativeUnits(state);
  const rolls = rollsDie(mode) ? units.filter((u) => get(u.rollerId)?.initiative.d10 === null).map((u) => u.rollerId) : [];
  const dodges = [...state.combatants.values()].filter((c) => c.dodge !== null && c.dodge.roll === null && canActThisTurn(c)).map((c) => c.id);
  if (rolls.length > 0 || mode === "fixedOrder") return { rolls, rollOffs: [], dodges };
  const entries = unitEntries(state, units, get) ?? [];
  const rollerOf = new Map(units.filter((u) => u.key !== u.rollerId).map((u) => [u.key, u.rollerId])); // only teams' keys differ
  const rollOffs = initiativeTies(entries)
    .map((group) => group.map((key) => rollerOf.get(key) ?? key))
    .filter((group) => group.every((id) => (get(id)?.initiative.rollOffs.length ?? 0) < INITIATIVE_MAX_ROLL_OFFS));
  return { rolls, rollOffs, dodges };
}

/**
 * Records initiative d10s [001 Step 3], rollers' ids → d10 (a team's roller rolls for the team),
 * all at once (O(n log n) for the batch). Modes that roll no die refuse them. A d10 the roller
 * already has changes nothing; a different one is stale.
 */
export function recordInitiativeRolls(state: TurnState, rolls: Readonly<Record<string, number>>): TurnChange {
  assertPhase(state, phasesWaitingFor("initiativeRoll"), "An initiative roll");
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new TypeError(`Initiative rolls must be an object of id → d10, got ${show(input)}.`);
  const { mode } = state.settings.initiative;
  if (!rollsDie(mode)) throw new TurnError("cannotAct", `Initiative mode "${mode}" rolls no initiative die.`);
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
      if (!takesPartInInitiative(c) || c.id !== id) throw new TurnError("cannotAct", `Combatant "${id}" takes no part in initiative (out of the fight).`);
      rollerId = c.id;
      modifier = c.stats.initiativeModifier;
    } else {
      const unit = unitOf.get(id);
      if (!unit) throw new TurnError("cannotAct", `Combatant "${id}" takes no part in initiative (out of the fight).`);
      rollerId = unit.rollerId;
      modifier = unit.modifier;
    }
    if (rollerId !== id) throw new TurnError("cannotAct", `Combatant "${id}" acts on its team's roll, made by "${rollerId}".`);
    if (c.initiative.d10 !== null) {
      if (c.initiative.d10 === d10) continue;
      throw new TurnError("stale", `Combatant "${id}" already rolled ${c.initiative.d10} for initiative.`);
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
  assertPhase(state, phasesWaitingFor("rollOff"), "An initiative roll-off");
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new TypeError(`Roll-offs must be an object of id → d10, got ${show(input)}.`);
  const waiting = initiativeWaiting(state);
  if (waiting.rolls.length > 0) throw new TurnError("notReady", `Initiative rolls are still missing (${waiting.rolls.join(", ")}): roll-offs come after them.`);
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

/** {@link recordInitiativeRollOffs} for any `rolls`: checks each id (unknown, not tied, missing) and records one roll-off each. */
function rollOffsSimple(state: TurnState, waiting: InitiativeWaiting, given: readonly string[], rolls: Readonly<Record<string, number>>): TurnChange {
  const tied = new Set<string>();
  for (const group of waiting.rollOffs) for (const id of group) tied.add(id);
  const combatants: CombatantTurn[] = [];
  for (const id of given) {
    combatants.push(combatantOf(state, id));
    if (!tied.has(id)) throw new TurnError("stale", `Combatant "${id}" is not tied on initiative.`);
  }
  // Every given id is tied and ids are distinct, so one is missing exactly when there are fewer; the set (nearly everyone can tie, and a list lookup made the turn grow as n^1.25) is built only to name it.
  if (given.length < tied.size) {
    const givenIds = new Set(given);
    for (const id of tied) if (!givenIds.has(id)) throw new RangeError(`The roll-off needs a d10 for every tied roller; "${id}" is missing.`);
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
 * the dodger this turn. The roll is at the dodger's hold shift, if any. The same roll again
 * changes nothing; another is stale.
 */
export function recordDodgeRoll(state: TurnState, id: string, d100: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, phasesWaitingFor("dodgeRoll"), "A declared dodge's roll");
  assertD100(d100);
  if (c.dodge === null) throw new TurnError("cannotAct", `Combatant "${id}" did not declare a dodge (or the declared-dodge rule is off).`);
  if (c.dodge.roll !== null) {
    if (c.dodge.roll === d100) return NO_CHANGE;
    throw new TurnError("stale", `Combatant "${id}" already rolled ${c.dodge.roll} for the declared dodge.`);
  }
  const result = resolveAction({ value: c.stats.balance, roll: d100, cs: heldActionCs(c.hold) });
  const next = combatantCopy(c);
  next.dodge = { roll: d100, color: result.color, shift: dodgeShift(result.color) };
  return changeOf(next);
}
