/**
 * The hero sheet's campaign part (the Karma tab): the Karma log newest first, what each ability
 * costs to raise (rules karma.ts `advancementCost`) and whether the pool affords it, lost
 * Endurance ranks and the Endurance they leave (rules recovery.ts `effectiveEndurance`).
 */
import { ABILITY_KEYS, CARE_LEVELS, advancementCost, effectiveEndurance, type AbilityKey, type CareLevel, type KarmaEntryKind, type KarmaLogEntry } from "../../../rules/index";
import { formatSigned, readWhole } from "../../core/format";
import { MAX_REST_DAYS } from "../../actor-writes";
import { MAX_KARMA_POOL_AMOUNT } from "../../core/settings";

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

/** One advancement choice: raise an ability (or power) by one rank number, or to the next rank. */
export interface AdvanceRow {
  /** The ability, or the power's item id. */
  readonly ability: string;
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
  /** Per power with a rank: raise one rank number, or to the next rank (power costs, karma.ts). */
  readonly powerAdvances: readonly { readonly id: string; readonly name: string; readonly value: number; readonly steps: readonly AdvanceRow[] }[];
  /** What a new talent costs and whether the pool affords it. */
  readonly talent: { readonly cost: number; readonly affordable: boolean };
  /** The group Karma pool, when the world uses one: its total and what this hero put in (net). */
  readonly groupPool: GroupPoolView | null;
}

/** The group Karma pool as the Karma tab shows it. */
export interface GroupPoolView {
  readonly total: number;
  readonly yours: number;
}

/** A power as the Karma tab prices it. */
export interface AdvancingPower {
  readonly id: string;
  readonly name: string;
  readonly rank: number;
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

function advanceRow(kind: "ability" | "power", ability: string, value: number, step: "number" | "rank", pool: number): AdvanceRow {
  let to: number | null = null;
  let cost: number | null = null;
  try {
    const c = advancementCost({ kind, from: value, step });
    to = c.rank;
    cost = c.cost;
  } catch {
    // The top of the ladder: nothing above to raise to.
  }
  return { ability, label: kind === "ability" ? `CASE.Ability.${ability}` : "CASE.Advance.Power", value, step, to, cost, affordable: cost !== null && cost <= pool };
}

/** The Karma tab's data. */
export function campaignSheetData(system: CampaignSystemView, powers: readonly AdvancingPower[] = [], groupPool: GroupPoolView | null = null): CampaignSheetData {
  const log = [...(system.karmaLog ?? [])].reverse().map(karmaLogRow);
  const lost = system.lostEnduranceRanks ?? 0;
  const pool = system.karma.value;
  const talentCost = advancementCost({ kind: "talent", name: "talent" }).cost;
  return {
    log,
    hasLog: log.length > 0,
    advances: ABILITY_KEYS.map((key) => {
      const value = system.baseAbilities?.[key].value ?? system.abilities[key].value;
      return { ability: key, label: `CASE.Ability.${key}`, value, steps: [advanceRow("ability", key, value, "number", pool), advanceRow("ability", key, value, "rank", pool)] };
    }),
    powerAdvances: powers.map((p) => ({ id: p.id, name: p.name, value: p.rank, steps: [advanceRow("power", p.id, p.rank, "number", pool), advanceRow("power", p.id, p.rank, "rank", pool)] })),
    talent: { cost: talentCost, affordable: talentCost <= pool },
    groupPool,
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
  const days = readWhole(form.days, { min: 1, max: MAX_REST_DAYS });
  if (days === null) return null;
  const care = form.care;
  if (care !== "none" && care !== "medical") return null;
  return { days, care };
}

/** A talent the hero may learn (from the Talents compendium). */
export interface LearnableTalent {
  readonly uuid: string;
  readonly name: string;
}

/** The talents a hero does not have yet (by name), for the learn-a-talent dialog. */
export function learnableTalents(all: readonly LearnableTalent[], owned: readonly string[]): LearnableTalent[] {
  return all.filter((t) => !owned.includes(t.name));
}

/** The learn-a-talent dialog's template data. */
export function learnTalentContext(id: string, talents: readonly LearnableTalent[], cost: number, pool: number) {
  return { id, talents: talents.map((t) => ({ uuid: t.uuid, name: t.name })), cost, pool };
}

/** Reads the learn-a-talent dialog: one of the offered talents, else null. */
export function readLearnTalentForm(form: Readonly<Record<string, unknown>>, talents: readonly LearnableTalent[]): LearnableTalent | null {
  return talents.find((t) => t.uuid === form.talent) ?? null;
}

/** The group pool dialog's template data. */
export function karmaPoolDialogContext(id: string, name: string, karma: number, total: number) {
  return { id, name, karma, total, max: MAX_KARMA_POOL_AMOUNT };
}

/** Reads the group pool dialog: a whole amount 1…{@link MAX_KARMA_POOL_AMOUNT}, else null. */
export function readKarmaPoolForm(form: Readonly<Record<string, unknown>>): number | null {
  return readWhole(form.amount, { min: 1, max: MAX_KARMA_POOL_AMOUNT });
}
