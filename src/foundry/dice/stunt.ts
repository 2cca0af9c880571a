/**
 * A power stunt (rules power-rulings.ts `attemptPowerStunt`, a world setting): the power row's
 * *Stunt* button asks which stunt, spends its Karma through the FEAT rolls' spend path (the
 * owner's own Karma and log: `spendActorKarma`), rolls the power FEAT needing the colour the
 * stunt's progress calls for (its card shows it), and records the attempt on the power.
 */
import { attemptPowerStunt, powerStuntNeeds, type PowerStuntAttempt, type PowerStuntRecord } from "../../rules/index";
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import { isItemType } from "../core/guards";
import { askForm } from "../ui/dialogs";
import { characterData, spendActorKarma } from "./talents";

export const STUNT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/stunt.hbs`;

/**
 * Attempts stunt `name` with power `item` (a new name starts a new stunt). Null, after telling the
 * user, when stunts are switched off, the power cannot pay, or nothing was named; nothing is
 * spent or recorded then.
 */
export async function attemptStunt(item: Item.Implementation, name: string): Promise<PowerStuntAttempt | null> {
  const actor = item.actor;
  const system = actor ? characterData(actor) : null;
  const refuse = (key: string, data: Record<string, string> = {}): null => {
    ui.notifications.error(game.i18n.format(key, data));
    return null;
  };
  if (!game.settings.get(SYSTEM_ID, "powerStunts")) return refuse("CASE.Stunt.Off");
  if (!actor || !system || !isItemType(item, "power")) return refuse("CASE.Roll.NotAPower");
  const stunts: PowerStuntRecord[] = item.system.stunts.map((s) => ({ ...s }));
  const stunt = stunts.find((s) => s.name === name.trim()) ?? { name: name.trim(), attempts: 0, successes: 0 };
  if (stunt.name === "") return refuse("CASE.Stunt.NoName");
  const { needed, karmaCost } = powerStuntNeeds(stunt);
  const pool = system.karma.value;
  if (pool < karmaCost) return refuse("CASE.Dialog.Error.KarmaPool", { pool: String(pool) });
  if (!(await spendActorKarma(actor, karmaCost, game.i18n.format("CASE.Stunt.Reason", { name: stunt.name, power: item.name })))) return null;
  // Loaded when rolled: Roll (which CaseRoll extends) is Foundry's, there once the game is up.
  const { CaseRoll } = await import("./case-roll");
  const roll = CaseRoll.fromCheck({ label: `${item.name}: ${stunt.name}`, localizeLabel: false, score: null, value: item.system.rank, shifts: [], karma: 0, intensity: null, needed, blindsided: false, attack: null });
  await roll.evaluate();
  await roll.toMessage({ speaker: ChatMessage.getSpeaker({ actor }) });
  const attempt = attemptPowerStunt(stunt, item.system.rank, roll.die ?? 0, pool, CONFIG.CASE.universalTable);
  const others = stunts.filter((s) => s.name !== stunt.name);
  await item.update({ "system.stunts": [...others, attempt.stunt] } as Item.UpdateData);
  return attempt;
}

/** The power row's *Stunt* button: asks which stunt (the power's known ones offered), then attempts it. */
export async function askStunt(item: Item.Implementation): Promise<PowerStuntAttempt | null> {
  const stunts = isItemType(item, "power") ? item.system.stunts : [];
  const content = await foundry.applications.handlebars.renderTemplate(STUNT_TEMPLATE, { id: foundry.utils.randomID(), stunts });
  const form = await askForm(game.i18n.format("CASE.Stunt.Title", { power: item.name }), content, "CASE.Stunt.Button");
  return form ? attemptStunt(item, typeof form.stunt === "string" ? form.stunt : "") : null;
}
