/** A rank as the sheets and the builder show it: its name's and abbreviation's keys, and its number. */
import { rankOf, type RankKey } from "../../../rules/index";

/** A rank shown as name + number. */
export interface RankLabel {
  readonly key: RankKey;
  /** `CASE.Rank.<key>` */
  readonly label: string;
  /** `CASE.RankAbbr.<key>` */
  readonly abbr: string;
  readonly value: number;
}


/** A rank number as name + number. */
export function rankLabel(value: number): RankLabel {
  const key = rankOf(value).key;
  return { key, label: `CASE.Rank.${key}`, abbr: `CASE.RankAbbr.${key}`, value };
}

export function rankLabelOfKey(value: number, key: RankKey): RankLabel {
  return { key, label: `CASE.Rank.${key}`, abbr: `CASE.RankAbbr.${key}`, value };
}
