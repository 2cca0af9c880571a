/**
 * The fight log: every attack row of a combat (who hit whom with what, what got through, what
 * was undone, who was taken out) and the ledgered changes the turn made itself (an unaided
 * dying character's lost Endurance, Regeneration's Health), gathered from data the system
 * already keeps (the attack cards with the GM's secrets, the actors' ledgers). What counts as
 * "taken out", a "foe beaten" and a "rescue" is decided here, so the award dialog's pre-filled
 * counts follow named rulings. Pure: the Foundry side gathers the cards and ledgers.
 */
import type { AttackCode, AttackResult } from "./attacks";
import type { ExchangeState, ExchangeTarget } from "./exchange/state";

/** Version of the exported log's shape (JSON export). */
export const FIGHT_LOG_VERSION = 1;

/** Which side a character fought on: a foe of the heroes (a hostile token) or not. */
export type FightSide = "ally" | "foe";

/** One attack card of the fight, as the GM reads it (secrets joined). */
export interface FightCard {
  readonly id: string;
  /** When the card was made (ms since the epoch). */
  readonly at: number;
  readonly state: ExchangeState;
}

/** One ledgered change the turn itself made (the wrap-up's Endurance loss, Regeneration). */
export interface FightLedgerEvent {
  /** The combat turn (round) whose wrap-up wrote it. */
  readonly round: number;
  readonly actorUuid: string;
  readonly name: string;
  readonly kind: "dying" | "regen";
  readonly before: number;
  readonly after: number;
}

/** What happened to a row. "pending": not yet resolved when the log was read. */
export type FightRowStatus = "pending" | "resolved" | "applied" | "undone";

/** One attack row of the log. */
export interface FightLogRow {
  readonly card: string;
  readonly at: number;
  readonly attacker: { readonly uuid: string; readonly name: string };
  readonly target: { readonly uuid: string; readonly name: string };
  readonly source: string;
  readonly attack: AttackCode;
  readonly result: AttackResult | null;
  /** Health the row's damage took off (what got through the protection); null before it was rolled. */
  readonly through: number | null;
  readonly status: FightRowStatus;
  /** The target's Health before and after the row's damage (applied rows only). */
  readonly health: { readonly before: number; readonly after: number } | null;
  /** The checks the row rolled, as "check:result" ("slam:oneArea", "stun:outLong", "kill:enduranceLoss"). */
  readonly checks: readonly string[];
  /** The Karma the attacker spent on the attack (on the first row of its card). */
  readonly karma: number;
  readonly takenOut: boolean;
  readonly dead: boolean;
}

/** The log of one combat. */
export interface FightLog {
  readonly version: number;
  readonly combatId: string;
  readonly rows: readonly FightLogRow[];
  readonly events: readonly FightLedgerEvent[];
  /** Everyone taken out (names, in the order they went down; once each). */
  readonly takenOut: readonly string[];
  /** The award dialog's pre-filled counts. */
  readonly foesBeaten: number;
  readonly rescues: number;
}

/**
 * [RULING] A row "takes out" its target when, applied and not undone, its Health reached 0, the
 * minor-foe rule took it out of the fight, its Stun? left it out for 1–10 turns (a one-turn stun
 * does not), or its Kill? made it dying or dead (CASE-RULES §8).
 */
export const TAKEN_OUT_STUNS = ["outLong"] as const;

/**
 * [RULING] A "foe beaten" for the award dialog is a foe (a hostile token) taken out by an ally's
 * blow in the fight, counted once however often it went down; a foe felled by another foe is
 * not the heroes' win.
 */
export const FOE_BEATEN_BY_ALLY_ONLY = true as boolean;

/**
 * [RULING] A "rescue" for the award dialog is a character not a foe who was dying in the fight
 * (a Kill? that took an Endurance rank, or the wrap-up's loss of the unaided dying) and is alive
 * at the log's reading: someone pulled them back. Counted once per character.
 */
export const RESCUE_NEEDS_DYING = true as boolean;

function rowStatus(t: ExchangeTarget): FightRowStatus {
  if (t.phase === "undone") return "undone";
  if (t.phase === "applied") return "applied";
  if (t.phase === "resolved") return "resolved";
  return "pending";
}

function rowOf(card: FightCard, t: ExchangeTarget, first: boolean): FightLogRow {
  const status = rowStatus(t);
  const checks: string[] = [];
  let dying = false;
  let dead = false;
  let stunnedOut = false;
  for (const c of t.consequences) {
    const o = c.outcome;
    if (!o) continue;
    checks.push(`${o.check}:${o.result}`);
    if (o.check === "kill" && o.result === "enduranceLoss") dying = true;
    if (o.check === "kill" && o.dead) dead = true;
    if (o.check === "stun" && (TAKEN_OUT_STUNS as readonly string[]).includes(o.result)) stunnedOut = true;
  }
  const applied = status === "applied" ? t.applied : null;
  const takenOut = applied !== null && (applied.reachedZero || applied.out === true || applied.healthAfter === 0 || stunnedOut || dying || dead);
  const s = card.state;
  return {
    card: card.id,
    at: card.at,
    attacker: { uuid: s.attacker.uuid, name: s.attacker.name },
    target: { uuid: t.actorUuid, name: t.name },
    source: s.source,
    attack: s.attack,
    result: t.toHit?.result ?? null,
    through: t.damage?.dealt ?? null,
    status,
    health: applied && !applied.others ? { before: applied.healthBefore, after: applied.healthAfter } : null,
    checks,
    karma: first ? s.karma : 0,
    takenOut,
    dead: status === "applied" && dead,
  };
}

/** The rows of a set of cards, oldest first (a card's rows in their order). */
export function fightLogRows(cards: readonly FightCard[]): FightLogRow[] {
  const sorted = [...cards].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  return sorted.flatMap((card) => card.state.targets.map((t, i) => rowOf(card, t, i === 0)));
}

/**
 * The fight log of combat `combatId`: its cards' rows, the turn's own ledgered changes, who was
 * taken out, and the award counts ({@link FOE_BEATEN_BY_ALLY_ONLY}, {@link RESCUE_NEEDS_DYING}).
 * `sideOf` names each actor's side (unknown actors are allies).
 */
export function buildFightLog(combatId: string, cards: readonly FightCard[], events: readonly FightLedgerEvent[], sideOf: (actorUuid: string) => FightSide): FightLog {
  const rows = fightLogRows(cards);
  const sortedEvents = [...events].sort((a, b) => a.round - b.round);
  const takenOut: string[] = [];
  const seen = new Set<string>();
  const beaten = new Set<string>();
  const dying = new Set<string>();
  const dead = new Set<string>();
  for (const r of rows) {
    if (r.takenOut && !seen.has(r.target.uuid)) {
      seen.add(r.target.uuid);
      takenOut.push(r.target.name);
    }
    if (r.takenOut && sideOf(r.target.uuid) === "foe" && (!FOE_BEATEN_BY_ALLY_ONLY || sideOf(r.attacker.uuid) === "ally")) beaten.add(r.target.uuid);
    if (r.status === "applied" && r.checks.includes("kill:enduranceLoss")) dying.add(r.target.uuid);
    if (r.dead) dead.add(r.target.uuid);
  }
  for (const e of sortedEvents) if (e.kind === "dying" && e.after > e.before) dying.add(e.actorUuid);
  const rescued = [...dying].filter((uuid) => sideOf(uuid) === "ally" && !dead.has(uuid));
  return { version: FIGHT_LOG_VERSION, combatId, rows, events: sortedEvents, takenOut, foesBeaten: beaten.size, rescues: RESCUE_NEEDS_DYING ? rescued.length : 0 };
}

/** How the Markdown export names things: a localiser (`key`, `data`) the Foundry side gives. */
export type FightLogWords = (key: string, data?: Readonly<Record<string, string>>) => string;

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

/** The log as Markdown: a table of the rows, the turn's changes, and who was taken out. */
export function fightLogMarkdown(log: FightLog, title: string, t: FightLogWords): string {
  const lines = [`# ${cell(title)}`, "", `| ${[t("Who"), t("Target"), t("With"), t("Result"), t("Through"), t("Health"), t("State")].join(" | ")} |`, "|---|---|---|---|---|---|---|"];
  for (const r of log.rows) {
    const result = r.result === null ? "" : t(`Result.${r.result}`);
    const checks = r.checks.length > 0 ? ` (${r.checks.join(", ")})` : "";
    const health = r.health ? `${r.health.before} → ${r.health.after}` : "";
    const status = t(`Status.${r.status}`) + (r.takenOut ? ` · ${t("Out")}` : "");
    lines.push(`| ${[r.attacker.name, r.target.name, r.source, result + checks, r.through === null ? "" : String(r.through), health, status].map(cell).join(" | ")} |`);
  }
  if (log.events.length > 0) {
    lines.push("", `## ${t("Events")}`, "");
    for (const e of log.events) lines.push(`- ${cell(t(`Event.${e.kind}`, { name: e.name, before: String(e.before), after: String(e.after) }))}`);
  }
  lines.push("", `${t("TakenOut")}: ${log.takenOut.length > 0 ? log.takenOut.map(cell).join(", ") : "—"}`, "", `${t("FoesBeaten")}: ${log.foesBeaten} · ${t("Rescues")}: ${log.rescues}`, "");
  return lines.join("\n");
}

/** The log as JSON (its whole shape, {@link FIGHT_LOG_VERSION}). */
export function fightLogJson(log: FightLog): string {
  return JSON.stringify(log, null, 2);
}
