/**
 * The self-test's batches by id, their names and who runs each: all the core chunk needs to
 * register every batch with Quench at `quenchReady` before their tests have loaded (quench.ts).
 * batches.ts re-exports it.
 */

/** Who runs a batch: the GM in the world's first browser, or a player in a second one. */
export type Runner = "gm" | "player";

/** The batches, by id: their display names and who runs them. The tests live in the Foundry modules. */
export const BATCHES = {
  versions: { displayName: "CASE: Foundry 13 and 14 (conditions, flag deletion, enricher links)", runner: "gm" },
  feat: { displayName: "CASE: a FEAT roll (ability and sub-score cards)", runner: "gm" },
  exchange: { displayName: "CASE: an attack exchange (attack, defend, apply, undo through the GM's router)", runner: "gm" },
  turn: { displayName: "CASE: one CASE turn in the tracker (declare to wrap-up)", runner: "gm" },
  compendium: { displayName: "CASE: import a compendium hero (derived values)", runner: "gm" },
  migration: { displayName: "CASE: migrate an old-schema actor", runner: "gm" },
  player: {
    displayName: "CASE: second browser (player): log in as a player who owns a hero with an attack, GM connected, and run this there",
    runner: "player",
  },
  areas: { displayName: "CASE: an area attack (a template on 13; the area's placement is one function for 14's Regions)", runner: "gm" },
  effects: { displayName: "CASE: Active Effects (an ability, a protection, and @rank on a power)", runner: "gm" },
  builder: { displayName: "CASE: the character builder (a power from the Powers pack keeps its rank)", runner: "gm" },
  karma: { displayName: "CASE: the Karma tab (award, advance, log, group pool)", runner: "gm" },
  rest: { displayName: "CASE: rest and recovery (Health and lost Endurance ranks)", runner: "gm" },
  rollRequest: { displayName: "CASE: a roll request (asked, rolled once on the GM)", runner: "gm" },
  minorFoes: { displayName: "CASE: minor foes (one group in the tracker, out of the fight on a hit)", runner: "gm" },
  slam: { displayName: "CASE: a slam moves the token", runner: "gm" },
  firstAid: { displayName: "CASE: first aid in the tracker", runner: "gm" },
  impact: { displayName: "CASE: an impact (a fall)", runner: "gm" },
  regeneration: { displayName: "CASE: regeneration at wrap-up", runner: "gm" },
  applySelected: { displayName: "CASE: Apply to selected tokens", runner: "gm" },
  deletion: { displayName: "CASE: a deletion really deletes (compat flag deletion, a used foe bonus)", runner: "gm" },
  clearChat: {
    displayName: "CASE: Clear Chat Log mid-combat (clears this world's whole chat log: tick it only in a test world with an empty log)",
    runner: "gm",
    destructive: true,
  },
} as const satisfies Record<string, { displayName: string; runner: Runner; destructive?: true }>;

export type BatchId = keyof typeof BATCHES;

/** Quench's key of batch `id`. */
export function batchKey(id: BatchId): string {
  return `case.${id}`;
}
