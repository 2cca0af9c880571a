/**
 * Reading a FASERIP-style stat block (issue 23 item 6): the text a Judge pastes from a book, into
 * an NPC's numbers. Pure: no Foundry; the import dialog (src/foundry/apps/builder/stat-block-import.ts)
 * shows what this read, and every line it did not understand, before anything is written.
 *
 * What it reads, one item a line (case does not matter):
 * - the first line that is nothing else, or `Name: …`: the name;
 * - the seven abilities, by letter or name: `F: Excellent (20)`, `Agility Good`, `S RM 30`,
 *   `E: 40`; several on one line when separated by commas, semicolons or `|`
 *   (`F EX(20), A GD(10), S RM(30)`);
 * - `Health: 110`, `Karma: 26`, `Resources: Good (10)`, `Popularity: 5` (or `Pop`, `Res`);
 * - after a `Powers:` line, each power as `Name: Rank`, `Name (Rank)` or `Name - Rank`, until
 *   another section (`Talents:`, `Contacts:` …), whose lines are not read.
 *
 * A rank is a name or abbreviation (`Remarkable`, `Rm`, `Shift X`, `ShX`, `Class 1000`, `CL1000`),
 * a rank number, or both (`Remarkable (30)`): a number that is not of the rank named is a
 * problem, never a silent guess. Health and Karma are kept as written; the caller compares them
 * with what the abilities give.
 */
import { ABILITY_KEYS, health, karma, type AbilityKey } from "./abilities";
import { RANKS, isRankNumber, rankOf, type Rank } from "./ranks";
import { RulesRangeError, RulesTypeError } from "./errors";

/** One line the reader could not use, with why. */
export interface UnreadLine {
  /** 1-based line number in the pasted text. */
  readonly line: number;
  readonly text: string;
  readonly reason: "notUnderstood" | "badRank" | "duplicate" | "section";
}

export interface StatBlockPower {
  readonly name: string;
  readonly rank: number;
}

/** What a stat block says. */
export interface StatBlock {
  readonly name: string | null;
  readonly abilities: Readonly<Partial<Record<AbilityKey, number>>>;
  readonly health: number | null;
  readonly karma: number | null;
  readonly resources: number | null;
  readonly popularity: number | null;
  readonly powers: readonly StatBlockPower[];
}

export interface StatBlockReading {
  readonly block: StatBlock;
  /** Abilities the text does not give (an NPC needs all seven). */
  readonly missing: readonly AbilityKey[];
  /** Every non-empty line not used, in order. */
  readonly unread: readonly UnreadLine[];
  /** True when the block can become an NPC: a name and all seven abilities. */
  readonly complete: boolean;
}

/** The longest stat block read (characters): a guard against pasting a whole book. */
export const STAT_BLOCK_MAX_LENGTH = 20_000;

const ABILITY_WORDS: Readonly<Record<string, AbilityKey>> = Object.freeze({
  f: "fighting",
  fighting: "fighting",
  a: "agility",
  agility: "agility",
  s: "strength",
  strength: "strength",
  e: "endurance",
  endurance: "endurance",
  r: "reason",
  reason: "reason",
  i: "intuition",
  intuition: "intuition",
  p: "psyche",
  psyche: "psyche",
});

/** Rank words: names, abbreviations and the usual spellings of the shifts and classes. */
function rankWords(rank: Rank): string[] {
  const words = [rank.name, rank.abbr, rank.key].map(norm);
  const shift = /^shift (\w+)$/i.exec(rank.name);
  if (shift?.[1]) words.push(`sh${norm(shift[1])}`, `shift${norm(shift[1])}`);
  const cls = /^class (\d+)$/i.exec(rank.name);
  if (cls?.[1]) words.push(`cl${cls[1]}`, `class${cls[1]}`, `cl ${cls[1]}`);
  return words;
}

function norm(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, " ");
}

const RANK_BY_WORD: ReadonlyMap<string, Rank> = new Map(RANKS.flatMap((r) => rankWords(r).map((w) => [w, r] as const)));

/** The rank number a rank text names, "bad" for a number not of the rank named, or null when it is no rank. */
export function readRank(text: string): number | "bad" | null {
  const t = norm(text);
  const paren = /^(.*?)\s*[([]\s*(\d+)\s*[)\]]$/.exec(t);
  // A rank's own name may end in digits (Shift 0, Class 1000, CL1000).
  const whole = RANK_BY_WORD.get(t);
  if (whole && !paren) return whole.number;
  const m = paren ?? /^(.*?[^\d\s])?\s*(\d+)$/.exec(t);
  const word = m ? (m[1] ?? "").trim() : t;
  const number = m ? Number(m[2]) : null;
  const named = word === "" ? null : RANK_BY_WORD.get(word);
  if (named === undefined) return null;
  if (number === null) return named ? named.number : null;
  if (!isRankNumber(number)) return "bad";
  return named && rankOf(number).key !== named.key ? "bad" : number;
}

function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

const LABEL = /^\s*([A-Za-z][A-Za-z .'-]*?)\s*(?::|=|\s-\s|\s)\s*(.+)$/;

type Labelled = { readonly label: string; readonly value: string };

function labelled(text: string): Labelled | null {
  const m = LABEL.exec(text);
  return m?.[1] && m[2] ? { label: norm(m[1]), value: m[2].trim() } : null;
}

/** One ability entry `F: Excellent (20)`, or null. */
function abilityEntry(segment: string): { key: AbilityKey; value: number | "bad" } | null {
  const l = labelled(segment) ?? (/^\s*([A-Za-z])\s*([([]?\d.*)$/.exec(segment) ? { label: norm(segment.trim()[0] ?? ""), value: segment.trim().slice(1) } : null);
  if (!l) return null;
  const key = ABILITY_WORDS[l.label];
  if (!key) return null;
  const value = readRank(l.value);
  return value === null ? null : { key, value };
}

const SECTION = /^\s*([A-Za-z][A-Za-z ]*?)\s*:?\s*$/;
const POWER_SECTIONS = new Set(["powers", "power", "known powers", "super powers"]);
const OTHER_SECTIONS = new Set(["talents", "skills", "contacts", "equipment", "gear", "weapons", "notes", "background", "personality", "limitations", "abilities"]);

/** A power line `Name: Rank`, `Name (Rank)`, `Name - Rank`, or null. */
function powerEntry(text: string): StatBlockPower | "bad" | null {
  const m = /^\s*[-*•]?\s*(.+?)\s*(?::|\s-\s|\s–\s)\s*(.+?)\s*$/.exec(text) ?? /^\s*[-*•]?\s*(.+?)\s*\(([^()]+)\)\s*$/.exec(text);
  if (!m?.[1] || !m[2]) return null;
  const rank = readRank(m[2]);
  if (rank === null) return null;
  return rank === "bad" ? "bad" : { name: m[1].trim(), rank };
}

/**
 * Reads a pasted stat block. Never throws for what a book may hold: every line it cannot use
 * is in `unread`, with why. RangeError only for a text longer than {@link STAT_BLOCK_MAX_LENGTH}.
 */
export function readStatBlock(text: string): StatBlockReading {
  if (typeof text !== "string") throw new RulesTypeError("statBlockNotText");
  if (text.length > STAT_BLOCK_MAX_LENGTH) throw new RulesRangeError("statBlockTooLong", { max: STAT_BLOCK_MAX_LENGTH, got: text.length });
  let name: string | null = null;
  const abilities: Partial<Record<AbilityKey, number>> = {};
  const pools: { health: number | null; karma: number | null; resources: number | null; popularity: number | null } = { health: null, karma: null, resources: null, popularity: null };
  const powers: StatBlockPower[] = [];
  const unread: UnreadLine[] = [];
  let section: "main" | "powers" | "other" = "main";
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    const t = raw.trim();
    if (t === "") continue;
    const skip = (reason: UnreadLine["reason"]) => unread.push({ line, text: t, reason });
    const header = SECTION.exec(t)?.[1];
    const headerWord = header === undefined ? "" : norm(header);
    if (t.endsWith(":") || POWER_SECTIONS.has(headerWord) || OTHER_SECTIONS.has(headerWord)) {
      if (POWER_SECTIONS.has(headerWord)) {
        section = "powers";
        continue;
      }
      if (OTHER_SECTIONS.has(headerWord) || t.endsWith(":")) {
        section = "other";
        skip("section");
        continue;
      }
    }
    // Abilities first: one or several on the line.
    const segments = t.split(/\s*[,;|]\s*/).filter((s) => s !== "");
    const entries = segments.map(abilityEntry);
    if (entries.length > 0 && entries.every((e): e is NonNullable<typeof e> => e !== null)) {
      for (const e of entries) {
        if (e.value === "bad") skip("badRank");
        else if (abilities[e.key] !== undefined) skip("duplicate");
        else abilities[e.key] = e.value;
      }
      continue;
    }
    const l = labelled(t);
    if (l?.label === "name" && section === "main") {
      if (name === null) name = l.value;
      else skip("duplicate");
      continue;
    }
    const pool = l ? poolOf(l.label) : null;
    if (l && pool) {
      const value = pool === "resources" ? readRank(l.value) : wholeNumber(l.value);
      if (value === null || value === "bad" || (pool !== "popularity" && value < 0)) skip(value === "bad" ? "badRank" : "notUnderstood");
      else if (pools[pool] !== null) skip("duplicate");
      else pools[pool] = value;
      continue;
    }
    if (section === "powers") {
      const power = powerEntry(t);
      if (power === "bad") skip("badRank");
      else if (power) powers.push(power);
      else skip("notUnderstood");
      continue;
    }
    if (section === "main" && name === null && Object.keys(abilities).length === 0) {
      name = t;
      continue;
    }
    skip(section === "other" ? "section" : "notUnderstood");
  }
  const missing = ABILITY_KEYS.filter((k) => abilities[k] === undefined);
  const block: StatBlock = { name, abilities, ...pools, powers };
  return { block, missing, unread, complete: name !== null && missing.length === 0 };
}

function poolOf(label: string): "health" | "karma" | "resources" | "popularity" | null {
  if (label === "health" || label === "hp") return "health";
  if (label === "karma") return "karma";
  if (label === "resources" || label === "res") return "resources";
  if (label === "popularity" || label === "pop") return "popularity";
  return null;
}

/** A Health or Karma pool as the new NPC will have it. */
export interface StatBlockPool {
  /** What the block says (null: it says nothing). */
  readonly given: number | null;
  /** The maximum the abilities give (FASERIP: F+A+S+E for Health, R+I+P for Karma). */
  readonly max: number;
  /** What the NPC starts with: the block's number, at most the maximum; the maximum when the block gives none. */
  readonly value: number;
}

/** What a complete stat block makes: the NPC's numbers. */
export interface StatBlockNpc {
  readonly name: string;
  readonly abilities: Readonly<Record<AbilityKey, number>>;
  readonly health: StatBlockPool;
  readonly karma: StatBlockPool;
  readonly resources: number | null;
  readonly popularity: number | null;
  readonly powers: readonly StatBlockPower[];
}

function poolFrom(given: number | null, max: number): StatBlockPool {
  return { given, max, value: given === null ? max : Math.min(given, max) };
}

/**
 * The NPC a complete reading makes (RangeError naming what is missing otherwise). Health and
 * Karma maxima follow the abilities, as on every character; a block's number above them is
 * shown (`given`) and the NPC starts at the maximum.
 */
export function statBlockNpc(reading: StatBlockReading): StatBlockNpc {
  const { block } = reading;
  if (block.name === null) throw new RulesRangeError("statBlockNoName");
  if (reading.missing.length > 0) throw new RulesRangeError("statBlockLacks", { missing: reading.missing.join(", ") });
  const abilities = Object.fromEntries(ABILITY_KEYS.map((k) => [k, block.abilities[k] ?? 0])) as Record<AbilityKey, number>;
  return {
    name: block.name,
    abilities,
    health: poolFrom(block.health, health(abilities)),
    karma: poolFrom(block.karma, karma(abilities)),
    resources: block.resources,
    popularity: block.popularity,
    powers: block.powers,
  };
}
