/**
 * The Judge's fight log window (rules fight-log.ts; exchange/fight-log.ts gathers it on the active
 * GM), `CONFIG.CASE.api.openFightLog(combatId?)`: opened from the combat tracker's footer
 * (*Fight log*, GM only) or the Judge's desk (the
 * viewed combat, else the latest combat that has attack cards, so it opens after the fight too).
 * It shows who hit whom with what, what got through, what was undone and who was taken out, and
 * offers Markdown and JSON downloads, a journal entry, and the award dialog pre-filled with the
 * log's "foes beaten" or "rescues".
 */
import { fightLogJson, fightLogMarkdown, type FightLog, type FightLogWords } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { requestGM } from "../requests/gm";
import { foughtCombatIds, fightLogQuery } from "../exchange/fight-log";
import { promptAwardKarma } from "./campaign-api";

export const FIGHT_LOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/fight-log.hbs`;

/** What the log window and the Markdown export call things: `Result.<code>` the attack results', the rest `CASE.FightLog.*`. */
export function fightLogWords(i18n: { format(key: string, data?: Record<string, string>): string }): FightLogWords {
  return (key, data) => i18n.format(key.startsWith("Result.") ? `CASE.Attack${key}` : `CASE.FightLog.${key}`, data ? { ...data } : undefined);
}

/** The window's template data (pure: tested with the real template). */
export function fightLogContext(log: FightLog, title: string, t: FightLogWords) {
  return {
    title,
    headers: ["Who", "Target", "With", "Result", "Through", "Health", "State"].map((k) => t(k)),
    rows: log.rows.map((r) => ({
      attacker: r.attacker.name,
      target: r.target.name,
      source: r.source,
      result: r.result === null ? "" : t(`Result.${r.result}`),
      through: r.through === null ? "" : String(r.through),
      health: r.health ? `${r.health.before} → ${r.health.after}` : "",
      status: r.status,
      statusLabel: t(`Status.${r.status}`) + (r.takenOut ? ` · ${t("Out")}` : ""),
      takenOut: r.takenOut,
    })),
    events: log.events.map((e) => t(`Event.${e.kind}`, { name: e.name, before: String(e.before), after: String(e.after) })),
    takenOut: [...log.takenOut],
    foesBeaten: log.foesBeaten,
    rescues: log.rescues,
  };
}

/** The export's file name (no directory: a download). */
export function fightLogFileName(combatId: string, format: "md" | "json"): string {
  return `case-fight-${combatId}.${format}`;
}

/** The log's Markdown and title, localised. */
function markdownOf(log: FightLog): { title: string; markdown: string } {
  const title = game.i18n.format("CASE.FightLog.Heading", { id: log.combatId });
  return { title, markdown: fightLogMarkdown(log, title, fightLogWords(game.i18n)) };
}

/** Downloads the log as Markdown or JSON (GM only). */
export function downloadFightLog(log: FightLog, format: "md" | "json"): void {
  const data = format === "json" ? fightLogJson(log) : markdownOf(log).markdown;
  foundry.utils.saveDataToFile(data, format === "json" ? "application/json" : "text/markdown", fightLogFileName(log.combatId, format));
}

/** Writes the log into a new journal entry (one Markdown page); resolves to its id. */
export async function fightLogJournal(log: FightLog): Promise<string | null> {
  const { title, markdown } = markdownOf(log);
  const entry = await JournalEntry.implementation.create({ name: title, pages: [{ name: title, type: "text", text: { format: CONST.JOURNAL_ENTRY_PAGE_FORMATS.MARKDOWN, markdown } }] });
  return entry?.id ?? null;
}

/** The log of combat `combatId` (the viewed combat, else the latest fought) through the active GM; null after a message when none or refused. */
export async function loadFightLog(combatId?: string): Promise<FightLog | null> {
  if (!game.user.isGM) {
    ui.notifications.error(game.i18n.localize("CASE.Campaign.GMOnly"));
    return null;
  }
  const id = combatId ?? game.combat?.id ?? foughtCombatIds()[0];
  if (id === undefined) {
    ui.notifications.warn(game.i18n.localize("CASE.FightLog.None"));
    return null;
  }
  return (await requestGM(fightLogQuery, { combatId: id })) ?? null;
}

/** Opens the fight log window; its buttons export it or open the award dialog pre-filled. Resolves to the log shown. */
export async function openFightLog(combatId?: string): Promise<FightLog | null> {
  const log = await loadFightLog(combatId);
  if (!log) return null;
  const t = fightLogWords(game.i18n);
  const title = game.i18n.format("CASE.FightLog.Heading", { id: log.combatId });
  const content = await foundry.applications.handlebars.renderTemplate(FIGHT_LOG_TEMPLATE, fightLogContext(log, title, t));
  const awards = [
    { action: "foeBeaten", count: log.foesBeaten, label: game.i18n.format("CASE.FightLog.AwardFoes", { count: String(log.foesBeaten) }) },
    { action: "rescue", count: log.rescues, label: game.i18n.format("CASE.FightLog.AwardRescues", { count: String(log.rescues) }) },
  ].filter((a) => a.count > 0);
  const action: unknown = await foundry.applications.api.DialogV2.wait({
    window: { title },
    position: { width: 720 },
    content,
    buttons: [
      { action: "md", label: "CASE.FightLog.Markdown", icon: "fa-solid fa-file-lines", default: true },
      { action: "json", label: "CASE.FightLog.Json", icon: "fa-solid fa-file-code" },
      { action: "journal", label: "CASE.FightLog.Journal", icon: "fa-solid fa-book" },
      ...awards.map((a) => ({ action: a.action, label: a.label, icon: "fa-solid fa-star" })),
    ],
    rejectClose: false,
  });
  if (action === "md" || action === "json") downloadFightLog(log, action);
  else if (action === "journal") {
    if (await fightLogJournal(log)) ui.notifications.info(game.i18n.localize("CASE.FightLog.JournalMade"));
  } else if (action === "foeBeaten" || action === "rescue") await promptAwardKarma(undefined, { category: action, count: action === "rescue" ? log.rescues : log.foesBeaten });
  return log;
}
