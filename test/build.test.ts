/**
 * The installable build: `vite build` into a temporary folder, then what Foundry will load
 * from it. Every file system.json names (the module, styles, languages) is there; every
 * template path the code renders is there; the module is minified with a source map, and the
 * classes Foundry finds by name (Roll classes are rebuilt from chat messages with Roll.fromData
 * by class name; documents, data models and sheets are registered by class) keep their names:
 * the bundle is run against stand-ins for Foundry's globals and the classes it hands to Foundry
 * are read back. The weight (JS + CSS + templates + languages, gzip) stays under its ceiling.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";
import { GZIP_CEILING_BYTES, measureBuild } from "../scripts/build-size";
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
 * Runs the bundle in a fresh context where every Foundry global is a stand-in that accepts
 * anything, fires its `init` hook, and returns every class the system handed to Foundry (set
 * on a stand-in, passed to one, or inside an object passed to one).
 */
function classesHandedToFoundry(bundle: string): AnyClass[] {
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
  const sandbox: Record<string, unknown> = {
    console: { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet },
    Hooks: { once: (name: string, fn: () => void) => hooks.push([name, fn]), on: (name: string, fn: () => void) => hooks.push([name, fn]), callAll: quiet, call: quiet },
  };
  const globals = ["foundry", "CONFIG", "CONST", "game", "ui", "canvas", "Actor", "Item", "Roll", "ChatMessage", "Combat", "Combatant", "Macro", "Token", "TokenDocument", "User", "Folder", "JournalEntry", "ActiveEffect", "Handlebars", "TextEditor", "Dialog", "DocumentSheetConfig", "Actors", "Items", "KeyboardManager", "fromUuid", "fromUuidSync", "quench"];
  for (const name of globals) sandbox[name] = standIn(name);
  vm.createContext(sandbox);
  vm.runInContext(bundle, sandbox, { filename: "case.mjs" });
  const init = hooks.filter(([name]) => name === "init");
  expect(init.length).toBe(1);
  for (const [, fn] of init) fn();
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
    const bundle = readFileSync(join(out, "case.mjs"), "utf8");
    const paths = new Set([...bundle.matchAll(/templates\/[\w/.-]+\.hbs/g)].map((m) => m[0]));
    expect(paths.size).toBeGreaterThan(10);
    expect([...paths].filter((p) => !existsSync(join(out, p)))).toEqual([]);
  });

  it("is minified, with a source map that reaches the TypeScript sources", () => {
    const bundle = readFileSync(join(out, "case.mjs"), "utf8");
    // Minified: no indentation, and a handful of lines (the code, the source map comment).
    expect(bundle.split("\n").length).toBeLessThan(10);
    expect(bundle).not.toMatch(/\n[ \t]+\S/);
    expect(bundle.trimEnd().endsWith("//# sourceMappingURL=case.mjs.map")).toBe(true);
    const map = JSON.parse(readFileSync(join(out, "case.mjs.map"), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[]; mappings: string };
    expect(map.sources.some((s) => s.endsWith("src/case.ts"))).toBe(true);
    expect(map.sources.some((s) => s.endsWith("src/foundry/dice/case-roll.ts"))).toBe(true);
    expect(map.mappings.length).toBeGreaterThan(1000);
  });

  it("keeps the names of the classes Foundry looks up by name: run, the classes it registers carry them", () => {
    const bundle = readFileSync(join(out, "case.mjs"), "utf8");
    const names = classesHandedToFoundry(bundle).map((c) => c.name);
    const expected = ["CaseRoll", "CaseActor", "CaseItem", "CaseChatMessage", "CaseCombat", "CaseCombatant", "HeroData", "NpcData", "PowerData", "TalentData", "WeaponData", "ArmorData", "ContactData", "AttackCardData", "AttackRecordData", "RequestMessageData", "TurnRecordData", "CaseCombatData", "CaseCombatantData", "HeroSheet", "NpcSheet", "CaseItemSheet", "CaseCombatTracker"];
    expect(expected.filter((n) => !names.includes(n))).toEqual([]);
    // Every class handed over is one of ours by its source name (or a built-in such as Number for a setting).
    const declared = new Set([...sourceClassNames(), "Number", "String", "Boolean", "Object", "Array"]);
    expect(names.filter((n) => !declared.has(n))).toEqual([]);
  });

  it("keeps the name of every class declared in src/ (data models, applications, documents, errors)", () => {
    const named = bundleClassNames(readFileSync(join(out, "case.mjs"), "utf8"));
    const declared = sourceClassNames();
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((n) => !named.has(n))).toEqual([]);
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
    expect(size.groups.js.count).toBe(1);
    expect(size.groups.templates.count).toBeGreaterThan(10);
    expect(size.groups.lang.count).toBe(1);
    expect(size.groups.css.count).toBeGreaterThan(1);
    expect(size.gzip).toBeLessThanOrEqual(GZIP_CEILING_BYTES);
  });

  it("ships no test code and no source maps' sources outside the system", () => {
    const top = readdirSync(out).sort();
    expect(top).toEqual(expect.arrayContaining(["case.mjs", "case.mjs.map", "lang", "styles", "system.json", "templates"]));
    expect(top).not.toContain("test");
  });
});
