/**
 * A compendium pack's index, as Foundry 13 and 14 build it (a double for `game.packs.get(id)`),
 * over the repository's pack sources.
 *
 * What it models (public sources):
 * - `CompendiumCollection#getIndex({ fields })` (foundryvtt.com/api v13 and v14): the index
 *   holds each document's `_id`, `uuid` and the document class's default index fields (for an
 *   Item: `name`, `img`, `type`, `sort`, `folder`); other data only where `fields` names it, at
 *   its nested path (`fields: ["system.rank"]` gives `entry.system.rank`).
 * - dnd5e (foundryvtt/dnd5e, MIT) asks for what it reads: `pack.getIndex({ fields: ["system.identifier"] })`
 *   and then reads `entry.system.identifier`. Nothing in `system` is in the default index.
 */
import { readPack } from "./pack-files";

type Data = Record<string, unknown>;

const DEFAULT_INDEX_FIELDS = ["name", "img", "type", "sort", "folder"] as const;

function getPath(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Data)[part] : undefined), source);
}

function setPath(target: Data, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Data;
  node[parts.at(-1) ?? ""] = value;
}

/** The pack `case.<pack>` from its sources: `getIndex` as Foundry builds it, and the calls it got. */
export function packIndexDouble(pack: string): { readonly collection: string; readonly calls: unknown[]; getIndex(options?: { fields?: readonly string[] }): Promise<Data[]> } {
  const docs = readPack(pack).flatMap(({ doc }) => (doc ? [doc as Data] : []));
  const calls: unknown[] = [];
  return {
    collection: `case.${pack}`,
    calls,
    getIndex(options = {}) {
      calls.push(structuredClone(options));
      return Promise.resolve(
        docs.map((doc) => {
          const entry: Data = { _id: doc._id, uuid: `Compendium.case.${pack}.Item.${String(doc._id)}` };
          for (const field of DEFAULT_INDEX_FIELDS) if (field in doc) entry[field] = doc[field];
          for (const field of options.fields ?? []) {
            const value = getPath(doc, field);
            if (value !== undefined) setPath(entry, field, structuredClone(value));
          }
          return entry;
        }),
      );
    },
  };
}
