/**
 * The attack exchange (CASE-RULES §5–§8) as a pure state machine. Its state is plain JSON,
 * so a chat message can store it and re-render it after a reload.
 *
 *   declared ─▶ per target: awaitingDefence ─(defence rolled | no defence)─▶ awaitingToHit
 *            ─(to-hit rolled)─▶ resolved ─(pull?)─(damage applied)─▶ applied
 *            ─(Slam? / Stun? / Kill? rolled)─▶ done
 *
 * Timing [RULING, {@link TO_HIT_AFTER_DEFENCE}]: each target's to-hit roll is made after that
 * target's defence is settled, so a defender never chooses knowing the attack roll, and a
 * Dodge or Weave shift is read on the same roll it changes. A blindsided target (§5) gets no
 * defence and goes straight to the to-hit roll. An Evasion, Feint or Catch that avoids the
 * attack ends the target's exchange without a to-hit roll.
 *
 * Every transition checks the phase it starts from and throws an {@link ExchangeError} of kind
 * "stale" when it has already happened, so a double click, a replayed request or a second GM
 * changes nothing; "invalid" is for input no click could make.
 */
import { isRankNumber, rankOf, shiftColumn } from "./ranks";
import { applyKarma, KARMA_MINIMUM } from "./actions";
import { thrownRange } from "./abilities";
import {
  ATTACKS,
  attackResult,
  calledShotSucceedsOnColor,
  canCallShot,
  chargeReboundDamage,
  fullHoldDealsDamage,
  isAttackCode,
  isHit,
  mayPullColor,
  mayPullDamage,
  pullAttack,
  type AttackCode,
  type AttackResult,
} from "./attacks";
import {
  CATCH_KINDS,
  DEFENCES,
  DEFENCE_CODES,
  attackColorAfterAutoHit,
  avoidanceResult,
  canAttemptCatch,
  catchAttackShift,
  catchResult,
  catchRollShift,
  combineProtection,
  defenceProtection,
  escapeResult,
  defencesAgainst,
  dodgeShift,
  weaveShift,
  type CatchKind,
  type CatchResult,
  type DefenceCode,
  type EscapeResult,
} from "./defences";
import { DAMAGE_METHODS, armorProtectionAgainst, applyDamageToHealth, clampHealth, damageAfterProtection, damageFromRoll, damageRollColor, type DamageMethod } from "./damage";
import {
  consequenceCheck,
  enduranceAfterKillLoss,
  killCheckDue,
  killResult,
  slamDirection,
  slamDistance,
  slamResult,
  stunResult,
  stunTurns,
  type ConsequenceCheck,
  type KillResult,
  type SlamDirection,
  type SlamResult,
  type StunResult,
} from "./consequences";
import { COLORS, UNIVERSAL_TABLE, colorOnColumn, assertD100, isColor, type Color, type UniversalTable } from "./universal-table";
import { replaceTarget } from "./exchange-state";

/** Version of the stored exchange state; bump with a migration when its shape changes. */
export const EXCHANGE_VERSION = 1;

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

export type TargetPhase = "awaitingDefence" | "awaitingToHit" | "resolved" | "applied";

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
}

export interface DamageRecord {
  /** Damage before protection (after a pull). */
  readonly raw: number;
  /** Damage before protection as rolled, before any pull. */
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
}

export type ConsequenceOutcome =
  | { readonly check: "slam"; readonly result: SlamResult; readonly direction: SlamDirection | null; readonly areas: number | "sight" | null }
  | { readonly check: "stun"; readonly result: StunResult; readonly turns: number; readonly thisTurn: boolean }
  | { readonly check: "kill"; readonly result: KillResult; readonly endurance: number; readonly dead: boolean };

export interface ConsequenceRecord {
  readonly check: ConsequenceCheck;
  /** Why it is due: the attack's result, or Health reaching 0 / damage at 0. */
  readonly cause: "result" | "health";
  readonly die: number | null;
  readonly color: Color | null;
  readonly outcome: ConsequenceOutcome | null;
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
  /** On the public card: this row's scores, armor and protection are kept by the GM (exchange-secrets.ts). */
  readonly sealed?: boolean;
  /** On the public card: this row's defence is kept by the GM (exchange-secrets.ts). */
  readonly defenceHidden?: boolean;
}

export interface ExchangeAttacker {
  readonly uuid: string;
  readonly name: string;
  /** Rank number of the sub-score the attack rolls on (§5). */
  readonly value: number;
  readonly strength: number;
  /** Body armor rank number (charging: it soaks rebound damage). */
  readonly armor: number;
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
  readonly targets: readonly ExchangeTarget[];
}

export type ExchangeErrorKind = "stale" | "invalid";

/** A refused transition. "stale": it already happened (nothing changes). "invalid": bad input. */
export class ExchangeError extends Error {
  constructor(
    readonly kind: ExchangeErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ExchangeError";
  }
}

function invalid(message: string): never {
  throw new ExchangeError("invalid", message);
}

function checkCs(list: readonly CsReason[], what: string): void {
  for (let i = 0; i < list.length; i++) {
    if (!Number.isInteger((list[i] as CsReason).cs) || typeof (list[i] as CsReason).label !== "string") invalid(`${what}: a column shift must be a whole number with a label.`);
  }
}

function sumCs(list: readonly CsReason[]): number {
  return list.reduce((s, c) => s + c.cs, 0);
}

// ── creation ────────────────────────────────────────────────────────────────────────────────

export interface TargetInput {
  readonly uuid: string;
  readonly actorUuid: string;
  readonly name: string;
  readonly scores: TargetScores;
  readonly armor: { readonly body: number; readonly energy: number };
}

/** What an exchange starts from: its state's declaration, with targets as snapshots. */
export type ExchangeInput = Omit<ExchangeState, "version" | "targets"> & { readonly targets: readonly TargetInput[] };

/** Starts an exchange. "invalid" ExchangeError naming the fault for any bad input. */
export function createExchange(input: ExchangeInput): ExchangeState {
  if (!isAttackCode(input.attack)) invalid(`Unknown attack type "${String(input.attack)}".`);
  const a = input.attacker;
  if (!(isRankNumber(a.value) && isRankNumber(a.strength) && isRankNumber(a.armor) && isRankNumber(input.damage.value))) {
    for (const [k, v] of [["attacker rank", a.value], ["attacker Strength", a.strength], ["attacker armor", a.armor], ["damage", input.damage.value]] as const) if (!isRankNumber(v)) invalid(`The ${k} must be a rank number, got ${String(v)}.`);
  }
  if (!(DAMAGE_METHODS as readonly unknown[]).includes(input.damage.method)) invalid(`Unknown damage method ${JSON.stringify(input.damage.method)}.`);
  if (!Number.isInteger(input.karma) || input.karma < 0 || (input.karma > 0 && input.karma < KARMA_MINIMUM)) invalid(`Karma must be 0 or at least ${KARMA_MINIMUM}.`);
  if (input.calledShot && !canCallShot(input.attack)) invalid(`A ${input.attack} attack has no Bullseye, so it cannot make a called shot.`);
  if (input.projectile !== null && !(CATCH_KINDS as readonly string[]).includes(input.projectile)) invalid(`Unknown projectile ${JSON.stringify(input.projectile)}.`);
  checkCs(input.toHitCs, "to-hit");
  if (input.targets.length === 0) invalid("An attack needs at least one target.");
  const seen = input.targets.length > 1 ? new Set<string>() : null; // one target cannot be listed twice
  const targets = input.targets.map((t, i): ExchangeTarget => {
    if (typeof t.uuid !== "string" || t.uuid === "") invalid("Every target needs a UUID.");
    if (seen?.has(t.uuid)) invalid(`Target ${t.name} is listed twice.`);
    seen?.add(t.uuid);
    // Every score a defence or a consequence roll reads must be there (a missing one is as bad as
    // a wrong one), and the state keeps plain copies: it is stored as JSON.
    const s = t.scores; // the loop below names the first bad one; most snapshots are good
    if (!(isRankNumber(s["agility.bal"]) && isRankNumber(s["fighting.def"]) && isRankNumber(s["strength.mgt"]) && isRankNumber(s["endurance.res"]) && isRankNumber(t.armor.body) && isRankNumber(t.armor.energy))) for (const key of [...TARGET_SCORE_KEYS, "armor.body", "armor.energy"] as const) {
      const v: unknown = key === "armor.body" ? t.armor.body : key === "armor.energy" ? t.armor.energy : t.scores[key];
      if (!isRankNumber(v)) invalid(`Target ${t.name}: ${key} must be a rank number, got ${String(v)}.`);
    }
    const scores: TargetScores = {
      "agility.bal": t.scores["agility.bal"],
      "fighting.def": t.scores["fighting.def"],
      "strength.mgt": t.scores["strength.mgt"],
      "endurance.res": t.scores["endurance.res"],
    };
    return {
      key: String(i),
      uuid: t.uuid,
      actorUuid: t.actorUuid,
      name: t.name,
      scores,
      armor: { body: t.armor.body, energy: t.armor.energy },
      phase: input.blindsided ? "awaitingToHit" : "awaitingDefence",
      defence: null,
      toHit: null,
      damage: null,
      applied: null,
      consequences: [],
      escapes: [],
    };
  });
  return {
    version: EXCHANGE_VERSION,
    attack: input.attack,
    source: input.source,
    attacker: input.attacker,
    toHitCs: input.toHitCs,
    karma: input.karma,
    damage: input.damage,
    calledShot: input.calledShot,
    blindsided: input.blindsided,
    projectile: input.projectile,
    targets,
  };
}

// ── helpers ───────────────────────────────────────────────────────────────────────────────

/** The target with this key. "invalid" when there is none. */
export function targetOf(state: ExchangeState, key: string): ExchangeTarget {
  const t = state.targets.find((x) => x.key === key);
  if (!t) invalid(`This attack has no target "${key}".`);
  return t;
}

function expectPhase(target: ExchangeTarget, phase: TargetPhase, doing: string): void {
  if (target.phase !== phase) throw new ExchangeError("stale", `${target.name}: cannot ${doing} now (${target.phase}).`);
}

/** The score each defence rolls on (§6), from the defence table. */
export const DEFENCE_SCORE: Readonly<Record<DefenceCode, keyof TargetScores>> = Object.freeze(
  Object.fromEntries(
    DEFENCE_CODES.map((d) => {
      const score = DEFENCES[d].rollsOn;
      if (!(TARGET_SCORE_KEYS as readonly string[]).includes(score)) throw new Error(`Defence ${d} rolls on ${score}, which a target snapshot does not hold.`);
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
  const target = targetOf(state, key);
  if (state.blindsided) return [];
  return defencesAgainst(state.attack).filter((d) => {
    if (d === "escape") return false;
    if (d === "catch") return state.projectile !== null && canAttemptCatch(state.projectile, target.scores["agility.bal"]);
    return true;
  });
}

const NO_DEFENCE: DefenceOutcome = { attackCs: 0, protection: 0, avoided: false, autoHit: false, bonusCs: 0, catchResult: null };

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
      return invalid("Escape answers an existing hold, not an attack.");
  }
}

// ── transitions ─────────────────────────────────────────────────────────────────────────

export interface DefenceRoll {
  readonly defence: DefenceCode;
  /** The defender's d100. */
  readonly die: number;
  /** Shifts on the defence roll other than Catch's own −3 CS (extra-defence penalty, talents, holds …). */
  readonly cs: readonly CsReason[];
}

/** The defender rolled a defence. From awaitingDefence to awaitingToHit (or resolved when it avoided the attack). */
export function chooseDefence(state: ExchangeState, key: string, roll: DefenceRoll, table: UniversalTable = UNIVERSAL_TABLE): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence", "defend");
  if (!defenceOptions(state, key).includes(roll.defence)) invalid(`${target.name} cannot use ${roll.defence} against this attack.`);
  assertD100(roll.die);
  checkCs(roll.cs, "defence");
  const cs: CsReason[] = [...roll.cs];
  if (roll.defence === "catch") cs.push({ cs: catchRollShift(true), label: "CASE.Exchange.CatchAimed", localize: true });
  const column = shiftColumn(target.scores[DEFENCE_SCORE[roll.defence]], sumCs(cs));
  // A defence pushed below Shift 0 still reads Shift 0's column: it is the worst column there is.
  const color = colorOnColumn(column.rank, roll.die, table);
  const outcome = defenceOutcome(roll.defence, color, target);
  const defence: TargetDefence = { code: roll.defence, die: roll.die, cs, column: column.rank.key, color, outcome };
  if (outcome.avoided) {
    return replaceTarget(state, { ...target, defence, phase: "resolved", toHit: null, damage: null });
  }
  return replaceTarget(state, { ...target, defence, phase: "awaitingToHit" });
}

/**
 * The optional declared dodge ([000], CASE-RULES §6): a dodge declared as the turn's action and
 * rolled once after initiative shifts every dodgeable attack on the dodger that turn. It takes
 * the place of a defence roll here (no die; `cs` is the shift rolled then, 0/−2/−4/−6).
 */
export function applyDeclaredDodge(state: ExchangeState, key: string, cs: number): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence", "dodge");
  if (!defenceOptions(state, key).includes("dodge")) invalid(`A ${state.attack} attack cannot be dodged.`);
  if (!Number.isInteger(cs) || cs > 0) invalid(`A declared dodge's shift must be 0 or negative, got ${String(cs)}.`);
  const defence: TargetDefence = { code: "dodge", die: null, cs: [], column: null, color: null, outcome: { ...NO_DEFENCE, attackCs: cs } };
  return replaceTarget(state, { ...target, defence, phase: "awaitingToHit" });
}

/** The defender takes the attack without a defence. */
export function declineDefence(state: ExchangeState, key: string): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence", "decline a defence");
  return replaceTarget(state, { ...target, defence: { code: "none", die: null, cs: [], column: null, color: null, outcome: NO_DEFENCE }, phase: "awaitingToHit" });
}

export interface ToHitRoll {
  /** The attacker's d100. */
  readonly die: number;
  /** The intensity damage roll (d100 on the damage rank's column); required for the intensity method on a hit. */
  readonly damageDie?: number | undefined;
}

/** Damage of a result with this colour, after protection. */
function damageFor(state: ExchangeState, target: ExchangeTarget, result: AttackResult, counts: boolean, damageDie: number | null, table: UniversalTable, rawOverride?: number): DamageRecord | null {
  let raw: number;
  let die: number | null = null;
  let dieColor: Color | null = null;
  if (isHit(result) && counts) {
    if (state.damage.method === "intensity") {
      if (damageDie === null) invalid("Intensity damage needs a damage roll.");
      assertD100(damageDie);
      die = damageDie;
      dieColor = damageRollColor(state.damage.value, damageDie, table);
      raw = damageFromRoll("intensity", state.damage.value, dieColor);
    } else raw = damageFromRoll("static", state.damage.value);
  } else if (result === "fullHold" && fullHoldDealsDamage(state.attacker.strength, target.scores["strength.mgt"])) {
    raw = state.attacker.strength;
  } else return null;
  const rolledRaw = raw;
  if (rawOverride !== undefined) raw = rawOverride;
  const armor = result === "fullHold" ? target.armor.body : armorProtectionAgainst(state.attack, { body: target.armor.body, energy: target.armor.energy });
  const fromDefence = target.defence?.outcome.protection ?? 0;
  const protection = fromDefence > 0 ? combineProtection(armor, fromDefence) : armor;
  const dealt = damageAfterProtection(raw, protection);
  const rebound = state.attack === "Ch" ? chargeReboundDamage(target.armor.body, state.attacker.armor) : 0;
  return { raw, rolledRaw, die, dieColor, armor, defenceProtection: fromDefence, protection, dealt, rebound };
}

/**
 * The to-hit colour after the defender walked into the attack (white Evasion, Feint or Catch):
 * at least {@link attackColorAfterAutoHit}'s colour, and never a colour whose result is a Miss —
 * an auto-hit "will make it strike" [001] (Grappling's green is a Miss, so its auto-hit is a
 * Partial Hold).
 */
function autoHitColor(attack: AttackCode, color: Color): Color {
  let c = attackColorAfterAutoHit(color);
  while (attackResult(attack, c) === "miss" && c !== "red") c = COLORS[COLORS.indexOf(c) + 1] as Color;
  return c;
}

/**
 * A called shot needs a Bullseye (§5); every other hit misses what was aimed at. A red roll lands
 * it only under the CALLED_SHOT_RED_SUCCEEDS ruling (attacks.ts).
 */
function calledShotMisses(state: ExchangeState, color: Color, result: AttackResult): boolean {
  return state.calledShot && isHit(result) && !calledShotSucceedsOnColor(state.attack, color);
}

function consequencesFor(result: AttackResult, counts: boolean, dealt: number): ConsequenceRecord[] {
  const check = counts ? consequenceCheck(result, dealt) : null;
  return check ? [{ check, cause: "result", die: null, color: null, outcome: null }] : [];
}

/** The to-hit roll against one target. From awaitingToHit to resolved. */
export function rollToHit(state: ExchangeState, key: string, roll: ToHitRoll, table: UniversalTable = UNIVERSAL_TABLE): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingToHit", "roll to hit");
  assertD100(roll.die);
  const outcome = target.defence?.outcome ?? NO_DEFENCE;
  const cs: CsReason[] = [...state.toHitCs];
  if (outcome.attackCs !== 0) {
    cs.push({ cs: outcome.attackCs, label: `CASE.Defence.${target.defence?.code ?? "none"}`, localize: true });
  }
  const column = shiftColumn(state.attacker.value, sumCs(cs));
  const total = applyKarma(roll.die, state.karma);
  const rolledColor = colorOnColumn(column.rank, total, table);
  // Below Shift 0 no roll can hit (§1) — unless the defender walked into it (auto-hit).
  let color: Color = column.belowShift0 ? "white" : rolledColor;
  if (outcome.autoHit) color = autoHitColor(state.attack, color);
  const result = attackResult(state.attack, color);
  const calledShotMissed = calledShotMisses(state, color, result);
  const damage = damageFor(state, target, result, !calledShotMissed, roll.damageDie ?? null, table);
  const toHit: ToHitRecord = { die: roll.die, total, cs, column: column.rank.key, belowShift0: column.belowShift0, rolledColor, color, result, calledShotMissed, pulled: false };
  return replaceTarget(state, { ...target, phase: "resolved", toHit, damage, consequences: consequencesFor(result, !calledShotMissed, damage?.dealt ?? 0) });
}

/** [RULING] A pulled blow is final: the attacker chooses once (§5 gives one choice, before damage). */
export const PULL_IS_FINAL = true as boolean;

export interface PullChoice {
  readonly color?: Color | undefined;
  readonly damage?: number | undefined;
}

/**
 * The attacker pulls the blow (§5: per the attack type's pull rule) before the damage is
 * applied: a lower colour (and so result) and/or lower damage.
 */
export function pullBlow(state: ExchangeState, key: string, choice: PullChoice, table: UniversalTable = UNIVERSAL_TABLE): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "resolved", "pull the blow");
  const toHit = target.toHit;
  if (!toHit || !target.damage) invalid(`${target.name}: there is no hit to pull.`);
  if (PULL_IS_FINAL && toHit.pulled) throw new ExchangeError("stale", `${target.name}: the blow was already pulled.`);
  if (choice.color !== undefined && !isColor(choice.color)) invalid(`Unknown colour "${String(choice.color)}".`);
  let pulled: { color: Color; damage: number };
  try {
    pulled = pullAttack(state.attack, {
      rolled: toHit.color,
      damage: target.damage.rolledRaw,
      ...(choice.color !== undefined ? { chosenColor: choice.color } : {}),
      ...(choice.damage !== undefined ? { chosenDamage: choice.damage } : {}),
    });
  } catch (error) {
    invalid(error instanceof Error ? error.message : String(error));
  }
  const result = attackResult(state.attack, pulled.color);
  const calledShotMissed = calledShotMisses(state, pulled.color, result);
  const counts = !calledShotMissed;
  const damage = damageFor(state, target, result, counts, target.damage.die, table, pulled.damage);
  return replaceTarget(state, {
    ...target,
    toHit: { ...toHit, color: pulled.color, result, calledShotMissed, pulled: true },
    damage,
    consequences: consequencesFor(result, counts, damage?.dealt ?? 0),
  });
}

/** The result of applying damage: the state and the Health to write (the charger's too, on a charge). */
export interface DamageApplication {
  readonly state: ExchangeState;
  readonly health: number;
  /** The charger's Health to write, when a charge's rebound was applied or undone; else null. */
  readonly chargerHealth: number | null;
}

/**
 * Applies the damage to the target's current Health (resolved → applied). Health never goes
 * below 0 or above max; reaching 0 (or taking damage at 0) adds a Kill? check (§8).
 */
export function applyDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  /** The charger's Health: on a charge, the target's armor rebounds onto it (§5). */
  chargerHealth?: { value: number; max: number },
): DamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "resolved", "apply damage");
  if (!isRankNumber(health.value) || !isRankNumber(health.max)) invalid(`${target.name}: Health must be whole numbers ≥ 0, got ${String(health.value)} of ${String(health.max)}.`);
  const reboundDamage = target.damage?.rebound ?? 0;
  let rebound: { before: number; after: number } | null = null;
  if (reboundDamage > 0 && chargerHealth) {
    if (!isRankNumber(chargerHealth.value) || !isRankNumber(chargerHealth.max)) invalid(`The charger's Health must be whole numbers ≥ 0.`);
    rebound = { before: chargerHealth.value, after: applyDamageToHealth(clampHealth(chargerHealth.value, chargerHealth.max), chargerHealth.max, reboundDamage).health };
  }
  const dealt = target.damage?.dealt ?? 0;
  // Health above its maximum (the maximum fell, e.g. with a lost Endurance rank) counts as the
  // maximum: Health never ends above max. Undo still gives back the value that was there.
  const current = clampHealth(health.value, health.max);
  const after = applyDamageToHealth(current, health.max, dealt);
  const consequences = [...target.consequences];
  if (killCheckDue(current, dealt) && !consequences.some((c) => c.check === "kill")) {
    consequences.push({ check: "kill", cause: "health", die: null, color: null, outcome: null });
  }
  const applied: AppliedRecord = { healthBefore: health.value, healthAfter: after.health, max: health.max, reachedZero: after.reachedZero, rebound };
  return { state: replaceTarget(state, { ...target, phase: "applied", applied, consequences }), health: after.health, chargerHealth: rebound ? rebound.after : null };
}

/**
 * Undoes applied damage (applied → resolved): gives back this card's own change to the
 * CURRENT Health, clamped to [0, max], so damage dealt since by others stands. The charger's
 * rebound likewise. Refused once a Slam?/Stun?/Kill? check has been rolled (its effects are
 * already on the target).
 */
export function undoDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  chargerHealth?: { value: number; max: number },
): DamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "applied", "undo the damage");
  if (target.consequences.some((c) => c.outcome !== null)) throw new ExchangeError("stale", `${target.name}: a consequence was already rolled; undo it by hand.`);
  const applied = target.applied;
  if (!applied) invalid(`${target.name}: no damage was applied.`);
  if (!isRankNumber(health.value) || !isRankNumber(health.max)) invalid(`${target.name}: Health must be whole numbers ≥ 0, got ${String(health.value)} of ${String(health.max)}.`);
  const giveBack = (now: { value: number; max: number }, before: number, after: number): number => Math.min(now.max, Math.max(0, now.value + (before - after)));
  let chargerAfter: number | null = null;
  if (applied.rebound && chargerHealth) {
    if (!isRankNumber(chargerHealth.value) || !isRankNumber(chargerHealth.max)) invalid(`The charger's Health must be whole numbers ≥ 0.`);
    chargerAfter = giveBack(chargerHealth, applied.rebound.before, applied.rebound.after);
  }
  const consequences = target.consequences.filter((c) => c.cause === "result");
  return { state: replaceTarget(state, { ...target, phase: "resolved", applied: null, consequences }), health: giveBack(health, applied.healthBefore, applied.healthAfter), chargerHealth: chargerAfter };
}

export interface ConsequenceRoll {
  readonly check: ConsequenceCheck;
  /** The target's End (res) d100. */
  readonly die: number;
  /** A d10: slam direction, or the turns of a long stun. */
  readonly d10?: number | undefined;
  /** Stun: whether the target has already acted this turn. */
  readonly hasActed?: boolean | undefined;
  /** Kill: the target's current Endurance rank number. */
  readonly endurance?: number | undefined;
}

/** The target rolls a due Slam?, Stun? or Kill? check on End (res) (§8). */
export function resolveConsequence(state: ExchangeState, key: string, roll: ConsequenceRoll, table: UniversalTable = UNIVERSAL_TABLE): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "applied", "roll a consequence");
  const index = target.consequences.findIndex((c) => c.check === roll.check);
  if (index < 0) invalid(`${target.name}: no ${roll.check} check is due.`);
  const due = target.consequences[index] as ConsequenceRecord;
  if (due.outcome !== null) throw new ExchangeError("stale", `${target.name}: the ${roll.check} check was already rolled.`);
  assertD100(roll.die);
  if (roll.endurance !== undefined && !isRankNumber(roll.endurance)) invalid(`${target.name}: Endurance must be a rank number, got ${String(roll.endurance)}.`);
  const color = colorOnColumn(rankOf(target.scores["endurance.res"]), roll.die, table);
  let outcome: ConsequenceOutcome;
  const dealt = target.damage?.dealt ?? 0;
  switch (roll.check) {
    case "slam": {
      const result = slamResult(color);
      const moves = result === "grandSlam" || result === "oneArea";
      if (moves && roll.d10 === undefined) invalid("A slam needs a d10 for its direction.");
      const direction = moves && roll.d10 !== undefined ? slamDirection(roll.d10) : null;
      outcome = { check: "slam", result, direction, areas: moves ? slamDistance(result, dealt, (s) => thrownRange(s)) : null };
      break;
    }
    case "stun": {
      const result = stunResult(color);
      if (result === "outLong" && roll.d10 === undefined) invalid("A long stun needs a d10 for its turns.");
      const turns = stunTurns(result, roll.d10);
      outcome = { check: "stun", result, turns, thisTurn: roll.hasActed !== true };
      break;
    }
    case "kill": {
      // A Kill? check from Health reaching 0 reads the same row; its source is this attack.
      const result = killResult(color, state.attack);
      if (result === "enduranceLoss" && roll.endurance === undefined) invalid("A Kill result needs the target's Endurance.");
      const after = result === "enduranceLoss" && roll.endurance !== undefined ? enduranceAfterKillLoss(roll.endurance) : { endurance: roll.endurance ?? target.scores["endurance.res"], dead: false };
      outcome = { check: "kill", result, endurance: after.endurance, dead: after.dead };
      break;
    }
  }
  const consequences = target.consequences.map((c, i) => (i === index ? { ...c, die: roll.die, color, outcome } : c));
  return replaceTarget(state, { ...target, consequences });
}

/** True while the hold this attack put on the target stands (no escape has freed it). */
export function holdStands(target: ExchangeTarget): boolean {
  const result = target.toHit?.result;
  return (result === "partialHold" || result === "fullHold") && !target.escapes.some((e) => e.result !== "fail");
}

/** [RULING] Escape attempts against one hold: one per combat turn [001 gives one action a turn]; at most this many in all. */
export const MAX_ESCAPE_ATTEMPTS = 20;

/**
 * Whether the held target may try to Escape now: the hold stands, it has not tried in this
 * combat turn (`turn`, null outside a combat), and the attempts are not used up.
 */
export function mayEscape(target: ExchangeTarget, turn: number | null): boolean {
  if (target.phase !== "resolved" && target.phase !== "applied") return false;
  if (!holdStands(target) || target.escapes.length >= MAX_ESCAPE_ATTEMPTS) return false;
  return turn === null || !target.escapes.some((e) => e.turn === turn);
}

/**
 * The held target tries to Escape (§6, Str (mgt)): white/green fail, yellow escapes (no other
 * action this turn), red reverses the hold. `cs` are shifts on the roll (e.g. the hold's own
 * −2 CS on all the held character's actions). One attempt per turn ({@link mayEscape}).
 */
export function escapeHold(state: ExchangeState, key: string, die: number, cs: readonly CsReason[] = [], table: UniversalTable = UNIVERSAL_TABLE, turn: number | null = null): ExchangeState {
  const target = targetOf(state, key);
  if (target.phase !== "resolved" && target.phase !== "applied") throw new ExchangeError("stale", `${target.name}: there is no hold to escape yet.`);
  if (!holdStands(target)) throw new ExchangeError("stale", `${target.name} is not held by this attack.`);
  if (!mayEscape(target, turn)) throw new ExchangeError("stale", `${target.name} already tried to escape this turn.`);
  if (turn !== null && (!Number.isInteger(turn) || turn < 0)) invalid(`A turn must be a whole number ≥ 0, got ${String(turn)}.`);
  assertD100(die);
  checkCs(cs, "escape");
  const column = shiftColumn(target.scores["strength.mgt"], sumCs(cs));
  const color = colorOnColumn(column.rank, die, table);
  return replaceTarget(state, { ...target, escapes: [...target.escapes, { die, color, result: escapeResult(color), turn }] });
}

/** What may happen next to one target row: the card's buttons and the GM's checks both read this. */
export interface TargetActions {
  /** The defences on offer (empty unless the row waits on its defence). */
  readonly defend: readonly DefenceCode[];
  readonly rollToHit: boolean;
  readonly pull: boolean;
  readonly apply: boolean;
  readonly undo: boolean;
  /** Due Slam?/Stun?/Kill? checks not yet rolled (only once damage is applied). */
  readonly checks: readonly ConsequenceCheck[];
  readonly escape: boolean;
}

/** What may happen next to the target row `key` (see {@link TargetActions}); `turn` as for {@link mayEscape}. */
export function targetActions(state: ExchangeState, key: string, turn: number | null = null): TargetActions {
  const t = targetOf(state, key);
  const pullable = t.phase === "resolved" && t.toHit !== null && t.damage !== null && !(PULL_IS_FINAL && t.toHit.pulled) && (mayPullColor(state.attack) || mayPullDamage(state.attack));
  return {
    defend: t.phase === "awaitingDefence" ? defenceOptions(state, key) : [],
    rollToHit: t.phase === "awaitingToHit",
    pull: pullable,
    apply: t.phase === "resolved" && t.damage !== null && (t.damage.dealt > 0 || t.damage.rebound > 0),
    undo: t.phase === "applied" && t.consequences.every((c) => c.outcome === null),
    checks: t.phase === "applied" ? t.consequences.filter((c) => c.outcome === null).map((c) => c.check) : [],
    escape: mayEscape(t, turn),
  };
}

/** True when nothing more can happen to any target. */
export function exchangeComplete(state: ExchangeState): boolean {
  return state.targets.every(
    (t) =>
      (t.phase === "resolved" && (t.damage === null || t.damage.dealt === 0) && t.consequences.length === 0) ||
      (t.phase === "applied" && t.consequences.every((c) => c.outcome !== null)),
  );
}

/** The attack's definition row, for display. */
export function exchangeAttackRow(state: ExchangeState) {
  return ATTACKS[state.attack];
}
