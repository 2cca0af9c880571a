#!/usr/bin/env node
// Compiles every pack declared in system.json from its JSON sources (packs/<name>/*.json)
// into LevelDB under dist/packs/<name> (or <out>/packs/<name> with `build-packs.mjs <out>`), with the Foundry CLI. A source file that cannot be
// read, is not JSON, or lacks a well-formed _id/_key stops the build with its path: the CLI
// would otherwise drop it silently.
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { checkPackSource } from "./pack-check.mjs";

const manifest = JSON.parse(readFileSync("system.json", "utf8"));
const packs = manifest.packs ?? [];
const outRoot = process.argv[2] ?? "dist";
mkdirSync(join(outRoot, "packs"), { recursive: true });

for (const pack of packs) {
  const src = join("packs", pack.name);
  const dest = join(outRoot, "packs", pack.name);
  if (!existsSync(src)) throw new Error(`system.json declares pack "${pack.name}" but ${src}/ does not exist.`);
  const files = readdirSync(src, { recursive: true }).filter((f) => String(f).endsWith(".json"));
  for (const file of files) {
    const path = join(src, String(file));
    let doc;
    try {
      doc = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new Error(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const problems = checkPackSource(doc, pack.type);
    if (problems.length) throw new Error(`${path}: ${problems.join("; ")}`);
  }
  rmSync(dest, { recursive: true, force: true });
  await compilePack(src, dest, { recursive: true, log: false });
  console.log(`pack ${pack.name}: ${files.length} documents → ${dest}`);
}
console.log(`${packs.length} pack(s) compiled.`);
