/**
 * The release a GM installs (scripts/release.ts, `npm run release`): the archive is unzipped
 * and must hold system.json at its root and everything system.json names (the module,
 * stylesheets, languages, every pack as a LevelDB database that opens and holds documents),
 * every chunk the modules import and every template the code renders; `manifest` and `download` are filled from package.json's
 * `repository` and agree with the version. The release is built into a temporary folder; the
 * release workflow sets CASE_RELEASE_DIR to check the very archive it attaches instead.
 *
 * Then the parts on their own: reading package.json's `repository` (a missing or non-GitHub
 * one is a clear error), the URLs, the version and tag check, and the workflow file.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { ClassicLevel } from "classic-level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARCHIVE_NAME, MANIFEST_NAME, PACK_RUNTIME_FILES, checkVersion, githubRepository, release, releaseUrls, templatePaths } from "../scripts/release";
import { moduleImports } from "../scripts/build-size";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string; repository: unknown };
const sourceSystem = JSON.parse(readFileSync("system.json", "utf8")) as Record<string, unknown>;

interface ReleasedSystem {
  id: string;
  version: string;
  url: string;
  manifest: string;
  download: string;
  esmodules: string[];
  styles: string[];
  languages: { lang: string; path: string }[];
  packs: { name: string; path: string; type: string }[];
}

const scratch: string[] = [];
let releaseDir = "";
let entries: Record<string, Uint8Array> = {};
let system: ReleasedSystem;
const text = (name: string): string => new TextDecoder().decode(entries[name]);

beforeAll(async () => {
  const given = process.env.CASE_RELEASE_DIR;
  if (given) {
    releaseDir = resolve(given);
  } else {
    const tmp = mkdtempSync(join(tmpdir(), "case-release-"));
    scratch.push(tmp);
    releaseDir = join(tmp, "release");
    await release({ root: process.cwd(), dist: join(tmp, "dist"), out: releaseDir, tag: `v${pkg.version}` });
  }
  entries = unzipSync(new Uint8Array(readFileSync(join(releaseDir, ARCHIVE_NAME))));
  system = JSON.parse(text("system.json")) as ReleasedSystem;
}, 180_000);

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("the release archive", () => {
  it("has system.json at its root, the same as the manifest published next to it", () => {
    expect(Object.keys(entries)).toContain("system.json");
    expect(system.id).toBe("case");
    expect(JSON.parse(readFileSync(join(releaseDir, MANIFEST_NAME), "utf8"))).toEqual(system);
  });

  it("holds only relative paths inside the system, no build folder around it and no LevelDB lock or log", () => {
    const names = Object.keys(entries);
    expect(names.filter((n) => n.startsWith("/") || n.split("/").includes("..") || n.startsWith("dist/"))).toEqual([]);
    expect(names.filter((n) => PACK_RUNTIME_FILES.includes(n.slice(n.lastIndexOf("/") + 1)))).toEqual([]);
    expect(names).toContain("chunks/core.mjs.map");
  });

  it("holds every file system.json names: esmodules, styles, languages", () => {
    const named = [...system.esmodules, ...system.styles, ...system.languages.map((l) => l.path)];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((p) => !(p in entries))).toEqual([]);
    for (const l of system.languages) expect(() => JSON.parse(text(l.path)) as unknown).not.toThrow();
    // case.mjs loads the core chunk by its fixed name, which starts the system (test/build.test.ts "core chunk after update").
    expect(text("case.mjs").trim()).toBe('import"./chunks/core.mjs";');
    expect(text("chunks/core.mjs")).toContain('Hooks.once(`init`');
  });

  it("holds every module the modules import, with the system or on first use (the chunks beside case.mjs)", () => {
    const modules = Object.keys(entries).filter((n) => n.endsWith(".mjs"));
    expect(modules.length).toBeGreaterThan(2);
    const imported = modules.flatMap((m) => {
      const { static: atLoad, dynamic } = moduleImports(text(m), m);
      return [...atLoad, ...dynamic];
    });
    expect(imported.length).toBeGreaterThan(2);
    expect(imported.filter((p) => !(p in entries))).toEqual([]);
  });

  it("holds every template the code renders and every partial a template names", () => {
    const rendered = Object.keys(entries)
      .filter((n) => n.endsWith(".mjs"))
      .flatMap((n) => templatePaths(text(n)));
    expect(rendered.length).toBeGreaterThan(10);
    const partials = Object.keys(entries)
      .filter((n) => n.endsWith(".hbs"))
      .flatMap((n) => templatePaths(text(n)));
    expect([...rendered, ...partials].filter((p) => !(p in entries))).toEqual([]);
  });

  it("holds every pack system.json names, as a LevelDB database that opens and holds its documents", async () => {
    expect(system.packs.length).toBeGreaterThan(0);
    expect(system.packs.map((p) => p.name)).toEqual((sourceSystem.packs as { name: string }[]).map((p) => p.name));
    const out = mkdtempSync(join(tmpdir(), "case-release-packs-"));
    scratch.push(out);
    for (const pack of system.packs) {
      const files = Object.keys(entries).filter((n) => n.startsWith(`${pack.path}/`) && !n.endsWith("/"));
      expect(files, pack.path).toContain(`${pack.path}/CURRENT`);
      for (const file of files) {
        mkdirSync(dirname(join(out, file)), { recursive: true });
        writeFileSync(join(out, file), entries[file] ?? new Uint8Array());
      }
      const db = new ClassicLevel<string, { _id?: unknown }>(join(out, pack.path), { keyEncoding: "utf8", valueEncoding: "json", createIfMissing: false });
      let documents = 0;
      try {
        for await (const [key, value] of db.iterator()) {
          if (key.split("!").length === 3) documents++; // "!items!<id>": a pack's own documents
          expect(typeof value._id, key).toBe("string");
        }
      } finally {
        await db.close();
      }
      expect({ pack: pack.name, hasDocuments: documents > 0 }).toEqual({ pack: pack.name, hasDocuments: true });
    }
  });

  it("fills manifest and download from package.json's repository, consistent with the version", () => {
    const { owner, repo } = githubRepository(pkg.repository);
    expect(system.version).toBe(pkg.version);
    expect(system.manifest).toBe(`https://github.com/${owner}/${repo}/releases/latest/download/system.json`);
    expect(system.download).toBe(`https://github.com/${owner}/${repo}/releases/download/v${system.version}/case.zip`);
    expect(system.download.endsWith(`/v${pkg.version}/${ARCHIVE_NAME}`)).toBe(true);
    expect(system.url).toMatch(/^https:\/\/github\.com\//);
  });

  it("leaves the rest of system.json as the source has it", () => {
    const { manifest: _m, download: _d, url: _u, ...rest } = system as unknown as Record<string, unknown>;
    const { manifest: _sm, download: _sd, url: _su, ...sourceRest } = sourceSystem;
    expect(rest).toEqual(sourceRest);
  });
});

describe("package.json's repository", () => {
  it("names the project's GitHub repository", () => {
    expect(githubRepository(pkg.repository)).toEqual({ owner: "case-vtt", repo: "case-foundry" });
  });

  it.each([
    ["https://github.com/case-vtt/case-foundry", "case-vtt", "case-foundry"],
    ["https://github.com/case-vtt/case-foundry.git", "case-vtt", "case-foundry"],
    ["git+https://github.com/case-vtt/case-foundry.git", "case-vtt", "case-foundry"],
    ["git@github.com:someone/my.system.git", "someone", "my.system"],
    ["git://github.com/someone/repo", "someone", "repo"],
    ["github:someone/repo", "someone", "repo"],
    ["someone/repo", "someone", "repo"],
  ])("reads %s", (url, owner, repo) => {
    expect(githubRepository(url)).toEqual({ owner, repo });
    expect(githubRepository({ type: "git", url })).toEqual({ owner, repo });
  });

  it.each([[undefined], [""], [{ type: "git" }]])("refuses a missing repository (%j) with a clear error", (value) => {
    expect(() => githubRepository(value)).toThrow(/package\.json has no "repository"/);
  });

  it.each([["https://gitlab.com/someone/repo"], ["gitlab:someone/repo"], ["https://github.com/someone"], ["https://github.com/a/b/c"], ["not a url"], [42]])("refuses %j: not a GitHub repository", (value) => {
    expect(() => githubRepository(value)).toThrow(/"repository"/);
  });
});

describe("release URLs and versions", () => {
  it("derives the latest-release manifest and this version's download", () => {
    expect(releaseUrls({ owner: "o", repo: "r" }, "1.2.3")).toEqual({
      url: "https://github.com/o/r",
      manifest: "https://github.com/o/r/releases/latest/download/system.json",
      download: "https://github.com/o/r/releases/download/v1.2.3/case.zip",
    });
    expect(() => releaseUrls({ owner: "o", repo: "r" }, "v1.2")).toThrow(/not a version number/);
  });

  it("requires package.json and system.json to agree, and a tag to be v + the version", () => {
    expect(checkVersion("1.2.3", "1.2.3")).toBe("1.2.3");
    expect(checkVersion("1.2.3", "1.2.3", "v1.2.3")).toBe("1.2.3");
    expect(() => checkVersion("1.2.3", "1.2.4")).toThrow(/system\.json says version "1\.2\.4" but package\.json says 1\.2\.3/);
    expect(() => checkVersion("1.2.3", "1.2.3", "v1.2.4")).toThrow(/tag v1\.2\.4 does not match the version 1\.2\.3/);
    expect(() => checkVersion("1.2.3", "1.2.3", "1.2.3")).toThrow(/does not match/);
    expect(() => checkVersion(undefined, undefined)).toThrow(/package\.json "version"/);
  });

  it("the project's package.json and system.json agree today", () => {
    expect(sourceSystem.version).toBe(pkg.version);
  });

  it("refuses to release when the tag does not match, before building anything", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "case-release-tag-"));
    scratch.push(tmp);
    await expect(release({ root: process.cwd(), dist: join(tmp, "dist"), out: join(tmp, "release"), tag: "v999.0.0" })).rejects.toThrow(/does not match/);
    expect(existsSync(join(tmp, "dist"))).toBe(false);
    expect(existsSync(join(tmp, "release"))).toBe(false);
  });
});

describe("the release workflow", () => {
  const workflow = readFileSync(".github/workflows/release.yml", "utf8");

  it("runs on version tags, releases with the tag checked and attaches the archive and the manifest", () => {
    expect(workflow).toMatch(/tags:\s*\["v\*"\]/);
    expect(workflow).toContain('npm run release -- --tag "${GITHUB_REF_NAME}"');
    expect(workflow).toContain(`release/${ARCHIVE_NAME}`);
    expect(workflow).toContain(`release/${MANIFEST_NAME}`);
    expect(workflow).toContain("CASE_RELEASE_DIR: release");
    expect(workflow).toContain("contents: write");
  });
});

describe("the CI workflow", () => {
  const workflow = readFileSync(".github/workflows/ci.yml", "utf8");

  it("runs .ci/run (install, the README's test command, the build) on every push and pull request", () => {
    expect(workflow).toMatch(/on:\s*\n\s+push:\s*\n\s+branches:\s*\["\*\*"\]\s*\n\s+pull_request:/);
    expect(workflow).toContain("run: bash .ci/run");
    const ci = readFileSync(".ci/run", "utf8");
    expect(ci).toContain("npm ci");
    expect(ci).toContain("npm test");
    expect(ci).toContain("npm run build");
  });
});
