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

/**
 * What a colour does, one kind for each of §6's words: walks into the attack; avoided (with a
 * bonus); a missed catch; caught (maybe damaged); a shift on the attack (none); protection that
 * soaks the hit whole, lets some `through`, or whose numbers are not known before the roll
 * (rolled damage: `protection`; a sealed row: `protects`).
 */
export type ColourEffect = "autoHit" | "avoided" | "avoidedBonus" | "catchMiss" | "caught" | "caughtDamaged" | "noShift" | "attackShift" | "soaked" | "through" | "protection" | "protects";

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
    if (o.avoided) return { ...base, effect: o.bonusCs > 0 ? "avoidedBonus" : "avoided", cs: o.bonusCs, stopsDamage: true };
    if (defence !== "block" && defence !== "brace") return { ...base, effect: o.attackCs === 0 ? "noShift" : "attackShift", cs: o.attackCs };
    if (target.sealed === true) return { ...base, effect: "protects" };
    if (state.damage.method !== "static") return { ...base, effect: "protection", protection: o.protection };
    const value = rowDamageValue(state, target);
    const reaching = state.obstacles && state.obstacles.length > 0 ? damageThroughObstacles(value, state.obstacles) : value;
    const armor = armorProtectionAgainst(state.attack, target.armor);
    const dealt = damageAfterProtection(reaching, o.protection > 0 ? combineProtection(armor, o.protection) : armor);
    return { ...base, effect: dealt === 0 ? "soaked" : "through", protection: o.protection, dealt, stopsDamage: dealt === 0 };
  });
}

/** The chance (0–1) that a defence's roll alone keeps the damage off, given its colours' outcomes and the odds of each colour on its shifted column. */
export function chanceToStopDamage(outcomes: readonly ColourOutcome[], odds: Readonly<Record<Color, number>>): number {
  return outcomes.reduce((sum, o) => sum + (o.stopsDamage ? odds[o.color] : 0), 0);
}
