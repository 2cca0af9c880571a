/**
 * The system's Combat and Combatant classes. The CASE turn lives in `combat.system` and
 * `combatant.system` (data/combat/) and is run by the turn engine (combat/engine.ts) on the
 * active GM; every button and every core entry point that would move the turn (Next Turn,
 * Next Round, Roll Initiative) asks the GM through a query instead of writing here.
 */
import { requestGM } from "../requests/gm";
import {
  actionsLeft,
  isActingPhase,
  declaredDodgeShift,
  nextDefencePenalty,
  type CombatantTurn,
  type DefenceCode,
  type HoldState,
  type TurnPhase,
  type TurnState,
} from "../../rules/index";
import type { DefenceAnswer } from "../combat/turn-host";
import { compareCombatants, isTurnWriter, turnEngineOf } from "../combat/foundry-host";
import { advancePhaseQuery, completeActionQuery, recordDefenceQuery, rollTurnInitiativeQuery, setConditionQuery } from "../combat/queries";
import type { CombatSystemData } from "../combat/state";

/** A combatant's combat; null for one outside a combat (a temporary one), whatever the types say. */
function parentOf(combatant: Combatant.Implementation): Combat.Implementation | null {
  return combatant.parent;
}

function systemOf(combat: Combat.Implementation): CombatSystemData {
  return combat.system;
}

export class CaseCombat<SubType extends Combat.SubType = Combat.SubType> extends Combat<SubType> {
  /** The CASE turn as the rules see it (read-only; fresh on each call). */
  get caseTurn(): TurnState {
    return turnEngineOf(this).state();
  }

  /** The CASE phase. */
  get casePhase(): TurnPhase {
    return this.caseTurn.combat.phase;
  }

  /**
   * Foundry's start sets round 1 and turn 0; the CASE turn keeps its declarations (they live in
   * `system`, which the start does not touch) and the GM then puts Foundry's turn marker where
   * the CASE turn is (nobody acts before the resolve phase).
   */
  override async startCombat(): Promise<this> {
    await super.startCombat();
    if (isTurnWriter()) await this.syncFoundryTurn();
    return this;
  }

  /** Puts Foundry's round and turn in step with the CASE turn (GM only). */
  async syncFoundryTurn(): Promise<void> {
    const state = this.caseTurn;
    const current = isActingPhase(state.combat.phase) ? (state.combat.order[state.combat.cursor] ?? null) : null;
    const order = new Map(state.combat.order.map((id, i) => [id, i]));
    const sorted = [...this.combatants.contents].sort((a, b) => compareCombatants(a, b, current === null ? null : order));
    const index = current === null ? -1 : sorted.findIndex((c) => c.id === current);
    const turn = index < 0 ? null : index;
    const update: Record<string, unknown> = {};
    if (this.turn !== turn) update.turn = turn;
    if (this.started && this.round !== state.combat.number) update.round = state.combat.number;
    if (Object.keys(update).length > 0) await this.update(update);
  }

  /** Next Turn (core button, macros): the acting combatant is done with its action. */
  override async nextTurn(): Promise<this> {
    const state = this.caseTurn;
    const id = isActingPhase(state.combat.phase) ? state.combat.order[state.combat.cursor] : undefined;
    const c = id === undefined ? undefined : state.combatants.get(id);
    if (id === undefined || c === undefined) {
      ui.notifications.warn(game.i18n.localize("CASE.Turn.Notify.NobodyActing"));
      return this;
    }
    await requestGM(completeActionQuery, { combatId: this.id ?? "", combatantId: id, actionIndex: c.actionsUsed });
    return this;
  }

  /** Next Round (core button, macros): the CASE turn moves to its next phase. */
  override async nextRound(): Promise<this> {
    await requestGM(advancePhaseQuery, { combatId: this.id ?? "", from: this.casePhase, force: false });
    return this;
  }

  /** Foundry's previous-turn controls do not move the CASE turn: the Judge goes back through the tracker's Back one step (the turn's history). */
  override previousTurn(): Promise<this> {
    ui.notifications.warn(game.i18n.localize("CASE.Turn.Notify.NoGoingBack"));
    return Promise.resolve(this);
  }

  override previousRound(): Promise<this> {
    ui.notifications.warn(game.i18n.localize("CASE.Turn.Notify.NoGoingBack"));
    return Promise.resolve(this);
  }

  /**
   * Roll Initiative (the tracker's d10 icons, Roll All, Roll NPCs, macros): the CASE turn's
   * initiative roll, made by the GM, in the initiative phase only.
   */
  override async rollInitiative(ids: string | string[]): Promise<this> {
    const list = typeof ids === "string" ? [ids] : ids;
    if (this.casePhase !== "initiative") {
      ui.notifications.warn(game.i18n.localize("CASE.Turn.Notify.NotInitiative"));
      return this;
    }
    if (list.length > 0) await requestGM(rollTurnInitiativeQuery, { combatId: this.id ?? "", combatantIds: list });
    return this;
  }

  /** In the CASE order while resolving; otherwise by initiative value, then name. */
  protected override _sortCombatants(a: Combatant.Implementation, b: Combatant.Implementation): number {
    // Not `this`: Foundry may call the sort unbound. The combat is the combatants' parent.
    const parent = parentOf(a);
    const system = parent ? systemOf(parent) : null;
    const resolving = system !== null && isActingPhase(system.phase);
    return compareCombatants(a, b, resolving ? new Map(system.order.map((id, i) => [id, i])) : null);
  }
}

export class CaseCombatant<SubType extends Combatant.SubType = Combatant.SubType> extends Combatant<SubType> {
  /** The combat, or null for a combatant outside one (a temporary one), whatever the types say. */
  private get combatOrNull(): Combat.Implementation | null {
    return this.parent;
  }

  /** This combatant's part of the CASE turn (rules shape), or null outside a combat. */
  get caseTurn(): CombatantTurn | null {
    const combat = this.combatOrNull;
    if (!combat) return null;
    return turnEngineOf(combat).state().combatants.get(this.id ?? "") ?? null;
  }

  /** The declared dodge's shift on every attack on this combatant this turn (0 without one). */
  get declaredDodgeShift(): number {
    const c = this.caseTurn;
    return c ? declaredDodgeShift(c) : 0;
  }

  /** Defences used this turn that count against the free defences. */
  get defencesUsed(): number {
    return this.caseTurn?.defencesUsed ?? 0;
  }

  /** The shift on this combatant's next counted defence: 0 while free, then −2 CS cumulative (Table 22). */
  get nextDefencePenalty(): number {
    const c = this.caseTurn;
    return c ? nextDefencePenalty(c) : 0;
  }

  /** Actions left this turn. */
  get actionsLeft(): number {
    const c = this.caseTurn;
    return c ? actionsLeft(c) : 0;
  }

  /** Records one defence used, through the GM; the penalty that defence took. */
  async recordDefence(defence?: DefenceCode): Promise<DefenceAnswer | undefined> {
    return (await requestGM(recordDefenceQuery, { combatId: this.combatOrNull?.id ?? "", combatantId: this.id ?? "", defence: defence ?? null })) ?? undefined;
  }

  /** A stun lands (GM): `turns` turns, timed by whether this combatant has acted. */
  async applyStun(turns: number): Promise<void> {
    await requestGM(setConditionQuery, { combatId: this.combatOrNull?.id ?? "", combatantId: this.id ?? "", condition: "stun", turns, hold: "none" });
  }

  /** A Kill result: dying until aided (GM). */
  async markDying(): Promise<void> {
    await requestGM(setConditionQuery, { combatId: this.combatOrNull?.id ?? "", combatantId: this.id ?? "", condition: "dying", turns: 0, hold: "none" });
  }

  /** Puts this combatant in (or out of) a hold (GM). */
  async setHold(hold: HoldState): Promise<void> {
    await requestGM(setConditionQuery, { combatId: this.combatOrNull?.id ?? "", combatantId: this.id ?? "", condition: "hold", turns: 0, hold });
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    Combat: typeof CaseCombat<Combat.SubType>;
    Combatant: typeof CaseCombatant<Combatant.SubType>;
  }
  interface ConfiguredCombat<SubType extends Combat.SubType> {
    document: CaseCombat<SubType>;
  }
  interface ConfiguredCombatant<SubType extends Combatant.SubType> {
    document: CaseCombatant<SubType>;
  }
}
