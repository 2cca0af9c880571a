/**
 * A small world for testing the attack exchange's Foundry side without Foundry: users,
 * characters whose `system` is the REAL data model (built through the foundry double), chat
 * messages that store what they are updated with, and dice that return queued results. Only
 * the members our code reads are here; tests assert on what our handlers did to them.
 */
import { KARMA_AGAINST_DEATH, KARMA_ON_CHECKS, KARMA_ON_DEFENCE } from "../../src/rules/index";
import "./foundry-globals";
import { vi, type Mock } from "vitest";
import { HeroData, NpcData } from "../../src/foundry/data/actor/character";
import { localize } from "./handlebars";
import { UNIVERSAL_TABLE, type TargetInput } from "../../src/rules/index";
import { QueryRouter, type AskingUser, type QueryDefinition, type QueryResult } from "../../src/foundry/requests/router";
import { foundryEnvironment } from "../../src/foundry/requests/gm";
import { gmRouter, type TestServices } from "./gm-router";
import { asClicked } from "./card-click";
import { deletesKey } from "./update-operators";

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
  readonly items: { type: string; name: string; system: Record<string, unknown>; uuid?: string }[] = [];
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
        // Foundry 13's "-=key" removes a key; so does Foundry 14's ForcedDeletion operator *instance* as the value (update-operators.ts; a class throws).
        const parts = k.split(".");
        const last = parts.at(-1) ?? "";
        const forced = deletesKey(v);
        if (last.startsWith("-=") || forced) {
          let node: Record<string, unknown> = this.flags;
          for (const p of parts.slice(1, -1)) node = (node[p] ?? {}) as Record<string, unknown>;
          Reflect.deleteProperty(node, forced ? last : last.slice(2));
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

/** A chat message: an attack card (the default) or any other type, written by `author` (the GM by default). */
export class FakeMessage {
  system: Record<string, unknown>;
  flags: Record<string, unknown> = {};
  rolls: { toJSON(): unknown }[] = [];
  readonly updates: unknown[] = [];
  constructor(
    readonly id: string,
    exchange: unknown,
    readonly type: string = "attack",
    readonly author: { id: string; isGM: boolean } = GM,
    system?: Record<string, unknown>,
  ) {
    this.system = system ? structuredClone(system) : { exchange: structuredClone(exchange), revision: 0, requests: [], recordId: "" };
  }
  update(data: Record<string, unknown>): Promise<this> {
    this.updates.push(structuredClone(data));
    for (const [k, v] of Object.entries(data)) {
      if (k === "rolls") this.rolls = (v as string[]).map((json) => ({ toJSON: () => JSON.parse(json) as unknown }));
      else setPath(this as unknown as Record<string, unknown>, k, v);
    }
    return Promise.resolve(this);
  }
}

export interface World {
  readonly users: Map<string, FakeUser>;
  readonly actors: Map<string, FakeActor>;
  readonly messages: Map<string, FakeMessage>;
  readonly settings: Map<string, unknown>;
  /** What the user was told, as they read it (localised). */
  readonly notifications: { error: Mock<(text: string) => void>; warn: Mock<(text: string) => void>; info: Mock<(text: string) => void> };
  /** Dice results the next Roll evaluations return, in order. */
  readonly dice: number[];
  /** The hooks fired with Hooks.callAll, in order. */
  readonly hooks: { name: string; args: unknown[] }[];
  /** Runs a query as the active GM handling a request sent by `userId` (with `requestId`: a replay of that request). */
  ask<P, R>(query: QueryDefinition<P, R, TestServices>, userId: string, payload: unknown, requestId?: string): Promise<QueryResult<R>>;
  /** The services the GM's handlers get (swap `combat` for a running turn's bridge). */
  readonly services: TestServices;
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
    ["case.slamMovesTokens", false],
    ["case.lastDefence", ""],
    ["case.minorFoeRule", "normal"],
    ["case.killLossAtOwnWrapUp", false],
    // This test world's Take and Full Hold ruling: the comparison (Foundry's default is the ACTION; tests that need it set it).
    ["case.strengthContest", "comparison"],
    ["case.unconsciousAtZeroHealth", true],
    ["case.regenerationTurns", 10],
    // The Karma rulings' world switches, at the rules' defaults (power-rulings.ts).
    ["case.karmaOnDefence", KARMA_ON_DEFENCE],
    ["case.karmaOnChecks", KARMA_ON_CHECKS],
    ["case.karmaAgainstDeath", KARMA_AGAINST_DEATH],
  ]);
  const notifications = { error: vi.fn<(text: string) => void>(), warn: vi.fn<(text: string) => void>(), info: vi.fn<(text: string) => void>() };
  const dice: number[] = [];
  const hooks: { name: string; args: unknown[] }[] = [];

  class FakeRoll {
    total = 0;
    constructor(readonly formula: string) {}
    evaluate(): Promise<this> {
      const next = dice.shift();
      if (next === undefined) throw new Error(`The test queued no die for ${this.formula}.`);
      this.total = next;
      return Promise.resolve(this);
    }
    toJSON(): unknown {
      return { formula: this.formula, total: this.total };
    }
  }
  let created = 0;
  const chatMessage = {
    implementation: {
      create(data: Record<string, unknown>): Promise<FakeMessage> {
        created += 1;
        const id = `made${String(created).padStart(12, "0")}`;
        const { type, system } = structuredClone(data) as { type: string; system: Record<string, unknown> };
        const message = new FakeMessage(id, null, type, GM, system);
        message.rolls = ((data.rolls ?? []) as string[]).map((json) => ({ toJSON: () => JSON.parse(json) as unknown }));
        messages.set(id, message);
        return Promise.resolve(message);
      },
    },
    getSpeaker: ({ actor }: { actor: { name: string } }) => ({ alias: actor.name }),
  };

  vi.stubGlobal("Actor", ActorBase);
  vi.stubGlobal("TokenDocument", TokenDocumentBase);
  vi.stubGlobal("Hooks", { callAll: (name: string, ...args: unknown[]) => (hooks.push({ name, args }), true) });
  vi.stubGlobal("Roll", FakeRoll);
  vi.stubGlobal("ChatMessage", chatMessage);
  // Foundry v13's notifications localise `message` when `options.localize`, filling `options.format`
  // (NotificationOptions: localize, format, escape). The spies record the text a user would read.
  const notify = (spy: Mock<(text: string) => void>) => (message: string, options?: { localize?: boolean; format?: Record<string, string> }) => { spy(options?.localize ? localize(message, options.format ?? {}) : message); };
  vi.stubGlobal("ui", { notifications: { error: notify(notifications.error), warn: notify(notifications.warn), info: notify(notifications.info) } });
  // An actor by its UUID, or an item by its own (`Actor.<id>.Item.<id>`), as Foundry's fromUuid resolves them.
  const byUuid = (uuid: string): unknown => [...actors.values()].find((a) => a.uuid === uuid) ?? [...actors.values()].flatMap((a) => a.items).find((i) => i.uuid === uuid) ?? null;
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(byUuid(uuid)));
  vi.stubGlobal("fromUuidSync", (uuid: string) => [...actors.values()].find((a) => a.uuid === uuid) ?? null);
  const gm = gmRouter(GM, users);
  // This client's own router (as the root makes it in init), for the asking side: Foundry's environment over the stubbed globals.
  const clientRouter = new QueryRouter(foundryEnvironment, gm.services);
  vi.stubGlobal("CONFIG", { CASE: { universalTable: UNIVERSAL_TABLE, router: clientRouter }, specialStatusEffects: { DEFEATED: "dead" }, statusEffects: [] });
  vi.stubGlobal("game", {
    user: GM,
    // Foundry's major version (game.release.generation); a test of v14 behaviour sets 14.
    release: { generation: 13 },
    users: { get: (id: string) => users.get(id), filter: (fn: (u: FakeUser) => boolean) => [...users.values()].filter(fn), activeGM: null },
    // A WorldCollection: get by id, iteration, and `contents` (Collection#contents: its values in insertion order).
    messages: {
      get: (id: string) => messages.get(id),
      get contents() {
        return [...messages.values()];
      },
      [Symbol.iterator]: () => messages.values(),
    },
    settings: {
      get: (ns: string, key: string) => {
        const id = `${ns}.${key}`;
        if (!settings.has(id)) throw new Error(`Setting ${id} is not registered in the test world.`);
        return settings.get(id);
      },
      // ClientSettings#set: a registered setting only; resolves to the value.
      set: (ns: string, key: string, value: unknown) => {
        const id = `${ns}.${key}`;
        if (!settings.has(id)) throw new Error(`Setting ${id} is not registered in the test world.`);
        settings.set(id, value);
        return Promise.resolve(value);
      },
    },
    i18n: { localize: (k: string) => localize(k), format: (k: string, d: Record<string, unknown>) => localize(k, d) },
  });

  return {
    users,
    actors,
    messages,
    settings,
    notifications,
    dice,
    hooks,
    // A click on a card names the revision this client holds, as the card's client half does (card-click.ts).
    ask: (query, userId, payload, requestId) => gm.ask(query, userId, asClicked(payload), requestId),
    services: gm.services,
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

/**
 * The exchange tests' usual pair, added to the world: Kestrel, Alice's hero (Agility 30,
 * Strength 20, Endurance 30), and Gravel, an NPC nobody owns (Fighting 40, Agility 20,
 * Strength 40).
 */
export function kestrelAndGravel(world: World): { hero: FakeActor; villain: FakeActor } {
  const hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  const villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
  return { hero, villain };
}

/** A world actor as an attack exchange's target (the rules' TargetInput): its defence scores, no armor. */
export function targetOfActor(a: FakeActor): TargetInput {
  const scores = { "agility.bal": a.system.score("agility.bal"), "fighting.def": a.system.score("fighting.def"), "strength.mgt": a.system.score("strength.mgt"), "endurance.res": a.system.score("endurance.res") };
  return { uuid: a.uuid, actorUuid: a.uuid, name: a.name, scores, armor: { body: 0, energy: 0 } };
}
