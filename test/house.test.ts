/**
 * The house stays as the README's architecture section draws it: no file in src over 500 lines
 * (both layers); src/rules keeps no module state; test/foundry mirrors src/foundry's folders; in src/foundry, the folders (and top-level files) import each other without a
 * loop, so every import points down a floor; every stylesheet's blocks close, with no style rule
 * nested in another (a lost brace silently nests every later rule, and Chromium then matches
 * none of them); and no HTML markup is built in TypeScript (dialogs
 * and cards are Handlebars templates). Read from the source text, as a newcomer would.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleStateFaults, moduleStateFaultsOfText } from "../test/support/module-state";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** The relative imports of a TypeScript file, resolved to repository paths (a folder's index included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
    const spec = m[1] ?? "";
    const base = normalize(join(dirname(file), spec));
    for (const candidate of [`${base}.ts`, base, join(base, "index.ts")]) {
      try {
        if (statSync(candidate).isFile()) {
          out.push(candidate);
          break;
        }
      } catch {
        // not this candidate
      }
    }
  }
  return out;
}

/** The room a file of src/foundry lives in: its first folder, or the file itself at the top. */
function roomOf(file: string): string {
  return relative(join("src", "foundry"), file).split(sep)[0] ?? file;
}

/** The loops in a directed graph (each loop as the rooms in it); none when every arrow points down. */
function loops(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * Where a stylesheet's blocks go wrong: a `}` with nothing open, a style rule opened inside
 * another style rule (only @-rules such as @media may hold rules), or blocks left open at the end.
 */
function cssNestingFaults(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const open: boolean[] = [];
  const faults: string[] = [];
  let head = "";
  let line = 1;
  for (const ch of text) {
    if (ch === "\n") line++;
    if (ch === "{") {
      const selector = head.split(";").at(-1)?.trim() ?? "";
      const isAtRule = selector.startsWith("@");
      if (open.length > 0 && open.at(-1) === false) faults.push(`line ${String(line)}: "${selector.slice(0, 60)}" is nested in a style rule`);
      open.push(isAtRule);
      head = "";
    } else if (ch === "}") {
      if (open.pop() === undefined) faults.push(`line ${String(line)}: a "}" closes nothing`);
      head = "";
    } else head += ch;
  }
  if (open.length > 0) faults.push(`${String(open.length)} block(s) left open at the end`);
  return faults;
}

/** The most lines a file of src may have (a longer one is split by purpose). */
const MAX_FILE_LINES = 500;

/** A text's lines: its newlines, and one more for a last line without one. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? testFilesUnder(path) : path.endsWith(".test.ts") ? [path] : [];
  });
}

/** Top-level tests of test/foundry named after no file of src/foundry, each with why it is there. */
const TOP_LEVEL_TESTS: Readonly<Record<string, string>> = {
  "handlebars-harness.test.ts": "tests the template harness (test/support/handlebars.ts) every template test renders through",
};

/**
 * Where tests of src/foundry do not mirror it: a test in a folder (`dir/x.test.ts`, paths relative
 * to test/foundry) must sit in a folder src/foundry has, or in whole-fight/ (the whole-table
 * tests); a top-level test must be named after a top-level file of src/foundry (`name.test.ts` or
 * `name-aspect.test.ts` for `name.ts`) or be listed in {@link TOP_LEVEL_TESTS}.
 */
function mirrorFaults(tests: readonly string[], srcHasDir: (dir: string) => boolean, srcHasFile: (name: string) => boolean): string[] {
  const faults: string[] = [];
  for (const test of tests) {
    const parts = test.split(sep).join("/").split("/");
    const name = parts.pop() ?? "";
    if (parts.length > 0) {
      if (parts[0] === "whole-fight") continue;
      if (!srcHasDir(parts.join(sep))) faults.push(`${test}: no folder src/foundry/${parts.join("/")}`);
      continue;
    }
    if (name in TOP_LEVEL_TESTS) continue;
    const words = name.replace(/\.test\.ts$/, "").split("-");
    const named = words.some((_, i) => srcHasFile(`${words.slice(0, i + 1).join("-")}.ts`));
    if (!named) faults.push(`${test}: named after no file of src/foundry (and not listed in TOP_LEVEL_TESTS)`);
  }
  return faults;
}

/**
 * Where src/foundry writes a refusal's text itself: a QueryRefusal made with a literal message
 * (quoted or a template literal). A refusal names its text by key (QueryRefusal.keyed) or is
 * made from a rules error (QueryRefusal.of) or from en.json's text.
 */
function literalRefusalFaults(file: string, text: string): string[] {
  const faults: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (/new QueryRefusal\(\s*[^,()]+,\s*[`"']/.test(line)) faults.push(`${file}:${String(i + 1)}`);
  });
  return faults;
}

describe("the house", () => {
  it("no file over 500 lines in src (the rules and the adapters): a long file is split by purpose", () => {
    const long = filesUnder("src")
      .map((file) => ({ file, lines: lineCount(readFileSync(file, "utf8")) }))
      .filter((f) => f.lines > MAX_FILE_LINES);
    expect(filesUnder("src").length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it("no file over 500 lines: the count is the file's lines, a last line without its newline included", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("x\n".repeat(MAX_FILE_LINES + 1)) > MAX_FILE_LINES).toBe(true);
  });

  it("tests mirror source: each test of src/foundry lives in the folder of what it tests, or in whole-fight/", () => {
    const tests = testFilesUnder(join("test", "foundry")).map((f) => relative(join("test", "foundry"), f));
    expect(tests.length).toBeGreaterThan(50);
    expect(mirrorFaults(tests, (dir) => isDirectory(join("src", "foundry", dir)), (name) => isFile(join("src", "foundry", name)))).toEqual([]);
  });

  it("tests mirror source: the check finds a test in a folder src/foundry lacks, and a top-level test named after no file", () => {
    const dirs = new Set(["apps", "apps/sheet", "combat"]);
    const files = new Set(["karma-pool.ts"]);
    const faults = mirrorFaults(
      ["apps/sheet/x.test.ts", "whole-fight/y.test.ts", "karma-pool.test.ts", "karma-pool-draw.test.ts", "handlebars-harness.test.ts", "sheets/z.test.ts", "apps/shet/w.test.ts", "pool.test.ts"],
      (d) => dirs.has(d.split(sep).join("/")),
      (f) => files.has(f),
    );
    expect(faults).toEqual(["sheets/z.test.ts: no folder src/foundry/sheets", "apps/shet/w.test.ts: no folder src/foundry/apps/shet", "pool.test.ts: named after no file of src/foundry (and not listed in TOP_LEVEL_TESTS)"]);
  });

  it("src/foundry's folders import each other without a loop: every arrow points down a floor", () => {
    const edges = new Map<string, Set<string>>();
    for (const file of filesUnder(join("src", "foundry"))) {
      const from = roomOf(file);
      const set = edges.get(from) ?? new Set<string>();
      edges.set(from, set);
      for (const target of importsOf(file)) {
        if (!target.startsWith(join("src", "foundry") + sep)) continue;
        const to = roomOf(target);
        if (to !== from) set.add(to);
      }
    }
    expect(edges.size).toBeGreaterThan(10);
    expect(loops(edges)).toEqual([]);
  });

  it("every stylesheet's blocks close, and no style rule is nested in another", () => {
    const faults = readdirSync("styles")
      .filter((f) => f.endsWith(".css"))
      .flatMap((f) => cssNestingFaults(readFileSync(join("styles", f), "utf8")).map((fault) => `styles/${f} ${fault}`));
    expect(faults).toEqual([]);
  });

  it("the stylesheet check finds a lost brace and a stray one (so the check above can fail)", () => {
    expect(cssNestingFaults(".a { color: red; }\n@media (width < 720px) { .b { color: blue; } }")).toEqual([]);
    expect(cssNestingFaults(".a { color: red;\n.b { color: blue; }\n")).toEqual(['line 2: ".b" is nested in a style rule', "1 block(s) left open at the end"]);
    expect(cssNestingFaults(".a { color: red; } }")).toEqual(['line 1: a "}" closes nothing']);
  });

  it("the loop finder finds a loop (so the check above can fail)", () => {
    expect(loops(new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])], ["d", new Set(["a"])]]))).toEqual([["a", "b", "c"]]);
  });

  it("no HTML markup is built in TypeScript: dialogs and cards are templates", () => {
    const markup = /<(div|p|span|input|label|button|form|section|ul|li|table|select|textarea)[\s>]/;
    const offenders = filesUnder("src").flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter((l) => !l.text.startsWith("*") && !l.text.startsWith("//") && !l.text.startsWith("/*") && markup.test(l.text)),
    );
    expect(offenders).toEqual([]);
  });

  it("no module state in rules: no module-level let, and no module-level table is written (a WeakMap keyed by what it caches may be)", () => {
    expect(moduleStateFaults(filesUnder(join("src", "rules")))).toEqual([]);
  }, 30_000);

  it("no module state in rules: the finder finds a let, a written table (directly, through a part, through a local name), a static field and a global regex's exec, and passes frozen or read-only tables and a WeakMap", () => {
    const text = [
      "let memo: number | null = null;",
      "const settled = { cursor: 0 };",
      "const counts = new Int32Array(11);",
      "const lists = [new Int32Array(0)];",
      "const words = new Set<string>();",
      "const pattern = /x/g;",
      "const FROZEN = Object.freeze({ a: 1 });",
      "const READ: ReadonlyMap<string, number> = new Map([[\"a\", 1]]);",
      "const seen = new WeakSet<object>();",
      "class Cache { static last = 0; static readonly KIND = \"k\"; }",
      "export function f(o: object, n: number): number {",
      "  settled.cursor = n;",
      "  const c = counts;",
      "  c.fill(0);",
      "  lists[0] = new Int32Array(n);",
      "  seen.add(o);",
      "  if (pattern.exec(\"x\")) words.add(\"x\");",
      "  return FROZEN.a + (READ.get(\"a\") ?? 0) + (memo ?? 0) + Cache.last + Cache.KIND.length;",
      "}",
    ].join("\n");
    expect(moduleStateFaultsOfText("virtual/state.ts", text)).toEqual([
      'virtual/state.ts:1: module-level let "memo"',
      'virtual/state.ts:10: static field "last" of class Cache',
      'virtual/state.ts:12: module-level "settled" is written',
      'virtual/state.ts:14: module-level "counts" is written (through "c")',
      'virtual/state.ts:15: module-level "lists" is written',
      'virtual/state.ts:17: module-level "pattern" is written',
      'virtual/state.ts:17: module-level "words" is written',
    ]);
  });

  /** An error written in English where the rules' keyed errors belong (src/rules/errors.ts): the faults of one file's text. */
  function unkeyedErrorFaults(file: string, text: string): string[] {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/\/\/.*$/gm, "");
    const faults: string[] = [];
    code.split("\n").forEach((line, i) => {
      for (const m of line.matchAll(/new (RangeError|TypeError|Error)\(\s*(["'`]?)(unreachable)?/g)) {
        if (m[1] !== "Error" || m[2] === "" || m[3] === undefined) faults.push(`${file}:${String(i + 1)}: new ${m[1] ?? ""}(`);
      }
      // A string there may be a key (a bare camelCase name); anything else is a message written in English.
      for (const m of line.matchAll(/(new (?:ExchangeError|RollRequestError|TurnError)\(\s*[^,()]+,|\binvalid\()\s*(["'`])(.*?)\2/g)) {
        if (!/^[a-z][A-Za-z0-9]*$/.test(m[3] ?? "")) faults.push(`${file}:${String(i + 1)}: a message written in ${(m[1] ?? "").replace(/\(.*$/, "")}(`);
      }
    });
    return faults;
  }

  it("rules errors localised: every error the rules throw names its text by a key (no English message of its own)", () => {
    const files = filesUnder(join("src", "rules")).filter((f) => f !== join("src", "rules", "errors.ts"));
    expect(files.length).toBeGreaterThan(60);
    expect(files.flatMap((f) => unkeyedErrorFaults(f, readFileSync(f, "utf8")))).toEqual([]);
  });

  it("the keyed-error check finds English messages (so the check above can fail)", () => {
    const text = [
      'throw new RangeError(`Bad ${x}.`);',
      'throw new TypeError("Not a number.");',
      'throw new Error("The table is broken.");',
      'throw new Error("unreachable: the die has 100 faces");',
      '// throw new RangeError("in a comment");',
      'throw new RulesRangeError("notWhole", { field: "d10", got: "x" });',
      'throw new TurnError("notYourTurn", `Not your turn.`);',
      'throw new ExchangeError("stale", "exchangeNotWaiting", { id: "a" });',
      'return invalid("No target.");',
      'return invalid("requestNoTarget");',
    ].join("\n");
    expect(unkeyedErrorFaults("virtual/errors.ts", text)).toEqual([
      "virtual/errors.ts:1: new RangeError(",
      "virtual/errors.ts:2: new TypeError(",
      "virtual/errors.ts:3: new Error(",
      "virtual/errors.ts:7: a message written in new TurnError(",
      "virtual/errors.ts:9: a message written in invalid(",
    ]);
  });

  it("refusals localised: no QueryRefusal in src/foundry is made with a literal English message", () => {
    expect(filesUnder(join("src", "foundry")).flatMap((f) => literalRefusalFaults(f, readFileSync(f, "utf8")))).toEqual([]);
  });

  it("refusals localised: the check finds a quoted or template message, and passes keys and localised texts", () => {
    const text = [
      'throw new QueryRefusal("stale", "That combat no longer exists.");',
      "throw new QueryRefusal(\"malformed\", '\"on\" must be true or false.');",
      'throw new QueryRefusal("forbidden", `${name} is not yours.`);',
      'throw QueryRefusal.keyed("forbidden", "judgeRunsTurn");',
      'throw new QueryRefusal("stale", game.i18n.localize("CASE.Turn.CombatantGone"));',
      "throw QueryRefusal.of(\"malformed\", error);",
    ].join("\n");
    expect(literalRefusalFaults("f.ts", text)).toEqual(["f.ts:1", "f.ts:2", "f.ts:3"]);
  });
});
