/**
 * Actors, items and Active Effects prepared in Foundry's order, for the system's CaseActor and
 * CaseActiveEffect to extend (install with `installEffectsDouble()` before importing them).
 * What it models, from Foundry's public v13 API pages (foundryvtt.com/api):
 * - ClientDocumentMixin#prepareData: prepareBaseData, then prepareEmbeddedDocuments, then
 *   prepareDerivedData; a Document's prepareBaseData / prepareDerivedData call its
 *   TypeDataModel's (`system`).
 * - Actor#prepareEmbeddedDocuments prepares the embedded documents, then calls
 *   Actor#applyActiveEffects (so effects land after base data and before derived data).
 * - CONFIG.ActiveEffect.legacyTransferral false: "Active Effects are never copied to the Actor,
 *   but will still apply to the Actor from within the Item if the transfer property on the
 *   Active Effect is true" — Actor#allApplicableEffects yields the actor's own effects, then each
 *   item's effects with `transfer` true.
 * - ActiveEffect#active: not disabled and not suppressed; ActiveEffect#isSuppressed: false
 *   unless a system says otherwise ("Is there some system logic that makes this active effect
 *   ineligible for application?").
 * - Actor#applyActiveEffects: `statuses` from the active effects; their changes sorted by
 *   priority (default: the mode × 10) and each applied by `effect.apply(actor, change)`, whose
 *   ADD / MULTIPLY / OVERRIDE / UPGRADE / DOWNGRADE work on the number at the change's key
 *   (dnd5e's ActiveEffect5e and Draw Steel's DrawSteelActiveEffect build on the same calls).
 * Foundry 14 (v14 release notes, "Active Effect phases"; foundryvtt.com/api/v14 Actor#applyActiveEffects):
 * effects apply in phases. Actor#prepareData calls `applyActiveEffects("initial")` where v13
 * calls `applyActiveEffects()` (end of prepareEmbeddedDocuments) and `applyActiveEffects("final")`
 * after prepareDerivedData; a change applies in the phase it names (`initial` by default), so
 * whatever a system's override does in the final phase lands on top of its derived data.
 * `useEffectsGeneration(14)` runs that order (13 is the default), and v14's effect data:
 * - An effect's changes live in `effect.system.changes`, each with a named change `type`
 *   ("add", "multiply", "override", "upgrade", "downgrade", "custom") instead of a mode number;
 *   reading `ActiveEffect#changes` or a numeric mode logs a deprecation warning (v14 release notes).
 * - Core no longer calls `ActiveEffect#apply`: it applies each change through the static
 *   `ActiveEffect.applyChange(actor, change)`, writing the result into `actor.overrides`, and
 *   cannot resolve a value such as "@rank" (it warns and applies nothing).
 * Every warning is recorded in `V14_WARNINGS` (the doubles' list of v14 deprecations met).
 * Nothing here is kinder than Foundry: a change value is text, cast with Number() as Foundry
 * casts a number field's delta, so "lots" becomes NaN where Foundry's arithmetic applies it.
 */
import "./foundry-globals";
import { vi } from "vitest";
import { ACTOR_DATA_MODELS, ITEM_DATA_MODELS } from "../../src/foundry/data/index";

type Data = Record<string, unknown>;

/** Foundry's CONST.ACTIVE_EFFECT_MODES (public API). */
export const MODES = { CUSTOM: 0, MULTIPLY: 1, ADD: 2, DOWNGRADE: 3, UPGRADE: 4, OVERRIDE: 5 } as const;

/** Which Foundry the doubles prepare like: 13 (one effects pass) or 14 (initial and final phases). */
let generation: 13 | 14 = 13;

/** Prepares actors like Foundry `next` from now on (see the file's opening comment). */
export function useEffectsGeneration(next: 13 | 14): void {
  generation = next;
}

/** The v14 deprecation and application warnings the doubles met, in order (cleared by the tests). */
export const V14_WARNINGS: string[] = [];

/** v14's change types by name, and the v13 mode numbers they replace. */
export const V14_TYPES: Readonly<Record<string, number>> = { custom: 0, multiply: 1, add: 2, downgrade: 3, upgrade: 4, override: 5 };

/** One v14 change as `effect.system.changes` holds it. */
export interface V14ChangeSource {
  readonly key: string;
  readonly type: string | number;
  readonly value: string;
  readonly phase?: string;
  readonly priority?: number | null;
}

export interface ChangeSource {
  /** v14: the phase the change applies in (`initial` when absent). */
  readonly phase?: string;
  readonly key: string;
  readonly mode: number;
  readonly value: string;
  readonly priority?: number | null;
}

export interface EffectSource {
  readonly _id: string;
  readonly name: string;
  readonly img?: string;
  readonly disabled?: boolean;
  readonly transfer?: boolean;
  readonly statuses?: readonly string[];
  /** v13's changes (on 14, moved into `system.changes` as v14's data migration does). */
  readonly changes?: readonly ChangeSource[];
  /** v14's changes. */
  readonly system?: { readonly changes: readonly V14ChangeSource[] };
}

const TYPE_NAMES = Object.fromEntries(Object.entries(V14_TYPES).map(([name, n]) => [n, name]));

/** A keyed list of documents with Foundry's `contents` and `get(id)`. */
export class Collection<T extends { readonly id: string | null }> {
  constructor(readonly contents: T[]) {}
  get(id: string): T | undefined {
    return this.contents.find((d) => d.id === id);
  }
  [Symbol.iterator](): Iterator<T> {
    return this.contents[Symbol.iterator]();
  }
  get size(): number {
    return this.contents.length;
  }
}

function getPath(target: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Data)[part] : undefined), target);
}

function setPath(target: Data, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = node[p] as Data;
  node[parts.at(-1) ?? ""] = value;
}

interface SystemModel {
  prepareBaseData(): void;
  prepareDerivedData(): void;
}

function buildModel(models: Record<string, unknown>, type: string, source: unknown, parent: unknown): SystemModel {
  const Model = models[type] as new (s: Data, o: { parent: unknown }) => SystemModel;
  return new Model(structuredClone((source ?? {}) as Data), { parent });
}

export class ActiveEffectDouble {
  readonly id: string;
  readonly name: string;
  readonly img: string | null;
  disabled: boolean;
  readonly transfer: boolean;
  readonly statuses: Set<string>;
  #changes: ChangeSource[];
  /** v14: the effect's system data, with its changes. */
  readonly system: { changes: V14ChangeSource[] } | Record<string, never>;
  readonly updates: Data[] = [];
  constructor(
    source: EffectSource,
    readonly parent: unknown,
  ) {
    this.id = source._id;
    this.name = source.name;
    this.img = source.img ?? null;
    this.disabled = source.disabled ?? false;
    this.transfer = source.transfer ?? true;
    this.statuses = new Set(source.statuses ?? []);
    const v14 = source.system?.changes ?? (source.changes ?? []).map((c) => ({ key: c.key, type: TYPE_NAMES[c.mode] ?? c.mode, value: c.value, ...(c.phase ? { phase: c.phase } : {}), priority: c.priority ?? null }));
    this.#changes = source.changes?.map((c) => ({ ...c })) ?? v14.map((c) => ({ key: c.key, mode: typeof c.type === "number" ? c.type : (V14_TYPES[c.type] ?? 0), value: c.value, ...(c.phase ? { phase: c.phase } : {}), priority: c.priority ?? null }));
    this.system = generation >= 14 ? { changes: v14.map((c) => ({ ...c })) } : {};
  }
  /** v13's changes; on 14 a deprecated read (its warning recorded). */
  get changes(): ChangeSource[] {
    if (generation >= 14) V14_WARNINGS.push("ActiveEffect#changes is deprecated: read ActiveEffect#system.changes");
    return this.#changes;
  }
  /**
   * v14: core's application of one change (numbers only; a value it cannot read, such as "@rank", is warned about and skipped).
   * The result goes into `actor.overrides`, as core keeps it.
   */
  static applyChange(actor: Data, change: V14ChangeSource): Data {
    if (typeof change.type === "number") V14_WARNINGS.push(`numeric change mode ${String(change.type)} is deprecated: use a change type`);
    const delta = Number(change.value);
    if (!Number.isFinite(delta)) {
      V14_WARNINGS.push(`cannot apply ${change.key}: ${change.value} is not a number`);
      return {};
    }
    const current = Number(getPath(actor, change.key));
    const type = typeof change.type === "number" ? TYPE_NAMES[change.type] : change.type;
    const next = type === "add" ? current + delta : type === "multiply" ? current * delta : type === "override" ? delta : type === "upgrade" ? Math.max(current, delta) : type === "downgrade" ? Math.min(current, delta) : current;
    setPath(actor, change.key, next);
    const overrides = ((actor as { overrides?: Data }).overrides ??= {});
    overrides[change.key] = next;
    return { [change.key]: next };
  }
  get isSuppressed(): boolean {
    return false;
  }
  get active(): boolean {
    return !this.disabled && !this.isSuppressed;
  }
  /** Foundry's arithmetic on the number at the key (the delta cast with Number(), as for a number field). */
  apply(actor: Data, change: ChangeSource): Data {
    const current = getPath(actor, change.key);
    const delta = Number(change.value);
    let next: unknown = current;
    switch (change.mode) {
      case MODES.ADD:
        next = Number(current) + delta;
        break;
      case MODES.MULTIPLY:
        next = Number(current) * delta;
        break;
      case MODES.OVERRIDE:
        next = delta;
        break;
      case MODES.UPGRADE:
        next = Math.max(Number(current), delta);
        break;
      case MODES.DOWNGRADE:
        next = Math.min(Number(current), delta);
        break;
      default:
        return {};
    }
    setPath(actor, change.key, next);
    return { [change.key]: next };
  }
  /** After a write Foundry calls `_onUpdate(changed, options, userId)` on every client, with the writer's id (ClientDocumentMixin). */
  update(data: Data, userId = "user"): Promise<this> {
    this.updates.push(structuredClone(data));
    if (typeof data.disabled === "boolean") this.disabled = data.disabled;
    if (Array.isArray(data.changes)) this.#changes.splice(0, this.#changes.length, ...(structuredClone(data.changes) as ChangeSource[]));
    (this.parent as { prepareOwner?: () => void }).prepareOwner?.();
    this._onUpdate(data, {}, userId);
    return Promise.resolve(this);
  }
  _onCreate(_data: Data, _options: Data, _userId: string): void {}
  _onUpdate(_changed: Data, _options: Data, _userId: string): void {}
}

export class ItemDouble {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  system: SystemModel & Data;
  readonly effects: Collection<ActiveEffectDouble>;
  constructor(
    private readonly source: Data,
    readonly parent: ActorDouble | null = null,
  ) {
    this.id = String(source._id);
    this.name = String(source.name);
    this.type = String(source.type);
    this.system = buildModel(ITEM_DATA_MODELS, this.type, source.system, this) as SystemModel & Data;
    const Effect = (globalThis as unknown as { ActiveEffect: new (s: EffectSource, p: unknown) => ActiveEffectDouble }).ActiveEffect;
    this.effects = new Collection(((source.effects ?? []) as EffectSource[]).map((e) => new Effect(e, this)));
  }
  prepareData(): void {
    this.system = buildModel(ITEM_DATA_MODELS, this.type, this.source.system, this) as SystemModel & Data;
    this.system.prepareBaseData();
    this.system.prepareDerivedData();
  }
  /** A stored change to the item's system, then the owner prepared again (as Foundry re-prepares the parent). */
  updateSystem(path: string, value: unknown): void {
    setPath(this.source.system as Data, path, value);
    this.prepareOwner();
  }
  prepareOwner(): void {
    if (this.parent) this.parent.prepareData();
    else this.prepareData();
  }
}

export class ActorDouble {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly uuid: string;
  system!: SystemModel & Data;
  statuses = new Set<string>();
  readonly items: Collection<ItemDouble>;
  readonly effects: Collection<ActiveEffectDouble>;
  /** The order in which preparation ran, for tests that check it. */
  readonly steps: string[] = [];
  constructor(private readonly source: Data) {
    this.id = typeof source._id === "string" ? source._id : "actor";
    this.name = String(source.name);
    this.type = String(source.type);
    this.uuid = `Actor.${this.id}`;
    const Item = (globalThis as unknown as { Item: new (s: Data, p: ActorDouble) => ItemDouble }).Item;
    const Effect = (globalThis as unknown as { ActiveEffect: new (s: EffectSource, p: unknown) => ActiveEffectDouble }).ActiveEffect;
    this.items = new Collection(((source.items ?? []) as Data[]).map((i) => new Item(i, this)));
    this.effects = new Collection(((source.effects ?? []) as EffectSource[]).map((e) => new Effect(e, this)));
    this.prepareData();
  }
  get _source(): Data {
    return this.source;
  }
  /** An embedded effect's update prepares its actor again, as Foundry re-prepares the parent. */
  prepareOwner(): void {
    this.prepareData();
  }
  prepareData(): void {
    this.steps.length = 0;
    this.system = buildModel(ACTOR_DATA_MODELS, this.type, this.source.system, this) as SystemModel & Data;
    this.prepareBaseData();
    this.prepareEmbeddedDocuments();
    this.prepareDerivedData();
    if (generation >= 14) this.applyActiveEffects("final");
  }
  prepareBaseData(): void {
    this.steps.push("base");
    this.system.prepareBaseData();
  }
  prepareEmbeddedDocuments(): void {
    this.steps.push("embedded");
    for (const item of this.items) item.prepareData();
    if (generation >= 14) this.applyActiveEffects("initial");
    else this.applyActiveEffects();
  }
  prepareDerivedData(): void {
    this.steps.push("derived");
    this.system.prepareDerivedData();
  }
  *allApplicableEffects(): Generator<ActiveEffectDouble> {
    for (const effect of this.effects) yield effect;
    for (const item of this.items) for (const effect of item.effects) if (effect.transfer) yield effect;
  }
  /** v13: no argument, every change through `effect.apply`. v14: `phase`, that phase's changes (`initial` by default) through the static `applyChange`. */
  applyActiveEffects(phase?: string): void {
    this.steps.push(phase === undefined ? "effects" : `effects:${phase}`);
    this.statuses = new Set();
    if (generation >= 14) {
      const changes: { effect: ActiveEffectDouble; change: V14ChangeSource; priority: number }[] = [];
      for (const effect of this.allApplicableEffects()) {
        if (!effect.active) continue;
        for (const s of effect.statuses) this.statuses.add(s);
        const own = "changes" in effect.system ? effect.system.changes : [];
        for (const change of own) if ((change.phase ?? "initial") === phase) changes.push({ effect, change, priority: change.priority ?? (typeof change.type === "number" ? change.type : (V14_TYPES[change.type] ?? 0)) * 10 });
      }
      changes.sort((a, b) => a.priority - b.priority);
      for (const { effect, change } of changes) (effect.constructor as typeof ActiveEffectDouble).applyChange(this as unknown as Data, change);
      return;
    }
    const changes: { effect: ActiveEffectDouble; change: ChangeSource; priority: number }[] = [];
    for (const effect of this.allApplicableEffects()) {
      if (!effect.active) continue;
      for (const s of effect.statuses) this.statuses.add(s);
      for (const change of effect.changes) changes.push({ effect, change, priority: change.priority ?? change.mode * 10 });
    }
    changes.sort((a, b) => a.priority - b.priority);
    for (const { effect, change } of changes) effect.apply(this as unknown as Data, change);
  }
}

/** Installs the doubles as Foundry's `Actor`, `Item` and `ActiveEffect` globals. */
export function installEffectsDouble(): void {
  vi.stubGlobal("Actor", ActorDouble);
  vi.stubGlobal("Item", ItemDouble);
  vi.stubGlobal("ActiveEffect", ActiveEffectDouble);
}
