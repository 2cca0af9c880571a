/**
 * Core's marks on a combatant that the Judge toggles in the tracker (hidden from players,
 * defeated), written by the active GM under the request's locks (the turn query
 * `markCombatantQuery`, ./queries.ts): the combatant's own field (Combatant#hidden,
 * Combatant#defeated) and, for defeated, the actor's defeated status as core's tracker sets it
 * (`CONFIG.specialStatusEffects.DEFEATED` through Actor#toggleStatusEffect, with the overlay).
 */
import { actorLock } from "../actor-writes";
import type { WriteScope } from "../requests/locks";
import { combatLock } from "./turn-host";
import type { CombatantMark } from "./queries";

/** Sets `mark` to `on` on a combatant of a world combat; false when there is no such combatant. */
export async function markCombatant(scope: WriteScope, combatId: string, combatantId: string, mark: CombatantMark, on: boolean): Promise<boolean> {
  const combatant = game.combats.get(combatId)?.combatants.get(combatantId);
  if (!combatant) return false;
  scope.require(combatLock(combatId));
  if (mark === "hidden") {
    if (combatant.hidden !== on) await combatant.update({ hidden: on });
    return true;
  }
  if (combatant.isDefeated !== on) await combatant.update({ defeated: on });
  const actor = combatant.actor;
  if (actor) {
    scope.require(actorLock(actor.uuid));
    await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: on, overlay: true });
  }
  return true;
}
