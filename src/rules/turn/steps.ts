import { RulesRangeError } from "../errors";
import { CHANGE_ACTION_REQUIRED_COLOR, type ExtraActionMode, IMPOSSIBLE, MIN_ACTIONS_PER_TURN, changeActionOutcome, extraActionIntensity, extraActionOutcome, extraActionRequiredColor, resolveAction } from "../actions";
import { DECLARED_DODGE_MAX_OTHER_ACTIONS, DECLARED_DODGE_MAY_CHARGE } from "../defences";
import { type Color, assertD100 } from "../universal-table";
import { type Declaration, parseDeclaration, sameDeclaration } from "./declaration";
import { ACTING_PHASES, TurnError, assertCount, phasesWaitingFor, phasesWhere, show } from "./phases";
import { type Mutable, combatantCopy } from "./copy";
import { type CombatantTurn, DEFAULT_EXTRA_ACTION_MODE, type DodgeState, type ExtraActionState, type TurnChange, type TurnState, actionsLeft, canActThisTurn, combatantOf, isDeclaredDodge, currentCombatantId, standingCs } from "./state";
import { Draft, NO_CHANGE, changeAndSettle, changeOf, assertPhase, resettleIfCurrent } from "./change";

// ── Step 1: Declare ───────────────────────────────────────────────────────────────────────────
/**
 * Records (or replaces) a combatant's declaration [001 Step 1]. Declare phase only. The same
 * declaration again changes nothing. TurnError when the combatant cannot act this turn;
 * RangeError when the number of actions is impossible for its Ftg (off) (Table 22) or, under
 * the declared-dodge rule, a dodge comes with more than one other action or a charge.
 */
export function declareAction(state: TurnState, id: string, declaration: Declaration): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, phasesWhere("declaring"));
  const decl = parseDeclaration(declaration);
  if (!canActThisTurn(c)) throw new TurnError("cannotAct", "turnCannotAct", { id });
  if (decl.actions > MIN_ACTIONS_PER_TURN && extraActionRequiredColor(c.stats.offence, decl.actions) === IMPOSSIBLE) {
    throw new RulesRangeError("turnTooManyActions", { id, actions: decl.actions, intensity: extraActionIntensity(decl.actions).key, offence: c.stats.offence });
  }
  if (isDeclaredDodge(decl, state.settings)) {
    if (decl.actions > DECLARED_DODGE_MAX_OTHER_ACTIONS) {
      throw new RulesRangeError("turnDodgeActions", { max: DECLARED_DODGE_MAX_OTHER_ACTIONS, id, got: decl.actions });
    }
  }
  if (sameDeclaration(c.declaration, decl)) return NO_CHANGE;
  const next = combatantCopy(c);
  next.declaration = decl;
  return changeOf(next);
}

// ── Step 2: Extra-action rolls ────────────────────────────────────────────────────────────────
export function beginExtraActions(draft: Draft): void {
  const fresh = draft.changedNobody;
  for (const c of draft.state.combatants.values()) {
    if (!canActThisTurn(c)) {
      const next = fresh ? draft.editNew(c) : draft.edit(c);
      next.actionsAllowed = 0;
      next.extra = null;
      next.dodge = null;
      continue;
    }
    const wanted = c.declaration?.actions ?? MIN_ACTIONS_PER_TURN;
    const dodge: DodgeState | null = isDeclaredDodge(c.declaration, draft.state.settings) ? { roll: null, color: null, shift: 0 } : null;
    const next = fresh ? draft.editNew(c) : draft.edit(c);
    // With extra actions declared, one action until the roll, as a failed roll would leave.
    next.extra = wanted > MIN_ACTIONS_PER_TURN ? { wanted, required: extraActionRequiredColor(c.stats.offence, wanted), roll: null, color: null, success: null, mode: null } : null;
    next.actionsAllowed = MIN_ACTIONS_PER_TURN;
    next.actionCs = 0;
    next.damageCs = 0;
    next.dodge = dodge;
  }
}

/** Sets a rolled extra-action roll and what it gives (actions, shifts) on a step's copy of the combatant. */
export function applyExtraOutcome(next: Mutable<CombatantTurn>, extra: ExtraActionState & { readonly success: boolean }): void {
  next.extra = extra;
  // A pass with no choice yet: one action until the player chooses.
  const mode = extra.success ? extra.mode : DEFAULT_EXTRA_ACTION_MODE;
  const outcome = mode === null ? { actions: MIN_ACTIONS_PER_TURN, actionCs: 0, damageCs: 0 } : extraActionOutcome(extra.success, extra.wanted, mode);
  next.actionsAllowed = outcome.actions;
  next.actionCs = outcome.actionCs;
  next.damageCs = outcome.damageCs;
}

/**
 * Records the d100 of a combatant's extra-action roll: a Ftg (off) ACTION at the Table 22
 * intensity for the actions declared [001 Step 2], at the combatant's standing shifts (a hold).
 * Failure → one action at −3 CS. Success → the player then chooses separate actions or a flurry
 * ({@link chooseExtraMode}). The same roll again changes nothing; another roll is stale.
 */
export function recordExtraActionRoll(state: TurnState, id: string, d100: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, phasesWaitingFor("extraRoll"));
  assertD100(d100);
  const extra = c.extra;
  if (extra === null) throw new TurnError("cannotAct", "turnNoExtraRoll", { id });
  if (extra.roll !== null) {
    if (extra.roll === d100) return NO_CHANGE;
    throw new TurnError("stale", "turnExtraRolled", { id, roll: String(extra.roll) });
  }
  const result = resolveAction({ value: c.stats.offence, roll: d100, intensity: extraActionIntensity(extra.wanted).number, cs: standingCs(c) });
  const next = combatantCopy(c);
  applyExtraOutcome(next, { ...extra, roll: d100, color: result.color, success: result.success, required: result.required });
  return changeOf(next);
}

/**
 * After a passed extra-action roll, the player's choice [001 Step 2]: "separate" — that many
 * actions at −1 CS each; "flurry" — one action with +1 CS damage per doubling. The same choice
 * again changes nothing; the choice may be changed until the extra-action phase ends.
 */
export function chooseExtraMode(state: TurnState, id: string, mode: ExtraActionMode): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, phasesWhere("choosingExtraMode"));
  const given: unknown = mode;
  if (given !== "separate" && given !== "flurry") throw new RulesRangeError("notOneOf", { field: "turnExtraModeValue", allowed: "separate, flurry", got: show(mode) });
  const extra = c.extra;
  if (extra?.success !== true) throw new TurnError("cannotAct", "turnNoPassedExtra", { id });
  if (extra.mode === mode) return NO_CHANGE;
  const next = combatantCopy(c);
  applyExtraOutcome(next, { ...extra, success: true, mode });
  return changeOf(next);
}

// ── Steps 4 and 5: Resolve and extra rounds ───────────────────────────────────────────────────
/**
 * The acting combatant finished its action (or passes it) [001 Step 4]: it counts as taken and
 * the turn moves to the next combatant due — in the extra rounds [Step 5], round after round
 * until every action is spent. `actionIndex` (the combatant's actions used when the request was
 * made) makes a replay harmless: a request for an action already taken changes nothing.
 */
export function completeAction(state: TurnState, id: string, actionIndex?: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ACTING_PHASES);
  if (actionIndex !== undefined) {
    assertCount(actionIndex, "turnActionIndex");
    if (actionIndex < c.actionsUsed) return NO_CHANGE;
    if (actionIndex > c.actionsUsed) throw new RulesRangeError("turnActionNotNext", { id, used: c.actionsUsed, index: actionIndex });
  }
  const current = currentCombatantId(state);
  if (current !== id) throw current === null ? new TurnError("notYourTurn", "turnNobodyDue") : new TurnError("notYourTurn", "turnNotYours", { current, id });
  const next = combatantCopy(c);
  next.actionsUsed = c.actionsUsed + 1;
  next.actedInRound = state.combat.round;
  next.nextActionCs = 0;
  return changeAndSettle(state, next, state.combat.cursor + 1);
}

/** The outcome of a change of action, with the change. */
export interface ChangeActionResult {
  readonly change: TurnChange;
  /** The ACTION's colour and whether it passed (null when the request was a replay). */
  readonly color: Color | null;
  readonly success: boolean | null;
}

/**
 * Changing a declared action [001 Step 4]: a yellow Agy (bal) ACTION (at the combatant's
 * standing shifts). Success → the new declaration stands and the next action is at −1 CS;
 * failure → no (further) action this turn. Allowed in resolve and extra rounds while the
 * combatant has an action left. The number of actions declared cannot change. `actionIndex`
 * (actions used when asked) makes a replay harmless.
 */
export function changeAction(state: TurnState, id: string, d100: number, declaration: Declaration, actionIndex?: number): ChangeActionResult {
  const c = combatantOf(state, id);
  assertPhase(state, ACTING_PHASES);
  assertD100(d100);
  const parsed = parseDeclaration(declaration);
  if (!DECLARED_DODGE_MAY_CHARGE && c.dodge !== null && parsed.kind === "attack" && parsed.attack === "Ch") {
    throw new RulesRangeError("turnDodgeNoCharge", { id });
  }
  if (actionIndex !== undefined) {
    assertCount(actionIndex, "turnActionIndex");
    if (actionIndex < c.actionsUsed || c.changedAt === actionIndex) return { change: NO_CHANGE, color: null, success: null };
    if (actionIndex > c.actionsUsed) throw new RulesRangeError("turnActionNotNext", { id, used: c.actionsUsed, index: actionIndex });
  }
  if (actionsLeft(c) === 0) throw new TurnError("cannotAct", "turnNoActionLeft", { id });
  const result = resolveAction({ value: c.stats.balance, roll: d100, needed: CHANGE_ACTION_REQUIRED_COLOR, cs: standingCs(c) });
  const outcome = changeActionOutcome(result.success);
  const draft = new Draft(state);
  const kept = c.declaration?.actions ?? MIN_ACTIONS_PER_TURN;
  if (outcome.allowed) {
    draft.put(c, { declaration: Object.freeze({ ...parsed, actions: kept, secret: c.declaration?.secret ?? parsed.secret }), nextActionCs: outcome.cs, changedAt: c.actionsUsed });
  } else {
    draft.put(c, { lostTurn: true, changedAt: c.actionsUsed });
    resettleIfCurrent(draft, id);
  }
  return { change: draft.change(), color: result.color, success: result.success };
}
