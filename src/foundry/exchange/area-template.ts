/**
 * Area attacks on the canvas. The attacker places a MeasuredTemplate: a burst is a square of
 * (2 × size + 1) squares round the aimed square (Foundry's "rect" template, drawn corner to
 * corner at 45°, as dnd5e's AbilityTemplate draws grid-aligned cubes), a line a one-square-wide
 * "ray" from the attacker's square. One grid square is one CASE area; which tokens an area
 * covers, and how far each is from its centre, is the rules' geometry (rules/areas.ts
 * `targetsInArea`), fed here with grid squares read off documents. The GM reads the placed
 * template and the scene's tokens itself (make-attack.ts) with the same functions.
 *
 * The canvas is read through the small {@link AreaCanvas} shape: the members of Foundry's v13
 * canvas this code uses (foundryvtt.com/api/v13 Canvas, TokenLayer#setTargets,
 * Scene#createEmbeddedDocuments, PIXI's FederatedPointerEvent#getLocalPosition), so a test
 * double can model exactly those.
 */
import { AREA_SPARES_ATTACKER, targetsInArea, type AreaDefinition, type AreaTarget, type Footprint, type GridPoint } from "../../rules/index";
import { attackerTokenAmong, footprintOf } from "../ui/board";
import { areaDocumentName } from "../core/compat";
import { SYSTEM_ID } from "../core/constants";
import { caseFlag } from "../core/flags";

/** The scene's grid: pixels per square, and scene units per square. */
export interface SceneGrid {
  readonly size: number;
  readonly distance: number;
}

/** A token's document as the area reads it (pixels; width and height in squares). */
export interface AreaTokenDoc {
  readonly id: string | null;
  /** The token's actor's id (the base actor, linked or not). */
  readonly actorId: string | null;
  readonly uuid: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly hidden: boolean;
  readonly actor: { readonly uuid: string } | null;
  /** v14 Scene Levels: the token's level (from memory of the v14 API; absent on 13). */
  readonly level?: unknown;
}

/** A MeasuredTemplate's data as the area reads and writes it. */
export interface AreaTemplateData {
  readonly t: "rect" | "ray";
  readonly x: number;
  readonly y: number;
  readonly distance: number;
  readonly direction: number;
  readonly width?: number;
  readonly flags?: Record<string, unknown>;
}

/** The grid square a pixel position lies in. */
export function squareAt(point: { readonly x: number; readonly y: number }, grid: SceneGrid): GridPoint {
  return { x: Math.floor(point.x / grid.size), y: Math.floor(point.y / grid.size) };
}

/** A token's top-left square and its size in squares (tokens sit on squares: the nearest one counts). */
export function tokenSquares(token: AreaTokenDoc, grid: SceneGrid): AreaTarget & Footprint {
  return { id: token.uuid, ...footprintOf(token, { grid }) };
}

/** The angle in degrees from square `from` toward square `to` (0 = east, 90 = south, as Foundry's templates turn). */
function bearing(from: GridPoint, to: GridPoint): number {
  return (Math.atan2(to.y - from.y, to.x - from.x) * 180) / Math.PI;
}

/**
 * The template an area aimed at square `aim` draws: a burst's square round it, or a line from
 * the attacker's square `origin` toward it. `flags` mark what attack placed it.
 */
export function areaTemplateData(area: AreaDefinition, aim: GridPoint, origin: GridPoint, grid: SceneGrid, flags: Record<string, unknown> = {}): AreaTemplateData {
  if (area.shape === "burst") {
    const side = (2 * area.radius + 1) * grid.distance;
    return { t: "rect", x: (aim.x - area.radius) * grid.size, y: (aim.y - area.radius) * grid.size, distance: Math.hypot(side, side), direction: 45, flags };
  }
  const direction = aim.x === origin.x && aim.y === origin.y ? 0 : bearing(origin, aim);
  return { t: "ray", x: (origin.x + 0.5) * grid.size, y: (origin.y + 0.5) * grid.size, distance: area.radius * grid.distance, direction, width: grid.distance, flags };
}

/** One Region shape as the area writes it: v13/v14 RectangleShapeData (`x`, `y` its top-left in pixels, `width`, `height`, `rotation` in degrees about its centre). */
export interface AreaRegionShape {
  readonly type: "rectangle";
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly rotation: number;
}

/** A Region's data as the area writes it on v14: its name, one shape, always visible (REGION_VISIBILITY.ALWAYS, 2) and the item's flags. */
export interface AreaRegionData {
  readonly name: string;
  readonly shapes: readonly AreaRegionShape[];
  readonly visibility: number;
  readonly flags: Record<string, unknown>;
}

/**
 * The Region an area draws on v14 (where v13 draws {@link areaTemplateData}): a burst's square,
 * or a line as a one-square-wide rectangle turned to its heading about its middle. The shape only
 * locates the area (read back by {@link placedAt}); which tokens it covers is the rules'.
 */
export function areaRegionData(area: AreaDefinition, aim: GridPoint, origin: GridPoint, grid: SceneGrid, flags: Record<string, unknown>, name: string): AreaRegionData {
  const t = areaTemplateData(area, aim, origin, grid);
  const s = grid.size;
  const burst = area.shape === "burst";
  const long = (burst ? 2 * area.radius + 1 : area.radius) * s;
  const turn = burst ? 0 : t.direction;
  const half = burst ? 0 : long / 2;
  const x = t.x + Math.cos((turn * Math.PI) / 180) * half - half;
  const y = t.y + Math.sin((turn * Math.PI) / 180) * half - (burst ? 0 : s / 2);
  return { name, shapes: [{ type: "rectangle", x, y, width: long, height: burst ? long : s, rotation: turn }], visibility: 2, flags };
}

/** A placed area document: a template (`x`, `y`, `direction`) or a Region (`shapes`). */
export interface PlacedAreaDoc {
  readonly uuid: string;
  readonly x?: number;
  readonly y?: number;
  readonly direction?: number;
  readonly shapes?: readonly Partial<AreaRegionShape>[];
}

/** Where a placed template or Region was put, as {@link areaPlacement} reads it; null when it has no position. */
export function placedAt(doc: PlacedAreaDoc): Pick<AreaTemplateData, "x" | "y" | "direction"> | null {
  const s = doc.shapes?.[0];
  const [x, y, direction] = doc.shapes ? [s?.x, s?.y, s?.rotation] : [doc.x, doc.y, doc.direction];
  return typeof x === "number" && typeof y === "number" && typeof direction === "number" ? { x, y, direction } : null;
}

/**
 * Where a placed template puts its area: a burst's centre square (the middle of its square),
 * or a line's start (the attacker's square `origin`) and a square on its heading.
 */
export function areaPlacement(area: AreaDefinition, template: Pick<AreaTemplateData, "x" | "y" | "direction">, origin: GridPoint, grid: SceneGrid): { origin: GridPoint; centre: GridPoint } {
  if (area.shape === "burst") {
    const corner = { x: Math.round(template.x / grid.size), y: Math.round(template.y / grid.size) };
    return { origin, centre: { x: corner.x + area.radius, y: corner.y + area.radius } };
  }
  const radians = (template.direction * Math.PI) / 180;
  // At least one square along the heading: max(|cos|, |sin|) ≥ 0.7, and the length is ≥ 1.
  return { origin, centre: { x: origin.x + Math.round(Math.cos(radians) * area.radius), y: origin.y + Math.round(Math.sin(radians) * area.radius) } };
}

/** A token the area covers: its UUID and its distance in areas from the centre. */
export interface CoveredToken {
  readonly uuid: string;
  readonly distance: number;
}

/**
 * The tokens an area covers, in the scene's order: those with an actor, not hidden by the GM
 * (a hidden token is not on the table yet), and not the attacker's own under
 * {@link AREA_SPARES_ATTACKER}, and (v14) on the level of the attacker's token (`own`, found by
 * the board's `attackerTokenAmong`; null without one).
 */
export function coveredTokens(area: AreaDefinition, placement: { origin: GridPoint; centre: GridPoint }, tokens: Iterable<AreaTokenDoc>, grid: SceneGrid, attackerUuid: string, own: AreaTokenDoc | null): CoveredToken[] {
  const candidates: AreaTarget[] = [];
  // v14 Scene Levels: only tokens on the attacker's level (both undefined on 13).
  const level = own?.level;
  for (const t of tokens) {
    if (t.hidden || t.actor === null || t.level !== level) continue;
    if (AREA_SPARES_ATTACKER && t.actor.uuid === attackerUuid) continue;
    candidates.push(tokenSquares(t, grid));
  }
  return targetsInArea(area, placement, candidates).map((c) => ({ uuid: c.id, distance: c.distance }));
}

/** The flags an area template carries: the item whose attack placed it. */
export function areaTemplateFlags(itemUuid: string): Record<string, unknown> {
  return { [SYSTEM_ID]: { areaItem: itemUuid } };
}

/** The item an area template says it was placed for, or null. */
export function areaTemplateItem(flags: unknown): string | null {
  return caseFlag(flags, "areaItem") ?? null;
}

// ── The attacker's client: placing the template ──────────────────────────────────────────

/** A pointer event on the canvas stage (PIXI's FederatedPointerEvent). */
export interface StagePointer {
  readonly button: number;
  getLocalPosition(container: unknown): { x: number; y: number };
  stopPropagation(): void;
}

/** A drawn template preview (a MeasuredTemplate placeable made from an unsaved document). */
export interface TemplatePreview {
  readonly document: { updateSource(data: Partial<AreaTemplateData>): unknown };
  draw(): Promise<unknown>;
  refresh(): unknown;
  destroy(): unknown;
}

/** A PIXI container a preview is added to. */
export interface PreviewLayer {
  addChild(child: unknown): unknown;
  removeChild(child: unknown): unknown;
}

/** The members of Foundry's canvas that area placement uses (see the module comment). */
export interface AreaCanvas {
  readonly ready: boolean;
  readonly scene: {
    readonly id?: string | null;
    readonly grid: SceneGrid;
    createEmbeddedDocuments(name: "MeasuredTemplate" | "Region", data: (AreaTemplateData | AreaRegionData)[]): Promise<readonly PlacedAreaDoc[]>;
  } | null;
  readonly stage: { on(event: string, fn: (event: StagePointer) => void): unknown; off(event: string, fn: (event: StagePointer) => void): unknown };
  readonly templates: { readonly preview: PreviewLayer; activate(): unknown };
  /** v14: the layer the preview outline is drawn on (the controls layer); then `templates` is never read. */
  readonly outlineLayer?: PreviewLayer | null;
  readonly tokens: { readonly placeables: readonly { readonly document: AreaTokenDoc }[]; setTargets(ids: string[], options: { mode: "replace" }): unknown; activate(): unknown };
  /** Makes a preview placeable from template data (Foundry: `new CONFIG.MeasuredTemplate.objectClass(new documentClass(data, { parent }))`). */
  makePreview(data: AreaTemplateData): TemplatePreview;
}

/** What a placed area gives the attack: its template, and the tokens it covers (now the user's targets). */
export interface PlacedArea {
  readonly templateUuid: string;
  readonly targets: readonly CoveredToken[];
}

/**
 * Lets the user aim an area on the canvas: a preview follows the pointer square by square; a
 * left click places the template, a right click cancels (null). Then the tokens the area
 * covers become the user's targets. `originUuid` is the attacker's actor; its token on the
 * scene is where a line starts (a line needs one; a burst does not).
 */
export async function placeArea(board: AreaCanvas, area: AreaDefinition, attackerUuid: string, itemUuid: string): Promise<PlacedArea | null> {
  const scene = board.scene;
  if (!board.ready || !scene) {
    ui.notifications.error(game.i18n.localize("CASE.Area.NoScene"));
    return null;
  }
  const grid = scene.grid;
  const own = attackerTokenAmong(scene.id ?? null, board.tokens.placeables.map((t) => t.document), attackerUuid);
  if (!own && area.shape === "line") {
    ui.notifications.error(game.i18n.localize("CASE.Area.NoAttackerToken"));
    return null;
  }
  const origin = own ? tokenSquares(own, grid) : { x: 0, y: 0 };
  const flags = areaTemplateFlags(itemUuid);
  // A line's first aim: one square east of the attacker.
  const startAim = area.shape === "line" ? { x: origin.x + 1, y: origin.y } : origin;
  const preview = board.makePreview(areaTemplateData(area, startAim, origin, grid, flags));
  await preview.draw();
  const outline = board.outlineLayer;
  if (!outline) board.templates.activate();
  const layer = outline ?? board.templates.preview;
  layer.addChild(preview);
  ui.notifications.info(game.i18n.localize("CASE.Area.PlaceHint"));
  const aim = await new Promise<GridPoint | null>((resolve) => {
    let last = startAim;
    const move = (event: StagePointer): void => {
      const square = squareAt(event.getLocalPosition(outline ?? board.templates), grid);
      if (square.x === last.x && square.y === last.y) return;
      if (area.shape === "line" && square.x === origin.x && square.y === origin.y) return; // a line needs a heading
      last = square;
      preview.document.updateSource(areaTemplateData(area, square, origin, grid, flags));
      preview.refresh();
    };
    const down = (event: StagePointer): void => {
      if (event.button !== 0 && event.button !== 2) return;
      event.stopPropagation();
      board.stage.off("pointermove", move);
      board.stage.off("pointerdown", down);
      resolve(event.button === 0 ? last : null);
    };
    board.stage.on("pointermove", move);
    board.stage.on("pointerdown", down);
  });
  layer.removeChild(preview);
  preview.destroy();
  board.tokens.activate();
  if (!aim) return null;
  const name = areaDocumentName();
  const data = name === "Region" ? areaRegionData(area, aim, origin, grid, flags, game.i18n.localize("CASE.Area.Region")) : areaTemplateData(area, aim, origin, grid, flags);
  const [made] = await scene.createEmbeddedDocuments(name, [data]);
  const at = made ? placedAt(made) : null;
  if (!made || !at) return null;
  const targets = coveredTokens(area, areaPlacement(area, at, origin, grid), board.tokens.placeables.map((t) => t.document), grid, attackerUuid, own ?? null);
  const ids = new Map(board.tokens.placeables.map((t) => [t.document.uuid, t.document.id ?? ""]));
  board.tokens.setTargets(targets.map((t) => ids.get(t.uuid) ?? ""), { mode: "replace" });
  return { templateUuid: made.uuid, targets };
}

/** The classes Foundry makes templates with (CONFIG.MeasuredTemplate: documentClass, objectClass). */
interface TemplateClasses {
  readonly documentClass: new (data: AreaTemplateData, options: { parent: unknown }) => unknown;
  readonly objectClass: new (document: unknown) => TemplatePreview;
}

/**
 * The outline an area's template data draws (a polygon's flat x, y list, pixels): a burst's
 * square from its corner, or a line's rectangle from its start along its heading, `width` wide.
 */
export function areaOutline(d: Partial<AreaTemplateData>, grid: SceneGrid): number[] {
  const k = grid.size / grid.distance;
  const rect = d.t === "rect";
  const len = (d.distance ?? 0) * k * (rect ? Math.SQRT1_2 : 1);
  const half = ((d.width ?? 0) * k) / 2;
  const [a, b] = rect ? [0, len] : [-half, half];
  const r = rect ? 0 : ((d.direction ?? 0) * Math.PI) / 180;
  const [c, s] = [Math.cos(r), Math.sin(r)];
  return [[0, a], [len, a], [len, b], [0, b]].flatMap(([l = 0, p = 0]) => [(d.x ?? 0) + l * c - p * s, (d.y ?? 0) + l * s + p * c]);
}

/**
 * v14's preview: a plain PIXI Graphics outline (PIXI v7's `clear`, `lineStyle`, `drawPolygon`,
 * accepted by tsc through the v13 types), redrawn from the template data it is updated with; no
 * MeasuredTemplate class or layer is touched, so v14 logs no deprecation while a player aims.
 */
function outlinePreview(data: AreaTemplateData, grid: SceneGrid): TemplatePreview {
  const g = new PIXI.Graphics();
  let d: Partial<AreaTemplateData> = data;
  const refresh = (): PIXI.Graphics => g.clear().lineStyle(4, 0xff6400).drawPolygon(areaOutline(d, grid));
  return Object.assign(g, { document: { updateSource: (u: Partial<AreaTemplateData>) => (d = { ...d, ...u }) }, draw: () => Promise.resolve(refresh()), refresh });
}

/**
 * This client's canvas as an {@link AreaCanvas}, or null when there is none. On 13 the preview is
 * a MeasuredTemplate placeable made from an unsaved document on the viewed scene, as dnd5e's
 * AbilityTemplate makes its own (MIT: module/canvas/ability-template.mjs, `fromActivity`); where
 * areas are Regions (14, compat.ts) it is {@link outlinePreview} on `canvas.controls` (Canvas#controls,
 * the ControlsLayer: a PIXI container on the scene's coordinates, v13 API; tsc accepts
 * `canvas.controls.addChild`), and `CONFIG.MeasuredTemplate` and `canvas.templates` are never read.
 */
export function foundryAreaCanvas(): AreaCanvas | null {
  const board = (globalThis as { canvas?: (Omit<AreaCanvas, "makePreview" | "outlineLayer"> & { readonly controls?: PreviewLayer }) | null }).canvas;
  const outline = areaDocumentName() === "Region";
  const classes = outline ? null : (CONFIG as { MeasuredTemplate?: TemplateClasses }).MeasuredTemplate;
  if (!board || (!outline && !classes)) return null;
  return {
    outlineLayer: outline ? board.controls : null,
    get ready() {
      return board.ready;
    },
    get scene() {
      return board.scene;
    },
    get stage() {
      return board.stage;
    },
    get templates() {
      return board.templates;
    },
    get tokens() {
      return board.tokens;
    },
    makePreview: (data) => (classes ? new classes.objectClass(new classes.documentClass(data, { parent: board.scene })) : outlinePreview(data, board.scene?.grid ?? { size: 1, distance: 1 })),
  };
}
