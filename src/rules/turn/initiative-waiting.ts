/**
 * What step 3 waits for [001 Step 3]: the initiative d10s still to roll, the tied groups that roll
 * off, the declared dodges still to roll. A fast path with no units and no sort of objects (and
 * its remembered answer and scratch numbers, kept per combatants' map), and the simple path
 * through units and entries it must equal.
 */
import { INITIATIVE_DIE_SIDES, INITIATIVE_TIES_BY_MODIFIER, type InitiativeSettings, initiativeTies } from "../initiative";
import { type CombatantTurn, INITIATIVE_MAX_ROLL_OFFS, type TurnSettings, type TurnState, canActThisTurn } from "./state";
import { initiativeUnits, rollOffTiebreak, rollsDie, takesPartInInitiative, unitEntries, unitsAreCombatants } from "./initiative-units";

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
export interface WaitingMemo {
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
 * (read it before the next call). `longest` is the most roll-offs one unit has. Null for every
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
 * simple path, which also raises its errors — under team initiative or for every value the
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
