/**
 * The attack card and the board: reading tokens as grid footprints (one square is one area),
 * the range from the attacker's token to each target's, and the card's links to the canvas on
 * this client (hover highlights a row's token, a defence waiting pings its token).
 *
 * The shapes below are the documented members this code reads, nothing more:
 * - `canvas.tokens.get(id)`, `canvas.tokens.controlled`, `canvas.scene`, `canvas.ping(origin)`
 *   (foundryvtt.com/api Canvas, TokenLayer, PlaceablesLayer#controlled);
 * - a Token's `document`, `center`, `isVisible`, `controlled`, and the hover pair
 *   `_onHoverIn(event, { hoverOutOthers })` / `_onHoverOut(event)` that core's combat tracker
 *   calls on hovering a combatant (the same call public MIT systems make from chat cards, e.g.
 *   artichron's ChatMessage `#onTargetHoverIn`);
 * - a TokenDocument's `x`, `y` (pixels), `width`, `height` (grid squares), `actorId`, `parent`;
 * - a Scene's `grid.size`, `grid.type` and `dimensions` (`sceneX`, `sceneY`, `sceneWidth`,
 *   `sceneHeight`: foundryvtt.com/api Scene#dimensions, SceneDimensions).
 */
import { rangeInAreas, type BoardBounds } from "../../rules/index";
import { attackerTokenAmong, footprintOf } from "../ui/board";

/** CONST.GRID_TYPES.SQUARE (foundryvtt.com/api CONST.GRID_TYPES): ranges are measured on square grids only. */
export const SQUARE_GRID = 1;

export interface BoardScene {
  readonly id: string | null;
  readonly grid: { readonly size: number; readonly type: number };
  readonly dimensions: { readonly sceneX: number; readonly sceneY: number; readonly sceneWidth: number; readonly sceneHeight: number };
}

export interface BoardTokenDocument {
  readonly id: string | null;
  readonly uuid: string;
  readonly actorId: string | null;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface BoardToken {
  readonly document: BoardTokenDocument;
  readonly center: { readonly x: number; readonly y: number };
  readonly isOwner: boolean;
  readonly isVisible?: boolean;
  readonly controlled?: boolean;
  control(options: { releaseOthers: boolean }): unknown;
  _onHoverIn?(event: Event, options: { hoverOutOthers: boolean }): unknown;
  _onHoverOut?(event: Event): unknown;
}

export interface BoardCanvas {
  readonly scene?: BoardScene | null;
  readonly tokens?: { get(id: string): BoardToken | undefined; readonly controlled?: readonly BoardToken[]; readonly placeables?: readonly BoardToken[] } | null;
  animatePan(view: { x: number; y: number }): unknown;
  ping?(origin: { x: number; y: number }, options?: Record<string, unknown>): unknown;
}

/** This client's canvas, or null (no canvas, or the canvas is off). */
export function boardCanvas(): BoardCanvas | null {
  return (globalThis as { canvas?: BoardCanvas | null }).canvas ?? null;
}

/** The scene and token ids of a token UUID (`Scene.<id>.Token.<id>`), or null for anything else. */
export function tokenIds(uuid: string): { scene: string; token: string } | null {
  const m = /^Scene\.([^.]+)\.Token\.([^.]+)$/.exec(uuid);
  return m?.[1] && m[2] ? { scene: m[1], token: m[2] } : null;
}

/** The token with this UUID on the scene this client is viewing, or null. */
export function tokenOnBoard(uuid: string, board: BoardCanvas | null = boardCanvas()): BoardToken | null {
  const ids = tokenIds(uuid);
  if (!ids || !board?.tokens) return null;
  if (board.scene?.id && board.scene.id !== ids.scene) return null;
  return board.tokens.get(ids.token) ?? null;
}

export { footprintOf };

/** The scene's own squares (the padding round it is not the scene). */
export function boundsOf(scene: BoardScene): BoardBounds {
  const size = scene.grid.size;
  const d = scene.dimensions;
  return { x: Math.round(d.sceneX / size), y: Math.round(d.sceneY / size), width: Math.floor(d.sceneWidth / size), height: Math.floor(d.sceneHeight / size) };
}

/** Whether ranges can be measured on this scene: a square grid with a size. */
export function measurable(scene: BoardScene | null | undefined): scene is BoardScene {
  return !!scene && scene.grid.type === SQUARE_GRID && scene.grid.size > 0;
}

/** One target's measured range, for the attack dialog. */
export interface MeasuredRange {
  readonly uuid: string;
  readonly name: string;
  readonly areas: number;
}

/**
 * The attacker's token on the viewed scene: the one this user controls for that actor, else
 * its first token there. Null when the actor has none on this scene.
 */
export function attackerToken(actor: { readonly uuid: string }, board: BoardCanvas | null = boardCanvas()): BoardToken | null {
  const placed = new Map((board?.tokens?.placeables ?? []).map((t) => [t.document, t]));
  const doc = attackerTokenAmong(board?.scene?.id ?? null, placed.keys(), actor.uuid, (d) => placed.get(d)?.controlled === true);
  return doc ? (placed.get(doc) ?? null) : null;
}

/**
 * The range in areas from the attacker's token to each target token on the viewed scene
 * (rules `rangeInAreas`). Targets not on this scene are left out; an empty list when the
 * attacker has no token here or the grid is not square (the user types the distance then).
 */
export function rangesFromTokens(actor: { readonly id: string | null; readonly uuid: string }, targets: readonly { uuid: string; name: string }[], board: BoardCanvas | null = boardCanvas()): MeasuredRange[] {
  const scene = board?.scene;
  if (!measurable(scene)) return [];
  const from = attackerToken(actor, board);
  if (!from) return [];
  const origin = footprintOf(from.document, scene);
  const out: MeasuredRange[] = [];
  for (const t of targets) {
    const token = tokenOnBoard(t.uuid, board);
    if (token) out.push({ uuid: t.uuid, name: t.name, areas: rangeInAreas(origin, footprintOf(token.document, scene)) });
  }
  return out;
}

/** The token a card row is highlighting on this client (one at a time, as core's tracker). */
let highlighted: BoardToken | null = null;

/**
 * Highlights a row's token on the canvas as core's combat tracker does on hovering a combatant:
 * the token's own hover state, others' hover cleared. Only a visible token that is not already
 * controlled (a controlled token shows its frame already). Returns whether one was highlighted.
 */
export function hoverToken(uuid: string, event: Event, board: BoardCanvas | null = boardCanvas()): boolean {
  unhoverToken(event);
  const token = tokenOnBoard(uuid, board);
  if (!token || token.isVisible === false || token.controlled === true || !token._onHoverIn) return false;
  token._onHoverIn(event, { hoverOutOthers: true });
  highlighted = token;
  return true;
}

/** Ends a row's highlight (the pointer or focus left the row). */
export function unhoverToken(event: Event): void {
  highlighted?._onHoverOut?.(event);
  highlighted = null;
}

/**
 * Draws its owner's eye to a token a card waits on: a ping at the token on this client only
 * (`Canvas#ping` draws locally; core broadcasts only pings the user makes). False when the
 * token is not on the viewed scene.
 */
export function pingToken(uuid: string, board: BoardCanvas | null = boardCanvas()): boolean {
  const token = tokenOnBoard(uuid, board);
  if (!token || !board?.ping) return false;
  void board.ping({ x: token.center.x, y: token.center.y }, waitingPingOptions());
  return true;
}

/**
 * The ping of a waiting defence: an explicit pulse that pulls no one's view. Without options
 * `Canvas#ping` reads the live Shift key for `pull` (a player typing a capital letter as the card
 * arrives would pull every view to the token) and takes the user's default style.
 */
export function waitingPingOptions(): { readonly style: string; readonly pull: false } {
  const types: unknown = (CONFIG as { Canvas?: { pings?: { types?: unknown } } }).Canvas?.pings?.types;
  const pulse = typeof types === "object" && types !== null && "PULSE" in types && typeof types.PULSE === "string" ? types.PULSE : "pulse";
  return { style: pulse, pull: false };
}

/** The UUIDs of the tokens this user has selected (controlled) on the viewed scene. */
export function selectedTokenUuids(board: BoardCanvas | null = boardCanvas()): string[] {
  return (board?.tokens?.controlled ?? []).map((t) => t.document.uuid);
}
