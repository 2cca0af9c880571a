/**
 * Karma against death on the attack card (power-rulings.ts `karmaAgainstDeath`,
 * `KARMA_AGAINST_DEATH`): a row whose Kill? took Endurance below Shift 0 may buy that loss off
 * with all the character's Karma, once; the character stays at Shift 0, alive and still dying.
 */
import { karmaAgainstDeath, type KarmaRulings } from "../power-rulings";
import { replaceTarget } from "./copy";
import { ExchangeError, invalid, targetOf, type ConsequenceOutcome, type ExchangeState, type ExchangeTarget } from "./state";

type KillOutcome = Extract<ConsequenceOutcome, { check: "kill" }>;

function fatalKill(target: ExchangeTarget): KillOutcome | null {
  for (const c of target.consequences) if (c.outcome?.check === "kill" && c.outcome.dead) return c.outcome;
  return null;
}

/** Whether row `key`'s Kill? killed and was not bought off (its owner may be offered it). */
export function mayBuyOffDeath(state: ExchangeState, key: string): boolean {
  const t = targetOf(state, key);
  return t.phase === "applied" && fatalKill(t) !== null;
}

/**
 * Buys off row `key`'s death with `karma` (all the character has): the Kill?'s outcome becomes
 * Shift 0 Endurance, alive, with the Karma spent noted. "stale" when nothing killed; "invalid",
 * naming why, when the ruling is off or the Karma is short.
 */
export function buyOffDeath(state: ExchangeState, key: string, karma: number, rulings: Partial<KarmaRulings> = {}): ExchangeState {
  const target = targetOf(state, key);
  if (!mayBuyOffDeath(state, key)) throw new ExchangeError("stale", "exchangeNoDeath", { name: target.name });
  // A fatal Kill? is a loss from Shift 0 Endurance (consequences.ts enduranceAfterKillLoss).
  const r = karmaAgainstDeath(0, karma, true, rulings);
  if (!r.mayAvoid) invalid("exchangeCannotBuyDeath", { name: target.name, karma });
  const consequences = target.consequences.map((c) => (c.outcome?.check === "kill" && c.outcome.dead ? { ...c, outcome: { ...c.outcome, endurance: r.endurance, dead: false, karmaAgainstDeath: r.karmaSpent } } : c));
  return replaceTarget(state, { ...target, consequences });
}
