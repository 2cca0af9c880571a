/**
 * Karma between adventures: a log of awards and spends, advancement (raising abilities and
 * powers, buying talents and contacts) and an optional group Karma pool. Karma spent on a roll
 * is actions.ts ({@link spendKarma}, {@link KARMA_MINIMUM}); {@link spendKarmaOnRoll} logs it.
 *
 * CASE's own advancement costs were not available: the defaults are the FASERIP Advanced Set's
 * (Player's Book, quoted at forums.rpgaddicts.com/printthread.php?tid=362: "x10 your current rank
 * number to raise … One Point", "To Crest an ability, Adults pay an additional 400 points").
 * The power, talent and contact costs are [RULING]s in the same spirit (marked below).
 */
import { spendKarma } from "./actions";
import { MAX_RANK_INDEX, assertRankNumber, rankOf } from "./ranks";
import { assertIsoDate, assertObject, assertOneOfValues, assertText, assertWholeNumber } from "./checks";
import { RulesRangeError } from "./errors";

/** What a log entry records. */
export const KARMA_ENTRY_KINDS = ["award", "spend", "advance", "contribute", "draw"] as const;
export type KarmaEntryKind = (typeof KARMA_ENTRY_KINDS)[number];

/** One line of a character's Karma log. */
export interface KarmaLogEntry {
  readonly kind: KarmaEntryKind;
  /** ISO 8601 date or date-time. */
  readonly date: string;
  readonly reason: string;
  /** Karma moved, always ≥ 0 (the kind says which way). */
  readonly amount: number;
  /** The character's Karma after this entry. */
  readonly balanceAfter: number;
}

/** A new balance and the entry that explains it. */
export interface KarmaChange {
  readonly balance: number;
  readonly entry: KarmaLogEntry;
}

function entry(kind: KarmaEntryKind, date: string, reason: string, amount: number, balanceAfter: number): KarmaLogEntry {
  assertIsoDate(date, "karmaLogDate");
  assertText(reason, "karmaLogReason");
  return Object.freeze({ kind, date, reason, amount, balanceAfter });
}

function assertBalance(balance: number): void {
  assertWholeNumber(balance, "karma");
}

/** Karma awarded [FASERIP]: `amount` ≥ 1 added to `balance`. */
export function awardKarma(balance: number, amount: number, reason: string, date: string): KarmaChange {
  assertBalance(balance);
  assertWholeNumber(amount, "karmaAwarded", 1);
  const after = balance + amount;
  return { balance: after, entry: entry("award", date, reason, amount, after) };
}

/** Karma taken away or spent outside a roll (a loss for a misdeed, a purchase). Refuses more than there is. */
export function deductKarma(balance: number, amount: number, reason: string, date: string): KarmaChange {
  assertBalance(balance);
  assertWholeNumber(amount, "karmaSpent", 1);
  if (amount > balance) throw new RulesRangeError("karmaShort", { amount, left: balance });
  const after = balance - amount;
  return { balance: after, entry: entry("spend", date, reason, amount, after) };
}

/** Karma spent on a roll (at least {@link KARMA_MINIMUM}; actions.ts decides), logged. */
export function spendKarmaOnRoll(balance: number, amount: number, reason: string, date: string): KarmaChange {
  const after = spendKarma(balance, amount);
  return { balance: after, entry: entry("spend", date, reason, amount, after) };
}

/** The balance a log ends with; checks every entry follows from the one before (RangeError at the first that does not). */
export function replayKarmaLog(start: number, log: readonly KarmaLogEntry[]): number {
  assertBalance(start);
  let balance = start;
  log.forEach((e, i) => {
    assertOneOfValues(e.kind, KARMA_ENTRY_KINDS, ["karmaLogKind", i + 1]);
    assertWholeNumber(e.amount, ["karmaLogAmount", i + 1]);
    const gain = e.kind === "award" || e.kind === "draw";
    balance = gain ? balance + e.amount : balance - e.amount;
    if (balance < 0 || balance !== e.balanceAfter) {
      throw new RulesRangeError("karmaLogBalance", { n: i + 1, said: e.balanceAfter, got: balance });
    }
  });
  return balance;
}

// ---------------------------------------------------------------------------------------------
// Advancement
// ---------------------------------------------------------------------------------------------

/** [RULING][FASERIP] Karma to raise an ability one rank number: this times its current rank number. */
export const ABILITY_POINT_COST_FACTOR = 10;
/** [RULING][FASERIP] Extra Karma when the raise crosses into the next rank ("cresting", adults). */
export const ABILITY_CREST_COST = 400;
/** [RULING] Karma to raise a power one rank number: this times its current rank number (powers cost twice abilities). */
export const POWER_POINT_COST_FACTOR = 20;
/** [RULING] Extra Karma when a power crosses into the next rank. */
export const POWER_CREST_COST = 800;
/** [RULING] The least one raise costs, so a Shift 0 score (rank number 0) is not free. */
export const MIN_POINT_COST = 10;
/** [RULING] Karma to learn a new talent. */
export const TALENT_COST = 1000;
/** [RULING] Karma to gain a new contact. */
export const CONTACT_COST = 500;

/** The advancement costs as one object (a world setting may pass its own). */
export interface AdvancementCosts {
  readonly abilityPointFactor: number;
  readonly abilityCrest: number;
  readonly powerPointFactor: number;
  readonly powerCrest: number;
  readonly minPointCost: number;
  readonly talent: number;
  readonly contact: number;
}

export const DEFAULT_ADVANCEMENT_COSTS: AdvancementCosts = Object.freeze({
  abilityPointFactor: ABILITY_POINT_COST_FACTOR,
  abilityCrest: ABILITY_CREST_COST,
  powerPointFactor: POWER_POINT_COST_FACTOR,
  powerCrest: POWER_CREST_COST,
  minPointCost: MIN_POINT_COST,
  talent: TALENT_COST,
  contact: CONTACT_COST,
});

/** The defaults overlaid with `overrides`, each a whole number ≥ 0. */
export function resolveAdvancementCosts(overrides: Partial<AdvancementCosts> = {}): AdvancementCosts {
  assertObject(overrides, { input: "advancementCosts" });
  const c: AdvancementCosts = { ...DEFAULT_ADVANCEMENT_COSTS, ...overrides };
  for (const v of Object.values(c)) assertWholeNumber(v, "advancementCost");
  return c;
}

/** What may be raised or bought. */
export const ADVANCEMENT_KINDS = ["ability", "power", "talent", "contact"] as const;
export type AdvancementKind = (typeof ADVANCEMENT_KINDS)[number];

/** [RULING] The most rank numbers one advancement may raise at once (a guard against a typo such as 1e9). */
export const MAX_ADVANCEMENT_STEP = 5000;

/**
 * Karma to raise an ability or power from rank number `from` to `to` [FASERIP]: each +1 costs
 * factor × the current number (at least {@link MIN_POINT_COST}), plus the crest cost each time
 * the number enters a new rank.
 */
export function raiseCost(kind: "ability" | "power", from: number, to: number, costs: Partial<AdvancementCosts> = {}): number {
  const c = resolveAdvancementCosts(costs);
  assertOneOfValues(kind, ["ability", "power"] as const, "advancementKind");
  assertRankNumber(from, "currentRankNumber");
  assertRankNumber(to, "newRankNumber");
  if (to <= from) throw new RulesRangeError("advancementNotUp", { to, from });
  if (to - from > MAX_ADVANCEMENT_STEP) throw new RulesRangeError("advancementTooBig", { max: MAX_ADVANCEMENT_STEP, got: to - from });
  const factor = kind === "ability" ? c.abilityPointFactor : c.powerPointFactor;
  const crest = kind === "ability" ? c.abilityCrest : c.powerCrest;
  let cost = 0;
  for (let n = from; n < to; n++) {
    cost += Math.max(c.minPointCost, factor * n);
    if (rankOf(n + 1).index !== rankOf(n).index) cost += crest;
  }
  return cost;
}

/** The lowest rank number of the rank above `value`'s (RangeError at Class 5000). */
export function nextRankNumber(value: number): number {
  const rank = rankOf(value);
  if (rank.index === MAX_RANK_INDEX) throw new RulesRangeError("advancementTopRank", { rank: rank.key });
  return rank.max + 1;
}

/** One advancement a player asks for. */
export type AdvancementRequest =
  | { readonly kind: "ability" | "power"; readonly from: number; readonly step: "number" | "rank" }
  | { readonly kind: "talent" | "contact"; readonly name: string };

type PurchaseRequest = Extract<AdvancementRequest, { readonly name: string }>;

function isPurchase(request: AdvancementRequest): request is PurchaseRequest {
  return request.kind === "talent" || request.kind === "contact";
}

/** What an advancement did. */
export interface Advancement {
  /** The new rank number (ability/power), or null for a talent or contact. */
  readonly rank: number | null;
  readonly cost: number;
  readonly balance: number;
  readonly entry: KarmaLogEntry;
}

/** The Karma an advancement costs, and the rank number it reaches (null for a talent or contact). */
export function advancementCost(request: AdvancementRequest, costs: Partial<AdvancementCosts> = {}): { readonly rank: number | null; readonly cost: number } {
  const input: unknown = request;
  assertObject(input, { input: "advancementRequest" });
  const kind: unknown = request.kind;
  assertOneOfValues(kind, ADVANCEMENT_KINDS, "advancementKind");
  const c = resolveAdvancementCosts(costs);
  if (isPurchase(request)) {
    const name: unknown = request.name;
    assertText(name, "advancementName");
    return { rank: null, cost: request.kind === "talent" ? c.talent : c.contact };
  }
  const { kind: raised, from, step } = request;
  const stepGiven: unknown = step;
  assertOneOfValues(stepGiven, ["number", "rank"] as const, "advancementStep");
  assertRankNumber(from, "currentRankNumber");
  const to = step === "number" ? from + 1 : nextRankNumber(from);
  return { rank: to, cost: raiseCost(raised, from, to, c) };
}

/**
 * Advancement paid with Karma: the new rank and cost, the balance after (= before − cost) and
 * its log entry. RangeError when the character cannot afford it: nothing is spent.
 */
export function advance(balance: number, request: AdvancementRequest, date: string, costs: Partial<AdvancementCosts> = {}): Advancement {
  assertBalance(balance);
  const { rank, cost } = advancementCost(request, costs);
  if (cost > balance) throw new RulesRangeError("advancementKarmaShort", { cost, left: balance });
  const what = isPurchase(request) ? `${request.kind} ${request.name}` : `${request.kind} ${request.from} → ${String(rank)}`;
  const after = balance - cost;
  return { rank, cost, balance: after, entry: entry("advance", date, what, cost, after) };
}

// ---------------------------------------------------------------------------------------------
// Group Karma pool [FASERIP Basic Set: "Karma Pools and Groups"]
// ---------------------------------------------------------------------------------------------

/**
 * What a member may draw from the group pool: "all" (anything in the pool) or "contributed" (no
 * more than that member put in, less what they drew before). A world setting picks one.
 */
export const KARMA_POOL_DRAW_LIMITS = ["all", "contributed"] as const;
export type KarmaPoolDrawLimit = (typeof KARMA_POOL_DRAW_LIMITS)[number];

/** [RULING] A member may draw anything in the group pool ({@link KARMA_POOL_DRAW_LIMITS}). */
export const KARMA_POOL_DRAW_LIMIT: KarmaPoolDrawLimit = "all";

/** The most Karma moved into or out of the group pool at once: a guard against a typo, far above every hero's Karma. */
export const MAX_KARMA_POOL_AMOUNT = 100_000;

/** `value` as a draw limit (a stored setting, say); RangeError naming the choices for anything else. */
export function karmaPoolDrawLimitOf(value: unknown): KarmaPoolDrawLimit {
  const found = KARMA_POOL_DRAW_LIMITS.find((v) => v === value);
  if (found === undefined) throw new RulesRangeError("poolDrawLimitUnknown", { allowed: KARMA_POOL_DRAW_LIMITS.join(", "), got: String(value) });
  return found;
}

/** The most `member` may draw from `pool` now under `limit`: the pool's total, or under "contributed" what they put in (net of draws, never below 0), capped at {@link MAX_KARMA_POOL_AMOUNT}. */
export function maxPoolDraw(pool: KarmaPool, member: string, limit: KarmaPoolDrawLimit = KARMA_POOL_DRAW_LIMIT): number {
  assertText(member, "poolMember");
  assertWholeNumber(pool.total, "poolTotal");
  karmaPoolDrawLimitOf(limit);
  const most = limit === "contributed" ? Math.min(pool.total, Math.max(0, pool.contributed[member] ?? 0)) : pool.total;
  return Math.min(most, MAX_KARMA_POOL_AMOUNT);
}

/** A group pool and what each member has put in (net of draws). */
export interface KarmaPool {
  readonly total: number;
  readonly contributed: Readonly<Record<string, number>>;
}

/** A member puts `amount` of their Karma into the pool. */
export function contributeToPool(pool: KarmaPool, member: string, balance: number, amount: number, date: string): { readonly pool: KarmaPool } & KarmaChange {
  assertText(member, "poolMember");
  assertWholeNumber(pool.total, "poolTotal");
  assertWholeNumber(amount, "karmaPutIn", 1);
  if (amount > MAX_KARMA_POOL_AMOUNT) throw new RulesRangeError("poolPutTooMuch", { max: MAX_KARMA_POOL_AMOUNT, got: amount });
  const change = deductKarma(balance, amount, `group pool: contribution by ${member}`, date);
  const net = (pool.contributed[member] ?? 0) + amount;
  return { pool: { total: pool.total + amount, contributed: { ...pool.contributed, [member]: net } }, balance: change.balance, entry: { ...change.entry, kind: "contribute" } };
}

/** A member draws `amount` from the pool (RangeError past the pool or the member's limit). */
export function drawFromPool(
  pool: KarmaPool,
  member: string,
  balance: number,
  amount: number,
  date: string,
  limit: KarmaPoolDrawLimit = KARMA_POOL_DRAW_LIMIT,
): { readonly pool: KarmaPool } & KarmaChange {
  assertBalance(balance);
  assertWholeNumber(amount, "karmaDrawn", 1);
  const most = maxPoolDraw(pool, member, limit);
  const own = pool.contributed[member] ?? 0;
  if (amount > most) {
    if (amount > pool.total) throw new RulesRangeError("poolDrawOverTotal", { total: pool.total, got: amount });
    if (limit === "contributed") throw new RulesRangeError("poolDrawOverOwn", { member, own });
    throw new RulesRangeError("poolDrawTooMuch", { max: MAX_KARMA_POOL_AMOUNT, got: amount });
  }
  const after = balance + amount;
  return {
    pool: { total: pool.total - amount, contributed: { ...pool.contributed, [member]: own - amount } },
    balance: after,
    entry: entry("draw", date, `group pool: drawn by ${member}`, amount, after),
  };
}

// ---------------------------------------------------------------------------------------------
// Award categories and the Karma lost for a kill
// ---------------------------------------------------------------------------------------------
//
// The FASERIP Karma chart (Advanced Set Judge's Book; its summary listing at
// kolidascope.wikia.com/wiki/Karm_(FASERIP): "Violent Crime -- Stop/Prevent (30), Violent Crime
// -- Arrest (15), Destructive Crime -- Stop/Prevent (20), Destructive Crime -- Arrest (10),
// Theft -- Stop/Prevent (10), Theft -- Arrest (10)"). The chart also lists rescues, foes
// defeated and a weekly award, whose values that summary does not give: those are [RULING]s
// in the chart's scale. CASE's seed texts name no award at all.

/** [RULING][FASERIP] Stopping or preventing a violent crime. */
export const KARMA_AWARD_STOP_VIOLENT_CRIME = 30;
/** [RULING][FASERIP] Bringing in the criminals of a violent crime after the fact. */
export const KARMA_AWARD_ARREST_VIOLENT_CRIME = 15;
/** [RULING][FASERIP] Stopping or preventing a destructive crime. */
export const KARMA_AWARD_STOP_DESTRUCTIVE_CRIME = 20;
/** [RULING][FASERIP] Bringing in the criminals of a destructive crime. */
export const KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME = 10;
/** [RULING][FASERIP] Stopping or preventing a theft. */
export const KARMA_AWARD_STOP_THEFT = 10;
/** [RULING][FASERIP] Bringing in a thief. */
export const KARMA_AWARD_ARREST_THEFT = 10;
/** [RULING] A rescue (an innocent saved from harm); the chart lists it, its value is ours. */
export const KARMA_AWARD_RESCUE = 20;
/** [RULING] A foe beaten in a fight; the chart scales it by the foe's rank, ours is one value. */
export const KARMA_AWARD_FOE_BEATEN = 20;
/** [RULING] The weekly award for keeping up a hero's life (job, training, patrols). */
export const KARMA_AWARD_WEEKLY = 10;

/** The award categories, in the order the award dialog offers them. */
export const KARMA_AWARD_CATEGORY_IDS = [
  "stopViolentCrime",
  "arrestViolentCrime",
  "stopDestructiveCrime",
  "arrestDestructiveCrime",
  "stopTheft",
  "arrestTheft",
  "rescue",
  "foeBeaten",
  "weekly",
] as const;
export type KarmaAwardCategory = (typeof KARMA_AWARD_CATEGORY_IDS)[number];

/** The Karma each category awards (one character, one event). */
export const KARMA_AWARD_CATEGORIES: Readonly<Record<KarmaAwardCategory, number>> = Object.freeze({
  stopViolentCrime: KARMA_AWARD_STOP_VIOLENT_CRIME,
  arrestViolentCrime: KARMA_AWARD_ARREST_VIOLENT_CRIME,
  stopDestructiveCrime: KARMA_AWARD_STOP_DESTRUCTIVE_CRIME,
  arrestDestructiveCrime: KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME,
  stopTheft: KARMA_AWARD_STOP_THEFT,
  arrestTheft: KARMA_AWARD_ARREST_THEFT,
  rescue: KARMA_AWARD_RESCUE,
  foeBeaten: KARMA_AWARD_FOE_BEATEN,
  weekly: KARMA_AWARD_WEEKLY,
});

/** The Karma an award of `category` gives for `count` events (each rescue, each foe). */
export function categoryAward(category: KarmaAwardCategory, count = 1): number {
  assertOneOfValues(category, KARMA_AWARD_CATEGORY_IDS, "awardCategory");
  assertWholeNumber(count, "numberOfEvents", 1);
  return KARMA_AWARD_CATEGORIES[category] * count;
}

/** What a kill costs a hero: "all" their Karma, or "none" (the Judge decides case by case). */
export const KARMA_KILL_RULINGS = ["all", "none"] as const;
export type KarmaKillRuling = (typeof KARMA_KILL_RULINGS)[number];

/**
 * [RULING][FASERIP] A hero who kills, or lets someone die who could have been saved, loses all
 * their Karma (the Basic Set's "Death" line of the Karma chart). A world setting; "none" leaves
 * the loss to the Judge's own award or deduction.
 */
export const KARMA_LOST_FOR_KILL: KarmaKillRuling = "all";

/** The Karma a kill takes from `balance` under `ruling`, logged; null when it takes nothing (the ruling, or no Karma left). */
export function karmaLostForKill(balance: number, reason: string, date: string, ruling: KarmaKillRuling = KARMA_LOST_FOR_KILL): KarmaChange | null {
  assertBalance(balance);
  assertOneOfValues(ruling, KARMA_KILL_RULINGS, "karmaLostForAKill");
  if (ruling === "none" || balance === 0) return null;
  return deductKarma(balance, balance, reason, date);
}
