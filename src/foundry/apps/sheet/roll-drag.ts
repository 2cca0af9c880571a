/**
 * The drag data of the sheet's roll buttons (an ability, a sub-score, the Resources or
 * Popularity FEAT): `{ type: "CaseRoll", actorUuid, score }`, which the hotbar turns into a
 * macro (hooks/hotbar.ts). Pure, so it is tested without a sheet.
 */
import { isScoreRef } from "../../../rules/index";

/** The drag data of a roll button (`data-case-drag="score" data-score="…"`): a sheet roll for the hotbar, or null. */
export function rollDragData(actorUuid: string, dataset: DOMStringMap): { type: "CaseRoll"; actorUuid: string; score: string } | null {
  const score = dataset.score;
  if (dataset.caseDrag !== "score" || score === undefined) return null;
  return isScoreRef(score) || score === "resources" || score === "popularity" ? { type: "CaseRoll", actorUuid, score } : null;
}

