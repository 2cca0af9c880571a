/**
 * How scripts/build-size.ts weighs a build, on a small one written here: every JavaScript file
 * counts, whether it loads with the system (an esmodule and what it imports statically) or on
 * first use (reached only through `import()`), and a file system.json names or a module
 * imports that is missing is an error. The real build's weight is held in test/build.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { measureBuild, moduleImports, sizeLine } from "../scripts/build-size";

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function writeBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "case-size-"));
  scratch.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const SYSTEM = JSON.stringify({ esmodules: ["case.mjs"], styles: ["styles/case.css"], languages: [{ lang: "en", path: "lang/en.json" }] });
const ENTRY = 'import{a as b}from"./chunks/core.mjs";Hooks.once(`init`,()=>b(()=>import("./chunks/builder.mjs")));';
const CORE = 'import"./shared.mjs";export const a=(f)=>f;';
const SHARED = "export{};globalThis.shared=1;";
const BUILDER = 'import{a}from"./core.mjs";export const open=()=>a(1);';

describe("measureBuild", () => {
  it("counts every JS file, and loads with the system only the esmodules and their static imports", () => {
    const dir = writeBuild({
      "system.json": SYSTEM,
      "case.mjs": ENTRY,
      "chunks/core.mjs": CORE,
      "chunks/shared.mjs": SHARED,
      "chunks/builder.mjs": BUILDER,
      "chunks/builder.mjs.map": "{}",
      "styles/case.css": ".a{color:red}",
      "lang/en.json": '{"CASE":{}}',
      "templates/chat/card.hbs": "<p>{{x}}</p>",
    });
    const size = measureBuild(dir);
    const js = Object.fromEntries(size.files.filter((f) => f.group === "js").map((f) => [f.path, f.atLoad]));
    expect(js).toEqual({ "case.mjs": true, "chunks/core.mjs": true, "chunks/shared.mjs": true, "chunks/builder.mjs": false });
    const gz = (text: string): number => gzipSync(Buffer.from(text)).length;
    expect(size.groups.js).toEqual({ raw: ENTRY.length + CORE.length + SHARED.length + BUILDER.length, gzip: gz(ENTRY) + gz(CORE) + gz(SHARED) + gz(BUILDER), count: 4 });
    expect(size.jsAtLoad).toEqual({ raw: ENTRY.length + CORE.length + SHARED.length, gzip: gz(ENTRY) + gz(CORE) + gz(SHARED), count: 3 });
    expect(size.groups.templates.count).toBe(1);
    expect(size.gzip).toBe(size.groups.js.gzip + size.groups.css.gzip + size.groups.templates.gzip + size.groups.lang.gzip);
    expect(sizeLine(size)).toContain(`on first use ${(gz(BUILDER) / 1000).toFixed(1)} kB`);
  });

  it("refuses a build whose module imports a file that is not there", () => {
    const dir = writeBuild({ "system.json": SYSTEM, "case.mjs": ENTRY, "chunks/core.mjs": CORE, "styles/case.css": "", "lang/en.json": "{}" });
    expect(() => measureBuild(dir)).toThrow(/chunks\/shared\.mjs is named by system\.json or imported, but is not in/);
  });
});

describe("moduleImports", () => {
  it("finds import and export … from (static) and import() with a written path (dynamic), relative to the importing file", () => {
    const code = 'import{x}from"../core.mjs";import"./side.mjs";export*from"./all.mjs";export{y}from"./y.mjs";const z=()=>import(`./lazy.mjs`),w=(n)=>import(n);import"vite";';
    expect(moduleImports(code, "chunks/a/b.mjs")).toEqual({ static: ["chunks/core.mjs", "chunks/a/side.mjs", "chunks/a/all.mjs", "chunks/a/y.mjs"], dynamic: ["chunks/a/lazy.mjs"] });
    expect(moduleImports('import"./side.mjs";import("./chunks/x.mjs");', "case.mjs")).toEqual({ static: ["side.mjs"], dynamic: ["chunks/x.mjs"] });
  });

  it("refuses a path that leaves the build", () => {
    expect(() => moduleImports('import"../../x.mjs";', "chunks/a.mjs")).toThrow(/points outside the build/);
  });
});
