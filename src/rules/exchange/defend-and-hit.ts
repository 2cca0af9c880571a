/**
 * The attack exchange's first steps for a target row (CASE-RULES §5–§6): the defence the defender
 * rolls (or declines, or a declared dodge's shift), then the to-hit on the shifted column with its
 * damage, and a pulled blow. Each takes a state and returns the next; transitions never mutate.
 */
import { applyKarma } from "../actions";
import { type AttackCode, type AttackResult, attackResult, calledShotSucceedsOnColor, chargeReboundDamage, damageThroughObstacles, fullHoldDealsDamage, strengthAction, type StrengthContestRoll, isHit, pullAttack } from "../attacks";
import { consequenceCheck } from "../consequences";
import { armorProtectionAgainst, damageAfterProtection, damageFromRoll, damageRollColor } from "../damage";
import { type DefenceCode, attackColorAfterAutoHit, catchRollShift, combineProtection } from "../defences";
import { copyRow, replaceTarget } from "./copy";
import { areaRowDamage } from "../areas";
import { rankOf, shiftColumn, shiftRank } from "../ranks";
import { COLORS, type Color, UNIVERSAL_TABLE, type UniversalTable, assertD100, colorOnColumn, isColor } from "../universal-table";
import { DEFENCE_SCORE, ExchangeError, NO_DEFENCE, checkCs, defenceOptionsFor, defenceOutcome, expectPhase, invalid, invalidFrom, sumCs, targetOf, type ConsequenceRecord, type CsReason, type DamageRecord, type ExchangeState, type ExchangeTarget, type TargetDefence, type ToHitRecord } from "./state";

export interface DefenceRoll {
  readonly defence: DefenceCode;
  /** The defender's d100. */
  readonly die: number;
  /** Shifts on the defence roll other than Catch's own −3 CS (extra-defence penalty, talents, holds …). */
  readonly cs: readonly CsReason[];
  /** Karma the defender added (power-rulings.ts `KARMA_ON_DEFENCE`): the colour is read on the die plus it, capped at 100. */
  readonly karma?: number;
}

/** The defender rolled a defence. From awaitingDefence to awaitingToHit (or resolved when it avoided the attack). */
export function chooseDefence(state: ExchangeState, key: string, roll: DefenceRoll, table: UniversalTable = UNIVERSAL_TABLE): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence");
  if (!defenceOptionsFor(state, target).includes(roll.defence)) invalid("exchangeDefenceNotOffered", { name: target.name, defence: roll.defence });
  assertD100(roll.die);
  checkCs(roll.cs, "defence.cs");
  const cs: CsReason[] = [...roll.cs];
  if (roll.defence === "catch") cs.push({ cs: catchRollShift(true), label: "CASE.Exchange.CatchAimed", localize: true });
  const column = shiftColumn(target.scores[DEFENCE_SCORE[roll.defence]], sumCs(cs));
  // A defence pushed below Shift 0 still reads Shift 0's column: it is the worst column there is.
  const karma = roll.karma ?? 0;
  const color = colorOnColumn(column.rank, karma > 0 ? applyKarma(roll.die, karma) : roll.die, table);
  const outcome = defenceOutcome(roll.defence, color, target);
  const defence: TargetDefence = karma > 0 ? { code: roll.defence, die: roll.die, karma, cs, column: column.rank.key, color, outcome } : { code: roll.defence, die: roll.die, cs, column: column.rank.key, color, outcome };
  if (outcome.avoided) {
    const row = copyRow(target);
    row.defence = defence;
    row.phase = "resolved";
    row.toHit = null;
    row.damage = null;
    return replaceTarget(state, row);
  }
  const row = copyRow(target);
  row.defence = defence;
  row.phase = "awaitingToHit";
  return replaceTarget(state, row);
}

/**
 * The optional declared dodge ([000], CASE-RULES §6): a dodge declared as the turn's action and
 * rolled once after initiative shifts every dodgeable attack on the dodger that turn. It takes
 * the place of a defence roll here (no die; `cs` is the shift rolled then, 0/−2/−4/−6).
 */
export function applyDeclaredDodge(state: ExchangeState, key: string, cs: number): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence");
  if (!defenceOptionsFor(state, target).includes("dodge")) invalid("exchangeNoDodge", { attack: state.attack });
  if (!Number.isInteger(cs) || cs > 0) invalid("exchangeDodgeShift", { got: String(cs) });
  const row = copyRow(target);
  row.defence = { code: "dodge", die: null, cs: [], column: null, color: null, outcome: { ...NO_DEFENCE, attackCs: cs } };
  row.phase = "awaitingToHit";
  return replaceTarget(state, row);
}

/** The defender takes the attack without a defence. */
export function declineDefence(state: ExchangeState, key: string): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence");
  const row = copyRow(target);
  row.defence = { code: "none", die: null, cs: [], column: null, color: null, outcome: NO_DEFENCE };
  row.phase = "awaitingToHit";
  return replaceTarget(state, row);
}

export interface ToHitRoll {
  /** The attacker's d100. */
  readonly die: number;
  /** The intensity damage roll (d100 on the damage rank's column); required for the intensity method on a hit. */
  readonly damageDie?: number | undefined;
  /** The Strength ACTION's d100 of a Take or Full Hold read as an ACTION (errata §5); required then. */
  readonly strengthDie?: number | undefined;
}

/** True when this attack's Take or Full Hold is decided by a Strength ACTION, so its to-hit needs a strength die. */
export function needsStrengthDie(state: ExchangeState): boolean {
  return state.strengthContest === "action" && (state.attack === "Gb" || state.attack === "Gp");
}

/** The Strength ACTION a Take or Full Hold result calls for (errata §5 "action"), or null. */
function strengthContestFor(state: ExchangeState, target: ExchangeTarget, result: AttackResult, strengthDie: number | undefined, table: UniversalTable): StrengthContestRoll | null {
  if ((result !== "take" && result !== "fullHold") || state.strengthContest !== "action") return null;
  if (strengthDie === undefined) invalid("exchangeHoldNeedsRoll");
  assertD100(strengthDie);
  return strengthAction(state.attacker.strength, target.scores["strength.mgt"], strengthDie, table);
}

/** The damage value a hit on this row rolls or deals before protection: the attack's, shifted by a flurry, fallen off with an area row's distance (rules/areas.ts). */
export function rowDamageValue(state: ExchangeState, target: ExchangeTarget): number {
  const base = state.damageCs && state.damageCs.length > 0 ? shiftRank(rankOf(state.damage.value), sumCs(state.damageCs)).number : state.damage.value;
  return state.area ? areaRowDamage(state.area, base, target.areaDistance ?? 0) : base;
}

/** Damage of a result with this colour, after protection. */
function damageFor(state: ExchangeState, target: ExchangeTarget, result: AttackResult, counts: boolean, damageDie: number | null, table: UniversalTable, rawOverride?: number, contest: StrengthContestRoll | null = null): DamageRecord | null {
  let raw: number;
  let die: number | null = null;
  let dieColor: Color | null = null;
  if (isHit(result) && counts) {
    const value = rowDamageValue(state, target);
    if (state.damage.method === "intensity") {
      if (damageDie === null) invalid("exchangeIntensityDie");
      assertD100(damageDie);
      die = damageDie;
      dieColor = damageRollColor(value, damageDie, table);
      raw = damageFromRoll("intensity", value, dieColor);
    } else raw = damageFromRoll("static", value);
  } else if (result === "fullHold" && (contest ? contest.success : fullHoldDealsDamage(state.attacker.strength, target.scores["strength.mgt"]))) {
    raw = state.attacker.strength;
  } else return null;
  const rolledRaw = raw;
  if (rawOverride !== undefined) raw = rawOverride;
  // [001] "the material strength of whatever it attempts to pass through is directly subtracted
  // from its damage": the objects are met first, then the target's protection. (Both take off
  // points and stop at 0, so the order never changes what gets through: see OBSTACLES_BEFORE_PROTECTION.)
  const reaching = state.obstacles && state.obstacles.length > 0 ? damageThroughObstacles(raw, state.obstacles) : raw;
  const armor = result === "fullHold" ? target.armor.body : armorProtectionAgainst(state.attack, { body: target.armor.body, energy: target.armor.energy });
  const fromDefence = target.defence?.outcome.protection ?? 0;
  const protection = fromDefence > 0 ? combineProtection(armor, fromDefence) : armor;
  const dealt = damageAfterProtection(reaching, protection);
  const rebound = state.attack === "Ch" ? chargeReboundDamage(target.armor.body, state.attacker.armor) : 0;
  return { raw, rolledRaw, die, dieColor, armor, defenceProtection: fromDefence, protection, dealt, rebound, obstacles: raw - reaching };
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
  expectPhase(target, "awaitingToHit");
  assertD100(roll.die);
  const outcome = target.defence?.outcome ?? NO_DEFENCE;
  const cs: CsReason[] = target.toHitCs ? [...state.toHitCs, ...target.toHitCs] : [...state.toHitCs];
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
  const contest = strengthContestFor(state, target, result, roll.strengthDie, table);
  const damage = damageFor(state, target, result, !calledShotMissed, roll.damageDie ?? null, table, undefined, contest);
  const record: ToHitRecord = { die: roll.die, total, cs, column: column.rank.key, belowShift0: column.belowShift0, rolledColor, color, result, calledShotMissed, pulled: false };
  // Only a Strength contest's roll is spread in: a spread after other fields is V8's slow copy.
  const toHit = contest ? { ...record, contest } : record;
  const row = copyRow(target);
  row.phase = "resolved";
  row.toHit = toHit;
  row.damage = damage;
  row.consequences = consequencesFor(result, !calledShotMissed, damage?.dealt ?? 0);
  return replaceTarget(state, row);
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
  expectPhase(target, "resolved");
  const toHit = target.toHit;
  if (!toHit || !target.damage) invalid("exchangeNoHitToPull", { name: target.name });
  if (PULL_IS_FINAL && toHit.pulled) throw new ExchangeError("stale", "exchangePulled", { name: target.name });
  if (choice.color !== undefined && !isColor(choice.color)) invalid("exchangeUnknown", { at: "color", got: String(choice.color) });
  let pulled: { color: Color; damage: number };
  try {
    pulled = pullAttack(state.attack, {
      rolled: toHit.color,
      damage: target.damage.rolledRaw,
      ...(choice.color !== undefined ? { chosenColor: choice.color } : {}),
      ...(choice.damage !== undefined ? { chosenDamage: choice.damage } : {}),
    });
  } catch (error) {
    invalidFrom(error, "exchangePullRefused", { name: target.name });
  }
  const result = attackResult(state.attack, pulled.color);
  const calledShotMissed = calledShotMisses(state, pulled.color, result);
  const counts = !calledShotMissed;
  const damage = damageFor(state, target, result, counts, target.damage.die, table, pulled.damage, toHit.contest ?? null);
  const row = copyRow(target);
  row.toHit = { ...toHit, color: pulled.color, result, calledShotMissed, pulled: true };
  row.damage = damage;
  row.consequences = consequencesFor(result, counts, damage?.dealt ?? 0);
  return replaceTarget(state, row);
}

/** The result of applying damage: the state and the Health to write (the charger's too, on a charge). */
