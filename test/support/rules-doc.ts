/**
 * Reads the rules specification (CASE-RULES.md) so tests can check the engine against the
 * document itself, cell by cell, instead of against a hand copy of a table.
 *
 * The committed copy lives in test/fixtures/; test/rules/rules-doc.test.ts checks that it is
 * identical to ../shared/rules/CASE-RULES.md whenever that file is present.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AttackResult } from "../../src/rules/index";

export const RULES_DOC_PATH = fileURLToPath(new URL("../fixtures/CASE-RULES.md", import.meta.url));
export const SHARED_RULES_DOC_PATH = fileURLToPath(new URL("../../../shared/rules/CASE-RULES.md", import.meta.url));

let cached: string | undefined;

/** The whole text of CASE-RULES.md. */
export function rulesDoc(): string {
  cached ??= readFileSync(RULES_DOC_PATH, "utf8");
  return cached;
}

/** The text of section `n` ("## n. Title") up to the next "## " heading. */
export function rulesSection(n: number): string {
  const text = rulesDoc();
  const start = text.search(new RegExp(`^## ${n}\\. `, "m"));
  if (start < 0) throw new Error(`CASE-RULES.md has no section ${n}.`);
  const rest = text.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** A markdown table: its header cells and its body rows (cells trimmed). */
export interface MdTable {
  header: string[];
  rows: string[][];
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Every markdown table in `text`, in order. */
export function markdownTables(text: string): MdTable[] {
  const tables: MdTable[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const next = lines[i + 1] ?? "";
    if (line.trim().startsWith("|") && /^\s*\|[\s:|-]+\|\s*$/.test(next)) {
      const header = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && (lines[i] ?? "").trim().startsWith("|")) {
        rows.push(cells(lines[i] ?? ""));
        i++;
      }
      tables.push({ header, rows });
    }
  }
  return tables;
}

/** The first table of section `n` whose header includes every one of `columns`. */
export function rulesTable(n: number, ...columns: string[]): MdTable {
  const table = markdownTables(rulesSection(n)).find((t) => columns.every((c) => t.header.includes(c)));
  if (!table) throw new Error(`CASE-RULES.md §${n} has no table with columns ${columns.join(", ")}.`);
  return table;
}

/** Rows of a table as objects keyed by header cell. */
export function tableRecords(table: MdTable): Record<string, string>[] {
  return table.rows.map((row) => Object.fromEntries(table.header.map((h, i) => [h, row[i] ?? ""])));
}

/** Parses a signed number written with a typographic minus ("−3", "+2", "0"). */
export function signedNumber(text: string): number {
  const n = Number(text.trim().replace(/[−–]/g, "-").replace(/^\+/, ""));
  if (!Number.isFinite(n)) throw new Error(`Not a number in the rules text: "${text}".`);
  return n;
}

/** Escapes `text` for use inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The rank names of the §1 ladder table, lowest first, as the document spells them. */
export function docRankNames(): string[] {
  return tableRecords(rulesTable(1, "rank", "number")).map((r) => r["rank"] ?? "");
}

/**
 * Every "<rank name> <value>" pair of a prose list in `text` (e.g. Table 23's "Feeble −2,
 * Poor −1, …" or §9's "Good 2, … Class 5000 line of sight"), in order of appearance. Rank
 * names are the §1 table's; `valuePattern` is the regex source for one value.
 */
export function rankValueList(text: string, valuePattern: string): { rank: string; value: string }[] {
  const names = [...docRankNames()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const re = new RegExp(`(?<![\\w])(${names.join("|")})\\s+(${valuePattern})(?![\\w])`, "g");
  return [...text.matchAll(re)].map((m) => ({ rank: m[1] ?? "", value: m[2] ?? "" }));
}

// ---------------------------------------------------------------------------------------------
// Added for the attack-exchange tests: the ladder (§1), the Universal Table (§2) and the
// Table 24 ranges (§9) as the DOCUMENT gives them, so a test can choose dice for a wanted colour
// and compute expected values without asking the engine.
// ---------------------------------------------------------------------------------------------

/** A colour name as the document orders them: white < green < yellow < red. */
export type DocColor = "white" | "green" | "yellow" | "red";

/** The four colours in the document's order (§2: "white < green < yellow < red"). */
export const DOC_COLORS: readonly DocColor[] = ["white", "green", "yellow", "red"];

/** One rung of the §1 ladder as the document writes it. */
export interface DocLadderRank {
  readonly index: number;
  readonly name: string;
  readonly number: number;
  readonly min: number;
  readonly max: number;
}

let ladderCache: DocLadderRank[] | undefined;

/** The §1 ladder, lowest first, read from the document's table. */
export function docLadder(): DocLadderRank[] {
  ladderCache ??= tableRecords(rulesTable(1, "rank", "number", "range")).map((row) => {
    const m = /^(\d+)(?:–(\d+)|(\+))?$/.exec(row["range"] ?? "");
    if (!m) throw new Error(`Cannot read rank range "${row["range"] ?? ""}".`);
    const min = Number(m[1]);
    const max = m[3] ? Number.POSITIVE_INFINITY : m[2] ? Number(m[2]) : min;
    return { index: Number(row["#"]), name: row["rank"] ?? "", number: Number(row["number"]), min, max };
  });
  return ladderCache;
}

/** The §1 rank whose range holds `value`. */
export function docRankOf(value: number): DocLadderRank {
  const r = docLadder().find((x) => value >= x.min && value <= x.max);
  if (!r) throw new Error(`No rank in CASE-RULES §1 holds ${value}.`);
  return r;
}

/** The §1 rank at ladder position `index`, clamped to the ladder (§1: "A shifted column never goes below Shift 0 or above Class 5000"). */
export function docRankAt(index: number): DocLadderRank {
  const ladder = docLadder();
  const r = ladder[Math.min(ladder.length - 1, Math.max(0, index))];
  if (!r) throw new Error(`No rank at ladder position ${index}.`);
  return r;
}

/** The §1 rank with this name (as the document spells it). */
export function docRankNamed(name: string): DocLadderRank {
  const r = docLadder().find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!r) throw new Error(`CASE-RULES §1 has no rank named "${name}".`);
  return r;
}

/** Lowest roll of each band of one §2 column. */
export interface DocBands {
  readonly green: number;
  readonly yellow: number;
  readonly red: number;
}

let bandsCache: Record<string, string>[] | undefined;

/** The §2 bands of the column at ladder position `index` (the column named like the §1 rank). */
export function docBands(index: number): DocBands {
  const name = docRankAt(index).name;
  bandsCache ??= tableRecords(rulesTable(2, "column", "green from", "yellow from", "red from"));
  const row = bandsCache.find((r) => r["column"] === name);
  if (!row) throw new Error(`CASE-RULES §2 has no column ${name}.`);
  return { green: Number(row["green from"]), yellow: Number(row["yellow from"]), red: Number(row["red from"]) };
}

/** The colour a d100 `roll` gives on the §2 column at ladder position `index`. */
export function docColorOn(index: number, roll: number): DocColor {
  const b = docBands(index);
  if (roll >= b.red) return "red";
  if (roll >= b.yellow) return "yellow";
  if (roll >= b.green) return "green";
  return "white";
}

/** Every d100 roll (1–100) that gives `color` on the §2 column at `index`; empty when the band is empty. */
export function docRollsFor(index: number, color: DocColor): number[] {
  const rolls: number[] = [];
  for (let roll = 1; roll <= 100; roll++) if (docColorOn(index, roll) === color) rolls.push(roll);
  return rolls;
}

/** The lowest and highest d100 roll giving `color` on the column at `index` (the band's two edges). */
export function docRollEdges(index: number, color: DocColor): [number, number] {
  const rolls = docRollsFor(index, color);
  const first = rolls[0];
  const last = rolls[rolls.length - 1];
  if (first === undefined || last === undefined) throw new Error(`No roll gives ${color} on the ${docRankAt(index).name} column.`);
  return [first, last];
}

/** A d100 roll giving `color` on the column at `index` (the band's lowest). */
export function docRollFor(index: number, color: DocColor): number {
  return docRollEdges(index, color)[0];
}

/** §9 Table 24: the thrown range for a Strength rank number, as the document lists it (a number of areas or "line of sight"). */
export function docThrownRange(strength: number): number | "line of sight" {
  const rank = docRankOf(strength);
  const hit = rankValueList(rulesSection(9).replace(/\s+/g, " "), "\\d+|line of sight").find((p) => p.rank === rank.name);
  if (!hit) throw new Error(`Table 24 (§9) has no entry for ${rank.name}.`);
  return hit.value === "line of sight" ? "line of sight" : Number(hit.value);
}

/** The rules document's words for attack results (§5) → the engine's result names. */
export const RESULT_WORDS: Readonly<Record<string, AttackResult>> = {
  Miss: "miss",
  Hit: "hit",
  Slam: "slam",
  Stun: "stun",
  Kill: "kill",
  Bullseye: "bullseye",
  Take: "take",
  Grab: "grab",
  Break: "break",
  "Partial Hold": "partialHold",
  "Full Hold": "fullHold",
};
