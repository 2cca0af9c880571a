/**
 * The character builder's model (issue 11 item 6), pure: the build a player is making (random
 * or point-based, rules creation.ts), every step it can re-roll or edit, the window's template
 * data, and the one write a confirmed build makes. Nothing here touches Foundry, so the
 * window (character-builder.ts) is a thin shell and this is what the tests drive.
 *
 * The powers and talents are drawn from the system's compendiums: the window reads their
 * indexes into a {@link BuilderCatalogue}. There is no contacts compendium: contacts are new
 * contact items with names the player types.
 */
import {
  ABILITY_KEYS,
  DEFAULT_POINT_RULES,
  DEFAULT_RANDOM_TABLES,
  STARTING_POPULARITY,
  characterStats,
  checkPointBuild,
  isRankNumber,
  randomCharacter,
  randomRank,
  rankByKey,
  readD100Table,
  type AbilityKey,
  type BuildProblem,
  type PointBuildCheck,
  type RollFn,
} from "../../../rules/index";
import { rankLabel, type RankLabel } from "../sheet/rank-label";
import { readWhole } from "../../core/format";

/** How the hero is made. */
export const BUILD_METHODS = ["random", "points"] as const;
export type BuildMethod = (typeof BUILD_METHODS)[number];

/** A power or talent the compendiums offer. */
export interface CatalogueEntry {
  readonly uuid: string;
  readonly name: string;
  /** A power's rank as the compendium has it (null for talents). */
  readonly rank: number | null;
}

/** What the builder may draw from, sorted by name. */
export interface BuilderCatalogue {
  readonly powers: readonly CatalogueEntry[];
  readonly talents: readonly CatalogueEntry[];
}

export interface PowerPick {
  readonly uuid: string;
  readonly name: string;
  readonly rank: number;
}

export interface TalentPick {
  readonly uuid: string;
  readonly name: string;
}

/** A build in progress. Nothing of it is saved until the player confirms. */
export interface BuilderState {
  readonly method: BuildMethod;
  readonly name: string;
  readonly abilities: Readonly<Record<AbilityKey, number>>;
  readonly resources: number;
  readonly popularity: number;
  readonly powers: readonly PowerPick[];
  readonly talents: readonly TalentPick[];
  /** The contacts' names. */
  readonly contacts: readonly string[];
  /** Localised error messages of the last edit (shown until the next one). */
  readonly errors: readonly BuilderError[];
}

/** An edit the builder refused, as a `CASE.Builder.Error.<code>` key and the field at fault. */
export interface BuilderError {
  readonly code: "rank" | "popularity" | "name" | "unknownPower" | "unknownTalent" | "duplicate" | "empty";
  readonly field: string;
}

/** [RULING] The most powers, talents or contacts a build may list (a guard for the window). */
export const MAX_BUILDER_ITEMS = 20;
/** The rank every ability starts at in a blank build (Typical: the average human). */
export const BLANK_RANK = rankByKey("typical").number;

/** A blank build: every ability, and Resources, Typical; no powers, talents or contacts. */
export function blankBuild(method: BuildMethod, name = ""): BuilderState {
  const abilities = Object.fromEntries(ABILITY_KEYS.map((k) => [k, BLANK_RANK])) as Record<AbilityKey, number>;
  return { method, name, abilities, resources: BLANK_RANK, popularity: STARTING_POPULARITY, powers: [], talents: [], contacts: [], errors: [] };
}

/** A build that starts from what an existing character has (abilities, Resources, Popularity), or blank. */
export function startBuild(method: BuildMethod, target: BuilderTarget | null): BuilderState {
  const blank = blankBuild(method, target?.name ?? "");
  return target ? { ...blank, abilities: { ...target.abilities }, resources: target.resources, popularity: target.popularity } : blank;
}

/** A whole number 1…n from the die (RangeError for anything else). */
function pickIndex(roll: RollFn, n: number): number {
  const r = roll(n);
  if (!Number.isInteger(r) || r < 1 || r > n) throw new RangeError(`A d${n} rolled ${r}.`);
  return r - 1;
}

/** `count` entries drawn without repeats, skipping `taken` uuids (fewer when the catalogue runs out). */
export function drawDistinct(entries: readonly CatalogueEntry[], count: number, roll: RollFn, taken: readonly string[] = []): CatalogueEntry[] {
  const pool = entries.filter((e) => !taken.includes(e.uuid));
  const out: CatalogueEntry[] = [];
  while (out.length < count && pool.length > 0) {
    const [picked] = pool.splice(pickIndex(roll, pool.length), 1);
    if (picked) out.push(picked);
  }
  return out;
}

function powerPick(entry: CatalogueEntry, roll: RollFn): PowerPick {
  return { uuid: entry.uuid, name: entry.name, rank: randomRank(roll(100), DEFAULT_RANDOM_TABLES.ranks) };
}

function contactNames(count: number, contactName: (n: number) => string, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => contactName(from + i + 1));
}

/**
 * A random build (rules creation.ts `randomCharacter`): the abilities, Resources and how many
 * powers, talents and contacts; then the powers (each at a random rank) and talents drawn from
 * the catalogue, and the contacts named by `contactName`.
 */
export function rollBuild(roll: RollFn, catalogue: BuilderCatalogue, contactName: (n: number) => string, name = ""): BuilderState {
  const c = randomCharacter(roll);
  const powers = drawDistinct(catalogue.powers, c.powers, roll).map((e) => powerPick(e, roll));
  const talents = drawDistinct(catalogue.talents, c.talents, roll).map(({ uuid, name: n }) => ({ uuid, name: n }));
  return { method: "random", name, abilities: c.abilities, resources: c.resources, popularity: c.popularity, powers, talents, contacts: contactNames(c.contacts, contactName), errors: [] };
}

/** The steps a player can re-roll: one ability, all of them, Resources, a power, a talent, or a list's count and picks. */
export type RerollStep =
  | { readonly step: "abilities" | "resources" | "powers" | "talents" | "contacts" }
  | { readonly step: "ability"; readonly key: AbilityKey }
  | { readonly step: "power" | "powerRank" | "talent"; readonly index: number };

/** The state with one step rolled again (the rest kept). */
export function reroll(state: BuilderState, what: RerollStep, roll: RollFn, catalogue: BuilderCatalogue, contactName: (n: number) => string): BuilderState {
  const t = DEFAULT_RANDOM_TABLES;
  const next = { ...state, errors: [] };
  switch (what.step) {
    case "abilities":
      return { ...next, abilities: Object.fromEntries(ABILITY_KEYS.map((k) => [k, randomRank(roll(100), t.ranks)])) as Record<AbilityKey, number> };
    case "ability":
      return { ...next, abilities: { ...state.abilities, [what.key]: randomRank(roll(100), t.ranks) } };
    case "resources":
      return { ...next, resources: randomRank(roll(100), t.ranks) };
    case "powers": {
      const count = readD100Table(t.powers, roll(100));
      return { ...next, powers: drawDistinct(catalogue.powers, count, roll).map((e) => powerPick(e, roll)) };
    }
    case "talents": {
      const count = readD100Table(t.talents, roll(100));
      return { ...next, talents: drawDistinct(catalogue.talents, count, roll).map(({ uuid, name }) => ({ uuid, name })) };
    }
    case "contacts":
      return { ...next, contacts: contactNames(readD100Table(t.contacts, roll(100)), contactName) };
    case "power": {
      const [entry] = drawDistinct(catalogue.powers, 1, roll, state.powers.map((p) => p.uuid));
      if (!entry || !state.powers[what.index]) return next;
      return { ...next, powers: state.powers.map((p, i) => (i === what.index ? powerPick(entry, roll) : p)) };
    }
    case "powerRank":
      return { ...next, powers: state.powers.map((p, i) => (i === what.index ? { ...p, rank: randomRank(roll(100), t.ranks) } : p)) };
    case "talent": {
      const [entry] = drawDistinct(catalogue.talents, 1, roll, state.talents.map((p) => p.uuid));
      if (!entry || !state.talents[what.index]) return next;
      return { ...next, talents: state.talents.map((p, i) => (i === what.index ? { uuid: entry.uuid, name: entry.name } : p)) };
    }
  }
}

/** Adds the first power or talent not yet taken (its compendium rank, or Typical), or a contact. */
export function addEntry(state: BuilderState, list: "powers" | "talents" | "contacts", catalogue: BuilderCatalogue, contactName: (n: number) => string): BuilderState {
  const next = { ...state, errors: [] };
  const full = state[list].length >= MAX_BUILDER_ITEMS;
  if (list === "contacts") return full ? next : { ...next, contacts: [...state.contacts, ...contactNames(1, contactName, state.contacts.length)] };
  const taken = state[list].map((p) => p.uuid);
  const entry = catalogue[list].find((e) => !taken.includes(e.uuid));
  if (full || !entry) return next;
  if (list === "powers") return { ...next, powers: [...state.powers, { uuid: entry.uuid, name: entry.name, rank: entry.rank ?? BLANK_RANK }] };
  return { ...next, talents: [...state.talents, { uuid: entry.uuid, name: entry.name }] };
}

/** Removes one power, talent or contact. */
export function removeEntry(state: BuilderState, list: "powers" | "talents" | "contacts", index: number): BuilderState {
  const keep = <T>(items: readonly T[]) => items.filter((_, i) => i !== index);
  if (list === "powers") return { ...state, powers: keep(state.powers), errors: [] };
  if (list === "talents") return { ...state, talents: keep(state.talents), errors: [] };
  return { ...state, contacts: keep(state.contacts), errors: [] };
}

/**
 * The state after the player's edits (the window's form, flattened: `abilities.fighting`,
 * `resources`, `popularity`, `name`, `method`, `powers.0.uuid`, `powers.0.rank`,
 * `talents.0.uuid`, `contacts.0`). A value it cannot take (a rank of −3, an unknown power, a
 * power taken twice, an empty contact) is refused with an error and the old value kept.
 */
export function applyEdits(state: BuilderState, form: Readonly<Record<string, unknown>>, catalogue: BuilderCatalogue): BuilderState {
  const errors: BuilderError[] = [];
  const rank = (field: string, old: number): number => {
    if (!(field in form)) return old;
    const n = readWhole(form[field]);
    if (n === null || !isRankNumber(n)) {
      errors.push({ code: "rank", field });
      return old;
    }
    return n;
  };
  const abilities = Object.fromEntries(ABILITY_KEYS.map((k) => [k, rank(`abilities.${k}`, state.abilities[k])])) as Record<AbilityKey, number>;
  const resources = rank("resources", state.resources);
  let popularity = state.popularity;
  if ("popularity" in form) {
    const n = readWhole(form.popularity);
    if (n === null || Math.abs(n) > 1000) errors.push({ code: "popularity", field: "popularity" });
    else popularity = n;
  }
  let name = state.name;
  if (typeof form.name === "string") {
    if (form.name.trim().length > 200) errors.push({ code: "name", field: "name" });
    else name = form.name.trim();
  }
  const method = BUILD_METHODS.find((m) => m === form.method) ?? state.method;
  const pickOf = <T extends { uuid: string; name: string }>(list: "powers" | "talents", old: T, i: number, make: (e: CatalogueEntry) => T): T => {
    const field = `${list}.${i}.uuid`;
    const uuid = form[field];
    if (uuid === undefined || uuid === old.uuid) return old;
    const entry = catalogue[list].find((e) => e.uuid === uuid);
    if (!entry) {
      errors.push({ code: list === "powers" ? "unknownPower" : "unknownTalent", field });
      return old;
    }
    return make(entry);
  };
  const powers = state.powers.map((p, i) => {
    const picked = pickOf("powers", p, i, (e) => ({ uuid: e.uuid, name: e.name, rank: p.rank }));
    return { ...picked, rank: rank(`powers.${i}.rank`, p.rank) };
  });
  const talents = state.talents.map((t, i) => pickOf("talents", t, i, (e) => ({ uuid: e.uuid, name: e.name })));
  const contacts = state.contacts.map((c, i) => {
    const raw = form[`contacts.${i}`];
    if (typeof raw !== "string") return c;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.length > 200) {
      errors.push({ code: "empty", field: `contacts.${i}` });
      return c;
    }
    return trimmed;
  });
  const twice = (list: readonly { uuid: string }[], label: string, old: readonly { uuid: string }[]) => {
    const seen = new Set<string>();
    for (const [i, p] of list.entries()) {
      if (seen.has(p.uuid)) {
        errors.push({ code: "duplicate", field: `${label}.${i}.uuid` });
        return old;
      }
      seen.add(p.uuid);
    }
    return list;
  };
  return {
    method,
    name,
    abilities,
    resources,
    popularity,
    powers: twice(powers, "powers", state.powers) as PowerPick[],
    talents: twice(talents, "talents", state.talents) as TalentPick[],
    contacts,
    errors,
  };
}

/** The points a build spends (rules creation.ts `checkPointBuild`, the default costs). */
export function pointCheck(state: BuilderState): PointBuildCheck {
  return checkPointBuild({ abilities: state.abilities, powers: state.powers.map((p) => p.rank), talents: state.talents.length, contacts: state.contacts.length, resources: state.resources });
}

/** Whether the build may be written: no refused edit pending, and a point build within its budget and limits. */
export function mayConfirm(state: BuilderState): boolean {
  return state.errors.length === 0 && (state.method === "random" || pointCheck(state).valid);
}

// ---------------------------------------------------------------------------------------------
// The write
// ---------------------------------------------------------------------------------------------

/** What the actor has now, as far as the build touches it. */
export interface BuilderTarget {
  readonly name: string;
  readonly abilities: Readonly<Record<AbilityKey, number>>;
  readonly resources: number;
  readonly popularity: number;
  readonly health: number;
  readonly karma: number;
  readonly items: readonly { readonly name: string; readonly type: string }[];
}

/** One value the confirm replaces. */
export interface BuilderChange {
  /** A localisation key (`CASE.Ability.fighting`, `CASE.Sheet.Health` …). */
  readonly label: string;
  readonly from: number;
  readonly to: number;
}

/** A confirmed build as one actor update and one list of items to create. */
export interface BuilderWrite {
  /** The actor update (flattened paths). */
  readonly update: Record<string, number>;
  /** The items to create: compendium powers (with the build's rank), compendium talents, new contacts. */
  readonly create: readonly ({ readonly type: "power"; readonly uuid: string; readonly name: string; readonly rank: number } | { readonly type: "talent"; readonly uuid: string; readonly name: string } | { readonly type: "contact"; readonly name: string })[];
  /** What changes value. */
  readonly changes: readonly BuilderChange[];
  /** Items the actor already has by that name and type: kept as they are, not added twice. */
  readonly kept: readonly string[];
}

/**
 * The write a confirmed build makes on `target` (null: a new actor): the abilities, Resources
 * and Popularity, Health and Karma full (their maxima from the new abilities), and the items
 * the actor does not already have by name and type. Nothing is deleted: the actor's other
 * items stay.
 */
export function builderWrite(state: BuilderState, target: BuilderTarget | null): BuilderWrite {
  const stats = characterStats(Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: state.abilities[k] }])) as Parameters<typeof characterStats>[0]);
  const update: Record<string, number> = {};
  const changes: BuilderChange[] = [];
  const set = (path: string, label: string, to: number, from: number | undefined) => {
    update[path] = to;
    if (from !== undefined && from !== to) changes.push({ label, from, to });
  };
  for (const k of ABILITY_KEYS) set(`system.abilities.${k}.value`, `CASE.Ability.${k}`, state.abilities[k], target?.abilities[k]);
  set("system.resources", "CASE.Sheet.Resources", state.resources, target?.resources);
  set("system.popularity", "CASE.Sheet.Popularity", state.popularity, target?.popularity);
  set("system.health.value", "CASE.Sheet.Health", stats.healthMax, target?.health);
  set("system.karma.value", "CASE.Sheet.Karma", stats.karmaMax, target?.karma);
  const has = (type: string, name: string) => target?.items.some((i) => i.type === type && i.name === name) ?? false;
  const kept: string[] = [];
  const create: BuilderWrite["create"][number][] = [];
  for (const p of state.powers) {
    if (has("power", p.name)) kept.push(p.name);
    else create.push({ type: "power", uuid: p.uuid, name: p.name, rank: p.rank });
  }
  for (const t of state.talents) {
    if (has("talent", t.name)) kept.push(t.name);
    else create.push({ type: "talent", uuid: t.uuid, name: t.name });
  }
  for (const name of state.contacts) {
    if (has("contact", name)) kept.push(name);
    else create.push({ type: "contact", name });
  }
  return { update, create, changes, kept };
}

// ---------------------------------------------------------------------------------------------
// The window's template data
// ---------------------------------------------------------------------------------------------

export interface BuilderContext {
  readonly method: BuildMethod;
  readonly methods: readonly { readonly value: BuildMethod; readonly labelKey: string; readonly checked: boolean }[];
  readonly random: boolean;
  readonly isNew: boolean;
  readonly name: string;
  readonly abilities: readonly { readonly key: AbilityKey; readonly label: string; readonly field: string; readonly rank: RankLabel }[];
  readonly resources: RankLabel;
  readonly popularity: number;
  readonly derived: readonly { readonly label: string; readonly value: number }[];
  /** `overBy`: the points spent beyond the budget (0 within it), said instead of a negative "left". */
  readonly points: { readonly budget: number; readonly spent: number; readonly remaining: number; readonly over: boolean; readonly overBy: number } | null;
  readonly problems: readonly { readonly key: string; readonly field: string; readonly fieldLabel: ReturnType<typeof builderFieldLabel> }[];
  readonly errors: readonly { readonly key: string; readonly field: string; readonly fieldLabel: ReturnType<typeof builderFieldLabel> }[];
  readonly powers: readonly { readonly index: number; readonly number: number; readonly name: string; readonly rank: RankLabel; readonly options: readonly { readonly uuid: string; readonly name: string; readonly selected: boolean }[] }[];
  readonly talents: readonly { readonly index: number; readonly number: number; readonly name: string; readonly options: readonly { readonly uuid: string; readonly name: string; readonly selected: boolean }[] }[];
  readonly contacts: readonly { readonly index: number; readonly number: number; readonly name: string }[];
  readonly mayAddPower: boolean;
  readonly mayAddTalent: boolean;
  readonly mayAddContact: boolean;
  readonly canConfirm: boolean;
  /** What confirming will replace on an existing actor. */
  readonly replaces: readonly BuilderChange[];
  readonly kept: readonly string[];
  readonly adds: number;
}

function options(entries: readonly CatalogueEntry[], selected: string, takenElsewhere: readonly string[]) {
  return entries.filter((e) => e.uuid === selected || !takenElsewhere.includes(e.uuid)).map((e) => ({ uuid: e.uuid, name: e.name, selected: e.uuid === selected }));
}

const NAMED_FIELDS = ["budget", "name", "popularity", "resources"] as const;

/**
 * The words for a field an error or a problem names, never its form id: "abilities.reason" and
 * "reason" → the ability's name; "powers.1.uuid", "powers.1.rank" and "power 2" → power 2. A field
 * this list does not know (a new one) shows as it is rather than be guessed at.
 */
export function builderFieldLabel(field: string): { readonly key: string | null; readonly n: number | null; readonly text: string } {
  const ability = field.replace(/^abilities\./, "");
  if ((ABILITY_KEYS as readonly string[]).includes(ability)) return { key: `CASE.Ability.${ability}`, n: null, text: field };
  if ((NAMED_FIELDS as readonly string[]).includes(field)) return { key: `CASE.Builder.Field.${field}`, n: null, text: field };
  const listed = /^(power|talent|contact)s\.(\d+)(\.uuid|\.rank)?$/.exec(field);
  if (listed?.[1] && listed[2]) return { key: `CASE.Builder.Field.${listed[1]}`, n: Number(listed[2]) + 1, text: field };
  const numbered = /^power (\d+)$/.exec(field);
  if (numbered?.[1]) return { key: "CASE.Builder.Field.power", n: Number(numbered[1]), text: field };
  return { key: null, n: null, text: field };
}

/** The builder window's template data. */
export function builderContext(state: BuilderState, catalogue: BuilderCatalogue, target: BuilderTarget | null): BuilderContext {
  const stats = characterStats(Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: state.abilities[k] }])) as Parameters<typeof characterStats>[0]);
  const check = pointCheck(state);
  const write = builderWrite(state, target);
  const powerUuids = state.powers.map((p) => p.uuid);
  const talentUuids = state.talents.map((t) => t.uuid);
  const problem = (p: BuildProblem) => ({ key: `CASE.Builder.Problem.${p.code}`, field: p.field, fieldLabel: builderFieldLabel(p.field) });
  return {
    method: state.method,
    methods: BUILD_METHODS.map((value) => ({ value, labelKey: `CASE.Builder.Method.${value}`, checked: value === state.method })),
    random: state.method === "random",
    isNew: target === null,
    name: state.name,
    abilities: ABILITY_KEYS.map((key) => ({ key, label: `CASE.Ability.${key}`, field: `abilities.${key}`, rank: rankLabel(state.abilities[key]) })),
    resources: rankLabel(state.resources),
    popularity: state.popularity,
    derived: [
      { label: "CASE.Sheet.Health", value: stats.healthMax },
      { label: "CASE.Sheet.Karma", value: stats.karmaMax },
      { label: "CASE.Builder.Initiative", value: stats.initiative },
    ],
    points: state.method === "points" ? { budget: DEFAULT_POINT_RULES.budget, spent: check.spent, remaining: check.remaining, over: check.remaining < 0, overBy: Math.max(0, -check.remaining) } : null,
    problems: state.method === "points" ? check.problems.map(problem) : [],
    errors: state.errors.map((e) => ({ key: `CASE.Builder.Error.${e.code}`, field: e.field, fieldLabel: builderFieldLabel(e.field) })),
    powers: state.powers.map((p, index) => ({ index, number: index + 1, name: p.name, rank: rankLabel(p.rank), options: options(catalogue.powers, p.uuid, powerUuids) })),
    talents: state.talents.map((t, index) => ({ index, number: index + 1, name: t.name, options: options(catalogue.talents, t.uuid, talentUuids) })),
    contacts: state.contacts.map((name, index) => ({ index, number: index + 1, name })),
    mayAddPower: state.powers.length < MAX_BUILDER_ITEMS && catalogue.powers.some((e) => !powerUuids.includes(e.uuid)),
    mayAddTalent: state.talents.length < MAX_BUILDER_ITEMS && catalogue.talents.some((e) => !talentUuids.includes(e.uuid)),
    mayAddContact: state.contacts.length < MAX_BUILDER_ITEMS,
    canConfirm: mayConfirm(state),
    replaces: write.changes,
    kept: write.kept,
    adds: write.create.length,
  };
}
