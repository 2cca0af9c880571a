/**
 * The installable build: `vite build` into a temporary folder, then what Foundry will load
 * from it. Every file system.json names (the module, styles, languages) is there; every
 * template path the code renders is there; and the classes Foundry finds by name (Roll
 * classes are rebuilt from chat messages with Roll.fromData by class name) keep their names.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";

let out = "";

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "case-build-"));
  await build({ configFile: "vite.config.ts", logLevel: "silent", build: { outDir: out, emptyOutDir: true } });
}, 120_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

interface Manifest {
  esmodules: string[];
  styles: string[];
  languages: { path: string }[];
}

describe("the build in dist/", () => {
  it("has every file system.json names", () => {
    const manifest = JSON.parse(readFileSync(join(out, "system.json"), "utf8")) as Manifest;
    const files = [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)];
    expect(files.filter((f) => !existsSync(join(out, f)))).toEqual([]);
    expect(manifest.esmodules).toEqual(["case.mjs"]);
  });

  it("has every template the code renders", () => {
    const bundle = readFileSync(join(out, "case.mjs"), "utf8");
    const paths = new Set([...bundle.matchAll(/templates\/[\w/.-]+\.hbs/g)].map((m) => m[0]));
    expect(paths.size).toBeGreaterThan(10);
    expect([...paths].filter((p) => !existsSync(join(out, p)))).toEqual([]);
  });

  it("keeps the names of the classes Foundry looks up by name", () => {
    const bundle = readFileSync(join(out, "case.mjs"), "utf8");
    for (const name of ["CaseRoll", "CaseActor", "CaseItem", "CaseChatMessage", "CaseCombat", "HeroData", "NpcData"]) {
      const named = new RegExp(`(class ${name} |var ${name} = class |__name\\(\\w+, "${name}"\\))`).test(bundle);
      expect({ name, named }).toEqual({ name, named: true });
    }
  });

  it("ships no test code and no source maps' sources outside the system", () => {
    const top = readdirSync(out).sort();
    expect(top).toEqual(expect.arrayContaining(["case.mjs", "lang", "styles", "system.json", "templates"]));
    expect(top).not.toContain("test");
  });
});
