/**
 * What a roll request card shows a viewer (templates/chat/roll-request.hbs): the roll asked
 * for, a row per character with its result once rolled, a Roll button on the rows this viewer
 * may roll (its owners and the GM, once), and the tally. Pure over the stored request, so the
 * card is rendered in tests from real data. Also the Judge's dialog: its data and its reading.
 */
import {
  ABILITY_KEYS,
  RANKS,
  RollRequestError,
  SUB_SCORE_REFS,
  applyKarma,
  isRankNumber,
  isScoreRef,
  mayRollRequestRow,
  rankOf,
  requestTally,
  shiftColumn,
  type RollRequest,
  type ScoreRef,
} from "../../rules/index";
import { formatSigned } from "../core/format";

/** Who is looking: the GM, and which actors this user owns. */
export interface RequestViewer {
  readonly isGM: boolean;
  owns(actorUuid: string): boolean;
  /** The row's picture (a token's or actor's image), or null. */
  portrait(actorUuid: string): string | null;
}

/** One row as the card shows it. */
export interface RequestRowView {
  readonly key: string;
  readonly name: string;
  readonly portrait: string | null;
  readonly canRoll: boolean;
  readonly result: {
    readonly die: number;
    readonly karma: number;
    readonly total: number;
    readonly color: string;
    readonly colorKey: string;
    /** The column rolled on; null on a sealed (NPC) row. */
    readonly columnKey: string | null;
    readonly columnNumber: number | null;
    readonly shift: string | null;
    /** Each shift and its reason ("−2 declared dodge"), for the shift's tooltip. */
    readonly shifts: readonly { readonly cs: string; readonly label: string; readonly localize: boolean }[];
    readonly success: boolean;
  } | null;
}

export interface RequestCardView {
  readonly label: string | null;
  readonly scoreKey: string;
  readonly intensityKey: string | null;
  readonly rows: readonly RequestRowView[];
  readonly rolled: number;
  readonly waiting: number;
  readonly successes: number;
  readonly total: number;
}

/** The card for `viewer`. */
export function requestCardContext(request: RollRequest, viewer: RequestViewer): RequestCardView {
  const tally = requestTally(request);
  return {
    label: request.label,
    scoreKey: `CASE.Score.${request.score}`,
    intensityKey: request.intensity === null ? null : `CASE.Rank.${rankOf(request.intensity).key}`,
    rows: request.rows.map((row) => {
      const r = row.result;
      const column = r && r.value !== null ? shiftColumn(r.value, r.shift ?? 0).rank : null;
      return {
        key: row.key,
        name: row.name,
        portrait: viewer.portrait(row.actorUuid),
        canRoll: mayRollRequestRow(request, row.key) && (viewer.isGM || viewer.owns(row.actorUuid)),
        result:
          r
            ? {
                die: r.die,
                karma: r.karma,
                total: applyKarma(r.die, r.karma),
                color: r.color,
                colorKey: `CASE.Color.${r.color}`,
                columnKey: column ? `CASE.Rank.${column.key}` : null,
                columnNumber: column ? column.number : null,
                shift: r.shift === null || r.shift === 0 ? null : formatSigned(r.shift, "0"),
                shifts: (r.shifts ?? []).map((x) => ({ cs: formatSigned(x.cs), label: x.label, localize: x.localize })),
                success: r.success,
              }
            : null,
      };
    }),
    rolled: tally.rolled,
    waiting: tally.waiting,
    successes: tally.successes,
    total: request.rows.length,
  };
}

/** The request dialog's template data (exported for tests). */
export function rollRequestDialogContext(id: string, selected: readonly string[]) {
  return {
    id,
    selected,
    scores: [
      ...ABILITY_KEYS.map((key) => ({ value: key, labelKey: `CASE.Score.${key}`, selected: key === "endurance" })),
      ...SUB_SCORE_REFS.map((ref) => ({ value: ref, labelKey: `CASE.Score.${ref}`, selected: false })),
    ],
    ranks: RANKS.map((r) => ({ number: r.number, labelKey: `CASE.Rank.${r.key}` })),
  };
}

/** Reads the request dialog's fields; a RollRequestError naming the fault. */
export function readRollRequestForm(form: Record<string, unknown>): { score: ScoreRef; intensity: number | null; label: string | null } {
  const score = form.score;
  if (!isScoreRef(score)) throw new RollRequestError("invalid", "requestNotScore", { got: String(score) });
  const raw = form.intensity;
  const intensity = raw === undefined || raw === null || raw === "" ? null : Number(raw);
  if (intensity !== null && !isRankNumber(intensity)) throw new RollRequestError("invalid", "requestIntensityNotRank", { got: String(raw) });
  const label = typeof form.label === "string" && form.label.trim() !== "" ? form.label.trim() : null;
  return { score, intensity, label };
}
