/**
 * What differs between Foundry 13 and 14, in one place. We compile against the v13 types (npm
 * has none for v14), so a v14-only API is reached through a small local declaration here,
 * behind `game.release.generation`, never through a global type.
 *
 * Sources (public): the v14 release notes and API pages; dnd5e 5.3 ("minimum 13.347, verified
 * 14") branches on `game.release.generation` at the same points and deletes with the `_del`
 * operator instance on 14; Draw Steel 1.0 moved from the `-=key` deletion key to
 * `foundry.data.operators.ForcedDeletion` (`_del`); core issue #13122
 * made `CONFIG.statusEffects` a record keyed by id.
 */

/** Foundry's major version on this client (13, 14 …). */
export function foundryGeneration(): number {
  return game.release.generation;
}

/**
 * v14's deletion operator: an *instance* of `foundry.data.operators.ForcedDeletion` (the `_del`
 * global, or `ForcedDeletion.create()`), absent on v13 (and from the v13 types, so looked up, not
 * assumed). The class itself is not an operator: an update holding it deletes nothing.
 */
function deletionOperator(): object | undefined {
  const global: object = globalThis;
  const del = "_del" in global ? global._del : undefined;
  if (typeof del === "object" && del !== null) return del;
  const data: object = foundry.data;
  const operators = "operators" in data ? data.operators : undefined;
  const ForcedDeletion = typeof operators === "object" && operators !== null && "ForcedDeletion" in operators ? operators.ForcedDeletion : undefined;
  const create: unknown = typeof ForcedDeletion === "function" && "create" in ForcedDeletion ? ForcedDeletion.create : undefined;
  if (typeof create !== "function") return undefined;
  const made: unknown = Reflect.apply(create, ForcedDeletion, []);
  return typeof made === "object" && made !== null ? made : undefined;
}

/**
 * The update that deletes `keys` under the dotted `path` (say `flags.case.foeBonus`): on v14
 * `{ "path.key": _del }` (the operator instance); on v13 (or a v14 without the operator)
 * `{ "path.-=key": null }`, the syntax v14 deprecates and v16 removes.
 */
export function deletionUpdate(path: string, keys: readonly string[], generation: number = foundryGeneration()): Record<string, unknown> {
  const operator = generation >= 14 ? deletionOperator() : undefined;
  return Object.fromEntries(keys.map((key) => (operator !== undefined ? [`${path}.${key}`, operator] : [`${path}.-=${key}`, null])));
}

/**
 * Whether CASE applies its own effect changes in this call of `Actor#applyActiveEffects`: v13
 * calls it once, with no argument, between base and derived data; v14 calls it per phase
 * (`"initial"` there, `"final"` after derived data, v14 release notes). CASE's changes go in the
 * initial phase only: in the final phase they would overwrite what derived data made of them
 * (Endurance lowered by its lost ranks).
 */
export function appliesCaseEffectChanges(args: readonly unknown[]): boolean {
  const phase = args[0];
  return phase === undefined || phase === "initial";
}

/** One status effect as CONFIG.statusEffects holds it. */
export interface StatusEffectEntry {
  readonly id: string;
  readonly name: string;
  readonly img: string;
}

/**
 * Adds a status effect to CONFIG.statusEffects unless one with its id is there: on v14 the
 * list is a record keyed by id (array edits do not all survive its compatibility layer); on
 * v13 it is an array.
 */
export function addStatusEffect(entry: StatusEffectEntry, generation: number = foundryGeneration()): void {
  const list: unknown = CONFIG.statusEffects;
  if (generation >= 14 && !Array.isArray(list)) {
    const record = list as Record<string, StatusEffectEntry>;
    if (!(entry.id in record)) record[entry.id] = entry;
    return;
  }
  const array = list as StatusEffectEntry[];
  if (!array.some((e) => e.id === entry.id)) array.push(entry);
}
