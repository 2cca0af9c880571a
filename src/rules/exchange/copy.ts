/**
 * Copying an exchange state with one target row replaced: the step every transition of
 * exchange.ts ends with. An object spread of the state cost about a third of a whole attack
 * resolution in V8 (its generic clone path), so a state whose own keys are exactly the fields
 * of {@link ExchangeState} is copied field by field; any other state (say a stored one with a
 * field this version does not know) is spread as before, so nothing it holds is lost.
 */
import type { ExchangeState, ExchangeTarget } from "./state";

/** The fields of an {@link ExchangeState}, in the order createExchange and {@link replaceTarget} write them. */
const STATE_KEYS = ["version", "attack", "source", "attacker", "toHitCs", "karma", "damage", "calledShot", "blindsided", "projectile", "obstacles", "strengthContest", "targets"] as const satisfies readonly (keyof ExchangeState)[];
const STATE_KEY_SET: ReadonlySet<string> = new Set(STATE_KEYS);

/**
 * True when `state`'s own enumerable string keys are exactly {@link STATE_KEYS} (in any order).
 * Symbol keys are not looked at: a state is plain JSON (and Object.getOwnPropertySymbols alone
 * would cost more than the spread this avoids).
 */
export function hasExactlyStateKeys(state: ExchangeState): boolean {
  const keys = Object.keys(state);
  if (keys.length !== STATE_KEYS.length) return false;
  let i = 0;
  while (i < keys.length && keys[i] === STATE_KEYS[i]) i++;
  for (; i < keys.length; i++) if (!STATE_KEY_SET.has(keys[i] as string)) return false;
  return true;
}

/** `state` with the row whose key is `target.key` replaced by `target`: equal to `{ ...state, targets }`. */
export function replaceTarget(state: ExchangeState, target: ExchangeTarget): ExchangeState {
  const list = state.targets;
  // One target (most attacks): no callback. (A hole there would have failed targetOf already.)
  const targets = list.length === 1 && list[0]?.key === target.key ? [target] : list.map((t) => (t.key === target.key ? target : t));
  if (!hasExactlyStateKeys(state)) return { ...state, targets };
  return {
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
}
