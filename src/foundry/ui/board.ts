/**
 * The tracker's links to the board (the canvas): find a combatant's token (pan to it, and
 * select it when this user owns it) and ping it. Typed by the little of Foundry's documented
 * canvas they use, so tests give a double of the same shape:
 * - `Canvas#animatePan({ x, y })` and `Canvas#ping(origin)`:
 *   https://foundryvtt.com/api/v13/classes/foundry.canvas.Canvas.html
 * - `canvas.tokens.get(id)`, `Token#control({ releaseOthers })`, `Token#isOwner`, `Token#center`,
 *   `Token#isVisible` (hidden or out of sight to this user: no pan, as core's tracker does not
 *   pan to what the user cannot see): https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.Token.html
 */

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
