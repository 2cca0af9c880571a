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
import { defenceOutcome, targetOf, type ExchangeState } from "./state";
import { rowDamageValue } from "./transitions";

/** What a colour does: the words of §6's defence table, one kind each. */
export type ColourEffect = "autoHit" | "avoided" | "catchMiss" | "caught" | "caughtDamaged" | "attackShift" | "protection";

export interface ColourOutcome {
  readonly color: Color;
  readonly effect: ColourEffect;
  /** The shift on the attack's to-hit column (Dodge, Weave, a missed Catch), or the defender's CS against the attacker after an avoidance (Evasion, Feint); 0 when none. */
  readonly cs: number;
  /** Block and Brace: the protection the colour gives (before armor); null for other defences, or when the row's scores are not known to this viewer. */
  readonly protection: number | null;
  /** Block and Brace against static damage: what a hit still gets through (armor and protection combined, §6); null when not known before the roll. */
  readonly dealt: number | null;
  /** The colour alone keeps the damage off the target: avoided, caught, or the protection soaks a hit whole. */
  readonly stopsDamage: boolean;
}

/**
 * The outcome of each colour (white to red) of `defence` on row `key` against the card's
 * attack. A sealed row (the GM's secrets) or intensity damage leaves protection's numbers out.
 */
export function defenceColourOutcomes(state: ExchangeState, key: string, defence: DefenceCode): ColourOutcome[] {
  const target = targetOf(state, key);
  return COLORS.map((color): ColourOutcome => {
    const o = defenceOutcome(defence, color, target);
    const base = { color, cs: 0, protection: null, dealt: null, stopsDamage: false };
    if (o.catchResult === "caught" || o.catchResult === "caughtDamaged") return { ...base, effect: o.catchResult, stopsDamage: true };
    if (o.catchResult === "miss") return { ...base, effect: "catchMiss", cs: o.attackCs };
    if (o.autoHit) return { ...base, effect: "autoHit" };
    if (o.avoided) return { ...base, effect: "avoided", cs: o.bonusCs, stopsDamage: true };
    if (defence !== "block" && defence !== "brace") return { ...base, effect: "attackShift", cs: o.attackCs };
    if (target.sealed === true) return { ...base, effect: "protection" };
    if (state.damage.method !== "static") return { ...base, effect: "protection", protection: o.protection };
    const reaching = state.obstacles && state.obstacles.length > 0 ? damageThroughObstacles(rowDamageValue(state, target), state.obstacles) : rowDamageValue(state, target);
    const armor = armorProtectionAgainst(state.attack, target.armor);
    const dealt = damageAfterProtection(reaching, o.protection > 0 ? combineProtection(armor, o.protection) : armor);
    return { ...base, effect: "protection", protection: o.protection, dealt, stopsDamage: dealt === 0 };
  });
}

/** The chance (0–1) that `defence`'s roll alone keeps the damage off, given the odds of each colour on its shifted column. */
export function chanceToStopDamage(outcomes: readonly ColourOutcome[], odds: Readonly<Record<Color, number>>): number {
  return outcomes.reduce((sum, o) => sum + (o.stopsDamage ? odds[o.color] : 0), 0);
}
