/**
 * No stale path in comments: every path a comment names in src/, test/, scripts/, templates/
 * and styles/ (a root-relative `src/…`, `test/…`, `templates/…`, or a `./`/`../` path beside
 * the file) names a file or folder that exists. A comment that points at a file that moved
 * sends the next reader to the wrong room.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["src", "test", "scripts", "templates", "styles"];
/** This file: its examples name stale paths on purpose. */
const SELF = join("test", "comment-paths.test.ts");
/** Paths that are examples or outputs, not references: generated artifacts and placeholder names. */
const NOT_REFERENCES = [/^test\/artifacts\//, /_xxxx\.json$/, /\/X\.json$/, /^\.\/x\.mjs$/];

/** The comments of a source text: block and line comments, and Handlebars' {{!-- --}}. */
export function commentsOf(text: string): string[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*|\{\{!--[\s\S]*?--\}\}/g)].map((m) => m[0]);
}

const PATH = /(?<![\w@/.-])((?:\.\.?\/)+[\w.-]+(?:\/[\w.-]+)*|(?:src|test|templates|scripts|styles|lang|packs|docs)\/[\w.-]+(?:\/[\w.-]+)*\/?)/g;

/** The paths a comment names, without those of another repository ("Owner/Repo src/x.ts"). */
export function pathsIn(comment: string): string[] {
  const found: string[] = [];
  for (const m of comment.matchAll(PATH)) {
    const before = comment.slice(Math.max(0, m.index - 60), m.index);
    if (/[\w-]+\/[\w.-]+\s+$/.test(before)) continue;
    found.push((m[1] ?? "").replace(/[.,;:)]+$/, ""));
  }
  return found.filter((p) => !NOT_REFERENCES.some((re) => re.test(p)));
}

/** Whether a path from `file`'s comment names something that exists (an import-style path may leave out `.ts`). */
function exists(file: string, path: string): boolean {
  const bases = path.startsWith(".") ? [normalize(join(dirname(file), path)), normalize(path)] : [path];
  return bases.some((b) => ["", ".ts", "/index.ts"].some((ext) => existsSync(b + ext)));
}

describe("no stale path in comments", () => {
  it("every path a comment names exists", () => {
    const files = ROOTS.flatMap((d) => readdirSync(d, { recursive: true, encoding: "utf8" }).map((f) => join(d, f))).filter((f) => /\.(ts|mjs|hbs|css)$/.test(f) && f !== SELF);
    const stale = files.flatMap((file) => commentsOf(readFileSync(file, "utf8")).flatMap((c) => pathsIn(c).filter((p) => !exists(file, p)).map((p) => `${file}: ${p}`)));
    expect(stale).toEqual([]);
  });

  it("the finder reads both comment forms, skips another repository's paths, and finds a stale one", () => {
    const text = '// see src/foundry/nowhere.ts\n/* and ../requests/router.ts */ const url = "http://x/src/a.ts";\n{{!-- templates/chat/gone.hbs --}}\n// public Ethaks/FVTT-Quench src/module/quench.ts';
    expect(commentsOf(text).flatMap(pathsIn)).toEqual(["src/foundry/nowhere.ts", "../requests/router.ts", "templates/chat/gone.hbs"]);
    expect(exists("src/foundry/combat/queries.ts", "../requests/router.ts")).toBe(true);
    expect(exists("src/foundry/combat/queries.ts", "src/foundry/nowhere.ts")).toBe(false);
  });
});
