/**
 * The strict table: a simulated Foundry server with several clients (two GMs, two players),
 * as strict as Foundry where our code meets it. It drives the REAL request glue (gm.ts), the
 * real router, the real handlers and the real data models; only Foundry itself is modelled,
 * each rule after Foundry's documented behaviour:
 *
 * - Everything between clients crosses as JSON (`JSON.stringify`/`JSON.parse`): Foundry sends
 *   document changes over socket.io, whose default parser JSON-encodes them (socket.io docs,
 *   "Default parser"); `undefined` vanishes on the way, as in the field.
 * - The server checks who may write what, and stamps authorship. A chat message: anyone may
 *   create one, but only as themselves unless a GM (the server sets `author`; BaseChatMessage's
 *   create permission, foundryvtt.com/api BaseChatMessage); only its author or a GM may update
 *   or delete it. An actor (and its effects): its owners or a GM (DOCUMENT_OWNERSHIP_LEVELS
 *   OWNER, foundryvtt.com/api Actor#testUserPermission). The hook `createChatMessage(message,
 *   options, userId)` gets the creating user from the server.
 * - A whispered message reaches only its author, its recipients and the GMs; others never
 *   receive it (ChatMessage#visible, foundryvtt.com/api ChatMessage: "whispered messages may
 *   only be seen by their author and the recipients").
 * - `game.users.activeGM` is the connected GM with the lowest id (foundryvtt.com/api Users#activeGM).
 * - Handlers interleave: every step (the server's work, each delivery to each client, each
 *   answer) waits a seeded random delay, so concurrent requests really race.
 * - A client can drop between any two writes: its writes then fail, the others are told the
 *   user left (`userConnected`), and it may come back later with a fresh copy of the world and
 *   nothing in memory (a reload).
 *
 * Each client's code runs with its own globals (`game`, `ui`, `Hooks`, `fromUuid` …): the
 * globals are proxies that read the client whose code is running, carried through every
 * await by Node's AsyncLocalStorage, so two GMs' handlers can interleave without sharing
 * anything but the server, as in the field.
 */
import "./foundry-globals";
import { AsyncLocalStorage } from "node:async_hooks";
import { vi } from "vitest";
import { ActorBase, FakeActor, TokenDocumentBase, characterSource } from "./exchange-world";
import { localize, renderTemplate } from "./handlebars";
import { UNIVERSAL_TABLE } from "../../src/rules/index";
import { QueryRouter, type AskingUser, type QueryDefinition, type QueryResult } from "../../src/foundry/requests/router";
import { LockTable } from "../../src/foundry/requests/locks";
import { foundryEnvironment, registerRequestHooks } from "../../src/foundry/requests/gm";
import { CARD_QUERIES } from "../../src/foundry/exchange/gm-actions";
import { attackQuery } from "../../src/foundry/exchange/make-attack";
import { applyDamageApiQuery } from "../../src/foundry/api/damage-api";
import { answerRollRequestQuery } from "../../src/foundry/roll-requests/gm-request";
import { TURN_QUERIES } from "../../src/foundry/combat/queries";
import { foundryTurnDirectory, turnCombatBridge } from "../../src/foundry/combat/foundry-host";
import type { CaseServices } from "../../src/foundry/register";
import { freshCombatSystem, freshCombatantSystem } from "../../src/foundry/combat/state";
import { foundryDouble } from "./foundry-double";

type Json = Record<string, unknown>;

/** A seeded pseudo-random generator (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function setPath(target: Json, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== "object" || node[p] === null) node[p] = {};
    node = node[p] as Json;
  }
  const last = parts.at(-1) ?? "";
  // Foundry's "-=key" deletes a key (v13 update syntax).
  if (last.startsWith("-=")) Reflect.deleteProperty(node, last.slice(2));
  else node[last] = value;
}

/** Applies a Foundry-style update (dotted keys; arrays replaced whole) to a source. */
function applyUpdate(source: Json, data: Json): void {
  for (const [k, v] of Object.entries(data)) setPath(source, k, v);
}

export const OWNER = 3;

export interface UserRecord extends AskingUser {
  active: boolean;
}

interface ItemSource extends Json {
  _id: string;
  name: string;
  type: string;
  system: Json;
}

interface ActorSource extends Json {
  _id: string;
  name: string;
  type: "hero" | "npc";
  system: Json;
  items: ItemSource[];
  flags: Json;
  ownership: Record<string, number>;
  effects: { _id: string; statuses: string[]; flags: Json }[];
}

interface MessageSource extends Json {
  _id: string;
  type: string;
  author: string;
  whisper: string[];
  system: Json;
  rolls: string[];
  content: string;
  speaker: Json;
  timestamp: number;
}

interface CombatantSource extends Json {
  _id: string;
  name: string;
  actorId: string;
  system: Json;
  initiative: number | null;
  hidden: boolean;
  defeated: boolean;
  /** Its token on the scene (x, y in pixels; width, height in grid cells), when placed. */
  token?: { x: number; y: number; width: number; height: number } | null;
}

interface CombatSource extends Json {
  _id: string;
  system: Json;
  round: number;
  turn: number | null;
  combatants: CombatantSource[];
}

type Write =
  | { op: "update"; collection: "Combat"; id: string; data: Json }
  | { op: "updateCombatants"; collection: "Combat"; id: string; updates: Json[] }
  | { op: "create"; collection: "ChatMessage"; data: Json }
  | { op: "update"; collection: "ChatMessage" | "Actor"; id: string; data: Json }
  | { op: "delete"; collection: "ChatMessage"; id: string }
  | { op: "createEffect" | "deleteEffect"; collection: "Actor"; id: string; status: string }
  | { op: "updateEffect"; collection: "Actor"; id: string; status: string; data: Json };

type Collection = "ChatMessage" | "Actor" | "Combat";

/** Why the server refused a write. */
export class ServerRefusal extends Error {}

export class StrictServer {
  readonly rng: () => number;
  readonly users = new Map<string, UserRecord>();
  readonly actors = new Map<string, ActorSource>();
  readonly messages = new Map<string, MessageSource>();
  readonly combats = new Map<string, CombatSource>();
  readonly settings = new Map<string, unknown>([
    ["case.damageAppliedBy", "gm"],
    ["case.hideNpcDefences", true],
    ["case.autoNpcConsequences", false],
    ["case.damageMethod", "static"],
    ["case.declaredDodge", false],
    ["case.killLossAtOwnWrapUp", false],
    // This test world's Take and Full Hold ruling: the comparison (Foundry's default is the ACTION; tests that need it set it).
    ["case.strengthContest", "comparison"],
    ["case.unconsciousAtZeroHealth", true],
    ["case.regenerationTurns", 10],
    ["case.initiativeMode", "everyTurn"],
    ["case.teamInitiative", false],
  ]);
  readonly clients = new Set<StrictClient>();
  /** Writes that never get an answer (a hung server call), by predicate. */
  hang: ((client: StrictClient, write: Write) => boolean) | null = null;
  /** Writes the server holds until a promise settles (a determinism hook: the test decides what lands first). */
  gate: ((client: StrictClient, write: Write) => Promise<void> | null) | null = null;
  /** The server's own log of every write it applied, for figures. */
  readonly applied: { user: string; write: Write }[] = [];
  #ids = 0;

  constructor(seed: number) {
    this.rng = seeded(seed);
  }

  newId(prefix: string): string {
    this.#ids += 1;
    return `${prefix}${String(this.#ids).padStart(16 - prefix.length, "0")}`;
  }

  /** A seeded pause: a few milliseconds, or none. */
  delay(): Promise<void> {
    const ms = Math.floor(this.rng() * 3);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  activeGM(): UserRecord | null {
    const gms = [...this.users.values()].filter((u) => u.isGM && u.active).sort((a, b) => (a.id < b.id ? -1 : 1));
    return gms[0] ?? null;
  }

  addUser(id: string, name: string, isGM: boolean): UserRecord {
    const user: UserRecord = { id, name, isGM, active: false };
    this.users.set(id, user);
    return user;
  }

  addActor(id: string, name: string, type: "hero" | "npc", system: Json, owners: readonly string[], items: ItemSource[] = []): void {
    this.actors.set(id, { _id: id, name, type, system: wire(system), items: wire(items), flags: {}, ownership: Object.fromEntries(owners.map((o) => [o, OWNER])), effects: [] });
  }

  mayWriteActor(user: UserRecord, actor: ActorSource): boolean {
    return user.isGM || (actor.ownership[user.id] ?? 0) >= OWNER;
  }

  mayRead(user: UserRecord, message: MessageSource): boolean {
    return message.whisper.length === 0 || user.isGM || message.author === user.id || message.whisper.includes(user.id);
  }

  /** The server's side of a write from `client`: checks, applies, broadcasts. Resolves to the new source (JSON). */
  async write(client: StrictClient, request: string): Promise<string> {
    const write = JSON.parse(request) as Write;
    const user = client.user;
    await this.delay();
    if (this.hang?.(client, write)) return new Promise<string>(() => undefined);
    const gate = this.gate?.(client, write);
    if (gate) await gate;
    if (!user.active || !client.connected) throw new ServerRefusal("disconnected");
    const source = write.collection === "ChatMessage" ? this.#writeMessage(client, write) : write.collection === "Combat" ? this.#writeCombat(client, write) : this.#writeActor(client, write);
    // The answer travels on the writer's own socket, in order with what the server sent it before.
    const json = JSON.stringify(source);
    return client.deliver(() => json);
  }

  #writeMessage(client: StrictClient, write: Write): MessageSource | null {
    const user = client.user;
    if (write.op === "create") {
      const data = write.data;
      // The author is the creating user; only a GM may create a message as someone else.
      if (typeof data.author === "string" && data.author !== user.id && !user.isGM) throw new ServerRefusal(`${user.name} may not create a message as ${data.author}.`);
      const source: MessageSource = {
        _id: this.newId("msg"),
        type: typeof data.type === "string" ? data.type : "base",
        author: typeof data.author === "string" ? data.author : user.id,
        whisper: Array.isArray(data.whisper) ? (data.whisper as string[]) : [],
        system: (data.system ?? {}) as Json,
        rolls: Array.isArray(data.rolls) ? (data.rolls as string[]) : [],
        content: typeof data.content === "string" ? data.content : "",
        speaker: (data.speaker ?? {}) as Json,
        timestamp: Date.now(),
      };
      this.messages.set(source._id, source);
      this.applied.push({ user: user.id, write });
      this.#broadcast("create", "ChatMessage", source, client);
      return source;
    }
    const source = this.messages.get(write.id);
    if (!source) throw new ServerRefusal(`No message ${write.id}.`);
    if (!user.isGM && source.author !== user.id) throw new ServerRefusal(`${user.name} may not change a message by ${source.author}.`);
    if (write.op === "delete") {
      this.messages.delete(write.id);
      this.#broadcast("delete", "ChatMessage", source, client);
      return null;
    }
    if (write.op !== "update") throw new ServerRefusal("Bad write.");
    if ("author" in write.data && !user.isGM) throw new ServerRefusal("Only a GM may change a message's author.");
    applyUpdate(source, write.data);
    this.applied.push({ user: user.id, write });
    this.#broadcast("update", "ChatMessage", source, client);
    return source;
  }

  /** A combat and its combatants: the GM writes them (our code never has a player write one). */
  #writeCombat(client: StrictClient, write: Write): CombatSource {
    if (write.collection !== "Combat") throw new ServerRefusal("Bad write.");
    const source = this.combats.get(write.id);
    if (!source) throw new ServerRefusal(`No combat ${write.id}.`);
    if (!client.user.isGM) throw new ServerRefusal(`${client.user.name} may not change the combat.`);
    if (write.op === "update") applyUpdate(source, write.data);
    else {
      for (const update of write.updates) {
        const combatant = source.combatants.find((c) => c._id === update._id);
        if (!combatant) throw new ServerRefusal(`No combatant ${String(update._id)}.`);
        const { _id: _ignored, ...rest } = update;
        Object.assign(combatant, rest);
      }
    }
    this.applied.push({ user: client.user.id, write });
    this.#broadcast("update", "Combat", source, client);
    return source;
  }

  #writeActor(client: StrictClient, write: Write): ActorSource {
    const user = client.user;
    if (write.collection !== "Actor") throw new ServerRefusal("Bad write.");
    const source = this.actors.get(write.id);
    if (!source) throw new ServerRefusal(`No actor ${write.id}.`);
    if (!this.mayWriteActor(user, source)) throw new ServerRefusal(`${user.name} does not own ${source.name}.`);
    switch (write.op) {
      case "update":
        applyUpdate(source, write.data);
        break;
      case "createEffect": {
        const status = write.status;
        if (!source.effects.some((e) => e.statuses.includes(status))) source.effects.push({ _id: this.newId("eff"), statuses: [status], flags: {} });
        break;
      }
      case "deleteEffect": {
        const status = write.status;
        source.effects = source.effects.filter((e) => !e.statuses.includes(status));
        break;
      }
      case "updateEffect": {
        const { status, data } = write;
        const effect = source.effects.find((e) => e.statuses.includes(status));
        if (effect) applyUpdate(effect, data);
        break;
      }
    }
    this.applied.push({ user: user.id, write });
    this.#broadcast("update", "Actor", source, client);
    return source;
  }

  /**
   * Sends a change to every other connected client that may see it. Each client's socket
   * delivers in order (socket.io over one connection keeps order), after seeded pauses.
   */
  #broadcast(event: "create" | "update" | "delete", collection: Collection, source: Json, writer: StrictClient): void {
    const json = JSON.stringify(source);
    for (const client of this.clients) {
      if (client === writer || !client.connected) continue;
      if (collection === "ChatMessage" && !this.mayRead(client.user, source as MessageSource)) continue;
      void client.deliver(() => { client.receive(event, collection, json, writer.user.id); });
    }
  }

  /** Every document source a user's client has received: what a player could read in the console. */
  received(client: StrictClient): string {
    return client.received.join("\n");
  }
}

/** The client whose code is running (AsyncLocalStorage carries it through every await). */
const running = new AsyncLocalStorage<StrictClient>();

function current(): StrictClient {
  const client = running.getStore();
  if (!client) throw new Error("No strict-table client is running this code: wrap it in client.run().");
  return client;
}

/** A roll the active GM makes: from the table's queued dice, or the seeded generator. */
class TableRoll {
  total = 0;
  constructor(readonly formula: string) {}
  evaluate(): Promise<this> {
    const table = current().table;
    const faces = Number(/^1d(\d+)$/.exec(this.formula)?.[1] ?? Number.NaN);
    if (!Number.isInteger(faces)) throw new Error(`The strict table rolls only 1dN, not ${this.formula}.`);
    const queued = table.dice.shift();
    this.total = queued ?? 1 + Math.floor(table.server.rng() * faces);
    table.rolled.push({ by: current().user.id, formula: this.formula, total: this.total });
    return Promise.resolve(this);
  }
  toJSON(): Json {
    return { class: "Roll", formula: this.formula, total: this.total, evaluated: true };
  }
}

class ClientEffect {
  constructor(
    private readonly client: StrictClient,
    private readonly actorId: string,
    readonly statuses: Set<string>,
    readonly flags: Json,
  ) {}
  async update(data: Json): Promise<this> {
    await this.client.write({ op: "updateEffect", collection: "Actor", id: this.actorId, status: [...this.statuses][0] ?? "", data });
    return this;
  }
}

/** An actor as a client holds it: the real data model over the source it received. */
export class ClientActor extends ActorBase {
  constructor(
    private readonly client: StrictClient,
    public source: ActorSource,
  ) {
    super();
  }
  get id(): string {
    return this.source._id;
  }
  get uuid(): string {
    return `Actor.${this.source._id}`;
  }
  get name(): string {
    return this.source.name;
  }
  get type(): "hero" | "npc" {
    return this.source.type;
  }
  get system(): ReturnType<typeof FakeActor.build> {
    return FakeActor.build(this.source.type, this.source.system);
  }
  get flags(): Json {
    return this.source.flags;
  }
  /** Its items, as the item documents our code reads (type, name, system, uuid, actor). */
  get items(): { documentName: "Item"; id: string; uuid: string; name: string; type: string; system: Json; actor: ClientActor }[] {
    return this.source.items.map((i) => ({ documentName: "Item", id: i._id, uuid: `${this.uuid}.Item.${i._id}`, name: i.name, type: i.type, system: i.system, actor: this }));
  }
  get effects(): ClientEffect[] {
    return this.source.effects.map((e) => new ClientEffect(this.client, this.id, new Set(e.statuses), e.flags));
  }
  get statuses(): Set<string> {
    return new Set(this.source.effects.flatMap((e) => e.statuses));
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.client.user, "OWNER");
  }
  testUserPermission(user: AskingUser, level: string): boolean {
    const has = user.isGM ? OWNER : (this.source.ownership[user.id] ?? 0);
    return has >= (level === "OWNER" ? OWNER : level === "LIMITED" ? 1 : 2);
  }
  async update(data: Json): Promise<this> {
    await this.client.write({ op: "update", collection: "Actor", id: this.id, data });
    return this;
  }
  async toggleStatusEffect(status: string, { active }: { active: boolean }): Promise<boolean> {
    await this.client.write({ op: active ? "createEffect" : "deleteEffect", collection: "Actor", id: this.id, status });
    return active;
  }
}

/** A chat message as a client holds it. */
export class ClientMessage {
  constructor(
    private readonly client: StrictClient,
    public source: MessageSource,
  ) {}
  get id(): string {
    return this.source._id;
  }
  get type(): string {
    return this.source.type;
  }
  get system(): Json {
    return this.source.system;
  }
  get author(): AskingUser | undefined {
    return this.client.table.server.users.get(this.source.author);
  }
  get timestamp(): number {
    return this.source.timestamp;
  }
  get rolls(): { toJSON(): unknown }[] {
    return this.source.rolls.map((r) => ({ toJSON: () => JSON.parse(r) as unknown }));
  }
  async update(data: Json): Promise<this> {
    await this.client.write({ op: "update", collection: "ChatMessage", id: this.id, data });
    return this;
  }
}

/** A combatant as a client holds it (Foundry's members our turn code reads). */
export class ClientCombatant {
  constructor(
    private readonly combat: ClientCombat,
    private readonly client: StrictClient,
    readonly source: CombatantSource,
  ) {}
  get id(): string {
    return this.source._id;
  }
  get name(): string {
    return this.source.name;
  }
  get system(): Json {
    return this.source.system;
  }
  get flags(): Json {
    return (this.source.flags ?? {}) as Json;
  }
  get actor(): ClientActor | null {
    return this.client.actors.get(this.source.actorId) ?? null;
  }
  /** Foundry: a combatant has a player owner when a non-GM user owns its actor. */
  get hasPlayerOwner(): boolean {
    const ownership = this.actor?.source.ownership ?? {};
    return Object.entries(ownership).some(([id, level]) => level >= OWNER && this.client.table.server.users.get(id)?.isGM === false);
  }
  get isDefeated(): boolean {
    return this.source.defeated;
  }
  get hidden(): boolean {
    return this.source.hidden;
  }
  get initiative(): number | null {
    return this.source.initiative;
  }
  /** Foundry: the combat's scene; one scene on this table. */
  get sceneId(): string {
    return "scene00000000001";
  }
  /**
   * Foundry: `Combatant#token`, the TokenDocument (x, y in pixels; width, height in grid units),
   * whose parent Scene has `grid.size` pixels per cell (Foundry's default 100).
   */
  get token(): { x: number; y: number; width: number; height: number; parent: { grid: { size: number } } } | null {
    const t = this.source.token;
    return t ? { ...t, parent: { grid: { size: 100 } } } : null;
  }
  async update(data: Json): Promise<this> {
    await this.combat.updateEmbeddedDocuments("Combatant", [{ _id: this.id, ...data }]);
    return this;
  }
}

/** A combat as a client holds it. */
export class ClientCombat {
  constructor(
    private readonly client: StrictClient,
    public source: CombatSource,
  ) {}
  get id(): string {
    return this.source._id;
  }
  get system(): Json {
    return this.source.system;
  }
  get round(): number {
    return this.source.round;
  }
  get turn(): number | null {
    return this.source.turn;
  }
  get started(): boolean {
    return this.source.round > 0;
  }
  get combatants(): { contents: ClientCombatant[]; size: number; get(id: string): ClientCombatant | undefined; find(fn: (c: ClientCombatant) => boolean): ClientCombatant | undefined } {
    const contents = this.source.combatants.map((c) => new ClientCombatant(this, this.client, c));
    return { contents, size: contents.length, get: (id) => contents.find((c) => c.id === id), find: (fn) => contents.find(fn) };
  }
  async update(data: Json): Promise<this> {
    await this.client.write({ op: "update", collection: "Combat", id: this.id, data });
    return this;
  }
  async updateEmbeddedDocuments(_name: "Combatant", updates: Json[]): Promise<void> {
    await this.client.write({ op: "updateCombatants", collection: "Combat", id: this.id, updates: wire(updates) });
  }
}

type HookFn = (...args: unknown[]) => unknown;

export class StrictClient {
  connected = false;
  actors = new Map<string, ClientActor>();
  messages = new Map<string, ClientMessage>();
  combats = new Map<string, ClientCombat>();
  readonly hooks = new Map<string, { id: number; fn: HookFn; once: boolean }[]>();
  /** Every document source this client received, as JSON: what its user could read. */
  readonly received: string[] = [];
  readonly notified: { level: string; text: string }[] = [];
  router!: QueryRouter<CaseServices>;
  /** Writes left before this client drops (null: never). */
  #writesLeft: number | null = null;
  /** This client's socket: what the server sends it arrives in order. */
  #inbox: Promise<unknown> = Promise.resolve();
  #hookIds = 0;

  constructor(
    readonly table: StrictTable,
    readonly user: UserRecord,
  ) {}

  /** Runs `fn` as this client's code (its globals). */
  run<T>(fn: () => T): T {
    return running.run(this, fn);
  }

  /** Connects (or reconnects, as after a reload): a fresh copy of the world, a fresh router, nothing in memory. */
  async connect(): Promise<void> {
    this.connected = true;
    this.user.active = true;
    this.table.server.clients.add(this);
    this.actors = new Map([...this.table.server.actors.values()].map((a) => [a._id, new ClientActor(this, wire(a))]));
    this.messages = new Map(
      [...this.table.server.messages.values()].filter((m) => this.table.server.mayRead(this.user, m)).map((m) => [m._id, new ClientMessage(this, wire(m))]),
    );
    this.combats = new Map([...this.table.server.combats.values()].map((c) => [c._id, new ClientCombat(this, wire(c))]));
    for (const s of [...this.table.server.actors.values(), ...this.table.server.messages.values(), ...this.table.server.combats.values()]) {
      if (!("whisper" in s) || this.table.server.mayRead(this.user, s as MessageSource)) this.received.push(JSON.stringify(s));
    }
    this.hooks.clear();
    // The services the root (src/foundry/register.ts) hands the router: Foundry's turn directory and bridge.
    this.router = new QueryRouter(foundryEnvironment, { turns: foundryTurnDirectory, combat: turnCombatBridge }, new LockTable(this.table.lockTimeoutMs), this.table.answerTimeoutMs);
    this.run(() => {
      for (const query of [...CARD_QUERIES, attackQuery, applyDamageApiQuery, answerRollRequestQuery, ...TURN_QUERIES]) this.router.register<unknown, unknown>(query);
      registerRequestHooks(this.router);
    });
    this.table.tellOthers(this);
    await this.run(() => this.call("ready"));
  }

  /** Drops now: the tab closes. */
  drop(): void {
    if (!this.connected) return;
    this.connected = false;
    this.user.active = false;
    this.table.server.clients.delete(this);
    this.table.tellOthers(this);
  }

  /** Drops right after `n` more successful writes. */
  dropAfterWrites(n: number): void {
    this.#writesLeft = n;
  }

  /** Queues `fn` on this client's socket, after what is already on it and a seeded pause. */
  deliver<T>(fn: () => T): Promise<T> {
    const next = this.#inbox.then(() => this.table.server.delay()).then(fn);
    this.#inbox = next.catch(() => undefined);
    return next;
  }

  async write(write: Write): Promise<Json | null> {
    if (!this.connected) throw new Error(`${this.user.name}'s client is disconnected.`);
    const answer = JSON.parse(await this.table.server.write(this, JSON.stringify(write))) as Json | null;
    // Foundry updates the writer's own copy when the server answers, then runs its hooks there too.
    if (answer) {
      this.received.push(JSON.stringify(answer));
      const doc = this.#store(write.collection, answer);
      if (write.collection === "ChatMessage" && (write.op === "create" || write.op === "update")) {
        void this.run(() => this.call(write.op === "create" ? "createChatMessage" : "updateChatMessage", doc, {}, {}, this.user.id));
      }
    }
    if (this.#writesLeft !== null) {
      this.#writesLeft -= 1;
      if (this.#writesLeft <= 0) {
        this.#writesLeft = null;
        this.drop();
      }
    }
    return answer;
  }

  /** Keeps a received source. Like Foundry, a document already held is updated in place: every reference to it sees the change. */
  #store(collection: string, source: Json): ClientActor | ClientMessage | ClientCombat {
    const id = String(source._id);
    if (collection === "Combat") {
      const held = this.combats.get(id);
      if (held) held.source = source as CombatSource;
      else this.combats.set(id, new ClientCombat(this, source as CombatSource));
      return this.combats.get(id) as ClientCombat;
    }
    if (collection === "Actor") {
      const held = this.actors.get(id);
      if (held) held.source = source as ActorSource;
      else this.actors.set(id, new ClientActor(this, source as ActorSource));
      return this.actors.get(id) as ClientActor;
    }
    const held = this.messages.get(id);
    if (held) held.source = source as MessageSource;
    else this.messages.set(id, new ClientMessage(this, source as MessageSource));
    return this.messages.get(id) as ClientMessage;
  }

  /** A broadcast from the server reaches this client. */
  receive(event: "create" | "update" | "delete", collection: Collection, json: string, userId: string): void {
    if (!this.connected) return;
    this.received.push(json);
    const source = JSON.parse(json) as Json;
    if (event === "delete") {
      this.messages.delete(String(source._id));
      return;
    }
    const doc = this.#store(collection, source);
    if (collection === "ChatMessage") void this.run(() => this.call(event === "create" ? "createChatMessage" : "updateChatMessage", doc, {}, {}, userId));
  }

  on(name: string, fn: HookFn, once = false): number {
    const id = ++this.#hookIds;
    this.hooks.set(name, [...(this.hooks.get(name) ?? []), { id, fn, once }]);
    return id;
  }

  off(name: string, id: number): void {
    this.hooks.set(
      name,
      (this.hooks.get(name) ?? []).filter((h) => h.id !== id),
    );
  }

  call(name: string, ...args: unknown[]): Promise<unknown> {
    const list = this.hooks.get(name) ?? [];
    this.hooks.set(
      name,
      list.filter((h) => !h.once),
    );
    return Promise.all(list.map((h) => h.fn(...args)));
  }

  /** This client's user clicks: the real router asks the active GM (or runs in place for it). */
  click<P, R>(query: QueryDefinition<P, R>, payload: unknown): Promise<QueryResult<R>> {
    return this.run(() => this.router.request(query, payload));
  }
}

export interface TableOptions {
  readonly seed?: number;
  /** How long one handler may hold a lock. */
  readonly lockTimeoutMs?: number;
  /** How long a player's client waits for an answer. */
  readonly answerTimeoutMs?: number;
}

/** The users of the table. */
export const TABLE_USERS = {
  gm: { id: "gm00000000000001", name: "Judge" },
  gm2: { id: "gm00000000000002", name: "Co-Judge" },
  alice: { id: "alice00000000000", name: "Alice" },
  bob: { id: "bob0000000000000", name: "Bob" },
} as const;

export class StrictTable {
  readonly server: StrictServer;
  readonly clients: Record<keyof typeof TABLE_USERS, StrictClient>;
  /** Dice the next GM rolls return, in order (then the seeded generator). */
  readonly dice: number[] = [];
  readonly rolled: { by: string; formula: string; total: number }[] = [];
  readonly lockTimeoutMs: number;
  readonly answerTimeoutMs: number;

  constructor(options: TableOptions = {}) {
    this.server = new StrictServer(options.seed ?? 1);
    this.lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 15_000;
    const client = (key: keyof typeof TABLE_USERS, isGM: boolean) => new StrictClient(this, this.server.addUser(TABLE_USERS[key].id, TABLE_USERS[key].name, isGM));
    this.clients = { gm: client("gm", true), gm2: client("gm2", true), alice: client("alice", false), bob: client("bob", false) };
  }

  /** Tells every other connected client that a user came or went (core's `userConnected` hook). */
  tellOthers(changed: StrictClient): void {
    for (const c of this.server.clients) {
      if (c === changed || !c.connected) continue;
      // On each client's own socket, after everything the server sent it before (the server
      // emits the event once the user's own writes are applied and broadcast).
      void c.deliver(() => {
        void c.run(() => c.call("userConnected", changed.user, changed.connected));
      });
    }
  }

  async connectAll(): Promise<void> {
    for (const c of Object.values(this.clients)) await c.connect();
  }

  /** Waits until nothing is in flight: every delivery and every handler done. */
  async settle(ms = 60): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Health as the server holds it. */
  health(actorId: string): number {
    const source = this.server.actors.get(actorId);
    return FakeActor.build(source?.type ?? "hero", source?.system ?? {}).health.value;
  }
}

/** Installs the globals as proxies onto the running client; remove them with vi.unstubAllGlobals(). */
export function installTableGlobals(): void {
  const game = {
    get user() {
      return current().user;
    },
    get users() {
      const server = current().table.server;
      const all = () => [...server.users.values()];
      return {
        get: (id: string) => server.users.get(id),
        filter: (fn: (u: UserRecord) => boolean) => all().filter(fn),
        get activeGM() {
          const gm = server.activeGM();
          return gm ? { ...gm, isSelf: gm.id === current().user.id } : null;
        },
      };
    },
    get messages() {
      const messages = current().messages;
      return {
        get: (id: string) => messages.get(id),
        filter: (fn: (m: ClientMessage) => boolean) => [...messages.values()].filter(fn),
        find: (fn: (m: ClientMessage) => boolean) => [...messages.values()].find(fn),
        [Symbol.iterator]: () => messages.values(),
      };
    },
    get settings() {
      const settings = current().table.server.settings;
      return {
        get: (ns: string, key: string) => {
          const id = `${ns}.${key}`;
          if (!settings.has(id)) throw new Error(`Setting ${id} is not registered on the strict table.`);
          return settings.get(id);
        },
      };
    },
    get combats() {
      const combats = current().combats;
      return { get: (id: string) => combats.get(id), [Symbol.iterator]: () => combats.values() };
    },
    combat: null,
    i18n: { localize: (k: string) => localize(k), format: (k: string, d: Record<string, unknown>) => localize(k, d) },
  };
  // An actor (`Actor.<id>`) or one of its items (`Actor.<id>.Item.<id>`), from this client's copy.
  const find = (uuid: string): unknown => {
    const m = /^Actor\.([A-Za-z0-9]+)(?:\.Item\.([A-Za-z0-9]+))?$/.exec(uuid);
    const actor = m?.[1] ? current().actors.get(m[1]) : undefined;
    if (!actor) return null;
    return m?.[2] ? (actor.items.find((i) => i.id === m[2]) ?? null) : actor;
  };
  vi.stubGlobal("game", game);
  vi.stubGlobal("Actor", ActorBase);
  vi.stubGlobal("TokenDocument", TokenDocumentBase);
  vi.stubGlobal("Roll", TableRoll);
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(find(uuid)));
  vi.stubGlobal("fromUuidSync", find);
  // Templates render with real Handlebars from the repository (Foundry serves them under systems/case/).
  const render = (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context));
  vi.stubGlobal("foundry", { ...foundryDouble, applications: { ...foundryDouble.applications, handlebars: { renderTemplate: render } } });
  // CONFIG.CASE.router is the router of the client that is running (each client made its own, as the root does in init).
  vi.stubGlobal("CONFIG", { CASE: { universalTable: UNIVERSAL_TABLE, get router() { return current().router; } }, specialStatusEffects: { DEFEATED: "dead" }, statusEffects: [] });
  vi.stubGlobal("ui", {
    notifications: Object.fromEntries(
      ["error", "warn", "info"].map((level) => [
        level,
        (message: string, options?: { localize?: boolean; format?: Record<string, string> }) => {
          current().notified.push({ level, text: options?.localize ? localize(message, options.format ?? {}) : message });
        },
      ]),
    ),
  });
  vi.stubGlobal("Hooks", {
    on: (name: string, fn: HookFn) => current().on(name, fn),
    once: (name: string, fn: HookFn) => current().on(name, fn, true),
    off: (name: string, id: number) => { current().off(name, id); },
    callAll: (name: string, ...args: unknown[]) => (void current().call(name, ...args), true),
  });
  vi.stubGlobal("ChatMessage", {
    implementation: {
      async create(data: Json): Promise<ClientMessage | undefined> {
        const client = current();
        const source = await client.write({ op: "create", collection: "ChatMessage", data: wire(data) });
        return source ? client.messages.get(String(source._id)) : undefined;
      },
      async deleteDocuments(ids: string[]): Promise<void> {
        for (const id of ids) await current().write({ op: "delete", collection: "ChatMessage", id });
      },
    },
    getSpeaker: ({ actor }: { actor: { name: string } }) => ({ alias: actor.name }),
    // ChatMessage.getWhisperRecipients("GM"): the GM users.
    getWhisperRecipients: (name: string) => (name === "GM" ? [...current().table.server.users.values()].filter((u) => u.isGM) : []),
  });
}

/** An attack item: a weapon whose damage is a fixed rank. */
export function weapon(id: string, name: string, attack: string, rank: number): ItemSource {
  return { _id: id, name, type: "weapon", system: { attack: { enabled: true, type: attack, range: 3, pullable: true }, damage: { mode: "rank", rank }, materialStrength: 40, ammunition: { tracked: false, value: 0, max: 0 }, equipped: true } };
}

/** The cast: Alice's hero, Bob's hero and two GM villains, each with a punch, a grapple and a blast; big Health pools. */
export const CAST = {
  kestrel: "hero000000000001",
  wren: "hero000000000002",
  gravel: "villain000000001",
  shade: "villain000000002",
} as const;

export function seatCast(table: StrictTable): void {
  const { alice, bob } = TABLE_USERS;
  const arms = (n: string) => [weapon(`punch${n}`, "Haymaker", "BA", 20), weapon(`grab${n}`, "Iron Grip", "Gp", 20), weapon(`blast${n}`, "Force Blast", "En", 30)];
  const strong = { fighting: 100, agility: 100, strength: 100, endurance: 100 };
  table.server.addActor(CAST.kestrel, "Kestrel, the Unbreakable Sentinel of the Northern Reach", "hero", characterSource({ ...strong, agility: 30 }), [alice.id], arms("0000000001"));
  table.server.addActor(CAST.wren, "Wren", "hero", characterSource({ ...strong, strength: 30 }), [bob.id], arms("0000000002"));
  table.server.addActor(CAST.gravel, "Doctor Gravel", "npc", characterSource({ ...strong, fighting: 40 }), [], arms("0000000003"));
  table.server.addActor(CAST.shade, "Shade", "npc", characterSource({ ...strong, agility: 40 }), [], arms("0000000004"));
}

/** The item UUID of an actor's weapon: "punch", "grab" or "blast". */
export function itemUuid(actorId: string, kind: "punch" | "grab" | "blast"): string {
  const n = { [CAST.kestrel]: "0000000001", [CAST.wren]: "0000000002", [CAST.gravel]: "0000000003", [CAST.shade]: "0000000004" }[actorId] ?? "";
  return `Actor.${actorId}.Item.${kind}${n}`;
}

/** A started combat in its declare phase, with these actors as combatants. */
export function seatCombat(table: StrictTable, id: string, actorIds: readonly string[]): void {
  table.server.combats.set(id, {
    _id: id,
    system: wire({ ...freshCombatSystem(), round: 1 }),
    round: 1,
    turn: 0,
    combatants: actorIds.map((actorId, i) => ({ _id: `cbt${String(i).padStart(13, "0")}`, name: table.server.actors.get(actorId)?.name ?? actorId, actorId, system: wire(freshCombatantSystem()), initiative: null, hidden: false, defeated: false })),
  });
}
