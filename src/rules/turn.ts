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
 */
import {
  CHANGE_ACTION_REQUIRED_COLOR,
  IMPOSSIBLE,
  MAX_ACTIONS_PER_TURN,
  MIN_ACTIONS_PER_TURN,
  changeActionOutcome,
  defencePenalty,
  extraActionIntensity,
  extraActionOutcome,
  extraActionRequiredColor,
  resolveAction,
  type ExtraActionMode,
  type RequiredColor,
} from "./actions";
import { ATTACK_CODES, holdEffects, type AttackCode, type HoldState } from "./attacks";
import { enduranceAfterKillLoss, killLossContinues, stunAppliesThisTurn } from "./consequences";
import {
  DECLARED_DODGE_MAX_OTHER_ACTIONS,
  DECLARED_DODGE_MAY_CHARGE,
  DECLARED_DODGE_OTHER_ACTION_CS,
  DEFENCE_CODES,
  assertDefenceCode,
  defenceTakesAction,
  dodgeShift,
  type DefenceCode,
} from "./defences";
import {
  DEFAULT_INITIATIVE_SETTINGS,
  INITIATIVE_DIE_SIDES,
  assertInitiativeMode,
  assertInitiativeRoll,
  initiativeTies,
  initiativeTotalForMode,
  needsRoll,
  orderInitiative,
  type InitiativeEntry,
  type InitiativeSettings,
} from "./initiative";
import { assertRankNumber } from "./ranks";
import { combatWith, combatantWith, fieldsThatDiffer, initiativeWith } from "./turn-copy";
import { assertD100, type Color } from "./universal-table";

// ---------------------------------------------------------------------------------------------
// Phases and errors
// ---------------------------------------------------------------------------------------------

/** The six steps of a turn, in order [001, CASE-RULES §4]. */
export const TURN_PHASES = ["declare", "extraActions", "initiative", "resolve", "extraRounds", "wrapUp"] as const;

/** One of {@link TURN_PHASES}. */
export type TurnPhase = (typeof TURN_PHASES)[number];

/** True when `value` is one of {@link TURN_PHASES}. */
export function isTurnPhase(value: unknown): value is TurnPhase {
  return typeof value === "string" && (TURN_PHASES as readonly string[]).includes(value);
}

/** Why a step was refused. */
export type TurnErrorCode =
  /** No combatant with that id in this turn. */
  | "unknownCombatant"
  /** The step belongs to another phase. */
  | "wrongPhase"
  /** The step was already done (a replayed or out-of-date request). */
  | "stale"
  /** Only the combatant whose turn it is may do that. */
  | "notYourTurn"
  /** The combatant cannot do that now (stunned, out of actions, defeated …). */
  | "cannotAct"
  /** The phase still waits for someone (see {@link phaseWaiting}). */
  | "notReady";

/** A step that does not fit the turn's state. `code` says why; the message names who and what. */
export class TurnError extends Error {
  constructor(
    readonly code: TurnErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TurnError";
  }
}

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

/** What a declaration may name besides its free text: an attack, a defence, a move, or something else. */
export const DECLARED_ACTION_KINDS = ["attack", "defence", "move", "other"] as const;

/** One of {@link DECLARED_ACTION_KINDS}. */
export type DeclaredActionKind = (typeof DECLARED_ACTION_KINDS)[number];

/** [RULING] The longest declaration text, in characters (a table-talk sentence, not an essay). */
export const DECLARATION_TEXT_MAX = 500;

/** A combatant's declared action(s) for the turn [001 Step 1]. */
export interface Declaration {
  /** What the character intends, in the player's words (may be empty when a pick says it all). */
  readonly text: string;
  /** An optional pick of what kind of action it is. */
  readonly kind: DeclaredActionKind | null;
  /** With kind "attack": which attack, if chosen. */
  readonly attack: AttackCode | null;
  /** With kind "defence": which defence, if chosen. */
  readonly defence: DefenceCode | null;
  /** How many actions the character intends to take (more than one needs the extra-action roll). */
  readonly actions: number;
  /** Decided by the Judge for an NPC: hidden from the players [001 Step 1]. */
  readonly secret: boolean;
}

function show(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return Object.prototype.toString.call(value);
}

function assertCount(value: unknown, what: string, min = 0): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be a whole number of at least ${min}, got ${show(value)}.`);
  }
}

function assertBoolean(value: unknown, what: string): asserts value is boolean {
  if (typeof value !== "boolean") throw new TypeError(`${what} must be true or false, got ${show(value)}.`);
}

function assertId(value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "") throw new TypeError(`A combatant id must be a non-empty string, got ${show(value)}.`);
}

/**
 * Reads a declaration from untrusted data (a form, a query payload) and checks it: text a
 * string of at most {@link DECLARATION_TEXT_MAX} characters (trimmed); kind null or one of
 * {@link DECLARED_ACTION_KINDS}; attack only with kind "attack", defence only with kind
 * "defence"; actions a whole number from 1 to {@link MAX_ACTIONS_PER_TURN}; secret a boolean
 * (default false). RangeError/TypeError naming the field otherwise.
 */
export function parseDeclaration(raw: unknown): Declaration {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new TypeError(`A declaration must be an object, got ${show(raw)}.`);
  const r = raw as Record<string, unknown>;
  const text = r.text ?? "";
  if (typeof text !== "string") throw new TypeError(`A declaration's text must be a string, got ${show(text)}.`);
  const trimmed = text.trim();
  if (trimmed.length > DECLARATION_TEXT_MAX) {
    throw new RangeError(`A declaration's text may be at most ${DECLARATION_TEXT_MAX} characters, got ${trimmed.length}.`);
  }
  const kind = r.kind ?? null;
  if (kind !== null && !(typeof kind === "string" && (DECLARED_ACTION_KINDS as readonly string[]).includes(kind))) {
    throw new RangeError(`A declaration's kind must be one of ${DECLARED_ACTION_KINDS.join(", ")} or null, got ${show(kind)}.`);
  }
  const attack = r.attack ?? null;
  if (attack !== null) {
    if (!(typeof attack === "string" && (ATTACK_CODES as readonly string[]).includes(attack))) {
      throw new RangeError(`Unknown attack ${show(attack)}. Known attacks: ${ATTACK_CODES.join(", ")}.`);
    }
    if (kind !== "attack") throw new RangeError(`A declaration names an attack (${attack}) only when its kind is "attack".`);
  }
  const defence = r.defence ?? null;
  if (defence !== null) {
    if (!(typeof defence === "string" && (DEFENCE_CODES as readonly string[]).includes(defence))) {
      throw new RangeError(`Unknown defence ${show(defence)}. Known defences: ${DEFENCE_CODES.join(", ")}.`);
    }
    if (kind !== "defence") throw new RangeError(`A declaration names a defence (${defence}) only when its kind is "defence".`);
  }
  const actions = r.actions ?? MIN_ACTIONS_PER_TURN;
  if (typeof actions !== "number" || !Number.isInteger(actions) || actions < MIN_ACTIONS_PER_TURN || actions > MAX_ACTIONS_PER_TURN) {
    throw new RangeError(`The number of actions declared must be a whole number from ${MIN_ACTIONS_PER_TURN} to ${MAX_ACTIONS_PER_TURN}, got ${show(actions)}.`);
  }
  const secret = r.secret ?? false;
  assertBoolean(secret, "A declaration's secret flag");
  return Object.freeze({
    text: trimmed,
    kind: kind as DeclaredActionKind | null,
    attack: attack as AttackCode | null,
    defence: defence as DefenceCode | null,
    actions,
    secret,
  });
}

/** True when two declarations say the same thing. */
export function sameDeclaration(a: Declaration | null, b: Declaration | null): boolean {
  if (a === null || b === null) return a === b;
  return a.text === b.text && a.kind === b.kind && a.attack === b.attack && a.defence === b.defence && a.actions === b.actions && a.secret === b.secret;
}

/** True when `declaration` is a declared dodge under the optional rule (§6, [000]). */
export function isDeclaredDodge(declaration: Declaration | null, settings: TurnSettings): boolean {
  return settings.declaredDodge && declaration !== null && declaration.kind === "defence" && declaration.defence === "dodge";
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

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
  /** Endurance fell below Shift 0. */
  readonly dead: boolean;
  /** A grappling hold the combatant is in; it persists from turn to turn until escaped. */
  readonly hold: HoldState;
}

/** The world settings the turn follows. */
export interface TurnSettings {
  readonly initiative: InitiativeSettings;
  /** The optional declared-dodge rule (§6, [000]). */
  readonly declaredDodge: boolean;
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

/** What a step changed. Empty (no combat fields, no combatants) when nothing changed. */
export interface TurnChange {
  /** The combat fields that changed, with their new values. */
  readonly combat: Partial<CombatTurn>;
  /** Combatants whose part changed, as their whole new part. */
  readonly combatants: readonly CombatantTurn[];
  /** Endurance lost at wrap-up. */
  readonly enduranceLosses: readonly EnduranceLoss[];
}

/** A fresh combat part: turn 1, declare. */
export function createCombatTurn(): CombatTurn {
  return Object.freeze({ number: 1, phase: "declare", round: 0, order: Object.freeze([]), cursor: 0, events: Object.freeze([]) });
}

function assertStats(stats: CombatantStats, id: string): void {
  const input: unknown = stats;
  if (typeof input !== "object" || input === null) throw new TypeError(`Combatant "${id}" needs stats, got ${show(input)}.`);
  const { initiativeModifier, offence, balance, freeDefences, endurance } = stats;
  if (typeof initiativeModifier !== "number" || !Number.isSafeInteger(initiativeModifier)) {
    throw new RangeError(`Combatant "${id}": the initiative modifier must be a whole number, got ${show(initiativeModifier)}.`);
  }
  assertRankNumber(offence, `Combatant "${id}": Fighting (off)`);
  assertRankNumber(balance, `Combatant "${id}": Agility (bal)`);
  assertRankNumber(endurance, `Combatant "${id}": Endurance`);
  assertCount(freeDefences, `Combatant "${id}": free defences`);
}

const FRESH_INITIATIVE: InitiativeState = Object.freeze({ d10: null, total: null, rollOffs: Object.freeze([]) });

/** A combatant's part at the start of a combat: nothing declared, one action, no conditions. */
export function createCombatantTurn(id: string, stats: CombatantStats, opts: { team?: string | null; defeated?: boolean; hold?: HoldState } = {}): CombatantTurn {
  assertId(id);
  assertStats(stats, id);
  const team = opts.team ?? null;
  if (team !== null && (typeof team !== "string" || team === "")) throw new TypeError(`A team must be a non-empty string or null, got ${show(team)}.`);
  const defeated = opts.defeated ?? false;
  assertBoolean(defeated, "defeated");
  const hold = opts.hold ?? "none";
  holdEffects(hold); // validates
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
  });
}

/** Checks a combatant's stored counters (they may come from a document): RangeError naming the field. */
export function validateCombatantTurn(c: CombatantTurn): void {
  assertId(c.id);
  assertStats(c.stats, c.id);
  for (const key of ["actionsAllowed", "actionsUsed", "defencesUsed", "stunTurns", "stunPending", "actedInRound"] as const) {
    assertCount(c[key], `Combatant "${c.id}": ${key}`);
  }
  for (const key of ["actionCs", "damageCs", "nextActionCs"] as const) {
    if (!Number.isSafeInteger(c[key])) throw new RangeError(`Combatant "${c.id}": ${key} must be a whole number, got ${show(c[key])}.`);
  }
  holdEffects(c.hold);
}

/**
 * A turn from combatants in tracker order (that order is the fixed order of the fixed-order
 * initiative rule) and the settings. RangeError for a duplicate id or bad values.
 */
export function createTurnState(combatants: readonly CombatantTurn[], settings: TurnSettings = DEFAULT_TURN_SETTINGS, combat: CombatTurn = createCombatTurn()): TurnState {
  const list: unknown = combatants;
  if (!Array.isArray(list)) throw new TypeError(`Combatants must be an array, got ${show(list)}.`);
  assertSettings(settings);
  assertCombatTurn(combat);
  const map = new Map<string, CombatantTurn>();
  for (const c of combatants) {
    validateCombatantTurn(c);
    if (map.has(c.id)) throw new RangeError(`Combatant id "${c.id}" appears more than once.`);
    map.set(c.id, c);
  }
  return { combat, combatants: map, settings };
}

function assertSettings(settings: TurnSettings): void {
  const input: unknown = settings;
  if (typeof input !== "object" || input === null) throw new TypeError(`Turn settings must be an object, got ${show(input)}.`);
  assertInitiativeMode(settings.initiative.mode);
  assertBoolean(settings.initiative.team, "Team initiative");
  assertBoolean(settings.declaredDodge, "Declared dodge");
}

function assertCombatTurn(combat: CombatTurn): void {
  if (!isTurnPhase(combat.phase)) throw new RangeError(`Unknown turn phase ${show(combat.phase)}. Phases: ${TURN_PHASES.join(", ")}.`);
  assertCount(combat.number, "The turn number", 1);
  assertCount(combat.round, "The round");
  assertCount(combat.cursor, "The cursor");
}

// ---------------------------------------------------------------------------------------------
// Reading the state
// ---------------------------------------------------------------------------------------------

/** The combatant `id`, or TurnError("unknownCombatant"). */
export function combatantOf(state: TurnState, id: string): CombatantTurn {
  assertId(id);
  const c = state.combatants.get(id);
  if (!c) throw new TurnError("unknownCombatant", `No combatant "${id}" in this turn.`);
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

/** True when the combatant can take actions this turn at all (not stunned, dying, dead or out). */
export function canActThisTurn(c: CombatantTurn): boolean {
  return !c.defeated && !c.dead && c.stunTurns === 0 && (DYING_CHARACTERS_ACT || !c.dying);
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

function isDue(c: CombatantTurn | undefined, round: number): boolean {
  return c !== undefined && c.actedInRound < round && actionsLeft(c) > 0;
}

/** The id of the combatant acting now, or null (outside resolve and extra rounds, or nobody due). */
export function currentCombatantId(state: TurnState): string | null {
  const { phase, order, cursor } = state.combat;
  if (phase !== "resolve" && phase !== "extraRounds") return null;
  return order[cursor] ?? null;
}

/**
 * The shift on every ACTION of the combatant this turn that does not come from the action
 * economy: a hold (§5) and the declared dodge's −2 CS on the dodger's other ACTIONs (§6, [000]).
 */
export function standingCs(c: CombatantTurn): number {
  return holdEffects(c.hold).heldActionCs + (c.dodge !== null ? DECLARED_DODGE_OTHER_ACTION_CS : 0);
}

/**
 * The shift on the combatant's next action: the extra-action outcome (−3 failed, −1 each
 * separate), a changed action's −1 CS, and {@link standingCs}.
 */
export function actionShift(c: CombatantTurn): number {
  return c.actionCs + c.nextActionCs + standingCs(c);
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
  assertRankNumber(offence, "Fighting (off)");
  const choices: ActionCountChoice[] = [{ actions: MIN_ACTIONS_PER_TURN, required: null }];
  for (let n = MIN_ACTIONS_PER_TURN + 1; n <= MAX_ACTIONS_PER_TURN; n++) {
    const required = extraActionRequiredColor(offence, n);
    if (required !== IMPOSSIBLE) choices.push({ actions: n, required });
  }
  return choices;
}

// ---------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------

/** Builds a change against a state without touching it. */
class Draft {
  readonly updated = new Map<string, CombatantTurn>();
  combat: Partial<CombatTurn> = {};
  readonly losses: EnduranceLoss[] = [];

  constructor(readonly state: TurnState) {}

  get(id: string): CombatantTurn | undefined {
    return this.updated.get(id) ?? this.state.combatants.get(id);
  }

  put(c: CombatantTurn, fields: Partial<CombatantTurn>): CombatantTurn {
    const next = combatantWith(c, fields);
    this.updated.set(c.id, next);
    return next;
  }

  turn(): CombatTurn {
    return combatWith(this.state.combat, this.combat);
  }

  setCombat(fields: Partial<CombatTurn>): void {
    // Keep only what differs from the state, so an edit undone within a step is no change.
    this.combat = fieldsThatDiffer(this.state.combat, { ...this.combat, ...fields });
  }

  change(): TurnChange {
    return { combat: Object.freeze({ ...this.combat }), combatants: [...this.updated.values()], enduranceLosses: [...this.losses] };
  }
}

/** The change that changes nothing. */
export const NO_CHANGE: TurnChange = Object.freeze({ combat: Object.freeze({}), combatants: Object.freeze([]), enduranceLosses: Object.freeze([]) });

/** True when `change` changes nothing. */
export function isEmptyTurnChange(change: TurnChange): boolean {
  return Object.keys(change.combat).length === 0 && change.combatants.length === 0 && change.enduranceLosses.length === 0;
}

/** Applies `change` to a state the caller owns, in place: O(size of the change). */
export function commitTurnChange(state: MutableTurnState, change: TurnChange): void {
  if (Object.keys(change.combat).length > 0) state.combat = Object.freeze(combatWith(state.combat, change.combat));
  for (const c of change.combatants) state.combatants.set(c.id, c);
}

/** The state after `change`, as a new state (`state` is not touched): O(n). */
export function withTurnChange(state: TurnState, change: TurnChange): TurnState {
  const combatants = new Map(state.combatants);
  for (const c of change.combatants) combatants.set(c.id, c);
  return { combat: Object.freeze({ ...state.combat, ...change.combat }), combatants, settings: state.settings };
}

function assertPhase(state: TurnState, phases: readonly TurnPhase[], what: string): void {
  if (!phases.includes(state.combat.phase)) {
    throw new TurnError("wrongPhase", `${what} belongs to the ${phases.map((p) => `"${p}"`).join(" or ")} phase; the turn is in "${state.combat.phase}".`);
  }
}

/**
 * Moves the cursor to the first combatant due at or after `from` in the current round. In the
 * extra rounds, when a round runs out and someone still has actions, the next round begins.
 */
function settleCursor(draft: Draft, from: number): void {
  const turn = draft.turn();
  const { order, phase } = turn;
  let round = turn.round;
  let i = from;
  for (;;) {
    for (; i < order.length; i++) {
      const id = order[i];
      if (id !== undefined && isDue(draft.get(id), round)) {
        draft.setCombat({ cursor: i, round });
        return;
      }
    }
    if (phase !== "extraRounds" || !order.some((id) => isDue(draft.get(id), round + 1))) {
      draft.setCombat({ cursor: order.length, round });
      return;
    }
    round++;
    i = 0;
  }
}

/** After a change to `id`, move the cursor on if `id` was the one acting and is no longer due. */
function resettleIfCurrent(draft: Draft, id: string): void {
  const turn = draft.turn();
  if ((turn.phase === "resolve" || turn.phase === "extraRounds") && turn.order[turn.cursor] === id) settleCursor(draft, turn.cursor);
}

// ---------------------------------------------------------------------------------------------
// Step 1: Declare
// ---------------------------------------------------------------------------------------------

/**
 * Records (or replaces) a combatant's declaration [001 Step 1]. Declare phase only. The same
 * declaration again changes nothing. TurnError when the combatant cannot act this turn;
 * RangeError when the number of actions is impossible for its Ftg (off) (Table 22) or, under
 * the declared-dodge rule, a dodge comes with more than one other action or a charge.
 */
export function declareAction(state: TurnState, id: string, declaration: Declaration): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ["declare"], "Declaring an action");
  const decl = parseDeclaration(declaration);
  if (!canActThisTurn(c)) throw new TurnError("cannotAct", `Combatant "${id}" cannot act this turn (stunned, dying or out of the fight).`);
  if (decl.actions > MIN_ACTIONS_PER_TURN && extraActionRequiredColor(c.stats.offence, decl.actions) === IMPOSSIBLE) {
    throw new RangeError(
      `Combatant "${id}" cannot take ${decl.actions} actions: it needs a Ftg (off) ACTION against ${extraActionIntensity(decl.actions).name} intensity, impossible from Fighting (off) ${c.stats.offence}.`,
    );
  }
  if (isDeclaredDodge(decl, state.settings)) {
    if (decl.actions > DECLARED_DODGE_MAX_OTHER_ACTIONS) {
      throw new RangeError(`A declared dodge allows at most ${DECLARED_DODGE_MAX_OTHER_ACTIONS} other action; "${id}" declared ${decl.actions}.`);
    }
  }
  if (sameDeclaration(c.declaration, decl)) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { declaration: decl });
  return draft.change();
}

// ---------------------------------------------------------------------------------------------
// Step 2: Extra-action rolls
// ---------------------------------------------------------------------------------------------

function beginExtraActions(draft: Draft): void {
  for (const c of draft.state.combatants.values()) {
    if (!canActThisTurn(c)) {
      draft.put(c, { actionsAllowed: 0, extra: null, dodge: null });
      continue;
    }
    const wanted = c.declaration?.actions ?? MIN_ACTIONS_PER_TURN;
    const dodge: DodgeState | null = isDeclaredDodge(c.declaration, draft.state.settings) ? { roll: null, color: null, shift: 0 } : null;
    if (wanted > MIN_ACTIONS_PER_TURN) {
      const extra: ExtraActionState = { wanted, required: extraActionRequiredColor(c.stats.offence, wanted), roll: null, color: null, success: null, mode: null };
      // Until the roll: one action, as a failed roll would leave.
      draft.put(c, { extra, actionsAllowed: MIN_ACTIONS_PER_TURN, actionCs: 0, damageCs: 0, dodge });
    } else {
      draft.put(c, { extra: null, actionsAllowed: MIN_ACTIONS_PER_TURN, actionCs: 0, damageCs: 0, dodge });
    }
  }
}

function applyExtraOutcome(draft: Draft, c: CombatantTurn, extra: ExtraActionState): void {
  if (extra.success === null) return;
  if (extra.success) {
    if (extra.mode === null) {
      draft.put(c, { extra, actionsAllowed: MIN_ACTIONS_PER_TURN, actionCs: 0, damageCs: 0 });
      return;
    }
    const outcome = extraActionOutcome(true, extra.wanted, extra.mode);
    draft.put(c, { extra, actionsAllowed: outcome.actions, actionCs: outcome.actionCs, damageCs: outcome.damageCs });
  } else {
    const outcome = extraActionOutcome(false, extra.wanted, DEFAULT_EXTRA_ACTION_MODE);
    draft.put(c, { extra, actionsAllowed: outcome.actions, actionCs: outcome.actionCs, damageCs: outcome.damageCs });
  }
}

/**
 * Records the d100 of a combatant's extra-action roll: a Ftg (off) ACTION at the Table 22
 * intensity for the actions declared [001 Step 2], at the combatant's standing shifts (a hold).
 * Failure → one action at −3 CS. Success → the player then chooses separate actions or a flurry
 * ({@link chooseExtraMode}). The same roll again changes nothing; another roll is stale.
 */
export function recordExtraActionRoll(state: TurnState, id: string, d100: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ["extraActions"], "An extra-action roll");
  assertD100(d100);
  const extra = c.extra;
  if (extra === null) throw new TurnError("cannotAct", `Combatant "${id}" declared one action and makes no extra-action roll.`);
  if (extra.roll !== null) {
    if (extra.roll === d100) return NO_CHANGE;
    throw new TurnError("stale", `Combatant "${id}" already rolled ${extra.roll} for extra actions.`);
  }
  const result = resolveAction({ value: c.stats.offence, roll: d100, intensity: extraActionIntensity(extra.wanted).number, cs: standingCs(c) });
  const draft = new Draft(state);
  applyExtraOutcome(draft, c, { ...extra, roll: d100, color: result.color, success: result.success, required: result.required });
  return draft.change();
}

/**
 * After a passed extra-action roll, the player's choice [001 Step 2]: "separate" — that many
 * actions at −1 CS each; "flurry" — one action with +1 CS damage per doubling. The same choice
 * again changes nothing; the choice may be changed until the extra-action phase ends.
 */
export function chooseExtraMode(state: TurnState, id: string, mode: ExtraActionMode): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ["extraActions"], "Choosing separate actions or a flurry");
  const given: unknown = mode;
  if (given !== "separate" && given !== "flurry") throw new RangeError(`Extra-action mode must be "separate" or "flurry", got ${show(mode)}.`);
  const extra = c.extra;
  if (extra?.success !== true) throw new TurnError("cannotAct", `Combatant "${id}" has no passed extra-action roll to choose for.`);
  if (extra.mode === mode) return NO_CHANGE;
  const draft = new Draft(state);
  applyExtraOutcome(draft, c, { ...extra, mode });
  return draft.change();
}

// ---------------------------------------------------------------------------------------------
// Step 3: Initiative
// ---------------------------------------------------------------------------------------------

/** A group that takes one initiative: one combatant, or a team [001 optional rule]. */
export interface InitiativeUnit {
  /** The unit's key: the combatant id, or "team:<team>". */
  readonly key: string;
  /** The member who rolls for the unit (a team's highest Table 23 modifier; tracker order breaks ties). */
  readonly rollerId: string;
  /** Members in their acting order within the unit (modifier, then tracker order). */
  readonly memberIds: readonly string[];
  readonly modifier: number;
}

function takesPartInInitiative(c: CombatantTurn): boolean {
  return !c.defeated && !c.dead;
}

/** The initiative units of the turn, in tracker order of their first member. O(n log n). */
export function initiativeUnits(state: TurnState): InitiativeUnit[] {
  const { mode, team } = state.settings.initiative;
  const grouped = new Map<string, CombatantTurn[]>();
  const units: (InitiativeUnit | { key: string; members: CombatantTurn[] })[] = [];
  for (const c of state.combatants.values()) {
    if (!takesPartInInitiative(c)) continue;
    if (team && mode !== "fixedOrder" && c.team !== null) {
      const key = `team:${c.team}`;
      let members = grouped.get(key);
      if (!members) {
        members = [];
        grouped.set(key, members);
        units.push({ key, members });
      }
      members.push(c);
    } else {
      units.push({ key: c.id, rollerId: c.id, memberIds: [c.id], modifier: c.stats.initiativeModifier });
    }
  }
  return units.map((unit) => {
    if (!("members" in unit)) return unit;
    const sorted = unit.members.map((c, i) => ({ c, i })).sort((a, b) => b.c.stats.initiativeModifier - a.c.stats.initiativeModifier || a.i - b.i);
    const roller = (sorted[0] as { c: CombatantTurn }).c;
    return { key: unit.key, rollerId: roller.id, memberIds: sorted.map((s) => s.c.id), modifier: roller.stats.initiativeModifier };
  });
}

/** True for the initiative modes that roll a d10 (every turn, once per combat) [001]. */
function rollsDie(mode: InitiativeSettings["mode"]): boolean {
  return mode === "everyTurn" || mode === "oncePerCombat";
}

/** Encodes roll-offs (each 1–10, later ones only within a still-tied group) as one sortable number. */
function rollOffTiebreak(rollOffs: readonly number[], length: number): number | undefined {
  if (rollOffs.length === 0) return undefined;
  let value = 0;
  for (let i = 0; i < length; i++) value = value * (INITIATIVE_DIE_SIDES + 1) + (rollOffs[i] ?? 0);
  return value;
}

function unitEntries(state: TurnState, units: readonly InitiativeUnit[], get: (id: string) => CombatantTurn | undefined): InitiativeEntry[] | null {
  const { mode } = state.settings.initiative;
  let longest = 0;
  for (const u of units) longest = Math.max(longest, get(u.rollerId)?.initiative.rollOffs.length ?? 0);
  const entries: InitiativeEntry[] = [];
  for (const u of units) {
    const roller = get(u.rollerId);
    if (!roller) return null;
    const { d10, rollOffs } = roller.initiative;
    let total: number | null;
    if (rollsDie(mode)) {
      if (d10 === null) return null;
      total = initiativeTotalForMode(mode, u.modifier, d10);
    } else {
      total = initiativeTotalForMode(mode, u.modifier);
    }
    if (total === null) return null;
    const tiebreak = rollOffTiebreak(rollOffs, longest);
    entries.push(tiebreak === undefined ? { id: u.key, total, modifier: u.modifier } : { id: u.key, total, modifier: u.modifier, tiebreak });
  }
  return entries;
}

/** What the initiative phase still waits for. */
export interface InitiativeWaiting {
  /** Rollers (combatant ids) whose d10 is still to be rolled. */
  readonly rolls: readonly string[];
  /** Groups of rollers tied after totals and modifiers (and earlier roll-offs) who roll off with a d10. */
  readonly rollOffs: readonly (readonly string[])[];
  /** Declared dodgers whose Agy (bal) FEAT is still to be rolled. */
  readonly dodges: readonly string[];
}

/** What the initiative phase waits for (empty lists outside it). O(n log n). */
export function initiativeWaiting(state: TurnState): InitiativeWaiting {
  if (state.combat.phase !== "initiative") return { rolls: [], rollOffs: [], dodges: [] };
  const get = (id: string): CombatantTurn | undefined => state.combatants.get(id);
  const { mode } = state.settings.initiative;
  const units = initiativeUnits(state);
  const rolls = rollsDie(mode) ? units.filter((u) => get(u.rollerId)?.initiative.d10 === null).map((u) => u.rollerId) : [];
  const dodges = [...state.combatants.values()].filter((c) => c.dodge !== null && c.dodge.roll === null && canActThisTurn(c)).map((c) => c.id);
  if (rolls.length > 0 || mode === "fixedOrder") return { rolls, rollOffs: [], dodges };
  const entries = unitEntries(state, units, get) ?? [];
  const rollerOf = new Map(units.filter((u) => u.key !== u.rollerId).map((u) => [u.key, u.rollerId])); // only teams' keys differ
  const rollOffs = initiativeTies(entries)
    .map((group) => group.map((key) => rollerOf.get(key) ?? key))
    .filter((group) => group.every((id) => (get(id)?.initiative.rollOffs.length ?? 0) < INITIATIVE_MAX_ROLL_OFFS));
  return { rolls, rollOffs, dodges };
}

/**
 * Records initiative d10s [001 Step 3], rollers' ids → d10 (a team's roller rolls for the team),
 * all at once (O(n log n) for the batch). Modes that roll no die refuse them. A d10 the roller
 * already has changes nothing; a different one is stale.
 */
export function recordInitiativeRolls(state: TurnState, rolls: Readonly<Record<string, number>>): TurnChange {
  assertPhase(state, ["initiative"], "An initiative roll");
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new TypeError(`Initiative rolls must be an object of id → d10, got ${show(input)}.`);
  const { mode } = state.settings.initiative;
  if (!rollsDie(mode)) throw new TurnError("cannotAct", `Initiative mode "${mode}" rolls no initiative die.`);
  const entries = Object.entries(rolls);
  for (const [id, d10] of entries) {
    combatantOf(state, id);
    assertInitiativeRoll(d10);
  }
  const unitOf = new Map<string, InitiativeUnit>();
  for (const u of initiativeUnits(state)) for (const id of u.memberIds) unitOf.set(id, u);
  const draft = new Draft(state);
  for (const [id, d10] of entries) {
    const c = combatantOf(state, id);
    const unit = unitOf.get(id);
    if (!unit) throw new TurnError("cannotAct", `Combatant "${id}" takes no part in initiative (out of the fight).`);
    if (unit.rollerId !== id) throw new TurnError("cannotAct", `Combatant "${id}" acts on its team's roll, made by "${unit.rollerId}".`);
    if (c.initiative.d10 !== null) {
      if (c.initiative.d10 === d10) continue;
      throw new TurnError("stale", `Combatant "${id}" already rolled ${c.initiative.d10} for initiative.`);
    }
    draft.put(c, { initiative: initiativeWith(c.initiative, { d10, total: initiativeTotalForMode(mode, unit.modifier, d10) }) });
  }
  return draft.change();
}

/** {@link recordInitiativeRolls} for one roller. */
export function recordInitiativeRoll(state: TurnState, rollerId: string, d10: number): TurnChange {
  assertId(rollerId);
  return recordInitiativeRolls(state, { [rollerId]: d10 });
}

/**
 * Records one roll-off d10 for every roller of every tied group ({@link initiativeWaiting}):
 * `rolls` must name exactly those rollers. Higher goes first; a group still tied rolls again.
 * TurnError("stale") when they are not (or no longer) tied.
 */
export function recordInitiativeRollOffs(state: TurnState, rolls: Readonly<Record<string, number>>): TurnChange {
  assertPhase(state, ["initiative"], "An initiative roll-off");
  const input: unknown = rolls;
  if (typeof input !== "object" || input === null) throw new TypeError(`Roll-offs must be an object of id → d10, got ${show(input)}.`);
  const waiting = initiativeWaiting(state);
  if (waiting.rolls.length > 0) throw new TurnError("notReady", `Initiative rolls are still missing (${waiting.rolls.join(", ")}): roll-offs come after them.`);
  const tied = new Set(waiting.rollOffs.flat());
  const given = Object.keys(rolls);
  for (const id of given) {
    combatantOf(state, id);
    if (!tied.has(id)) throw new TurnError("stale", `Combatant "${id}" is not tied on initiative.`);
  }
  // A set: nearly everyone can tie on d10 + modifier, and a list lookup here made the turn grow as n^1.25.
  const givenIds = new Set(given);
  for (const id of tied) if (!givenIds.has(id)) throw new RangeError(`The roll-off needs a d10 for every tied roller; "${id}" is missing.`);
  const draft = new Draft(state);
  for (const id of given) {
    const d10 = rolls[id] as number;
    assertInitiativeRoll(d10);
    const c = combatantOf(state, id);
    draft.put(c, { initiative: initiativeWith(c.initiative, { rollOffs: Object.freeze([...c.initiative.rollOffs, d10]) }) });
  }
  return draft.change();
}

/**
 * Records a declared dodger's Agy (bal) FEAT, rolled right after initiative (§6 optional rule,
 * [000]): its colour's shift (white 0, green −2, yellow −4, red −6) applies to every attack on
 * the dodger this turn. The roll is at the dodger's hold shift, if any. The same roll again
 * changes nothing; another is stale.
 */
export function recordDodgeRoll(state: TurnState, id: string, d100: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ["initiative"], "A declared dodge's roll");
  assertD100(d100);
  if (c.dodge === null) throw new TurnError("cannotAct", `Combatant "${id}" did not declare a dodge (or the declared-dodge rule is off).`);
  if (c.dodge.roll !== null) {
    if (c.dodge.roll === d100) return NO_CHANGE;
    throw new TurnError("stale", `Combatant "${id}" already rolled ${c.dodge.roll} for the declared dodge.`);
  }
  const result = resolveAction({ value: c.stats.balance, roll: d100, cs: holdEffects(c.hold).heldActionCs });
  const draft = new Draft(state);
  draft.put(c, { dodge: { roll: d100, color: result.color, shift: dodgeShift(result.color) } });
  return draft.change();
}

function buildOrder(draft: Draft): string[] {
  const state = draft.state;
  const units = initiativeUnits(state);
  if (state.settings.initiative.mode === "fixedOrder") return units.flatMap((u) => u.memberIds);
  const entries = unitEntries(state, units, (id) => draft.get(id));
  if (entries === null) throw new TurnError("notReady", "Initiative is not complete.");
  const byKey = new Map(units.map((u) => [u.key, u]));
  const totals = new Map(entries.map((e) => [e.id, e.total]));
  const order: string[] = [];
  for (const key of orderInitiative(entries)) {
    const unit = byKey.get(key) as InitiativeUnit;
    for (const id of unit.memberIds) {
      order.push(id);
      const c = draft.get(id) as CombatantTurn;
      const total = totals.get(key) ?? null;
      if (c.initiative.total !== total) draft.put(c, { initiative: initiativeWith(c.initiative, { total }) });
    }
  }
  return order;
}

// ---------------------------------------------------------------------------------------------
// Steps 4 and 5: Resolve and extra rounds
// ---------------------------------------------------------------------------------------------

/**
 * The acting combatant finished its action (or passes it) [001 Step 4]: it counts as taken and
 * the turn moves to the next combatant due — in the extra rounds [Step 5], round after round
 * until every action is spent. `actionIndex` (the combatant's actions used when the request was
 * made) makes a replay harmless: a request for an action already taken changes nothing.
 */
export function completeAction(state: TurnState, id: string, actionIndex?: number): TurnChange {
  const c = combatantOf(state, id);
  assertPhase(state, ["resolve", "extraRounds"], "Taking an action");
  if (actionIndex !== undefined) {
    assertCount(actionIndex, "The action index");
    if (actionIndex < c.actionsUsed) return NO_CHANGE;
    if (actionIndex > c.actionsUsed) throw new RangeError(`Combatant "${id}" has taken ${c.actionsUsed} actions; action ${actionIndex} is not next.`);
  }
  const current = currentCombatantId(state);
  if (current !== id) throw new TurnError("notYourTurn", current === null ? `Nobody is due to act now.` : `It is "${current}"'s action, not "${id}"'s.`);
  const draft = new Draft(state);
  draft.put(c, { actionsUsed: c.actionsUsed + 1, actedInRound: state.combat.round, nextActionCs: 0 });
  settleCursor(draft, state.combat.cursor + 1);
  return draft.change();
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
  assertPhase(state, ["resolve", "extraRounds"], "Changing a declared action");
  assertD100(d100);
  const parsed = parseDeclaration(declaration);
  if (!DECLARED_DODGE_MAY_CHARGE && c.dodge !== null && parsed.kind === "attack" && parsed.attack === "Ch") {
    throw new RangeError(`Combatant "${id}" declared a dodge this turn and may not charge.`);
  }
  if (actionIndex !== undefined) {
    assertCount(actionIndex, "The action index");
    if (actionIndex < c.actionsUsed || c.changedAt === actionIndex) return { change: NO_CHANGE, color: null, success: null };
    if (actionIndex > c.actionsUsed) throw new RangeError(`Combatant "${id}" has taken ${c.actionsUsed} actions; action ${actionIndex} is not next.`);
  }
  if (actionsLeft(c) === 0) throw new TurnError("cannotAct", `Combatant "${id}" has no action left to change.`);
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

// ---------------------------------------------------------------------------------------------
// Phase changes
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Things that happen to a combatant mid-turn
// ---------------------------------------------------------------------------------------------

/**
 * A stun lands (§8): `turns` from the Stun? result (1, or the d10 of a white result). If the
 * combatant has not acted this turn it is out from now (its actions this turn are lost);
 * otherwise from next turn [001; {@link STUN_TIMING_FOR_LONG_STUNS}]. A longer stun replaces a
 * shorter one; stuns do not add up [RULING].
 */
export function applyStun(state: TurnState, id: string, turns: number): TurnChange {
  const c = combatantOf(state, id);
  assertCount(turns, "Stun turns", 1);
  const acted = state.combat.phase === "wrapUp" || hasActed(c);
  const appliesNow = turns === 1 || STUN_TIMING_FOR_LONG_STUNS ? stunAppliesThisTurn(acted) : true;
  const draft = new Draft(state);
  if (appliesNow) {
    if (c.stunTurns >= turns) return NO_CHANGE;
    draft.put(c, { stunTurns: turns });
  } else {
    if (c.stunPending >= turns) return NO_CHANGE;
    draft.put(c, { stunPending: turns });
  }
  resettleIfCurrent(draft, id);
  return draft.change();
}

/** A Kill result took an Endurance rank (§8): the combatant is dying and loses another each wrap-up until aided. */
export function markDying(state: TurnState, id: string): TurnChange {
  const c = combatantOf(state, id);
  if (c.dead) throw new TurnError("cannotAct", `Combatant "${id}" is dead.`);
  if (c.dying && !c.aided) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { dying: true, aided: false });
  resettleIfCurrent(draft, id);
  return draft.change();
}

/** Someone aided (or, `false`, did not aid after all) a dying combatant this turn: no Endurance loss at wrap-up (§8). */
export function setAided(state: TurnState, id: string, aided: boolean): TurnChange {
  const c = combatantOf(state, id);
  assertBoolean(aided, "aided");
  if (!c.dying) throw new TurnError("cannotAct", `Combatant "${id}" is not dying.`);
  if (c.aided === aided) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { aided });
  return draft.change();
}

/** Puts a combatant in (or out of) a hold (§5); it persists from turn to turn. */
export function setHold(state: TurnState, id: string, hold: HoldState): TurnChange {
  const c = combatantOf(state, id);
  holdEffects(hold);
  if (c.hold === hold) return NO_CHANGE;
  const draft = new Draft(state);
  draft.put(c, { hold });
  return draft.change();
}

/** A recorded defence, with the change. */
export interface DefenceRecord {
  readonly change: TurnChange;
  /**
   * The shift for this defence from the defence count (Table 22): 0 within the free defences,
   * then −2 CS cumulative. 0 for a defence that takes the defender's action instead.
   */
  readonly penalty: number;
  /** True when the defence took the defender's action (Evasion, Feint, Catch). */
  readonly tookAction: boolean;
}

/**
 * Records a defence the combatant uses against an attack (§6, Table 22), in resolve or the
 * extra rounds. Evasion, Feint and Catch take an action (TurnError when none is left); the
 * others count against the free defences and return their penalty. Without `defence`, a
 * counted defence.
 */
export function recordDefence(state: TurnState, id: string, defence?: DefenceCode): DefenceRecord {
  const c = combatantOf(state, id);
  assertPhase(state, ["resolve", "extraRounds"], "A defence");
  if (defence !== undefined) assertDefenceCode(defence);
  const takes = defence !== undefined && defenceTakesAction(defence);
  const draft = new Draft(state);
  if (takes) {
    if (actionsLeft(c) === 0) throw new TurnError("cannotAct", `Combatant "${id}" has no action left for ${defence}.`);
    draft.put(c, { actionsUsed: c.actionsUsed + 1 });
    resettleIfCurrent(draft, id);
    return { change: draft.change(), penalty: 0, tookAction: true };
  }
  const penalty = nextDefencePenalty(c);
  draft.put(c, { defencesUsed: c.defencesUsed + 1 });
  return { change: draft.change(), penalty, tookAction: false };
}

/** Notes a Judge's event at wrap-up (bombs go off, floors collapse …) [001 Step 6]. */
export function noteEvent(state: TurnState, text: string): TurnChange {
  assertPhase(state, ["wrapUp"], "Noting an event");
  if (typeof text !== "string") throw new TypeError(`An event must be text, got ${show(text)}.`);
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.length > DECLARATION_TEXT_MAX) throw new RangeError(`An event must be 1 to ${DECLARATION_TEXT_MAX} characters.`);
  const draft = new Draft(state);
  draft.setCombat({ events: Object.freeze([...state.combat.events, trimmed]) });
  return draft.change();
}

/** Changes a combatant's stats or team or defeated flag (the character changed). Any phase. */
export function refreshCombatant(state: TurnState, id: string, fields: { stats?: CombatantStats; team?: string | null; defeated?: boolean }): TurnChange {
  const c = combatantOf(state, id);
  const next = createCombatantTurn(id, fields.stats ?? c.stats, { team: fields.team === undefined ? c.team : fields.team, defeated: fields.defeated ?? c.defeated });
  const draft = new Draft(state);
  draft.put(c, { stats: next.stats, team: next.team, defeated: next.defeated });
  resettleIfCurrent(draft, id);
  return draft.change();
}
