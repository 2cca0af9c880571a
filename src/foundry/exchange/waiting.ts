/**
 * Which characters the attack cards in chat wait on for a defence (the tracker's "defence
 * waiting" badge): the rows of the newest cards that still offer a defence
 * (rules `targetActions`), by the target's actor and token uuids.
 */
import { targetActions } from "../../rules/index";
import { cardForViewer } from "./card-store";

/** How many of the newest chat messages are looked at (a card waiting longer than that is not badged). */
export const DEFENCE_WAITING_SCAN = 60;

/** The actor and token uuids of every target a card in chat waits on for a defence. */
export function defencesWaiting(): Set<string> {
  const out = new Set<string>();
  const messages = game.messages.contents;
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - DEFENCE_WAITING_SCAN); i--) {
    const message = messages[i];
    if (message?.type !== "attack") continue;
    try {
      const state = cardForViewer(message);
      for (const t of state.targets) {
        if (targetActions(state, t.key).defend.length === 0) continue;
        out.add(t.actorUuid);
        out.add(t.uuid);
      }
    } catch {
      // A card no GM wrote (or one that cannot be read) waits on nobody.
    }
  }
  return out;
}
