/**
 * Schema migrations of system data. `migrateData` runs on every source Foundry loads (world
 * data, compendiums, imports), before validation, so old or foreign shapes are turned into
 * the current one instead of being refused or dropped. Nothing a user typed is lost: a
 * migration only moves or converts values, and keeps what it does not understand.
 */
import { ABILITY_KEYS } from "../../rules/index";

type Source = Record<string, unknown>;

function isRecord(value: unknown): value is Source {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A number written as text ("30") → 30; anything else unchanged (validation will name it). */
function numeric(value: unknown): unknown {
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return value;
}

/**
 * Character (hero/npc) system data:
 * - an ability stored as a bare number (`fighting: 30`, as other FASERIP systems and hand-made
 *   imports write it) becomes `{ value: 30 }`;
 * - numbers written as text become numbers;
 * - a pool stored as a bare number (`health: 120`) becomes `{ value: 120 }`; a stored `max`
 *   is dropped (it is derived) only after its value is kept.
 */
export function migrateCharacterSource(source: Source): Source {
  const abilities = source.abilities;
  if (isRecord(abilities)) {
    for (const key of ABILITY_KEYS) {
      const ability = abilities[key];
      if (typeof ability === "number" || typeof ability === "string") {
        abilities[key] = { value: numeric(ability) };
      } else if (isRecord(ability)) {
        for (const [k, v] of Object.entries(ability)) ability[k] = numeric(v);
      }
    }
  }
  for (const poolKey of ["health", "karma"] as const) {
    const pool = source[poolKey];
    if (typeof pool === "number" || typeof pool === "string") source[poolKey] = { value: numeric(pool) };
    else if (isRecord(pool)) {
      pool.value = numeric(pool.value);
      delete pool.max;
    }
  }
  for (const key of ["resources", "popularity"] as const) {
    if (key in source) source[key] = numeric(source[key]);
  }
  return source;
}

/** Item system data: numbers written as text become numbers, at the top level and one level down. */
export function migrateItemSource(source: Source): Source {
  for (const [k, v] of Object.entries(source)) {
    if (isRecord(v)) for (const [kk, vv] of Object.entries(v)) v[kk] = kk === "type" ? vv : numeric(vv);
    else if (k !== "description" && k !== "notes" && k !== "duration") source[k] = numeric(v);
  }
  return source;
}
