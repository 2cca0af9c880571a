/**
 * Copying an exchange state with one target row replaced: the step every transition of
 * exchange.ts ends with. An object spread of the state cost about a third of a whole attack
 * resolution in V8 (its generic clone path), so a state whose own keys are exactly the fields
 * of {@link ExchangeState} is copied field by field; any other state (say a stored one with a
 * field this version does not know) is spread as before, so nothing it holds is lost.
 */
import type { ExchangeState, ExchangeTarget } from "./exchange";

/** The fields of an {@link ExchangeState}. */
const STATE_KEYS: ReadonlySet<string> = new Set(["version", "attack", "source", "attacker", "toHitCs", "karma", "damage", "calledShot", "blindsided", "projectile", "targets"] satisfies (keyof ExchangeState)[]);

/** True when `state`'s own keys are exactly {@link STATE_KEYS}, all enumerable, and it has no symbol keys. */
export function hasExactlyStateKeys(state: ExchangeState): boolean {
  const keys = Object.keys(state);
  if (keys.length !== STATE_KEYS.size) return false;
  for (const key of keys) if (!STATE_KEYS.has(key)) return false;
  return Object.getOwnPropertySymbols(state).length === 0;
}

/** `state` with the row whose key is `target.key` replaced by `target`: equal to `{ ...state, targets }`. */
export function replaceTarget(state: ExchangeState, target: ExchangeTarget): ExchangeState {
  const targets = state.targets.map((t) => (t.key === target.key ? target : t));
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
    targets,
  };
}
