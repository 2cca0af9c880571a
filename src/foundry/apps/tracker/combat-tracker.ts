/**
 * The combat tracker (CONFIG.ui.combat): Foundry's sidebar tab with its header (encounters,
 * round, settings) kept, and its list and footer replaced by the CASE turn's — the phase and
 * what it waits for, each combatant's declaration (or just "declared", for an NPC's, to
 * players), actions and defences left, shifts and status, and the buttons this user may
 * press. What it shows is `buildTrackerContext` (./tracker-context.ts, tested with the real
 * templates); every button asks the active GM through a query (combat/queries.ts).
 */
import { SYSTEM_ID, SYSTEM_PATH } from "../../core/constants";
import { requestGM } from "../../requests/gm";
import {
  advancePhaseQuery,
  changeActionQuery,
  chooseExtraModeQuery,
  completeActionQuery,
  declareActionQuery,
  declareManyQuery,
  noteEventQuery,
  repeatDeclarationsQuery,
  rollTurnInitiativeQuery,
  setAidedQuery,
  stepBackQuery,
  firstAidQuery,
  markCombatantQuery,
  type CombatantMark,
} from "../../combat/queries";
import { combatantInput, minorGroupsOf, readTurnSettings, trackerOrder, turnEngineOf, turnRecordOf } from "../../combat/foundry-host";
import { advanceRequest, buildTrackerContext, type TrackerContext, type TrackerInput } from "./tracker-context";
import { DECLARE_MANY_TEMPLATE, declareDialog, foundryLocalize, notifyBadDeclaration } from "./declare-dialog";
import { askForm, askNoteEvent, confirmForceAdvance, confirmStepBack } from "../../ui/dialogs";
import { isCharacter, isItemType } from "../../core/guards";
import { findToken, pingToken, visibleToken } from "../../ui/board";
import { defencesWaiting } from "../../exchange/waiting";
import { defendShortcut } from "../../exchange/card";
import { buildBulkDeclareContext, bulkDeclarationsFromForm } from "./declare-context";
import { isTurnPhase, mayDeclare } from "../../../rules/index";
import { pluralKey } from "../../core/format";
import { makeAttack } from "../../exchange/make-attack";
import { caseEntryOptions } from "./tracker-menu";
import type { AttackItem } from "./tracker-context";

const { CombatTracker } = foundry.applications.sidebar.tabs;
type RenderContext = foundry.applications.sidebar.tabs.CombatTracker.RenderContext;
type RenderOptions = foundry.applications.sidebar.tabs.CombatTracker.RenderOptions;

/** The tracker's own parts (the header stays Foundry's). */
export const TRACKER_TEMPLATES = {
  tracker: "templates/combat/tracker.hbs",
  footer: "templates/combat/footer.hbs",
} as const;

/** The Judge's "back one step" as the GM's record holds it (players never receive the record). */
function historyOf(combat: Combat.Implementation): TrackerInput["history"] {
  const history = turnRecordOf(combat.id ?? "")?.history ?? [];
  const last = history.at(-1);
  if (!last || !isTurnPhase(last.combat.phase)) return null;
  const name = last.combatantId === null ? null : (combat.combatants.get(last.combatantId)?.name ?? null);
  return { steps: history.length, phase: last.combat.phase, turn: last.combat.turnNumber, cause: last.cause, name };
}

/** The attacks an owned character's items make (the acting row offers the declared one). */
function attackItems(actor: Actor.Implementation | null, owner: boolean): AttackItem[] {
  if (!actor || !owner) return [];
  return actor.items.contents.flatMap((item) => {
    const attack = isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null;
    return attack?.enabled ? [{ itemUuid: item.uuid, name: item.name, attack: attack.type }] : [];
  });
}

/** The tracker's input, read from Foundry for the viewing user. */
export function trackerInputOf(combat: Combat.Implementation | null): TrackerInput {
  const waiting = combat ? defencesWaiting() : new Set<string>();
  const groups = combat ? minorGroupsOf(combat) : new Map<string, string>();
  return {
    isGM: game.user.isGM,
    combat: combat ? { id: combat.id ?? "", started: combat.started, system: combat.system } : null,
    combatants: combat
      ? trackerOrder(combat).map((c) => {
          const actor = c.actor;
          return {
            ...combatantInput(c, [], groups),
            name: c.name ?? "",
            img: c.img ?? CONST.DEFAULT_TOKEN,
            hidden: c.hidden,
            owner: c.isOwner,
            health: actor && isCharacter(actor) ? { value: actor.system.health.value, max: actor.system.health.max } : null,
            onScene: visibleToken(c.tokenId ?? null) !== null,
            defenceWaiting: actor !== null && (waiting.has(actor.uuid) || (c.token !== null && waiting.has(c.token.uuid))),
            attacks: attackItems(actor, game.user.isGM || c.isOwner),
          };
        })
      : [],
    settings: readTurnSettings(),
    history: combat && game.user.isGM ? historyOf(combat) : null,
    hintFolded: game.settings.get(SYSTEM_ID, "trackerHintFolded"),
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
      caseDeclareGroup: CaseCombatTracker.#declareGroup,
      caseToggleRow: CaseCombatTracker.#toggleRow,
      caseFindToken: CaseCombatTracker.#findToken,
      casePingToken: CaseCombatTracker.#pingToken,
      caseShowDefence: CaseCombatTracker.#showDefence,
      caseToggleHidden: CaseCombatTracker.#toggleHidden,
      caseToggleDefeated: CaseCombatTracker.#toggleDefeated,
      caseStepBack: CaseCombatTracker.#stepBack,
      caseBulkDeclare: CaseCombatTracker.#bulkDeclare,
      caseRepeatDeclarations: CaseCombatTracker.#repeatDeclarations,
      caseToggleHint: CaseCombatTracker.#toggleHint,
      caseAttack: CaseCombatTracker.#attack,
      caseFightLog: CaseCombatTracker.#fightLog,
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

  /** Core's row menu without the entries that bypass the CASE turn; its reroll is the turn's roll (tracker-menu.ts). */
  protected override _getEntryContextOptions() {
    const core = super._getEntryContextOptions();
    const id = (li: HTMLElement): string => li.dataset.combatantId ?? "";
    // v13's entry form, as core's entries are typed (v14 still reads it).
    return caseEntryOptions(core, {
      name: "CASE.Turn.Button.RollInitiative",
      icon: '<i class="fa-solid fa-dice-d20"></i>',
      condition: (li: HTMLElement) => this.caseContext().rows.some((r) => r.id === id(li) && r.can.rollInitiative),
      callback: (li: HTMLElement) => void this.viewed?.rollInitiative([id(li)]),
    });
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

  /** The Judge's fight log of the viewed combat (api/fight-log-api.ts, by the stable API; GM only, it refuses a player). */
  static async #fightLog(this: CaseCombatTracker): Promise<void> {
    const combatId = this.combatId();
    if (combatId !== null) await CONFIG.CASE.api.openFightLog(combatId);
  }

  static async #noteEvent(this: CaseCombatTracker): Promise<void> {
    const combatId = this.combatId();
    if (combatId === null) return;
    const text = await askNoteEvent();
    if (text !== null) await requestGM(noteEventQuery, { combatId, text });
  }

  /** One declaration for a group of minor foes: the Judge declares once, for every member (one request). */
  static async #declareGroup(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combat = this.viewed;
    const row = target.closest<HTMLElement>("[data-group-members]");
    const ids = row?.dataset.groupMembers?.split(",").filter((id) => combat?.combatants.has(id)) ?? [];
    const first = ids[0] === undefined ? undefined : combat?.combatants.get(ids[0]);
    if (!combat || !first) return;
    const actor = first.actor;
    const name = this.caseContext().rows.find((r) => r.id === first.id)?.name ?? first.name ?? "";
    const declaration = await declareDialog({
      name,
      offence: actor && isCharacter(actor) ? actor.system.stats.scores["fighting.off"] : 6,
      current: null,
      change: false,
      declaredDodge: readTurnSettings().declaredDodge,
    });
    if (declaration) await requestGM(declareManyQuery, { combatId: combat.id, declarations: ids.map((combatantId) => ({ combatantId, declaration })) });
  }

  /** Folds or unfolds the phase hint and the waiting list; remembered for this user (a client setting). */
  static async #toggleHint(this: CaseCombatTracker): Promise<void> {
    await game.settings.set(SYSTEM_ID, "trackerHintFolded", !game.settings.get(SYSTEM_ID, "trackerHintFolded"));
    await this.render();
  }

  /** The acting row's declared attack: the item's attack dialog (shift-click: none), as from the sheet (make-attack.ts), at the user's targets. */
  static async #attack(this: CaseCombatTracker, event: PointerEvent, target: HTMLElement): Promise<void> {
    const uuid = target.dataset.itemUuid ?? "";
    const doc: unknown = uuid === "" ? null : await fromUuid(uuid);
    if ((doc as { documentName?: unknown } | null)?.documentName === "Item") await makeAttack(doc as Item.Implementation, { skipDialog: event.shiftKey });
  }

  /** Shows or hides a row's details (the declaration in full, counters, every button); kept across renders. */
  static #toggleRow(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): void {
    const row = target.closest<HTMLElement>("[data-combatant-id]");
    const details = row?.querySelector<HTMLElement>(".case-row-details");
    if (!row || !details) return;
    const open = details.hidden;
    details.hidden = !open;
    row.classList.toggle("expanded", open);
    target.setAttribute("aria-expanded", String(open));
  }

  /** Click to pan to the token (and select it, when the user owns it), as core's tracker does. */
  static #findToken(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): void {
    const combatant = this.combatantOf(target);
    if (!combatant) return;
    if (findToken(combatant.tokenId ?? null) === "notHere") ui.notifications.info(game.i18n.format("CASE.Tracker.NotOnScene", { name: combatant.name ?? "" }));
  }

  static #pingToken(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): void {
    const combatant = this.combatantOf(target);
    if (combatant && !pingToken(combatant.tokenId ?? null)) ui.notifications.info(game.i18n.format("CASE.Tracker.NotOnScene", { name: combatant.name ?? "" }));
  }

  /** The *Defend!* badge: the newest card row waiting on this combatant's defence, in view and in the defence dialog (exchange/card.ts). */
  static async #showDefence(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const c = this.combatantOf(target);
    await defendShortcut((t) => t.actorUuid === c?.actor?.uuid || t.uuid === c?.token?.uuid);
  }

    /** Core's hide toggle (the Judge), written by the active GM under the combat's lock. */
  static async #toggleHidden(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    await this.mark(target, "hidden");
  }

  /** Core's defeated toggle (the Judge): the combatant's mark and the actor's defeated status, as the turn marks the dead. */
  static async #toggleDefeated(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    await this.mark(target, "defeated");
  }

  /** Asks the active GM to flip a row's hidden or defeated mark. */
  private async mark(target: HTMLElement, mark: CombatantMark): Promise<void> {
    const combatant = this.combatantOf(target);
    const combatId = this.combatId();
    if (!combatant || combatId === null || !game.user.isGM) return;
    const on = mark === "hidden" ? !combatant.hidden : !combatant.isDefeated;
    await requestGM(markCombatantQuery, { combatId, combatantId: combatant.id, mark, on });
  }

  /** Back one step (the Judge), after a confirmation naming what the turn goes back to. */
  static async #stepBack(this: CaseCombatTracker, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const combatId = this.combatId();
    const back = this.caseContext().back;
    const steps = Number(target.dataset.steps);
    if (combatId === null || back === null || !Number.isInteger(steps)) return;
    if (await confirmStepBack(back.label)) await requestGM(stepBackQuery, { combatId, steps });
  }

  /** The NPCs that may declare now (for the bulk dialog), in tracker order. */
  private declaringNpcs(combat: Combat.Implementation): { id: string; name: string; offence: number; current: null }[] {
    const state = turnEngineOf(combat).state();
    return trackerOrder(combat).flatMap((c) => {
      const turn = state.combatants.get(c.id ?? "");
      if (c.hasPlayerOwner || !turn || turn.declaration !== null || !mayDeclare(state, turn)) return [];
      const actor = c.actor;
      return [{ id: c.id ?? "", name: c.name ?? "", offence: actor && isCharacter(actor) ? actor.system.stats.scores["fighting.off"] : 6, current: null }];
    });
  }

  /** Bulk declare: one dialog with a line per NPC still to declare; one request. */
  static async #bulkDeclare(this: CaseCombatTracker): Promise<void> {
    const combat = this.viewed;
    if (!combat) return;
    const npcs = this.declaringNpcs(combat);
    if (npcs.length === 0) {
      ui.notifications.info(game.i18n.localize("CASE.Tracker.BulkNothing"));
      return;
    }
    const content = await foundry.applications.handlebars.renderTemplate(DECLARE_MANY_TEMPLATE, buildBulkDeclareContext(npcs, foundryLocalize));
    const form = await askForm(game.i18n.localize("CASE.Tracker.BulkDeclareTitle"), content, "CASE.Turn.Button.Declare", "fa-solid fa-bullhorn", "declare");
    if (!form) return;
    let declarations;
    try {
      declarations = bulkDeclarationsFromForm(form, npcs);
    } catch (error) {
      notifyBadDeclaration(error);
      return;
    }
    if (declarations.length === 0) ui.notifications.info(game.i18n.localize("CASE.Tracker.BulkNothing"));
    else await requestGM(declareManyQuery, { combatId: combat.id, declarations });
  }

  /** Repeat last turn's declarations for the NPCs who have none yet. */
  static async #repeatDeclarations(this: CaseCombatTracker): Promise<void> {
    const combat = this.viewed;
    if (!combat) return;
    const ids = this.declaringNpcs(combat).map((n) => n.id);
    const answer = ids.length > 0 ? await requestGM(repeatDeclarationsQuery, { combatId: combat.id, combatantIds: ids }) : null;
    const count = answer?.repeated.length ?? 0;
    if (count === 0) ui.notifications.info(game.i18n.localize("CASE.Tracker.NothingToRepeat"));
    else ui.notifications.info(game.i18n.format(pluralKey("CASE.Tracker.Repeated.", count, game.i18n.lang), { count: String(count) }));
  }

  private combatantOf(target: HTMLElement): Combatant.Implementation | null {
    const row = rowOf(target);
    return row ? (this.viewed?.combatants.get(row.combatantId) ?? null) : null;
  }
}

/** Re-renders the tracker when what its rows show changes outside the combat: attack cards (defence waiting), characters' Health. */
export function registerTrackerHooks(): void {
  const refresh = (): void => {
    if (game.combat) void ui.combat.render();
  };
  for (const hook of ["createChatMessage", "updateChatMessage", "deleteChatMessage"] as const) {
    Hooks.on(hook, (message: ChatMessage.Implementation) => {
      if (message.type === "attack") refresh();
    });
  }
  Hooks.on("updateActor", (actor: Actor.Implementation) => {
    if (game.combat?.combatants.some((c) => c.actor === actor)) refresh();
  });
}
