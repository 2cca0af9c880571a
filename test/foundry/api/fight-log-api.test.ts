/**
 * The fight log's window and exports (issue 23, item 2), rendered by real Handlebars with the
 * real lang/en.json: the table of rows, the Markdown and JSON exports with the real words, the
 * tracker footer's button (the Judge's only), and the award dialog pre-filled from the log.
 * The log is built by the real rules from exchanges played with the real transitions: a Blunt
 * Attack by Amazing (50) Fighting, die 30 (green on Amazing, which is green from 26): a Hit;
 * static 40 against no armor gets 40 through.
 */
import "../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { applyDamage, buildFightLog, createExchange, declineDefence, fightLogJson, rollToHit, KARMA_AWARD_FOE_BEATEN, type FightCard } from "../../../src/rules/index";
import { fightLogContext, fightLogFileName, fightLogWords } from "../../../src/foundry/api/fight-log-api";
import { fightLogMarkdown } from "../../../src/rules/index";
import { awardPromptContext, readAwardForm } from "../../../src/foundry/api/campaign-forms";
import { localize, renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";
import { exchangeInput } from "../../support/exchange-input";

function card(id: string, at: number, attacker: string, target: string, health: number, undo = false): FightCard {
  let s = createExchange(exchangeInput({
    source: "Haymaker",
    attacker: { uuid: `Actor.${attacker}`, name: attacker, value: 50, strength: 50, armor: 0 },
    targets: [{ uuid: `Actor.${target}`, actorUuid: `Actor.${target}`, name: target, scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 } }],
  }));
  s = applyDamage(rollToHit(declineDefence(s, "0"), "0", { die: 30 }), "0", { value: health, max: 100 }).state;
  if (undo) s = { ...s, targets: s.targets.map((t) => ({ ...t, phase: "undone" as const, applied: null, consequences: [] })) };
  return { id, at, state: s };
}

const words = fightLogWords({ format: (key, data) => localize(key, data) });
const log = buildFightLog(
  "combat0000000001",
  [card("a", 1, "Kestrel", "Gravel", 30), card("b", 2, "Gravel", "Kestrel", 90, true)],
  [{ round: 1, actorUuid: "Actor.Kestrel", name: "Kestrel", kind: "regen", before: 50, after: 56 }],
  (uuid) => (uuid === "Actor.Gravel" ? "foe" : "ally"),
);

describe("fight log", () => {
  it("fight log window: a row per attack with what got through, the undone row, who was taken out and the counts", () => {
    const html = parseHtml(renderTemplate("templates/dialog/fight-log.hbs", fightLogContext(log, "Fight log combat0000000001", words)));
    expect(queryAll(html, "th").map(text)).toEqual(["Who", "Target", "With", "Result", "Through", "Health", "Status"]);
    expect(queryAll(html, "tbody tr").map((tr) => queryAll(tr, "td").map(text))).toEqual([
      ["Kestrel", "Gravel", "Haymaker", "Hit", "40", "30 → 0", "Applied · taken out"],
      ["Gravel", "Kestrel", "Haymaker", "Hit", "40", "", "Undone"],
    ]);
    expect(queryAll(html, "tbody tr").map((tr) => attr(tr, "class"))).toEqual(["applied out", "undone"]);
    expect(queryAll(html, ".case-fight-events li").map(text)).toEqual(["Kestrel regenerated (Health 50 → 56)"]);
    expect(queryAll(html, "p").map(text)).toEqual(["Taken out: Gravel", "Foes beaten: 1 · Rescues: 0"]);
  });

  it("fight log export: Markdown with the real words, JSON whole, and the file names", () => {
    const md = fightLogMarkdown(log, localize("CASE.FightLog.Heading", { id: log.combatId }), words);
    expect(md.split("\n")).toEqual([
      "# Fight log combat0000000001",
      "",
      "| Who | Target | With | Result | Through | Health | Status |",
      "|---|---|---|---|---|---|---|",
      "| Kestrel | Gravel | Haymaker | Hit | 40 | 30 → 0 | Applied · taken out |",
      "| Gravel | Kestrel | Haymaker | Hit | 40 |  | Undone |",
      "",
      "## Wrap-up",
      "",
      "- Kestrel regenerated (Health 50 → 56)",
      "",
      "Taken out: Gravel",
      "",
      "Foes beaten: 1 · Rescues: 0",
      "",
    ]);
    expect(JSON.parse(fightLogJson(log))).toEqual(log);
    expect([fightLogFileName(log.combatId, "md"), fightLogFileName(log.combatId, "json")]).toEqual(["case-fight-combat0000000001.md", "case-fight-combat0000000001.json"]);
  });

  it("fight log feeds the award dialog: foes beaten chosen with the log's count, read as 20 Karma a foe", () => {
    const context = awardPromptContext([], "award1", "all", false, { category: "foeBeaten", count: 2 });
    const html = parseHtml(renderTemplate("templates/dialog/karma-award.hbs", context));
    expect(queryAll(html, "option[selected]").map((o) => attr(o, "value"))).toEqual(["foeBeaten", "all"]);
    expect(attr(queryOne(html, 'input[name="count"]'), "value")).toBe("2");
    // Without a preset the dialog opens on a custom award, one event.
    const plain = parseHtml(renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext([], "award2", "all")));
    expect(queryAll(plain, 'select[name="category"] option[selected]').map((o) => attr(o, "value"))).toEqual(["custom"]);
    expect(attr(queryOne(plain, 'input[name="count"]'), "value")).toBe("1");
    expect(KARMA_AWARD_FOE_BEATEN).toBe(20);
    expect(readAwardForm({ category: "foeBeaten", count: "2", reason: "", to: "all" })).toEqual({ kind: "award", amount: 40, reason: "foeBeaten ×2", to: "all" });
  });
});
