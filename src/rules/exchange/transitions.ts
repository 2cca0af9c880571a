import { thrownRange } from "../abilities";
import { applyKarma } from "../actions";
import { ATTACKS, type AttackCode, type AttackResult, attackResult, calledShotSucceedsOnColor, chargeReboundDamage, damageThroughObstacles, fullHoldDealsDamage, strengthAction, type StrengthContestRoll, isHit, mayPullColor, mayPullDamage, pullAttack } from "../attacks";
import { type ConsequenceCheck, consequenceCheck, enduranceAfterKillLoss, killCheckDue, killResult, slamDirection, slamDistance, slamResult, stunResult, stunTurns } from "../consequences";
import { applyDamageToHealth, armorProtectionAgainst, clampHealth, damageAfterProtection, damageFromRoll, damageRollColor } from "../damage";
import { type DefenceCode, attackColorAfterAutoHit, catchRollShift, combineProtection, escapeResult } from "../defences";
import { copyRow, replaceTarget } from "./copy";
import { resistancePending, resistedPowerOf } from "./resist";
import type { SlamMove } from "../board";
import { areaRowDamage } from "../areas";
import { minorFoeAfterDamage, type MinorFoeRule } from "../minor-foes";
import { isRankNumber, rankOf, shiftColumn, shiftRank } from "../ranks";
import { COLORS, type Color, UNIVERSAL_TABLE, type UniversalTable, assertD100, colorOnColumn, isColor } from "../universal-table";
import { DEFENCE_SCORE, ExchangeError, NO_DEFENCE, checkCs, defenceOptions, defenceOptionsFor, defenceOutcome, expectPhase, invalid, sumCs, targetOf, type AppliedRecord, type ConsequenceOutcome, type ConsequenceRecord, type CsReason, type DamageRecord, type ExchangeState, type OtherDamage, type ExchangeTarget, type TargetDefence, type ToHitRecord } from "./state";

// ── transitions ───────────────────────────────────────────────────────────────────────────────
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
  expectPhase(target, "awaitingDefence", "defend");
  if (!defenceOptionsFor(state, target).includes(roll.defence)) invalid(`${target.name} cannot use ${roll.defence} against this attack.`);
  assertD100(roll.die);
  checkCs(roll.cs, "defence");
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
  expectPhase(target, "awaitingDefence", "dodge");
  if (!defenceOptionsFor(state, target).includes("dodge")) invalid(`A ${state.attack} attack cannot be dodged.`);
  if (!Number.isInteger(cs) || cs > 0) invalid(`A declared dodge's shift must be 0 or negative, got ${String(cs)}.`);
  const row = copyRow(target);
  row.defence = { code: "dodge", die: null, cs: [], column: null, color: null, outcome: { ...NO_DEFENCE, attackCs: cs } };
  row.phase = "awaitingToHit";
  return replaceTarget(state, row);
}

/** The defender takes the attack without a defence. */
export function declineDefence(state: ExchangeState, key: string): ExchangeState {
  const target = targetOf(state, key);
  expectPhase(target, "awaitingDefence", "decline a defence");
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
  if (strengthDie === undefined) invalid("A Take or Full Hold read as a Strength ACTION needs its roll.");
  assertD100(strengthDie);
  return strengthAction(state.attacker.strength, target.scores["strength.mgt"], strengthDie, table);
}

/** Damage of a result with this colour, after protection. */
function damageFor(state: ExchangeState, target: ExchangeTarget, result: AttackResult, counts: boolean, damageDie: number | null, table: UniversalTable, rawOverride?: number, contest: StrengthContestRoll | null = null): DamageRecord | null {
  let raw: number;
  let die: number | null = null;
  let dieColor: Color | null = null;
  if (isHit(result) && counts) {
    // An area attack's row: an explosion's damage falls off with the row's distance (rules/areas.ts).
    const base = state.damageCs && state.damageCs.length > 0 ? shiftRank(rankOf(state.damage.value), sumCs(state.damageCs)).number : state.damage.value;
    const value = state.area ? areaRowDamage(state.area, base, target.areaDistance ?? 0) : base;
    if (state.damage.method === "intensity") {
      if (damageDie === null) invalid("Intensity damage needs a damage roll.");
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
  const damage = damageFor(state, target, result, counts, target.damage.die, table, pulled.damage, toHit.contest ?? null);
  const row = copyRow(target);
  row.toHit = { ...toHit, color: pulled.color, result, calledShotMissed, pulled: true };
  row.damage = damage;
  row.consequences = consequencesFor(result, counts, damage?.dealt ?? 0);
  return replaceTarget(state, row);
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
 * below 0 or above max; reaching 0 (or taking damage at 0) adds a Kill? check (§8). A minor
 * foe (`minorFoe`: the world's rule, null for anyone else) may instead be taken out of the
 * fight, with no check to roll (rules/minor-foes.ts `minorFoeAfterDamage`).
 */
export function applyDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  /** The charger's Health: on a charge, the target's armor rebounds onto it (§5). */
  chargerHealth?: { value: number; max: number },
  minorFoe: MinorFoeRule | null = null,
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
  let consequences = [...target.consequences];
  if (killCheckDue(current, dealt) && !consequences.some((c) => c.check === "kill")) {
    consequences.push({ check: "kill", cause: "health", die: null, color: null, outcome: null });
  }
  let out = false;
  if (minorFoe !== null && minorFoe !== "normal") {
    // The minor-foe rule replaces the checks: out of the fight, or nothing more.
    out = minorFoeAfterDamage(target.toHit?.result ?? "hit", dealt, after.health, minorFoe).out;
    consequences = [];
  }
  const record: AppliedRecord = { healthBefore: health.value, healthAfter: after.health, max: health.max, reachedZero: after.reachedZero, rebound };
  // Only a minor foe taken out is spread in: a spread after other fields is V8's slow copy.
  const applied = out ? { ...record, out } : record;
  const row = copyRow(target);
  row.phase = "applied";
  row.applied = applied;
  row.consequences = consequences;
  return { state: replaceTarget(state, row), health: after.health, chargerHealth: rebound ? rebound.after : null };
}

/**
 * [RULING] Undo takes back a row's whole hit from its Apply on, after its Slam?/Stun?/Kill?
 * checks too: Health, the charger's rebound, a minor foe's "out", and every rolled check's
 * effects (Stunned with its turns, Slammed and the token's move, Dying, the Endurance rank and
 * death). Damage put on other tokens instead is not undone from the card (applyDamageToOthers).
 */
export const UNDO_TAKES_BACK_CHECKS: boolean = true;

/**
 * [RULING] Undo voids the row: besides what {@link UNDO_TAKES_BACK_CHECKS} takes back, the hold
 * its to-hit put on the target goes and the defence the row counted is given back (rules
 * turn/conditions.ts `forgetDefence`). The row ends "undone", a terminal phase: nothing more
 * may happen on it (no Apply, no checks, no Escape). To hit again, attack again.
 */
export const UNDO_VOIDS_THE_ROW: boolean = true;

/** Whether a row may be undone now ({@link UNDO_TAKES_BACK_CHECKS}): its damage was applied to it, not to others. */
export function mayUndo(target: ExchangeTarget): boolean {
  return target.phase === "applied" && target.applied !== null && !target.applied.others && (UNDO_TAKES_BACK_CHECKS || target.consequences.every((c) => c.outcome === null));
}

/** What undoing a row takes back besides Health: each rolled check's lasting effects, a minor foe's "out", the hold and the defence. */
export interface UndoPlan {
  readonly out: boolean;
  /** A stun that landed (turns > 0 or until revived), to take off the target and its turn. */
  readonly stun: boolean;
  /** A slam that threw the target (Slammed), and the move of its token, if it moved. */
  readonly slam: { readonly moved: SlamMove | null } | null;
  /** A Kill? that cost an Endurance rank (Dying), and whether it killed. */
  readonly kill: { readonly dead: boolean } | null;
  /** The hold the row's to-hit put on the target (and no escape freed), to clear ({@link UNDO_VOIDS_THE_ROW}). */
  readonly hold: "partialHold" | "fullHold" | null;
  /** The defence the row rolled, whose count in the turn is given back ({@link UNDO_VOIDS_THE_ROW}); null for none. */
  readonly defence: DefenceCode | null;
}

/** What undoing row `key` must take back ({@link UndoPlan}); "stale" when it may not be undone. */
export function undoPlan(state: ExchangeState, key: string): UndoPlan {
  const target = targetOf(state, key);
  if (!mayUndo(target)) throw new ExchangeError("stale", `${target.name}: there is no damage to undo.`);
  let stun = false;
  let slam: UndoPlan["slam"] = null;
  let kill: UndoPlan["kill"] = null;
  for (const c of target.consequences) {
    const o = c.outcome;
    if (o?.check === "stun" && o.result !== "none") stun = true;
    if (o?.check === "slam" && (o.result === "grandSlam" || o.result === "oneArea")) slam = { moved: c.moved ?? null };
    if (o?.check === "kill" && o.result === "enduranceLoss") kill = { dead: o.dead };
  }
  const result = target.toHit?.result;
  const hold = UNDO_VOIDS_THE_ROW && holdStands(target) && (result === "partialHold" || result === "fullHold") ? result : null;
  const code = target.defence?.code;
  const defence = UNDO_VOIDS_THE_ROW && code !== undefined && code !== "none" ? code : null;
  return { out: target.applied?.out === true, stun, slam, kill, hold, defence };
}

/**
 * Undoes applied damage (applied → undone, {@link UNDO_VOIDS_THE_ROW}): gives back this card's
 * own change to the CURRENT Health, clamped to [0, max], so damage dealt since by others
 * stands. The charger's rebound likewise. After rolled checks too ({@link UNDO_TAKES_BACK_CHECKS}):
 * {@link undoPlan} says what of theirs (and the hold and the defence) to take back. The row
 * keeps its defence, to-hit and damage as a record; its checks go.
 */
export function undoDamage(
  state: ExchangeState,
  key: string,
  health: { value: number; max: number },
  chargerHealth?: { value: number; max: number },
): DamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "applied", "undo the damage");
  if (!mayUndo(target)) throw new ExchangeError("stale", `${target.name}: a consequence was already rolled; undo it by hand.`);
  const applied = target.applied;
  if (!applied) invalid(`${target.name}: no damage was applied.`);
  if (!isRankNumber(health.value) || !isRankNumber(health.max)) invalid(`${target.name}: Health must be whole numbers ≥ 0, got ${String(health.value)} of ${String(health.max)}.`);
  const giveBack = (now: { value: number; max: number }, before: number, after: number): number => Math.min(now.max, Math.max(0, now.value + (before - after)));
  let chargerAfter: number | null = null;
  if (applied.rebound && chargerHealth) {
    if (!isRankNumber(chargerHealth.value) || !isRankNumber(chargerHealth.max)) invalid(`The charger's Health must be whole numbers ≥ 0.`);
    chargerAfter = giveBack(chargerHealth, applied.rebound.before, applied.rebound.after);
  }
  const row = copyRow(target);
  row.phase = "undone";
  row.applied = null;
  row.consequences = [];
  return { state: replaceTarget(state, row), health: giveBack(health, applied.healthBefore, applied.healthAfter), chargerHealth: chargerAfter };
}

/** The result of applying a row's damage to other characters: the state and each one's Health to write. */
export interface OthersDamageApplication {
  readonly state: ExchangeState;
  readonly health: readonly { readonly uuid: string; readonly health: number }[];
}

/**
 * Applies a row's damage to other characters instead of its target (resolved → applied): the
 * GM's "Apply to selected tokens", when the blow landed on someone else (a miss that struck a
 * bystander, the wrong token targeted). Each takes the damage that got through, as the target
 * would have, Health never below 0. [RULING] The row's Slam?/Stun?/Kill? checks are not offered
 * (they belonged to the target; the GM rolls for the others by hand), a charge's rebound is
 * not redirected (refused), and such a row cannot be undone from the card.
 */
export function applyDamageToOthers(state: ExchangeState, key: string, others: readonly { readonly uuid: string; readonly name: string; readonly value: number; readonly max: number }[]): OthersDamageApplication {
  const target = targetOf(state, key);
  expectPhase(target, "resolved", "apply damage");
  const dealt = target.damage?.dealt ?? 0;
  if (dealt <= 0) throw new ExchangeError("stale", `${target.name}: no damage got through to apply.`);
  if ((target.damage?.rebound ?? 0) > 0) invalid(`${target.name}: a charge's damage cannot be applied to other tokens.`);
  const given: unknown = others;
  if (!Array.isArray(given) || others.length === 0) invalid("Select at least one token to apply the damage to.");
  if (new Set(others.map((o) => o.uuid)).size !== others.length) invalid("Each token may take the damage once.");
  const list: OtherDamage[] = others.map((o) => {
    if (!isRankNumber(o.value) || !isRankNumber(o.max)) invalid(`${o.name}: Health must be whole numbers ≥ 0, got ${String(o.value)} of ${String(o.max)}.`);
    const after = applyDamageToHealth(clampHealth(o.value, o.max), o.max, dealt).health;
    return { uuid: o.uuid, name: o.name, before: o.value, after, max: o.max };
  });
  const applied: AppliedRecord = { healthBefore: 0, healthAfter: 0, max: 0, reachedZero: false, rebound: null, others: list };
  const row = copyRow(target);
  row.phase = "applied";
  row.applied = applied;
  row.consequences = [];
  return { state: replaceTarget(state, row), health: list.map((o) => ({ uuid: o.uuid, health: o.after })) };
}

/** Records where a rolled slam moved the row's token (once: a second record is stale). */
export function recordSlamMove(state: ExchangeState, key: string, moved: SlamMove): ExchangeState {
  const target = targetOf(state, key);
  const slam = target.consequences.find((c) => c.check === "slam");
  if (!slam?.outcome) invalid(`${target.name}: no slam was rolled.`);
  if (slam.moved) throw new ExchangeError("stale", `${target.name}: the slam already moved the token.`);
  const row = copyRow(target);
  row.consequences = target.consequences.map((c) => (c === slam ? { ...c, moved } : c));
  return replaceTarget(state, row);
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
  /** Karma the target added (power-rulings.ts `KARMA_ON_CHECKS`): the colour is read on the die plus it. */
  readonly karma?: number;
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
  const karma = roll.karma ?? 0;
  const color = colorOnColumn(rankOf(target.scores["endurance.res"]), karma > 0 ? applyKarma(roll.die, karma) : roll.die, table);
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
  const row = copyRow(target);
  row.consequences = target.consequences.map((c, i) => (i === index ? { ...c, die: roll.die, color, outcome, ...(karma > 0 ? { karma } : {}) } : c));
  return replaceTarget(state, row);
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
  const row = copyRow(target);
  row.escapes = [...target.escapes, { die, color, result: escapeResult(color), turn }];
  return replaceTarget(state, row);
}

/** What may happen next to one target row: the card's buttons and the GM's checks both read this. */
export interface TargetActions {
  /** The defences on offer (empty unless the row waits on its defence, and for a helpless target: No defence only). */
  readonly defend: readonly DefenceCode[];
  /** The row waits on its defence: No defence may be chosen (and the defences in `defend`). */
  readonly awaitingDefence: boolean;
  readonly rollToHit: boolean;
  readonly pull: boolean;
  readonly apply: boolean;
  readonly undo: boolean;
  /** Due Slam?/Stun?/Kill? checks not yet rolled (only once damage is applied). */
  readonly checks: readonly ConsequenceCheck[];
  readonly escape: boolean;
}

/**
 * What may happen next to the target row `key` (see {@link TargetActions}); `turn` as for
 * {@link mayEscape}. A target who cannot defend now (`target.mayDefend` false: helpless, rules
 * turn/able.ts) is offered No defence only and makes no Escape.
 */
export function targetActions(state: ExchangeState, key: string, turn: number | null = null, target: { readonly mayDefend: boolean } = { mayDefend: true }): TargetActions {
  const t = targetOf(state, key);
  // A pull lowers the blow: with no damage getting through there is nothing to pull.
  const pullable = t.phase === "resolved" && t.toHit !== null && t.damage !== null && t.damage.dealt > 0 && !(PULL_IS_FINAL && t.toHit.pulled) && (mayPullColor(state.attack) || mayPullDamage(state.attack));
  return {
    // A resisted power is resisted, not defended (resist.ts).
    defend: t.phase === "awaitingDefence" && target.mayDefend && resistedPowerOf(state) === null ? defenceOptions(state, key) : [],
    awaitingDefence: t.phase === "awaitingDefence",
    rollToHit: t.phase === "awaitingToHit",
    pull: pullable,
    apply: t.phase === "resolved" && t.damage !== null && (t.damage.dealt > 0 || t.damage.rebound > 0),
    undo: mayUndo(t),
    checks: t.phase === "applied" ? t.consequences.filter((c) => c.outcome === null).map((c) => c.check) : [],
    escape: target.mayDefend && mayEscape(t, turn),
  };
}

/** True when nothing more can happen to any target. */
export function exchangeComplete(state: ExchangeState): boolean {
  return state.targets.every(
    (t) =>
      t.phase === "undone" ||
      (t.phase === "resolved" && (t.damage === null || t.damage.dealt === 0) && t.consequences.length === 0 && !resistancePending(t)) ||
      (t.phase === "applied" && t.consequences.every((c) => c.outcome !== null)),
  );
}

/** The attack's definition row, for display. */
export function exchangeAttackRow(state: ExchangeState) {
  return ATTACKS[state.attack];
}
