/**
 * Plain Universal Table rolls, without a character: which column a piece of text names, the
 * `[[/case …]]` enricher's grammar, and the check such a roll makes. Pure: no Foundry globals,
 * no DOM, so every accepted and refused spelling is tested directly.
 *
 * A column is named by its rank key ("remarkable", "shiftX"), its abbreviation ("Rm", "X"),
 * its English name ("Shift X", "Class 1000") — all case-insensitive, all exact — or by a rank
 * number ("30", "31": the column whose range holds it). Anything else is refused with a
 * localisation key naming the fault; nothing is guessed.
 *
 * Enricher grammar (the text between `[[/case` and `]]`):
 *   <column>                    a plain ACTION on that column
 *   attack <code> <column>      the to-hit roll of attack <code> (BA, EA, … Ch) on that column
 *   check <score> [<column>]    a character's roll on an ability or sub-score, against an
 *                               intensity when a column is given (the Judge's request for a roll)
 * followed, optionally, by `{label}` after the closing brackets. A score is one word: an
 * ability ("endurance", "End") or a sub-score ("endurance.res", "End(res)", "end.res").
 */
import { ABILITY_ABBREVIATIONS, ABILITY_KEYS, ATTACK_CODES, RANKS, isRankNumber, isSubScoreRef, rankOf, type AbilityKey, type AttackCode, type Rank, type ScoreRef } from "../rules/index";
import type { RollCheck } from "./dice/roll-check";

/** A column to roll on: its rank and the rank number the card shows. */
export interface ColumnRef {
  readonly rank: Rank;
  /** The rank number rolled: the one written, or the rank's standard number for a name. */
  readonly value: number;
}

/** A refusal: a localisation key (CASE.Enricher.Error.*) and its format data. */
export interface TableCommandError {
  readonly key: string;
  readonly data: Readonly<Record<string, string>>;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: TableCommandError };

/** What a `[[/case …]]` asks for. */
export interface TableCommand {
  readonly column: ColumnRef;
  readonly attack: AttackCode | null;
  /** The label written in `{…}` after the command (trimmed), or null. */
  readonly label: string | null;
}

export const ERROR_KEYS = {
  empty: "CASE.Enricher.Error.Empty",
  unknownColumn: "CASE.Enricher.Error.UnknownColumn",
  missingAttack: "CASE.Enricher.Error.MissingAttack",
  unknownAttack: "CASE.Enricher.Error.UnknownAttack",
  missingColumn: "CASE.Enricher.Error.MissingColumn",
  labelTooLong: "CASE.Enricher.Error.LabelTooLong",
  missingScore: "CASE.Enricher.Error.MissingScore",
  unknownScore: "CASE.Enricher.Error.UnknownScore",
} as const;

/** The longest text accepted as a column or label (longer is refused, not truncated). */
export const MAX_TEXT_LENGTH = 200;

function refuse<T>(key: string, data: Record<string, string> = {}): Parsed<T> {
  return { ok: false, error: { key, data } };
}

/** Lower-cased key, abbreviation and name → rank; built once, and a collision is a bug. */
const COLUMN_NAMES: ReadonlyMap<string, Rank> = (() => {
  const map = new Map<string, Rank>();
  for (const rank of RANKS) {
    for (const alias of new Set([rank.key, rank.abbr, rank.name].map((a) => a.toLowerCase()))) {
      const other = map.get(alias);
      if (other) throw new Error(`Column name "${alias}" names both ${other.key} and ${rank.key}.`);
      map.set(alias, rank);
    }
  }
  return map;
})();

/** Every spelling of a column name the parser accepts (lower case), for tests and help text. */
export function columnNames(): ReadonlyMap<string, Rank> {
  return COLUMN_NAMES;
}

/** The column a piece of text names (see the module comment). Whitespace runs count as one space. */
export function parseColumn(text: string): Parsed<ColumnRef> {
  const normal = text.trim().replace(/\s+/g, " ");
  if (normal === "") return refuse(ERROR_KEYS.missingColumn);
  if (normal.length > MAX_TEXT_LENGTH) return refuse(ERROR_KEYS.unknownColumn, { text: `${normal.slice(0, 40)}…` });
  if (/^\d+$/.test(normal)) {
    const value = Number(normal);
    if (isRankNumber(value)) return { ok: true, value: { rank: rankOf(value), value } };
    return refuse(ERROR_KEYS.unknownColumn, { text: normal });
  }
  const rank = COLUMN_NAMES.get(normal.toLowerCase());
  if (!rank) return refuse(ERROR_KEYS.unknownColumn, { text: normal });
  return { ok: true, value: { rank, value: rank.number } };
}

/** The column a rank key, name or number (as `rollColumn` takes it) names. */
export function columnOf(input: unknown): Parsed<ColumnRef> {
  if (typeof input === "number") {
    if (isRankNumber(input)) return { ok: true, value: { rank: rankOf(input), value: input } };
    return refuse(ERROR_KEYS.unknownColumn, { text: String(input) });
  }
  if (typeof input === "string") return parseColumn(input);
  return refuse(ERROR_KEYS.unknownColumn, { text: String(input) });
}

/** An attack code, case-insensitively ("ba" → "BA", "en" → "En"). */
export function parseAttackCode(text: string): AttackCode | null {
  const lower = text.toLowerCase();
  return ATTACK_CODES.find((code) => code.toLowerCase() === lower) ?? null;
}

/**
 * Parses the text of a `[[/case …]]` (everything between "/case" and "]]") and its optional
 * `{label}`. An empty or whitespace-only label counts as none.
 */
export function parseTableCommand(body: string, label: string | null = null): Parsed<TableCommand> {
  const words = body.trim().split(/\s+/).filter((w) => w !== "");
  const cleanLabel = label === null ? null : label.trim().replace(/\s+/g, " ") || null;
  if (cleanLabel !== null && cleanLabel.length > MAX_TEXT_LENGTH) return refuse(ERROR_KEYS.labelTooLong, { max: String(MAX_TEXT_LENGTH) });
  const first = words[0];
  if (first === undefined) return refuse(ERROR_KEYS.empty);
  let attack: AttackCode | null = null;
  let rest = words;
  if (first.toLowerCase() === "attack") {
    const code = words[1];
    if (code === undefined) return refuse(ERROR_KEYS.missingAttack, { known: ATTACK_CODES.join(", ") });
    attack = parseAttackCode(code);
    if (attack === null) return refuse(ERROR_KEYS.unknownAttack, { text: code, known: ATTACK_CODES.join(", ") });
    rest = words.slice(2);
  }
  const column = parseColumn(rest.join(" "));
  if (!column.ok) return column;
  return { ok: true, value: { column: column.value, attack, label: cleanLabel } };
}

/** A `[[/case check …]]`: a character's roll on a score, against an intensity or not. */
export interface CheckCommand {
  readonly score: ScoreRef;
  readonly intensity: ColumnRef | null;
  readonly label: string | null;
}

function abilityNamed(word: string): AbilityKey | null {
  return ABILITY_KEYS.find((key) => key === word || ABILITY_ABBREVIATIONS[key].toLowerCase() === word) ?? null;
}

/** The score one word names (see the module comment), or null. Case-insensitive. */
export function parseScoreWord(text: string): ScoreRef | null {
  const word = text.trim().toLowerCase();
  const ability = abilityNamed(word);
  if (ability) return ability;
  const parts = /^([a-z]+)(?:\.|\()([a-z]+)\)?$/.exec(word);
  const of = parts?.[1] !== undefined ? abilityNamed(parts[1]) : null;
  if (!parts || !of) return null;
  const ref = `${of}.${parts[2] ?? ""}`;
  return isSubScoreRef(ref) ? ref : null;
}

/** True when the text of a `[[/case …]]` is a check (its first word is "check"). */
export function isCheckCommand(body: string): boolean {
  return /^\s*check(\s|$)/i.test(body);
}

/** Parses `check <score> [<column>]` and its optional `{label}`. */
export function parseCheckCommand(body: string, label: string | null = null): Parsed<CheckCommand> {
  const words = body.trim().split(/\s+/).filter((w) => w !== "");
  const cleanLabel = label === null ? null : label.trim().replace(/\s+/g, " ") || null;
  if (cleanLabel !== null && cleanLabel.length > MAX_TEXT_LENGTH) return refuse(ERROR_KEYS.labelTooLong, { max: String(MAX_TEXT_LENGTH) });
  const word = words[1];
  if (word === undefined) return refuse(ERROR_KEYS.missingScore);
  const score = parseScoreWord(word);
  if (score === null) return refuse(ERROR_KEYS.unknownScore, { text: word });
  const rest = words.slice(2).join(" ");
  if (rest === "") return { ok: true, value: { score, intensity: null, label: cleanLabel } };
  const intensity = parseColumn(rest);
  if (!intensity.ok) return intensity;
  return { ok: true, value: { score, intensity: intensity.value, label: cleanLabel } };
}

/** What an enriched `[[/case check …]]` link shows and carries. */
export interface CheckLinkView {
  readonly text: string;
  readonly tooltip: string;
  readonly data: { readonly caseCheck: string; readonly caseIntensity: string; readonly caseLabel: string };
}

/** The view of a parsed check, localised with `t`. */
export function checkLinkView(command: CheckCommand, t: Format): CheckLinkView {
  const score = t(`CASE.Score.${command.score}`);
  const what = command.intensity ? t("CASE.Enricher.CheckAgainst", { score, intensity: t(`CASE.Rank.${command.intensity.rank.key}`) }) : t("CASE.Enricher.Check", { score });
  return {
    text: command.label ?? what,
    tooltip: t("CASE.Enricher.CheckTooltip", { what }),
    data: { caseCheck: command.score, caseIntensity: command.intensity ? String(command.intensity.value) : "", caseLabel: command.label ?? "" },
  };
}

/** Reads a check link's data-* back (refusing anything a page could have altered). */
export function checkFromDataset(data: Readonly<Record<string, string | undefined>>): Parsed<CheckCommand> {
  const body = `check ${data.caseCheck ?? ""} ${data.caseIntensity ?? ""}`;
  return parseCheckCommand(body, data.caseLabel ?? null);
}

/** The localisation key of a plain column roll's card title. */
export const COLUMN_ROLL_LABEL = "CASE.UniversalTable.RollLabel";

/**
 * The check of a roll on a column with no character behind it: no shifts, no Karma, no
 * intensity (green succeeds). An attack's to-hit roll shows that attack's result on the card.
 * The card's title is `label` when given, else the attack's name, else "Universal Table".
 */
export function columnCheck(column: ColumnRef, options: { attack?: AttackCode | null; label?: string | null } = {}): RollCheck {
  const attack = options.attack ?? null;
  const label = options.label?.trim() ? options.label.trim() : null;
  return {
    label: label ?? (attack ? `CASE.Attack.${attack}` : COLUMN_ROLL_LABEL),
    localizeLabel: label === null,
    score: null,
    value: column.value,
    shifts: [],
    karma: 0,
    intensity: null,
    needed: null,
    blindsided: false,
    attack,
  };
}

/** What an enriched `[[/case …]]` link shows and carries. */
export interface TableLinkView {
  /** The link's text: the label, or the column (and attack) in words. */
  readonly text: string;
  /** The tooltip: what a click rolls. */
  readonly tooltip: string;
  /** data-* attributes the click handler reads back. */
  readonly data: { readonly caseColumn: string; readonly caseAttack: string; readonly caseLabel: string };
}

type Format = (key: string, data?: Record<string, string>) => string;

/** The view of a parsed command, localised with `t` (game.i18n.format in Foundry). */
export function tableLinkView(command: TableCommand, t: Format): TableLinkView {
  const column = t("CASE.Enricher.ColumnText", { rank: t(`CASE.Rank.${command.column.rank.key}`), number: String(command.column.value) });
  const what = command.attack ? t("CASE.Enricher.AttackText", { attack: t(`CASE.Attack.${command.attack}`), column }) : column;
  return {
    text: command.label ?? what,
    tooltip: t("CASE.Enricher.Tooltip", { what }),
    data: { caseColumn: String(command.column.value), caseAttack: command.attack ?? "", caseLabel: command.label ?? "" },
  };
}

/** Reads a link's data-* back into the roll it asks for (refusing anything a page could have altered). */
export function commandFromDataset(data: Readonly<Record<string, string | undefined>>): Parsed<TableCommand> {
  const column = parseColumn(data.caseColumn ?? "");
  if (!column.ok) return column;
  const attackText = data.caseAttack ?? "";
  const attack = attackText === "" ? null : parseAttackCode(attackText);
  if (attackText !== "" && attack === null) return refuse(ERROR_KEYS.unknownAttack, { text: attackText, known: ATTACK_CODES.join(", ") });
  const label = (data.caseLabel ?? "").trim().replace(/\s+/g, " ");
  if (label.length > MAX_TEXT_LENGTH) return refuse(ERROR_KEYS.labelTooLong, { max: String(MAX_TEXT_LENGTH) });
  return { ok: true, value: { column: column.value, attack, label: label === "" ? null : label } };
}

/** The enricher's pattern: `[[/case …]]` with an optional `{label}`. Global, as Foundry needs. */
export const TABLE_COMMAND_PATTERN = /\[\[\/case(?:\s+([^\]]*?))?\s*\]\](?:\{([^}]*)\})?/gi;
