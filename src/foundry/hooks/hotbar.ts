/**
 * Hook "hotbarDrop": an attack item (a power or weapon with an attack) dropped on the hotbar
 * becomes a script macro that makes that attack through `CONFIG.CASE.api.attackWithItem`.
 * An existing macro with the same command is reused. Other drops are left to Foundry.
 */
import { attackItemOfDrop, isItemDropData } from "./drop-data";

/** The command of an attack macro: a call of the stable API with the item's UUID. */
export function attackMacroCommand(uuid: string): string {
  return `await CONFIG.CASE.api.attackWithItem(${JSON.stringify(uuid)});`;
}

/** Finds the user's macro with this command, or creates one, and puts it in the slot. */
export async function assignAttackMacro(item: Item.Implementation, slot: number | undefined): Promise<Macro.Implementation> {
  const command = attackMacroCommand(item.uuid);
  const existing = game.macros.find((m) => m.command === command && m.isOwner);
  const macro =
    existing ??
    (await Macro.implementation.create({
      name: item.actor ? `${item.actor.name}: ${item.name}` : item.name,
      type: "script",
      img: item.img,
      command,
    }));
  if (!macro) throw new Error(`Could not create the attack macro for ${item.name}.`);
  await game.user.assignHotbarMacro(macro, slot);
  return macro;
}

/** The "hotbarDrop" handler: false (handled) for an attack item, undefined otherwise. */
export function onHotbarDrop(_bar: unknown, data: unknown, slot: number | undefined): false | undefined {
  if (!isItemDropData(data)) return undefined;
  const item = attackItemOfDrop(data);
  if (!item) return undefined;
  assignAttackMacro(item, slot).catch((error: unknown) => {
    console.error(error);
    ui.notifications.error(game.i18n.format("CASE.Hotbar.MacroFailed", { name: item.name }));
  });
  return false;
}

export function registerHotbarHook(): void {
  Hooks.on("hotbarDrop", onHotbarDrop);
}
