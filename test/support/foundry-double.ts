/**
 * A small, honest test double of the parts of Foundry's `foundry.abstract` and
 * `foundry.data.fields` that our data models touch. It does what Foundry does in the order
 * Foundry does it — migrateData on the source, then defaults from each field's `initial`,
 * then the values copied onto the model — and nothing more. Tests assert on OUR code's
 * behaviour (derived values, migrations, declared field options), never on something this
 * double makes up. Install it with `import "./foundry-globals"` before importing a model.
 */

type Options = Record<string, unknown>;

export class DataField {
  constructor(readonly options: Options = {}) {}

  /** The field's initial value, as Foundry computes it from `initial`. */
  getInitialValue(): unknown {
    const initial = this.options.initial;
    return typeof initial === "function" ? (initial as () => unknown)() : structuredClone(initial);
  }

  /** Fills a source value with defaults: missing → initial. */
  clean(value: unknown): unknown {
    return value === undefined ? this.getInitialValue() : value;
  }
}

export class NumberField extends DataField {}
export class StringField extends DataField {
  /** Foundry exposes a StringField's `choices` option as a property; the sheets read it there. */
  get choices(): unknown {
    return this.options.choices;
  }
}
export class BooleanField extends DataField {}
export class HTMLField extends StringField {}
export class DocumentUUIDField extends StringField {}
export class ObjectField extends DataField {}

export class ArrayField extends DataField {
  constructor(
    readonly element: DataField,
    options: Options = {},
  ) {
    super(options);
  }
}

export class SetField extends ArrayField {}

export class SchemaField extends DataField {
  constructor(
    readonly fields: Record<string, DataField>,
    options: Options = {},
  ) {
    super(options);
  }

  override getInitialValue(): unknown {
    return this.clean({});
  }

  override clean(value: unknown): unknown {
    if (value === undefined) value = {};
    if (typeof value !== "object" || value === null) return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = { ...source };
    for (const [name, field] of Object.entries(this.fields)) out[name] = field.clean(source[name]);
    return out;
  }
}

export class EmbeddedDataField extends SchemaField {}

export class TypeDataModel {
  static defineSchema(): Record<string, DataField> {
    return {};
  }

  static migrateData(source: Record<string, unknown>): Record<string, unknown> {
    return source;
  }

  readonly _source: Record<string, unknown>;
  readonly parent: unknown;

  constructor(data: Record<string, unknown> = {}, options: { parent?: unknown } = {}) {
    const ctor = this.constructor as typeof TypeDataModel;
    const migrated = ctor.migrateData(structuredClone(data));
    const schema = new SchemaField(ctor.defineSchema());
    this._source = schema.clean(migrated) as Record<string, unknown>;
    this.parent = options.parent ?? null;
    Object.assign(this, structuredClone(this._source));
  }

  prepareBaseData(): void {}

  prepareDerivedData(): void {}
}

export const fields = {
  DataField,
  NumberField,
  StringField,
  BooleanField,
  HTMLField,
  DocumentUUIDField,
  ObjectField,
  ArrayField,
  SetField,
  SchemaField,
  EmbeddedDataField,
};

// ── foundry.applications: only enough for the sheet modules to load ──────────────────────────
// Nothing is rendered here: Handlebars rendering is tested with the real templates through
// test/support/handlebars.ts, and the sheets' actions are called directly. These classes
// only stand where Foundry's base classes stand, so `class HeroSheet extends …` evaluates.

export class ApplicationV2 {
  static DEFAULT_OPTIONS: Record<string, unknown> = {};
  tabGroups: Record<string, string | null> = {};
  constructor(readonly options: Record<string, unknown> = {}) {}
}
export class DocumentSheetV2 extends ApplicationV2 {}
export class ActorSheetV2 extends DocumentSheetV2 {}
export class ItemSheetV2 extends DocumentSheetV2 {}

/** Foundry's mixin adds Handlebars rendering; the double adds nothing (no rendering is simulated). */
export function HandlebarsApplicationMixin<T>(Base: T): T {
  return Base;
}

// ── Combat and Combatant: only what CaseCombat and CaseCombatant build on ─────────────────────
// Install them as the globals `Combat` and `Combatant` (vi.stubGlobal) before importing
// src/foundry/documents/combat.ts. They hold plain data and record updates; startCombat does
// what Foundry v13's does (its public source, quoted in foundryvtt/foundryvtt#13949): one update
// of { round: 1, turn: 0 } — it does not touch `system`.

export class CombatantDouble {
  parent: CombatDouble | null = null;
  actor = null;
  /** Every Foundry document has flags (an empty object by default). */
  flags: Record<string, unknown> = {};
  constructor(
    readonly id: string,
    public name: string,
    public system: Record<string, unknown>,
    readonly options: { hasPlayerOwner?: boolean; isDefeated?: boolean; hidden?: boolean; initiative?: number | null } = {},
  ) {}
  get hasPlayerOwner(): boolean {
    return this.options.hasPlayerOwner ?? false;
  }
  get isDefeated(): boolean {
    return this.options.isDefeated ?? false;
  }
  get hidden(): boolean {
    return this.options.hidden ?? false;
  }
  get initiative(): number | null {
    return this.options.initiative ?? null;
  }
}

export class CombatDouble {
  round = 0;
  turn: number | null = null;
  readonly updates: Record<string, unknown>[] = [];
  readonly combatants: { contents: CombatantDouble[]; size: number; get(id: string): CombatantDouble | undefined };

  constructor(
    readonly id: string,
    public system: Record<string, unknown>,
    combatants: CombatantDouble[],
  ) {
    for (const c of combatants) c.parent = this;
    this.combatants = { contents: combatants, size: combatants.length, get: (id) => combatants.find((c) => c.id === id) };
  }

  get started(): boolean {
    return this.round > 0;
  }

  /** Merges the fields given (and `system` one level deep), as a document update does; records the call. */
  update(data: Record<string, unknown>): Promise<this> {
    this.updates.push(structuredClone(data));
    const { system, ...rest } = data;
    if (system !== undefined) this.system = { ...this.system, ...(system as Record<string, unknown>) };
    Object.assign(this, rest);
    return Promise.resolve(this);
  }

  startCombat(): Promise<this> {
    return this.update({ round: 1, turn: 0 });
  }
}

let randomIds = 0;

export const foundryDouble = {
  abstract: { TypeDataModel, DataModel: TypeDataModel },
  /** foundry.utils.randomID: 16 characters; here a counter, so tests are repeatable. */
  utils: { randomID: (): string => `rnd${String(++randomIds).padStart(13, "0")}` },
  data: { fields },
  applications: {
    api: { ApplicationV2, DocumentSheetV2, HandlebarsApplicationMixin },
    sheets: { ActorSheetV2, ItemSheetV2 },
  },
};
