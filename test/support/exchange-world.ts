/**
 * A small world for testing the attack exchange's Foundry side without Foundry: users,
 * characters whose `system` is the REAL data model (built through the foundry double), chat
 * messages that store what they are updated with, and dice that return queued results. Only
 * the members our code reads are here; tests assert on what our handlers did to them.
 */
import "./foundry-globals";
import { vi } from "vitest";
import { HeroData, NpcData } from "../../src/foundry/data/actor/character";
import { localize } from "./handlebars";
import { UNIVERSAL_TABLE } from "../../src/rules/index";
import { QueryRouter, type AskingUser, type QueryDefinition, type QueryResult } from "../../src/foundry/queries";

export interface FakeUser extends AskingUser {
  readonly id: string;
}

/** Stand-in base classes so `instanceof Actor` / `instanceof TokenDocument` work. */
export class ActorBase {
  readonly documentName: string = "Actor";
}
export class TokenDocumentBase {
  readonly documentName: string = "Token";
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) {
    const next = node[p];
    if (typeof next !== "object" || next === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts.at(-1) ?? ""] = structuredClone(value);
}

export class FakeEffect {
  flags: Record<string, unknown> = {};
  constructor(readonly statuses: Set<string>) {}
  update(data: Record<string, unknown>): Promise<this> {
    for (const [k, v] of Object.entries(data)) setPath(this as unknown as Record<string, unknown>, k, v);
    return Promise.resolve(this);
  }
}

type CharacterModel = InstanceType<typeof HeroData>;

export class FakeActor extends ActorBase {
  readonly uuid: string;
  readonly items: { type: string; name: string; system: Record<string, unknown> }[] = [];
  effects: FakeEffect[] = [];
  flags: Record<string, unknown> = {};
  system: CharacterModel;
  readonly updates: Record<string, unknown>[] = [];

  constructor(
    readonly id: string,
    readonly name: string,
    readonly type: "hero" | "npc",
    private source: Record<string, unknown>,
    private readonly owners: readonly string[],
  ) {
    super();
    this.uuid = `Actor.${id}`;
    this.system = FakeActor.build(type, source);
  }

  static build(type: "hero" | "npc", source: Record<string, unknown>): CharacterModel {
    const Model = (type === "hero" ? HeroData : NpcData) as unknown as new (s: Record<string, unknown>) => CharacterModel;
    const model = new Model(source);
    model.prepareDerivedData();
    return model;
  }

  get statuses(): Set<string> {
    return new Set(this.effects.flatMap((e) => [...e.statuses]));
  }

  get isOwner(): boolean {
    return false;
  }

  testUserPermission(user: FakeUser, level: string): boolean {
    return level === "OWNER" && (user.isGM || this.owners.includes(user.id));
  }

  /** Applies dotted `system.*` keys to the stored source and re-prepares, as Foundry does. */
  update(data: Record<string, unknown>): Promise<this> {
    this.updates.push(structuredClone(data));
    const source = structuredClone(this.source);
    for (const [k, v] of Object.entries(data)) {
      if (k.startsWith("flags.")) {
        // Foundry's "-=key" removes a key.
        const parts = k.split(".");
        const last = parts.at(-1) ?? "";
        if (last.startsWith("-=")) {
          let node: Record<string, unknown> = this.flags;
          for (const p of parts.slice(1, -1)) node = (node[p] ?? {}) as Record<string, unknown>;
          Reflect.deleteProperty(node, last.slice(2));
        } else setPath(this.flags, k.slice("flags.".length), v);
        continue;
      }
      if (!k.startsWith("system.")) throw new Error(`FakeActor.update: only system.* and flags.* keys, got ${k}`);
      setPath(source, k.slice("system.".length), v);
    }
    this.source = source;
    this.system = FakeActor.build(this.type, source);
    return Promise.resolve(this);
  }

  toggleStatusEffect(id: string, { active }: { active: boolean; overlay?: boolean }): Promise<boolean> {
    const has = this.effects.some((e) => e.statuses.has(id));
    if (active && !has) this.effects.push(new FakeEffect(new Set([id])));
    if (!active) this.effects = this.effects.filter((e) => !e.statuses.has(id));
    return Promise.resolve(active);
  }
}

export class FakeMessage {
  readonly type = "attack";
  system: { exchange: unknown };
  readonly updates: unknown[] = [];
  constructor(
    readonly id: string,
    exchange: unknown,
  ) {
    this.system = { exchange: structuredClone(exchange) };
  }
  update(data: Record<string, unknown>): Promise<this> {
    this.updates.push(structuredClone(data));
    for (const [k, v] of Object.entries(data)) setPath(this as unknown as Record<string, unknown>, k, v);
    return Promise.resolve(this);
  }
}

export interface World {
  readonly users: Map<string, FakeUser>;
  readonly actors: Map<string, FakeActor>;
  readonly messages: Map<string, FakeMessage>;
  readonly settings: Map<string, unknown>;
  readonly notifications: { error: ReturnType<typeof vi.fn>; warn: ReturnType<typeof vi.fn>; info: ReturnType<typeof vi.fn> };
  /** Dice results the next Roll evaluations return, in order. */
  readonly dice: number[];
  /** Runs a query as the active GM handling a request sent by `userId`. */
  ask<P, R>(query: QueryDefinition<P, R>, userId: string, payload: unknown): Promise<QueryResult<R>>;
}

export const GM: FakeUser = { id: "gm0000000000000a", isGM: true, active: true, name: "Judge" };
export const ALICE: FakeUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
export const BOB: FakeUser = { id: "bob0000000000000", isGM: false, active: true, name: "Bob" };

/** Installs the world's globals (vi.stubGlobal); remove them with vi.unstubAllGlobals(). */
export function installWorld(): World {
  const users = new Map([GM, ALICE, BOB].map((u) => [u.id, u]));
  const actors = new Map<string, FakeActor>();
  const messages = new Map<string, FakeMessage>();
  const settings = new Map<string, unknown>([
    ["case.damageAppliedBy", "gm"],
    ["case.hideNpcDefences", false],
    ["case.autoNpcConsequences", false],
    ["case.damageMethod", "static"],
    ["case.declaredDodge", false],
  ]);
  const notifications = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const dice: number[] = [];

  class FakeRoll {
    total = 0;
    constructor(readonly formula: string) {}
    evaluate(): Promise<this> {
      const next = dice.shift();
      if (next === undefined) throw new Error(`The test queued no die for ${this.formula}.`);
      this.total = next;
      return Promise.resolve(this);
    }
  }

  vi.stubGlobal("Actor", ActorBase);
  vi.stubGlobal("TokenDocument", TokenDocumentBase);
  vi.stubGlobal("Roll", FakeRoll);
  vi.stubGlobal("ui", { notifications });
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve([...actors.values()].find((a) => a.uuid === uuid) ?? null));
  vi.stubGlobal("fromUuidSync", (uuid: string) => [...actors.values()].find((a) => a.uuid === uuid) ?? null);
  vi.stubGlobal("CONFIG", { CASE: { universalTable: UNIVERSAL_TABLE }, specialStatusEffects: { DEFEATED: "dead" }, statusEffects: [] });
  vi.stubGlobal("game", {
    user: GM,
    users: { get: (id: string) => users.get(id), activeGM: null },
    messages: { get: (id: string) => messages.get(id) },
    settings: {
      get: (ns: string, key: string) => {
        const id = `${ns}.${key}`;
        if (!settings.has(id)) throw new Error(`Setting ${id} is not registered in the test world.`);
        return settings.get(id);
      },
    },
    i18n: { localize: (k: string) => localize(k), format: (k: string, d: Record<string, unknown>) => localize(k, d) },
  });

  const router = new QueryRouter({
    self: () => GM,
    user: (id) => users.get(id),
    activeGM: () => ({ id: GM.id, isSelf: true, query: () => Promise.reject(new Error("not over the wire in tests")) }),
  });

  return {
    users,
    actors,
    messages,
    settings,
    notifications,
    dice,
    ask: (query, userId, payload) => (userId === GM.id ? router.runLocally(query, payload) : router.handlerFor(query)({ userId, payload })),
  };
}

/** A character source: every ability at `value` unless overridden. */
export function characterSource(overrides: Partial<Record<string, number>> = {}, health?: number): Record<string, unknown> {
  const ab = (k: string) => overrides[k] ?? 30;
  const source = {
    abilities: {
      fighting: { value: ab("fighting"), off: null, def: null },
      agility: { value: ab("agility"), dex: null, bal: null },
      strength: { value: ab("strength"), mgt: null, vgr: null },
      endurance: { value: ab("endurance"), res: null, sta: null },
      reason: { value: 10 },
      intuition: { value: 10 },
      psyche: { value: 10 },
    },
    health: { value: health ?? ab("fighting") + ab("agility") + ab("strength") + ab("endurance") },
    karma: { value: 30 },
  };
  return source;
}
