/**
 * The small forms the system's macros show (pure: their template data and the reading of
 * what was typed), so the dialogs are tested with the real templates.
 */
import { ATTACK_CODES, RANKS, isRankKey, type AttackCode, type RankKey } from "../../rules/index";
import { parseAttackCode } from "../table-command";
import { MAX_DAMAGE } from "./damage-limits";
import { readWhole } from "../core/format";

/** The column dialog's template data: every rank (the remembered one selected) and every attack. */
export function columnPromptContext(selected: RankKey, id: string) {
  return {
    id,
    columns: RANKS.map((r) => ({ key: r.key, nameKey: `CASE.Rank.${r.key}`, number: r.number, selected: r.key === selected })),
    attacks: ATTACK_CODES.map((code) => ({ code, nameKey: `CASE.Attack.${code}` })),
  };
}

export interface ColumnPromptAnswer {
  readonly column: RankKey;
  readonly attack: AttackCode | null;
  readonly label: string | null;
}

/** Reads the column dialog's form; null when it names no rank or an unknown attack. */
export function readColumnPrompt(form: Readonly<Record<string, unknown>>): ColumnPromptAnswer | null {
  const column = form.column;
  if (!isRankKey(column)) return null;
  const attackText = typeof form.attack === "string" ? form.attack : "";
  const attack = attackText === "" ? null : parseAttackCode(attackText);
  if (attackText !== "" && attack === null) return null;
  const label = typeof form.label === "string" ? form.label.trim().slice(0, 200) : "";
  return { column, attack, label: label === "" ? null : label };
}

/** The damage dialog's template data: the targets' names. */
export function damagePromptContext(names: readonly string[], id: string) {
  return { id, names: [...names], max: MAX_DAMAGE };
}

/** The amount typed in the damage dialog: a whole number 0…MAX_DAMAGE, else null. */
export function readDamageAmount(value: unknown): number | null {
  return readWhole(value, { min: 0, max: MAX_DAMAGE });
}
