import { RulesRangeError } from "../errors";
import { MIN_ACTIONS_PER_TURN } from "../actions";
import { regenerationPerTurn } from "../recovery";
import { KILL_LOSS_AT_OWN_WRAP_UP, enduranceAfterKillLoss, killLossAtWrapUp, killLossContinues } from "../consequences";
import { needsRoll } from "../initiative";

import { type PhaseRules, TURN_PHASES, TURN_TABLE, TurnError, type TurnPhase, type WaitingNeed, assertBoolean, isTurnPhase, show } from "./phases";
import { type CombatantTurn, DEFAULT_EXTRA_ACTION_MODE, FRESH_INITIATIVE, type TurnChange, type TurnState, canActThisTurn, currentCombatantId } from "./state";
import { Draft, anyDue, settleCursor } from "./change";
import { type InitiativeWaiting, initiativeWaiting } from "./initiative-waiting";
import { buildOrder } from "./acting-order";
import { applyExtraOutcome, beginExtraActions } from "./steps";

// ── The turn as a table: who each phase waits for, and walking from phase to phase ──────────

/** Something a phase waits for: who, and what. */
export interface Waiting {
  readonly id: string;
  readonly need: WaitingNeed;
}

/** The combatants of a state, in tracker order, without copying them into an array. */
function ids(state: TurnState, owes: (c: CombatantTurn) => boolean): string[] {
  const out: string[] = [];
  for (const c of state.combatants.values()) if (owes(c)) out.push(c.id);
  return out;
}

/**
 * Who still owes each kind of thing the phases wait for. `initiative` gives the state's
 * {@link initiativeWaiting}, worked out at most once however many needs read it.
 */
const WAITING_FOR: Readonly<Record<WaitingNeed, (state: TurnState, initiative: () => InitiativeWaiting) => readonly string[]>> = {
  declaration: (state) => ids(state, (c) => canActThisTurn(c) && c.declaration === null),
  extraRoll: (state) => ids(state, (c) => c.extra !== null && canActThisTurn(c) && c.extra.roll === null),
  extraMode: (state) => ids(state, (c) => c.extra !== null && canActThisTurn(c) && c.extra.roll !== null && c.extra.success === true && c.extra.mode === null),
  initiativeRoll: (_state, initiative) => initiative().rolls,
  rollOff: (_state, initiative) => initiative().rollOffs.flat(),
  dodgeRoll: (_state, initiative) => initiative().dodges,
  action: (state) => {
    const id = currentCombatantId(state);
    return id === null ? [] : [id];
  },
};

/**
 * Who the current phase still waits for before it may end (see {@link advancePhase}), in the
 * order of the phase's {@link PhaseRules.waitsFor}. O(n log n).
 */
export function phaseWaiting(state: TurnState, table: Readonly<Record<TurnPhase, PhaseRules>> = TURN_TABLE): Waiting[] {
  let initiative: InitiativeWaiting | null = null;
  const once = (): InitiativeWaiting => (initiative ??= initiativeWaiting(state));
  const out: Waiting[] = [];
  for (const need of table[state.combat.phase].waitsFor) for (const id of WAITING_FOR[need](state, once)) out.push({ id, need });
  return out;
}

/** Options of {@link advancePhase}. */
export interface AdvanceOptions {
  /**
   * Move on although someone has not declared (they take one undeclared action), has not
   * chosen separate or flurry ({@link DEFAULT_EXTRA_ACTION_MODE}), or has not acted (the rest of
   * the turn's actions are forgone — "one character's actions obviate the need for another's").
   * Missing rolls are never forced: roll them.
   */
  readonly force?: boolean;
  /** The turn's table (tests walk a table of their own; the system uses {@link TURN_TABLE}). */
  readonly table?: Readonly<Record<TurnPhase, PhaseRules>>;
}

/** The phase after `phase` when nothing is skipped (the table's `follows`). */
export function nextPhase(phase: TurnPhase): TurnPhase {
  return TURN_TABLE[phase].follows;
}

/** The phase the turn goes to from `phase`: what follows it, past every phase entered only when actions are due. */
function phaseAfter(draft: Draft, phase: TurnPhase, force: boolean, table: Readonly<Record<TurnPhase, PhaseRules>>): TurnPhase {
  let next = table[phase].follows;
  for (let hops = 0; table[next].onlyWhenActionsDue && hops < TURN_PHASES.length; hops++) {
    if (!force && anyDue(draft, draft.state.combat.order, draft.combatField("round") + 1)) break;
    next = table[next].follows;
  }
  return next;
}

/** The bookkeeping as a phase ends (before the next begins). */
const LEAVING: Partial<Record<TurnPhase, (draft: Draft, waiting: readonly Waiting[]) => void>> = {
  // Forced on: whoever has not chosen takes the default (separate actions).
  extraActions: (draft, waiting) => {
    for (const w of waiting) {
      const c = draft.get(w.id) as CombatantTurn;
      if (c.extra !== null && c.extra.success !== null) applyExtraOutcome(draft.edit(c), { ...c.extra, success: c.extra.success, mode: DEFAULT_EXTRA_ACTION_MODE });
    }
  },
  wrapUp: (draft) => {
    wrapUp(draft);
  },
};

/** The bookkeeping as a phase begins (its name is already set). */
const ENTERING: Partial<Record<TurnPhase, (draft: Draft) => void>> = {
  declare: (draft) => {
    draft.setCombat({ number: draft.state.combat.number + 1, round: 0, order: Object.freeze([]), cursor: 0, events: Object.freeze([]) });
  },
  extraActions: (draft) => {
    beginExtraActions(draft);
  },
  resolve: (draft) => {
    draft.setCombat({ order: Object.freeze(buildOrder(draft)), round: 1, cursor: 0 });
    settleCursor(draft, 0);
  },
  extraRounds: (draft) => {
    draft.setCombat({ round: 2, cursor: 0 });
    settleCursor(draft, 0);
  },
  wrapUp: (draft) => {
    draft.setCombat({ cursor: draft.state.combat.order.length });
  },
};

/**
 * Ends the phase `from` and begins the next, as the turn's table says [001 Steps 1–6]. `from`
 * must be the current phase (a second "advance from declare" is stale). The resolve step goes
 * to the extra rounds only when someone has actions left, else straight to wrap-up. Ending
 * wrap-up begins the next turn: stun counters tick down (a stun that landed after acting starts
 * now), regenerating combatants get their share of Health back, unaided dying combatants lose an Endurance rank (not yet at the wrap-up of the Kill's own
 * turn, unless the world's Kill-loss timing says so: errata §4), the aided stop dying, and
 * declarations, actions, defences used, roll-offs and declared dodges reset; holds stay.
 * TurnError("notReady") while the phase waits for someone ({@link phaseWaiting}): what the
 * table calls forcible may be forced past; the rest must be rolled first.
 */
export function advancePhase(state: TurnState, from: TurnPhase, opts: AdvanceOptions = {}): TurnChange {
  if (!isTurnPhase(from)) throw new RulesRangeError("turnUnknownPhase", { got: show(from), allowed: TURN_PHASES.join(", ") });
  const force = opts.force ?? false;
  assertBoolean(force, "turnForce");
  const table = opts.table ?? TURN_TABLE;
  const phase = state.combat.phase;
  if (phase !== from) throw new TurnError("stale", "turnAdvanced", { phase, from });
  const waiting = phaseWaiting(state, table);
  const unforcible = waiting.filter((w) => !table[phase].forcible.includes(w.need));
  if (unforcible.length > 0) throw notReady(phase, unforcible);
  if (waiting.length > 0 && !force) throw notReady(phase, waiting);
  const draft = new Draft(state);
  LEAVING[phase]?.(draft, waiting);
  const next = phaseAfter(draft, phase, force, table);
  draft.setCombat({ phase: next });
  ENTERING[next]?.(draft);
  return draft.change();
}

function notReady(phase: TurnPhase, waiting: readonly Waiting[]): TurnError {
  const list = waiting
    .slice(0, 10)
    .map((w) => `"${w.id}" (${w.need})`)
    .join(", ");
  return new TurnError("notReady", "turnPhaseWaits", { phase, count: waiting.length, list: waiting.length > 10 ? `${list}, …` : list });
}

/** Step 6 [001]: the bookkeeping of every combatant as one turn ends and the next begins. */
function wrapUp(draft: Draft): void {
  const state = draft.state;
  const { mode } = state.settings.initiative;
  const fresh = draft.changedNobody;
  for (const c of state.combatants.values()) {
    // Stuns: this turn's count ticks down; a stun that landed after acting starts now.
    const stunTurns = Math.max(Math.max(0, c.stunTurns - 1), c.stunPending);
    let { stats, dying, dead } = c;
    if (c.dying) {
      if (!killLossContinues(c.aided)) {
        dying = false; // Aid of every kind stops the loss.
      } else if (killLossAtWrapUp(c.aided, c.dyingFresh, state.settings.killLossAtOwnWrapUp ?? KILL_LOSS_AT_OWN_WRAP_UP)) {
        const after = enduranceAfterKillLoss(c.stats.endurance);
        draft.lose({ id: c.id, from: c.stats.endurance, to: after.endurance, dead: after.dead });
        stats = Object.freeze({ ...c.stats, endurance: after.endurance });
        dead = after.dead;
        if (after.dead) dying = false;
      }
    }
    // Regeneration [001 Step 6; rules recovery.ts]: its share of Health, even at 0 Health, not once dead.
    const regeneration = c.stats.regeneration ?? 0;
    if (regeneration > 0 && !dead) {
      const amount = regenerationPerTurn(regeneration, state.settings.regenerationTurns === undefined ? {} : { regenerationTurns: state.settings.regenerationTurns });
      if (amount > 0) draft.heal({ id: c.id, amount });
    }
    // Once per combat, the d10 is kept; every turn, it is rolled again [001].
    const keepD10 = !needsRoll(mode, { hasRolledThisCombat: c.initiative.d10 !== null });
    const next = fresh ? draft.editNew(c) : draft.edit(c);
    next.stats = stats;
    next.dying = dying;
    next.dead = dead;
    next.aided = false;
    next.dyingFresh = false;
    next.stunTurns = stunTurns;
    next.stunPending = 0;
    next.declaration = null;
    next.extra = null;
    next.actionsAllowed = MIN_ACTIONS_PER_TURN;
    next.actionsUsed = 0;
    next.actionCs = 0;
    next.damageCs = 0;
    next.nextActionCs = 0;
    next.actedInRound = 0;
    next.defencesUsed = 0;
    next.dodge = null;
    next.lostTurn = false;
    next.changedAt = null;
    next.initiative = keepD10 ? { d10: c.initiative.d10, total: c.initiative.total, rollOffs: Object.freeze([]) } : FRESH_INITIATIVE;
  }
}
