/**
 * The hotbar's roll macros (hooks/hotbar.ts): an ability, a sub-score, Resources or Popularity
 * of a character, or a power's FEAT, by UUID, through the usual roll dialog. Part of
 * REFERENCE_API (reference-api.ts): the dice need Foundry's Roll class when they load.
 */
import { isStandingFeat, rollItem, rollScore as rollActorScore, rollStandingFeat } from "../dice/entry-points";
import { isScoreRef } from "../../rules/index";
import { actorFromUuid, isCharacter } from "../core/guards";
import { asItem } from "./index";

/**
 * Rolls `score` for the character `actorUuid` names (a hotbar macro dragged from the sheet): an
 * ability or sub-score ("fighting", "agility.dex" …), or the "resources" or "popularity" FEAT,
 * with the usual dialog. A clear, localised error, and no roll, when the UUID names no
 * character, the user does not own it, or the score is unknown. Resolves to true when rolled.
 */
export async function rollScore(actorUuid: string, score: string): Promise<boolean> {
  const actor = await actorFromUuid(actorUuid);
  if (!actor || !isCharacter(actor)) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.ActorNotFound", { uuid: actorUuid }));
    return false;
  }
  if (!actor.isOwner) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.NotYours", { name: actor.name }));
    return false;
  }
  if (isStandingFeat(score)) return (await rollStandingFeat(actor, score)) !== null;
  if (!isScoreRef(score)) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.UnknownScore", { score }));
    return false;
  }
  return (await rollActorScore(actor, score)) !== null;
}

/**
 * Rolls the FEAT of the power `uuid` names (a hotbar macro): on its rank, with the usual
 * dialog. A clear, localised error, and no roll, when the UUID names no power of a character.
 */
export async function rollPowerFeat(uuid: string): Promise<boolean> {
  const item = asItem(await fromUuid(uuid));
  if (!item) {
    ui.notifications.error(game.i18n.format("CASE.Hotbar.ItemNotFound", { uuid }));
    return false;
  }
  return (await rollItem(item)) !== null;
}
