/**
 * What the Universal Table reference window shows: every column of the ladder (Shift 0 …
 * Class 5000) with its four colour bands read from the table in use
 * (CONFIG.CASE.universalTable, which a module may replace), and the column the user selected.
 * Plain data, no Foundry: tests render it through the real template.
 */
import { COLORS, RANKS, isRankKey, validateUniversalTable, type Color, type ColumnBands, type RankKey, type UniversalTable } from "../../../rules/index";

/** The column selected when the user has never picked one. */
export const DEFAULT_COLUMN: RankKey = "typical";

export const UNIVERSAL_TABLE_TEMPLATE = "templates/apps/universal-table.hbs";

export interface TableColumnView {
  readonly key: RankKey;
  readonly nameKey: string;
  readonly abbrKey: string;
  readonly number: number;
  readonly selected: boolean;
}

export interface TableCellView {
  readonly key: RankKey;
  readonly color: Color;
  /** First and last d100 result of the band, or null when the band is empty on this column. */
  readonly from: number | null;
  readonly to: number | null;
  /** "1–35", "100", or "—" for an empty band. */
  readonly text: string;
  /** How many of the 100 results fall in the band (its percentage). */
  readonly percent: number;
  readonly selected: boolean;
}

export interface TableRowView {
  readonly color: Color;
  readonly colorKey: string;
  readonly cells: readonly TableCellView[];
}

export interface SelectedColumnView {
  readonly key: RankKey;
  readonly nameKey: string;
  readonly number: number;
  /** The selected column's bands, in order, for the summary line. */
  readonly bands: readonly { readonly color: Color; readonly colorKey: string; readonly text: string; readonly percent: number }[];
}

export interface UniversalTableContext {
  readonly columns: readonly TableColumnView[];
  readonly rows: readonly TableRowView[];
  readonly selected: SelectedColumnView;
}

/** The d100 range of each band of one column: [from, to], or null for an empty band. */
export function bandRanges(bands: ColumnBands): Record<Color, readonly [number, number] | null> {
  const range = (from: number, next: number): readonly [number, number] | null => (next > from ? [from, next - 1] : null);
  return {
    white: range(1, bands.green),
    green: range(bands.green, bands.yellow),
    yellow: range(bands.yellow, bands.red),
    red: range(bands.red, 101),
  };
}

function rangeText(range: readonly [number, number] | null): string {
  if (range === null) return "—";
  return range[0] === range[1] ? String(range[0]) : `${range[0]}–${range[1]}`;
}

/**
 * The window's context for `table` with column `selectedKey` highlighted. RangeError when
 * the table is not a valid Universal Table or the key is not a rank.
 */
export function universalTableContext(table: UniversalTable, selectedKey: string): UniversalTableContext {
  validateUniversalTable(table);
  if (!isRankKey(selectedKey)) throw new RangeError(`Unknown column "${selectedKey}".`);
  const ranges = RANKS.map((rank) => bandRanges(table[rank.index] as ColumnBands));
  const columns = RANKS.map((rank) => ({
    key: rank.key,
    nameKey: `CASE.Rank.${rank.key}`,
    abbrKey: `CASE.RankAbbr.${rank.key}`,
    number: rank.number,
    selected: rank.key === selectedKey,
  }));
  const rows = COLORS.map((color) => ({
    color,
    colorKey: `CASE.Color.${color}`,
    cells: RANKS.map((rank, i) => {
      const range = (ranges[i] as Record<Color, readonly [number, number] | null>)[color];
      return {
        key: rank.key,
        color,
        from: range ? range[0] : null,
        to: range ? range[1] : null,
        text: rangeText(range),
        percent: range ? range[1] - range[0] + 1 : 0,
        selected: rank.key === selectedKey,
      };
    }),
  }));
  const selectedRank = RANKS.find((r) => r.key === selectedKey);
  if (!selectedRank) throw new RangeError(`Unknown column "${selectedKey}".`);
  const selectedRanges = ranges[selectedRank.index] as Record<Color, readonly [number, number] | null>;
  return {
    columns,
    rows,
    selected: {
      key: selectedRank.key,
      nameKey: `CASE.Rank.${selectedRank.key}`,
      number: selectedRank.number,
      bands: COLORS.filter((c) => selectedRanges[c] !== null).map((color) => {
        const range = selectedRanges[color];
        return { color, colorKey: `CASE.Color.${color}`, text: rangeText(range), percent: range ? range[1] - range[0] + 1 : 0 };
      }),
    },
  };
}

/** A stored column preference as a rank key: the default when it is missing or not a rank. */
export function storedColumn(value: unknown): RankKey {
  return isRankKey(value) ? value : DEFAULT_COLUMN;
}

/** The column a clicked element names (its data-rank), or null when it names none. */
export function columnOfElement(element: { readonly dataset: DOMStringMap }): RankKey | null {
  const key = element.dataset.rank;
  return isRankKey(key) ? key : null;
}

/** What the window's buttons call: select a column, roll on one. */
export interface UniversalTableHost {
  selectColumn(key: RankKey): Promise<void>;
  rollOnColumn(key: RankKey): Promise<void>;
}

type Action = (this: UniversalTableHost, event: PointerEvent, target: HTMLElement) => Promise<void>;

/**
 * The window's click actions (ApplicationV2 `actions`, found by data-action): a column
 * header selects its column; a roll button rolls a plain ACTION on its column.
 */
export const UNIVERSAL_TABLE_ACTIONS: Readonly<Record<"caseSelectColumn" | "caseRollColumn", Action>> = {
  async caseSelectColumn(this: UniversalTableHost, _event: PointerEvent, target: HTMLElement) {
    const key = columnOfElement(target);
    if (key) await this.selectColumn(key);
  },
  async caseRollColumn(this: UniversalTableHost, _event: PointerEvent, target: HTMLElement) {
    const key = columnOfElement(target);
    if (key) await this.rollOnColumn(key);
  },
};
