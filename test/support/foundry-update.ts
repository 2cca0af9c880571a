/**
 * How Foundry applies a document update to the stored source, for the strict table's server
 * (./strict-table.ts). Modelled on Foundry's public API pages and on public MIT system code:
 *
 * - An update is expanded (`foundry.utils.expandObject`: `{"system.phase": "x"}` becomes
 *   `{system: {phase: "x"}}`), then merged into the source recursively
 *   (`foundry.utils.mergeObject(source, changes, {insertKeys, insertValues, overwrite,
 *   recursive, performDeletions: true})`, foundryvtt.com/api/functions/foundry.utils.mergeObject.html):
 *   an inner object merges key by key, so `combat.update({system: {phase}})` keeps
 *   `system.order`; an array or any other value replaces the old one whole.
 * - Deletion on 13: a key spelled `-=key` deletes `key` (mergeObject's `performDeletions`,
 *   the "-=" prefix on that page; `actor.update({"flags.case.-=foo": null})` in dnd5e and
 *   Draw Steel before 1.0).
 * - Deletion on 14: the value `new foundry.data.operators.ForcedDeletion()` (also the global
 *   `_del`, one such instance) deletes its key; Draw Steel 1.0 and other public v14 systems
 *   write `{[path]: new foundry.data.operators.ForcedDeletion()}`. The class itself, given as
 *   the value instead of an instance, is a function: it does not survive the trip to the
 *   server (JSON drops it), and the key stays. The wire cannot carry a class instance, so the
 *   table's client writes the deletion by its meaning (the `-=key` form) before sending; how
 *   v14 spells it on its socket is not modelled.
 */

type Json = Record<string, unknown>;

/** v14's `foundry.data.operators.ForcedDeletion`: an instance given as a value deletes its key. */
export class ForcedDeletion {
  readonly operator = "ForcedDeletion";
}

/** A plain object (an inner object of an update), not an array, null or a class instance. */
function isPlain(value: unknown): value is Json {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** `foundry.utils.expandObject`: dotted keys become nested objects, at every level. */
export function expandObject(data: Json): Json {
  const out: Json = {};
  for (const [key, raw] of Object.entries(data)) {
    const value = isPlain(raw) ? expandObject(raw) : raw;
    const parts = key.split(".");
    let node = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlain(node[p])) node[p] = {};
      node = node[p] as Json;
    }
    const last = parts.at(-1) ?? "";
    node[last] = isPlain(value) && isPlain(node[last]) ? { ...node[last], ...value } : value;
  }
  return out;
}

/**
 * Rewrites a v14 deletion (a ForcedDeletion instance as a value) to the `-=key` form it means,
 * so the update can cross the wire as JSON. Anything else is left as it is.
 */
export function encodeDeletions(data: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(data)) {
    if (value instanceof ForcedDeletion) {
      const dot = key.lastIndexOf(".");
      out[`${key.slice(0, dot + 1)}-=${key.slice(dot + 1)}`] = null;
    } else out[key] = isPlain(value) ? encodeDeletions(value) : value;
  }
  return out;
}

/** `mergeObject` with performDeletions, in place: inner objects merge, other values replace, `-=key` deletes. */
function merge(target: Json, changes: Json): void {
  for (const [key, value] of Object.entries(changes)) {
    if (key.startsWith("-=")) {
      Reflect.deleteProperty(target, key.slice(2));
      continue;
    }
    if (isPlain(value)) {
      const inner = isPlain(target[key]) ? target[key] : {};
      merge(inner, value);
      target[key] = inner;
    } else target[key] = value;
  }
}

/** Applies a Foundry update (dotted or nested keys, deletions) to a stored source, in place. */
export function applyUpdate(source: Json, data: Json): void {
  merge(source, expandObject(data));
}

/** The top-level keys an update touches (`system`, `flags`, `initiative` …), deletions by their key. */
export function touchedKeys(data: Json): string[] {
  return Object.keys(expandObject(data)).map((k) => (k.startsWith("-=") ? k.slice(2) : k));
}
