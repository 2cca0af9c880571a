/**
 * The board: the one home of its geometry (a token's footprint on the grid, the attacker's
 * token among a scene's tokens), which the card, the area templates, the slam move and first
 * aid read; and the tracker's links to the canvas: find a combatant's token (pan to it, and
 * select it when this user owns it) and ping it. Typed by the little of Foundry's documented
 * canvas they use, so tests give a double of the same shape:
 * - `Canvas#animatePan({ x, y })` and `Canvas#ping(origin)`:
 *   https://foundryvtt.com/api/v13/classes/foundry.canvas.Canvas.html
 * - `canvas.tokens.get(id)`, `Token#control({ releaseOthers })`, `Token#isOwner`, `Token#center`,
 *   `Token#isVisible` (hidden or out of sight to this user: no pan, as core's tracker does not
 *   pan to what the user cannot see): https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.Token.html
 */

import type { Footprint, GridPlace } from "../../rules/index";

// ── geometry: a TokenDocument's `x`, `y` (pixels), `width`, `height` (grid squares), `id`,
// `actorId`; a Scene's `grid.size` (foundryvtt.com/api TokenDocument, Scene, BaseGrid) ──

/** The squares a token covers on its scene's grid (one square is one area): it sits on the nearest square. */
export function footprintOf(token: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }, scene: { readonly grid: { readonly size: number } }): Footprint {
  const size = scene.grid.size;
  return { x: Math.round(token.x / size), y: Math.round(token.y / size), width: Math.max(1, Math.round(token.width)), height: Math.max(1, Math.round(token.height)) };
}

/**
 * The attacker's token among a scene's tokens: for a token's actor (`Scene.<s>.Token.<t>.Actor.<a>`)
 * that token, when this is its scene; for a world actor (`Actor.<a>`) a token of it here, the
 * first `preferred` one (this user's controlled) before the rest. Null when it has none here.
 */
export function attackerTokenAmong<T extends { readonly id: string | null; readonly actorId: string | null }>(sceneId: string | null, tokens: Iterable<T>, attackerUuid: string, preferred: (token: T) => boolean = () => false): T | null {
  const all = [...tokens];
  const own = /^Scene\.([^.]+)\.Token\.([^.]+)\.Actor\.[^.]+$/.exec(attackerUuid);
  if (own) return own[1] === sceneId ? (all.find((t) => t.id === own[2]) ?? null) : null;
  const actorId = /^Actor\.([^.]+)$/.exec(attackerUuid)?.[1];
  const mine = actorId === undefined ? [] : all.filter((t) => t.actorId === actorId);
  return mine.find(preferred) ?? mine[0] ?? null;
}

/** A token's cells on its scene's grid (rules first-aid.ts: `withinReach`), or null without a token. */
export function gridPlace(token: { readonly x: number; readonly y: number; readonly width: number; readonly height: number; readonly parent: { readonly grid: { readonly size: number } } | null } | null | undefined): GridPlace | null {
  if (!token) return null;
  const f = footprintOf(token, token.parent ?? { grid: { size: 100 } });
  return { col: f.x, row: f.y, width: f.width, height: f.height };
}

/** The canvas as the tracker uses it. */
export interface BoardCanvas {
  readonly tokens?: { get(id: string): BoardToken | undefined } | null;
  animatePan(view: { x: number; y: number }): unknown;
  ping(origin: { x: number; y: number }): unknown;
}

/** A token as the tracker uses it. */
export interface BoardToken {
  readonly isOwner: boolean;
  readonly isVisible: boolean;
  readonly center: { x: number; y: number };
  control(options: { releaseOthers: boolean }): unknown;
}

function board(): BoardCanvas | null {
  return (globalThis as { canvas?: BoardCanvas | null }).canvas ?? null;
}

/** The token this user can see on the viewed scene, or null. */
export function visibleToken(tokenId: string | null): BoardToken | null {
  if (tokenId === null) return null;
  const token = board()?.tokens?.get(tokenId);
  return token && token.isVisible ? token : null;
}

/** What finding a token did: panned (and selected, when owned), or nothing (not on this scene or not visible). */
export type FindResult = "selected" | "panned" | "notHere";

/** Pans to a combatant's token, selecting it when this user owns it. */
export function findToken(tokenId: string | null): FindResult {
  const token = visibleToken(tokenId);
  const canvas = board();
  if (!token || !canvas) return "notHere";
  if (token.isOwner) token.control({ releaseOthers: true });
  void canvas.animatePan({ x: token.center.x, y: token.center.y });
  return token.isOwner ? "selected" : "panned";
}

/** Pings a combatant's token for everyone (false when it is not on the scene or not visible). */
export function pingToken(tokenId: string | null): boolean {
  const token = visibleToken(tokenId);
  const canvas = board();
  if (!token || !canvas) return false;
  void canvas.ping({ x: token.center.x, y: token.center.y });
  return true;
}
