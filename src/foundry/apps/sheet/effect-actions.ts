/**
 * The Effects tab's buttons, on the character sheets and the item sheet: add an effect, edit
 * it in Foundry's own ActiveEffect sheet, switch it on or off, delete it. An effect on an owned
 * item is addressed by its row's `data-item-id` and `data-effect-id`. The tab's data:
 * effects-context.ts.
 */
import type { EffectSource } from "./effects-context";

/** What a handler needs of the sheet it runs on: the document whose effects the tab lists. */
export interface EffectsHost {
  readonly document: Actor.Implementation | Item.Implementation;
  readonly isEditable: boolean;
}

/** The character's effects and its items' (Actor#allApplicableEffects), each with its item. */
export function characterEffects(actor: Actor.Implementation): EffectSource[] {
  const own = actor.effects.contents.map((effect) => ({ effect, item: null }));
  const carried = actor.items.contents.flatMap((item) => item.effects.contents.map((effect) => ({ effect, item: { id: item.id, name: item.name } })));
  return [...own, ...carried];
}

/** An item's own effects (the item sheet's tab). */
export function itemEffects(item: Item.Implementation): EffectSource[] {
  return item.effects.contents.map((effect) => ({ effect, item: null }));
}

/** The effect a button's row names, on the sheet's document or one of its items. */
export function effectOfTarget(document: Actor.Implementation | Item.Implementation, target: HTMLElement): ActiveEffect.Implementation | undefined {
  const row = target.closest<HTMLElement>("[data-effect-id]");
  const id = row?.dataset.effectId;
  if (id === undefined) return undefined;
  const itemId = row?.dataset.itemId;
  if (itemId !== undefined && document instanceof Actor) return document.items.get(itemId)?.effects.get(id);
  return document.effects.get(id);
}

/**
 * `data-action="createEffect"`: a new effect, its sheet opened. On an item it transfers to the
 * owner (CONFIG.ActiveEffect.legacyTransferral is false: it applies from the item while the item is in use).
 */
export async function onCreateEffect(this: EffectsHost): Promise<void> {
  if (!this.isEditable) return;
  const onItem = this.document instanceof Item;
  await ActiveEffect.implementation.create(
    { name: game.i18n.localize("CASE.Effects.New"), img: "icons/svg/aura.svg", transfer: onItem, origin: this.document.uuid },
    { parent: this.document, renderSheet: true },
  );
}

/** `data-action="editEffect"`: opens Foundry's ActiveEffect sheet. */
export async function onEditEffect(this: EffectsHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const sheet = effectOfTarget(this.document, target)?.sheet;
  if (sheet instanceof foundry.applications.api.ApplicationV2) await sheet.render({ force: true });
  else sheet?.render(true);
}

/** `data-action="toggleEffect"`: switches the effect on or off. */
export async function onToggleEffect(this: EffectsHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const effect = effectOfTarget(this.document, target);
  await effect?.update({ disabled: !effect.disabled });
}

/** `data-action="deleteEffect"`: deletes the effect after Foundry's confirmation dialog. */
export async function onDeleteEffect(this: EffectsHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  await effectOfTarget(this.document, target)?.deleteDialog();
}

/** The Effects tab's actions, for a sheet's `DEFAULT_OPTIONS.actions`. */
export const EFFECT_ACTIONS = {
  createEffect: onCreateEffect,
  editEffect: onEditEffect,
  toggleEffect: onToggleEffect,
  deleteEffect: onDeleteEffect,
} as const;
