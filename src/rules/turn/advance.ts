import { MIN_ACTIONS_PER_TURN } from "../actions";
import { enduranceAfterKillLoss, killLossContinues } from "../consequences";
import { needsRoll } from "../initiative";

import { TURN_PHASES, TurnError, type TurnPhase, assertBoolean, isTurnPhase, show } from "./phases";
import { type CombatantTurn, DEFAULT_EXTRA_ACTION_MODE, Draft, FRESH_INITIATIVE, type TurnChange, type TurnState, canActThisTurn, currentCombatantId, isDue, settleCursor } from "./state";
import { applyExtraOutcome, beginExtraActions, buildOrder, initiativeWaiting } from "./steps";

// ── Phase changes ─────────────────────────────────────────────────────────────────────────────
/** Something a phase waits for. */
export interface Waiting {
  readonly id: string;
  readonly need: "declaration" | "extraRoll" | "extraMode" | "initiativeRoll" | "rollOff" | "dodgeRoll" | "action";
}

/** Who the current phase still waits for before it may end (see {@link advancePhase}). O(n log n). */
export function phaseWaiting(state: TurnState): Waiting[] {
  const out: Waiting[] = [];
  switch (state.combat.phase) {
    case "declare":
      for (const c of state.combatants.values()) if (canActThisTurn(c) && c.declaration === null) out.push({ id: c.id, need: "declaration" });
      break;
    case "extraActions":
      for (const c of state.combatants.values()) {
        if (c.extra === null || !canActThisTurn(c)) continue;
        if (c.extra.roll === null) out.push({ id: c.id, need: "extraRoll" });
        else if (c.extra.success === true && c.extra.mode === null) out.push({ id: c.id, need: "extraMode" });
      }
      break;
    case "initiative": {
      const w = initiativeWaiting(state);
      for (const id of w.rolls) out.push({ id, need: "initiativeRoll" });
      for (const id of w.rollOffs.flat()) out.push({ id, need: "rollOff" });
      for (const id of w.dodges) out.push({ id, need: "dodgeRoll" });
      break;
    }
    case "resolve":
    case "extraRounds": {
      const id = currentCombatantId(state);
      if (id !== null) out.push({ id, need: "action" });
      break;
    }
    case "wrapUp":
      break;
  }
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
}

/** The phase after `phase` when nothing is skipped. */
export function nextPhase(phase: TurnPhase): TurnPhase {
  const i = TURN_PHASES.indexOf(phase);
  return TURN_PHASES[(i + 1) % TURN_PHASES.length] as TurnPhase;
}

/**
 * Ends the phase `from` and begins the next [001 Steps 1–6]. `from` must be the current phase
 * (a second "advance from declare" is stale). Resolve goes to the extra rounds only when someone
 * has actions left, else straight to wrap-up. Ending wrap-up begins the next turn: stun
 * counters tick down (a stun that landed after acting starts now), unaided dying combatants
 * lose an Endurance rank, the aided stop dying, and declarations, actions, defences used,
 * roll-offs and declared dodges reset; holds stay. TurnError("notReady") while the phase waits
 * for someone ({@link phaseWaiting}) unless forced where forcing is allowed.
 */
export function advancePhase(state: TurnState, from: TurnPhase, opts: AdvanceOptions = {}): TurnChange {
  if (!isTurnPhase(from)) throw new RangeError(`Unknown turn phase ${show(from)}. Phases: ${TURN_PHASES.join(", ")}.`);
  const force = opts.force ?? false;
  assertBoolean(force, "force");
  const phase = state.combat.phase;
  if (phase !== from) throw new TurnError("stale", `The turn is in the "${phase}" phase, not "${from}": it was already advanced.`);
  const waiting = phaseWaiting(state);
  const draft = new Draft(state);
  switch (phase) {
    case "declare": {
      if (waiting.length > 0 && !force) throw notReady(phase, waiting);
      beginExtraActions(draft);
      draft.setCombat({ phase: "extraActions" });
      break;
    }
    case "extraActions": {
      const rolls = waiting.filter((w) => w.need === "extraRoll");
      if (rolls.length > 0 || (waiting.length > 0 && !force)) throw notReady(phase, rolls.length > 0 ? rolls : waiting);
      for (const w of waiting) {
        const c = draft.get(w.id) as CombatantTurn;
        if (c.extra) applyExtraOutcome(draft, c, { ...c.extra, mode: DEFAULT_EXTRA_ACTION_MODE });
      }
      draft.setCombat({ phase: "initiative" });
      break;
    }
    case "initiative": {
      if (waiting.length > 0) throw notReady(phase, waiting);
      const order = buildOrder(draft);
      draft.setCombat({ phase: "resolve", order: Object.freeze(order), round: 1, cursor: 0 });
      settleCursor(draft, 0);
      break;
    }
    case "resolve": {
      if (waiting.length > 0 && !force) throw notReady(phase, waiting);
      const order = state.combat.order;
      if (!force && order.some((id) => isDue(draft.get(id), 2))) {
        draft.setCombat({ phase: "extraRounds", round: 2, cursor: 0 });
        settleCursor(draft, 0);
      } else {
        draft.setCombat({ phase: "wrapUp", cursor: order.length });
      }
      break;
    }
    case "extraRounds": {
      if (waiting.length > 0 && !force) throw notReady(phase, waiting);
      draft.setCombat({ phase: "wrapUp", cursor: state.combat.order.length });
      break;
    }
    case "wrapUp": {
      wrapUp(draft);
      break;
    }
  }
  return draft.change();
}

function notReady(phase: TurnPhase, waiting: readonly Waiting[]): TurnError {
  const list = waiting
    .slice(0, 10)
    .map((w) => `"${w.id}" (${w.need})`)
    .join(", ");
  const more = waiting.length > 10 ? ` and ${waiting.length - 10} more` : "";
  return new TurnError("notReady", `The "${phase}" phase still waits for ${list}${more}.`);
}

/** Step 6 [001]: the bookkeeping that ends one turn and begins the next. */
function wrapUp(draft: Draft): void {
  const state = draft.state;
  const { mode } = state.settings.initiative;
  for (const c of state.combatants.values()) {
    // Stuns: this turn's count ticks down; a stun that landed after acting starts now.
    const stunTurns = Math.max(Math.max(0, c.stunTurns - 1), c.stunPending);
    let { stats, dying, dead } = c;
    if (c.dying) {
      if (killLossContinues(c.aided)) {
        const after = enduranceAfterKillLoss(c.stats.endurance);
        draft.losses.push({ id: c.id, from: c.stats.endurance, to: after.endurance, dead: after.dead });
        stats = Object.freeze({ ...c.stats, endurance: after.endurance });
        dead = after.dead;
        if (after.dead) dying = false;
      } else {
        dying = false; // Any aid stops the loss.
      }
    }
    // Once per combat, the d10 is kept; every turn, it is rolled again [001].
    const keepD10 = !needsRoll(mode, { hasRolledThisCombat: c.initiative.d10 !== null });
    draft.put(c, {
      stats,
      dying,
      dead,
      aided: false,
      stunTurns,
      stunPending: 0,
      declaration: null,
      extra: null,
      actionsAllowed: MIN_ACTIONS_PER_TURN,
      actionsUsed: 0,
      actionCs: 0,
      damageCs: 0,
      nextActionCs: 0,
      actedInRound: 0,
      defencesUsed: 0,
      dodge: null,
      lostTurn: false,
      changedAt: null,
      initiative: keepD10 ? { d10: c.initiative.d10, total: c.initiative.total, rollOffs: Object.freeze([]) } : FRESH_INITIATIVE,
    });
  }
  draft.setCombat({ number: state.combat.number + 1, phase: "declare", round: 0, order: Object.freeze([]), cursor: 0, events: Object.freeze([]) });
}
