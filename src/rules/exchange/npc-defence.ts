/**
 * NPCs defending themselves (issue 21, item 4): which defence the Judge's client picks for an
 * NPC row of an attack card when the world's NPC-defence setting is on, and the Judge changing
 * that pick before damage is applied.
 *
 * The pick reads the declared defence from the NPC's declaration for the turn [001 Step 1],
 * the defences valid against the attack from the rules' defence list (§6, `targetActions`),
 * and the odds of each from the Universal Table on the column the defence would be rolled on
 * (its score after the shifts the GM applies, and Catch's own −3 CS).
 */
import { DEFENCES, catchRollShift, type DefenceCode } from "../defences";
import { isHoldResult } from "../attacks";
import { UNIVERSAL_TABLE, colorOdds, type UniversalTable } from "../universal-table";
import type { Declaration } from "../turn/declaration";
import { RulesRangeError } from "../errors";
import { DEFENCE_SCORE, ExchangeError, targetOf, type CsReason, type DefenceChoice, type ExchangeState, type ExchangeTarget, type TargetDefence } from "./state";
import { resistedPowerOf } from "./resist";
import { targetActions } from "./target-actions";
import { replaceTarget } from "./copy";

/** The world setting's choices: the Judge clicks (as before), the declared defence, or the valid defence with the best odds. */
export const NPC_DEFENCE_MODES = ["gm", "declared", "bestOdds"] as const;
export type NpcDefenceMode = (typeof NPC_DEFENCE_MODES)[number];

/**
 * [RULING] The NPC-defence setting's default: the declared defence. The Judge's time is the
 * table's bottleneck (with 8 NPCs, clicking each defence is the Judge's whole turn), and a
 * declared defence is what the Judge already decided for the NPC in the Declare phase
 * ([001 Step 1]: actions are declared before they are resolved); where none was declared, or it
 * is not valid against this attack, the valid defence with the best odds.
 */
export const DEFAULT_NPC_DEFENCE_MODE: NpcDefenceMode = "declared";

/**
 * [RULING] A defence picked for its odds never takes the NPC's action (Evasion, Feint and Catch
 * spend it [001]): giving up a declared action is the Judge's call, made by declaring that
 * defence or by changing the pick. A declared Evasion, Feint or Catch is used as declared.
 */
export const BEST_ODDS_KEEPS_ACTION = true as boolean;

/**
 * [RULING] The Judge's change of a picked defence replaces it: the row goes back to waiting on
 * its defence, the Judge chooses again and it is rolled again (new dice). The old defence and
 * to-hit leave the row (it says the Judge changed it); their dice stay in the card's rolls, so
 * no die is hidden or taken back. The re-chosen defence takes the first one's place in the
 * extra-defence count: counted only when the first was not (No defence, a declared dodge); so a
 * re-chosen Evasion, Feint or Catch after a counted defence does not spend the action again.
 */
export const CHANGED_DEFENCE_REPLACES = true as boolean;

/** Why a defence was picked. */
export type NpcDefenceReason = "declared" | "bestOdds" | "noDefence";

/** The pick: the defence and why. */
export interface NpcDefencePick {
  readonly defence: DefenceChoice;
  readonly reason: NpcDefenceReason;
}

/** What the pick reads besides the card. */
export interface NpcDefenceInput {
  readonly mode: NpcDefenceMode;
  /** The NPC's declaration this turn (the GM's record), or null (none, or outside a combat). */
  readonly declaration: Declaration | null;
  /** The shifts the GM applies to each defence roll (extra-defence penalty, talents, conditions), by defence. */
  readonly shifts?: (defence: DefenceCode) => readonly CsReason[];
  readonly table?: UniversalTable;
  /** Whether the NPC may defend at all (rules turn/able.ts): a helpless one gets No defence only. Default true. */
  readonly mayDefend?: boolean;
}

/**
 * The chance a defence roll comes out better than white, then red, then yellow, on the column it
 * would be rolled on: what "best odds" compares, in that order.
 */
export function defenceOdds(target: ExchangeTarget, defence: DefenceCode, shifts: readonly CsReason[] = [], table: UniversalTable = UNIVERSAL_TABLE): { readonly success: number; readonly red: number; readonly yellow: number } {
  const cs = shifts.reduce((sum, s) => sum + s.cs, 0) + (defence === "catch" ? catchRollShift(true) : 0);
  const value = target.scores[DEFENCE_SCORE[defence]];
  const odds = colorOdds(value, cs, table);
  return { success: 1 - odds.white, red: odds.red, yellow: odds.yellow };
}

/**
 * The defence the Judge's client picks for the NPC row `key` under `input.mode`; null when the
 * Judge clicks (mode "gm"), the row is not waiting on a defence, or the Judge changed its pick.
 * "declared": the declared defence when it is valid against this attack, else the best odds.
 * "bestOdds": among the valid
 * defences that keep the NPC's action ({@link BEST_ODDS_KEEPS_ACTION}), the best chance of a
 * colour better than white, then of red, then of yellow, then the rules' order; No defence when
 * none is valid.
 */
export function pickNpcDefence(state: ExchangeState, key: string, input: NpcDefenceInput): NpcDefencePick | null {
  if (!(NPC_DEFENCE_MODES as readonly string[]).includes(input.mode)) throw new RulesRangeError("exchangeNpcDefenceMode", { got: input.mode, allowed: NPC_DEFENCE_MODES.join(", ") });
  const target = targetOf(state, key);
  // A row whose pick the Judge changed is the Judge's to choose (CHANGED_DEFENCE_REPLACES).
  // A resisted power is resisted, not defended (resist.ts): the Judge clicks the NPC's Resist.
  if (input.mode === "gm" || target.phase !== "awaitingDefence" || (target.defenceChanges ?? 0) > 0 || resistedPowerOf(state) !== null) return null;
  const offered = targetActions(state, key, null, { mayDefend: input.mayDefend ?? true }).defend;
  const declared = input.declaration?.kind === "defence" ? input.declaration.defence : null;
  if (input.mode === "declared" && declared !== null && offered.includes(declared)) return { defence: declared, reason: "declared" };
  const candidates = offered.filter((d) => !(BEST_ODDS_KEEPS_ACTION && DEFENCES[d].takesAction));
  let best: { code: DefenceCode; odds: ReturnType<typeof defenceOdds> } | null = null;
  for (const code of candidates) {
    const odds = defenceOdds(target, code, input.shifts?.(code) ?? [], input.table);
    if (best === null || better(odds, best.odds)) best = { code, odds };
  }
  return best ? { defence: best.code, reason: "bestOdds" } : { defence: "none", reason: "noDefence" };
}

function better(a: ReturnType<typeof defenceOdds>, b: ReturnType<typeof defenceOdds>): boolean {
  if (a.success !== b.success) return a.success > b.success;
  if (a.red !== b.red) return a.red > b.red;
  return a.yellow > b.yellow;
}

/** The row's defence was picked by the Judge's client (not clicked): the Judge may change it. */
export function markPickedDefence(state: ExchangeState, key: string): ExchangeState {
  const target = targetOf(state, key);
  if (target.defence === null) throw new ExchangeError("invalid", "exchangeNoDefencePicked", { name: target.name });
  return replaceTarget(state, { ...target, defencePicked: true });
}

/**
 * True when the Judge may change the picked defence of the row `key`: it was picked by the
 * Judge's client, and nothing but the card holds its outcome yet: damage not applied, not
 * pulled, no hold put on the target, no Evasion/Feint bonus earned against the attacker.
 */
export function mayChangeDefence(state: ExchangeState, key: string): boolean {
  const t = targetOf(state, key);
  if (!CHANGED_DEFENCE_REPLACES || t.defencePicked !== true || t.defence === null) return false;
  if (t.phase !== "awaitingToHit" && t.phase !== "resolved") return false;
  if (t.defence.outcome.bonusCs > 0) return false;
  if (t.toHit !== null && (t.toHit.pulled || isHoldResult(t.toHit.result))) return false;
  return true;
}

/**
 * The Judge changes a picked defence ({@link CHANGED_DEFENCE_REPLACES}): the row waits on its
 * defence again, its defence, to-hit and damage gone, and counts the change. "stale" when it
 * may no longer be changed (applied, already changed, …).
 */
export function reopenDefence(state: ExchangeState, key: string): ExchangeState {
  const target = targetOf(state, key);
  if (!mayChangeDefence(state, key)) throw new ExchangeError("stale", "exchangeDefenceFixed", { name: target.name });
  const replacedCounted = target.replacedCounted === true || defenceCounts(target.defence);
  return replaceTarget(state, { ...target, phase: "awaitingDefence", defence: null, toHit: null, damage: null, defencePicked: false, defenceChanges: (target.defenceChanges ?? 0) + 1, replacedCounted });
}

/** Whether a defence counts in the defender's extra-defence count (§6, Table 22): a rolled one; not No defence, not a declared dodge (no die). */
export function defenceCounts(defence: TargetDefence | null): boolean {
  return defence !== null && defence.code !== "none" && defence.die !== null;
}

/** Whether a defence rolled on this row is counted in the defender's extra-defence count: not when the one it replaces was ({@link CHANGED_DEFENCE_REPLACES}). */
export function countsAsNewDefence(target: ExchangeTarget): boolean {
  return !(CHANGED_DEFENCE_REPLACES && target.replacedCounted === true);
}
