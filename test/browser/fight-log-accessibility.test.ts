/**
 * Accessibility of the fight log window and the seed follow-ups (issue 23, items 2 and 8), in
 * Chromium, in Foundry's light and dark themes, as judge-desk-accessibility.test.ts checks the
 * Judge's desk: the real templates with the system's real stylesheets, checked by axe-core (zero
 * serious or critical violations) and walked with the Tab key (every control reached, its focus
 * visibly marked). Views: the fight log (rows applied, undone, taken out, the wrap-up), the
 * follow-up dialog (an impact's fields; a reversal's choice) and the follow-up card.
 */
import "../support/foundry-globals";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { dialogFrame, sharedBrowser, themedPage } from "../support/browser";
import { localize, renderTemplate } from "../support/handlebars";
import { controlsIn, expectAccessible, tabThrough } from "../support/accessibility";
import { fightLogContext, fightLogWords } from "../../src/foundry/api/fight-log-api";
import { followUpContext } from "../../src/foundry/exchange/follow-up";
import { applyDamage, buildFightLog, createExchange, declineDefence, rollToHit, type FightCard } from "../../src/rules/index";
import { exchangeInput } from "../support/exchange-input";

type Theme = "light" | "dark";
const THEMES: readonly Theme[] = ["light", "dark"];
const browser = sharedBrowser();

afterAll(async () => {
  await browser.close();
});

const showView = themedPage(browser);

/** A view at this file's size. */
function open(html: string, theme: Theme): Promise<Page> {
  return showView(html, theme, { width: 760, height: 800 });
}


function card(id: string, attacker: string, target: string, health: number, undo = false): FightCard {
  let s = createExchange(exchangeInput({
    source: "Haymaker",
    attacker: { uuid: `Actor.${attacker}`, name: attacker, value: 50, strength: 50, armor: 0 },
    targets: [{ uuid: `Actor.${target}`, actorUuid: `Actor.${target}`, name: target, scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 } }],
  }));
  s = applyDamage(rollToHit(declineDefence(s, "0"), "0", { die: 30 }), "0", { value: health, max: 100 }).state;
  if (undo) s = { ...s, targets: s.targets.map((t) => ({ ...t, phase: "undone" as const, applied: null, consequences: [] })) };
  return { id, at: 1, state: s };
}

const words = fightLogWords({ format: (key, data) => localize(key, data) });
const log = buildFightLog("combat0000000001", [card("a", "Kestrel, the Unbreakable Sentinel of the Northern Reach", "Doctor Gravel", 30), card("b", "Doctor Gravel", "Wren", 90, true)], [{ round: 1, actorUuid: "Actor.Wren", name: "Wren", kind: "regen", before: 50, after: 56 }], (u) => (u === "Actor.Doctor Gravel" ? "foe" : "ally"));

const CHAT_CSS = `<style>
  .chat-stand-in { width: 300px; list-style: none; margin: 0; padding: 0; }
  .chat-stand-in .chat-message { padding: 6px; border-radius: 5px; }
  .theme-light .chat-stand-in .chat-message { background: #f3efe6; color: #1d1c1a; }
  .theme-dark .chat-stand-in .chat-message { background: #2a2c34; color: #e9e6dd; }
</style>`;

const views: Record<string, () => string> = {
  "fight log": () =>
    dialogFrame(localize("CASE.FightLog.Heading", { id: log.combatId }), renderTemplate("templates/dialog/fight-log.hbs", fightLogContext(log, localize("CASE.FightLog.Heading", { id: log.combatId }), words)), [localize("CASE.FightLog.Markdown"), localize("CASE.FightLog.Json"), localize("CASE.FightLog.Journal"), localize("CASE.FightLog.AwardFoes", { count: "1" })], 720),
  "follow-up hit something": () => dialogFrame(localize("CASE.FollowUp.slamCollision"), renderTemplate("templates/dialog/follow-up.hbs", followUpContext("slamCollision", ["Wren"], "fu1")), [localize("CASE.FollowUp.Roll"), localize("CASE.Dialog.Cancel")]),
  "follow-up reversal": () => dialogFrame(localize("CASE.FollowUp.reversal"), renderTemplate("templates/dialog/follow-up.hbs", followUpContext("reversal", [], "fu2")), [localize("CASE.FollowUp.Roll"), localize("CASE.Dialog.Cancel")]),
  "follow-up card": () =>
    // A stand-in for Foundry's chat log in the theme's colours (as attack-card.test.ts frames the card), the row's follow-ups partial under the card.
    `${CHAT_CSS}<ol id="chat-log" class="chat-stand-in"><li class="chat-message message"><div class="message-content">${renderTemplate("templates/chat/follow-up-card.hbs", { titleKey: "CASE.FollowUp.slamCollision", lines: [{ key: "CASE.FollowUp.Line.impact", data: { name: "Wren", damage: "102", through: "72", rebound: "30" } }], names: [{ name: "Wren", amount: "30" }] })}${renderTemplate("templates/chat/follow-ups.hbs", { key: "0", followUps: [{ kind: "careen", labelKey: "CASE.FollowUp.careen" }, { kind: "bystanders", labelKey: "CASE.FollowUp.bystanders" }] })}</div></li></ol>`,
};

describe("accessibility of the fight log and the follow-ups", () => {
  for (const theme of THEMES) {
    for (const [name, html] of Object.entries(views)) {
      it(`accessibility: ${name}, ${theme} theme; every control reached by Tab`, { timeout: 60_000 }, async () => {
        const page = await open(html(), theme);
        const root = name === "follow-up card" ? ".chat-message" : "dialog.application";
        await expectAccessible(page, root, `fight-log-${name}-${theme}`);
        const controls = await controlsIn(page, root);
        const stops = await tabThrough(page, root);
        expect(stops.length).toBe(controls.length);
        expect(stops.filter((s) => !s.marked)).toEqual([]);
      });
    }
  }
});
