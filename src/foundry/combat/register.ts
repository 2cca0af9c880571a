/**
 * Registers the CASE turn on init: the Combat and Combatant classes and data models, the
 * tracker, the queries, the exchange's bridge, and the turn's templates.
 */
import { CaseCombatTracker, TRACKER_TEMPLATES } from "../apps/combat-tracker";
import { DECLARE_TEMPLATE } from "../apps/declare-dialog";
import { registerCombatDataModels } from "../data/combat/index";
import { CaseCombat, CaseCombatant } from "../documents/combat";
import { SYSTEM_PATH } from "../core/constants";
import { TURN_CARD_TEMPLATE, registerTurnServices } from "./foundry-host";

export function registerCombatTurn(): void {
  CONFIG.Combat.documentClass = CaseCombat;
  CONFIG.Combatant.documentClass = CaseCombatant;
  registerCombatDataModels();
  CONFIG.ui.combat = CaseCombatTracker;
  registerTurnServices();
  void foundry.applications.handlebars.loadTemplates([
    ...Object.values(TRACKER_TEMPLATES).map((path) => `${SYSTEM_PATH}/${path}`),
    DECLARE_TEMPLATE,
    TURN_CARD_TEMPLATE,
  ]);
}
