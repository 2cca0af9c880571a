/**
 * The installable build: `vite build` into a temporary folder, then what Foundry will load
 * from it. Every file system.json names (the module, styles, languages) is there; every
 * template path the code renders is there; the JavaScript (case.mjs, the core chunk it
 * imports, and the chunks loaded on first use: the character builder, the self-test) is
 * minified with source maps, and the classes Foundry finds by name (Roll classes are rebuilt
 * from chat messages with Roll.fromData by class name; documents, data models and sheets are
 * registered by class) keep their names: the modules are run against stand-ins for Foundry's
 * globals and the classes they hand to Foundry are read back. The weight (JS + CSS +
 * templates + languages, gzip) stays under its ceiling.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { build } from "vite";
import { GZIP_CEILING_BYTES, measureBuild, moduleImports } from "../scripts/build-size";
import { templateShape } from "./support/template-html";

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

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every JavaScript file of the build, as a path inside it with forward slashes. */
function builtModules(): string[] {
  return walk(out)
    .map((f) => relative(out, f).split(sep).join("/"))
    .filter((f) => f.endsWith(".mjs"))
    .sort();
}

/** All the built JavaScript, one text. */
function allCode(): string {
  return builtModules()
    .map((f) => readFileSync(join(out, f), "utf8"))
    .join("\n");
}

/** Every class name declared in src/ (`class Name`, exported or not). */
function sourceClassNames(): string[] {
  const names = walk("src")
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => [...readFileSync(f, "utf8").matchAll(/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] ?? ""));
  return [...new Set(names)].sort();
}

/** The names classes carry in the bundle: `class Name` and `Name=class` (a class takes its binding's name). */
function bundleClassNames(bundle: string): Set<string> {
  return new Set([...bundle.matchAll(/\bclass ([A-Za-z_$][\w$]*)/g), ...bundle.matchAll(/([A-Za-z_$][\w$]*)\s*=\s*class\b/g)].map((m) => m[1] ?? ""));
}

type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * Loads the built case.mjs as a browser would (an ES module, with the chunk it imports) where
 * every Foundry global is a stand-in that accepts anything, fires its `init` hook, and returns
 * every class the system handed to Foundry (set on a stand-in, passed to one, or inside an
 * object passed to one).
 */
async function classesHandedToFoundry(entry: string): Promise<AnyClass[]> {
  const stand = new WeakSet<object>();
  const handed = new Set<AnyClass>();
  const isClass = (v: unknown): v is AnyClass => typeof v === "function" && !stand.has(v) && /^class\b/.test(Function.prototype.toString.call(v));
  const note = (v: unknown): void => {
    if (isClass(v)) handed.add(v);
    else if (typeof v === "object" && v !== null && !stand.has(v)) for (const inner of Object.values(v as Record<string, unknown>)) if (isClass(inner)) handed.add(inner);
  };
  const standIn = (path: string): object => {
    const props = new Map<PropertyKey, unknown>();
    const target = function standInTarget(): void {
      /* a stand-in */
    } as (() => void) & { prototype: object };
    const proxy: object = new Proxy(target, {
      get(t, prop) {
        if (prop === "prototype") return t.prototype; // a real object, so `class X extends standIn` works
        if (prop === "then") return undefined; // not a promise
        if (prop === Symbol.toPrimitive) return () => path;
        if (prop === Symbol.iterator) return function* empty(): Generator<never> {
          /* nothing */
        };
        if (typeof prop === "symbol") return undefined;
        if (!props.has(prop)) props.set(prop, standIn(`${path}.${prop}`));
        return props.get(prop);
      },
      set(_t, prop, value) {
        note(value);
        props.set(prop, value);
        return true;
      },
      apply(_t, _self, args: unknown[]) {
        args.forEach(note);
        return standIn(`${path}()`);
      },
      construct() {
        return standIn(`new ${path}`);
      },
    });
    stand.add(proxy);
    return proxy;
  };
  const hooks: [string, () => void][] = [];
  const quiet = (): void => undefined;
  const globals: Record<string, unknown> = {
    console: { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet },
    Hooks: { once: (name: string, fn: () => void) => hooks.push([name, fn]), on: (name: string, fn: () => void) => hooks.push([name, fn]), callAll: quiet, call: quiet },
  };
  const foundryGlobals = ["foundry", "CONFIG", "CONST", "game", "ui", "canvas", "Actor", "Item", "Roll", "ChatMessage", "Combat", "Combatant", "Macro", "Token", "TokenDocument", "User", "Folder", "JournalEntry", "ActiveEffect", "Handlebars", "TextEditor", "Dialog", "DocumentSheetConfig", "Actors", "Items", "KeyboardManager", "fromUuid", "fromUuidSync", "quench"];
  for (const name of foundryGlobals) globals[name] = standIn(name);
  for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
  try {
    await import(/* @vite-ignore */ pathToFileURL(entry).href);
    const init = hooks.filter(([name]) => name === "init");
    expect(init.length).toBe(1);
    for (const [, fn] of init) fn();
  } finally {
    vi.unstubAllGlobals();
  }
  return [...handed];
}

describe("the build in dist/", () => {
  it("has every file system.json names", () => {
    const manifest = JSON.parse(readFileSync(join(out, "system.json"), "utf8")) as Manifest;
    const files = [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)];
    expect(files.filter((f) => !existsSync(join(out, f)))).toEqual([]);
    expect(manifest.esmodules).toEqual(["case.mjs"]);
  });

  it("has every template the code renders", () => {
    const paths = new Set([...allCode().matchAll(/templates\/[\w/.-]+\.hbs/g)].map((m) => m[0]));
    expect(paths.size).toBeGreaterThan(10);
    expect([...paths].filter((p) => !existsSync(join(out, p)))).toEqual([]);
  });

  it("is minified, with source maps that reach the TypeScript sources", () => {
    const sources: string[] = [];
    for (const path of builtModules()) {
      const code = readFileSync(join(out, path), "utf8");
      // The entry is one import (no code to map): "core chunk after update" below.
      if (path === "case.mjs") continue;
      // Minified: no indentation, and a handful of lines (the code, the source map comment).
      expect(code.split("\n").length, path).toBeLessThan(10);
      expect(code, path).not.toMatch(/\n[ \t]+\S/);
      const name = path.slice(path.lastIndexOf("/") + 1);
      expect(code.trimEnd().endsWith(`//# sourceMappingURL=${name}.map`), path).toBe(true);
      const map = JSON.parse(readFileSync(join(out, `${path}.map`), "utf8")) as { sources: string[]; mappings: string };
      sources.push(...map.sources);
    }
    expect(sources.some((s) => s.endsWith("src/start.ts"))).toBe(true);
    expect(sources.some((s) => s.endsWith("src/foundry/dice/case-roll.ts"))).toBe(true);
    expect(sources.some((s) => s.endsWith("src/foundry/apps/builder/character-builder.ts"))).toBe(true);
  });

  it("loads the rarely used parts on first use, each a chunk of its own, and everything else with case.mjs", () => {
    const size = measureBuild(out);
    const js = size.files.filter((f) => f.group === "js");
    const kind = (path: string): string => path.replace(/(-[\w-]{8})?\.mjs$/, "");
    expect(js.filter((f) => f.atLoad).map((f) => kind(f.path)).sort()).toEqual(["case", "chunks/core"]);
    expect(js.filter((f) => !f.atLoad).map((f) => kind(f.path)).sort()).toEqual(["chunks/character-builder", "chunks/suite"]);
    const sourcesOf = (path: string): string[] =>
      (JSON.parse(readFileSync(join(out, `${path}.map`), "utf8")) as { sources: string[] }).sources.map((s) => relative(process.cwd(), resolve(dirname(join(out, path)), s)).split(sep).join("/"));
    const chunk = (name: string): string => js.find((f) => kind(f.path) === `chunks/${name}`)?.path ?? "";
    expect(sourcesOf(chunk("character-builder")).sort()).toEqual(["src/foundry/apps/builder/builder-context.ts", "src/foundry/apps/builder/character-builder.ts"]);
    expect(sourcesOf(chunk("suite")).every((s) => s.startsWith("src/foundry/self-test/"))).toBe(true);
    // The self-test's registration and its list of batches (names only) load with the core, so every batch registers at quenchReady.
    expect(sourcesOf(chunk("core")).filter((s) => /character-builder|builder-context|self-test\/(?!quench|batch-list)/.test(s))).toEqual([]);
    // Each is loaded by an import() of the core chunk; no module imports case.mjs, so the system
    // runs once, whatever URL Foundry loads case.mjs by.
    const core = moduleImports(readFileSync(join(out, chunk("core")), "utf8"), chunk("core"));
    expect(core.dynamic.sort()).toEqual(js.filter((f) => !f.atLoad).map((f) => f.path).sort());
    for (const path of builtModules()) {
      const imports = moduleImports(readFileSync(join(out, path), "utf8"), path);
      expect([...imports.static, ...imports.dynamic], path).not.toContain("case.mjs");
    }
  });

  it("core chunk after update: case.mjs only loads chunks/core.mjs, by a fixed name and binding nothing, so a browser's cached case.mjs of an earlier version still loads the system the server has now", async () => {
    // The whole entry: no hash, no named import whose minified name could change between builds.
    expect(readFileSync(join(out, "case.mjs"), "utf8").trim()).toBe('import"./chunks/core.mjs";');
    expect(existsSync(join(out, "chunks", "core.mjs"))).toBe(true);
    // The chunks loaded on first use import the core by the same fixed name (one module, run once).
    for (const path of builtModules().filter((p) => p.startsWith("chunks/") && p !== "chunks/core.mjs")) {
      expect(moduleImports(readFileSync(join(out, path), "utf8"), path).static, path).toEqual(["chunks/core.mjs"]);
    }
    // An earlier version's case.mjs (the same one line, kept by a browser) beside this build's chunks loads it and starts it.
    const server = mkdtempSync(join(tmpdir(), "case-updated-"));
    try {
      cpSync(join(out, "chunks"), join(server, "chunks"), { recursive: true });
      writeFileSync(join(server, "case.mjs"), 'import"./chunks/core.mjs";\n');
      expect((await classesHandedToFoundry(join(server, "case.mjs"))).map((c) => c.name)).toContain("CaseActor");
    } finally {
      rmSync(server, { recursive: true, force: true });
    }
  });

  it("keeps the names of the classes Foundry looks up by name: run, the classes it registers carry them", async () => {
    const names = (await classesHandedToFoundry(join(out, "case.mjs"))).map((c) => c.name);
    const expected = ["CaseRoll", "CaseActor", "CaseItem", "CaseChatMessage", "CaseCombat", "CaseCombatant", "HeroData", "NpcData", "PowerData", "TalentData", "WeaponData", "ArmorData", "ContactData", "AttackCardData", "AttackRecordData", "RequestMessageData", "TurnRecordData", "CaseCombatData", "CaseCombatantData", "HeroSheet", "NpcSheet", "CaseItemSheet", "CaseCombatTracker"];
    expect(expected.filter((n) => !names.includes(n))).toEqual([]);
    // Every class handed over is one of ours by its source name (or a built-in such as Number for a setting).
    const declared = new Set([...sourceClassNames(), "Number", "String", "Boolean", "Object", "Array"]);
    expect(names.filter((n) => !declared.has(n))).toEqual([]);
  });

  it("keeps the name of every class declared in src/ (data models, applications, documents, errors)", () => {
    const named = bundleClassNames(allCode());
    const declared = sourceClassNames();
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((n) => !named.has(n))).toEqual([]);
    // The bundler renames a name that clashes with another module's (Foo$1), and nothing
    // puts it back (vite.config.ts): a class must not clash.
    expect([...named].filter((n) => /\$\d+$/.test(n))).toEqual([]);
  });

  it("ships the stylesheets minified and the languages compact, with the same content", () => {
    const manifest = JSON.parse(readFileSync(join(out, "system.json"), "utf8")) as Manifest;
    for (const path of manifest.styles) {
      const source = readFileSync(path, "utf8");
      const built = readFileSync(join(out, path), "utf8");
      expect(built.length, path).toBeLessThan(source.length);
      const classes = (css: string): string[] => [...new Set([...css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((m) => m[1] ?? ""))].sort();
      expect(classes(built), path).toEqual(classes(source));
    }
    for (const { path } of manifest.languages) {
      const built = readFileSync(join(out, path), "utf8");
      expect(JSON.parse(built)).toEqual(JSON.parse(readFileSync(path, "utf8")));
      expect(built).not.toContain("\n");
    }
  });

  it("ships every template, without its comments and indentation, rendering the same HTML as its source", () => {
    const sources = walk("templates").filter((f) => f.endsWith(".hbs"));
    expect(sources.length).toBeGreaterThan(10);
    let saved = 0;
    for (const path of sources) {
      const source = readFileSync(path, "utf8");
      const built = readFileSync(join(out, path), "utf8");
      expect(templateShape(built), path).toEqual(templateShape(source));
      saved += source.length - built.length;
    }
    expect(saved).toBeGreaterThan(1000);
  });

  it(`weighs at most ${GZIP_CEILING_BYTES / 1000} kB gzip (JS + CSS + templates + languages)`, () => {
    const size = measureBuild(out);
    expect(size.groups.js.count).toBe(builtModules().length);
    expect(size.groups.templates.count).toBeGreaterThan(10);
    expect(size.groups.lang.count).toBe(1);
    expect(size.groups.css.count).toBeGreaterThan(1);
    expect(size.gzip).toBeLessThanOrEqual(GZIP_CEILING_BYTES);
  });

  it("ships no test code and no source maps' sources outside the system", () => {
    const top = readdirSync(out).sort();
    expect(top).toEqual(expect.arrayContaining(["case.mjs", "chunks", "lang", "styles", "system.json", "templates"]));
    expect(top).not.toContain("test");
  });
});
