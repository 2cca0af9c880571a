/**
 * The rules reference journal cannot drift from the rules engine: the committed journal is
 * exactly what scripts/packs/rules-journal.ts builds from the engine's data today, and the
 * tables in it, read back from the HTML, say what the engine says (every roll of every
 * Universal Table column, every attack and defence row).
 */
import { describe, expect, it } from "vitest";
import {
  ATTACK_CODES,
  COLORS,
  DEFENCES,
  DEFENCE_CODES,
  INITIATIVE_MODIFIERS,
  RANKS,
  THROWN_RANGE_TABLE,
  attackResult,
  defencesAgainst,
  universalColor,
  type Color,
} from "../../src/rules/index";
import { RESULT_NAMES } from "../../scripts/packs/content/text";
import { RULES_JOURNAL_NAME, RULES_PACK, rulesJournal } from "../../scripts/packs/rules-journal";
import { readPack, type SourceDoc } from "../support/pack-files";

interface Page {
  name: string;
  type: string;
  text: { format: number; content: string };
}

const committed = readPack(RULES_PACK).find((f) => f.doc?.name === RULES_JOURNAL_NAME);
const journal: SourceDoc | undefined = committed?.doc;
const pages = (journal?.pages ?? []) as Page[];
const html = pages.map((p) => p.text.content).join("\n");

interface ParsedCell {
  text: string;
  color?: string;
}

/** The body rows of the table with this caption, as cells (text and colour class). */
function tableRows(caption: string): ParsedCell[][] {
  const start = html.indexOf(`<caption>${caption}</caption>`);
  if (start < 0) throw new Error(`The journal has no table "${caption}".`);
  const end = html.indexOf("</table>", start);
  const body = html.slice(html.indexOf("<tbody>", start), end);
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td(?: class="([^"]*)")?>(.*?)<\/td>/g)].map((m) => {
      const color = /color-(\w+)/.exec(m[1] ?? "")?.[1];
      return color === undefined ? { text: m[2] ?? "" } : { text: m[2] ?? "", color };
    }),
  );
}

/** "01–45" → [1, 45]; "100" → [100, 100]; "—" → empty. */
function rollBounds(text: string): [number, number] | undefined {
  if (text === "—") return undefined;
  const [from, to] = text.split("–").map(Number);
  return [from ?? Number.NaN, to ?? from ?? Number.NaN];
}

describe("the rules journal", () => {
  it("is committed in the rules pack, with text pages in HTML", () => {
    expect(journal).toBeDefined();
    expect(pages.length).toBeGreaterThanOrEqual(10);
    for (const p of pages) {
      expect(p.type).toBe("text");
      expect(p.text.format).toBe(1);
    }
  });

  it("is exactly what the generator builds from the rules engine now (run npx tsx scripts/generate-packs.ts after changing the rules)", () => {
    const [built] = rulesJournal();
    expect(journal).toEqual(built);
  });

  it("covers the turn sequence and every table of CASE-RULES", () => {
    expect(pages.map((p) => p.name)).toEqual(
      expect.arrayContaining(["The Turn", "Ranks", "The Universal Table", "Attacks", "Defences", "Damage", "Slam, Stun and Kill"]),
    );
    for (const caption of [
      "The rank ladder",
      "The Universal Table (d100)",
      "Abilities and what they are rolled for",
      "Table 22: actions and free defences by rank",
      "Table 23: initiative modifier by Intuition",
      "Attack results",
      "Attack damage and the armor that stops it",
      "Defences",
      "Minimum Agility to catch",
      "Slam, Stun and Kill checks",
      "Slam direction",
      "Table 24 and running speed (areas; one area is about 44 yards)",
    ]) {
      expect(html, caption).toContain(`<caption>${caption}</caption>`);
    }
    expect(html).toMatch(/<caption>Intensity damage \(example: an? \w+ attack, \d+\)<\/caption>/);
    const turn = pages.find((p) => p.name === "The Turn")?.text.content ?? "";
    expect([...turn.matchAll(/<li>/g)].length).toBeGreaterThanOrEqual(6);
  });

  it("colours its bands with the system's classes, inside a .case table", () => {
    expect(html).toContain('<table class="case case-rules-table">');
    for (const c of COLORS) expect(html).toContain(`class="case-band color-${c}"`);
  });

  it("the Universal Table gives, for every column and every d100 roll, the engine's colour", () => {
    const rows = tableRows("The Universal Table (d100)");
    expect(rows).toHaveLength(RANKS.length);
    rows.forEach((row, i) => {
      const rank = RANKS[i];
      if (!rank) throw new Error("Too many rows.");
      expect(row[0]?.text).toBe(`${rank.name} (${rank.abbr})`);
      const bands = row.slice(1, 5);
      expect(bands.map((b) => b.color)).toEqual([...COLORS]);
      for (let roll = 1; roll <= 100; roll++) {
        const holding = bands.filter((b) => {
          const bounds = rollBounds(b.text);
          return bounds !== undefined && roll >= bounds[0] && roll <= bounds[1];
        });
        expect(holding.map((b) => b.color), `${rank.name}, roll ${roll}`).toEqual([universalColor(rank.number, roll)]);
      }
    });
  });

  it("the rank ladder, Table 23 and Table 24 match the engine row by row", () => {
    const ladder = tableRows("The rank ladder");
    expect(ladder.map((r) => [r[0]?.text, r[1]?.text, Number(r[2]?.text)])).toEqual(RANKS.map((r) => [r.name, r.abbr, r.number]));
    const t23 = tableRows("Table 23: initiative modifier by Intuition");
    expect(t23.map((r) => Number((r[1]?.text ?? "").replace("\u2212", "-")))).toEqual(RANKS.map((r) => INITIATIVE_MODIFIERS[r.key]));
    const t24 = tableRows("Table 24 and running speed (areas; one area is about 44 yards)");
    expect(t24.map((r) => (r[1]?.text === "Line of sight" ? "sight" : Number(r[1]?.text)))).toEqual(RANKS.map((r) => THROWN_RANGE_TABLE[r.key]));
  });

  it("every attack row gives the engine's result for each colour", () => {
    const rows = tableRows("Attack results");
    expect(rows.map((r) => r[0]?.text)).toEqual([...ATTACK_CODES]);
    for (const row of rows) {
      const code = ATTACK_CODES.find((c) => c === row[0]?.text);
      if (!code) throw new Error(`Unknown attack row ${String(row[0]?.text)}.`);
      const cells = row.filter((c) => c.color !== undefined);
      expect(cells.map((c) => c.color)).toEqual([...COLORS]);
      cells.forEach((c) => {
        expect(c.text, `${code} ${String(c.color)}`).toBe(RESULT_NAMES[attackResult(code, c.color as Color)]);
      });
    }
  });

  it("every defence row lists exactly the attacks the engine lets it defend against", () => {
    const rows = tableRows("Defences");
    expect(rows.map((r) => r[0]?.text)).toEqual(DEFENCE_CODES.map((d) => DEFENCES[d].name));
    rows.forEach((row, i) => {
      const code = DEFENCE_CODES[i];
      if (!code) throw new Error("Too many defence rows.");
      const against = (row[row.length - 1]?.text ?? "").split(", ");
      const attacks = against.filter((a) => (ATTACK_CODES as readonly string[]).includes(a));
      expect(attacks, DEFENCES[code].name).toEqual(ATTACK_CODES.filter((a) => defencesAgainst(a).includes(code)));
    });
  });
});
