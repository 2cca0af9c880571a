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
 * - A whispered message reaches only its author and its recipients, GMs included: a GM not
 *   named in `whisper` never receives it, and a GM added after it was written is not one of its
 *   recipients (ChatMessage#visible, foundryvtt.com/api ChatMessage: "whispered messages may
 *   only be seen by their author and the recipients"; the server sends a whisper to those users
 *   only). Our code whispers to the GM users it finds when it writes.
 * - An update merges (./foundry-update.ts: `expandObject`, then `mergeObject` recursively, with
 *   the `-=key` deletion on 13 and the ForcedDeletion operator on 14).
 * - A `system` is validated by the document's real data model as the server writes it (the
 *   combat's, the combatant's, a character's after its migrateData: Foundry cleans the source, dropping keys the schema does not
 *   define, and refuses a value its fields reject: DataModel#validate, foundryvtt.com/api
 *   DataModel). Checked with ./schema-validator.ts over the models in src/foundry/data.
 * - A combatant: a GM, or an owner of its actor, may update its `system`, `flags`,
 *   `initiative` and `defeated`, and create or delete it (BaseCombatant's permissions in v13:
 *   an owner may update those keys only; foundryvtt.com/api/v13 BaseCombatant,
 *   Combatant#getUserLevel follows the actor). Any other key is the GM's.
 * - `ownership` (an actor's) is written by a GM only (foundryvtt.com/api Document#canUserModify:
 *   a non-GM may not change ownership).
 * - A create names its own `_id` only with `{keepId: true}` (foundryvtt.com/api
 *   Document.create's `keepId` option; otherwise the server makes a new id).
 * - Chat messages keep `flags`, `speaker` (ChatMessage.getSpeaker: `{scene, actor, token,
 *   alias}`), and are in `game.messages` on every client that received them.
 * - Every setting registered by the real registration (src/foundry/core/settings.ts) exists,
 *   with its default; a world setting lives on the server, a client setting on each client
 *   (ClientSettings#register's `scope`); reading one not registered throws, as Foundry does.
 * - A scene's tokens: a token may be moved by a GM or by an owner of its actor (a token's
 *   permission is its actor's: foundryvtt.com/api TokenDocument#getUserLevel); the change is
 *   broadcast to every client as the scene's embedded token update.
 * - `game.users.activeGM` is each client's own view: the active GM user it knows of, "non-assistant
 *   if possible" (foundryvtt.com/api Users#activeGM), then the lowest id. A client learns that a
 *   user came or went from the server's socket event (the `userConnected` hook), in order
 *   with what else the server sent it, so two clients can briefly disagree, as in the field.
 * - A world setting is written only by a GM (ClientSettings#set; USER_PERMISSIONS.SETTINGS_MODIFY),
 *   through JSON; a player's write is refused.
 * - A scene's MeasuredTemplates: any user may create one (core permission TEMPLATE_CREATE, a
 *   player's by default), as themselves: the server sets `author` to the creating user and
 *   refuses another's unless a GM (BaseMeasuredTemplate's author field). Templates and tokens
 *   are embedded in their scene; every client holds a copy of it.
 * - Foundry 14 (from memory of the public v14 release notes, not a cited page): MeasuredTemplates
 *   are deprecated in favour of scene Regions and `TEMPLATE_CREATE` is replaced by
 *   `REGION_CREATE` (a player's by default), so on 14 any user may create a Region, as themselves
 *   (author stamped as a template's); creating a template there logs a deprecation warning
 *   (`server.deprecations`). On 13 a player may not create a Region (GM only).
 * - Handlers interleave: every step (the server's work, each delivery to each client, each
 *   answer) waits a seeded random delay, so concurrent requests really race.
 * - A client can drop between any two writes: its writes then fail, the others are told the
 *   user left (`userConnected`), and it may come back later with a fresh copy of the world and
 *   nothing in memory (a reload).
 *
 * Each client's code runs with its own globals (`game`, `ui`, `Hooks`, `fromUuid` …): the
 * globals are proxies that read the client whose code is running, carried through every
 * await by Node's AsyncLocalStorage, so two GMs' handlers can interleave without sharing
 * anything but the server, as in the field. Each client also runs its own copy of the
 * project's modules (./strict-client-modules.ts, loaded afresh on every connect, as a browser
 * tab loads the system): no lock map, router or cache is shared between two clients, and a
 * reload forgets what the module held.
 */
import "./foundry-globals";
import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, vi } from "vitest";
import { ActorBase, FakeActor, TokenDocumentBase, characterSource } from "./exchange-world";
import { localize, renderTemplate } from "./handlebars";
import { UNIVERSAL_TABLE } from "../../src/rules/index";
import type { QueryRouter, AskingUser, QueryDefinition, QueryResult } from "../../src/foundry/requests/router";
import type { CaseServices } from "../../src/foundry/register";
import { freshCombatSystem, freshCombatantSystem } from "../../src/foundry/combat/state";
import { registerSettings } from "../../src/foundry/core/settings";
import { combatSchema } from "../../src/foundry/data/combat/combat";
import { combatantSchema } from "../../src/foundry/data/combat/combatant";
import { HeroData, NpcData } from "../../src/foundry/data/actor/character";
import { foundryDouble, type DataField } from "./foundry-double";
import { checkSchema } from "./schema-validator";
import { ForcedDeletion, applyUpdate, encodeDeletions, touchedKeys } from "./foundry-update";
import { loadClientModules, type ClientModules } from "./strict-client-modules";
import { asClicked } from "./card-click";

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

export const OWNER = 3;

/** CONST.USER_ROLES (foundryvtt.com/api CONST.USER_ROLES): PLAYER 1, TRUSTED 2, ASSISTANT 3, GAMEMASTER 4. */
export const USER_ROLES = { PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 } as const;

export interface UserRecord extends AskingUser {
  /** Connected to the server (the server's truth; each client has its own view of it). */
  active: boolean;
  role: number;
}

/** A registered setting (ClientSettings#register's config: scope and default). */
interface SettingConfig {
  readonly scope: "world" | "client" | "user";
  readonly default: unknown;
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
  effects: { _id: string; statuses: string[]; flags: Json; name?: string; duration?: Json }[];
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
  flags: Json;
  /** Set by the author (Foundry's ChatMessage `timestamp` takes what the creating client sends, else now). */
  timestamp: number;
  /** Stamped by the server (Foundry's `_stats.createdTime`, DocumentStatsField on foundryvtt.com/api: no client sets it). */
  _stats: { createdTime: number };
}

interface CombatantSource extends Json {
  _id: string;
  name: string;
  actorId: string;
  system: Json;
  initiative: number | null;
  hidden: boolean;
  defeated: boolean;
  flags?: Json;
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

/** A Region on a scene (RegionDocument: its shapes as sent, its flags), its author stamped by the server (v14). */
interface RegionSource extends Json {
  _id: string;
  author: string;
  shapes: Json[];
  flags: Json;
}

/** A scene: its grid, its dimensions (Scene#dimensions), its tokens, templates and Regions. */
export interface SceneSource extends Json {
  _id: string;
  grid: { size: number; type: number; distance: number };
  dimensions: { sceneX: number; sceneY: number; sceneWidth: number; sceneHeight: number };
  tokens: TokenSource[];
  templates: TemplateSource[];
  regions?: RegionSource[];
}

type Write =
  | { op: "createTemplate" | "createRegion"; collection: "Scene"; id: string; data: Json }
  | { op: "update"; collection: "Combat"; id: string; data: Json }
  | { op: "updateCombatants"; collection: "Combat"; id: string; updates: Json[] }
  | { op: "createCombatants"; collection: "Combat"; id: string; data: Json[]; keepId: boolean }
  | { op: "deleteCombatants"; collection: "Combat"; id: string; ids: string[] }
  | { op: "create"; collection: "ChatMessage"; data: Json; keepId?: boolean }
  | { op: "update"; collection: "ChatMessage" | "Actor"; id: string; data: Json }
  | { op: "delete"; collection: "ChatMessage"; id: string }
  /** The chat log's Clear (ChatLog flush: `deleteDocuments([], { deleteAll: true })`): one operation, every client removes them all before its hooks run. */
  | { op: "deleteAll"; collection: "ChatMessage" }
  | { op: "createEffect" | "deleteEffect"; collection: "Actor"; id: string; status: string }
  | { op: "updateEffect"; collection: "Actor"; id: string; status: string; data: Json }
  | { op: "createEffects"; collection: "Actor"; id: string; data: Json[] }
  | { op: "deleteEffects"; collection: "Actor"; id: string; ids: string[] }
  | { op: "update"; collection: "Token"; sceneId: string; id: string; data: Json };

type Collection = "ChatMessage" | "Actor" | "Combat" | "Scene";

/** Why the server refused a write. */
export class ServerRefusal extends Error {}

/** The keys of a combatant its owners may update (BaseCombatant, v13); the rest are the GM's. */
const OWNER_COMBATANT_KEYS: ReadonlySet<string> = new Set(["system", "flags", "initiative", "defeated"]);

let combatModelSchema: Record<string, DataField> | null = null;
let combatantModelSchema: Record<string, DataField> | null = null;
/** The combat's and combatant's real schemas (built on first use: the fields need the `foundry` global). */
const COMBAT_SCHEMA = (): Record<string, DataField> => (combatModelSchema ??= combatSchema() as unknown as Record<string, DataField>);
const COMBATANT_SCHEMA = (): Record<string, DataField> => (combatantModelSchema ??= combatantSchema() as unknown as Record<string, DataField>);
/** The characters' real models (hero, npc): their schema and their migrateData (run first, as Foundry does). */
const ACTOR_MODELS = { hero: HeroData, npc: NpcData } as unknown as Record<"hero" | "npc", { defineSchema(): Record<string, DataField>; migrateData(source: Json): Json }>;
const actorSchemas = new Map<string, Record<string, DataField>>();
const ACTOR_SCHEMA = (type: "hero" | "npc"): Record<string, DataField> => {
  const held = actorSchemas.get(type) ?? ACTOR_MODELS[type].defineSchema();
  actorSchemas.set(type, held);
  return held;
};

/**
 * A `system` as the server stores it: cleaned by the schema (keys it does not define dropped,
 * missing ones given their initial value) and validated (a value a field rejects refuses the
 * write with the field's path), as DataModel#updateSource does.
 */
function validSystem(schema: () => Record<string, DataField>, raw: unknown, what: string, migrate: (source: Json) => Json = (source) => source): Json {
  const fields = schema();
  const system = migrate(typeof raw === "object" && raw !== null && !Array.isArray(raw) ? wire(raw as Json) : {});
  for (const key of Object.keys(system)) if (!(key in fields)) Reflect.deleteProperty(system, key);
  for (const [key, field] of Object.entries(fields)) if (system[key] === undefined) system[key] = field.getInitialValue();
  const problems = checkSchema(fields, system).filter((p) => !p.endsWith("is not a field of the schema"));
  if (problems.length > 0) throw new ServerRefusal(`The ${what}'s system is not valid: ${problems.join("; ")}`);
  return system;
}

/** Makes `target` hold exactly `next`'s keys and values (a document's source replaced in place). */
function replaceContents(target: Json, next: Json): void {
  for (const key of Object.keys(target)) if (!(key in next)) Reflect.deleteProperty(target, key);
  Object.assign(target, next);
}

export class StrictServer {
  readonly rng: () => number;
  readonly users = new Map<string, UserRecord>();
  readonly actors = new Map<string, ActorSource>();
  readonly messages = new Map<string, MessageSource>();
  readonly combats = new Map<string, CombatSource>();
  readonly scenes = new Map<string, SceneSource>();
  /** Every registered setting (by "namespace.key"), from the real registration (see StrictTable). */
  readonly registered = new Map<string, SettingConfig>();
  /** The world settings' values (a Setting document each on the server): the registered default until a GM sets one. */
  readonly settings = new Map<string, unknown>();
  readonly clients = new Set<StrictClient>();
  /** Writes that never get an answer (a hung server call), by predicate. */
  hang: ((client: StrictClient, write: Write) => boolean) | null = null;
  /** Writes the server holds until a promise settles (a determinism hook: the test decides what lands first). */
  gate: ((client: StrictClient, write: Write) => Promise<void> | null) | null = null;
  /** The server's own log of every write it applied, for figures. */
  readonly applied: { user: string; write: Write }[] = [];
  /** The v14 deprecation warnings the writes logged (a template created on 14). */
  readonly deprecations: string[] = [];
  #ids = 0;

  constructor(
    seed: number,
    /** Foundry's major version the server runs (the table's). */
    readonly generation: 13 | 14 = 13,
  ) {
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

  /**
   * A seeded pause: 1 to 3 turns of the event loop, so what two clients do at once finishes in
   * a seeded order, as deliveries over a real socket race. Turns, not milliseconds: the order is
   * what a race changes, and a millisecond timer (Node's least) cost a whole fight thousands of
   * idle milliseconds.
   */
  async delay(): Promise<void> {
    this.#inFlight += 1;
    await eventLoopTurns(1 + Math.floor(this.rng() * 3));
    // The test is over once it removed the table's globals (vi.unstubAllGlobals), or the file
    // ended: what was still on its way stops here, as a closed tab receives nothing, instead of
    // running without them.
    if (fileEnded || !tableGlobalsInstalled()) await new Promise<never>(() => undefined);
    this.#inFlight -= 1;
  }

  /** Counts a delivery queued on a client's socket as in flight; call what it returns once the delivery is made. */
  queued(): () => void {
    this.#inFlight += 1;
    return () => {
      this.#inFlight -= 1;
    };
  }

  /** Registers a setting (ClientSettings#register): a world setting starts at its default. */
  register(id: string, config: SettingConfig): void {
    if (this.registered.has(id)) throw new Error(`The setting ${id} is registered twice.`);
    this.registered.set(id, config);
    if (config.scope === "world") this.settings.set(id, wire(config.default));
  }

  addUser(id: string, name: string, role: number): UserRecord {
    const user: UserRecord = { id, name, role, isGM: role >= USER_ROLES.ASSISTANT, active: false };
    this.users.set(id, user);
    return user;
  }

  addActor(id: string, name: string, type: "hero" | "npc", system: Json, owners: readonly string[], items: ItemSource[] = []): void {
    this.actors.set(id, { _id: id, name, type, system: wire(system), items: wire(items), flags: {}, ownership: Object.fromEntries(owners.map((o) => [o, OWNER])), effects: [] });
  }

  mayWriteActor(user: UserRecord, actor: ActorSource): boolean {
    return user.isGM || (actor.ownership[user.id] ?? 0) >= OWNER;
  }

  /** Whether the server sends a message to a user: public, or whispered to them, or theirs. */
  mayRead(user: UserRecord, message: MessageSource): boolean {
    return message.whisper.length === 0 || message.author === user.id || message.whisper.includes(user.id);
  }

  /** A new document's id: its own with `keepId` (a well-formed id not in use), else a new one. */
  #idFor(data: Json, keepId: boolean | undefined, prefix: string, taken: (id: string) => boolean): string {
    const wanted = data._id;
    if (!keepId || wanted === undefined || wanted === null) return this.newId(prefix);
    if (typeof wanted !== "string" || !/^[A-Za-z0-9]{16}$/.test(wanted)) throw new ServerRefusal(`"${JSON.stringify(wanted)}" is not a valid document id.`);
    if (taken(wanted)) throw new ServerRefusal(`A document with the id ${wanted} already exists.`);
    return wanted;
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
        _id: this.#idFor(data, write.keepId, "msg", (id) => this.messages.has(id)),
        type: typeof data.type === "string" ? data.type : "base",
        author: typeof data.author === "string" ? data.author : user.id,
        whisper: Array.isArray(data.whisper) ? (data.whisper as string[]) : [],
        system: (data.system ?? {}) as Json,
        rolls: Array.isArray(data.rolls) ? (data.rolls as string[]) : [],
        content: typeof data.content === "string" ? data.content : "",
        speaker: (data.speaker ?? {}) as Json,
        flags: (data.flags ?? {}) as Json,
        timestamp: typeof data.timestamp === "number" ? data.timestamp : Date.now(),
        _stats: { createdTime: Date.now() },
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
    // Foundry checks the merged result against the schema: author, whisper, rolls keep their types.
    const next = wire(source);
    applyUpdate(next, write.data);
    if (typeof next.author !== "string" || !Array.isArray(next.whisper) || !Array.isArray(next.rolls)) throw new ServerRefusal("The message update does not fit the ChatMessage schema.");
    replaceContents(source, next);
    this.applied.push({ user: user.id, write });
    this.#broadcast("update", "ChatMessage", source, client);
    return source;
  }

  /** Whether `user` owns a combatant: a GM, or an owner of its actor (Combatant#getUserLevel follows the actor). */
  mayWriteCombatant(user: UserRecord, combatant: Pick<CombatantSource, "actorId">): boolean {
    if (user.isGM) return true;
    const actor = this.actors.get(combatant.actorId);
    return actor !== undefined && this.mayWriteActor(user, actor);
  }

  /**
   * A combat and its combatants. The combat itself is the GM's; a combatant is its actor's
   * owners' too, for the keys BaseCombatant lets an owner write (system, flags, initiative,
   * defeated), and to create or delete it. Every `system` written is cleaned and validated by
   * the real data model; a rejected one refuses the whole write, changing nothing.
   */
  #writeCombat(client: StrictClient, write: Write): CombatSource {
    if (write.collection !== "Combat") throw new ServerRefusal("Bad write.");
    const user = client.user;
    const stored = this.combats.get(write.id);
    if (!stored) throw new ServerRefusal(`No combat ${write.id}.`);
    const source = wire(stored);
    switch (write.op) {
      case "update":
        if (!user.isGM) throw new ServerRefusal(`${user.name} may not change the combat.`);
        applyUpdate(source, write.data);
        source.system = validSystem(COMBAT_SCHEMA, source.system, `combat ${source._id}`);
        break;
      case "updateCombatants":
        for (const update of write.updates) {
          const combatant = source.combatants.find((c) => c._id === update._id);
          if (!combatant) throw new ServerRefusal(`No combatant ${String(update._id)}.`);
          const { _id: _ignored, ...rest } = update;
          if (!this.mayWriteCombatant(user, combatant)) throw new ServerRefusal(`${user.name} does not own the combatant ${combatant.name}.`);
          const foreign = touchedKeys(rest).filter((k) => !OWNER_COMBATANT_KEYS.has(k));
          if (!user.isGM && foreign.length > 0) throw new ServerRefusal(`${user.name} may not change ${foreign.join(", ")} of a combatant.`);
          applyUpdate(combatant, rest);
          combatant.system = validSystem(COMBATANT_SCHEMA, combatant.system, `combatant ${combatant._id}`);
        }
        break;
      case "createCombatants":
        for (const data of write.data) {
          const actorId = typeof data.actorId === "string" ? data.actorId : "";
          if (!this.actors.has(actorId)) throw new ServerRefusal(`No actor ${actorId} to add to the combat.`);
          if (!this.mayWriteCombatant(user, { actorId })) throw new ServerRefusal(`${user.name} may not add ${actorId} to the combat.`);
          const _id = this.#idFor(data, write.keepId, "cbt", (id) => source.combatants.some((c) => c._id === id));
          const made: CombatantSource = {
            _id,
            name: typeof data.name === "string" ? data.name : (this.actors.get(actorId)?.name ?? ""),
            actorId,
            system: {},
            initiative: typeof data.initiative === "number" ? data.initiative : null,
            hidden: data.hidden === true && user.isGM,
            defeated: data.defeated === true,
            flags: (data.flags ?? {}) as Json,
          };
          made.system = validSystem(COMBATANT_SCHEMA, data.system ?? {}, `combatant ${_id}`);
          source.combatants.push(made);
        }
        break;
      case "deleteCombatants":
        for (const id of write.ids) {
          const combatant = source.combatants.find((c) => c._id === id);
          if (!combatant) throw new ServerRefusal(`No combatant ${id}.`);
          if (!this.mayWriteCombatant(user, combatant)) throw new ServerRefusal(`${user.name} may not remove ${combatant.name} from the combat.`);
          source.combatants = source.combatants.filter((c) => c._id !== id);
        }
        break;
    }
    replaceContents(stored, source);
    this.applied.push({ user: user.id, write });
    this.#broadcast("update", "Combat", stored, client);
    return stored;
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
    if (write.op !== "createTemplate" && write.op !== "createRegion") throw new ServerRefusal("Bad write.");
    const user = client.user;
    const scene = this.scenes.get(write.id);
    if (!scene) throw new ServerRefusal(`No scene ${write.id}.`);
    const data = write.data;
    if (typeof data.author === "string" && data.author !== user.id && !user.isGM) throw new ServerRefusal(`${user.name} may not place a template as ${data.author}.`);
    if (write.op === "createRegion") {
      if (this.generation < 14 && !user.isGM) throw new ServerRefusal(`${user.name} may not create a Region on 13.`);
      (scene.regions ??= []).push({ _id: this.newId("regn"), author: typeof data.author === "string" ? data.author : user.id, shapes: Array.isArray(data.shapes) ? (data.shapes as Json[]) : [], flags: (data.flags ?? {}) as Json });
      this.applied.push({ user: user.id, write });
      this.#broadcast("update", "Scene", scene, client);
      return scene;
    }
    if (this.generation >= 14) this.deprecations.push("MeasuredTemplate is deprecated: use a scene Region");
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
      case "update": {
        const touched = touchedKeys(write.data);
        if (!user.isGM && touched.includes("ownership")) throw new ServerRefusal(`${user.name} may not change who owns ${source.name}.`);
        const next = wire(source);
        applyUpdate(next, write.data);
        if (touched.includes("system")) next.system = validSystem(() => ACTOR_SCHEMA(source.type), next.system, `actor ${source.name}`, (raw) => ACTOR_MODELS[source.type].migrateData(raw));
        replaceContents(source, next);
        break;
      }
      case "createEffect": {
        const status = write.status;
        if (!source.effects.some((e) => e.statuses.includes(status))) source.effects.push({ _id: this.newId("eff"), statuses: [status], flags: {} });
        break;
      }
      // Actor#createEmbeddedDocuments("ActiveEffect", data) and deleteEmbeddedDocuments (foundryvtt.com/api
      // ClientDocumentMixin): the actor's owners or a GM; a created effect gets a fresh _id.
      case "createEffects": {
        for (const d of write.data) source.effects.push({ statuses: [], flags: {}, ...wire(d), _id: this.newId("eff") });
        break;
      }
      case "deleteEffects": {
        const ids = new Set(write.ids);
        source.effects = source.effects.filter((e) => !ids.has(e._id));
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

/** A write with its v14 deletions (ForcedDeletion instances) in the form the wire carries (./foundry-update.ts). */
function withDeletionsEncoded(write: Write): Write {
  if ("data" in write && !Array.isArray(write.data)) return { ...write, data: encodeDeletions(write.data) } as Write;
  return write;
}

/** The client whose code is running (AsyncLocalStorage carries it through every await). */
const running = new AsyncLocalStorage<StrictClient>();

// Node 20 tracks every promise while any AsyncLocalStorage is enabled, and a worker runs file
// after file: once the file is done, this one stops, so the files after it (Playwright's
// thousands of promises) do not pay for it.
afterAll(() => {
  fileEnded = true;
  running.disable();
});

/** Set when the test file ends: a pause still on its way then stops (see StrictServer#delay). */
let fileEnded = false;

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
    readonly id: string = "",
    readonly name: string = "",
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
  /** The prepared `system` of the source it was built from: Foundry prepares an actor's data once per change, not per read. */
  #prepared: { source: ActorSource; system: ReturnType<typeof FakeActor.build> } | null = null;
  get system(): ReturnType<typeof FakeActor.build> {
    if (this.#prepared?.source !== this.source) this.#prepared = { source: this.source, system: FakeActor.build(this.source.type, this.source.system) };
    return this.#prepared.system;
  }
  get flags(): Json {
    return this.source.flags;
  }
  /** Its items, as the item documents our code reads (type, name, system, uuid, actor). */
  get items(): { documentName: "Item"; id: string; uuid: string; name: string; type: string; system: Json; actor: ClientActor }[] {
    return this.source.items.map((i) => ({ documentName: "Item", id: i._id, uuid: `${this.uuid}.Item.${i._id}`, name: i.name, type: i.type, system: i.system, actor: this }));
  }
  get effects(): ClientEffect[] {
    return this.source.effects.map((e) => new ClientEffect(this.client, this.id, new Set(e.statuses), e.flags, e._id, e.name ?? ""));
  }
  async createEmbeddedDocuments(name: string, data: Json[]): Promise<void> {
    if (name !== "ActiveEffect") throw new Error(`The table's actors embed only ActiveEffects, not ${name}.`);
    await this.client.write({ op: "createEffects", collection: "Actor", id: this.id, data });
  }
  async deleteEmbeddedDocuments(name: string, ids: string[]): Promise<void> {
    if (name !== "ActiveEffect") throw new Error(`The table's actors embed only ActiveEffects, not ${name}.`);
    await this.client.write({ op: "deleteEffects", collection: "Actor", id: this.id, ids });
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
  get _stats(): { createdTime: number } {
    return this.source._stats;
  }
  get flags(): Json {
    return this.source.flags;
  }
  get speaker(): Json {
    return this.source.speaker;
  }
  get whisper(): string[] {
    return this.source.whisper;
  }
  get content(): string {
    return this.source.content;
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
    return this.source.flags ?? {};
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
  async delete(): Promise<this> {
    await this.combat.deleteEmbeddedDocuments("Combatant", [this.id]);
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
    await this.client.write({ op: "updateCombatants", collection: "Combat", id: this.id, updates: updates.map(encodeDeletions) });
  }
  /** Adds combatants (Combat#createEmbeddedDocuments; `keepId` keeps each `_id` given). */
  async createEmbeddedDocuments(_name: "Combatant", data: Json[], options: { keepId?: boolean } = {}): Promise<ClientCombatant[]> {
    const before = new Set(this.source.combatants.map((c) => c._id));
    await this.client.write({ op: "createCombatants", collection: "Combat", id: this.id, data: wire(data), keepId: options.keepId === true });
    return this.combatants.contents.filter((c) => !before.has(c.id));
  }
  async deleteEmbeddedDocuments(_name: "Combatant", ids: string[]): Promise<void> {
    await this.client.write({ op: "deleteCombatants", collection: "Combat", id: this.id, ids: [...ids] });
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
  get regions(): ClientRegion[] {
    return (this.source.regions ?? []).map((r) => new ClientRegion(this, r));
  }
  async createEmbeddedDocuments(name: string, data: readonly object[]): Promise<(ClientTemplate | ClientRegion)[]> {
    if (name !== "MeasuredTemplate" && name !== "Region") throw new Error(`The strict table's scenes make templates and Regions only, not ${name}.`);
    const made: (ClientTemplate | ClientRegion)[] = [];
    for (const d of data) {
      const answer = (await this.client.write({ op: name === "Region" ? "createRegion" : "createTemplate", collection: "Scene", id: this.id, data: wire(d) as Json })) as SceneSource | null;
      const last = name === "Region" ? answer?.regions?.at(-1) : answer?.templates.at(-1);
      if (last) made.push(name === "Region" ? new ClientRegion(this, last as RegionSource) : new ClientTemplate(this, last as TemplateSource));
    }
    return made;
  }
  /** A token, template or Region of this scene by UUID. */
  find(uuid: string): ClientToken | ClientTemplate | ClientRegion | null {
    return this.tokens.find((t) => t.uuid === uuid) ?? this.templates.find((t) => t.uuid === uuid) ?? this.regions.find((r) => r.uuid === uuid) ?? null;
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

/** A Region as a client holds it (RegionDocument, v14: a player may create one). */
export class ClientRegion {
  readonly documentName = "Region";
  constructor(
    readonly parent: ClientScene,
    readonly source: RegionSource,
  ) {}
  get uuid(): string {
    return `Scene.${this.parent.id}.Region.${this.source._id}`;
  }
  get shapes(): Json[] {
    return this.source.shapes;
  }
  get flags(): Json {
    return this.source.flags;
  }
  get author(): { id: string } {
    return { id: this.source.author };
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
  /** This client's reader's own texts for some keys (another language): `game.i18n` and the notifications give them before en.json's. */
  readonly lang = new Map<string, string>();
  router!: QueryRouter<CaseServices>;
  /** This client's own copy of the project's modules (loaded on connect). */
  modules!: ClientModules;
  /** This client's view of who is connected (user id → active), kept by the server's socket events. */
  readonly view = new Map<string, boolean>();
  /** This client's client-scope settings (the browser's localStorage). */
  readonly clientSettings = new Map<string, unknown>();
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
    // The tab loads the system's modules for itself (nothing in memory carries over).
    this.modules = await loadClientModules();
    this.connected = true;
    this.user.active = true;
    this.table.server.clients.add(this);
    // Who is connected, as the server tells a client that joins.
    this.view.clear();
    for (const u of this.table.server.users.values()) this.view.set(u.id, u.active);
    this.clientSettings.clear();
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
    const { QueryRouter, LockTable, foundryEnvironment, foundryTurnDirectory, turnCombatBridge, CASE_QUERIES, registerRequestHooks, registerNpcDefenceHooks, registerKeptRecords } = this.modules;
    this.router = new QueryRouter(foundryEnvironment, { turns: foundryTurnDirectory, combat: turnCombatBridge }, new LockTable(this.table.lockTimeoutMs), this.table.answerTimeoutMs);
    this.run(() => {
      for (const query of CASE_QUERIES) this.router.register<unknown, unknown>(query);
      registerRequestHooks(this.router);
      // As the root does in init (src/foundry/register.ts): the active GM picks NPC defences on the cards it sees created.
      registerNpcDefenceHooks(this.router);
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
    const answer = JSON.parse(await this.table.server.write(this, JSON.stringify(withDeletionsEncoded(write)))) as Json | null;
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

  /**
   * This client's user clicks: the real router asks the active GM (or runs in place for it).
   * The query is this client's own copy (by name), so a handler run here uses this client's
   * modules, not the test file's.
   */
  /** A click that tells its user about a refusal, as the cards' buttons do: this client's own `requestGM` (the notification lands in `notified`). */
  ask<P, R>(query: QueryDefinition<P, R>, payload: unknown): Promise<R | null | undefined> {
    const own = (this.modules.CASE_QUERIES.find((q) => q.name === query.name) ?? query) as QueryDefinition<P, R, never>;
    return this.run(() => this.modules.requestGM(own, asClicked(payload) as P));
  }

  click<P, R>(query: QueryDefinition<P, R>, payload: unknown): Promise<QueryResult<R>> {
    const own = this.modules.CASE_QUERIES.find((q) => q.name === query.name) as QueryDefinition<P, R> | undefined;
    // A card click names the revision of this client's own copy of the card, as card.ts does.
    return this.run(() => this.router.request(own ?? query, asClicked(payload)));
  }

  /** This client's view of `game.users.activeGM`: a connected GM it knows of, a full GM before an Assistant, then the lowest id. */
  activeGM(): UserRecord | null {
    const gms = [...this.table.server.users.values()].filter((u) => u.isGM && this.view.get(u.id) === true);
    gms.sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return gms[0] ?? null;
  }
}

export interface TableOptions {
  readonly seed?: number;
  /** How long one handler may hold a lock. */
  readonly lockTimeoutMs?: number;
  /** How long a player's client waits for an answer. */
  readonly answerTimeoutMs?: number;
  /** Foundry's major version the clients run (`game.release.generation`): 13 (the default) or 14. */
  readonly generation?: 13 | 14;
  /** Users' roles other than the default (the GMs full GMs, Alice and Bob players): say, an Assistant GM. */
  readonly roles?: Partial<Record<keyof typeof TABLE_USERS, number>>;
}

/**
 * This test world's values of the settings our tests lean on (each a registered setting; most
 * are its default, said here so a changed default does not change these tests silently).
 */
const TEST_WORLD_SETTINGS: Readonly<Record<string, unknown>> = {
  "case.damageAppliedBy": "gm",
  "case.hideNpcDefences": true,
  "case.autoNpcConsequences": false,
  "case.damageMethod": "static",
  "case.declaredDodge": false,
  "case.attacksInTurn": true,
  "case.killLossAtOwnWrapUp": false,
  // This test world's Take and Full Hold ruling: the comparison (Foundry's default is the ACTION; tests that need it set it).
  "case.strengthContest": "comparison",
  "case.unconsciousAtZeroHealth": true,
  "case.regenerationTurns": 10,
  "case.initiativeMode": "everyTurn",
  "case.teamInitiative": false,
  "case.slamMovesTokens": false,
  "case.minorFoeRule": "normal",
  // This test world's NPC defences: the GM clicks (the system's default is the declared defence; tests that need it set it).
  "case.npcDefence": "gm",
};

/** The users of the table. */
export const TABLE_USERS = {
  gm: { id: "gm00000000000001", name: "Judge" },
  gm2: { id: "gm00000000000002", name: "Co-Judge" },
  alice: { id: "alice00000000000", name: "Alice" },
  bob: { id: "bob0000000000000", name: "Bob" },
} as const;

/**
 * Resolves after `n` turns of the event loop (`setImmediate`: after the pending I/O and the
 * microtasks of each turn). The strict table's unit of time: its pauses and a test's "a moment
 * later" are counted in turns (see StrictServer#delay).
 */
export async function eventLoopTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

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
  readonly generation: 13 | 14;
  /** Clients of users who joined the world after the table was set (`join`). */
  readonly joined: StrictClient[] = [];

  constructor(options: TableOptions = {}) {
    this.server = new StrictServer(options.seed ?? 1, options.generation ?? 13);
    this.lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 15_000;
    this.generation = options.generation ?? 13;
    const { GAMEMASTER, PLAYER } = USER_ROLES;
    const client = (key: keyof typeof TABLE_USERS, role: number) => new StrictClient(this, this.server.addUser(TABLE_USERS[key].id, TABLE_USERS[key].name, role));
    const role = (key: keyof typeof TABLE_USERS, fallback: number): number => options.roles?.[key] ?? fallback;
    this.clients = { gm: client("gm", role("gm", GAMEMASTER)), gm2: client("gm2", role("gm2", GAMEMASTER)), alice: client("alice", role("alice", PLAYER)), bob: client("bob", role("bob", PLAYER)) };
    // Every setting the system registers (the real registration, as the system's init runs it), then this world's values.
    registerAllSettings(this.server);
    for (const [id, value] of Object.entries(TEST_WORLD_SETTINGS)) {
      if (!this.server.registered.has(id)) throw new Error(`The test world sets ${id}, which the system does not register.`);
      this.server.settings.set(id, value);
    }
  }

  /** A user added to the world now (not connected yet): later than every record written before. */
  join(id: string, name: string, role: number): StrictClient {
    const client = new StrictClient(this, this.server.addUser(id, name, role));
    this.joined.push(client);
    return client;
  }

  /** Tells every other connected client that a user came or went (core's `userConnected` hook). */
  tellOthers(changed: StrictClient): void {
    for (const c of this.server.clients) {
      if (c === changed || !c.connected) continue;
      // On each client's own socket, after everything the server sent it before (the server
      // emits the event once the user's own writes are applied and broadcast).
      const connected = changed.connected;
      void c.deliver(() => {
        c.view.set(changed.user.id, connected);
        void c.run(() => c.call("userConnected", { ...changed.user, active: connected }, connected));
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
      await eventLoopTurns(1);
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

/**
 * Runs the system's real settings registration (src/foundry/core/settings.ts registerSettings,
 * as init does) against the server's registry: each setting with its scope and default.
 */
function registerAllSettings(server: StrictServer): void {
  const held: unknown = Reflect.get(globalThis, "game");
  const register = (namespace: string, key: string, config: { scope?: unknown; default?: unknown }): void => {
    const scope = config.scope === "client" || config.scope === "user" ? config.scope : "world";
    server.register(`${namespace}.${key}`, { scope, default: config.default });
  };
  Reflect.set(globalThis, "game", { settings: { register } });
  try {
    registerSettings();
  } finally {
    Reflect.set(globalThis, "game", held);
  }
}

/** Installs the globals as proxies onto the running client; remove them with vi.unstubAllGlobals(). */
/** Whether the table's globals are installed (installTableGlobals, until the test removes them). */
function tableGlobalsInstalled(): boolean {
  return (globalThis as { game?: unknown }).game !== undefined;
}

export function installTableGlobals(): void {
  // A key's text in the running client's reader's language: its own text where it has one (`lang`), else en.json's.
  const say = (key: string, data?: Record<string, unknown>): string => {
    const own = current().lang.get(key);
    if (own === undefined) return localize(key, data);
    return data ? own.replace(/\{([A-Za-z0-9_]+)\}/g, (match, name: string) => (name in data ? String(data[name]) : match)) : own;
  };
  const game = {
    get user() {
      return current().user;
    },
    get users() {
      const client = current();
      const server = client.table.server;
      // Each user as this client sees it: `active` from this client's view (the server's socket events).
      const seen = (u: UserRecord): UserRecord => ({ ...u, active: client.view.get(u.id) === true });
      const all = () => [...server.users.values()].map(seen);
      return {
        get: (id: string) => {
          const u = server.users.get(id);
          return u ? seen(u) : undefined;
        },
        filter: (fn: (u: UserRecord) => boolean) => all().filter(fn),
        find: (fn: (u: UserRecord) => boolean) => all().find(fn),
        get contents() {
          return all();
        },
        get activeGM() {
          const gm = client.activeGM();
          return gm ? { ...seen(gm), isSelf: gm.id === client.user.id } : null;
        },
      };
    },
    get messages() {
      const messages = current().messages;
      return {
        get: (id: string) => messages.get(id),
        has: (id: string) => messages.has(id),
        filter: (fn: (m: ClientMessage) => boolean) => [...messages.values()].filter(fn),
        find: (fn: (m: ClientMessage) => boolean) => [...messages.values()].find(fn),
        some: (fn: (m: ClientMessage) => boolean) => [...messages.values()].some(fn),
        get contents() {
          return [...messages.values()];
        },
        get size() {
          return messages.size;
        },
        [Symbol.iterator]: () => messages.values(),
      };
    },
    get release() {
      return { generation: current().table.generation };
    },
    get settings() {
      const client = current();
      const server = client.table.server;
      const config = (ns: string, key: string): { id: string; scope: string } => {
        const id = `${ns}.${key}`;
        const registered = server.registered.get(id);
        // ClientSettings#get of an unregistered key throws ("This is not a registered game setting").
        if (!registered) throw new Error(`Setting ${id} is not a registered game setting.`);
        return { id, scope: registered.scope };
      };
      return {
        get: (ns: string, key: string) => {
          const { id, scope } = config(ns, key);
          if (scope !== "world") return wire(client.clientSettings.has(id) ? client.clientSettings.get(id) : server.registered.get(id)?.default);
          return wire(server.settings.get(id));
        },
        // ClientSettings#set of a world setting: stored on the server as a Setting document, which
        // only a user with SETTINGS_MODIFY (by default the GM and Assistant GM) may write
        // (foundryvtt.com/api ClientSettings#set, USER_PERMISSIONS.SETTINGS_MODIFY). Through JSON.
        // A client setting is this browser's own.
        set: async (ns: string, key: string, value: unknown) => {
          const { id, scope } = config(ns, key);
          if (scope !== "world") {
            client.clientSettings.set(id, wire(value));
            return wire(value);
          }
          if (!client.connected) throw new Error(`${client.user.name}'s client is disconnected.`);
          if (!client.user.isGM) throw new ServerRefusal(`${client.user.name} may not modify the world setting ${id}.`);
          await server.delay();
          if (!server.clients.has(client)) throw new Error(`${client.user.name}'s client is disconnected.`);
          server.settings.set(id, wire(value));
          return wire(value);
        },
      };
    },
    get combats() {
      const combats = current().combats;
      return { get: (id: string) => combats.get(id), [Symbol.iterator]: () => combats.values() };
    },
    combat: null,
    i18n: { localize: (k: string) => say(k), format: (k: string, d: Record<string, unknown>) => say(k, d) },
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
  // foundry.data: the fields, and on 14 the operators (`foundry.data.operators.ForcedDeletion`),
  // read by the running client's generation. On 14 `_del` is one ForcedDeletion instance.
  const data14 = { ...foundryDouble.data, operators: { ForcedDeletion } };
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    get data() {
      return running.getStore()?.table.generation === 14 ? data14 : foundryDouble.data;
    },
    applications: { ...foundryDouble.applications, handlebars: { renderTemplate: render } },
  });
  vi.stubGlobal("_del", new ForcedDeletion());
  // CONFIG.CASE.router is the router of the client that is running (each client made its own, as the root does in init).
  vi.stubGlobal("CONFIG", { CASE: { universalTable: UNIVERSAL_TABLE, get router() { return current().router; } }, specialStatusEffects: { DEFEATED: "dead" }, statusEffects: [] });
  vi.stubGlobal("ui", {
    notifications: Object.fromEntries(
      ["error", "warn", "info"].map((level) => [
        level,
        (message: string, options?: { localize?: boolean; format?: Record<string, string> }) => {
          current().notified.push({ level, text: options?.localize ? say(message, options.format ?? {}) : message });
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
  // ChatMessage.create (Document.create: `keepId` keeps the `_id` given), the same through
  // `ChatMessage.implementation` (CONFIG.ChatMessage.documentClass).
  const create = async (data: Json, options: { keepId?: boolean } = {}): Promise<ClientMessage | undefined> => {
    const client = current();
    const source = await client.write({ op: "create", collection: "ChatMessage", data: wire(data), keepId: options.keepId === true });
    return source ? client.messages.get(String(source._id)) : undefined;
  };
  // ChatMessage.deleteDocuments(ids, { deleteAll }): the chat log's Clear is one `deleteAll` operation.
  const deleteDocuments = async (ids: string[], options: { deleteAll?: boolean } = {}): Promise<void> => {
    if (options.deleteAll === true) {
      await current().write({ op: "deleteAll", collection: "ChatMessage" });
      return;
    }
    for (const id of ids) await current().write({ op: "delete", collection: "ChatMessage", id });
  };
  vi.stubGlobal("ChatMessage", {
    create,
    deleteDocuments,
    implementation: { create, deleteDocuments },
    // ChatMessage.getSpeaker({scene, actor, token, alias}) (foundryvtt.com/api ChatMessage.getSpeaker):
    // ChatSpeakerData { scene, actor, token, alias }, the alias defaulting to the token's, the
    // actor's, then the user's name. Nothing is controlled on the table, so nothing else is guessed.
    getSpeaker: ({ scene, actor, token, alias }: { scene?: { id: string } | null; actor?: { id: string; name: string } | null; token?: { id: string; name?: string } | null; alias?: string } = {}) => ({
      scene: scene?.id ?? null,
      actor: actor?.id ?? null,
      token: token?.id ?? null,
      alias: alias ?? token?.name ?? actor?.name ?? current().user.name,
    }),
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

/** The scene the board tests put the cast on, and each of the cast's token ids there. */
export const CAST_SCENE = "scene00000000001";
export const CAST_TOKENS = { kestrel: "tokkestrel000001", wren: "tokwren000000001", gravel: "tokgravel0000001", shade: "tokshade00000001" } as const satisfies Record<keyof typeof CAST, string>;

/** A 20 × 7 square scene ({@link CAST_SCENE}) with a token of each of the cast at its square (column, row). */
export function placeCast(table: StrictTable, at: Readonly<Record<keyof typeof CAST, readonly [number, number]>>): void {
  table.server.addScene(CAST_SCENE, 20, 7);
  for (const who of ["gravel", "kestrel", "wren", "shade"] as const) table.server.addToken(CAST_SCENE, CAST_TOKENS[who], CAST[who], at[who][0], at[who][1]);
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
