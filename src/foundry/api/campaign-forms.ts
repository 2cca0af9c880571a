/**
 * The Karma award prompt's form (pure: its template data and the reading of what was typed),
 * so the dialog is tested with the real template.
 */
import { KARMA_REASON_LENGTH } from "../data/actor/karma-log";
import { MAX_KARMA_AWARD_AMOUNT } from "./damage-limits";

/** Who an award goes to: the controlled tokens' characters, or every player character. */
export const AWARD_RECIPIENTS = ["selected", "all"] as const;
export type AwardRecipients = (typeof AWARD_RECIPIENTS)[number];

/** The award dialog's template data. */
export function awardPromptContext(selectedNames: readonly string[], id: string) {
  return {
    id,
    selectedNames: [...selectedNames],
    max: MAX_KARMA_AWARD_AMOUNT,
    reasonMax: KARMA_REASON_LENGTH,
    recipients: AWARD_RECIPIENTS.map((value) => ({ value, labelKey: `CASE.Campaign.Award.To.${value}`, selected: value === (selectedNames.length > 0 ? "selected" : "all") })),
  };
}

export interface AwardAnswer {
  readonly amount: number;
  readonly reason: string;
  readonly to: AwardRecipients;
}

/** Reads the award dialog's form: a whole amount 1…max, a reason, the recipients; else null. */
export function readAwardForm(form: Readonly<Record<string, unknown>>): AwardAnswer | null {
  const raw = form.amount;
  const amount = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1 || amount > MAX_KARMA_AWARD_AMOUNT) return null;
  const reason = typeof form.reason === "string" ? form.reason.trim() : "";
  if (reason === "" || reason.length > KARMA_REASON_LENGTH) return null;
  const to = form.to;
  if (to !== "selected" && to !== "all") return null;
  return { amount, reason, to };
}
