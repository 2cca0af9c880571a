/**
 * Copies for the turn (src/rules/turn/), the step nearly every turn change makes. A spread of a
 * frozen combatant took V8's generic clone path (hundreds of ns, a sixth of a whole turn), so a
 * combatant or combat part whose own keys are exactly its type's fields is copied field by
 * field; every other (one with a field this version does not know) is spread as before, so
 * nothing it holds is lost. Each function equals the spread it replaces. A step sets fields on
 * its combatant's copy and the copy is frozen with the change (state.ts, Draft).
 */
import type { CombatTurn, CombatantTurn, InitiativeState } from "./state";

/** `T` with its fields writable: a copy a step fills in before it is frozen. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The fields of a {@link CombatantTurn}, in the order createCombatantTurn writes them. */
const COMBATANT_KEYS = [
  "id",
  "stats",
  "team",
  "defeated",
  "declaration",
  "extra",
  "actionsAllowed",
  "actionsUsed",
  "actionCs",
  "damageCs",
  "nextActionCs",
  "actedInRound",
  "defencesUsed",
  "initiative",
  "dodge",
  "lostTurn",
  "changedAt",
  "stunTurns",
  "stunPending",
  "dying",
  "aided",
  "dead",
  "hold",
  "dyingFresh",
  "unconscious",
] as const satisfies readonly (keyof CombatantTurn)[];
const COMBATANT_KEY_SET: ReadonlySet<string> = new Set(COMBATANT_KEYS);

/** The fields of a {@link CombatTurn}, in the order createCombatTurn writes them. */
const COMBAT_KEYS = ["number", "phase", "round", "order", "cursor", "events"] as const satisfies readonly (keyof CombatTurn)[];
const COMBAT_KEY_SET: ReadonlySet<string> = new Set(COMBAT_KEYS);

/**
 * True when `value`'s own enumerable string keys are exactly `keys`, in whatever order (symbol keys
 * are not looked at: the turn is plain data). A for-in walk, not Object.keys: that made an
 * array of the keys on every copy, a quarter of the bytes a turn allocated. For-in yields the
 * own keys first and inherited ones after, so when the last key it yields is own, all are.
 */
function hasExactly(value: object, keys: readonly string[], set: ReadonlySet<string>): boolean {
  let i = 0;
  let inOrder = true;
  let last = "";
  for (const key in value) {
    if (i === keys.length) return false;
    if (inOrder && key !== keys[i]) inOrder = false;
    if (!inOrder && !set.has(key)) return false;
    last = key;
    i++;
  }
  return i === keys.length && (i === 0 || Object.prototype.hasOwnProperty.call(value, last));
}

/** Sets every own enumerable field of `fields` on `target` (what a spread of `fields` after it does). */
export function assignOwn<T extends object>(target: T, fields: Partial<T>): T {
  for (const key in fields) if (Object.prototype.hasOwnProperty.call(fields, key)) target[key] = fields[key] as T[typeof key];
  return target;
}

/**
 * A copy of `c` for a step to change field by field and then freeze: equal to `{ ...c }`, so
 * setting fields on it and freezing equals `Object.freeze({ ...c, ...fields })` (a field `c`
 * lacks is added after its own, as the spread adds it).
 */
export function combatantCopy(c: CombatantTurn): Mutable<CombatantTurn> {
  if (!hasExactly(c, COMBATANT_KEYS, COMBATANT_KEY_SET)) return { ...c };
  return {
    id: c.id,
    stats: c.stats,
    team: c.team,
    defeated: c.defeated,
    declaration: c.declaration,
    extra: c.extra,
    actionsAllowed: c.actionsAllowed,
    actionsUsed: c.actionsUsed,
    actionCs: c.actionCs,
    damageCs: c.damageCs,
    nextActionCs: c.nextActionCs,
    actedInRound: c.actedInRound,
    defencesUsed: c.defencesUsed,
    initiative: c.initiative,
    dodge: c.dodge,
    lostTurn: c.lostTurn,
    changedAt: c.changedAt,
    stunTurns: c.stunTurns,
    stunPending: c.stunPending,
    dying: c.dying,
    aided: c.aided,
    dead: c.dead,
    hold: c.hold,
    dyingFresh: c.dyingFresh,
    unconscious: c.unconscious,
  };
}

/** Equal to `{ ...combat, ...fields }` (not frozen). */
export function combatWith(combat: CombatTurn, fields: Partial<CombatTurn>): CombatTurn {
  if (!hasExactly(combat, COMBAT_KEYS, COMBAT_KEY_SET)) return { ...combat, ...fields };
  const copy: Mutable<CombatTurn> = { number: combat.number, phase: combat.phase, round: combat.round, order: combat.order, cursor: combat.cursor, events: combat.events };
  return assignOwn(copy, fields);
}

/** The fields of an {@link InitiativeState}, in the order the turn writes them. */
const INITIATIVE_KEYS = ["d10", "total", "rollOffs"] as const satisfies readonly (keyof InitiativeState)[];
const INITIATIVE_KEY_SET: ReadonlySet<string> = new Set(INITIATIVE_KEYS);

/** Equal to `{ ...initiative, ...fields }`. */
export function initiativeWith(initiative: InitiativeState, fields: Partial<InitiativeState>): InitiativeState {
  if (!hasExactly(initiative, INITIATIVE_KEYS, INITIATIVE_KEY_SET)) return { ...initiative, ...fields };
  return assignOwn<Mutable<InitiativeState>>({ d10: initiative.d10, total: initiative.total, rollOffs: initiative.rollOffs }, fields);
}

/**
 * The fields of `fields` whose values differ from `base`'s, in `fields`' order: equal to
 * `Object.fromEntries(Object.entries(fields).filter(([k, v]) => base[k] !== v))`.
 */
export function fieldsThatDiffer(base: CombatTurn, fields: Partial<CombatTurn>): Partial<CombatTurn> {
  const from = base as unknown as Record<string, unknown>;
  const next = fields as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key in next) if (Object.prototype.hasOwnProperty.call(next, key) && from[key] !== next[key]) kept[key] = next[key];
  return kept;
}

/** True when `value` has an own enumerable string key: `Object.keys(value).length > 0` without the array. */
export function hasOwnKeys(value: object): boolean {
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return true;
  return false;
}

/** A roll-off list shared by value ({@link rollOffsWith}), and the lists one roll longer, by that roll. */
interface RollOffNode {
  readonly list: readonly number[];
  readonly longer: (RollOffNode | undefined)[];
}
/** Lists up to this long are shared: a handful of roll-off rounds settles nearly every tie. */
const SHARED_ROLL_OFFS_MAX = 3;
/** The highest roll a shared list holds (a d10). */
const SHARED_ROLL_MAX = 10;
const ROLL_OFF_ROOT: RollOffNode = { list: Object.freeze([]), longer: [] };

/**
 * `Object.freeze(rollOffs.concat(roll))`: a frozen list of the roll-offs with `roll` added. Short
 * lists of d10s are shared, one frozen array per sequence of rolls (a list is never changed, so
 * sharing one is as good as a copy): a roll-off round at ten thousand combatants made an array
 * per roller, and they were a good share of what the collector had to keep and move.
 */
export function rollOffsWith(rollOffs: readonly number[], roll: number): readonly number[] {
  if (rollOffs.length >= SHARED_ROLL_OFFS_MAX || !isSharedRoll(roll)) return Object.freeze(rollOffs.concat(roll));
  let node = ROLL_OFF_ROOT;
  for (let i = 0; i < rollOffs.length; i++) {
    const r = rollOffs[i] as number;
    if (!isSharedRoll(r)) return Object.freeze(rollOffs.concat(roll));
    node = node.longer[r] ?? addRollOffNode(node, r);
  }
  return (node.longer[roll] ?? addRollOffNode(node, roll)).list;
}

function isSharedRoll(r: number): boolean {
  return Number.isInteger(r) && r >= 1 && r <= SHARED_ROLL_MAX;
}

function addRollOffNode(node: RollOffNode, roll: number): RollOffNode {
  const next: RollOffNode = { list: Object.freeze(node.list.concat(roll)), longer: [] };
  node.longer[roll] = next;
  return next;
}
