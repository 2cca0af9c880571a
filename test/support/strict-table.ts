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
 * - A scene's tokens: a token may be moved by a GM or by an owner of its actor (a token's
 *   permission is its actor's: foundryvtt.com/api TokenDocument#getUserLevel); the change is
 *   broadcast to every client as the scene's embedded token update.
 * - `game.users.activeGM` is the connected GM with the lowest id (foundryvtt.com/api Users#activeGM).
 * - A world setting is written only by a GM (ClientSettings#set; USER_PERMISSIONS.SETTINGS_MODIFY),
 *   through JSON; a player's write is refused.
 * - A scene's MeasuredTemplates: any user may create one (core permission TEMPLATE_CREATE, a
 *   player's by default), as themselves: the server sets `author` to the creating user and
 *   refuses another's unless a GM (BaseMeasuredTemplate's author field). Templates and tokens
 *   are embedded in their scene; every client holds a copy of it.
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
import { registerKeptRecords } from "../../src/foundry/exchange/kept-records";
import { CASE_QUERIES } from "../../src/foundry/queries";
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

/** A token on a scene: pixels for x and y, grid squares for width and height (TokenDocument). */
export interface TokenSource extends Json {
  _id: string;
  actorId: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hidden: boolean;
  flags: Json;
}

/** A MeasuredTemplate on a scene (MeasuredTemplateDocument), its author stamped by the server. */
interface TemplateSource extends Json {
  _id: string;
  author: string;
  t: string;
  x: number;
  y: number;
  distance: number;
  direction: number;
  flags: Json;
}

/** A scene: its grid, its dimensions (Scene#dimensions), its tokens and templates. */
export interface SceneSource extends Json {
  _id: string;
  grid: { size: number; type: number; distance: number };
  dimensions: { sceneX: number; sceneY: number; sceneWidth: number; sceneHeight: number };
  tokens: TokenSource[];
  templates: TemplateSource[];
}

type Write =
  | { op: "createTemplate"; collection: "Scene"; id: string; data: Json }
  | { op: "update"; collection: "Combat"; id: string; data: Json }
  | { op: "updateCombatants"; collection: "Combat"; id: string; updates: Json[] }
  | { op: "create"; collection: "ChatMessage"; data: Json }
  | { op: "update"; collection: "ChatMessage" | "Actor"; id: string; data: Json }
  | { op: "delete"; collection: "ChatMessage"; id: string }
  /** The chat log's Clear (ChatLog flush: `deleteDocuments([], { deleteAll: true })`): one operation, every client removes them all before its hooks run. */
  | { op: "deleteAll"; collection: "ChatMessage" }
  | { op: "createEffect" | "deleteEffect"; collection: "Actor"; id: string; status: string }
  | { op: "updateEffect"; collection: "Actor"; id: string; status: string; data: Json }
  | { op: "update"; collection: "Token"; sceneId: string; id: string; data: Json };

type Collection = "ChatMessage" | "Actor" | "Combat" | "Scene";

/** Why the server refused a write. */
export class ServerRefusal extends Error {}

export class StrictServer {
  readonly rng: () => number;
  readonly users = new Map<string, UserRecord>();
  readonly actors = new Map<string, ActorSource>();
  readonly messages = new Map<string, MessageSource>();
  readonly combats = new Map<string, CombatSource>();
  readonly scenes = new Map<string, SceneSource>();
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
    ["case.slamMovesTokens", false],
    ["case.minorFoeRule", "normal"],
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

  /**
   * Seeded pauses and socket deliveries not yet done: the table is quiet when this is 0 (see
   * StrictTable#settle). A write held by `gate` or `hang` is not counted: the test holds it.
   */
  #inFlight = 0;

  get inFlight(): number {
    return this.#inFlight;
  }

  /** A seeded pause: a few milliseconds, or none. */
  delay(): Promise<void> {
    const ms = Math.floor(this.rng() * 3);
    this.#inFlight += 1;
    return new Promise((resolve) =>
      setTimeout(() => {
        this.#inFlight -= 1;
        resolve();
      }, ms),
    );
  }

  /** Counts a delivery queued on a client's socket as in flight; call what it returns once the delivery is made. */
  queued(): () => void {
    this.#inFlight += 1;
    return () => {
      this.#inFlight -= 1;
    };
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
    const source =
      write.collection === "ChatMessage"
        ? this.#writeMessage(client, write)
        : write.collection === "Combat"
          ? this.#writeCombat(client, write)
          : write.collection === "Token"
            ? this.#writeToken(client, write)
            : write.collection === "Scene"
              ? this.#writeScene(client, write)
              : this.#writeActor(client, write);
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
    if (write.op === "deleteAll") {
      if (!user.isGM) throw new ServerRefusal(`${user.name} may not clear the chat log.`);
      const gone = [...this.messages.values()];
      this.messages.clear();
      this.applied.push({ user: user.id, write });
      for (const other of this.clients) {
        if (other === client || !other.connected) continue;
        const json = JSON.stringify(gone.filter((m) => this.mayRead(other.user, m)).map((m) => m._id));
        void other.deliver(() => { other.receive("deleteAll", "ChatMessage", json, user.id); });
      }
      return null;
    }
    const source = this.messages.get(write.id);
    if (!source) throw new ServerRefusal(`No message ${write.id}.`);
    if (!user.isGM && source.author !== user.id) throw new ServerRefusal(`${user.name} may not change a message by ${source.author}.`);
    if (write.op === "delete") {
      this.messages.delete(write.id);
      this.applied.push({ user: user.id, write });
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

  /** A token's update: a GM, or an owner of the token's actor. The answer and the broadcast are the whole scene. */
  #writeToken(client: StrictClient, write: Write): SceneSource {
    if (write.collection !== "Token") throw new ServerRefusal("Bad write.");
    const scene = this.scenes.get(write.sceneId);
    const token = scene?.tokens.find((t) => t._id === write.id);
    if (!scene || !token) throw new ServerRefusal(`No token ${write.id}.`);
    const actor = this.actors.get(token.actorId);
    if (!client.user.isGM && !(actor && this.mayWriteActor(client.user, actor))) throw new ServerRefusal(`${client.user.name} may not move ${write.id}.`);
    applyUpdate(token, write.data);
    this.applied.push({ user: client.user.id, write });
    this.#broadcast("update", "Scene", scene, client);
    return scene;
  }

  /** A template placed on a scene: by anyone, as themselves (the server stamps the author). */
  #writeScene(client: StrictClient, write: Write): SceneSource {
    if (write.op !== "createTemplate") throw new ServerRefusal("Bad write.");
    const user = client.user;
    const scene = this.scenes.get(write.id);
    if (!scene) throw new ServerRefusal(`No scene ${write.id}.`);
    const data = write.data;
    if (typeof data.author === "string" && data.author !== user.id && !user.isGM) throw new ServerRefusal(`${user.name} may not place a template as ${data.author}.`);
    const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    scene.templates.push({
      _id: this.newId("tmpl"),
      author: typeof data.author === "string" ? data.author : user.id,
      t: typeof data.t === "string" ? data.t : "circle",
      x: num(data.x),
      y: num(data.y),
      distance: num(data.distance),
      direction: num(data.direction),
      flags: (data.flags ?? {}) as Json,
    });
    this.applied.push({ user: user.id, write });
    this.#broadcast("update", "Scene", scene, client);
    return scene;
  }

  /** A square-grid scene of `columns` × `rows` squares of `size` pixels, with no padding. */
  addScene(id: string, columns: number, rows: number, size = 100): void {
    this.scenes.set(id, { _id: id, grid: { size, type: 1, distance: 1 }, dimensions: { sceneX: 0, sceneY: 0, sceneWidth: columns * size, sceneHeight: rows * size }, tokens: [], templates: [] });
  }

  /** A 1×1 token of an actor on a scene, at square (x, y). */
  addToken(sceneId: string, id: string, actorId: string, x: number, y: number): void {
    const scene = this.scenes.get(sceneId);
    if (!scene) throw new Error(`No scene ${sceneId}.`);
    scene.tokens.push({ _id: id, actorId, x: x * scene.grid.size, y: y * scene.grid.size, width: 1, height: 1, hidden: false, flags: {} });
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
  get defeated(): boolean {
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

/**
 * A scene's embedded tokens as a client holds them: an EmbeddedCollection's members our code
 * reads (get by id, find, filter, map, iteration, contents, size).
 */
class ClientTokens {
  constructor(private readonly all: readonly ClientToken[]) {}
  get contents(): ClientToken[] {
    return [...this.all];
  }
  get size(): number {
    return this.all.length;
  }
  get(id: string): ClientToken | undefined {
    return this.all.find((t) => t.id === id);
  }
  find(fn: (t: ClientToken) => boolean): ClientToken | undefined {
    return this.all.find(fn);
  }
  filter(fn: (t: ClientToken) => boolean): ClientToken[] {
    return this.all.filter(fn);
  }
  map<T>(fn: (t: ClientToken) => T): T[] {
    return this.all.map(fn);
  }
  [Symbol.iterator](): Iterator<ClientToken> {
    return this.all[Symbol.iterator]();
  }
}

/** A scene as a client holds it: its grid, dimensions, tokens and templates; tokens move and templates are made through the server. */
export class ClientScene {
  constructor(
    private readonly client: StrictClient,
    public source: SceneSource,
  ) {}
  get id(): string {
    return this.source._id;
  }
  get grid(): SceneSource["grid"] {
    return this.source.grid;
  }
  get dimensions(): SceneSource["dimensions"] {
    return this.source.dimensions;
  }
  get tokens(): ClientTokens {
    return new ClientTokens(this.source.tokens.map((t) => new ClientToken(this.client, this, t._id)));
  }
  get templates(): ClientTemplate[] {
    return this.source.templates.map((t) => new ClientTemplate(this, t));
  }
  async createEmbeddedDocuments(name: string, data: readonly object[]): Promise<ClientTemplate[]> {
    if (name !== "MeasuredTemplate") throw new Error(`The strict table's scenes make templates only, not ${name}.`);
    const made: ClientTemplate[] = [];
    for (const d of data) {
      const answer = await this.client.write({ op: "createTemplate", collection: "Scene", id: this.id, data: wire(d) as Json });
      const last = (answer as SceneSource | null)?.templates.at(-1);
      if (last) made.push(new ClientTemplate(this, last));
    }
    return made;
  }
  /** A token or template of this scene by UUID. */
  find(uuid: string): ClientToken | ClientTemplate | null {
    return this.tokens.find((t) => t.uuid === uuid) ?? this.templates.find((t) => t.uuid === uuid) ?? null;
  }
}

/** A token document as a client holds it: read through its scene's current source, moved through the server. */
export class ClientToken extends TokenDocumentBase {
  constructor(
    private readonly client: StrictClient,
    readonly parent: ClientScene,
    readonly id: string,
  ) {
    super();
  }
  get #source(): TokenSource {
    const t = this.client.scenes.get(this.parent.id)?.source.tokens.find((x) => x._id === this.id);
    if (!t) throw new Error(`Token ${this.id} is gone.`);
    return t;
  }
  get uuid(): string {
    return `Scene.${this.parent.id}.Token.${this.id}`;
  }
  get actorId(): string {
    return this.#source.actorId;
  }
  get actor(): ClientActor | null {
    return this.client.actors.get(this.#source.actorId) ?? null;
  }
  get x(): number {
    return this.#source.x;
  }
  get y(): number {
    return this.#source.y;
  }
  get width(): number {
    return this.#source.width;
  }
  get height(): number {
    return this.#source.height;
  }
  get hidden(): boolean {
    return this.#source.hidden;
  }
  get flags(): Json {
    return this.#source.flags;
  }
  async update(data: Json): Promise<this> {
    await this.client.write({ op: "update", collection: "Token", sceneId: this.parent.id, id: this.id, data });
    return this;
  }
}

/** A template as a client holds it (MeasuredTemplateDocument). */
export class ClientTemplate {
  readonly documentName = "MeasuredTemplate";
  constructor(
    readonly parent: ClientScene,
    readonly source: TemplateSource,
  ) {}
  get id(): string {
    return this.source._id;
  }
  get uuid(): string {
    return `Scene.${this.parent.id}.MeasuredTemplate.${this.source._id}`;
  }
  get x(): number {
    return this.source.x;
  }
  get y(): number {
    return this.source.y;
  }
  get direction(): number {
    return this.source.direction;
  }
  get flags(): Json {
    return this.source.flags;
  }
  get author(): { id: string } {
    return { id: this.source.author };
  }
}

type HookFn = (...args: unknown[]) => unknown;

export class StrictClient {
  connected = false;
  actors = new Map<string, ClientActor>();
  messages = new Map<string, ClientMessage>();
  combats = new Map<string, ClientCombat>();
  scenes = new Map<string, ClientScene>();
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
    this.scenes = new Map([...this.table.server.scenes.values()].map((c) => [c._id, new ClientScene(this, wire(c))]));
    for (const s of [...this.table.server.actors.values(), ...this.table.server.messages.values(), ...this.table.server.combats.values()]) {
      if (!("whisper" in s) || this.table.server.mayRead(this.user, s as MessageSource)) this.received.push(JSON.stringify(s));
    }
    this.hooks.clear();
    // The services the root (src/foundry/register.ts) hands the router: Foundry's turn directory and bridge.
    this.router = new QueryRouter(foundryEnvironment, { turns: foundryTurnDirectory, combat: turnCombatBridge }, new LockTable(this.table.lockTimeoutMs), this.table.answerTimeoutMs);
    this.run(() => {
      for (const query of CASE_QUERIES) this.router.register<unknown, unknown>(query);
      registerRequestHooks(this.router);
      // The root registers it too: the GM's records written again after a Clear Chat Log.
      registerKeptRecords();
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
    const delivered = this.table.server.queued();
    const next = this.#inbox
      .then(() => this.table.server.delay())
      .then(() => {
        try {
          return fn();
        } finally {
          delivered();
        }
      });
    this.#inbox = next.catch(() => undefined);
    return next;
  }

  async write(write: Write): Promise<Json | null> {
    if (!this.connected) throw new Error(`${this.user.name}'s client is disconnected.`);
    const answer = JSON.parse(await this.table.server.write(this, JSON.stringify(write))) as Json | null;
    // Foundry updates the writer's own copy when the server answers, then runs its hooks there too (a deletion removes it).
    if (write.op === "delete" || write.op === "deleteAll") this.#removeMessages(write.op === "delete" ? [write.id] : [...this.messages.keys()], this.user.id);
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
  #store(collection: string, source: Json): ClientActor | ClientMessage | ClientCombat | ClientScene {
    const id = String(source._id);
    if (collection === "Scene" || collection === "Token") {
      const held = this.scenes.get(id);
      if (held) held.source = source as SceneSource;
      else this.scenes.set(id, new ClientScene(this, source as SceneSource));
      return this.scenes.get(id) as ClientScene;
    }
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
  receive(event: "create" | "update" | "delete" | "deleteAll", collection: Collection, json: string, userId: string): void {
    if (!this.connected) return;
    if (event === "deleteAll") {
      this.#removeMessages(JSON.parse(json) as string[], userId);
      return;
    }
    this.received.push(json);
    const source = JSON.parse(json) as Json;
    if (event === "delete") {
      if (collection === "ChatMessage") this.#removeMessages([String(source._id)], userId);
      return;
    }
    const doc = this.#store(collection, source);
    if (collection === "ChatMessage") void this.run(() => this.call(event === "create" ? "createChatMessage" : "updateChatMessage", doc, {}, {}, userId));
  }

  /** Messages deleted: all removed from this client first, then `deleteChatMessage` for each (as Foundry handles one delete operation). */
  #removeMessages(ids: readonly string[], userId: string): void {
    const docs = ids.flatMap((id) => {
      const doc = this.messages.get(id);
      this.messages.delete(id);
      return doc ? [doc] : [];
    });
    for (const doc of docs) void this.run(() => this.call("deleteChatMessage", doc, {}, userId));
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

/** Turns of the event loop in a row with nothing in flight before the table counts as quiet. */
const QUIET_TURNS = 3;

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

  /**
   * Waits until the table is quiet: no seeded pause pending and no delivery queued on any
   * socket, over several turns of the event loop in a row. Every step between clients (the
   * server's work, each delivery, each answer) waits a seeded pause, and what runs between two
   * pauses runs within one turn, so a quiet table has every delivery made and every handler
   * done, or waiting on something no pause will bring (a held write, a lock or answer
   * timeout: a test that needs such a timer to fire waits for it itself). Fails after `limitMs`
   * of real time rather than hang.
   */
  async settle(limitMs = 10_000): Promise<void> {
    const started = Date.now();
    for (let quietTurns = 0; quietTurns < QUIET_TURNS; ) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      quietTurns = this.server.inFlight === 0 ? quietTurns + 1 : 0;
      if (Date.now() - started > limitMs) throw new Error(`The strict table was still busy after ${limitMs} ms (${this.server.inFlight} in flight).`);
    }
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
          return wire(settings.get(id));
        },
        // ClientSettings#set of a world setting: stored on the server as a Setting document, which
        // only a user with SETTINGS_MODIFY (by default the GM and Assistant GM) may write
        // (foundryvtt.com/api ClientSettings#set, USER_PERMISSIONS.SETTINGS_MODIFY). Through JSON.
        set: async (ns: string, key: string, value: unknown) => {
          const client = current();
          const id = `${ns}.${key}`;
          if (!settings.has(id)) throw new Error(`Setting ${id} is not registered on the strict table.`);
          if (!client.connected) throw new Error(`${client.user.name}'s client is disconnected.`);
          if (!client.user.isGM) throw new ServerRefusal(`${client.user.name} may not modify the world setting ${id}.`);
          await client.table.server.delay();
          if (!client.table.server.clients.has(client)) throw new Error(`${client.user.name}'s client is disconnected.`);
          settings.set(id, wire(value));
          return wire(value);
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
  // An actor (`Actor.<id>`) or one of its items (`Actor.<id>.Item.<id>`), or a token
  // (`Scene.<id>.Token.<id>`), from this client's copy.
  const find = (uuid: string): unknown => {
    const scene = /^Scene\.([A-Za-z0-9]+)\./.exec(uuid);
    if (scene?.[1]) return current().scenes.get(scene[1])?.find(uuid) ?? null;
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
      async deleteDocuments(ids: string[], options: { deleteAll?: boolean } = {}): Promise<void> {
        if (options.deleteAll === true) {
          await current().write({ op: "deleteAll", collection: "ChatMessage" });
          return;
        }
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

/** A scene (100 px squares, one unit each) with a token for each actor at its square. */
export function seatScene(table: StrictTable, id: string, tokens: readonly { actorId: string; x: number; y: number; hidden?: boolean }[]): void {
  table.server.scenes.set(id, {
    _id: id,
    grid: { size: 100, type: 1, distance: 1 },
    dimensions: { sceneX: 0, sceneY: 0, sceneWidth: 3000, sceneHeight: 2000 },
    tokens: tokens.map((t, i) => ({ _id: `tok${String(i).padStart(13, "0")}`, actorId: t.actorId, x: t.x * 100, y: t.y * 100, width: 1, height: 1, hidden: t.hidden === true, flags: {} })),
    templates: [],
  });
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
