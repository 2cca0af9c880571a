/** Engine ranks as the rules tests look them up and sample them. */
import { RANKS, type Rank } from "../../src/rules/ranks";

/** The engine rank whose canonical name is the document's `name`. */
export function rankNamed(name: string): Rank {
  const rank = RANKS.find((r) => r.name === name);
  if (!rank) throw new Error(`The document's rank "${name}" is not an engine rank name.`);
  return rank;
}

/** Representative rank numbers of a rank: its lowest, its standard number and its highest. */
export function samplesOf(rank: Rank): number[] {
  const top = Number.isFinite(rank.max) ? rank.max : rank.min * 1000;
  return [...new Set([rank.min, rank.number, top])];
}
