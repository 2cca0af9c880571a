import { KARMA_MINIMUM } from "../actions";
import { ATTACKS, STRENGTH_CONTEST_RULES, type AttackCode, type AttackResult, type StrengthContestRoll, type StrengthContestRule, canCallShot, isAttackCode } from "../attacks";
import { type ConsequenceCheck, type KillResult, type SlamDirection, type SlamResult, type StunResult } from "../consequences";
import { type DamageMethod, isDamageMethod } from "../damage";
import { CATCH_KINDS, type CatchKind, type CatchResult, DEFENCES, DEFENCE_CODES, type DefenceCode, type EscapeResult, avoidanceResult, canAttemptCatch, catchAttackShift, catchResult, defenceProtection, defencesAgainst, dodgeShift, weaveShift } from "../defences";
import { isRankNumber } from "../ranks";
import { AREA_CANNOT_BE_CAUGHT, areaRefusal, mayHaveArea, assertAreaDefinition, type AreaDefinition } from "../areas";
import { type Color } from "../universal-table";
import type { SlamMove } from "../board";
import { isKeyedError, rulesErrorText, type ErrorData, type KeyedError, type RulesErrorKey } from "../errors";

/** Version of the stored exchange state; bump with a migration when its shape changes. */
export const EXCHANGE_VERSION = 1;

/** The most objects an attack's path may hold (a guard on input, not a rule). */
export const MAX_OBSTACLES = 100;

/** [RULING] The to-hit roll is made after the target's defence is settled. */
export const TO_HIT_AFTER_DEFENCE = true;

/**
 * [RULING] Karma declared on an attack is added to the to-hit roll against each target (it is
 * one action); it is spent once.
 */
export const KARMA_APPLIES_TO_EACH_TARGET = true;

/** A column shift and why it applies: `label` is a localisation key (`localize`) or a name. */
export interface CsReason {
  readonly cs: number;
  readonly label: string;
  readonly localize: boolean;
}

/** The defender's scores a defence or a consequence roll uses. */
export interface TargetScores {
  readonly "agility.bal": number;
  readonly "fighting.def": number;
  readonly "strength.mgt": number;
  readonly "endurance.res": number;
}

export const TARGET_SCORE_KEYS = ["agility.bal", "fighting.def", "strength.mgt", "endurance.res"] as const satisfies readonly (keyof TargetScores)[];

/** A row's phase; "undone" is terminal (apply-damage.ts `UNDO_VOIDS_THE_ROW`): nothing more happens on it. */
export type TargetPhase = "awaitingDefence" | "awaitingToHit" | "resolved" | "applied" | "undone";

export type DefenceChoice = DefenceCode | "none";

/** What a defence did, by kind. */
export interface DefenceOutcome {
  /** Shift on the attack's to-hit column (Dodge, Weave; +1 for a missed catch aimed at the catcher). */
  readonly attackCs: number;
  /** Block/Brace: protection rank number. */
  readonly protection: number;
  /** Evasion/Feint/Catch: the attack is avoided outright. */
  readonly avoided: boolean;
  /** White Evasion/Feint/Catch: the attack hits even if it would have missed. */
  readonly autoHit: boolean;
  /** Evasion/Feint yellow +1, red +2: CS on the defender's next action against the attacker. */
  readonly bonusCs: number;
  /** Catch only. */
  readonly catchResult: CatchResult | null;
}

export interface TargetDefence {
  readonly code: DefenceChoice;
  readonly die: number | null;
  /** Karma the defender added to the die (absent: none). */
  readonly karma?: number;
  readonly cs: readonly CsReason[];
  /** The defence roll's column (rank key) and colour, when rolled. */
  readonly column: string | null;
  readonly color: Color | null;
  readonly outcome: DefenceOutcome;
}

export interface ToHitRecord {
  readonly die: number;
  /** Die plus Karma, capped at 100. */
  readonly total: number;
  readonly cs: readonly CsReason[];
  readonly column: string;
  readonly belowShift0: boolean;
  /** The colour the die showed, before an auto-hit or a pull. */
  readonly rolledColor: Color;
  /** The colour that counts (after an auto-hit; after a pull once pulled). */
  readonly color: Color;
  readonly result: AttackResult;
  /** A called shot was declared and the result is not a Bullseye: it counts as a miss. */
  readonly calledShotMissed: boolean;
  /** The colour was pulled by the attacker. */
  readonly pulled: boolean;
  /** Take or Full Hold read as a Strength ACTION (errata §5): its roll; absent otherwise. */
  readonly contest?: StrengthContestRoll | null;
}

export interface DamageRecord {
  /** Damage before protection (after a pull). */
  readonly raw: number;
  /** Damage before protection as rolled, before a pull. */
  readonly rolledRaw: number;
  /** Intensity method: the damage roll and its colour. */
  readonly die: number | null;
  readonly dieColor: Color | null;
  readonly armor: number;
  readonly defenceProtection: number;
  /** The protection that counts (armor and Block/Brace combined per §6). */
  readonly protection: number;
  /** Health the target loses (never below 0). */
  readonly dealt: number;
  /** Charging: damage rebounding onto the charger from the target's armor. */
  readonly rebound: number;
  /**
   * Damage the objects in the path took off before the target's protection (§5, [001]; absent on
   * records made before obstacles counted: 0).
   */
  readonly obstacles?: number;
}

export interface EscapeRecord {
  readonly die: number;
  readonly color: Color;
  readonly result: EscapeResult;
  /** The combat turn (round) it was tried in; null outside a combat. */
  readonly turn?: number | null;
}

export interface AppliedRecord {
  readonly healthBefore: number;
  readonly healthAfter: number;
  readonly max: number;
  readonly reachedZero: boolean;
  /** Charging: the charger's Health before and after the rebound from the target's armor (§5). */
  readonly rebound?: { readonly before: number; readonly after: number } | null;
  /**
   * The row's damage went to other characters instead of the target (the GM's "Apply to
   * selected tokens"): each one's Health before and after. The target's own Health is untouched.
   */
  readonly others?: readonly OtherDamage[] | null;
  /** A minor foe the world's minor-foe rule took out of the fight (rules/minor-foes.ts). */
  readonly out?: boolean;
}

/** One character a row's damage was applied to instead of its target. */
export interface OtherDamage {
  readonly uuid: string;
  readonly name: string;
  readonly before: number;
  readonly after: number;
  readonly max: number;
}

export type ConsequenceOutcome =
  | { readonly check: "slam"; readonly result: SlamResult; readonly direction: SlamDirection | null; readonly areas: number | "sight" | null }
  | { readonly check: "stun"; readonly result: StunResult; readonly turns: number; readonly thisTurn: boolean }
  | { readonly check: "kill"; readonly result: KillResult; readonly endurance: number; readonly dead: boolean; readonly karmaAgainstDeath?: number };

export interface ConsequenceRecord {
  readonly check: ConsequenceCheck;
  /** Why it is due: the attack's result, or Health reaching 0 / damage at 0. */
  readonly cause: "result" | "health";
  readonly die: number | null;
  readonly color: Color | null;
  readonly outcome: ConsequenceOutcome | null;
  /** Karma the target added to the die (absent: none). */
  readonly karma?: number;
  /** A slam that moved the target's token on the board (the "slam moves tokens" setting). */
  readonly moved?: SlamMove | null;
}

export interface ExchangeTarget {
  /** Stable row key on the card: "0", "1", … */
  readonly key: string;
  /** The target token's (or actor's) UUID, snapshotted when the attack was made. */
  readonly uuid: string;
  readonly actorUuid: string;
  readonly name: string;
  readonly scores: TargetScores;
  readonly armor: { readonly body: number; readonly energy: number };
  readonly phase: TargetPhase;
  readonly defence: TargetDefence | null;
  /** Escape attempts against a hold this attack put on the target. */
  readonly escapes: readonly EscapeRecord[];
  readonly toHit: ToHitRecord | null;
  readonly damage: DamageRecord | null;
  readonly applied: AppliedRecord | null;
  readonly consequences: readonly ConsequenceRecord[];
  /** On the public card: this row's scores, armor and protection are kept by the GM (secrets.ts). */
  readonly sealed?: boolean;
  /** On the public card: this row's defence is kept by the GM (secrets.ts). */
  readonly defenceHidden?: boolean;
  /** An area attack: the row's distance in areas from the area's centre (its damage may fall off). */
  readonly areaDistance?: number;
  /** Shifts on this row's to-hit alone, after the card's (its own range: rules board.ts SEVERAL_TARGETS_RANGE); absent: none. */
  readonly toHitCs?: readonly CsReason[];
  /** The defence was picked by the Judge's client under the NPC-defence setting (npc-defence.ts): the Judge may change it. */
  readonly defencePicked?: boolean;
  /** How many times the Judge changed this row's picked defence (npc-defence.ts `reopenDefence`). */
  readonly defenceChanges?: number;
  /** A defence the Judge changed was counted in the defender's extra-defence count: the one chosen instead is not (npc-defence.ts). */
  readonly replacedCounted?: boolean;
}

export interface ExchangeAttacker {
  readonly uuid: string;
  readonly name: string;
  /** Rank number of the sub-score the attack rolls on (§5). */
  readonly value: number;
  readonly strength: number;
  /** Body armor rank number (charging: it soaks rebound damage). */
  readonly armor: number;
  /** On the public card: the attacker's numbers are kept by the GM (an NPC: secrets.ts). */
  readonly sealed?: boolean;
}

export interface ExchangeState {
  readonly version: number;
  readonly attack: AttackCode;
  /** What made the attack (a power's or weapon's name). */
  readonly source: string;
  readonly attacker: ExchangeAttacker;
  /** Shifts on every to-hit roll (range, obstacles, extra actions, charge, talents …). */
  readonly toHitCs: readonly CsReason[];
  readonly karma: number;
  readonly damage: { readonly method: DamageMethod; readonly value: number };
  readonly calledShot: boolean;
  readonly blindsided: boolean;
  /** What a Catch would catch; null when the attack cannot be caught. */
  readonly projectile: CatchKind | null;
  /**
   * The material strength of each object in a ranged attack's path, nearest first (§5, [001]:
   * "subtracted from its damage"). Absent on states stored before obstacles counted: none.
   */
  readonly obstacles?: readonly number[];
  /** How Take and Full Hold damage are decided (errata §5, a world setting); absent on older states: the comparison. */
  readonly strengthContest?: StrengthContestRule;
  readonly targets: readonly ExchangeTarget[];
  /** An area attack's area (rules/areas.ts); absent for an attack on chosen targets. */
  readonly area?: AreaDefinition;
  /** Shifts on the damage column, with reasons (a flurry's +1 CS per doubling: rules/turn shifts.ts); absent: none. */
  readonly damageCs?: readonly CsReason[];
  /** Made out of the attacker's action in a running turn, where the world only flags it. */
  readonly outOfTurn?: boolean;
  /** The attacker's action in the running turn that this attack was (spent when the card is written). */
  readonly turnAction?: { readonly combatId: string; readonly combatantId: string; readonly actionIndex: number };
}

export type ExchangeErrorKind = "stale" | "invalid";

/** A refused transition. "stale": it already happened (nothing changes). "invalid": bad input. */
export class ExchangeError extends Error implements KeyedError {
  constructor(
    readonly kind: ExchangeErrorKind,
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "ExchangeError";
  }
}

export function invalid(key: RulesErrorKey, data?: ErrorData): never {
  throw new ExchangeError("invalid", key, data);
}

/**
 * Another rules module's refusal of the input, as an "invalid" ExchangeError with its text. An
 * error that names no text is said by `fallback` when there is one, else rethrown as it is.
 */
export function invalidFrom(error: unknown, fallback?: RulesErrorKey, data?: ErrorData): never {
  if (isKeyedError(error)) invalid(error.key, error.data);
  if (fallback !== undefined) invalid(fallback, data);
  throw error;
}

/** Checks a list of column shifts; `at` names it in the input (an identifier, as in the stored state). */
export function checkCs(list: readonly CsReason[], at: string): void {
  for (let i = 0; i < list.length; i++) {
    if (!Number.isInteger((list[i] as CsReason).cs) || typeof (list[i] as CsReason).label !== "string") invalid("exchangeCsBad", { at });
  }
}

export function sumCs(list: readonly CsReason[]): number {
  return list.reduce((s, c) => s + c.cs, 0);
}

// ── creation ──────────────────────────────────────────────────────────────────────────────────
export interface TargetInput {
  readonly uuid: string;
  readonly actorUuid: string;
  readonly name: string;
  readonly scores: TargetScores;
  readonly armor: { readonly body: number; readonly energy: number };
  /** An area attack: the target's distance in areas from the area's centre. */
  readonly areaDistance?: number;
  /** Shifts on this target's to-hit alone (its own range). */
  readonly toHitCs?: readonly CsReason[];
}

/** What an exchange starts from: its state's declaration, with targets as snapshots. */
export type ExchangeInput = Omit<ExchangeState, "version" | "targets"> & { readonly targets: readonly TargetInput[] };

/** Starts an exchange. "invalid" ExchangeError naming the fault for a bad input. */
export function createExchange(input: ExchangeInput): ExchangeState {
  if (!isAttackCode(input.attack)) invalid("exchangeUnknown", { at: "attack", got: String(input.attack) });
  const a = input.attacker;
  if (!(isRankNumber(a.value) && isRankNumber(a.strength) && isRankNumber(a.armor) && isRankNumber(input.damage.value))) {
    for (const [at, v] of [["attacker.value", a.value], ["attacker.strength", a.strength], ["attacker.armor", a.armor], ["damage.value", input.damage.value]] as const) if (!isRankNumber(v)) invalid("exchangeNotRank", { at, got: String(v) });
  }
  if (!isDamageMethod(input.damage.method)) invalid("exchangeUnknown", { at: "damage.method", got: String(input.damage.method) });
  if (!Number.isInteger(input.karma) || input.karma < 0 || (input.karma > 0 && input.karma < KARMA_MINIMUM)) invalid("exchangeKarmaMinimum", { min: KARMA_MINIMUM });
  if (input.calledShot && !canCallShot(input.attack)) invalid("exchangeNoCalledShot", { attack: input.attack });
  if (input.projectile !== null && !(CATCH_KINDS as readonly string[]).includes(input.projectile)) invalid("exchangeUnknown", { at: "projectile", got: input.projectile });
  checkCs(input.toHitCs, "toHitCs");
  if (input.damageCs !== undefined) checkCs(input.damageCs, "damageCs");
  if (input.strengthContest !== undefined && !(STRENGTH_CONTEST_RULES as readonly string[]).includes(input.strengthContest)) invalid("exchangeUnknown", { at: "strengthContest", got: input.strengthContest });
  const obstacles: readonly number[] = input.obstacles ?? [];
  const list: unknown = obstacles;
  if (!Array.isArray(list) || obstacles.length > MAX_OBSTACLES) invalid("exchangeObstacleList", { max: MAX_OBSTACLES });
  for (const ms of obstacles) if (!isRankNumber(ms)) invalid("exchangeObstacleNotRank", { got: String(ms) });
  if (obstacles.length > 0 && ATTACKS[input.attack].family !== "ranged") invalid("exchangeObstacleNotRanged", { attack: input.attack });
  if (input.targets.length === 0) invalid("exchangeNoTarget");
  const area = input.area === undefined ? undefined : checkedArea(input);
  const seen = input.targets.length > 1 ? new Set<string>() : null; // one target cannot be listed twice
  const targets = input.targets.map((t, i) => targetRow(t, i, input.blindsided, area, seen));
  // Literals, not `{ ..., ...(area ? { area } : {}) }`: a spread after other fields costs V8 a
  // slow generic copy, a large share of the whole attack's time; only an area attack pays it.
  const state: ExchangeState = {
    version: EXCHANGE_VERSION,
    attack: input.attack,
    source: input.source,
    attacker: input.attacker,
    toHitCs: input.toHitCs,
    karma: input.karma,
    damage: input.damage,
    calledShot: input.calledShot,
    blindsided: input.blindsided,
    projectile: area !== undefined && AREA_CANNOT_BE_CAUGHT ? null : input.projectile,
    obstacles: [...obstacles],
    strengthContest: input.strengthContest ?? "comparison",
    targets,
  };
  const turn = turnFields(input);
  if (turn === null) return area === undefined ? state : { ...state, area };
  return area === undefined ? { ...state, ...turn } : { ...state, area, ...turn };
}

/** The turn's fields of a new exchange (damage shifts, out of turn, the action it was), or null when it has none. */
function turnFields(input: ExchangeInput): Pick<ExchangeState, "damageCs" | "outOfTurn" | "turnAction"> | null {
  const damageCs = input.damageCs !== undefined && input.damageCs.length > 0 ? input.damageCs.map((c) => ({ ...c })) : undefined;
  const t = input.turnAction;
  if (t !== undefined && !(typeof t.combatId === "string" && typeof t.combatantId === "string" && Number.isSafeInteger(t.actionIndex) && t.actionIndex >= 0)) invalid("exchangeTurnActionBad");
  if (damageCs === undefined && input.outOfTurn !== true && t === undefined) return null;
  return { ...(damageCs ? { damageCs } : {}), ...(input.outOfTurn === true ? { outOfTurn: true } : {}), ...(t ? { turnAction: { combatId: t.combatId, combatantId: t.combatantId, actionIndex: t.actionIndex } } : {}) };
}

/** One target's row of a new exchange (the `i`th), its snapshot checked; `seen` holds the UUIDs before it. */
function targetRow(t: TargetInput, i: number, blindsided: boolean, area: AreaDefinition | undefined, seen: Set<string> | null): ExchangeTarget {
  if (typeof t.uuid !== "string" || t.uuid === "") invalid("exchangeTargetNoUuid");
  if (seen?.has(t.uuid)) invalid("exchangeTargetTwice", { name: t.name });
  seen?.add(t.uuid);
  // Every score a defence or a consequence roll reads must be there (a missing one is as bad as
  // a wrong one), and the state keeps plain copies: it is stored as JSON.
  const s = t.scores; // the loop below names the first bad one; most snapshots are good
  if (!(isRankNumber(s["agility.bal"]) && isRankNumber(s["fighting.def"]) && isRankNumber(s["strength.mgt"]) && isRankNumber(s["endurance.res"]) && isRankNumber(t.armor.body) && isRankNumber(t.armor.energy))) for (const key of [...TARGET_SCORE_KEYS, "armor.body", "armor.energy"] as const) {
    const v: unknown = key === "armor.body" ? t.armor.body : key === "armor.energy" ? t.armor.energy : t.scores[key];
    if (!isRankNumber(v)) invalid("exchangeTargetNotRank", { name: t.name, at: key, got: String(v) });
  }
  const scores: TargetScores = {
    "agility.bal": t.scores["agility.bal"],
    "fighting.def": t.scores["fighting.def"],
    "strength.mgt": t.scores["strength.mgt"],
    "endurance.res": t.scores["endurance.res"],
  };
  const row: ExchangeTarget = {
    key: String(i),
    uuid: t.uuid,
    actorUuid: t.actorUuid,
    name: t.name,
    scores,
    armor: { body: t.armor.body, energy: t.armor.energy },
    phase: blindsided ? "awaitingToHit" : "awaitingDefence",
    defence: null,
    toHit: null,
    damage: null,
    applied: null,
    consequences: [],
    escapes: [],
  };
  const own = t.toHitCs;
  if (own !== undefined) checkCs(own, `targets.${String(i)}.toHitCs`);
  const shifted = own !== undefined && own.length > 0 ? { ...row, toHitCs: own.map((c) => ({ ...c })) } : row;
  return area === undefined ? shifted : { ...shifted, areaDistance: checkedAreaDistance(area, t) };
}

/** An area attack's area, checked against the attack (rules/areas.ts); a plain copy. */
function checkedArea(input: ExchangeInput): AreaDefinition {
  const a: unknown = input.area;
  try {
    assertAreaDefinition(a);
  } catch (error) {
    invalidFrom(error);
  }
  // areaRefusal (rules/areas.ts) decides; its two refusals are said here by key.
  if (areaRefusal(input.attack, a, input.calledShot) !== null) invalid(mayHaveArea(input.attack) ? "exchangeAreaCalledShot" : "exchangeAreaNotRanged", { attack: input.attack });
  return { shape: a.shape, radius: a.radius, explosive: a.explosive === true };
}

/** A target's distance from an area's centre: a whole number within the area (0 along a line). */
function checkedAreaDistance(area: AreaDefinition, t: TargetInput): number {
  const d = t.areaDistance;
  if (d === undefined || !Number.isInteger(d) || d < 0 || d > area.radius) invalid("exchangeAreaDistance", { name: t.name, max: area.radius, got: String(d) });
  return area.shape === "line" ? 0 : d;
}

// ── helpers ───────────────────────────────────────────────────────────────────────────────────
/** The target with this key. "invalid" when there is none. */
export function targetOf(state: ExchangeState, key: string): ExchangeTarget {
  const t = state.targets.find((x) => x.key === key);
  if (!t) invalid("exchangeNoSuchTarget", { key });
  return t;
}

/** "stale" unless the row is in `phase` (a stale refusal shows no text: the row's phase says enough for the logs). */
export function expectPhase(target: ExchangeTarget, phase: TargetPhase): void {
  if (target.phase !== phase) throw new ExchangeError("stale", "exchangeWrongPhase", { name: target.name, phase: target.phase });
}

/** The score each defence rolls on (§6), from the defence table. */
export const DEFENCE_SCORE: Readonly<Record<DefenceCode, keyof TargetScores>> = Object.freeze(
  Object.fromEntries(
    DEFENCE_CODES.map((d) => {
      const score = DEFENCES[d].rollsOn;
      if (!(TARGET_SCORE_KEYS as readonly string[]).includes(score)) throw new Error(`unreachable: defence ${d} rolls on ${score}, which a target snapshot does not hold.`);
      return [d, score as keyof TargetScores];
    }),
  ) as Record<DefenceCode, keyof TargetScores>,
);

/**
 * The defences a target may choose against this attack: exactly those valid against its type
 * (§6), never Escape (it answers an existing hold, not an attack), Catch only when the thing
 * can be caught and the defender has the Agility for it, and none when blindsided.
 */
export function defenceOptions(state: ExchangeState, key: string): DefenceCode[] {
  return defenceOptionsFor(state, targetOf(state, key));
}

/** {@link defenceOptions} for a row already found. */
export function defenceOptionsFor(state: ExchangeState, target: ExchangeTarget): DefenceCode[] {
  if (state.blindsided) return [];
  return defencesAgainst(state.attack).filter((d) => {
    if (d === "escape") return false;
    if (d === "catch") return state.projectile !== null && canAttemptCatch(state.projectile, target.scores["agility.bal"]);
    return true;
  });
}

export const NO_DEFENCE: DefenceOutcome = { attackCs: 0, protection: 0, avoided: false, autoHit: false, bonusCs: 0, catchResult: null };

/** What a defence roll of `color` does (§6). */
export function defenceOutcome(defence: DefenceCode, color: Color, target: ExchangeTarget): DefenceOutcome {
  switch (defence) {
    case "dodge":
      return { ...NO_DEFENCE, attackCs: dodgeShift(color) };
    case "weave":
      return { ...NO_DEFENCE, attackCs: weaveShift(color) };
    case "block":
    case "brace":
      return { ...NO_DEFENCE, protection: defenceProtection(defence, target.scores[DEFENCE_SCORE[defence]], color) };
    case "evasion":
    case "feint": {
      const a = avoidanceResult(color);
      return { ...NO_DEFENCE, avoided: a.avoided, autoHit: a.autoHit, bonusCs: a.bonusCs };
    }
    case "catch": {
      const c = catchResult(color);
      return {
        ...NO_DEFENCE,
        catchResult: c,
        autoHit: c === "autoHit",
        avoided: c === "caught" || c === "caughtDamaged",
        // The attack is aimed at the target, so a missed catch helps it (+1 CS).
        attackCs: catchAttackShift(c, true),
      };
    }
    case "escape":
      return invalid("exchangeEscapeNotAttack");
  }
}
