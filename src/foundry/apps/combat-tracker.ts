/**
 * The combat tracker (CONFIG.ui.combat): Foundry's sidebar tab with its header (encounters,
 * round, settings) kept, and its list and footer replaced by the CASE turn's — the phase and
 * what it waits for, each combatant's declaration (or just "declared", for an NPC's, to
 * players), actions and defences left, shifts and status, and the buttons this user may
 * press. What it shows is `buildTrackerContext` (./tracker-context.ts, tested with the real
 * templates); every button asks the active GM through a query (combat/queries.ts).
 */
import { SYSTEM_PATH } from "../core/constants";
import { requestGM } from "../requests/gm";
import {
  advancePhaseQuery,
  changeActionQuery,
  chooseExtraModeQuery,
  completeActionQuery,
  declareActionQuery,
  noteEventQuery,
  rollTurnInitiativeQuery,
  setAidedQuery,
  firstAidQuery,
} from "../combat/queries";
import { combatantInput, readTurnSettings, trackerOrder, turnEngineOf } from "../combat/foundry-host";
import { advanceRequest, buildTrackerContext, type TrackerContext, type TrackerInput } from "./tracker-context";
import { declareDialog, foundryLocalize } from "./declare-dialog";
import { askNoteEvent, confirmForceAdvance } from "../ui/dialogs";
import { isCharacter } from "../core/guards";

const { CombatTracker } = foundry.applications.sidebar.tabs;
type RenderContext = foundry.applications.sidebar.tabs.CombatTracker.RenderContext;
type RenderOptions = foundry.applications.sidebar.tabs.CombatTracker.RenderOptions;

/** The tracker's own parts (the header stays Foundry's). */
export const TRACKER_TEMPLATES = {
  tracker: "templates/combat/tracker.hbs",
  footer: "templates/combat/footer.hbs",
} as const;

/** The tracker's input, read from Foundry for the viewing user. */
export function trackerInputOf(combat: Combat.Implementation | null): TrackerInput {
  return {
    isGM: game.user.isGM,
    combat: combat ? { id: combat.id ?? "", started: combat.started, system: combat.system } : null,
    combatants: combat
      ? trackerOrder(combat).map((c) => ({
          ...combatantInput(c),
          name: c.name ?? "",
          img: c.img ?? CONST.DEFAULT_TOKEN,
          hidden: c.hidden,
          owner: c.isOwner,
        }))
      : [],
    settings: readTurnSettings(),
  };
}

/** The row a button belongs to. */
function rowOf(target: HTMLElement): { combatantId: string; actionIndex: number } | null {
  const row = target.closest<HTMLElement>("[data-combatant-id]");
  const combatantId = target.dataset.combatantId ?? row?.dataset.combatantId;
  if (combatantId === undefined) return null;
  const index = Number(row?.dataset.actionIndex ?? Number.NaN);
  return { combatantId, actionIndex: Number.isInteger(index) ? index : 0 };
}

export class CaseCombatTracker extends CombatTracker {
  static override DEFAULT_OPTIONS = {
    classes: ["case"],
    actions: {
      caseAdvance: CaseCombatTracker.#advance,
      caseDeclare: CaseCombatTracker.#declare,
      caseChooseMode: CaseCombatTracker.#chooseMode,
      caseRollInitiative: CaseCombatTracker.#rollInitiative,
      caseComplete: CaseCombatTracker.#complete,
      caseChange: CaseCombatTracker.#change,
      caseAided: CaseCombatTracker.#aided,
      caseFirstAid: CaseCombatTracker.#firstAid,
      caseNoteEvent: CaseCombatTracker.#noteEvent,
    },
  };

  static override PARTS = {
    ...CombatTracker.PARTS,
    tracker: { template: `${SYSTEM_PATH}/${TRACKER_TEMPLATES.tracker}`, scrollable: [""] },
    footer: { template: `${SYSTEM_PATH}/${TRACKER_TEMPLATES.footer}` },
  };

  /** The CASE context of the viewed combat, for this user. */
  caseContext(): TrackerContext {
    try {
      return buildTrackerContext(trackerInputOf(this.viewed), foundryLocalize);
    } catch (error) {
      // Stored data the turn cannot read must not take the whole sidebar down.
      console.error("case | the CASE turn could not be read", error);
      return buildTrackerContext({ ...trackerInputOf(null), isGM: game.user.isGM }, foundryLocalize);
    }
  }

  protected override async _preparePartContext(partId: string, context: RenderContext, options: RenderOptions): Promise<RenderContext> {
    const base = await super._preparePartContext(partId, context, options);
    if (partId === "tracker" || partId === "footer") Object.assign(base, { case: this.caseContext() });
    return base;
  }

  private combatId(): string | null {
    return this.viewed?.id ?? null;
  }

  static async #advance(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    if (combatId === null) return;
    const confirmed = target.dataset.force === "true" ? await confirmForceAdvance(this.caseContext().waiting) : false;
    const request = advanceRequest(combatId, target.dataset, confirmed);
    if (request) await requestGM(advancePhaseQuery, request);
  }

  static async #declare(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combat = this.viewed;
    const row = rowOf(target);
    if (!combat || !row) return;
    const combatant = combat.combatants.get(row.combatantId);
    if (!combatant) return;
    const actor = combatant.actor;
    const current = turnEngineOf(combat).state().combatants.get(row.combatantId)?.declaration ?? null;
    const declaration = await declareDialog({
      name: combatant.name ?? "",
      offence: actor && isCharacter(actor) ? actor.system.stats.scores["fighting.off"] : 6,
      current,
      change: false,
      declaredDodge: readTurnSettings().declaredDodge,
    });
    if (declaration) await requestGM(declareActionQuery, { combatId: combat.id, combatantId: row.combatantId, declaration });
  }

  static async #chooseMode(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const row = rowOf(target);
    const mode = target.dataset.mode;
    if (combatId === null || !row || (mode !== "separate" && mode !== "flurry")) return;
    await requestGM(chooseExtraModeQuery, { combatId, combatantId: row.combatantId, mode });
  }

  static async #rollInitiative(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const row = rowOf(target);
    if (combatId === null || !row) return;
    await requestGM(rollTurnInitiativeQuery, { combatId, combatantIds: [row.combatantId] });
  }

  static async #complete(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const row = rowOf(target);
    if (combatId === null || !row) return;
    // The footer's button carries no row: take the acting combatant's index from the list.
    const index = this.caseContext().rows.find((r) => r.id === row.combatantId)?.actionIndex ?? row.actionIndex;
    await requestGM(completeActionQuery, { combatId, combatantId: row.combatantId, actionIndex: index });
  }

  static async #change(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combat = this.viewed;
    const row = rowOf(target);
    if (!combat || !row) return;
    const combatant = combat.combatants.get(row.combatantId);
    if (!combatant) return;
    const current = turnEngineOf(combat).state().combatants.get(row.combatantId)?.declaration ?? null;
    // Changing keeps the number of actions declared, so the Ftg (off) does not matter here.
    const declaration = await declareDialog({ name: combatant.name ?? "", offence: 0, current, change: true, declaredDodge: readTurnSettings().declaredDodge });
    if (!declaration) return;
    const answer = await requestGM(changeActionQuery, { combatId: combat.id, combatantId: row.combatantId, declaration, actionIndex: row.actionIndex });
    if (answer?.success === false) ui.notifications.warn(game.i18n.format("CASE.Turn.Notify.ChangeFailed", { name: combatant.name ?? "" }));
  }

  static async #aided(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const row = rowOf(target);
    if (combatId === null || !row) return;
    await requestGM(setAidedQuery, { combatId, combatantId: row.combatantId, aided: target.dataset.aided === "true" });
  }

  static async #firstAid(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const row = rowOf(target);
    const aiderId = target.dataset.aiderId ?? "";
    if (combatId === null || !row || aiderId === "") return;
    const answer = await requestGM(firstAidQuery, { combatId, combatantId: row.combatantId, aiderId });
    if (answer) ui.notifications.info(game.i18n.format(answer.revived ? "CASE.Aid.Revived" : "CASE.Aid.Stopped", { name: this.viewed?.combatants.get(row.combatantId)?.name ?? "" }));
  }

  static async #noteEvent(this: CaseCombatTracker): Promise<void> {
    const combatId = this.combatId();
    if (combatId === null) return;
    const text = await askNoteEvent();
    if (text !== null) await requestGM(noteEventQuery, { combatId, text });
  }
}
