/**
 * The compendium pack sources are well formed: every file parses; every document and every
 * embedded document has a 16-character id and the `_key` the Foundry CLI needs (a file without
 * one is silently dropped from the build); ids are unique; types are declared in system.json;
 * every pack folder is declared in system.json and grouped in packFolders, and vice versa;
 * and the committed JSON is exactly what scripts/generate-packs.ts writes.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { serialize } from "../../scripts/generate-packs";
import { buildPacks, manifestPackFolders, manifestPacks } from "../../scripts/packs/build";
import { sourceFileName } from "../../scripts/packs/documents";
import { embeddedCollections, packDirs, packFolderPacks, readAllPacks, readManifest, readPack, type SourceDoc } from "../support/pack-files";

const ID = /^[A-Za-z0-9]{16}$/;
const COLLECTION: Record<string, string> = { Actor: "actors", Item: "items", JournalEntry: "journal", Macro: "macros" };
/** Core JournalEntryPage types (not system subtypes). */
const PAGE_TYPES = ["text", "image", "pdf", "video"];

const manifest = readManifest();
const files = readAllPacks();
const packType = new Map(manifest.packs.map((p) => [p.name, p.type]));

/** The key problems of a document and its embedded documents. */
function keyProblems(file: string, doc: SourceDoc, collection: string): string[] {
  const problems: string[] = [];
  const id = doc._id;
  if (typeof id !== "string" || !ID.test(id)) problems.push(`${file}: _id ${JSON.stringify(id)} is not 16 letters or digits`);
  if (doc._key !== `!${collection}!${String(id)}`) problems.push(`${file}: _key ${JSON.stringify(doc._key)} should be "!${collection}!${String(id)}"`);
  if (typeof doc.name !== "string" || doc.name.trim() === "") problems.push(`${file}: name is missing`);
  for (const [field, children] of embeddedCollections(doc)) {
    children.forEach((child, i) => {
      const where = `${file}: ${field}[${i}]`;
      if (typeof child._id !== "string" || !ID.test(child._id)) problems.push(`${where}: _id ${JSON.stringify(child._id)} is not 16 letters or digits`);
      const want = `!${collection}.${field}!${String(id)}.${String(child._id)}`;
      if (child._key !== want) problems.push(`${where}: _key ${JSON.stringify(child._key)} should be "${want}"`);
    });
  }
  return problems;
}

describe("pack source files", () => {
  it("exist for every declared pack", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const pack of manifest.packs) expect(readPack(pack.name).length, pack.name).toBeGreaterThan(0);
  });

  it("all parse as JSON objects", () => {
    const bad = files.filter((f) => f.doc === undefined || typeof f.doc !== "object" || Array.isArray(f.doc)).map((f) => `${f.file}: ${f.parseError ?? "not a JSON object"}`);
    expect(bad).toEqual([]);
  });

  it("have a well-formed _id and _key, embedded documents too", () => {
    const problems = files.flatMap((f) => (f.doc ? keyProblems(f.file, f.doc, COLLECTION[packType.get(f.pack) ?? ""] ?? "?") : []));
    expect(problems).toEqual([]);
  });

  it("the key check catches a missing or wrong _key, top-level and embedded", () => {
    const good = { _id: "AAAAAAAAAAAAAAAA", _key: "!actors!AAAAAAAAAAAAAAAA", name: "X", items: [{ _id: "BBBBBBBBBBBBBBBB", _key: "!actors.items!AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBB" }] };
    expect(keyProblems("f.json", good, "actors")).toEqual([]);
    const { _key: _unused, ...noKey } = good;
    expect(keyProblems("f.json", noKey, "actors")).toEqual([`f.json: _key undefined should be "!actors!AAAAAAAAAAAAAAAA"`]);
    const badChild = { ...good, items: [{ _id: "BBBBBBBBBBBBBBBB", _key: "!items!BBBBBBBBBBBBBBBB" }] };
    expect(keyProblems("f.json", badChild, "actors")[0]).toMatch(/^f\.json: items\[0\]: _key "!items!BBBBBBBBBBBBBBBB" should be/);
    expect(keyProblems("f.json", { ...good, _id: "short" }, "actors")[0]).toMatch(/_id "short" is not 16 letters or digits/);
  });

  it("have unique ids: top-level across all packs, embedded within their parent", () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const f of files) {
      const id = String(f.doc?._id);
      const other = seen.get(id);
      if (other !== undefined) dupes.push(`${f.file} and ${other} share _id ${id}`);
      seen.set(id, f.file);
      for (const [field, children] of embeddedCollections(f.doc ?? {})) {
        const ids = children.map((c) => String(c._id));
        if (new Set(ids).size !== ids.length) dupes.push(`${f.file}: duplicate ids in ${field}`);
      }
    }
    expect(dupes).toEqual([]);
  });

  it("have unique names within their pack", () => {
    const dupes: string[] = [];
    for (const pack of packDirs()) {
      const names = readPack(pack).map((f) => String(f.doc?.name));
      for (const name of new Set(names)) if (names.filter((n) => n === name).length > 1) dupes.push(`${pack}: ${name}`);
    }
    expect(dupes).toEqual([]);
  });

  it("use only document types declared in system.json (pages: core page types)", () => {
    const problems: string[] = [];
    for (const f of files) {
      const docName = packType.get(f.pack) ?? "";
      const declared = Object.keys(manifest.documentTypes[docName] ?? {});
      const type = f.doc?.type;
      if (docName === "Actor" || docName === "Item") {
        if (!declared.includes(String(type))) problems.push(`${f.file}: ${docName} type ${JSON.stringify(type)} is not in system.json documentTypes`);
      }
      for (const [field, children] of embeddedCollections(f.doc ?? {})) {
        for (const child of children) {
          const allowed = field === "items" ? Object.keys(manifest.documentTypes.Item ?? {}) : field === "pages" ? PAGE_TYPES : undefined;
          if (allowed && !allowed.includes(String(child.type))) problems.push(`${f.file}: ${field} "${String(child.name)}" has type ${JSON.stringify(child.type)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("system.json packs", () => {
  it("declares every pack folder, and every declared pack has a folder", () => {
    expect(manifest.packs.map((p) => p.name).sort()).toEqual(packDirs());
  });

  it("declares each pack with path packs/<name>, system case, a known type, a label and ownership defaults", () => {
    for (const pack of manifest.packs) {
      expect(pack.path, pack.name).toBe(`packs/${pack.name}`);
      expect(pack.system, pack.name).toBe(manifest.id);
      expect(Object.keys(COLLECTION), pack.name).toContain(pack.type);
      expect(pack.label.trim(), pack.name).not.toBe("");
      expect(pack.ownership?.PLAYER, pack.name).toMatch(/^(NONE|LIMITED|OBSERVER|OWNER)$/);
    }
  });

  it("groups every pack in packFolders exactly once, and names no undeclared pack", () => {
    const grouped = packFolderPacks(manifest.packFolders);
    expect([...grouped].sort()).toEqual(manifest.packs.map((p) => p.name).sort());
  });

  it("has the packs and packFolders scripts/generate-packs.ts writes", () => {
    const built = buildPacks();
    expect(manifest.packs).toEqual(manifestPacks(built));
    expect(manifest.packFolders).toEqual(manifestPackFolders());
  });
});

describe("generated sources", () => {
  it("the committed pack files are exactly what scripts/generate-packs.ts writes (edit scripts/packs/, then run npx tsx scripts/generate-packs.ts)", () => {
    const stale: string[] = [];
    for (const pack of buildPacks()) {
      const expected = new Map(pack.documents.map((d) => [`packs/${pack.name}/${sourceFileName(d)}`, serialize(d)]));
      const committed = readPack(pack.name);
      for (const f of committed) {
        const want = expected.get(f.file);
        if (want === undefined) stale.push(`${f.file}: not generated (left over?)`);
        else if (want !== f.text) stale.push(`${f.file}: differs from the generator's output`);
      }
      for (const file of expected.keys()) if (!committed.some((f) => f.file === file)) stale.push(`${file}: generated but not committed`);
    }
    expect(stale).toEqual([]);
  });

  it("ids are stable: the same name in the same pack always gets the same id", () => {
    const first = buildPacks();
    const second = buildPacks();
    expect(second.map((p) => p.documents.map((d) => d._id))).toEqual(first.map((p) => p.documents.map((d) => d._id)));
    const halogen = JSON.parse(readFileSync(readPack("heroes").find((f) => f.doc?.name === "Halogen")?.file ?? "", "utf8")) as SourceDoc;
    expect(halogen._id).toBe(first.find((p) => p.name === "heroes")?.documents.find((d) => d.name === "Halogen")?._id);
  });
});
