/**
 * Copying an exchange state and its target rows: the step every transition (defend-and-hit.ts,
 * apply-damage.ts, checks-and-escapes.ts) ends with. An object spread cost about a third of a
 * whole attack resolution in V8 (its generic clone path), so a state or row whose own keys are
 * exactly its type's fields is copied field by field; every other (say a stored one with a field
 * this version does not know) is spread as before, so nothing it holds is lost. Each copy
 * equals the spread it replaces.
 *
 * The keys are read every time (a for-in walk of V8's cached key list). The last state and row
 * written here were once remembered in module variables to skip that walk (about a quarter of
 * an attack); src/rules keeps no module state, and a WeakSet of every copy made a whole attack
 * about seven times slower (the collector works through its entries at every collection).
 *
 * Symbol keys are not looked at, on states or rows: an exchange is plain JSON.
 */
import type { ExchangeState, ExchangeTarget } from "./state";

/** A row's fields a transition sets; the others stay as they were. */
type RowStep = "phase" | "defence" | "toHit" | "damage" | "applied" | "consequences" | "escapes";

/** A copy of a row for a transition to set its {@link RowStep} fields on (none other: the copy's keys must stay the row's). */
export type RowCopy = Omit<ExchangeTarget, RowStep> & { -readonly [K in RowStep]: ExchangeTarget[K] };

/** The fields of an {@link ExchangeState}, in the order createExchange and {@link replaceTarget} write them. */
const STATE_KEYS = ["version", "attack", "source", "attacker", "toHitCs", "karma", "damage", "calledShot", "blindsided", "projectile", "obstacles", "strengthContest", "targets"] as const satisfies readonly (keyof ExchangeState)[];
const STATE_KEY_SET: ReadonlySet<string> = new Set(STATE_KEYS);

/** The fields of an {@link ExchangeTarget} row, in the order createExchange writes them. */
const ROW_KEYS = ["key", "uuid", "actorUuid", "name", "scores", "armor", "phase", "defence", "toHit", "damage", "applied", "consequences", "escapes"] as const satisfies readonly (keyof ExchangeTarget)[];

/**
 * True when `value`'s own enumerable string keys are exactly `keys`, in that order. A for-in walk,
 * not Object.keys: it reads V8's cached key list without building an array (half the cost). It
 * also walks inherited keys, so it matches only when the last key is the object's own (own keys
 * come first, so then every key it walked is own).
 */
function hasKeysInOrder(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return false;
  return i === keys.length && Object.hasOwn(value, keys[i - 1] as string);
}

/**
 * True when `state`'s own enumerable string keys are exactly {@link STATE_KEYS} (in whatever order).
 * (Object.getOwnPropertySymbols alone would cost more than the spread this avoids.)
 */
export function hasExactlyStateKeys(state: ExchangeState): boolean {
  if (hasKeysInOrder(state, STATE_KEYS)) return true; // every state this version writes
  const keys = Object.keys(state);
  if (keys.length !== STATE_KEYS.length) return false;
  for (const key of keys) if (!STATE_KEY_SET.has(key)) return false;
  return true;
}

/** True when `row`'s own enumerable string keys are exactly {@link ROW_KEYS}, in that order (a copy keeps a row's key order). */
export function hasExactlyRowKeys(row: ExchangeTarget): boolean {
  return hasKeysInOrder(row, ROW_KEYS);
}

/**
 * A fresh copy of `row` for a transition to set fields on: setting them then equals
 * `{ ...row, field: value, … }` (a field the row has keeps its place, a new one goes last).
 */
export function copyRow(row: ExchangeTarget): RowCopy {
  if (!hasExactlyRowKeys(row)) return { ...row };
  const copy: RowCopy = {
    key: row.key,
    uuid: row.uuid,
    actorUuid: row.actorUuid,
    name: row.name,
    scores: row.scores,
    armor: row.armor,
    phase: row.phase,
    defence: row.defence,
    toHit: row.toHit,
    damage: row.damage,
    applied: row.applied,
    consequences: row.consequences,
    escapes: row.escapes,
  };
  return copy;
}

/** `state` with the row whose key is `target.key` replaced by `target`: equal to `{ ...state, targets }`. */
export function replaceTarget(state: ExchangeState, target: ExchangeTarget): ExchangeState {
  const list = state.targets;
  // One target (most attacks): no callback. (A hole there would have failed targetOf already.)
  const targets = list.length === 1 && list[0]?.key === target.key ? [target] : list.map((t) => (t.key === target.key ? target : t));
  if (!hasExactlyStateKeys(state)) return { ...state, targets };
  const copy: ExchangeState = {
    version: state.version,
    attack: state.attack,
    source: state.source,
    attacker: state.attacker,
    toHitCs: state.toHitCs,
    karma: state.karma,
    damage: state.damage,
    calledShot: state.calledShot,
    blindsided: state.blindsided,
    projectile: state.projectile,
    obstacles: state.obstacles,
    strengthContest: state.strengthContest,
    targets,
  };
  return copy;
}
