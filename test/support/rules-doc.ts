/**
 * Reads the rules specification (CASE-RULES.md) so tests can check the engine against the
 * document itself, cell by cell, instead of against a hand copy of a table.
 *
 * The committed copy lives in test/fixtures/; test/rules/rules-doc.test.ts checks that it is
 * identical to ../shared/rules/CASE-RULES.md whenever that file is present.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
