/**
 * The system's stable API for macros and modules, at `CONFIG.CASE.api`. Hotbar macros call
 * these by UUID, so a macro keeps working however the sheets change.
 */
import { makeAttack, type AttackOptions } from "../exchange/make-attack";
import { reloadWeapon } from "../exchange/ammunition";
import type { ReferenceApi } from "./reference-api";

/** The document a UUID names, if it is an Item. */
export function asItem(doc: unknown): Item.Implementation | null {
  return (doc as { documentName?: unknown } | null)?.documentName === "Item" ? (doc as Item.Implementation) : null;
}

/**
 * Makes the attack of the item `uuid` names (a power or weapon with an attack, owned by a
 * character), against the user's targets or `options.targetUuids`. A clear, localised error
 * notification — and no attack — when the UUID does not resolve or the item cannot attack.
 * Resolves to true when the attack was made.
 */
export async function attackWithItem(uuid: string, options: AttackOptions = {}): Promise<boolean> {
  const item = asItem(await fromUuid(uuid));
  if (!item) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.ItemNotFound", { uuid }));
    return false;
  }
  if (!item.isAttack) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.NotAnAttack", { name: item.name }));
    return false;
  }
  if (!item.actor) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.NoActor", { name: item.name }));
    return false;
  }
  await makeAttack(item, options);
  return true;
}

/**
 * Reloads the weapon `uuid` names to its full load (its owner's own update). A localised error
 * notification, and no change, when the UUID does not resolve, the weapon counts no
 * ammunition or the user does not own it. Resolves to true when it was reloaded.
 */
export async function reload(uuid: string): Promise<boolean> {
  const item = asItem(await fromUuid(uuid));
  if (!item) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.ItemNotFound", { uuid }));
    return false;
  }
  return reloadWeapon(item);
}

/** Everything at `CONFIG.CASE.api`: the attack macros' entry point and the reference tools (reference-api.ts). */
export interface CaseApi extends ReferenceApi {
  /** Makes the attack of the item with this UUID (see {@link attackWithItem}). */
  readonly attackWithItem: typeof attackWithItem;
  /** Reloads the weapon with this UUID (see {@link reload}). */
  readonly reload: typeof reload;
}

/**
 * The part of the API defined here. case.ts puts the whole API — this and REFERENCE_API,
 * whose modules need Foundry's classes when they load — at CONFIG.CASE.api in init.
 */
export const CASE_API: Pick<CaseApi, "attackWithItem" | "reload"> = Object.freeze({ attackWithItem, reload });
