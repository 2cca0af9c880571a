/**
 * Talents, conditions, Karma and character data as the rolls read them.
 */
import { spendKarmaOnRoll, talentShift, type AttackCode, type DefenceCode, type ScoreRef, type TalentInput } from "../../rules/index";
import { isCharacter, isItemType } from "../core/guards";
import type { ShiftReason } from "./roll-check";
import { statusShift } from "../status-effects";
import { karmaUpdate, logDate } from "../actor-writes";

/** The character data of an actor (hero or npc), or null for every other actor. */
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


/** What a roll is made on, for {@link rollShifts}: the score, and the attack or defence it is. */
export interface RollOn {
  /** The score rolled; null for a power's own rank (no talent covers it). */
  readonly score: ScoreRef | null;
  readonly attack?: AttackCode | undefined;
  readonly defence?: DefenceCode | undefined;
  /** An Escape roll: a Full Hold's own penalty does not apply to it. */
  readonly escape?: boolean;
}

/**
 * The column shifts a character's own state puts on one of its rolls: its best covering
 * talent (the rules' talentShift) and its conditions (a hold's −2 CS). Every roll assembles
 * them here: ability and power rolls, the to-hit of an attack, a defence, an escape.
 */
export function rollShifts(actor: Actor.Implementation, on: RollOn): ShiftReason[] {
  const talents = on.score !== null && on.escape !== true ? talentShifts(actor, on.score, on.attack, on.defence) : [];
  const conditions = statusShift(actor.statuses, on.escape === true ? "escape" : "other").map((s) => ({ ...s, localize: true }));
  return [...talents, ...conditions];
}

/**
 * Spends Karma declared on a roll or an attack (§2: spent whatever the roll; the pool never
 * goes below 0), with a "spend" line in the Karma log naming `reason`, in the same update.
 * False, after telling the user, when the actor cannot spend it.
 */
export async function spendActorKarma(actor: Actor.Implementation, amount: number, reason = "roll"): Promise<boolean> {
  if (amount === 0) return true;
  const system = characterData(actor);
  let update: Actor.UpdateData;
  try {
    if (!system) throw new RangeError("not a character");
    update = karmaUpdate(actor, spendKarmaOnRoll(system.karma.value, amount, reason.trim() || "roll", logDate()).entry);
  } catch (error) {
    console.warn("case | Karma not spent", error);
    ui.notifications.error(game.i18n.format("CASE.Dialog.Error.KarmaPool", { pool: String(system?.karma.value ?? 0) }));
    return false;
  }
  await actor.update(update);
  return true;
}
