/**
 * The Universal Table window's content: `universalTableContext` rendered through the real
 * template with real Handlebars and en.json. Every column and band is checked against the
 * rules text (CASE-RULES §2, read cell by cell), a replaced table shows its own numbers, and
 * the selected column — and only it — is highlighted. Its click actions select and roll.
 */
import "../../../support/foundry-globals";
import { describe, expect, it, vi } from "vitest";

// The window's roll goes through column-roll.ts (tested in column-roll.test.ts); CaseRoll needs Foundry's Roll.
vi.mock("../../../../src/foundry/column-roll", () => ({ rollColumn: vi.fn(() => Promise.resolve(null)) }));

import {
  DEFAULT_COLUMN,
  UNIVERSAL_TABLE_ACTIONS,
  UNIVERSAL_TABLE_TEMPLATE,
  bandRanges,
  columnOfElement,
  storedColumn,
  universalTableContext,
  type UniversalTableHost,
} from "../../../../src/foundry/apps/table/universal-table-context";
import { UniversalTableApp } from "../../../../src/foundry/apps/table/universal-table-app";
import { RANKS, UNIVERSAL_TABLE, type ColumnBands, type RankKey, type UniversalTable } from "../../../../src/rules/index";
import { renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { markdownTables, rulesSection } from "../../../support/rules-doc";
import { fakeTarget } from "../../../support/foundry-stubs";

/** §2's table as the rules text writes it: column name → green, yellow, red "from". */
const RULES_TABLE = (() => {
  const table = markdownTables(rulesSection(2))[0];
  if (!table) throw new Error("CASE-RULES §2 has no table.");
  return new Map(table.rows.map(([name, green, yellow, red]) => [name ?? "", { green: Number(green), yellow: Number(yellow), red: Number(red) }]));
})();

/** The d100 range text of each band of a column, worked from the rules text's "from" numbers. */
function expectedRanges(name: string): Record<"white" | "green" | "yellow" | "red", string> {
  const row = RULES_TABLE.get(name);
  if (!row) throw new Error(`CASE-RULES §2 has no column ${name}.`);
  const r = (from: number, next: number) => (next - 1 === from ? String(from) : `${from}–${next - 1}`);
  return { white: r(1, row.green), green: r(row.green, row.yellow), yellow: r(row.yellow, row.red), red: r(row.red, 101) };
}

function render(table: UniversalTable, selected: string) {
  return parseHtml(renderTemplate(UNIVERSAL_TABLE_TEMPLATE, universalTableContext(table, selected)));
}

describe("the window's table", () => {
  it("has every column, Shift 0 … Class 5000, in ladder order, with abbreviation and number", () => {
    const doc = render(UNIVERSAL_TABLE, "remarkable");
    const heads = queryAll(doc, "thead th.utable-head");
    expect(heads).toHaveLength(17);
    expect(RULES_TABLE.size).toBe(17);
    expect(heads.map((h) => text(queryOne(h, "button .utable-name")))).toEqual(RANKS.map((r) => `${r.name} (${String(r.number)})`));
    expect(heads.map((h) => text(queryOne(h, ".abbr")))).toEqual(RANKS.map((r) => r.abbr));
    expect([...RULES_TABLE.keys()]).toEqual(RANKS.map((r) => r.name));
  });

  it("every band of every column is the rules text's, in its colour", () => {
    const doc = render(UNIVERSAL_TABLE, "typical");
    const rows = queryAll(doc, "tbody tr");
    expect(rows.map((r) => text(queryOne(r, "th")))).toEqual(["White", "Green", "Yellow", "Red"]);
    for (const [i, color] of (["white", "green", "yellow", "red"] as const).entries()) {
      const cells = queryAll(rows[i] ?? doc, "td.utable-cell");
      expect(cells).toHaveLength(17);
      cells.forEach((cell, c) => {
        const name = RANKS[c]?.name ?? "";
        expect(text(cell), `${name} ${color}`).toBe(expectedRanges(name)[color]);
        expect(attr(cell, "class")?.split(" "), `${name} ${color}`).toContain(`color-${color}`);
        expect(attr(cell, "data-rank")).toBe(RANKS[c]?.key);
      });
    }
  });

  it("each column's bands cover 1–100 exactly once", () => {
    for (const rank of RANKS) {
      const ranges = bandRanges(UNIVERSAL_TABLE[rank.index] as ColumnBands);
      const covered = Object.values(ranges).flatMap((r) => (r ? Array.from({ length: r[1] - r[0] + 1 }, (_, k) => r[0] + k) : []));
      expect(covered, rank.name).toEqual(Array.from({ length: 100 }, (_, k) => k + 1));
    }
  });

  it("shows the table in use: a module's replacement, with an empty band as a dash", () => {
    // Every column: green 50, yellow 50 (no green results), red 100.
    const custom: UniversalTable = RANKS.map(() => ({ green: 50, yellow: 50, red: 100 }));
    const doc = render(custom, "good");
    const rows = queryAll(doc, "tbody tr");
    expect(queryAll(rows[0] ?? doc, "td").map(text)).toEqual(Array(17).fill("1–49"));
    const green = queryAll(rows[1] ?? doc, "td");
    expect(green.map(text)).toEqual(Array(17).fill("—"));
    expect(green.every((c) => attr(c, "class")?.includes("empty"))).toBe(true);
    expect(queryAll(rows[3] ?? doc, "td").map(text)).toEqual(Array(17).fill("100"));
    expect(queryAll(doc, ".utable-summary li").map(text)).toEqual(["White 1–49 (49%)", "Yellow 50–99 (50%)", "Red 100 (1%)"]);
  });

  it("refuses a table that is not a Universal Table, and a column that is not a rank", () => {
    expect(() => universalTableContext(UNIVERSAL_TABLE.slice(1), "good")).toThrow(RangeError);
    expect(() => universalTableContext(UNIVERSAL_TABLE, "mighty")).toThrow(/Unknown column "mighty"/);
  });
});

describe("the selected column", () => {
  it.each(RANKS.map((r) => [r.key] as const))("%s: only its heading, cells and roll button are highlighted; the bar names it", (key) => {
    const doc = render(UNIVERSAL_TABLE, key);
    const rank = RANKS.find((r) => r.key === key);
    expect(queryAll(doc, "th.utable-head.selected").map((h) => attr(h, "data-rank"))).toEqual([key]);
    expect(attr(queryOne(doc, `th.utable-head[data-rank="${key}"] button`), "aria-pressed")).toBe("true");
    expect(queryAll(doc, "th.utable-head button").filter((b) => attr(b, "aria-pressed") === "true")).toHaveLength(1);
    const selectedCells = queryAll(doc, "td.selected");
    expect(selectedCells).toHaveLength(5); // four bands and the roll button
    expect(new Set(selectedCells.map((c) => attr(c, "data-rank")))).toEqual(new Set([key]));
    expect(queryAll(doc, "select option").filter((o) => "selected" in o.attribs).map((o) => attr(o, "value"))).toEqual([key]);
    expect(attr(queryOne(doc, "button.utable-roll-selected"), "data-rank")).toBe(key);
    expect(text(queryOne(doc, "button.utable-roll-selected"))).toBe(`Roll on ${rank?.name ?? ""}`);
    const expected = expectedRanges(rank?.name ?? "");
    expect(queryAll(doc, ".utable-summary li").map(text)).toEqual(
      (["white", "green", "yellow", "red"] as const).map((c) => {
        const [from, to] = expected[c].split("–").map(Number);
        return `${c[0]?.toUpperCase() ?? ""}${c.slice(1)} ${expected[c]} (${String((to ?? from ?? 0) - (from ?? 0) + 1)}%)`;
      }),
    );
  });

  it("every column has a roll button naming it, and the heading selects it", () => {
    const doc = render(UNIVERSAL_TABLE, "good");
    const rolls = queryAll(doc, "tfoot button.utable-roll");
    expect(rolls.map((b) => [attr(b, "data-action"), attr(b, "data-rank"), attr(b, "aria-label")])).toEqual(RANKS.map((r) => ["caseRollColumn", r.key, `Roll on ${r.name}`]));
    expect(queryAll(doc, "th.utable-head button").map((b) => attr(b, "data-action"))).toEqual(Array(17).fill("caseSelectColumn"));
  });

  it("a stored preference that is not a rank falls back to the default column", () => {
    expect(storedColumn("amazing")).toBe("amazing");
    for (const bad of [undefined, null, "", "mighty", 30]) expect(storedColumn(bad)).toBe(DEFAULT_COLUMN);
  });
});

describe("the window's click actions", () => {
  function host(): UniversalTableHost & { selected: RankKey[]; rolled: RankKey[] } {
    const h = {
      selected: [] as RankKey[],
      rolled: [] as RankKey[],
      selectColumn: vi.fn((key: RankKey) => {
        h.selected.push(key);
        return Promise.resolve();
      }),
      rollOnColumn: vi.fn((key: RankKey) => {
        h.rolled.push(key);
        return Promise.resolve();
      }),
    };
    return h;
  }

  it("a heading selects its column; a die rolls on its column", async () => {
    const h = host();
    await UNIVERSAL_TABLE_ACTIONS.caseSelectColumn.call(h, {} as PointerEvent, fakeTarget({ action: "caseSelectColumn", rank: "monstrous" }));
    await UNIVERSAL_TABLE_ACTIONS.caseRollColumn.call(h, {} as PointerEvent, fakeTarget({ action: "caseRollColumn", rank: "shiftZ" }));
    expect(h.selected).toEqual(["monstrous"]);
    expect(h.rolled).toEqual(["shiftZ"]);
  });

  it("an element naming no rank (or a made-up one) does nothing", async () => {
    const h = host();
    await UNIVERSAL_TABLE_ACTIONS.caseSelectColumn.call(h, {} as PointerEvent, fakeTarget({ rank: "mighty" }));
    await UNIVERSAL_TABLE_ACTIONS.caseRollColumn.call(h, {} as PointerEvent, fakeTarget({}));
    expect(h.selected).toEqual([]);
    expect(h.rolled).toEqual([]);
    expect(columnOfElement(fakeTarget({ rank: "class3000" }))).toBe("class3000");
  });

  it("the window class uses these actions and this template", () => {
    const options = UniversalTableApp.DEFAULT_OPTIONS as { actions: unknown; classes: string[]; window: { title: string } };
    expect(options.actions).toBe(UNIVERSAL_TABLE_ACTIONS);
    expect(options.classes).toContain("case");
    expect(options.window.title).toBe("CASE.UniversalTable.Title");
    expect((UniversalTableApp.PARTS as Record<string, { template: string }>).table?.template).toBe(`systems/case/${UNIVERSAL_TABLE_TEMPLATE}`);
  });
});
