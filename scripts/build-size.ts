/**
 * The weight of the built system: what a player's browser downloads when Foundry loads it,
 * counted as each file gzipped on its own (as a server sends them): the module, the
 * stylesheets and languages system.json names, and every template under templates/. The
 * source map and the compendium packs are not counted (the browser never loads the map unless
 * its developer tools ask, and packs are read by the server).
 *
 * `npm run build` ends with `tsx scripts/build-size.ts`, which prints the total line for dist/;
 * `npx tsx scripts/build-size.ts --files [dir]` prints every file, heaviest first.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";

/** The weight the issue asks for (JS + CSS + templates + en.json, gzip), in bytes. */
export const GZIP_TARGET_BYTES = 70_000;

/**
 * The ceiling the build test holds, in bytes: today's weight with a little room. Raise it
 * only for a feature that is worth the weight, and say so in the commit.
 */
export const GZIP_CEILING_BYTES = 165_000;

export type SizeGroup = "js" | "css" | "templates" | "lang";

export interface SizedFile {
  /** Path inside the build, with forward slashes. */
  readonly path: string;
  readonly group: SizeGroup;
  readonly raw: number;
  readonly gzip: number;
}

export interface BuildSize {
  readonly files: readonly SizedFile[];
  readonly groups: Readonly<Record<SizeGroup, { raw: number; gzip: number; count: number }>>;
  readonly raw: number;
  readonly gzip: number;
}

interface LoadedManifest {
  esmodules?: unknown;
  styles?: unknown;
  languages?: unknown;
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === "string")) {
    throw new Error(`system.json: ${what} must be a list of paths.`);
  }
  return value;
}

function languagePaths(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error("system.json: languages must be a list.");
  return value.map((lang: unknown, i) => {
    const path = typeof lang === "object" && lang !== null ? (lang as { path?: unknown }).path : undefined;
    if (typeof path !== "string") throw new Error(`system.json: languages[${i}] has no path.`);
    return path;
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Measures the build in `dir`. A file system.json names that is missing is an error. */
export function measureBuild(dir: string): BuildSize {
  const manifestPath = join(dir, "system.json");
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} does not exist: build first (npm run build).`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as LoadedManifest;
  const named: [string, SizeGroup][] = [
    ...stringList(manifest.esmodules, "esmodules").map((p): [string, SizeGroup] => [p, "js"]),
    ...stringList(manifest.styles, "styles").map((p): [string, SizeGroup] => [p, "css"]),
    ...languagePaths(manifest.languages).map((p): [string, SizeGroup] => [p, "lang"]),
  ];
  const templateDir = join(dir, "templates");
  const templates = existsSync(templateDir)
    ? walk(templateDir)
        .filter((f) => f.endsWith(".hbs"))
        .map((f): [string, SizeGroup] => [relative(dir, f).split(sep).join("/"), "templates"])
    : [];
  const files = [...named, ...templates].map(([path, group]): SizedFile => {
    const full = resolve(dir, path);
    if (!existsSync(full)) throw new Error(`system.json names ${path}, which is not in ${dir}.`);
    const data = readFileSync(full);
    return { path, group, raw: data.length, gzip: gzipSync(data).length };
  });
  const groups: Record<SizeGroup, { raw: number; gzip: number; count: number }> = {
    js: { raw: 0, gzip: 0, count: 0 },
    css: { raw: 0, gzip: 0, count: 0 },
    templates: { raw: 0, gzip: 0, count: 0 },
    lang: { raw: 0, gzip: 0, count: 0 },
  };
  for (const f of files) {
    const g = groups[f.group];
    g.raw += f.raw;
    g.gzip += f.gzip;
    g.count += 1;
  }
  return { files, groups, raw: files.reduce((s, f) => s + f.raw, 0), gzip: files.reduce((s, f) => s + f.gzip, 0) };
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** One line: the total against the target and the ceiling. */
export function sizeLine(size: BuildSize): string {
  const parts = (["js", "css", "templates", "lang"] as const).map((g) => `${g} ${kB(size.groups[g].gzip)}`).join(", ");
  return `CASE weight (gzip): ${kB(size.gzip)} (${parts}); target ${kB(GZIP_TARGET_BYTES)}, ceiling ${kB(GZIP_CEILING_BYTES)}`;
}

/** The breakdown, one file a line, heaviest first. */
export function sizeTable(size: BuildSize): string {
  const rows = [...size.files].sort((a, b) => b.gzip - a.gzip).map((f) => `${kB(f.gzip).padStart(9)} ${kB(f.raw).padStart(9)}  ${f.path}`);
  return [`${"gzip".padStart(9)} ${"raw".padStart(9)}  file`, ...rows, sizeLine(size)].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "build-size.ts")) {
  const args = process.argv.slice(2);
  const size = measureBuild(args.find((a) => !a.startsWith("--")) ?? "dist");
  console.log(args.includes("--files") ? sizeTable(size) : sizeLine(size));
}
