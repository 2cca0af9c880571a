/**
 * A scene on a canvas, for area attacks: only the members our code reads, each modelled on
 * Foundry v13's documented API.
 *
 * - `canvas.ready`, `canvas.scene`, `canvas.stage`, `canvas.templates`, `canvas.tokens`
 *   (foundryvtt.com/api/v13/classes/foundry.canvas.Canvas.html). The stage is a PIXI container
 *   whose `on`/`off` register listeners (PIXI EventEmitter); pointer events are PIXI's
 *   FederatedPointerEvent, with `button` (0 left, 2 right) and `getLocalPosition(container)`.
 * - `canvas.templates.preview` is the layer's preview container (`addChild`/`removeChild`), and
 *   `activate()` makes the layer the active one (CanvasLayer#activate).
 * - `canvas.tokens.setTargets(ids, { mode: "replace" })` (TokenLayer#setTargets, v13) sets this
 *   user's targets to exactly those tokens; as the Lancer and dnd5e systems call it (MIT).
 * - `Scene#grid.size` (pixels per square) and `Scene#grid.distance` (units per square).
 * - `Scene#createEmbeddedDocuments("MeasuredTemplate", data)` resolves to the created documents.
 *   The data crosses the wire as JSON; the server stamps `author` with the creating user
 *   (BaseMeasuredTemplate's `author` field, set to the creator and checked on create), and a
 *   document's UUID is `Scene.<scene id>.MeasuredTemplate.<id>`.
 * - A template preview is a MeasuredTemplate placeable built from an unsaved document
 *   (`new CONFIG.MeasuredTemplate.objectClass(new CONFIG.MeasuredTemplate.documentClass(data,
 *   { parent }))`, as dnd5e's AbilityTemplate, MIT); `document.updateSource` changes it in
 *   memory only, `draw`, `refresh` and `destroy` redraw or remove it.
 * - Token documents: `x`, `y` in pixels (top-left), `width`, `height` in squares, `hidden`,
 *   `actor`; UUID `Scene.<scene id>.Token.<id>`. On v14 (Scene Levels) a token also has its
 *   `level` (modelled from memory of the v14 notes: the id of the scene level it stands on).
 *
 * Foundry 14 (modelled from memory of the public v14 release notes and API pages, not from a
 * cited page): MeasuredTemplates are deprecated in favour of scene Regions; the
 * `TEMPLATE_CREATE` permission is replaced by `REGION_CREATE`, so a player may create a Region
 * (`Scene#createEmbeddedDocuments("Region", [{ name, shapes, visibility, flags }])`, shapes as in
 * v12+'s RegionDocument: `{ type: "rectangle", x, y, width, height, rotation }`), stamped with its
 * author as a template is; UUID `Scene.<scene id>.Region.<id>`. Creating a template on 14 logs a
 * deprecation warning (recorded in `deprecations`). On v13 only a GM creates Regions.
 * The generation is the stubbed `game.release.generation`.
 *
 * The aiming preview on 14 (modelled as an assumption, conservative): reading
 * `CONFIG.MeasuredTemplate` or `canvas.templates` there (the deprecated template classes and their
 * layer) logs a deprecation (`CanvasDouble#deprecations`). `canvas.controls` is the ControlsLayer
 * (Canvas#controls, v13 API: a PIXI container in scene coordinates, `addChild`/`removeChild`);
 * {@link GraphicsDouble} is PIXI v7's Graphics as far as an outline uses it (`clear`, `lineStyle`,
 * `drawPolygon` chain and return the Graphics; `destroy`), recording each polygon drawn.
 */
import { TokenDocumentBase } from "./exchange-world";

type Json = Record<string, unknown>;

export class TokenDouble extends TokenDocumentBase {
  readonly uuid: string;
  readonly hidden: boolean;
  constructor(
    readonly sceneId: string,
    readonly id: string,
    readonly actor: { readonly uuid: string; readonly name: string } | null,
    /** The top-left square. */
    square: { x: number; y: number },
    grid: number,
    options: { hidden?: boolean; width?: number; height?: number; level?: string } = {},
  ) {
    super();
    this.level = options.level;
    this.uuid = `Scene.${sceneId}.Token.${id}`;
    this.x = square.x * grid;
    this.y = square.y * grid;
    this.width = options.width ?? 1;
    this.height = options.height ?? 1;
    this.hidden = options.hidden === true;
  }
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly level: string | undefined;
  /** TokenDocument#actorId: the base actor's id, for a linked or an unlinked token's actor. */
  get actorId(): string | null {
    return this.actor ? (/Actor\.([^.]+)$/.exec(this.actor.uuid)?.[1] ?? null) : null;
  }
}

export class RegionDouble {
  readonly documentName = "Region";
  readonly uuid: string;
  constructor(
    readonly id: string,
    readonly parent: SceneDouble,
    readonly author: { readonly id: string },
    private readonly data: Json,
  ) {
    this.uuid = `Scene.${parent.id}.Region.${id}`;
  }
  get shapes(): Json[] {
    return (this.data.shapes ?? []) as Json[];
  }
  get flags(): Json {
    return (this.data.flags ?? {}) as Json;
  }
}

function generation(): number {
  return (globalThis as { game?: { release?: { generation?: number } } }).game?.release?.generation ?? 13;
}

export class TemplateDouble {
  readonly documentName = "MeasuredTemplate";
  readonly uuid: string;
  constructor(
    readonly id: string,
    readonly parent: SceneDouble,
    readonly author: { readonly id: string },
    private readonly data: Json,
  ) {
    this.uuid = `Scene.${parent.id}.MeasuredTemplate.${id}`;
  }
  get x(): number {
    return this.data.x as number;
  }
  get y(): number {
    return this.data.y as number;
  }
  get direction(): number {
    return this.data.direction as number;
  }
  get t(): string {
    return this.data.t as string;
  }
  get distance(): number {
    return this.data.distance as number;
  }
  get flags(): Json {
    return (this.data.flags ?? {}) as Json;
  }
}

export class SceneDouble {
  readonly tokens: TokenDouble[] = [];
  readonly templates: TemplateDouble[] = [];
  readonly regions: RegionDouble[] = [];
  /** The v14 deprecation warnings logged by what was created here. */
  readonly deprecations: string[] = [];
  readonly grid = { size: 100, distance: 1 };
  constructor(
    readonly id: string,
    /** The user the server stamps as author of what this client creates. */
    private readonly creator: () => { id: string; isGM?: boolean },
  ) {}

  addToken(id: string, actor: { uuid: string; name: string } | null, square: { x: number; y: number }, options: { hidden?: boolean; width?: number; height?: number; level?: string } = {}): TokenDouble {
    const token = new TokenDouble(this.id, id, actor, square, this.grid.size, options);
    this.tokens.push(token);
    return token;
  }

  createEmbeddedDocuments(name: string, data: readonly object[]): Promise<(TemplateDouble | RegionDouble)[]> {
    const creator = this.creator();
    if (name === "Region") {
      if (generation() < 14 && creator.isGM !== true) return Promise.reject(new Error("On 13 only a GM creates Regions."));
      const regions = data.map((d) => new RegionDouble(`regn${String(this.regions.length + 1).padStart(12, "0")}`, this, { id: creator.id }, JSON.parse(JSON.stringify(d)) as Json));
      this.regions.push(...regions);
      return Promise.resolve(regions);
    }
    if (name !== "MeasuredTemplate") throw new Error(`The scene double makes templates and Regions only, not ${name}.`);
    if (generation() >= 14) this.deprecations.push("MeasuredTemplate is deprecated: use a scene Region");
    const sent = data.map((d) => JSON.parse(JSON.stringify(d)) as Json);
    // The server stamps the creator as author and refuses another's (BaseMeasuredTemplate's author field); a GM may name anyone.
    const forged = sent.find((json) => typeof json.author === "string" && json.author !== creator.id && creator.isGM !== true);
    if (forged) return Promise.reject(new Error(`A template may not be created as ${String(forged.author)}.`));
    const made = sent.map((json) => {
      const template = new TemplateDouble(`tmpl${String(this.templates.length + 1).padStart(12, "0")}`, this, { id: this.creator().id }, json);
      this.templates.push(template);
      return template;
    });
    return Promise.resolve(made);
  }

  /** A document of this scene by UUID (tokens and templates), as fromUuid finds it. */
  find(uuid: string): TokenDouble | TemplateDouble | RegionDouble | null {
    return this.tokens.find((t) => t.uuid === uuid) ?? this.templates.find((t) => t.uuid === uuid) ?? this.regions.find((r) => r.uuid === uuid) ?? null;
  }
}

export interface PointerDouble {
  readonly button: number;
  readonly stopped: boolean;
  getLocalPosition(container: unknown): { x: number; y: number };
  stopPropagation(): void;
}

function pointer(at: { x: number; y: number }, button: number): PointerDouble {
  let stopped = false;
  return {
    button,
    get stopped() {
      return stopped;
    },
    getLocalPosition: () => ({ ...at }),
    stopPropagation: () => {
      stopped = true;
    },
  };
}

export class PreviewDouble {
  drawn = false;
  destroyed = false;
  refreshes = 0;
  readonly document: { data: Json; updateSource(update: Json): void };
  constructor(data: Json) {
    const doc = {
      data: { ...data },
      updateSource(update: Json) {
        doc.data = { ...doc.data, ...update };
      },
    };
    this.document = doc;
  }
  draw(): Promise<this> {
    this.drawn = true;
    return Promise.resolve(this);
  }
  refresh(): this {
    this.refreshes += 1;
    return this;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** PIXI.Graphics as an outline uses it (see the module comment). */
export class GraphicsDouble {
  /** Every polygon drawn since the last `clear`, as flat x, y lists. */
  polygons: number[][] = [];
  draws = 0;
  destroyed = false;
  clear(): this {
    this.polygons = [];
    return this;
  }
  lineStyle(width: number, color: number): this {
    if (!(width > 0) || !Number.isInteger(color)) throw new Error("lineStyle(width, color): a visible line.");
    return this;
  }
  drawPolygon(points: number[]): this {
    if (points.length % 2 !== 0 || points.some((n) => !Number.isFinite(n))) throw new Error("drawPolygon takes a flat list of x, y numbers.");
    this.polygons.push([...points]);
    this.draws += 1;
    return this;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** A token document as the canvas shows it. */
export interface CanvasToken {
  readonly id: string;
  readonly uuid: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly hidden: boolean;
  readonly actorId: string | null;
  readonly actor: { readonly uuid: string } | null;
}

/** The viewed scene: a {@link SceneDouble}, or a strict-table client's copy of a scene. */
export interface CanvasScene {
  readonly id: string;
  readonly grid: { readonly size: number; readonly distance: number };
  /** Its tokens: an array, or an EmbeddedCollection (which maps like one). */
  readonly tokens: { map<T>(fn: (t: CanvasToken) => T): T[] };
  createEmbeddedDocuments(name: string, data: readonly object[]): Promise<readonly { readonly uuid: string }[]>;
}

/** The canvas of one client viewing `scene`, and the CONFIG.MeasuredTemplate classes. */
export class CanvasDouble {
  ready = true;
  readonly listeners = new Map<string, Set<(event: PointerDouble) => void>>();
  readonly previews: PreviewDouble[] = [];
  readonly previewChildren: unknown[] = [];
  /** The controls layer's children (v14's preview outline). */
  readonly controlChildren: unknown[] = [];
  /** The v14 deprecation warnings the aiming logged (template classes or layer read on 14). */
  readonly deprecations: string[] = [];
  readonly controls = {
    addChild: (child: unknown) => this.controlChildren.push(child),
    removeChild: (child: unknown) => this.controlChildren.splice(this.controlChildren.indexOf(child), 1),
  };
  activeLayer: "tokens" | "templates" = "tokens";
  /** The user's targets, as set by TokenLayer#setTargets. */
  targets: string[] = [];
  readonly stage = {
    on: (event: string, fn: (event: PointerDouble) => void) => {
      if (!this.listeners.has(event)) this.listeners.set(event, new Set());
      this.listeners.get(event)?.add(fn);
    },
    off: (event: string, fn: (event: PointerDouble) => void) => {
      this.listeners.get(event)?.delete(fn);
    },
  };
  get templates(): { preview: { addChild(child: unknown): unknown; removeChild(child: unknown): unknown }; activate(): void } {
    if (generation() >= 14) this.deprecations.push("canvas.templates (TemplateLayer) is deprecated: use Regions");
    return this.templateLayer;
  }
  private readonly templateLayer = {
    preview: {
      addChild: (child: unknown) => this.previewChildren.push(child),
      removeChild: (child: unknown) => this.previewChildren.splice(this.previewChildren.indexOf(child), 1),
    },
    activate: () => {
      this.activeLayer = "templates";
    },
  };
  readonly tokens: { readonly placeables: { document: CanvasToken }[]; setTargets(ids: string[], options: { mode: string }): void; activate(): void };

  constructor(readonly scene: CanvasScene) {
    this.tokens = {
      get placeables() {
        return scene.tokens.map((document) => ({ document }));
      },
      setTargets: (ids: string[], options: { mode: string }) => {
        if (options.mode !== "replace") throw new Error("The double models the replace mode only.");
        this.targets = [...ids];
      },
      activate: () => {
        this.activeLayer = "tokens";
      },
    };
  }

  /** CONFIG.MeasuredTemplate's document and object classes, recording the previews made. */
  get templateClasses(): { documentClass: new (data: Json, options: { parent: unknown }) => Json; objectClass: new (doc: Json) => PreviewDouble } {
    const previews = this.previews;
    return {
      // An unsaved document keeps its data; it needs its scene (the `parent` option).
      documentClass: function TemplateDocument(data: Json, options: { parent: unknown }): Json {
        if (!options.parent) throw new Error("A template document needs its scene.");
        return { ...data };
      } as unknown as new (data: Json, options: { parent: unknown }) => Json,
      objectClass: class extends PreviewDouble {
        constructor(doc: Json) {
          super(doc);
          previews.push(this);
        }
      },
    };
  }

  /**
   * Puts `CONFIG.MeasuredTemplate` (these {@link templateClasses}) on `config` as a getter: read
   * on 14, it logs a deprecation. Assigning it again replaces the getter with the plain value.
   */
  installTemplateConfig(config: object): void {
    Object.defineProperty(config, "MeasuredTemplate", {
      configurable: true,
      enumerable: true,
      get: () => {
        if (generation() >= 14) this.deprecations.push("CONFIG.MeasuredTemplate is deprecated: use Regions");
        return this.templateClasses;
      },
      set: (value: unknown) => Object.defineProperty(config, "MeasuredTemplate", { value, writable: true, configurable: true, enumerable: true }),
    });
  }

  /** A preview as foundryAreaCanvas makes one, for code handed this double directly (an AreaCanvas). */
  makePreview(data: object): PreviewDouble {
    const classes = this.templateClasses;
    return new classes.objectClass(new classes.documentClass({ ...data }, { parent: this.scene }));
  }

  /** The pointer moves over the canvas at pixel `at`. */
  move(at: { x: number; y: number }): void {
    for (const fn of [...(this.listeners.get("pointermove") ?? [])]) fn(pointer(at, 0));
  }

  /** A click at pixel `at` with `button` (0 left, 2 right). */
  click(at: { x: number; y: number }, button = 0): PointerDouble {
    const event = pointer(at, button);
    for (const fn of [...(this.listeners.get("pointerdown") ?? [])]) fn(event);
    return event;
  }

  /** Waits until the placement listens for the pointer. */
  async listening(): Promise<void> {
    for (let i = 0; i < 50 && (this.listeners.get("pointerdown")?.size ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 0));
    if ((this.listeners.get("pointerdown")?.size ?? 0) === 0) throw new Error("Nothing listens for a click on the canvas.");
  }
}
