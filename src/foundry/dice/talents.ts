/**
 * Talents and character data as the rolls read them.
 */
import { talentShift, type AttackCode, type DefenceCode, type ScoreRef, type TalentInput } from "../../rules/index";
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

