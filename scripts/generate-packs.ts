#!/usr/bin/env -S npx tsx
/**
 * Writes the compendium pack sources (packs/<pack>/<Name>_<id>.json, one file per document)
 * from the content modules in scripts/packs/, and the `packs` and `packFolders` entries of
 * system.json. Run after changing content or the rules engine:
 *
 *   npx tsx scripts/generate-packs.ts
 *
 * The JSON is committed; test/packs fails when it differs from what this script would write.
 * Stale files (documents no longer generated) are removed from the generated pack folders.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPacks, manifestPackFolders, manifestPacks } from "./packs/build";
import { sourceFileName } from "./packs/documents";

/** The serialised form of a pack source file. */
export function serialize(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** system.json with its `packs` and `packFolders` replaced, everything else kept in place. */
export function updatedManifest(text: string): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  const packs = buildPacks();
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === "packFolders") continue;
    out[key] = key === "packs" ? manifestPacks(packs) : value;
    if (key === "packs") out.packFolders = manifestPackFolders();
  }
  return serialize(out);
}

function main(root: string): void {
  for (const pack of buildPacks()) {
    const dir = join(root, "packs", pack.name);
    mkdirSync(dir, { recursive: true });
    const written = new Set<string>();
    for (const doc of pack.documents) {
      const file = sourceFileName(doc);
      if (written.has(file)) throw new Error(`Two documents in pack ${pack.name} would be written to ${file}.`);
      written.add(file);
      writeFileSync(join(dir, file), serialize(doc));
    }
    for (const file of readdirSync(dir)) {
      if (file.endsWith(".json") && !written.has(file)) rmSync(join(dir, file));
    }
    console.log(`packs/${pack.name}: ${pack.documents.length} documents`);
  }
  const manifestPath = join(root, "system.json");
  writeFileSync(manifestPath, updatedManifest(readFileSync(manifestPath, "utf8")));
  console.log("system.json: packs and packFolders updated");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(resolve(fileURLToPath(import.meta.url), "..", ".."));
}
