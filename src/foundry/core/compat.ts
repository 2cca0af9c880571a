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
 * global, `ForcedDeletion.create()`, or `new ForcedDeletion()`), absent on v13 (and from the v13 types, so looked up, not
 * assumed). The class itself is not an operator: an update holding it deletes nothing.
 */
function deletionOperator(): object | undefined {
  const global: object = globalThis;
  const del = "_del" in global ? global._del : undefined;
  if (typeof del === "object" && del !== null) return del;
  const data: object = foundry.data;
  const operators = "operators" in data ? data.operators : undefined;
  const ForcedDeletion = typeof operators === "object" && operators !== null && "ForcedDeletion" in operators ? operators.ForcedDeletion : undefined;
  if (typeof ForcedDeletion !== "function") return undefined;
  // `ForcedDeletion.create()` where it is offered, else a new instance, as public v14 code writes
  // it (`new foundry.data.operators.ForcedDeletion()`: Foundry Fallout's and pf2e's migrations off "-=").
  const create: unknown = "create" in ForcedDeletion ? ForcedDeletion.create : undefined;
  const made: unknown = typeof create === "function" ? Reflect.apply(create, ForcedDeletion, []) : Reflect.construct(ForcedDeletion, []);
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

/** One Active Effect change as CASE reads it on either version. */
export interface EffectChange {
  readonly key: string;
  /** v13's mode number, or v14's change type by name ("add", "upgrade" …). */
  readonly mode: unknown;
  readonly value: unknown;
  readonly priority: number | null;
}

/**
 * The changes of an Active Effect: on v14 from `effect.system.changes`, each with its change
 * `type` by name (v14 release notes: `ActiveEffect#changes` moved to `system.changes`, numeric
 * `mode` replaced by a named type; reading the old ones logs a deprecation warning); on v13
 * `effect.changes` with its mode number. Told apart by the data itself (v13's effect `system`
 * has no `changes`), so `effect.changes` is never read where `system.changes` exists.
 */
export function effectChangesOf(effect: object): EffectChange[] {
  const system: unknown = "system" in effect ? effect.system : undefined;
  const v14: unknown = typeof system === "object" && system !== null && "changes" in system ? system.changes : undefined;
  const raw: unknown = Array.isArray(v14) ? v14 : "changes" in effect ? effect.changes : undefined;
  if (!Array.isArray(raw)) return [];
  const out: EffectChange[] = [];
  for (const change of raw as unknown[]) {
    if (typeof change !== "object" || change === null || !("key" in change) || typeof change.key !== "string") continue;
    const mode = "type" in change && change.type !== undefined && change.type !== null ? change.type : "mode" in change ? change.mode : undefined;
    const priority = "priority" in change && typeof change.priority === "number" ? change.priority : null;
    out.push({ key: change.key, mode, value: "value" in change ? change.value : undefined, priority });
  }
  return out;
}

/**
 * The change an `ActiveEffect.applyChange(...)` call is about: v14 applies each change through
 * that static method (it no longer calls `ActiveEffect#apply`), with the target and the change
 * among its arguments (v14 API); the first argument that is a change (has a string `key`).
 */
export function changeOfApplyCall(args: readonly unknown[]): { readonly key: string } | null {
  for (const arg of args) if (typeof arg === "object" && arg !== null && "key" in arg && typeof arg.key === "string" && ("value" in arg || "type" in arg || "mode" in arg)) return { key: arg.key };
  return null;
}

/** A right-click menu entry as CASE writes it (v13's names; `name` a localisation key). */
export interface MenuEntry {
  readonly name: string;
  readonly icon: string;
  readonly condition: (target: HTMLElement) => boolean;
  readonly callback: (target: HTMLElement) => unknown;
}

/** v14's ContextMenu entry: `label`, `icon`, `visible(target)`, `onClick(event, target)`. */
export interface MenuEntryV14 {
  readonly label: string;
  readonly icon: string;
  readonly visible: (target: HTMLElement) => boolean;
  readonly onClick: (event: Event | null, target: HTMLElement) => unknown;
}

/**
 * Menu entries in the form this version's ContextMenu takes: v13's `name/icon/condition/callback`
 * as they are; on v14 `label/icon/visible/onClick(event, target)` (v14 API, ContextMenuEntry;
 * the v13 keys still work there but log a deprecation warning on every menu).
 */
export function contextMenuEntries(entries: readonly MenuEntry[], generation: number = foundryGeneration()): MenuEntry[] | MenuEntryV14[] {
  if (generation < 14) return [...entries];
  return entries.map((e) => ({ label: e.name, icon: e.icon, visible: (target: HTMLElement) => e.condition(target), onClick: (_event: Event | null, target: HTMLElement) => e.callback(target) }));
}

/** One status effect as CONFIG.statusEffects holds it. */
export interface StatusEffectEntry {
  readonly id: string;
  readonly name: string;
  readonly img: string;
  /** v14: the place in the token HUD. */
  readonly order?: number;
}

/** Every entry of CONFIG.statusEffects, an array on 13 or a record keyed by id on 14. */
export function statusEffectEntries(): readonly StatusEffectEntry[] {
  const list: unknown = CONFIG.statusEffects;
  return Array.isArray(list) ? (list as StatusEffectEntry[]) : Object.values(list as Record<string, StatusEffectEntry>);
}

/**
 * Puts `first` at the head of CONFIG.statusEffects (the token HUD's order) and drops the entries
 * whose id is in `drop`; every other entry stays, in its order. Edited in place; idempotent. On
 * v14 the list is a record keyed by id (array edits do not all survive its compatibility layer)
 * and each entry gets an explicit `order` (its place); on v13 the array's order is the HUD's.
 */
export function replaceStatusEffects(first: readonly StatusEffectEntry[], drop: readonly string[], generation: number = foundryGeneration()): void {
  const list: unknown = CONFIG.statusEffects;
  const array = Array.isArray(list) ? (list as StatusEffectEntry[]) : null;
  const record = list as Record<string, StatusEffectEntry>;
  const gone = new Set([...drop, ...first.map((e) => e.id)]);
  const next = [...first, ...(array ?? Object.values(record)).filter((e) => !gone.has(e.id))];
  if (array) {
    array.splice(0, array.length, ...next);
    return;
  }
  for (const id of Object.keys(record)) Reflect.deleteProperty(record, id);
  // The same entry objects, each given its place (a copy could drop what core keeps on them).
  for (const [order, e] of next.entries()) record[e.id] = generation >= 14 ? Object.assign(e, { order }) : e;
}

/**
 * The document an area attack places on the scene: v14 deprecates MeasuredTemplate in favour of
 * scene Regions (v14 release notes: `TEMPLATE_CREATE` replaced by `REGION_CREATE`, so a player
 * may create a Region); v13 keeps the template. Written from memory of the public v14 notes.
 */
export function areaDocumentName(generation: number = foundryGeneration()): "Region" | "MeasuredTemplate" {
  return generation >= 14 ? "Region" : "MeasuredTemplate";
}
