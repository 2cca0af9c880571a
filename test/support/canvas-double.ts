/**
 * A canvas double: the viewed scene (a square grid of `size` pixels), its tokens as placeables,
 * and what the card asks of the canvas, recorded. Each member is one Foundry documents:
 * - `canvas.scene` with `grid.size`, `grid.type` (CONST.GRID_TYPES: 1 square, 2–5 hexes) and
 *   `dimensions` (`sceneX`, `sceneY`, `sceneWidth`, `sceneHeight`: Scene#dimensions);
 * - `canvas.tokens.get(id)`, `.placeables`, `.controlled` (TokenLayer, PlaceablesLayer);
 * - a Token's `document` (TokenDocument `x`, `y` in pixels, `width`, `height` in squares),
 *   `center` (pixels), `isOwner`, `isVisible`, `controlled`, `hover`, `control()`, and the hover
 *   pair `_onHoverIn(event, { hoverOutOthers })` / `_onHoverOut(event)`: with `hoverOutOthers`
 *   every other hovered token is hovered out first, as core's combat tracker relies on;
 * - `canvas.ping(origin, options)` and `canvas.animatePan(view)`, drawn on this client only;
 *   a ping without `options.pull` pulls when Shift is held (`game.keyboard.isModifierActive`),
 *   as core's Canvas#ping reads it; `pingOptions` records the options as core reads them.
 * Token UUIDs (`Scene.<id>.Token.<id>`) resolve through `fromUuid` to a TokenDocument whose
 * `actor` is the test world's actor, as Foundry's fromUuid resolves them.
 */
import { vi } from "vitest";
import { TokenDocumentBase } from "./exchange-world";

export interface TokenSpec {
  readonly id: string;
  /** Square coordinates of its top-left square. */
  readonly x: number;
  readonly y: number;
  readonly width?: number;
  readonly height?: number;
  readonly actor?: { readonly id: string; readonly uuid: string } | null;
  readonly isOwner?: boolean;
  readonly visible?: boolean;
  readonly controlled?: boolean;
}

export class CanvasTokenDocument extends TokenDocumentBase {
  constructor(
    readonly sceneId: string,
    readonly id: string,
    public x: number,
    public y: number,
    readonly width: number,
    readonly height: number,
    readonly actor: { readonly id: string; readonly uuid: string } | null,
  ) {
    super();
  }
  get uuid(): string {
    return `Scene.${this.sceneId}.Token.${this.id}`;
  }
  get actorId(): string | null {
    return this.actor?.id ?? null;
  }
}

export class CanvasToken {
  hover = false;
  controlled: boolean;
  readonly isOwner: boolean;
  readonly isVisible: boolean;
  constructor(
    private readonly board: CanvasDouble,
    readonly document: CanvasTokenDocument,
    spec: TokenSpec,
  ) {
    this.isOwner = spec.isOwner ?? true;
    this.isVisible = spec.visible ?? true;
    this.controlled = spec.controlled ?? false;
  }
  get center(): { x: number; y: number } {
    const size = this.board.scene.grid.size;
    return { x: this.document.x + (this.document.width * size) / 2, y: this.document.y + (this.document.height * size) / 2 };
  }
  control({ releaseOthers }: { releaseOthers: boolean }): boolean {
    if (releaseOthers) for (const t of this.board.all()) t.controlled = false;
    this.controlled = true;
    this.board.log.push(`control:${this.document.id}`);
    return true;
  }
  _onHoverIn(_event: Event, { hoverOutOthers }: { hoverOutOthers: boolean }): void {
    if (hoverOutOthers) for (const t of this.board.all()) if (t !== this && t.hover) t._onHoverOut(_event);
    this.hover = true;
    this.board.log.push(`hoverIn:${this.document.id}`);
  }
  _onHoverOut(_event: Event): void {
    this.hover = false;
    this.board.log.push(`hoverOut:${this.document.id}`);
  }
}

export class CanvasDouble {
  readonly scene: { id: string; grid: { size: number; type: number }; dimensions: { sceneX: number; sceneY: number; sceneWidth: number; sceneHeight: number } };
  readonly #tokens = new Map<string, CanvasToken>();
  /** What the canvas was asked to do, in order: control, hoverIn, hoverOut. */
  readonly log: string[] = [];
  readonly pings: { x: number; y: number }[] = [];
  readonly pingOptions: { style: unknown; pull: boolean }[] = [];
  readonly pans: { x: number; y: number }[] = [];

  constructor(options: { sceneId?: string; size?: number; gridType?: number; columns?: number; rows?: number; padding?: number } = {}) {
    const size = options.size ?? 100;
    const padding = options.padding ?? 0;
    this.scene = {
      id: options.sceneId ?? "scene00000000001",
      grid: { size, type: options.gridType ?? 1 },
      dimensions: { sceneX: padding * size, sceneY: padding * size, sceneWidth: (options.columns ?? 30) * size, sceneHeight: (options.rows ?? 20) * size },
    };
  }

  add(spec: TokenSpec): CanvasToken {
    const size = this.scene.grid.size;
    const doc = new CanvasTokenDocument(this.scene.id, spec.id, spec.x * size, spec.y * size, spec.width ?? 1, spec.height ?? 1, spec.actor ?? null);
    const token = new CanvasToken(this, doc, spec);
    this.#tokens.set(spec.id, token);
    return token;
  }

  all(): CanvasToken[] {
    return [...this.#tokens.values()];
  }

  uuid(id: string): string {
    return `Scene.${this.scene.id}.Token.${id}`;
  }

  /** Installs `canvas`, and makes `fromUuid` resolve this scene's token UUIDs (anything else as before). */
  install(): this {
    const all = () => this.all();
    const tokens = {
      get: (id: string) => this.#tokens.get(id),
      get placeables() {
        return all();
      },
      get controlled() {
        return all().filter((t) => t.controlled);
      },
    };
    vi.stubGlobal("canvas", {
      scene: this.scene,
      tokens,
      ping: (origin: { x: number; y: number }, options: { style?: unknown; pull?: boolean } = {}) => {
        const keyboard = (globalThis as { game?: { keyboard?: { isModifierActive(key: string): boolean } } }).game?.keyboard;
        this.pings.push({ x: origin.x, y: origin.y });
        this.pingOptions.push({ style: options.style ?? "user's default", pull: options.pull ?? keyboard?.isModifierActive("Shift") === true });
        return Promise.resolve(true);
      },
      animatePan: (view: { x: number; y: number }) => (this.pans.push({ x: view.x, y: view.y }), Promise.resolve(true)),
    });
    const inner = (globalThis as { fromUuid?: (uuid: string) => Promise<unknown> }).fromUuid;
    vi.stubGlobal("fromUuid", (uuid: string) => {
      const m = /^Scene\.([^.]+)\.Token\.([^.]+)$/.exec(uuid);
      if (m?.[1] === this.scene.id && m[2]) return Promise.resolve(this.#tokens.get(m[2])?.document ?? null);
      return inner ? inner(uuid) : Promise.resolve(null);
    });
    return this;
  }
}
