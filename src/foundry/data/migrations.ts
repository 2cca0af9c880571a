/**
 * Schema migrations of system data. `migrateData` runs on every source Foundry loads (world
 * data, compendiums, imports), before validation, so old or foreign shapes are turned into
 * the current one instead of being refused or dropped. Nothing a user typed is lost: a
 * migration only moves or converts values, and keeps what it does not understand.
 *
 * Two limits of that promise, and where they are kept:
 * - Foundry's cleaning then prunes keys the schema does not define from the in-memory source;
 *   the database keeps them as long as nobody replaces the whole `system` object. The world
 *   migration therefore merges its write-back (world-migration.ts), never replaces.
 * - A number written as text beyond Number.MAX_SAFE_INTEGER ("99999999999999999999") cannot
 *   be stored as a whole number. We refuse it instead of letting the whole document fail
 *   validation: the field is left out (so it reads as its default) and the original text is
 *   recorded in `lost` under the field's path. The document classes keep that record in
 *   `flags.case.migrationLost` (documents/migration-lost.ts), which Foundry stores as is, and
 *   the GM is warned naming the field. We chose flags over a schema field so the text survives
 *   without a schema change, and over the notes so a user's own text is never rewritten.
 */
import { ABILITY_KEYS } from "../../rules/index";

type Source = Record<string, unknown>;

/** Original texts refused by a migration, by dotted path under `system` ("abilities.fighting.value"). */
export type LostValues = Record<string, string>;

/** How much of a source a migration sees. */
export interface MigrationOptions {
  /**
   * A partial source (an unlinked token's actor delta, which stores only what it overrides):
   * nothing is inferred from keys that are absent.
   */
  readonly partial?: boolean;
}

function isRecord(value: unknown): value is Source {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Marks a value the migration refuses: the caller leaves its key out. */
const REFUSED = Symbol("refused");

/**
 * A number written as text ("30") → 30; a digit string too large for a safe integer → REFUSED
 * (its text recorded in `lost` at `path`); anything else unchanged (validation will name it).
 */
function numeric(value: unknown, path: string, lost: LostValues): unknown {
  if (typeof value !== "string" || !/^\s*-?\d+\s*$/.test(value)) return value;
  const number = Number(value);
  if (Number.isSafeInteger(number)) return number;
  lost[path] = value;
  return REFUSED;
}

/** Converts `record[key]` in place with `numeric`, removing the key when the value is refused. */
function convertKey(record: Source, key: string, path: string, lost: LostValues): void {
  if (!(key in record)) return;
  const value = numeric(record[key], path, lost);
  if (value === REFUSED) Reflect.deleteProperty(record, key);
  else record[key] = value;
}

/**
 * Character (hero/npc) system data:
 * - an ability stored as a bare number (`fighting: 30`, as other FASERIP systems and hand-made
 *   imports write it) becomes `{ value: 30 }`;
 * - numbers written as text become numbers; digit strings too large to be one are refused
 *   (recorded in `lost`);
 * - a pool stored as a bare number (`health: 120`) becomes `{ value: 120 }`; a pool without
 *   `value` takes its legacy `current`, else (in a whole source) its stored `max`, so an old
 *   hero is not left at 0 Health; a stored `max` is then dropped (it is derived).
 */
export function migrateCharacterSource(source: Source, lost: LostValues = {}, options: MigrationOptions = {}): Source {
  const abilities = source.abilities;
  if (isRecord(abilities)) {
    for (const key of ABILITY_KEYS) {
      const ability = abilities[key];
      if (typeof ability === "number" || typeof ability === "string") {
        const value = numeric(ability, `abilities.${key}`, lost);
        abilities[key] = value === REFUSED ? {} : { value };
      } else if (isRecord(ability)) {
        for (const k of Object.keys(ability)) convertKey(ability, k, `abilities.${key}.${k}`, lost);
      }
    }
  }
  for (const poolKey of ["health", "karma"] as const) {
    const pool = source[poolKey];
    if (typeof pool === "number" || typeof pool === "string") {
      const value = numeric(pool, poolKey, lost);
      source[poolKey] = value === REFUSED ? {} : { value };
    } else if (isRecord(pool)) {
      for (const k of ["value", "current", "max"]) convertKey(pool, k, `${poolKey}.${k}`, lost);
      // A delta that overrides only `max` says nothing about the current value: leave it to the base actor.
      const fallback = options.partial === true ? pool.current : (pool.current ?? pool.max);
      if (pool.value === undefined && fallback !== undefined) pool.value = fallback;
      delete pool.max;
    }
  }
  for (const key of ["resources", "popularity"] as const) convertKey(source, key, key, lost);
  return source;
}

/** Item system keys that hold text, never numbers. */
const ITEM_TEXT_KEYS = new Set(["description", "notes", "duration"]);

/**
 * Item system data: numbers written as text become numbers, at the top level and one level
 * down. A power's protection given as a bare rank (`protection: 30`, as hand-made imports write
 * it) becomes body protection at that rank (`{ physical: true, rank: 30 }`); keys the migration
 * does not know are left as they are.
 */
export function migrateItemSource(source: Source, lost: LostValues = {}): Source {
  for (const [k, v] of Object.entries(source)) {
    if (isRecord(v)) {
      for (const kk of Object.keys(v)) if (kk !== "type") convertKey(v, kk, `${k}.${kk}`, lost);
    } else if (!ITEM_TEXT_KEYS.has(k)) convertKey(source, k, k, lost);
  }
  if (typeof source.protection === "number") source.protection = { physical: true, rank: source.protection };
  migrateArea(source, lost);
  migrateResisted(source);
  return source;
}

/**
 * A resisted power as hand-made imports write it: a bare ability (`resisted: "Psyche"`) or a
 * top-level `resistedBy` names the ability (lower-cased); a hold named as the effect
 * (`effect: "Full Hold"`) becomes the hold. Anything else is left for validation to name.
 */
function migrateResisted(source: Source): void {
  if (source.resistedBy !== undefined && source.resisted === undefined) {
    source.resisted = { by: source.resistedBy };
    delete source.resistedBy;
  }
  if (typeof source.resisted === "string") source.resisted = { by: source.resisted };
  const r = source.resisted;
  if (!isRecord(r)) return;
  if (typeof r.by === "string") r.by = r.by.trim().toLowerCase();
  if (typeof r.effect === "string") {
    const hold = r.effect.replace(/\s+/g, "").toLowerCase();
    if (hold === "partialhold" || hold === "fullhold") r.effect = hold === "partialhold" ? "partialHold" : "fullHold";
  }
}

/**
 * An attack's area as hand-made imports write it: a bare radius (`attack.area: 2`, or "2") is a
 * burst of that many areas; a shape name alone (`attack.area: "line"`) takes the default size.
 * A top-level `area` (as other systems keep it) moves under `attack` when the attack has none.
 * Anything else is left for validation to name.
 */
function migrateArea(source: Source, lost: LostValues): void {
  let attack = source.attack;
  if (source.area !== undefined && (attack === undefined || (isRecord(attack) && attack.area === undefined))) {
    if (!isRecord(attack)) source.attack = attack = {};
    if (isRecord(attack)) attack.area = source.area;
    delete source.area;
  }
  if (!isRecord(attack)) return;
  const area = attack.area;
  if (typeof area === "number" || (typeof area === "string" && /^\s*\d+\s*$/.test(area))) attack.area = { shape: "burst", radius: Number(area) };
  else if (typeof area === "string" && ["none", "burst", "line"].includes(area)) attack.area = { shape: area };
  else if (isRecord(area)) convertKey(area, "radius", "attack.area.radius", lost);
}
