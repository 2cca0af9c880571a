import { RulesRangeError, RulesTypeError } from "../errors";
import { type ExtraActionMode, IMPOSSIBLE, MAX_ACTIONS_PER_TURN, MIN_ACTIONS_PER_TURN, type RequiredColor, defencePenalty, extraActionRequiredColor } from "../actions";
import { type HoldState, holdEffects } from "../attacks";
import { DECLARED_DODGE_OTHER_ACTION_CS } from "../defences";
import { DEFAULT_INITIATIVE_SETTINGS, type InitiativeSettings, assertInitiativeMode } from "../initiative";
import { assertRankNumber } from "../ranks";
import { type Color } from "../universal-table";
import { type Declaration } from "./declaration";
import { TURN_PHASES, TURN_TABLE, TurnError, type TurnPhase, assertBoolean, assertCount, assertId, isActingPhase, isTurnPhase, show } from "./phases";

// ── State ─────────────────────────────────────────────────────────────────────────────────────
/** What the turn needs to know of a character; the caller reads it from the character each step. */
export interface CombatantStats {
  /** Table 23 modifier, by Intuition. */
  readonly initiativeModifier: number;
  /** Ftg (off) rank number: the extra-action roll. */
  readonly offence: number;
  /** Agy (bal) rank number: changing a declared action, the declared dodge. */
  readonly balance: number;
  /** Defences per turn without penalty (Table 22 by Ftg (def)). */
  readonly freeDefences: number;
  /** Endurance rank number: what a dying character loses at wrap-up. */
  readonly endurance: number;
  /** The rank number of a Regeneration power (0 or absent: none): Health back at each wrap-up (rules recovery.ts). */
  readonly regeneration?: number;
}

/** The extra-action roll of a combatant who declared more than one action [001 Step 2]. */
export interface ExtraActionState {
  /** Actions declared (2 … {@link MAX_ACTIONS_PER_TURN}). */
  readonly wanted: number;
  /** The colour the Ftg (off) ACTION needs (Table 22 intensity for that many actions). */
  readonly required: RequiredColor;
  /** The d100 rolled, once rolled. */
  readonly roll: number | null;
  /** Its colour. */
  readonly color: Color | null;
  /** Whether it passed. */
  readonly success: boolean | null;
  /** After a pass: separate actions or one flurry — the player's choice. */
  readonly mode: ExtraActionMode | null;
}

/** A combatant's initiative this turn (or, once per combat, this combat). */
export interface InitiativeState {
  /** The d10 rolled (kept through the combat when initiative is rolled once per combat). */
  readonly d10: number | null;
  /** The total the order was built from (null in fixed order). */
  readonly total: number | null;
  /** d10 roll-offs for a tie, in order (a tie that stands after one roll-off rolls again). */
  readonly rollOffs: readonly number[];
}

/** A declared dodge's roll (§6 optional rule [000]). */
export interface DodgeState {
  readonly roll: number | null;
  readonly color: Color | null;
  /** The shift on every attack on the dodger this turn: 0, −2, −4 or −6. */
  readonly shift: number;
}

/** One combatant's part of the turn. */
export interface CombatantTurn {
  readonly id: string;
  readonly stats: CombatantStats;
  /** Team initiative: combatants with the same team roll once together; null acts alone. */
  readonly team: string | null;
  /** Out of the fight (defeated, removed): never acts, never rolls. */
  readonly defeated: boolean;
  readonly declaration: Declaration | null;
  readonly extra: ExtraActionState | null;
  /** Actions the combatant may take this turn. */
  readonly actionsAllowed: number;
  /** Actions taken (or lost to an action-taking defence) this turn. */
  readonly actionsUsed: number;
  /** Shift on each action this turn: −3 after a failed extra-action roll, −1 for separate extra actions. */
  readonly actionCs: number;
  /** Shift on damage this turn: a flurry's +1 CS per doubling. */
  readonly damageCs: number;
  /** Shift on the next action only: −1 after a successful change of action. */
  readonly nextActionCs: number;
  /** The last round (1 = the resolve round, 2+ extra rounds) in which the combatant acted; 0 = none yet. */
  readonly actedInRound: number;
  /** Defences used this turn that count against the free defences. */
  readonly defencesUsed: number;
  readonly initiative: InitiativeState;
  /** A declared dodge this turn (optional rule), or null. */
  readonly dodge: DodgeState | null;
  /** A failed change of action: no (further) action this turn. */
  readonly lostTurn: boolean;
  /** `actionsUsed` when the last change of action was tried (a replay of it changes nothing). */
  readonly changedAt: number | null;
  /** Turns the combatant is stunned, this one included (0 = not stunned now). */
  readonly stunTurns: number;
  /** A stun that landed after the combatant acted: turns out, starting next turn. */
  readonly stunPending: number;
  /** Lost Endurance to a Kill result and loses another rank each wrap-up while unaided (§8). */
  readonly dying: boolean;
  /** Someone aided the dying combatant this turn: the loss stops. */
  readonly aided: boolean;
  /**
   * The Kill that made the combatant dying landed this turn: by the world's Kill-loss timing
   * ({@link TurnSettings.killLossAtOwnWrapUp}) it loses no rank at this wrap-up.
   */
  readonly dyingFresh: boolean;
  /** Endurance fell below Shift 0. */
  readonly dead: boolean;
  /** A grappling hold the combatant is in; it persists from turn to turn until escaped. */
  readonly hold: HoldState;
  /**
   * Unconscious (the character's condition, or 0 Health under the recovery ruling), read from the
   * character each step as the hold and Dying are: takes no actions and makes no defences.
   */
  readonly unconscious: boolean;
}

/** The world settings the turn follows. */
export interface TurnSettings {
  readonly initiative: InitiativeSettings;
  /** The optional declared-dodge rule (§6, [000]). */
  readonly declaredDodge: boolean;
  /** Errata §4: the first extra Kill loss at the Kill's own wrap-up (absent: the rules' KILL_LOSS_AT_OWN_WRAP_UP). */
  readonly killLossAtOwnWrapUp?: boolean;
  /** Recovery ruling: turns for Regeneration to return its rank in Health (absent: the rules' REGENERATION_TURNS). */
  readonly regenerationTurns?: number;
}

/** The standard rules: initiative rolled every turn, no teams, no declared dodge. */
export const DEFAULT_TURN_SETTINGS: TurnSettings = Object.freeze({ initiative: DEFAULT_INITIATIVE_SETTINGS, declaredDodge: false });

/** The combat's part of the turn. */
export interface CombatTurn {
  /** The turn's number, from 1. */
  readonly number: number;
  readonly phase: TurnPhase;
  /** 0 before resolve; 1 while resolving; 2, 3 … in the extra rounds. */
  readonly round: number;
  /** Combatant ids in acting order (set when the resolve phase begins; empty before). */
  readonly order: readonly string[];
  /** Index in `order` of the one acting now; `order.length` when nobody is due. */
  readonly cursor: number;
  /** The Judge's events noted at wrap-up. */
  readonly events: readonly string[];
}

/** A turn: the combat's part, every combatant's part (in tracker order), and the settings. */
export interface TurnState {
  readonly combat: CombatTurn;
  readonly combatants: ReadonlyMap<string, CombatantTurn>;
  readonly settings: TurnSettings;
}

/** A state a caller owns and lets {@link commitTurnChange} update in place. */
export interface MutableTurnState {
  combat: CombatTurn;
  readonly combatants: Map<string, CombatantTurn>;
  settings: TurnSettings;
}

/** A Kill victim's Endurance loss at wrap-up (§8), for the caller to write on the character. */
export interface EnduranceLoss {
  readonly id: string;
  readonly from: number;
  readonly to: number;
  readonly dead: boolean;
}

/** Health a regenerating combatant gets back at wrap-up [001 Step 6: "recovered health (for people who regenerate)"]. */
export interface HealthRegained {
  readonly id: string;
  /** Health to add (the writer caps it at the character's maximum). */
  readonly amount: number;
}

/** What a step changed. Empty (no combat fields, no combatants) when nothing changed. */
export interface TurnChange {
  /** The combat fields that changed, with their new values. */
  readonly combat: Partial<CombatTurn>;
  /** Combatants whose part changed, as their whole new part. */
  readonly combatants: readonly CombatantTurn[];
  /** Endurance lost at wrap-up. */
  readonly enduranceLosses: readonly EnduranceLoss[];
  /** Health regained at wrap-up (absent when none). */
  readonly healing?: readonly HealthRegained[];
}

/** A fresh combat part: turn 1, declare. */
export function createCombatTurn(): CombatTurn {
  return Object.freeze({ number: 1, phase: "declare", round: 0, order: Object.freeze([]), cursor: 0, events: Object.freeze([]) });
}

function assertStats(stats: CombatantStats, id: string): void {
  const input: unknown = stats;
  if (typeof input !== "object" || input === null) throw new RulesTypeError("turnNoStats", { id, got: show(input) });
  const { initiativeModifier, offence, balance, freeDefences, endurance } = stats;
  if (typeof initiativeModifier !== "number" || !Number.isSafeInteger(initiativeModifier)) {
    throw new RulesRangeError("turnCombatantNotWhole", { id, field: "turnInitiativeModifier", got: show(initiativeModifier) });
  }
  assertCount(offence, "fightingOff", 0, id);
  assertCount(balance, "agilityBal", 0, id);
  assertCount(endurance, "endurance", 0, id);
  assertCount(freeDefences, "turnFreeDefences", 0, id);
  if (stats.regeneration !== undefined) assertCount(stats.regeneration, "regenerationRank", 0, id);
}

export const FRESH_INITIATIVE: InitiativeState = Object.freeze({ d10: null, total: null, rollOffs: Object.freeze([]) });

/** A combatant's part at the start of a combat: nothing declared, one action, no conditions. */
export function createCombatantTurn(id: string, stats: CombatantStats, opts: { team?: string | null; defeated?: boolean; hold?: HoldState; unconscious?: boolean } = {}): CombatantTurn {
  assertId(id);
  assertStats(stats, id);
  const team = opts.team ?? null;
  if (team !== null && (typeof team !== "string" || team === "")) throw new RulesTypeError("turnTeamBad", { got: show(team) });
  const defeated = opts.defeated ?? false;
  assertBoolean(defeated, "turnDefeated");
  const hold = opts.hold ?? "none";
  holdEffects(hold); // validates
  const unconscious = opts.unconscious ?? false;
  assertBoolean(unconscious, "turnUnconscious");
  return Object.freeze({
    id,
    stats: Object.freeze({ ...stats }),
    team,
    defeated,
    declaration: null,
    extra: null,
    actionsAllowed: MIN_ACTIONS_PER_TURN,
    actionsUsed: 0,
    actionCs: 0,
    damageCs: 0,
    nextActionCs: 0,
    actedInRound: 0,
    defencesUsed: 0,
    initiative: FRESH_INITIATIVE,
    dodge: null,
    lostTurn: false,
    changedAt: null,
    stunTurns: 0,
    stunPending: 0,
    dying: false,
    aided: false,
    dead: false,
    hold,
    dyingFresh: false,
    unconscious,
  });
}

/** Checks a combatant's stored counters (they may come from a document): RangeError naming the field. */
export function validateCombatantTurn(c: CombatantTurn): void {
  assertId(c.id);
  assertStats(c.stats, c.id);
  for (const key of ["actionsAllowed", "actionsUsed", "defencesUsed", "stunTurns", "stunPending", "actedInRound"] as const) {
    if (!Number.isSafeInteger(c[key]) || c[key] < 0) throw new RulesRangeError("turnCounterNotCount", { id: c.id, counter: key, got: show(c[key]) });
  }
  for (const key of ["actionCs", "damageCs", "nextActionCs"] as const) {
    if (!Number.isSafeInteger(c[key])) throw new RulesRangeError("turnCounterNotWhole", { id: c.id, counter: key, got: show(c[key]) });
  }
  holdEffects(c.hold);
}

/**
 * A turn from combatants in tracker order (that order is the fixed order of the fixed-order
 * initiative rule) and the settings. RangeError for a duplicate id or bad values.
 */
export function createTurnState(combatants: readonly CombatantTurn[], settings: TurnSettings = DEFAULT_TURN_SETTINGS, combat: CombatTurn = createCombatTurn()): TurnState {
  const list: unknown = combatants;
  if (!Array.isArray(list)) throw new RulesTypeError("turnCombatantsNotList", { got: show(list) });
  assertSettings(settings);
  assertCombatTurn(combat);
  const map = new Map<string, CombatantTurn>();
  for (const c of combatants) {
    validateCombatantTurn(c);
    if (map.has(c.id)) throw new RulesRangeError("turnIdTwice", { id: c.id });
    map.set(c.id, c);
  }
  return { combat, combatants: map, settings };
}

function assertSettings(settings: TurnSettings): void {
  const input: unknown = settings;
  if (typeof input !== "object" || input === null) throw new RulesTypeError("turnSettingsBad", { got: show(input) });
  assertInitiativeMode(settings.initiative.mode);
  assertBoolean(settings.initiative.team, "turnTeamInitiative");
  assertBoolean(settings.declaredDodge, "turnDeclaredDodge");
}

function assertCombatTurn(combat: CombatTurn): void {
  if (!isTurnPhase(combat.phase)) throw new RulesRangeError("turnUnknownPhase", { got: show(combat.phase), allowed: TURN_PHASES.join(", ") });
  assertCount(combat.number, "turnNumber", 1);
  assertCount(combat.round, "turnRound");
  assertCount(combat.cursor, "turnCursor");
}

// ── Reading the state ─────────────────────────────────────────────────────────────────────────
/** The combatant `id`, or TurnError("unknownCombatant"). */
export function combatantOf(state: TurnState, id: string): CombatantTurn {
  assertId(id);
  const c = state.combatants.get(id);
  if (!c) throw new TurnError("unknownCombatant", "turnNoCombatant", { id });
  return c;
}

/**
 * [RULING] A dying character (a Kill result, losing Endurance each turn until aided) lies
 * helpless and takes no actions until aided; the sources say the character "lies unaided".
 */
export const DYING_CHARACTERS_ACT = false as boolean;

/**
 * [RULING] The "this turn if not yet acted, else next" timing of a one-turn stun [001] also
 * times the 1d10-turn stun of a white result. A stun landing during wrap-up counts as after
 * acting (the turn is over).
 */
export const STUN_TIMING_FOR_LONG_STUNS = true as boolean;

/**
 * [RULING] When a combatant passes an extra-action roll and the Judge moves on before the
 * player chose, the extra actions are taken separately.
 */
export const DEFAULT_EXTRA_ACTION_MODE: ExtraActionMode = "separate";

/**
 * [RULING] A tie on initiative that stands after a roll-off rolls off again, at most this many
 * times; after that the tracker order decides.
 */
export const INITIATIVE_MAX_ROLL_OFFS = 5;

/** Why a character can do nothing (seed rules, Stun: "cannot do anything other than twitch or convulse"). */
export type HelplessReason = "dead" | "defeated" | "unconscious" | "stunned" | "dying";

/**
 * Why the combatant can take no action this turn, or null when it can: dead, out of the fight,
 * Unconscious (or 0 Health), stunned, or dying and not aided ({@link DYING_CHARACTERS_ACT}).
 */
export function turnHelplessReason(c: CombatantTurn): HelplessReason | null {
  if (c.dead) return "dead";
  if (c.defeated) return "defeated";
  if (c.unconscious) return "unconscious";
  if (c.stunTurns > 0) return "stunned";
  if (!DYING_CHARACTERS_ACT && c.dying && !c.aided) return "dying";
  return null;
}

/** True when the combatant can take actions this turn at all (not stunned, Unconscious, dying unaided, dead or out). */
export function canActThisTurn(c: CombatantTurn): boolean {
  return turnHelplessReason(c) === null;
}

/** Actions the combatant still has this turn. */
export function actionsLeft(c: CombatantTurn): number {
  if (!canActThisTurn(c) || c.lostTurn) return 0;
  return Math.max(0, c.actionsAllowed - c.actionsUsed);
}

/** True once the combatant took (or lost to a defence) an action this turn. */
export function hasActed(c: CombatantTurn): boolean {
  return c.actionsUsed > 0;
}

/**
 * True once the combatant has acted this turn as far as a stun's timing goes (§8: "this turn if
 * not yet acted, else next"): it took an action, or the phase comes after every action.
 */
export function hasActedThisTurn(phase: string, c: Pick<CombatantTurn, "actionsUsed">): boolean {
  return (isTurnPhase(phase) && TURN_TABLE[phase].actionsOver) || c.actionsUsed > 0;
}

/** True when the combatant may declare (or re-declare) now: a declaring phase, and it can act this turn. */
export function mayDeclare(state: TurnState, c: CombatantTurn): boolean {
  return TURN_TABLE[state.combat.phase].declaring && canActThisTurn(c);
}

/** True when the combatant passed its extra-action roll and may choose separate actions or a flurry now. */
export function mayChooseExtraMode(state: TurnState, c: CombatantTurn): boolean {
  return TURN_TABLE[state.combat.phase].choosingExtraMode && c.extra?.success === true;
}

/** True when the combatant may change its declared action now: an acting phase, actions left, and not already changed at this action. */
export function mayChangeAction(state: TurnState, c: CombatantTurn): boolean {
  return isActingPhase(state.combat.phase) && actionsLeft(c) > 0 && c.changedAt !== c.actionsUsed;
}

/**
 * True when `c` is due to act in `round`: it has not acted in it and has an action left. The
 * cursor asks this of combatant after combatant, in acting order, which jumps about memory; most
 * it passes over in the extra rounds have used their actions, which three counters close together
 * in the record tell (actionsLeft reads fields spread over the whole record: at ten thousand
 * combatants each was a read from memory the cache no longer held).
 */
export function isDue(c: CombatantTurn | undefined, round: number): boolean {
  return c !== undefined && c.actedInRound < round && c.actionsUsed < c.actionsAllowed && actionsLeft(c) > 0;
}

/** The id of the combatant acting now, or null (outside resolve and extra rounds, or nobody due). */
export function currentCombatantId(state: TurnState): string | null {
  const { phase, order, cursor } = state.combat;
  if (!isActingPhase(phase)) return null;
  return order[cursor] ?? null;
}

/**
 * The shift on every ACTION of the combatant this turn that does not come from the action
 * economy: a hold (§5) and the declared dodge's −2 CS on the dodger's other ACTIONs (§6, [000]).
 */
export function standingCs(c: CombatantTurn): number {
  return heldActionCs(c.hold) + (c.dodge !== null ? DECLARED_DODGE_OTHER_ACTION_CS : 0);
}

/** Each hold's shift on the held's ACTIONs (§5), read once: holdEffects resolves the rulings and makes an object per call, and every extra-action and dodge roll asks. */
const HELD_ACTION_CS: Readonly<Record<HoldState, number>> = Object.freeze({
  none: holdEffects("none").heldActionCs,
  partialHold: holdEffects("partialHold").heldActionCs,
  fullHold: holdEffects("fullHold").heldActionCs,
});

/** The shift a hold puts on the held's ACTIONs, `holdEffects(hold).heldActionCs` (a RangeError for an unknown hold, as there). */
export function heldActionCs(hold: HoldState): number {
  return Object.prototype.hasOwnProperty.call(HELD_ACTION_CS, hold) ? HELD_ACTION_CS[hold] : holdEffects(hold).heldActionCs;
}


/** The shift a declared dodge puts on every attack on the combatant this turn (0 without one, or before its roll). */
export function declaredDodgeShift(c: CombatantTurn): number {
  return c.dodge?.shift ?? 0;
}

/** The shift on the combatant's next counted defence: 0 within the free defences, then −2 CS cumulative (Table 22). */
export function nextDefencePenalty(c: CombatantTurn): number {
  return defencePenalty(c.defencesUsed, c.stats.freeDefences);
}

/** Defences the combatant may still use this turn without penalty. */
export function freeDefencesLeft(c: CombatantTurn): number {
  return Math.max(0, c.stats.freeDefences - c.defencesUsed);
}

/** One choice of how many actions to declare, with the colour its Ftg (off) ACTION needs. */
export interface ActionCountChoice {
  readonly actions: number;
  /** null for a single action (no roll). */
  readonly required: RequiredColor | null;
}

/**
 * The numbers of actions a character with Ftg (off) rank number `offence` may declare: one
 * (no roll), and every count whose extra-action ACTION is not impossible (Table 22 [001]).
 */
export function actionCountChoices(offence: number): ActionCountChoice[] {
  assertRankNumber(offence, "fightingOff");
  const choices: ActionCountChoice[] = [{ actions: MIN_ACTIONS_PER_TURN, required: null }];
  for (let n = MIN_ACTIONS_PER_TURN + 1; n <= MAX_ACTIONS_PER_TURN; n++) {
    const required = extraActionRequiredColor(offence, n);
    if (required !== IMPOSSIBLE) choices.push({ actions: n, required });
  }
  return choices;
}

/** True when `declaration` is a declared dodge under the optional rule (§6, [000]). */
export function isDeclaredDodge(declaration: Declaration | null, settings: TurnSettings): boolean {
  return settings.declaredDodge && declaration !== null && declaration.kind === "defence" && declaration.defence === "dodge";
}
