/**
 * The rules reference journal cannot drift from the rules engine: the committed journal is
 * exactly what scripts/packs/rules-journal.ts builds from the engine's data today, and the
 * tables in it, read back from the HTML, say what the engine says (every roll of every
 * Universal Table column, every attack and defence row).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as rules from "../../src/rules/index";
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
import { campaignRulingPages, showValue, type RulingValue } from "../../scripts/packs/rulings-journal";
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

/** The src/rules modules of the campaign rulings and the seed rules the journal follows. */
const RULING_MODULES = ["recovery", "karma", "feats", "creation", "minor-foes", "areas", "first-aid", "impacts", "collisions", "combat-results", "power-rulings", "fight-log", "follow-ups"];

/** Every exported constant whose doc comment marks it `[RULING]` in those modules, read from the source. */
function rulingConstants(): string[] {
  const names: string[] = [];
  for (const m of RULING_MODULES) {
    const source = readFileSync(new URL(`../../src/rules/${m}.ts`, import.meta.url), "utf8");
    for (const match of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*export const (\w+)/g)) {
      if ((match[1] ?? "").includes("[RULING]") && match[2]) names.push(match[2]);
    }
  }
  return names;
}

const engine = new Map<string, unknown>(Object.entries(rules));

describe("journal page per ruling", () => {
  it("journal page per ruling: the committed journal has a page for each campaign ruling and each new seed rule", () => {
    expect(pages.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        "Rulings: Rest and Recovery",
        "Rulings: Advancement Costs",
        "Rulings: Resources and Popularity",
        "Rulings: Creating a Hero",
        "Rulings: Minor Foes",
        "Rulings: Area Attacks",
        "Rulings: First Aid",
        "Rulings: Falls and Impacts",
        "Rulings: Other Combat Results",
        "Rulings: Powers, Stunts and Karma",
      ]),
    );
  });

  it("journal page per ruling: every [RULING] constant of those modules has a row whose value is the one the engine reads", () => {
    const constants = rulingConstants();
    expect(constants.length).toBeGreaterThanOrEqual(50);
    const entries = new Map(campaignRulingPages().flatMap((p) => p.entries.map((e) => [e.constant, { page: p.name, entry: e }] as const)));
    for (const name of constants) {
      const found = entries.get(name);
      expect(found, `${name} has no row in the rules journal`).toBeDefined();
      if (!found) continue;
      expect(engine.has(name), `${name} is not exported by src/rules`).toBe(true);
      expect(found.entry.value, name).toEqual(engine.get(name));
      // The committed page (what Foundry shows) carries the engine's value in the constant's row.
      const page = pages.find((p) => p.name === found.page)?.text.content ?? "";
      const row = page.split("<tr>").find((r) => r.includes(`<td><code>${name}</code></td></tr>`)) ?? "";
      const cells = [...row.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]);
      expect(cells[1], `${name} on "${found.page}"`).toBe(showValue(engine.get(name) as RulingValue));
    }
  });

  it("journal page per ruling: the values read as the engine's (a few by hand)", () => {
    const value = (name: string): string | undefined => new RegExp(`<td>([^<]*)</td><td><code>${name}</code>`).exec(html)?.[1];
    expect(value("IMPACT_DAMAGE_LIMIT")).toBe("500");
    expect(value("POWER_STUNT_KARMA_COST")).toBe("100");
    expect(value("AREA_FALLOFF_CS_PER_AREA")).toBe("\u22121");
    expect(value("RANDOM_RANK_TABLE")).toMatch(/^01–05 Feeble, 06–10 Poor, .*97–100 Amazing$/);
    expect(value("KARMA_ON_DEFENCE")).toBe("yes");
    expect(value("BYSTANDER_MAY_DEFEND")).toBe("no");
  });
});
