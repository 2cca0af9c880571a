/**
 * What each colour of a defence roll does on one row against its attack (CASE-RULES §6, read
 * through {@link defenceOutcome}, the function the exchange itself applies), for the defence
 * buttons' tooltips; and whether the colour alone keeps the damage off, for the row's "best
 * chance to avoid the damage".
 */
import { armorProtectionAgainst, damageAfterProtection } from "../damage";
import { damageThroughObstacles } from "../attacks";
import { combineProtection, type DefenceCode } from "../defences";
import { COLORS, type Color } from "../universal-table";
import { defenceOutcome, targetOf, type DefenceOutcome, type ExchangeState } from "./state";
import { rowDamageValue } from "./defend-and-hit";

export interface ColourOutcome {
  readonly color: Color;
  /** What the colour does to the attack (§6): the exchange's own {@link defenceOutcome}. */
  readonly outcome: DefenceOutcome;
  /** Block and Brace against static damage: what a hit still gets through (armor and protection combined, §6); null for other defences, rolled damage or a sealed row (the GM's numbers). */
  readonly dealt: number | null;
  /** The colour alone keeps the damage off the target: avoided, caught, or the protection soaks a hit whole. */
  readonly stopsDamage: boolean;
}

/** The outcome of each colour (white to red) of `defence` on row `key` against the card's attack. */
export function defenceColourOutcomes(state: ExchangeState, key: string, defence: DefenceCode): ColourOutcome[] {
  const target = targetOf(state, key);
  const protects = (defence === "block" || defence === "brace") && target.sealed !== true && state.damage.method === "static";
  const value = rowDamageValue(state, target);
  const reaching = state.obstacles && state.obstacles.length > 0 ? damageThroughObstacles(value, state.obstacles) : value;
  const armor = armorProtectionAgainst(state.attack, target.armor);
  return COLORS.map((color): ColourOutcome => {
    const outcome = defenceOutcome(defence, color, target);
    const dealt = protects ? damageAfterProtection(reaching, outcome.protection > 0 ? combineProtection(armor, outcome.protection) : armor) : null;
    return { color, outcome, dealt, stopsDamage: outcome.avoided || dealt === 0 };
  });
}
