/**
 * Hook "hotbarDrop": what a character can do, as a script macro through the stable API:
 * - an attack item (a power or weapon with an attack) makes that attack (`attackWithItem`);
 * - every other power rolls its FEAT (`rollPowerFeat`);
 * - an ability, a sub-score, or the Resources or Popularity FEAT dragged from the sheet
 *   (drag data `{ type: "CaseRoll", actorUuid, score }`) rolls it (`rollScore`).
 * An existing macro with the same command is reused. Other drops are left to Foundry.
 */
import { attackItemOfDrop, featItemOfDrop, isItemDropData, isRollDropData, type RollDropData } from "./drop-data";

/** The command of an attack macro: a call of the stable API with the item's UUID. */
export function attackMacroCommand(uuid: string): string {
  return `await CONFIG.CASE.api.attackWithItem(${JSON.stringify(uuid)});`;
}

/** The command of a power FEAT macro. */
export function powerFeatMacroCommand(uuid: string): string {
  return `await CONFIG.CASE.api.rollPowerFeat(${JSON.stringify(uuid)});`;
}

/** The command of an ability (sub-score, Resources, Popularity) roll macro. */
export function scoreMacroCommand(actorUuid: string, score: string): string {
  return `await CONFIG.CASE.api.rollScore(${JSON.stringify(actorUuid)}, ${JSON.stringify(score)});`;
}

interface MacroSpec {
  readonly name: string;
  readonly img: string | null | undefined;
  readonly command: string;
}

/** Finds the user's macro with this command, or creates one, and puts it in the slot. */
async function assignMacro(spec: MacroSpec, slot: number | undefined): Promise<Macro.Implementation> {
  const existing = game.macros.find((m) => m.command === spec.command && m.isOwner);
  const macro = existing ?? (await Macro.implementation.create({ name: spec.name, type: "script", img: spec.img, command: spec.command }));
  if (!macro) throw new Error(`Could not create the macro ${spec.name}.`);
  await game.user.assignHotbarMacro(macro, slot);
  return macro;
}

function itemMacroName(item: Item.Implementation): string {
  return item.actor ? `${item.actor.name}: ${item.name}` : item.name;
}

/** Finds the user's macro making this attack, or creates one, and puts it in the slot. */
export async function assignAttackMacro(item: Item.Implementation, slot: number | undefined): Promise<Macro.Implementation> {
  return assignMacro({ name: itemMacroName(item), img: item.img, command: attackMacroCommand(item.uuid) }, slot);
}

/** The macro a roll dragged from the sheet makes: "<actor>: <score>" (the actor's name when it resolves now). */
function scoreMacro(data: RollDropData): MacroSpec {
  const actor = fromUuidSync(data.actorUuid) as { name?: unknown; img?: unknown } | null;
  const label = game.i18n.localize(data.score === "resources" || data.score === "popularity" ? `CASE.Feat.${data.score === "resources" ? "Resources" : "Popularity"}` : `CASE.Score.${data.score}`);
  const who = typeof actor?.name === "string" ? `${actor.name}: ` : "";
  return { name: `${who}${label}`, img: typeof actor?.img === "string" ? actor.img : null, command: scoreMacroCommand(data.actorUuid, data.score) };
}

function report(name: string): (error: unknown) => void {
  return (error: unknown) => {
    console.error(error);
    ui.notifications.error(game.i18n.format("CASE.Hotbar.MacroFailed", { name }));
  };
}

/** The "hotbarDrop" handler: false (handled) for an attack, a power's FEAT or a sheet roll; undefined otherwise. */
export function onHotbarDrop(_bar: unknown, data: unknown, slot: number | undefined): false | undefined {
  if (isRollDropData(data)) {
    const spec = scoreMacro(data);
    assignMacro(spec, slot).catch(report(spec.name));
    return false;
  }
  if (!isItemDropData(data)) return undefined;
  const attack = attackItemOfDrop(data);
  if (attack) {
    assignAttackMacro(attack, slot).catch(report(attack.name));
    return false;
  }
  const power = featItemOfDrop(data);
  if (!power) return undefined;
  assignMacro({ name: itemMacroName(power), img: power.img, command: powerFeatMacroCommand(power.uuid) }, slot).catch(report(power.name));
  return false;
}

export function registerHotbarHook(): void {
  Hooks.on("hotbarDrop", onHotbarDrop);
}
