/**
 * The click actions of the character sheets (`data-action` → handler). Each handler runs with
 * the sheet as `this` (ApplicationV2 calls it so) and goes through the system's entry points,
 * so a sheet button, a macro and a canvas drop make the same roll.
 */
import { isScoreRef } from "../../rules/index";
import { rollItem, rollScore } from "../dice/entry-points";
import { makeAttack } from "../exchange/make-attack";
import { reloadWeapon } from "../exchange/ammunition";
import { isCharacterItemType } from "./sheet-context";

/** What a handler needs of the sheet it runs on. */
export interface CharacterSheetHost {
  readonly actor: Actor.Implementation;
  readonly isEditable: boolean;
}

/** The owned item a button belongs to: its own `data-item-id` or its row's. */
export function itemOfTarget(actor: Actor.Implementation, target: HTMLElement): Item.Implementation | undefined {
  const id = target.dataset.itemId ?? target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
  return id === undefined ? undefined : actor.items.get(id);
}

/** `data-action="rollScore" data-score="fighting.off"`: a FEAT on an ability or sub-score. Shift-click skips the dialog. */
export async function onRollScore(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const ref = target.dataset.score;
  if (!isScoreRef(ref)) throw new RangeError(`The roll button names no ability or sub-score ("${String(ref)}").`);
  await rollScore(this.actor, ref, { skipDialog: event.shiftKey });
}

/** `data-action="rollItem"`: a FEAT on a power's rank. */
export async function onRollItem(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  await rollItem(item, { skipDialog: event.shiftKey });
}

/** `data-action="attack"`: an attack with a power or weapon, against the user's targets. */
export async function onAttack(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item?.isAttack) return;
  await makeAttack(item, { skipDialog: event.shiftKey });
}

/** `data-action="reload"`: reloads a weapon that counts ammunition to its full load (the owner's own update). */
export async function onReload(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  await reloadWeapon(item);
}

/** `data-action="editItem"`: opens the item's sheet (ours is an ApplicationV2; a module's may be older). */
export async function onEditItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const sheet = itemOfTarget(this.actor, target)?.sheet;
  if (sheet instanceof foundry.applications.api.ApplicationV2) await sheet.render({ force: true });
  else sheet?.render(true);
}

/** `data-action="deleteItem"`: deletes the item after Foundry's confirmation dialog. */
export async function onDeleteItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const item = itemOfTarget(this.actor, target);
  await item?.deleteDialog();
}

/** `data-action="createItem" data-type="power"`: a new item of that type, its sheet opened. */
export async function onCreateItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const type = target.dataset.type;
  if (!isCharacterItemType(type)) throw new RangeError(`Cannot create an item of type "${String(type)}".`);
  const cls = Item.implementation;
  await cls.create({ name: cls.defaultName({ type, parent: this.actor }), type }, { parent: this.actor, renderSheet: true });
}

/** The actions every character sheet declares. */
export const CHARACTER_SHEET_ACTIONS = {
  rollScore: onRollScore,
  rollItem: onRollItem,
  attack: onAttack,
  reload: onReload,
  editItem: onEditItem,
  deleteItem: onDeleteItem,
  createItem: onCreateItem,
} as const;
