/**
 * Which of the seed rules' other results (collisions.ts, combat-results.ts) an attack card's row
 * offers the Judge, as a follow-up after its roll: the rows the rules text names. Pure: the
 * Foundry side shows a button for each and rolls it on the GM.
 */
import { missMayStrikeOthers } from "./attacks";
import { isHit } from "./attacks";
import { MOVING_SLAM_RESULTS } from "./collisions";
import type { ExchangeState, ExchangeTarget } from "./exchange/state";

/**
 * The follow-ups: a slammed target striking something (`slamCollision`), a white charge
 * careening in a crowd (`careen`), the bystanders of a ranged miss (`bystanders`), a grab's Break
 * (`break`), a catch's Damage result (`catchDamage`), a red escape's Reversal (`reversal`) and
 * a Mercy Bullet's Endurance FEAT (`mercy`).
 */
export const FOLLOW_UPS = ["slamCollision", "careen", "bystanders", "break", "catchDamage", "reversal", "mercy"] as const;
export type FollowUp = (typeof FOLLOW_UPS)[number];

/** The attack types that fire bullets: the ones a Mercy Bullet may be [000: "specialized weapons"]. */
export const MERCY_ATTACKS = ["Sh"] as const;

/**
 * [RULING] Mercy Bullets are the Judge's call on a Shooting hit not yet applied: the card offers
 * the Endurance FEAT instead of the damage (a weapon is not marked as one), and a row whose
 * FEAT was rolled is not applied (no damage [000]).
 */
export const MERCY_OFFERED_BEFORE_APPLY = true as boolean;

/** The follow-ups row `target` of `state` offers now (none on an undone row, or before its to-hit). */
export function rowFollowUps(state: ExchangeState, target: ExchangeTarget): FollowUp[] {
  const hit = target.toHit;
  if (target.phase === "undone" || hit === null) return [];
  const out: FollowUp[] = [];
  if (target.consequences.some((c) => c.outcome?.check === "slam" && MOVING_SLAM_RESULTS.includes(c.outcome.result))) out.push("slamCollision");
  if (state.attack === "Ch" && hit.result === "miss") out.push("careen");
  if (missMayStrikeOthers(state.attack) && hit.result === "miss") out.push("bystanders");
  if (hit.result === "break") out.push("break");
  if (target.defence?.outcome.catchResult === "caughtDamaged") out.push("catchDamage");
  if (target.escapes.at(-1)?.result === "reversal") out.push("reversal");
  if ((MERCY_ATTACKS as readonly string[]).includes(state.attack) && isHit(hit.result) && target.phase === "resolved" && MERCY_OFFERED_BEFORE_APPLY) out.push("mercy");
  return out;
}
