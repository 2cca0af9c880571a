/**
 * `npm run release [-- --tag vX.Y.Z]`: builds the system into dist/, writes dist/system.json
 * with its `url`, `manifest` and `download` filled from package.json's `repository`, and
 * writes release/case.zip (system.json at the archive's root, everything it names inside) and
 * release/system.json (the manifest to attach next to it).
 *
 * The URLs follow GitHub's latest-release pattern: the manifest is always the newest
 * release's system.json, the download is this version's own zip:
 *   manifest  https://github.com/<owner>/<repo>/releases/latest/download/system.json
 *   download  https://github.com/<owner>/<repo>/releases/download/v<version>/case.zip
 * so Foundry finds updates through the manifest, and a manifest always installs its own
 * version. The release workflow (.github/workflows/release.yml) runs this on a `v*` tag and
 * attaches both files to the release; the tag must be `v` + the version.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { zipSync, type Zippable } from "fflate";
import { build } from "vite";
import { measureBuild, moduleImports, sizeLine } from "./build-size";

/** The archive's file name, on the release and in `download`. */
export const ARCHIVE_NAME = "case.zip";
/** The manifest's file name on the release. */
export const MANIFEST_NAME = "system.json";
/** Files LevelDB keeps for a running database only (the lock and its info log): not shipped. */
export const PACK_RUNTIME_FILES: readonly string[] = ["LOCK", "LOG", "LOG.old"];
/** The time stamp every archive entry carries, so the same build makes the same archive. */
export const ARCHIVE_MTIME = new Date(2000, 0, 1);

export interface GitHubRepository {
  readonly owner: string;
  readonly repo: string;
}

export interface ReleaseUrls {
  /** The project page (system.json `url`). */
  readonly url: string;
  readonly manifest: string;
  readonly download: string;
}

const NAME = /^[A-Za-z0-9_.-]+$/;
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * The GitHub repository package.json's `repository` names: a URL (`https://github.com/o/r`,
 * `git+https://…/r.git`, `git@github.com:o/r.git`, `git://…`), `github:o/r`, npm's `o/r`
 * shorthand, or an object with such a `url`. Anything else, or none, is an error.
 */
export function githubRepository(repository: unknown): GitHubRepository {
  const raw = typeof repository === "object" && repository !== null ? (repository as { url?: unknown }).url : repository;
  if (raw === undefined || raw === null || raw === "") {
    throw new Error('package.json has no "repository": add the GitHub repository, e.g. "repository": "https://github.com/case-vtt/case-foundry".');
  }
  if (typeof raw !== "string") throw new Error(`package.json "repository" must be a GitHub URL or { "url": … }, got ${JSON.stringify(raw)}.`);
  const text = raw.trim();
  const match =
    /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?(?:www\.)?github\.com\/([^/]+)\/([^/#?]+?)(?:\.git)?\/?$/.exec(text) ??
    /^git@github\.com:([^/]+)\/([^/#?]+?)(?:\.git)?$/.exec(text) ??
    /^github:([^/]+)\/([^/#?]+?)(?:\.git)?$/.exec(text) ??
    /^([^/:@]+)\/([^/:#?]+?)(?:\.git)?$/.exec(text);
  const owner = match?.[1];
  const repo = match?.[2];
  if (!owner || !repo || !NAME.test(owner) || !NAME.test(repo)) {
    throw new Error(`package.json "repository" is not a GitHub repository: ${JSON.stringify(text)}. Releases are published on GitHub (https://github.com/<owner>/<repo>).`);
  }
  return { owner, repo };
}

/** The project page, manifest and download URLs of `version` (the pattern in this file's header). */
export function releaseUrls({ owner, repo }: GitHubRepository, version: string): ReleaseUrls {
  if (!VERSION.test(version)) throw new Error(`Version ${JSON.stringify(version)} is not a version number like 1.2.3.`);
  const base = `https://github.com/${owner}/${repo}`;
  return {
    url: base,
    manifest: `${base}/releases/latest/download/${MANIFEST_NAME}`,
    download: `${base}/releases/download/v${version}/${ARCHIVE_NAME}`,
  };
}

/** package.json and system.json give the same version, and a release tag is `v` + that version. */
export function checkVersion(packageVersion: unknown, systemVersion: unknown, tag?: string): string {
  if (typeof packageVersion !== "string" || !VERSION.test(packageVersion)) throw new Error(`package.json "version" is not a version number: ${JSON.stringify(packageVersion)}.`);
  if (systemVersion !== packageVersion) throw new Error(`system.json says version ${JSON.stringify(systemVersion)} but package.json says ${packageVersion}: make them the same.`);
  if (tag !== undefined && tag !== `v${packageVersion}`) throw new Error(`The tag ${tag} does not match the version ${packageVersion}: tag v${packageVersion}, or change the version in package.json and system.json.`);
  return packageVersion;
}

/** system.json for the release: the source's, with `url` (when empty), `manifest` and `download` filled. */
export function releaseManifest(system: Record<string, unknown>, urls: ReleaseUrls): Record<string, unknown> {
  const url = typeof system.url === "string" && system.url !== "" ? system.url : urls.url;
  return { ...system, url, manifest: urls.manifest, download: urls.download };
}

interface NamedByManifest {
  /** Files: esmodules, styles, languages. */
  readonly files: string[];
  /** Folders: packs. */
  readonly packs: string[];
}

/** The paths a system.json names that must ship with it. */
export function namedByManifest(system: Record<string, unknown>): NamedByManifest {
  const list = (key: string): unknown[] => {
    const value = system[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new Error(`system.json: "${key}" must be a list.`);
    return value;
  };
  const path = (entry: unknown, key: string): string => {
    const p = typeof entry === "string" ? entry : typeof entry === "object" && entry !== null ? (entry as { path?: unknown }).path : undefined;
    if (typeof p !== "string" || p === "") throw new Error(`system.json: an entry of "${key}" has no path.`);
    return p;
  };
  return {
    files: [...list("esmodules").map((e) => path(e, "esmodules")), ...list("styles").map((e) => path(e, "styles")), ...list("languages").map((e) => path(e, "languages"))],
    packs: list("packs").map((e) => path(e, "packs")),
  };
}

/** The template paths (`templates/….hbs`) a text mentions: the bundle's renders and the templates' partials. */
export function templatePaths(text: string): string[] {
  return [...new Set([...text.matchAll(/templates\/[\w/.-]+\.hbs/g)].map((m) => m[0]))].sort();
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every file of the built system in `dist`, relative with forward slashes, sorted; LevelDB's lock and log left out. */
export function systemFiles(dist: string): string[] {
  return walk(dist)
    .map((f) => relative(dist, f).split(sep).join("/"))
    .filter((f) => !(f.startsWith("packs/") && PACK_RUNTIME_FILES.includes(f.slice(f.lastIndexOf("/") + 1))))
    .sort();
}

/**
 * What the built system in `dist` lacks of what its system.json names, its modules import
 * (with the system, or on first use) and its code renders. Every JavaScript file of the build
 * is read: the chunks render templates too.
 */
export function missingFromSystem(files: readonly string[], system: Record<string, unknown>, read: (path: string) => string): string[] {
  const have = new Set(files);
  const named = namedByManifest(system);
  const missing = named.files.filter((f) => !have.has(f));
  for (const pack of named.packs) {
    if (!have.has(`${pack}/CURRENT`)) missing.push(`${pack}/CURRENT (pack ${pack})`);
  }
  const modules = files.filter((f) => /\.m?js$/.test(f) && !f.startsWith("packs/"));
  for (const module of modules) {
    const imports = moduleImports(read(module), module);
    for (const imported of [...imports.static, ...imports.dynamic]) if (!have.has(imported)) missing.push(`${imported} (imported by ${module})`);
  }
  const rendered = modules.flatMap((f) => templatePaths(read(f)));
  const partials = files.filter((f) => f.endsWith(".hbs")).flatMap((f) => templatePaths(read(f)));
  for (const t of new Set([...rendered, ...partials])) if (!have.has(t)) missing.push(t);
  return missing;
}

/** The zip of `files` (paths inside `dist`), as Foundry installs it: the files at the archive's root. */
export function zipSystem(dist: string, files: readonly string[]): Uint8Array {
  const tree: Zippable = {};
  for (const file of files) {
    const parts = file.split("/");
    const name = parts.pop();
    if (!name || parts.some((p) => p === "" || p === "." || p === "..")) throw new Error(`Cannot archive ${JSON.stringify(file)}.`);
    let folder = tree;
    for (const part of parts) {
      const next = folder[part] ?? {};
      if (next instanceof Uint8Array || Array.isArray(next)) throw new Error(`${file}: ${part} is both a file and a folder.`);
      folder[part] = next;
      folder = next;
    }
    folder[name] = new Uint8Array(readFileSync(join(dist, file)));
  }
  return zipSync(tree, { level: 9, mtime: ARCHIVE_MTIME });
}

export interface ReleaseOptions {
  /** The project (package.json, system.json, vite.config.ts, packs/). */
  readonly root: string;
  /** Where the system is built. */
  readonly dist: string;
  /** Where case.zip and system.json are written. */
  readonly out: string;
  /** The release tag, checked against the version. */
  readonly tag?: string;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

export interface ReleaseResult {
  readonly version: string;
  readonly urls: ReleaseUrls;
  readonly archive: string;
  readonly manifest: string;
  readonly files: readonly string[];
}

/** Builds the system into `dist` (the module, static files and packs), as `npm run build` does. */
export async function buildSystem(root: string, dist: string, log: (line: string) => void): Promise<void> {
  await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "warn", build: { outDir: dist, emptyOutDir: true } });
  const packs = spawnSync(process.execPath, [join(root, "scripts", "build-packs.mjs"), dist], { cwd: root, encoding: "utf8" });
  if (packs.status !== 0) throw new Error(`The pack build failed (exit ${String(packs.status)}):\n${packs.stderr}${packs.stdout}`);
  log(packs.stdout.trimEnd());
  log(sizeLine(measureBuild(dist)));
}

/** Checks the versions, builds, fills the manifest's URLs and writes the archive and the manifest. */
export async function release(options: ReleaseOptions): Promise<ReleaseResult> {
  const log = options.log ?? ((): void => undefined);
  const root = resolve(options.root);
  const dist = resolve(options.dist);
  const out = resolve(options.out);
  if (dist === root || out === root || out === dist) throw new Error("dist and the release folder must be folders of their own.");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown; repository?: unknown };
  const source = JSON.parse(readFileSync(join(root, "system.json"), "utf8")) as Record<string, unknown>;
  const version = checkVersion(pkg.version, source.version, options.tag);
  const urls = releaseUrls(githubRepository(pkg.repository), version);

  await buildSystem(root, dist, log);
  const built = JSON.parse(readFileSync(join(dist, "system.json"), "utf8")) as Record<string, unknown>;
  const manifest = releaseManifest(built, urls);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(dist, "system.json"), manifestText);

  const files = systemFiles(dist);
  const missing = missingFromSystem(files, manifest, (p) => readFileSync(join(dist, p), "utf8"));
  if (missing.length) throw new Error(`The build lacks what system.json names or the code renders: ${missing.join(", ")}.`);
  if (!existsSync(out)) mkdirSync(out, { recursive: true });
  const archive = join(out, ARCHIVE_NAME);
  const manifestPath = join(out, MANIFEST_NAME);
  const zip = zipSystem(dist, files);
  writeFileSync(archive, zip);
  writeFileSync(manifestPath, manifestText);
  log(`${archive}: ${files.length} files, ${(zip.length / 1000).toFixed(1)} kB`);
  log(`${manifestPath}: version ${version}\n  manifest ${urls.manifest}\n  download ${urls.download}`);
  return { version, urls, archive, manifest: manifestPath, files };
}

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value.`);
  return value;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "release.ts")) {
  const args = process.argv.slice(2);
  const root = resolve(import.meta.dirname, "..");
  try {
    const tag = argValue(args, "--tag");
    await release({
      root,
      dist: resolve(root, argValue(args, "--dist") ?? "dist"),
      out: resolve(root, argValue(args, "--out") ?? "release"),
      ...(tag === undefined ? {} : { tag }),
      log: (line) => {
        console.log(line);
      },
    });
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
