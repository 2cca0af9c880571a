/**
 * The Judge's desk in the Actors sidebar: *Award Karma*, *Heal* and *Rest* buttons in the
 * directory's header actions, for a GM only (players see none of them). Like the builder's
 * button (builder-entry.ts), they are added on `renderActorDirectory(app, element)` (ApplicationV2
 * `render<ClassName>` hooks, as dnd5e and pf2e use them), once per render. Each opens the same
 * prompt as its compendium macro: the award dialog (campaign-api.ts), the heal dialog
 * (heal-api.ts), the rest dialog for the selected tokens (campaign-api.ts) and the stat-block
 * import (apps/builder/stat-block-import.ts), and the fight log (api/fight-log-api.ts).
 */
import { promptAwardKarma, promptRestSelected } from "../api/campaign-api";
import { promptHeal } from "../api/heal-api";
import { importStatBlock } from "../apps/builder/stat-block-import";
import { openFightLog } from "../api/fight-log-api";

export const JUDGE_DESK_CLASS = "case-judge-desk";

/** The desk's buttons: action, icon, label key, and what a click runs. */
export const JUDGE_DESK_BUTTONS = [
  { action: "award", icon: "fa-solid fa-star", labelKey: "CASE.Campaign.Award.Title", run: promptAwardKarma },
  { action: "heal", icon: "fa-solid fa-kit-medical", labelKey: "CASE.Heal.Title", run: promptHeal },
  { action: "rest", icon: "fa-solid fa-bed", labelKey: "CASE.Rest.Selected", run: promptRestSelected },
  { action: "import", icon: "fa-solid fa-file-import", labelKey: "CASE.StatBlock.Button", run: () => importStatBlock() },
  { action: "fightLog", icon: "fa-solid fa-scroll", labelKey: "CASE.FightLog.Button", run: () => openFightLog() },
] as const;

/** Adds the GM's buttons to the directory's header actions (no-op for a player, when already there, or without a header). */
export function addJudgeDeskButtons(element: HTMLElement): void {
  if (!game.user.isGM) return;
  const actions = element.querySelector(".header-actions");
  if (!actions || actions.querySelector(`.${JUDGE_DESK_CLASS}`)) return;
  for (const spec of JUDGE_DESK_BUTTONS) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `${JUDGE_DESK_CLASS} case-judge-${spec.action}`;
    button.dataset.caseAction = spec.action;
    const icon = document.createElement("i");
    icon.className = spec.icon;
    icon.inert = true;
    button.append(icon, ` ${game.i18n.localize(spec.labelKey)}`);
    button.addEventListener("click", () => void spec.run());
    actions.append(button);
  }
}

/** Registers the hook (call in init). */
export function registerJudgeDesk(): void {
  Hooks.on("renderActorDirectory", (_app: unknown, element: unknown) => {
    if (element instanceof HTMLElement) addJudgeDeskButtons(element);
  });
}
