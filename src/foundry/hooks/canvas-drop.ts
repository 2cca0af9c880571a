/**
 * Hook "dropCanvasData": an attack item dropped onto a token makes that attack against that
 * token. Drops elsewhere, and items that cannot attack, are left to Foundry.
 */
import { makeAttack } from "../exchange/make-attack";
import { attackItemOfDrop, isItemDropData } from "./drop-data";

/** What the drop needs of a token on the canvas. */
export interface TokenLike {
  readonly visible: boolean;
  readonly bounds: { contains(x: number, y: number): boolean };
  readonly document: { readonly uuid: string; readonly elevation: number; readonly sort: number };
}

/** The topmost visible token whose bounds hold the point (highest elevation, then sort). */
export function tokenAt<T extends TokenLike>(tokens: Iterable<T>, x: number, y: number): T | null {
  let best: T | null = null;
  for (const token of tokens) {
    if (!token.visible || !token.bounds.contains(x, y)) continue;
    if (
      !best ||
      token.document.elevation > best.document.elevation ||
      (token.document.elevation === best.document.elevation && token.document.sort > best.document.sort)
    ) {
      best = token;
    }
  }
  return best;
}

/** The "dropCanvasData" handler: false (handled) when an attack item lands on a token. */
export function onDropCanvasData(board: { readonly tokens?: { readonly placeables: Iterable<TokenLike> } | null | undefined }, data: unknown): false | undefined {
  if (!isItemDropData(data) || typeof data.x !== "number" || typeof data.y !== "number") return undefined;
  const item = attackItemOfDrop(data);
  if (!item) return undefined;
  const token = tokenAt(board.tokens?.placeables ?? [], data.x, data.y);
  if (!token) return undefined;
  if (!item.isOwner) {
    ui.notifications.warn(game.i18n.format("CASE.Drop.NotOwner", { name: item.name }));
    return false;
  }
  makeAttack(item, { targetUuids: [token.document.uuid] }).catch((error: unknown) => {
    console.error(error);
    ui.notifications.error(game.i18n.format("CASE.Drop.AttackFailed", { name: item.name }));
  });
  return false;
}

export function registerCanvasDropHook(): void {
  Hooks.on("dropCanvasData", onDropCanvasData);
}
