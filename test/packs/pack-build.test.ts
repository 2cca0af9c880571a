/**
 * The pack build (scripts/build-packs.mjs, the pack step of `npm run build`) compiles every
 * declared pack to LevelDB, and reading each database back finds every source document and
 * every embedded document under its key. A source file without `_key`, which the Foundry CLI
 * would silently drop, stops the build with the file's path.
 *
 * The build runs in a temporary copy of system.json and packs/ (its output goes to that copy's
 * dist/), so the test never touches the real dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ClassicLevel } from "classic-level";
import { embeddedCollections, readManifest, readPack, type SourceDoc } from "../support/pack-files";

const BUILD_SCRIPT = resolve("scripts/build-packs.mjs");
const COLLECTION: Record<string, string> = { Actor: "actors", Item: "items", JournalEntry: "journal", Macro: "macros" };

/** A scratch copy of the manifest and pack sources. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "case-packs-"));
  cpSync("system.json", join(dir, "system.json"));
  cpSync("packs", join(dir, "packs"), { recursive: true });
  return dir;
}

function runBuild(cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILD_SCRIPT], { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every key and value of a compiled pack. */
async function readLevel(path: string): Promise<Map<string, Record<string, unknown>>> {
  const db = new ClassicLevel<string, Record<string, unknown>>(path, { keyEncoding: "utf8", valueEncoding: "json", createIfMissing: false });
  const entries = new Map<string, Record<string, unknown>>();
  try {
    for await (const [key, value] of db.iterator()) entries.set(key, value);
  } finally {
    await db.close();
  }
  return entries;
}

const manifest = readManifest();
const scratch: string[] = [];

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("the pack build", () => {
  let root = "";
  let build: ReturnType<typeof runBuild>;

  beforeAll(() => {
    root = scratchCopy();
    scratch.push(root);
    build = runBuild(root);
  }, 60_000);

  it("compiles every declared pack", () => {
    expect(build.stderr).toBe("");
    expect(build.status).toBe(0);
    for (const pack of manifest.packs) expect(build.stdout).toContain(`pack ${pack.name}: `);
    expect(build.stdout).toContain(`${manifest.packs.length} pack(s) compiled.`);
  });

  it.each(manifest.packs.map((p) => [p.name, p] as const))("%s: the compiled LevelDB holds every source document and embedded document", async (name, pack) => {
    const entries = await readLevel(join(root, "dist", "packs", name));
    const collection = COLLECTION[pack.type] ?? "?";
    const sources = readPack(name).map((f) => f.doc as SourceDoc);
    const primaryKeys = [...entries.keys()].filter((k) => k.startsWith(`!${collection}!`));
    expect(primaryKeys.sort()).toEqual(sources.map((d) => String(d._key)).sort());
    for (const doc of sources) {
      const stored = entries.get(String(doc._key));
      expect(stored, String(doc._key)).toBeDefined();
      expect(stored?._id).toBe(doc._id);
      expect(stored?.name).toBe(doc.name);
      expect(stored?.type).toBe(doc.type);
      expect(stored?._key, "the CLI strips _key from stored values").toBeUndefined();
      for (const [field, children] of embeddedCollections(doc)) {
        // The parent stores the embedded ids; each embedded document has its own key.
        expect(stored?.[field], `${String(doc.name)}.${field}`).toEqual(children.map((c) => c._id));
        for (const child of children) {
          const value = entries.get(String(child._key));
          expect(value, String(child._key)).toBeDefined();
          expect(value?.name).toBe(child.name);
          expect(value?.system ?? value?.text).toEqual(child.system ?? child.text);
        }
      }
    }
  });
});

describe("a malformed pack file", () => {
  function breakAndBuild(pack: string, mutate: (doc: SourceDoc) => void): { file: string; result: ReturnType<typeof runBuild> } {
    const root = scratchCopy();
    scratch.push(root);
    const target = readPack(pack, root)[0];
    if (!target?.doc) throw new Error(`Pack ${pack} has no files.`);
    const doc = structuredClone(target.doc);
    mutate(doc);
    writeFileSync(join(root, target.file), JSON.stringify(doc, null, 2));
    return { file: target.file, result: runBuild(root) };
  }

  it("without _key stops build-packs.mjs with the file's path", () => {
    const { file, result } = breakAndBuild("powers", (doc) => {
      delete doc._key;
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/_key must be "!items!/);
  });

  it("with an embedded item without _key stops the build with the file's path", () => {
    const { file, result } = breakAndBuild("heroes", (doc) => {
      const items = doc.items as SourceDoc[];
      if (items[0]) delete items[0]._key;
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/items: _key must be "!actors\.items!/);
  });

  it("that is not JSON stops the build with the file's path", () => {
    const root = scratchCopy();
    scratch.push(root);
    const target = readPack("talents", root)[0];
    if (!target) throw new Error("Pack talents has no files.");
    writeFileSync(join(root, target.file), "{ not json");
    const result = runBuild(root);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(target.file);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it("leaves the source pack untouched (the test works on a copy)", () => {
    const original = readPack("powers")[0];
    expect(original?.doc?._key).toBe(`!items!${String(original?.doc?._id)}`);
    expect(readFileSync(original?.file ?? "", "utf8")).toBe(original?.text);
  });
});
