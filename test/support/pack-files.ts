/**
 * Reads the compendium pack sources (packs/<pack>/**.json) and system.json for the pack tests.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface ManifestPack {
  name: string;
  label: string;
  path: string;
  type: string;
  system?: string;
  ownership?: Record<string, string>;
}

export interface PackFolder {
  name: string;
  packs?: string[];
  folders?: PackFolder[];
}

export interface Manifest {
  id: string;
  documentTypes: Record<string, Record<string, unknown>>;
  packs: ManifestPack[];
  packFolders?: PackFolder[];
}

/** A document as read from a pack file (loosely typed: tests check its shape). */
export type SourceDoc = Record<string, unknown> & { _id?: unknown; _key?: unknown; name?: unknown; type?: unknown; system?: unknown };

export interface PackFile {
  /** The pack's name (its folder under packs/). */
  readonly pack: string;
  /** Path relative to the repository root, e.g. "packs/powers/Flight_xxxx.json". */
  readonly file: string;
  /** The raw file text. */
  readonly text: string;
  /** The parsed document, or undefined when the file is not JSON. */
  readonly doc: SourceDoc | undefined;
  readonly parseError?: string;
}

export const PACKS_DIR = "packs";

export function readManifest(root = "."): Manifest {
  return JSON.parse(readFileSync(join(root, "system.json"), "utf8")) as Manifest;
}

/** The pack folders that exist under packs/. */
export function packDirs(root = "."): string[] {
  return readdirSync(join(root, PACKS_DIR), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Every JSON source file of one pack (recursively), parsed. */
export function readPack(pack: string, root = "."): PackFile[] {
  const dir = join(root, PACKS_DIR, pack);
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const file = join(PACKS_DIR, pack, f);
      const text = readFileSync(join(root, file), "utf8");
      try {
        return { pack, file, text, doc: JSON.parse(text) as SourceDoc };
      } catch (error) {
        return { pack, file, text, doc: undefined, parseError: error instanceof Error ? error.message : String(error) };
      }
    });
}

/** Every source file of every pack folder. */
export function readAllPacks(root = "."): PackFile[] {
  return packDirs(root).flatMap((p) => readPack(p, root));
}

/** The embedded documents of a source document: [collection, documents]. */
export function embeddedCollections(doc: SourceDoc): [string, SourceDoc[]][] {
  const out: [string, SourceDoc[]][] = [];
  for (const field of ["items", "pages", "effects", "results"]) {
    const value = doc[field];
    if (Array.isArray(value)) out.push([field, value as SourceDoc[]]);
  }
  return out;
}

/** Every pack name mentioned in packFolders, recursively. */
export function packFolderPacks(folders: readonly PackFolder[] | undefined): string[] {
  return (folders ?? []).flatMap((f) => [...(f.packs ?? []), ...packFolderPacks(f.folders)]);
}
