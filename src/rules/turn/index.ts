/**
 * The CASE turn (CASE-RULES §4; source 001 "Time Scale: the Turn", Steps 1–6) as a pure state
 * machine: 1 Declare, 2 Extra-action rolls, 3 Initiative, 4 Resolve actions in order, 5 Extra
 * rounds for those with extra actions, 6 Wrap up. Also the optional declared dodge (§6, [000]),
 * stuns and dying characters (§8) as far as they touch the turn, and the defence counter of
 * Table 22.
 *
 * Shape. A {@link TurnState} is the combat's part ({@link CombatTurn}: phase, order, who acts)
 * and one {@link CombatantTurn} per combatant, plus the world's {@link TurnSettings}. Every step
 * is a function `(state, …) → TurnChange` that never mutates its input and returns only what
 * changed (the new combat fields and the replaced combatants), so the caller can write exactly
 * that (in Foundry: one combat update and one embedded update) and a replayed request that
 * changes nothing returns an empty change. {@link commitTurnChange} applies a change to a
 * state the caller owns; {@link withTurnChange} does the same without mutating.
 *
 * Cost. A step touching one combatant is O(1) amortised (the cursor only moves forward within
 * a round); phase changes are O(n), initiative O(n log n). So one whole turn is O(n log n).
 *
 * Dice are never rolled here: the caller rolls and passes the numbers in.
 *
 * Errors: {@link TurnError} (with a code) for a step that does not fit the state — unknown
 * combatant, wrong phase, not your turn, a replay of something already done; RangeError and
 * TypeError for malformed values, as in the other rules modules.
 *
 * The files, bottom up:
 *   phases.ts        the phases in order and the turn's table (a row per phase: whether combatants
 *                    act, what it waits for, what is rolled and announced, what follows), TurnError,
 *                    the input checks every step shares
 *   declaration.ts   what a combatant declares, read from untrusted data
 *   state.ts         the state's shapes, and reading it (who acts, actions left, shifts)
 *   change.ts        what a step changes: the Draft a step builds its change on, the commit, and
 *                    the cursor moves the acting steps share
 *   steps.ts         Steps 1, 2, 4 and 5: declare, extra-action rolls, resolve and change of action
 *   initiative-units.ts    Step 3's units: who takes part, teams, each unit's initiative entry
 *   initiative-waiting.ts  what Step 3 waits for (rolls, roll-offs, dodges): the fast path, its
 *                          remembered answer per combatants' map, and the simple path it equals
 *   initiative-step.ts     Step 3's steps: the initiative rolls, the roll-offs, the declared dodges
 *   acting-order.ts  the acting order as resolve begins, each unit's total written on its members
 *   conditions.ts    what happens to a combatant mid-turn: stuns, dying, aid, holds, defences, events
 *   advance.ts       walking the turn's table (phases.ts) from phase to phase: who each phase
 *                    waits for, and the bookkeeping as a phase ends and the next begins
 *   history.ts       the Judge's "back one step": a bounded history of earlier turn states
 *   shifts.ts        the turn's column shifts on each kind of roll, with their reasons
 *   able.ts          who may act and defend (Health, conditions, the turn), and whether an attack is in turn
 */

export { ACTING_PHASES, type PhaseAnnouncement, type PhaseFlag, type PhaseRoll, type PhaseRules, TURN_PHASES, TURN_TABLE, TurnError, type TurnErrorCode, type TurnPhase, type WaitingNeed, isActingPhase, isTurnPhase, phasesWaitingFor, phasesWhere } from "./phases";
export { DECLARATION_TEXT_MAX, DECLARED_ACTION_KINDS, type Declaration, type DeclaredActionKind, type DeclaredAttackItem, declaredAttackItem, parseDeclaration, sameDeclaration } from "./declaration";
export { type ActionCountChoice, type CombatTurn, type CombatantStats, type CombatantTurn, DEFAULT_EXTRA_ACTION_MODE, DEFAULT_TURN_SETTINGS, DYING_CHARACTERS_ACT, type DodgeState, type EnduranceLoss, type HealthRegained, type HelplessReason, type ExtraActionState, INITIATIVE_MAX_ROLL_OFFS, type InitiativeState, isDeclaredDodge, type MutableTurnState, STUN_TIMING_FOR_LONG_STUNS, type TurnChange, type TurnSettings, type TurnState, actionCountChoices, actionsLeft, canActThisTurn, combatantOf, createCombatTurn, createCombatantTurn, createTurnState, currentCombatantId, declaredDodgeShift, freeDefencesLeft, hasActed, hasActedThisTurn, mayChangeAction, mayChooseExtraMode, mayDeclare, nextDefencePenalty, standingCs, turnHelplessReason, validateCombatantTurn } from "./state";
export { DECLARED_MOVE_IS_FULL_MOVE, TURN_ROLL_KINDS, TURN_SHIFT_REASONS, TURN_SHIFT_ROLLS, type TurnRollKind, type TurnShift, type TurnShiftOptions, type TurnShiftReason, actionShift, turnShiftTotal, turnShifts } from "./shifts";
export { type AttackTurnVerdict, type CharacterStanding, type StandingRulings, attackInTurn, helplessReason, mayDefendNow } from "./able";
export { NO_CHANGE, commitTurnChange, isEmptyTurnChange, withTurnChange } from "./change";
export { type ChangeActionResult, changeAction, chooseExtraMode, completeAction, declareAction, recordExtraActionRoll } from "./steps";
export { type InitiativeUnit, initiativeUnits } from "./initiative-units";
export { type InitiativeWaiting, initiativeWaiting } from "./initiative-waiting";
export { recordDodgeRoll, recordInitiativeRoll, recordInitiativeRollOffs, recordInitiativeRolls } from "./initiative-step";
export { type AdvanceOptions, type Waiting, advancePhase, nextPhase, phaseWaiting } from "./advance";
export { type DefenceRecord, UNDONE_DEFENCE_GIVEN_BACK, aidTargetOf, applyStun, defenceRefusal, forgetDefence, markDying, needsAid, noteEvent, recordDefence, refreshCombatant, restoreStun, reviveStun, setAided, setHold } from "./conditions";
export { TURN_HISTORY_LIMIT, type TurnHistory, type TurnHistoryCause, type TurnHistoryEntry, lastTurnDeclarations, lastTurnStep, rememberTurn, stepBack, stepBackTarget } from "./history";
