/**
 * Talents, Karma and character data as the rolls read them.
 */
import { spendKarma, talentShift, type AttackCode, type DefenceCode, type ScoreRef, type TalentInput } from "../../rules/index";
import { isCharacter, isItemType } from "../documents/guards";
import type { ShiftReason } from "./roll-check";

/** The character data of an actor (hero or npc), or null for any other actor. */
export function characterData(actor: Actor.Implementation) {
  return isCharacter(actor) ? actor.system : null;
}

/** The actor's talents as the rules read them. */
export function actorTalents(actor: Actor.Implementation): TalentInput[] {
  const talents: TalentInput[] = [];
  for (const item of actor.items) {
    if (isItemType(item, "talent")) talents.push({ name: item.name, covers: [...item.system.covers], doubled: item.system.doubled });
  }
  return talents;
}

/** The shifts talents give a roll, as card lines. */
export function talentShifts(actor: Actor.Implementation, score: ScoreRef, attack?: AttackCode, defence?: DefenceCode): ShiftReason[] {
  const shift = talentShift(actorTalents(actor), { score, attack, defence });
  return shift.cs === 0 ? [] : [{ cs: shift.cs, label: shift.talents.join(", "), localize: false }];
}


/**
 * Spends Karma declared on a roll or an attack (§2: spent whatever the roll; the pool never
 * goes below 0). False, after telling the user, when the actor cannot spend it.
 */
export async function spendActorKarma(actor: Actor.Implementation, amount: number): Promise<boolean> {
  if (amount === 0) return true;
  const system = characterData(actor);
  let pool: number;
  try {
    if (!system) throw new RangeError("not a character");
    pool = spendKarma(system.karma.value, amount);
  } catch (error) {
    console.warn("case | Karma not spent", error);
    ui.notifications.error(game.i18n.format("CASE.Dialog.Error.KarmaPool", { pool: String(system?.karma.value ?? 0) }));
    return false;
  }
  await actor.update({ "system.karma.value": pool } as Actor.UpdateData);
  return true;
}
