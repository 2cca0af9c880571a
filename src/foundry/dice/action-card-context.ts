/**
 * The content of a Universal Table card, from a roll's check and (once rolled) its result.
 * Plain data, no Foundry: the template turns it into HTML, tests check it directly.
 */
import {
  COLORS,
  attackResult,
  colorCountsOnColumn,
  rankOf,
  resolveAction,
  shiftColumn,
  type ActionResult,
  type Color,
  type UniversalTable,
} from "../../rules/index";
import { totalShift, type RollCheck } from "./roll-check";
import { formatSigned } from "../core/format";

export interface BandView {
  readonly color: Color;
  readonly colorKey: string;
  readonly from: number;
  readonly to: number;
  /** Share of d100 results in this band, in percent (the odds before rolling). */
  readonly percent: number;
  /** The band the roll landed in. */
  readonly hit: boolean;
}

export interface ActionCardView {
  readonly label: string;
  readonly localizeLabel: boolean;
  readonly value: number;
  readonly rankKey: string;
  readonly shifts: readonly { cs: string; label: string; localize: boolean }[];
  readonly totalCs: string;
  /** The column read after shifts. */
  readonly columnKey: string;
  readonly columnNumber: number;
  readonly belowShift0: boolean;
  readonly bands: readonly BandView[];
  readonly intensityKey: string | null;
  readonly neededKey: string | null;
  readonly karma: number;
  readonly blindsided: boolean;
  readonly rolled: boolean;
  readonly roll: number | null;
  readonly total: number | null;
  readonly color: Color | null;
  readonly colorKey: string | null;
  readonly required: string | null;
  /** `CASE.Color.<colour>` needed, or null when no roll could succeed (then `cannotSucceed`). */
  readonly requiredKey: string | null;
  /** No roll could succeed (the colour needed is "impossible"): said in words, not as a colour. */
  readonly cannotSucceed: boolean;
  readonly success: boolean | null;
  readonly attackKey: string | null;
  readonly attackResultKey: string | null;
}

/** The bands of the column a check is read on, with the odds and the band rolled. */
export function columnBands(value: number, cs: number, table: UniversalTable, rolled: number | null): BandView[] {
  const column = shiftColumn(value, cs).rank;
  const counts = colorCountsOnColumn(column, table);
  const bands: BandView[] = [];
  let from = 1;
  for (const color of COLORS) {
    const n = counts[color];
    if (n > 0) bands.push({ color, colorKey: `CASE.Color.${color}`, from, to: from + n - 1, percent: n, hit: rolled !== null && rolled >= from && rolled <= from + n - 1 });
    from += n;
  }
  return bands;
}

/** Resolves a rolled check (the d100 result `die`), or null before the roll. */
export function resolveCheck(check: RollCheck, die: number | null, table: UniversalTable): ActionResult | null {
  if (die === null) return null;
  return resolveAction({
    value: check.value,
    roll: die,
    cs: totalShift(check),
    karma: check.karma,
    ...(check.intensity !== null ? { intensity: check.intensity } : {}),
    ...(check.needed !== null ? { needed: check.needed } : {}),
    blindsided: check.blindsided,
    table,
  });
}

/** Everything the action card shows. */
export function actionCardContext(check: RollCheck, die: number | null, table: UniversalTable): ActionCardView {
  const cs = totalShift(check);
  const result = resolveCheck(check, die, table);
  const column = shiftColumn(check.value, cs);
  return {
    label: check.label,
    localizeLabel: check.localizeLabel,
    value: check.value,
    rankKey: `CASE.Rank.${rankOf(check.value).key}`,
    shifts: check.shifts.map((s) => ({ cs: formatSigned(s.cs), label: s.label, localize: s.localize })),
    totalCs: formatSigned(cs),
    columnKey: `CASE.Rank.${column.rank.key}`,
    columnNumber: column.rank.number,
    belowShift0: column.belowShift0,
    bands: columnBands(check.value, cs, table, result ? result.total : null),
    intensityKey: check.intensity !== null ? `CASE.Rank.${rankOf(check.intensity).key}` : null,
    neededKey: check.needed !== null ? `CASE.Color.${check.needed}` : null,
    karma: check.karma,
    blindsided: check.blindsided,
    rolled: result !== null,
    roll: result ? result.roll : null,
    total: result ? result.total : null,
    color: result ? result.color : null,
    colorKey: result ? `CASE.Color.${result.color}` : null,
    required: result ? result.required : null,
    requiredKey: result && result.required !== "impossible" ? `CASE.Color.${result.required}` : null,
    cannotSucceed: result?.required === "impossible",
    success: result ? result.success : null,
    attackKey: check.attack ? `CASE.Attack.${check.attack}` : null,
    // Below Shift 0 a to-hit roll cannot succeed, whatever colour the die shows.
    attackResultKey: check.attack && result ? `CASE.AttackResult.${result.required === "impossible" ? "miss" : attackResult(check.attack, result.color)}` : null,
  };
}
