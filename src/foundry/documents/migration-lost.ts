/**
 * Numbers too large to keep, refused by the system-data migrations (data/migrations.ts): where
 * their original text is kept, and how the GM is told.
 *
 * A data model's `migrateData` sees only `system`, so it can refuse a value but not keep it.
 * The document classes (CaseActor, CaseItem) therefore run the same migration on the raw
 * source first, in `_initializeSource` — the step in which Foundry migrates and cleans a source;
 * dnd5e's Actor5e overrides it the same way to rewrite a raw source before that
 * (foundryvtt/dnd5e, module/documents/actor/actor.mjs) — and record each refused text in
 * `flags.case.migrationLost`, one entry per field:
 * `[{ path: "abilities.fighting.value", text: "99999999999999999999" }]`. A list, not an object
 * keyed by path: Foundry expands dotted keys of update data into nested objects. Flags are an
 * object field that Foundry keeps as given, so the record survives cleaning; the world migration
 * writes it to the database with the migrated data. The field itself reads as its default until
 * someone types a new value.
 */
import { SYSTEM_ID } from "../core/constants";
import { migrateCharacterSource, migrateItemSource, type LostValues } from "../data/migrations";

/** The flag (under `flags.case`) that keeps refused texts. */
export const LOST_FLAG = "migrationLost";

/** The actor types whose system data is a character's. */
const CHARACTER_TYPES: ReadonlySet<string> = new Set(["hero", "npc"]);

type Source = Record<string, unknown>;

function isRecord(value: unknown): value is Source {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain object, not a DataModel handed to a constructor (which must not be rewritten in place). */
function isPlainRecord(value: unknown): value is Source {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** One entry of `flags.case.migrationLost`. */
export interface LostFlagEntry {
  readonly path: string;
  readonly text: string;
}

/** The value of `flags.case.migrationLost` that records `lost`. */
export function lostFlagValue(lost: LostValues): LostFlagEntry[] {
  return Object.entries(lost).map(([path, text]) => ({ path, text }));
}

/** The refused texts a document source records (`flags.case.migrationLost`), or {}. */
export function lostValuesOf(source: unknown): LostValues {
  if (!isRecord(source) || !isRecord(source.flags)) return {};
  const ours = source.flags[SYSTEM_ID];
  const entries = isRecord(ours) ? ours[LOST_FLAG] : undefined;
  if (!Array.isArray(entries)) return {};
  const lost: LostValues = {};
  for (const entry of entries as unknown[]) {
    if (isRecord(entry) && typeof entry.path === "string" && typeof entry.text === "string") lost[entry.path] = entry.text;
  }
  return lost;
}

/**
 * Migrates the raw `system` of an Actor or Item source in place and records what it refused
 * in the source's `flags.case.migrationLost` (added to what is already recorded). Returns the
 * texts refused now. Sources of other types, or that are not plain objects, are left alone.
 */
export function keepRefusedNumbers(documentName: "Actor" | "Item", source: unknown): LostValues {
  if (!isPlainRecord(source) || !isPlainRecord(source.system)) return {};
  const lost: LostValues = {};
  if (documentName === "Actor") {
    if (typeof source.type !== "string" || !CHARACTER_TYPES.has(source.type)) return {};
    migrateCharacterSource(source.system, lost);
  } else {
    // Every CASE item type migrates the same way (data/item/items.ts).
    migrateItemSource(source.system, lost);
  }
  if (Object.keys(lost).length === 0) return lost;
  const flags = isRecord(source.flags) ? source.flags : (source.flags = {});
  const existing = flags[SYSTEM_ID];
  const ours = isRecord(existing) ? existing : (flags[SYSTEM_ID] = {});
  ours[LOST_FLAG] = lostFlagValue({ ...lostValuesOf(source), ...lost });
  return lost;
}

/** One refused value, for the GM: which document, which field, the text kept. */
export interface LostEntry {
  readonly document: string;
  readonly path: string;
  readonly text: string;
}

/** The entries of `lost` for the document named `document`. */
export function lostEntries(document: string, lost: LostValues): LostEntry[] {
  return Object.entries(lost).map(([path, text]) => ({ document, path: `system.${path}`, text }));
}

/** How many entries a notification lists by name; the console lists them all. */
const LISTED = 5;

/**
 * Warns about refused values: one console line each, and one localised notification naming the
 * first few (document, field and the text kept).
 */
export function warnLostValues(entries: readonly LostEntry[]): void {
  if (entries.length === 0) return;
  for (const e of entries) {
    console.warn(`${SYSTEM_ID} | ${e.document}: ${e.path} held "${e.text}", too large to be a whole number; it reads as its default, the text is kept in flags.${SYSTEM_ID}.${LOST_FLAG}`);
  }
  const shown = entries.slice(0, LISTED).map((e) => `${e.document}: ${e.path} (${e.text})`);
  const list = entries.length > LISTED ? `${shown.join("; ")}; …` : shown.join("; ");
  ui.notifications.warn(game.i18n.format("CASE.Migration.Refused", { count: String(entries.length), list }), { permanent: true });
}

/** What each document's own construction refused (see `rememberRefused`). */
const refusedAtConstruction = new WeakMap<object, LostValues>();

/**
 * Remembers what `document`'s construction refused, so its `_preCreate` can warn the user who
 * creates it (an import after the world migration). Kept beside the document, not on it: a
 * class field would be reset after the base constructor, which is where `_initializeSource` runs.
 */
export function rememberRefused(document: object, lost: LostValues): void {
  if (Object.keys(lost).length > 0) refusedAtConstruction.set(document, lost);
}

/** What `document`'s construction refused ({} when nothing). */
export function refusedBy(document: object): LostValues {
  return refusedAtConstruction.get(document) ?? {};
}
