/**
 * Initiative (CASE-RULES §4, Table 23): 1d10 + a modifier by Intuition rank; higher goes
 * first. Also the optional initiative rules [001]: roll once per combat, modifier only, fixed
 * order, and team initiative.
 */
import type { RankTable } from "./abilities";
import { RANKS, assertRankNumber, rankOf } from "./ranks";
import { RulesRangeError, RulesTypeError, type RulesErrorKey, type ErrorData } from "./errors";

// ---------------------------------------------------------------------------------------------
// Table 23
// ---------------------------------------------------------------------------------------------

/**
 * [RULING] Initiative modifier of a Shift 0 Intuition. Table 23 starts at Feeble (−2) and
 * goes up by one a rank; we continue the step down: −3.
 */
export const INITIATIVE_SHIFT0_MODIFIER = -3;

/**
 * Table 23 — initiative modifier by Intuition rank [001, CASE-RULES §4]; Shift 0 is
 * {@link INITIATIVE_SHIFT0_MODIFIER} [RULING]. Data: pass a replacement to
 * {@link initiativeModifier}.
 */
export const INITIATIVE_MODIFIERS: RankTable<number> = Object.freeze({
  shift0: INITIATIVE_SHIFT0_MODIFIER,
  feeble: -2,
  poor: -1,
  typical: 0,
  good: 1,
  excellent: 2,
  remarkable: 3,
  incredible: 4,
  amazing: 5,
  monstrous: 6,
  unearthly: 7,
  shiftX: 8,
  shiftY: 9,
  shiftZ: 10,
  class1000: 15,
  class3000: 20,
  class5000: 25,
});

function assertWhole(n: number, key: RulesErrorKey, data: ErrorData): void {
  if (typeof n !== "number" || !Number.isSafeInteger(n)) {
    throw new RulesRangeError(key, { ...data, got: String(n) });
  }
}

/** Throws unless `table` has exactly one whole-number modifier per rank key. */
export function validateInitiativeModifiers(table: unknown): asserts table is RankTable<number> {
  if (typeof table !== "object" || table === null) {
    throw new RulesTypeError("rankTableNotObject", { field: "initiativeModifierTable", got: String(table) });
  }
  const record = table as Partial<Record<string, unknown>>;
  const known = new Set<string>(RANKS.map((r) => r.key));
  for (const key of Object.keys(record)) {
    if (!known.has(key)) throw new RulesRangeError("rankTableUnknownRank", { field: "initiativeModifierTable", rank: key });
  }
  for (const rank of RANKS) assertWhole(record[rank.key] as number, "initiativeModifierForRank", { rank: rank.key });
}

/**
 * The initiative modifier for Intuition rank number `intuition`, Table 23 [001].
 * RangeError for an invalid rank number.
 */
export function initiativeModifier(intuition: number, table: RankTable<number> = INITIATIVE_MODIFIERS): number {
  assertRankNumber(intuition, "intuition");
  if (table !== INITIATIVE_MODIFIERS) validateInitiativeModifiers(table);
  return table[rankOf(intuition).key];
}

/** Initiative is rolled on one die of this many sides [001]. */
export const INITIATIVE_DIE_SIDES = 10;

/** Throws a RangeError unless `d10` is a whole number 1–10. */
export function assertInitiativeRoll(d10: number): void {
  if (typeof d10 !== "number" || !Number.isInteger(d10) || d10 < 1 || d10 > INITIATIVE_DIE_SIDES) {
    throw new RulesRangeError("notWholeInRange", { field: "d10", min: 1, max: INITIATIVE_DIE_SIDES, got: String(d10) });
  }
}

/** Initiative = d10 + modifier [001]. RangeError for a bad die or a non-whole modifier. */
export function initiativeTotal(d10: number, modifier: number): number {
  assertInitiativeRoll(d10);
  assertWhole(modifier, "notWhole", { field: "initiativeModifier" });
  return d10 + modifier;
}

// ---------------------------------------------------------------------------------------------
// Order
// ---------------------------------------------------------------------------------------------

/** One combatant's initiative. */
export interface InitiativeEntry {
  /** Unique id (a combatant id). */
  readonly id: string;
  /** The initiative total (d10 + modifier, or the modifier alone). */
  readonly total: number;
  /** The Table 23 modifier, used to break ties. */
  readonly modifier: number;
  /** A roll-off (d10) supplied by the caller for ties still standing; higher first. */
  readonly tiebreak?: number;
}

/**
 * [RULING] Ties on total go to the higher modifier (the quicker wits) before a roll-off.
 * The sources are silent. `false`: ties go straight to the roll-off.
 */
export const INITIATIVE_TIES_BY_MODIFIER = true;

/** Options for {@link orderInitiative} and {@link initiativeTies}. */
export interface InitiativeOrderOptions {
  /** Override {@link INITIATIVE_TIES_BY_MODIFIER}. */
  readonly tiesByModifier?: boolean;
}

/** A short description of an untrusted value for an error message. */
function show(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean" || value === undefined || value === null) return String(value);
  if (typeof value === "string") return `"${value}"`;
  return Object.prototype.toString.call(value);
}

function validateEntries(list: readonly InitiativeEntry[]): void {
  const entries: unknown = list;
  if (!Array.isArray(entries)) throw new RulesTypeError("inputNotArray", { name: "initiativeEntries", got: show(entries) });
  const seen = new Set<string>();
  entries.forEach((entry: unknown, i) => {
    if (typeof entry !== "object" || entry === null) throw new RulesTypeError("initiativeEntryNotObject", { n: i });
    const { id, total, modifier, tiebreak } = entry as Partial<Record<keyof InitiativeEntry, unknown>>;
    if (typeof id !== "string" || id === "") throw new RulesRangeError("initiativeEntryNoId", { n: i, got: String(id) });
    if (seen.has(id)) throw new RulesRangeError("initiativeEntryTwice", { id });
    seen.add(id);
    assertWhole(total as number, "initiativeTotalOf", { id });
    assertWhole(modifier as number, "initiativeModifierOf", { id });
    if (tiebreak !== undefined && (typeof tiebreak !== "number" || !Number.isFinite(tiebreak))) {
      throw new RulesRangeError("initiativeTiebreakNotFinite", { id, got: show(tiebreak) });
    }
  });
}

/**
 * `[...entries].sort((a, b) => compareEntries(a, b, byModifier))`, the same order (stable). When
 * every total, modifier and tiebreak is a whole number (the turn's always are) and their ranges
 * and the entry's position fit together in 52 bits, each entry's place in that order is one
 * number and a typed array sorts them natively, with no comparator calls: a third of a turn's
 * initiative work otherwise. Anything else takes the comparator.
 */
function sortEntries(entries: readonly InitiativeEntry[], byModifier: boolean): InitiativeEntry[] {
  const n = entries.length;
  let totalMin = Infinity;
  let totalMax = -Infinity;
  let modMin = Infinity;
  let modMax = -Infinity;
  let tbMax = 0;
  for (const e of entries) {
    const mod = byModifier ? e.modifier : 0;
    const tb = e.tiebreak;
    if (tb !== undefined && !(Number.isInteger(tb) && tb >= 0)) return sortByCompare(entries, byModifier);
    totalMin = Math.min(totalMin, e.total);
    totalMax = Math.max(totalMax, e.total);
    modMin = Math.min(modMin, mod);
    modMax = Math.max(modMax, mod);
    if (tb !== undefined) tbMax = Math.max(tbMax, tb + 1);
  }
  if (n === 0) return [];
  // Field widths: index, then the tiebreak + 1 (0 = none), the modifier and the total above it, each counted down so ascending = acting order.
  const indexSpan = 2 ** Math.ceil(Math.log2(n + 1));
  const tbSpan = tbMax + 1;
  const modSpan = modMax - modMin + 1;
  const totalSpan = totalMax - totalMin + 1;
  if (!(indexSpan * tbSpan * modSpan * totalSpan <= 2 ** 52)) return sortByCompare(entries, byModifier);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = entries[i] as InitiativeEntry;
    const tb = e.tiebreak === undefined ? 0 : e.tiebreak + 1;
    const place = ((totalMax - e.total) * modSpan + (modMax - (byModifier ? e.modifier : 0))) * tbSpan + (tbMax - tb);
    keys[i] = place * indexSpan + i;
  }
  keys.sort();
  const out: InitiativeEntry[] = [];
  for (let i = 0; i < n; i++) out.push(entries[(keys[i] as number) % indexSpan] as InitiativeEntry);
  return out;
}

function sortByCompare(entries: readonly InitiativeEntry[], byModifier: boolean): InitiativeEntry[] {
  return [...entries].sort((a, b) => compareEntries(a, b, byModifier));
}

/** Negative when `a` acts before `b`; 0 when still tied (input order then decides). */
function compareEntries(a: InitiativeEntry, b: InitiativeEntry, tiesByModifier: boolean): number {
  if (a.total !== b.total) return b.total - a.total;
  if (tiesByModifier && a.modifier !== b.modifier) return b.modifier - a.modifier;
  // A missing tiebreak ranks below every supplied one.
  const ta = a.tiebreak ?? Number.NEGATIVE_INFINITY;
  const tb = b.tiebreak ?? Number.NEGATIVE_INFINITY;
  if (ta !== tb) return ta > tb ? -1 : 1;
  return 0;
}

function tiesByModifierOption(opts: InitiativeOrderOptions): boolean {
  const v = opts.tiesByModifier ?? INITIATIVE_TIES_BY_MODIFIER;
  if (typeof v !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "tiesByModifier", got: String(v) });
  return v;
}

/**
 * The ids in acting order [001, CASE-RULES §4]: higher total first; ties → higher modifier
 * ({@link INITIATIVE_TIES_BY_MODIFIER} [RULING]); then higher `tiebreak` (an entry without
 * one comes after those with one); then input order. O(n log n); does not mutate `entries`.
 * RangeError/TypeError for a bad entry or a duplicate id.
 */
export function orderInitiative(entries: readonly InitiativeEntry[], opts: InitiativeOrderOptions = {}): string[] {
  validateEntries(entries);
  const byModifier = tiesByModifierOption(opts);
  // Array.prototype.sort is stable (ES2019), so equal entries keep input order.
  return sortEntries(entries, byModifier).map((e) => e.id);
}

/**
 * Groups of two or more ids still tied after total, modifier (per the option) and a
 * tiebreak — those who need a d10 roll-off — in acting order. O(n log n).
 */
export function initiativeTies(entries: readonly InitiativeEntry[], opts: InitiativeOrderOptions = {}): string[][] {
  validateEntries(entries);
  const byModifier = tiesByModifierOption(opts);
  const sorted = sortEntries(entries, byModifier);
  const groups: string[][] = [];
  let group: InitiativeEntry[] = [];
  const flush = (): void => {
    if (group.length > 1) groups.push(group.map((e) => e.id));
  };
  for (const entry of sorted) {
    const first = group[0];
    if (first !== undefined && compareEntries(first, entry, byModifier) === 0) {
      group.push(entry);
    } else {
      flush();
      group = [entry];
    }
  }
  flush();
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Optional rules
// ---------------------------------------------------------------------------------------------

/**
 * The initiative modes [001]: roll every turn (standard); roll once per combat; modifier only
 * (roll only to break ties); fixed order (no initiative, a set order).
 */
export const INITIATIVE_MODES = ["everyTurn", "oncePerCombat", "modifierOnly", "fixedOrder"] as const;

/** One of {@link INITIATIVE_MODES}. */
export type InitiativeMode = (typeof INITIATIVE_MODES)[number];

/** The world's initiative settings: a mode and whether teams roll once for the group [001]. */
export interface InitiativeSettings {
  readonly mode: InitiativeMode;
  /** Team initiative: one character rolls for a whole group ({@link teamInitiative}). */
  readonly team: boolean;
}

/** The standard rule [001]: every combatant rolls every turn; no teams. */
export const DEFAULT_INITIATIVE_SETTINGS: InitiativeSettings = Object.freeze({ mode: "everyTurn", team: false });

/** True when `mode` is one of {@link INITIATIVE_MODES}. */
export function isInitiativeMode(mode: unknown): mode is InitiativeMode {
  return typeof mode === "string" && (INITIATIVE_MODES as readonly string[]).includes(mode);
}

/** Throws a RangeError unless `mode` is one of {@link INITIATIVE_MODES}. */
export function assertInitiativeMode(mode: unknown): asserts mode is InitiativeMode {
  if (!isInitiativeMode(mode)) {
    throw new RulesRangeError("unknownInitiativeMode", { got: String(mode), allowed: INITIATIVE_MODES.join(", ") });
  }
}

/** Combatant state {@link needsRoll} looks at. */
export interface InitiativeRollState {
  /** The combatant already rolled initiative in this combat. */
  readonly hasRolledThisCombat: boolean;
}

/**
 * Whether a combatant rolls a d10 for initiative at the start of a turn under `mode` [001]:
 * every turn → yes; once per combat → only if not yet rolled; modifier only and fixed order →
 * no (a modifier-only tie is settled by a roll-off, see {@link initiativeTies}).
 */
export function needsRoll(mode: InitiativeMode, state: InitiativeRollState): boolean {
  assertInitiativeMode(mode);
  const input: unknown = state;
  if (typeof input !== "object" || input === null || typeof (input as Partial<InitiativeRollState>).hasRolledThisCombat !== "boolean") {
    throw new RulesTypeError("inputNotObject", { name: "needsRollInput", got: show(input) });
  }
  switch (mode) {
    case "everyTurn":
      return true;
    case "oncePerCombat":
      return !state.hasRolledThisCombat;
    case "modifierOnly":
    case "fixedOrder":
      return false;
  }
}

/**
 * A combatant's initiative total under `mode`: d10 + modifier when the mode rolls (every turn,
 * once per combat — pass the remembered d10 in later turns), the modifier alone for modifier
 * only, and `null` for fixed order (the set order decides). RangeError when a needed d10 is
 * missing or bad, or when a d10 is given to a mode that does not use one.
 */
export function initiativeTotalForMode(mode: InitiativeMode, modifier: number, d10?: number): number | null {
  assertInitiativeMode(mode);
  assertWhole(modifier, "notWhole", { field: "initiativeModifier" });
  if (mode === "everyTurn" || mode === "oncePerCombat") {
    if (d10 === undefined) throw new RulesRangeError("initiativeNeedsD10", { mode });
    return initiativeTotal(d10, modifier);
  }
  if (d10 !== undefined) throw new RulesRangeError("initiativeNoD10", { mode, got: String(d10) });
  return mode === "modifierOnly" ? modifier : null;
}

/** A team's one initiative: the rolling member's total and modifier, and its roll-off if there is one. */
export interface TeamInitiative {
  readonly total: number;
  readonly modifier: number;
  readonly tiebreak?: number;
}

/**
 * Team initiative [001]: one character rolls for the group, and every member acts on that
 * result. Gives each member the group's total, modifier and tiebreak, so members sort together
 * and, among themselves, keep the order given here. RangeError for an empty, duplicate or
 * non-string id, or a bad group total/modifier/tiebreak.
 */
export function teamInitiative(memberIds: readonly string[], group: TeamInitiative): InitiativeEntry[] {
  const ids: unknown = memberIds;
  const groupInput: unknown = group;
  if (!Array.isArray(ids)) throw new RulesTypeError("inputNotArray", { name: "teamMembers", got: show(ids) });
  if (typeof groupInput !== "object" || groupInput === null) {
    throw new RulesTypeError("notObject", { field: "teamInitiative", got: show(groupInput) });
  }
  const entries = memberIds.map((id: unknown) => {
    const entry: InitiativeEntry = { id: id as string, total: group.total, modifier: group.modifier };
    return group.tiebreak === undefined ? entry : { ...entry, tiebreak: group.tiebreak };
  });
  validateEntries(entries);
  return entries;
}
