/**
 * Foundry 14's update operators, as a double: what a document update does with a value that
 * says "delete this key".
 *
 * What it models (public sources):
 * - Foundry 14 API, `foundry.data.operators` (foundryvtt.com/api/v14): `ForcedDeletion` is a
 *   `DataModelUpdateOperator` subclass; an update deletes the key whose value is an *instance*
 *   of it, made by `ForcedDeletion.create()`; the v14 release notes deprecate the v13 key form
 *   `"path.-=key": null` (removed in 16) in favour of it, and add the `_del` global for that
 *   instance.
 * - dnd5e 5.x (foundryvtt/dnd5e, MIT) writes `{ "system.key": _del }` on 14 where it wrote
 *   `"system.-=key": null` on 13; Draw Steel 1.0 (MetaMorphic-Digital/draw-steel, MIT) does the
 *   same through `foundry.data.operators.ForcedDeletion`.
 * - An update is data sent to the server: a function (the operator *class* itself) is not an
 *   operator and deletes nothing. This double refuses it with an error instead of keeping it, so
 *   a test can never pass on a class where Foundry needs an instance.
 * - Foundry 13 has no `foundry.data.operators` and no `_del`: only the `-=key` form deletes.
 */
import { vi } from "vitest";
import { foundryDouble } from "./foundry-double";

/** v14's `foundry.data.operators.ForcedDeletion`. */
export class ForcedDeletion {
  /** What the operator does (Foundry's operators name their action; read by nothing here). */
  readonly operation = "delete";
  constructor() {
    Object.freeze(this);
  }
  static readonly #instance = new ForcedDeletion();
  /** The operator instance (Foundry 14: `ForcedDeletion.create()`). */
  static create(): ForcedDeletion {
    return ForcedDeletion.#instance;
  }
}

/** v14's `_del` global: the deletion operator instance. */
export const DEL = ForcedDeletion.create();

/**
 * Whether an update's `value` deletes its key on this generation (a `-=key` key is the caller's
 * to read). Throws on a function, the operator's class included: Foundry needs an instance.
 */
export function deletesKey(value: unknown, generation: number = currentGeneration()): boolean {
  if (typeof value === "function") throw new Error("Foundry 14: an update operator must be an instance (ForcedDeletion.create() or _del), not a class or function; this update deletes nothing");
  return generation >= 14 && value instanceof ForcedDeletion;
}

function currentGeneration(): number {
  const game = (globalThis as { game?: { release?: { generation?: unknown } } }).game;
  const generation = game?.release?.generation;
  return typeof generation === "number" ? generation : 14;
}

/**
 * Installs what a generation provides: on 14 `foundry.data.operators.ForcedDeletion` and the
 * `_del` global; on 13 neither. With `{ del: false }` a 14 without the `_del` global (the code
 * must then reach the class's `create()`).
 */
export function installOperators(generation: 13 | 14, { del = true, create = true }: { del?: boolean; create?: boolean } = {}): void {
  const base = ((globalThis as Record<string, unknown>).foundry ?? foundryDouble) as typeof foundryDouble;
  // Without `create` (public v14 code makes the instance with `new ForcedDeletion()`), the class
  // as such, its static `create` hidden.
  const operator = create ? ForcedDeletion : Object.defineProperty(class extends ForcedDeletion {}, "create", { value: undefined });
  vi.stubGlobal("foundry", { ...base, data: { ...foundryDouble.data, ...(generation >= 14 ? { operators: { ForcedDeletion: operator } } : {}) } });
  vi.stubGlobal("_del", generation >= 14 && del ? DEL : undefined);
}
