/**
 * After the hit (CASE-RULES §8, §6): the Slam?/Stun?/Kill? checks a result calls for, and the
 * escapes from a hold that stands.
 */
import { applyKarma } from "../actions";
import { thrownRange } from "../abilities";
import { type ConsequenceCheck, enduranceAfterKillLoss, killResult, slamDirection, slamDistance, slamResult, stunResult, stunTurns } from "../consequences";
import { escapeResult } from "../defences";
import { copyRow, replaceTarget } from "./copy";
import { isRankNumber, rankOf, shiftColumn } from "../ranks";
import { UNIVERSAL_TABLE, type UniversalTable, assertD100, colorOnColumn } from "../universal-table";
import { ExchangeError, checkCs, expectPhase, invalid, sumCs, targetOf, type ConsequenceOutcome, type ConsequenceRecord, type CsReason, type ExchangeState, type ExchangeTarget } from "./state";

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
  expectPhase(target, "applied");
  const index = target.consequences.findIndex((c) => c.check === roll.check);
  if (index < 0) invalid("exchangeCheckNotDue", { name: target.name, check: roll.check });
  const due = target.consequences[index] as ConsequenceRecord;
  if (due.outcome !== null) throw new ExchangeError("stale", "exchangeCheckRolled", { name: target.name, check: roll.check });
  assertD100(roll.die);
  if (roll.endurance !== undefined && !isRankNumber(roll.endurance)) invalid("exchangeEnduranceNotRank", { name: target.name, got: String(roll.endurance) });
  const karma = roll.karma ?? 0;
  const color = colorOnColumn(rankOf(target.scores["endurance.res"]), karma > 0 ? applyKarma(roll.die, karma) : roll.die, table);
  let outcome: ConsequenceOutcome;
  const dealt = target.damage?.dealt ?? 0;
  switch (roll.check) {
    case "slam": {
      const result = slamResult(color);
      const moves = result === "grandSlam" || result === "oneArea";
      if (moves && roll.d10 === undefined) invalid("exchangeSlamD10");
      const direction = moves && roll.d10 !== undefined ? slamDirection(roll.d10) : null;
      outcome = { check: "slam", result, direction, areas: moves ? slamDistance(result, dealt, (s) => thrownRange(s)) : null };
      break;
    }
    case "stun": {
      const result = stunResult(color);
      if (result === "outLong" && roll.d10 === undefined) invalid("exchangeStunD10");
      const turns = stunTurns(result, roll.d10);
      outcome = { check: "stun", result, turns, thisTurn: roll.hasActed !== true };
      break;
    }
    case "kill": {
      // A Kill? check from Health reaching 0 reads the same row; its source is this attack.
      const result = killResult(color, state.attack);
      if (result === "enduranceLoss" && roll.endurance === undefined) invalid("exchangeKillEndurance");
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
  if (target.phase !== "resolved" && target.phase !== "applied") throw new ExchangeError("stale", "exchangeNoHold", { name: target.name });
  if (!holdStands(target)) throw new ExchangeError("stale", "exchangeNotHeld", { name: target.name });
  if (!mayEscape(target, turn)) throw new ExchangeError("stale", "exchangeEscapeTried", { name: target.name });
  if (turn !== null && (!Number.isInteger(turn) || turn < 0)) invalid("notNonNegativeWhole", { field: "exchangeTurn", got: String(turn) });
  assertD100(die);
  checkCs(cs, "escape.cs");
  const column = shiftColumn(target.scores["strength.mgt"], sumCs(cs));
  const color = colorOnColumn(column.rank, die, table);
  const row = copyRow(target);
  row.escapes = [...target.escapes, { die, color, result: escapeResult(color), turn }];
  return replaceTarget(state, row);
}

/** What may happen next to one target row: the card's buttons and the GM's checks both read this. */
