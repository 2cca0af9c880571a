/**
 * The Judge's Heal dialog (pure: its template data and the reading of what was typed), so the
 * dialog is tested with the real template. Three ways to heal (rules recovery.ts): a number of
 * Health points; the FASERIP Recovery (`shortRestRecovery`: the Endurance rank number once a
 * day, {@link RECOVERY_AFTER_TURNS} turns after the last damage); waking from 0 Health
 * (`wakeFromZeroHealth`: an Endurance FEAT the GM rolls).
 */
import { RECOVERY_AFTER_TURNS } from "../../rules/index";
import { MAX_DAMAGE } from "./damage-limits";
import { readWhole } from "../core/format";

/** The ways to heal. */
export const HEAL_MODES = ["amount", "recovery", "wake"] as const;
export type HealMode = (typeof HEAL_MODES)[number];

/** The most turns since the last damage the dialog accepts (a guard against a typo). */
export const MAX_HEAL_TURNS = 10_000;

/** What to heal: a mode and its number (`amount` for "amount", `turns` since the last damage for "recovery"). */
export type HealRequest = { readonly mode: "amount"; readonly amount: number } | { readonly mode: "recovery"; readonly turns: number } | { readonly mode: "wake" };

/** The Heal dialog's template data. */
export function healDialogContext(selectedNames: readonly string[], id: string) {
  return {
    id,
    selectedNames: [...selectedNames],
    maxAmount: MAX_DAMAGE,
    maxTurns: MAX_HEAL_TURNS,
    turns: RECOVERY_AFTER_TURNS,
    modes: HEAL_MODES.map((value) => ({ value, labelKey: `CASE.Heal.Mode.${value}` })),
  };
}

/** Reads the Heal dialog's form: a mode and the number it needs; else null. */
export function readHealForm(form: Readonly<Record<string, unknown>>): HealRequest | null {
  switch (form.mode) {
    case "amount": {
      const amount = readWhole(form.amount, { min: 1, max: MAX_DAMAGE });
      return amount === null ? null : { mode: "amount", amount };
    }
    case "recovery": {
      const turns = readWhole(form.turns, { min: 0, max: MAX_HEAL_TURNS });
      return turns === null ? null : { mode: "recovery", turns };
    }
    case "wake":
      return { mode: "wake" };
    default:
      return null;
  }
}
