/**
 * The pure half of the in-Foundry self-test (no Foundry, no DOM): Quench's API as these
 * batches use it, the list of batches and who runs each, the scratch recorder that deletes
 * everything a batch made (even after a failed test), and the values the batches expect.
 * test/foundry/self-test.test.ts tests all of it against a fake Quench; the Foundry halves
 * (scratch.ts, feat.ts, exchange.ts, turn.ts, compendium.ts, migration.ts, player.ts,
 * versions.ts) only drive documents and compare with what is here.
 *
 * Quench's public API (its README): `Hooks.on("quenchReady", quench => quench.registerBatch(key,
 * fn, { displayName }))`; `fn` receives a context with mocha's `describe`/`it`/`before`/`after`
 * and chai's `assert`. It is declared here narrowly, for these batches only.
 */
import { TURN_PHASES, type TurnPhase } from "../../rules/index";

export * from "./registry";

// ── what the batches expect ─────────────────────────────────────────────────────────────

/**
 * The compendium hero the import batch brings in, and its derived values as the rules work
 * them out from the pack's abilities (test/foundry/self-test.test.ts checks these against the
 * pack source and the rules).
 */
export const COMPENDIUM_HERO = { pack: "heroes", name: "Halogen", healthMax: 52, karmaMax: 60, initiative: 1, items: 7 } as const;

/**
 * An actor as an old version stored it: bare-number abilities, a digit string, pools with only
 * `max` or `current`. The migration batch creates it and runs the real migration.
 */
export const OLD_SCHEMA_HERO = {
  abilities: { fighting: 30, agility: "20", strength: 10, endurance: 40, reason: 6, intuition: 10, psyche: 20 },
  health: { max: 77 },
  karma: { current: "12" },
} as const;

/** What the old-schema actor holds once migrated (stored values). */
export const MIGRATED_HERO = {
  abilities: { fighting: 30, agility: 20, strength: 10, endurance: 40, reason: 6, intuition: 10, psyche: 20 },
  health: 77,
  karma: 12,
} as const;

/** The exchange's attacker: an Unearthly fighter, so a hit comes within a few tries. */
export const EXCHANGE_ATTACKER = { abilities: { fighting: { value: 100 }, strength: { value: 30 } } } as const;
/** The exchange's target: a hero (no NPC auto-rolls, so Undo stays possible) with Health to spare. */
export const EXCHANGE_TARGET = { abilities: { endurance: { value: 100 } } } as const;
/** The weapon: a blunt melee weapon of its default rank, no ammunition. */
export const EXCHANGE_WEAPON = { attack: { enabled: true, type: "BA", range: 0 }, damage: { mode: "rank", rank: 10 }, ammunition: { tracked: false } } as const;
/** How many attacks the exchange batch makes at most before a hit (each a miss otherwise; all are deleted). */
export const MAX_ATTACK_TRIES = 8;

/** The Health a row's Apply leaves and its Undo gives back, from the card's record. */
export function expectedHealth(applied: { readonly healthBefore: number; readonly healthAfter: number }): { afterApply: number; afterUndo: number } {
  if (applied.healthAfter > applied.healthBefore) throw new RangeError("Applied damage cannot raise Health.");
  return { afterApply: applied.healthAfter, afterUndo: applied.healthBefore };
}

/** The most phase steps the turn batch takes before it gives up (a whole turn is six). */
export const MAX_TURN_STEPS = 12;

/**
 * Checks a walk through one CASE turn as the tracker went: it starts in Declare, visits the
 * phases in the table's order (Extra actions and Extra rounds may be passed by), and ends in
 * the next turn's Declare, one turn number later. Returns what is wrong (empty when right).
 */
export function turnWalkProblems(phases: readonly TurnPhase[], startNumber: number, endNumber: number): string[] {
  const problems: string[] = [];
  if (phases[0] !== "declare") problems.push(`the turn starts in ${String(phases[0])}, not declare`);
  if (phases.at(-1) !== "declare" || phases.length < 2) problems.push("the turn does not come back to declare");
  const inner = phases.slice(1, -1);
  const order = inner.map((p) => TURN_PHASES.indexOf(p));
  for (let i = 1; i < order.length; i++) {
    if ((order[i] ?? 0) < (order[i - 1] ?? 0)) problems.push(`${String(inner[i])} came after ${String(inner[i - 1])}`);
  }
  for (const needed of ["initiative", "resolve", "wrapUp"] as const) if (!inner.includes(needed)) problems.push(`the turn skipped ${needed}`);
  if (new Set(inner).size !== inner.length && !inner.every((p, i) => p === "extraRounds" || inner.indexOf(p) === i)) problems.push("a phase came twice");
  if (endNumber !== startNumber + 1) problems.push(`the turn number went from ${String(startNumber)} to ${String(endNumber)}`);
  return problems;
}

/**
 * What a player's Apply damage must meet, by the world's "who may apply damage" setting: the
 * owners may apply (then Undo too), or only the GM may (a player's click is refused as forbidden).
 */
export function playerApplyExpectation(damageAppliedBy: string): "applies" | "forbidden" {
  return damageAppliedBy === "owners" ? "applies" : "forbidden";
}
