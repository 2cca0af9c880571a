/**
 * First aid and "Aided" (CASE-RULES §8; [001]): who may aid whom, and what the aid does. Aid of
 * every kind stops the loss of a dying character (a Kill result); "a stunned character may be revived by
 * someone with the first aid talent" ({@link firstAid} in recovery.ts says what aid does). The
 * Foundry side gathers the facts (the aider's talents, where the tokens stand) and asks here.
 */
import { firstAid, type FirstAidOutcome } from "./recovery";
import { assertBooleanValue, assertObject, assertWholeNumber } from "./checks";
import { RulesRangeError, type RulesFieldKey } from "./errors";

/** [RULING] The talents that count as "the first aid talent" [001], by name (case and spacing ignored). */
export const FIRST_AID_TALENTS: readonly string[] = Object.freeze(["first aid", "medicine"]);

/**
 * [RULING] A player's character must stand next to the one it aids (within this many grid steps,
 * diagonals included: 1 is next to it): [001] is silent, and bandaging needs hands on the patient. The Judge may
 * mark anyone aided from the tracker.
 */
export const AID_REACH_CELLS = 1;

/** True when a talent of this name is a first aid talent ({@link FIRST_AID_TALENTS}). */
export function isFirstAidTalent(name: string): boolean {
  if (typeof name !== "string") return false;
  const plain = name.trim().toLowerCase().replace(/[\s_-]+/g, " ");
  return FIRST_AID_TALENTS.includes(plain);
}

/** A token's place on a square grid: its top-left cell and its size in cells. */
export interface GridPlace {
  readonly col: number;
  readonly row: number;
  readonly width: number;
  readonly height: number;
}

function assertPlace(p: GridPlace, field: RulesFieldKey): void {
  assertObject(p, field);
  if (!Number.isSafeInteger(p.col) || !Number.isSafeInteger(p.row)) throw new RulesRangeError("cellNotWhole", { field, got: `${String(p.col)}, ${String(p.row)}` });
  assertWholeNumber(p.width, field, 1);
  assertWholeNumber(p.height, field, 1);
}

/** Grid steps from one token to the other: 0 when they overlap, 1 when next to each other (diagonals count as one step). */
export function cellsBetween(a: GridPlace, b: GridPlace): number {
  assertPlace(a, "aiderPlace");
  assertPlace(b, "aidedOnePlace");
  const gapX = Math.max(0, b.col - (a.col + a.width - 1), a.col - (b.col + b.width - 1));
  const gapY = Math.max(0, b.row - (a.row + a.height - 1), a.row - (b.row + b.height - 1));
  return Math.max(gapX, gapY);
}

/** True when two tokens stand within {@link AID_REACH_CELLS} of each other. */
export function withinReach(a: GridPlace, b: GridPlace, reach: number = AID_REACH_CELLS): boolean {
  return cellsBetween(a, b) <= reach;
}

/** The aided character as the turn knows it. */
export interface AidTargetState {
  readonly dying: boolean;
  readonly stunned: boolean;
  readonly dead: boolean;
}

/** Who aids: the Judge (every character, from the tracker), or a player's own character. */
export type Aider =
  | { readonly kind: "judge" }
  | {
      readonly kind: "character";
      /** The aider is the aided one. */
      readonly self: boolean;
      /** The aider may act this turn (not stunned, dying, dead or out). */
      readonly canAct: boolean;
      readonly hasFirstAid: boolean;
      /** Within {@link AID_REACH_CELLS} of the aided one. */
      readonly adjacent: boolean;
    };

/** Why an aid is refused. */
export const AID_REFUSALS = ["dead", "nothingToAid", "self", "aiderCannotAct", "notAdjacent", "noFirstAid"] as const;
export type AidRefusal = (typeof AID_REFUSALS)[number];

export type AidVerdict = ({ readonly ok: true } & FirstAidOutcome) | { readonly ok: false; readonly reason: AidRefusal };

/**
 * May `aider` aid `target`, and what does it do? The Judge may mark every dying character aided
 * (the loss stops; a stun needs the talent, so the Judge's aid does not revive). A character may
 * aid another within reach while able to act; every aid stops a dying one's loss [001]; reviving
 * a stunned one needs the first aid talent [001]. A dead one cannot be aided.
 */
export function mayAid(aider: Aider, target: AidTargetState): AidVerdict {
  assertObject(aider, { input: "aider" });
  assertObject(target, { input: "aidedOne" });
  assertBooleanValue(target.dying, { input: "dying" });
  assertBooleanValue(target.stunned, { input: "stunned" });
  assertBooleanValue(target.dead, { input: "dead" });
  if (target.dead) return { ok: false, reason: "dead" };
  if (aider.kind === "judge") {
    return target.dying ? { ok: true, ...firstAid({ dying: true, stunned: target.stunned }, false) } : { ok: false, reason: "nothingToAid" };
  }
  for (const key of ["self", "canAct", "hasFirstAid", "adjacent"] as const) assertBooleanValue(aider[key], { input: key });
  if (aider.self) return { ok: false, reason: "self" };
  if (!aider.canAct) return { ok: false, reason: "aiderCannotAct" };
  if (!aider.adjacent) return { ok: false, reason: "notAdjacent" };
  const outcome = firstAid({ dying: target.dying, stunned: target.stunned }, aider.hasFirstAid);
  if (outcome.stopsDying || outcome.revived) return { ok: true, ...outcome };
  return { ok: false, reason: target.stunned ? "noFirstAid" : "nothingToAid" };
}
