/**
 * The hero sheet's campaign part (the Karma tab): the Karma log newest first, what each ability
 * costs to raise (rules karma.ts `advancementCost`) and whether the pool affords it, lost
 * Endurance ranks and the Endurance they leave (rules recovery.ts `effectiveEndurance`).
 */
import { ABILITY_KEYS, CARE_LEVELS, advancementCost, effectiveEndurance, type AbilityKey, type CareLevel, type KarmaEntryKind, type KarmaLogEntry } from "../../rules/index";
import { formatSigned } from "../core/format";
import { MAX_REST_DAYS } from "../actor-writes";

/** The stored parts of a character the Karma tab reads. */
export interface CampaignSystemView {
  readonly abilities: Readonly<Record<AbilityKey, { readonly value: number }>>;
  readonly karma: { readonly value: number };
  readonly karmaLog?: readonly KarmaLogEntry[];
  readonly lostEnduranceRanks?: number;
  /** The stored abilities, before Active Effects and lost ranks (what advancement raises). */
  readonly baseAbilities?: Readonly<Record<AbilityKey, Readonly<Record<string, number | null>>>>;
  /** Endurance before and after its lost ranks (data/actor/character.ts). */
  readonly endurance?: { readonly beforeLoss: number; readonly value: number };
}

/** One Karma log line as shown. */
export interface KarmaLogRow {
  readonly kind: KarmaEntryKind;
  /** `CASE.KarmaLog.Kind.<kind>` */
  readonly kindLabel: string;
  readonly date: string;
  readonly reason: string;
  /** Signed: + for an award or draw, − for a spend, advance or contribution. */
  readonly amount: string;
  readonly balanceAfter: number;
}

/** One advancement choice: raise an ability by one rank number, or to the next rank. */
export interface AdvanceRow {
  readonly ability: AbilityKey;
  /** `CASE.Ability.<key>` */
  readonly label: string;
  readonly value: number;
  readonly step: "number" | "rank";
  /** The rank number it reaches, or null at the top of the ladder. */
  readonly to: number | null;
  readonly cost: number | null;
  readonly affordable: boolean;
}

export interface CampaignSheetData {
  readonly log: readonly KarmaLogRow[];
  readonly hasLog: boolean;
  /** Per ability: raise one rank number, or to the next rank. */
  readonly advances: readonly { readonly ability: AbilityKey; readonly label: string; readonly value: number; readonly steps: readonly AdvanceRow[] }[];
  readonly lostEnduranceRanks: number;
  /** Endurance once the lost ranks are counted. */
  readonly effectiveEndurance: number;
}

const GAINS: readonly KarmaEntryKind[] = ["award", "draw"];

/** A log line for display. */
export function karmaLogRow(entry: KarmaLogEntry): KarmaLogRow {
  const sign = GAINS.includes(entry.kind) ? 1 : -1;
  return {
    kind: entry.kind,
    kindLabel: `CASE.KarmaLog.Kind.${entry.kind}`,
    date: entry.date.replace("T", " ").replace(/Z$/, ""),
    reason: entry.reason,
    amount: formatSigned(sign * entry.amount),
    balanceAfter: entry.balanceAfter,
  };
}

function advanceRow(ability: AbilityKey, value: number, step: "number" | "rank", pool: number): AdvanceRow {
  let to: number | null = null;
  let cost: number | null = null;
  try {
    const c = advancementCost({ kind: "ability", from: value, step });
    to = c.rank;
    cost = c.cost;
  } catch {
    // The top of the ladder: nothing above to raise to.
  }
  return { ability, label: `CASE.Ability.${ability}`, value, step, to, cost, affordable: cost !== null && cost <= pool };
}

/** The Karma tab's data. */
export function campaignSheetData(system: CampaignSystemView): CampaignSheetData {
  const log = [...(system.karmaLog ?? [])].reverse().map(karmaLogRow);
  const lost = system.lostEnduranceRanks ?? 0;
  const pool = system.karma.value;
  return {
    log,
    hasLog: log.length > 0,
    advances: ABILITY_KEYS.map((key) => {
      const value = system.baseAbilities?.[key].value ?? system.abilities[key].value;
      return { ability: key, label: `CASE.Ability.${key}`, value, steps: [advanceRow(key, value, "number", pool), advanceRow(key, value, "rank", pool)] };
    }),
    lostEnduranceRanks: lost,
    effectiveEndurance: system.endurance?.value ?? effectiveEndurance(system.abilities.endurance.value, lost).value,
  };
}

/** The rest dialog's template data. */
export function restDialogContext(id: string) {
  return { id, maxDays: MAX_REST_DAYS, cares: CARE_LEVELS.map((value) => ({ value, labelKey: `CASE.Rest.Care.${value}` })) };
}

/** Reads the rest dialog's form: whole days 1…{@link MAX_REST_DAYS} and a care level; else null. */
export function readRestForm(form: Readonly<Record<string, unknown>>): { readonly days: number; readonly care: CareLevel } | null {
  const raw = form.days;
  const days = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > MAX_REST_DAYS) return null;
  const care = form.care;
  if (care !== "none" && care !== "medical") return null;
  return { days, care };
}
