/**
 * The Karma award prompt's form (pure: its template data and the reading of what was typed),
 * so the dialog is tested with the real template. The award categories are the rules' FASERIP
 * presets (karma.ts `KARMA_AWARD_CATEGORIES`); "custom" is a free amount; "kill" is the Karma a
 * kill costs by the world's ruling (`KARMA_LOST_FOR_KILL`), offered only when that ruling takes
 * some.
 */
import { KARMA_AWARD_CATEGORIES, KARMA_AWARD_CATEGORY_IDS, categoryAward, type KarmaAwardCategory, type KarmaKillRuling } from "../../rules/index";
import { KARMA_REASON_LENGTH } from "../data/actor/karma-log";
import { MAX_KARMA_AWARD_AMOUNT } from "./damage-limits";
import { readWhole } from "../core/format";

/** Who an award goes to: the controlled tokens' characters, or every player character. */
export const AWARD_RECIPIENTS = ["selected", "all"] as const;
export type AwardRecipients = (typeof AWARD_RECIPIENTS)[number];

/** What the award dialog's category may be besides the presets. */
export type AwardChoice = "custom" | "kill" | KarmaAwardCategory;

/** The most events one preset award counts (each rescue, each foe). */
export const MAX_AWARD_EVENTS = 100;

/** A category chosen and its events counted before the dialog opens (the fight log's foes beaten or rescues). */
export interface AwardPreset {
  readonly category: KarmaAwardCategory;
  readonly count: number;
}

/**
 * The award dialog's template data; `killRuling` "none" leaves the kill out; `fixed`: the
 * recipients are given (a team), not chosen; `preset`: a category already chosen, with its count.
 */
export function awardPromptContext(selectedNames: readonly string[], id: string, killRuling: KarmaKillRuling = "all", fixed = false, preset: AwardPreset | null = null) {
  const presets = KARMA_AWARD_CATEGORY_IDS.map((value) => ({ value, labelKey: `CASE.Campaign.Award.Category.${value}`, amount: KARMA_AWARD_CATEGORIES[value], selected: value === preset?.category }));
  return {
    id,
    preset: preset !== null,
    count: preset ? Math.min(Math.max(preset.count, 1), MAX_AWARD_EVENTS) : 1,
    selectedNames: [...selectedNames],
    max: MAX_KARMA_AWARD_AMOUNT,
    maxEvents: MAX_AWARD_EVENTS,
    reasonMax: KARMA_REASON_LENGTH,
    presets,
    kill: killRuling !== "none",
    fixed,
    recipients: AWARD_RECIPIENTS.map((value) => ({ value, labelKey: `CASE.Campaign.Award.To.${value}`, selected: value === (selectedNames.length > 0 ? "selected" : "all") })),
  };
}

export interface AwardAnswer {
  /** "award" adds `amount`; "kill" takes what the world's ruling takes (amount 0). */
  readonly kind: "award" | "kill";
  readonly amount: number;
  readonly reason: string;
  readonly to: AwardRecipients;
}

function isPreset(value: unknown): value is KarmaAwardCategory {
  return KARMA_AWARD_CATEGORY_IDS.some((c) => c === value);
}

/**
 * Reads the award dialog's form, else null. A custom award needs a whole amount 1…max and a
 * reason; a preset gives its Karma times the events counted (1…{@link MAX_AWARD_EVENTS}, blank
 * is one), its reason the category's name (`label`) and the free reason after it; a kill names
 * its reason the same way. A category absent is a custom award.
 */
export function readAwardForm(form: Readonly<Record<string, unknown>>, label: (choice: AwardChoice) => string = (c) => c): AwardAnswer | null {
  const to = form.to;
  if (to !== "selected" && to !== "all") return null;
  const free = typeof form.reason === "string" ? form.reason.trim() : "";
  const category = form.category ?? "custom";
  let answer: AwardAnswer;
  if (category === "custom") {
    const amount = readWhole(form.amount, { min: 1, max: MAX_KARMA_AWARD_AMOUNT });
    if (amount === null || free === "") return null;
    answer = { kind: "award", amount, reason: free, to };
  } else if (category === "kill") {
    answer = { kind: "kill", amount: 0, reason: free === "" ? label("kill") : `${label("kill")}: ${free}`, to };
  } else if (isPreset(category)) {
    const blank = form.count === undefined || form.count === null || (typeof form.count === "string" && form.count.trim() === "");
    const count = blank ? 1 : readWhole(form.count, { min: 1, max: MAX_AWARD_EVENTS });
    if (count === null) return null;
    const name = count > 1 ? `${label(category)} ×${count}` : label(category);
    answer = { kind: "award", amount: categoryAward(category, count), reason: free === "" ? name : `${name}: ${free}`, to };
  } else return null;
  return answer.reason.length > KARMA_REASON_LENGTH ? null : answer;
}
