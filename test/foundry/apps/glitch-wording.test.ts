import { readFileSync } from "node:fs";
/**
 * Wording players read every session, rendered through the real templates with the real en.json
 * (test/support/handlebars.ts): no colour letter written twice, no "Health Health", no cut-off
 * button label, no form ids or negative "left" in the builder, no "(s)" plurals, no "needed:
 * Impossible".
 */
import "../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { ABILITY_KEYS, UNIVERSAL_TABLE, createRollRequest, recordRequestResult } from "../../../src/rules/index";
import { requestCardContext } from "../../../src/foundry/roll-requests/request-card-context";
import { actionCardContext } from "../../../src/foundry/dice/action-card-context";
import { addEntry, applyEdits, blankBuild, builderContext, builderFieldLabel, type BuilderCatalogue } from "../../../src/foundry/apps/builder/builder-context";
import { buildTrackerContext } from "../../../src/foundry/apps/tracker/tracker-context";
import { pluralKey } from "../../../src/foundry/core/format";
import { EN, localize, lookup, renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, queryOne, text } from "../../support/html";
import { trackerInputFor, turnWorld, worldCombatant } from "../../support/combat-world";

const flat = (html: string) => text(parseHtml(html)).replace(/\s+/g, " ");

describe("no glitch wording", () => {
  it("no glitch wording: a request card writes the colour once (its letter is the stylesheet's ::before)", () => {
    let request = createRollRequest("endurance", null, null, [{ actorUuid: "Actor.a", name: "Kestrel" }]);
    request = recordRequestResult(request, "0", { die: 50, value: 30, shift: 0, karma: 0, color: "green", success: true });
    const doc = parseHtml(renderTemplate("templates/chat/roll-request.hbs", requestCardContext(request, { isGM: true, owns: () => true, portrait: () => null })));
    const chip = text(queryOne(doc, ".color-chip")).trim();
    expect(chip).toBe("Green");
    expect(flat(renderTemplate("templates/chat/roll-request.hbs", requestCardContext(request, { isGM: false, owns: () => false, portrait: () => null })))).not.toMatch(/\bG · Green/);
  });

  it("no glitch wording: a colour chip says its colour's word once: the stylesheet puts no letter before it (no \"R Red\")", () => {
    const css = readFileSync("styles/case.css", "utf8");
    const letterRules = [...css.matchAll(/([^{}]+)::before\s*\{\s*content:\s*var\(--case-letter-/g)].map((m) => m[1] ?? "");
    expect(letterRules.length).toBe(4);
    for (const selector of letterRules) expect(selector).not.toContain("color-chip");
  });

  it("no glitch wording: one word for the game master in a message: none says both Judge and GM (\"the Judge (GM)\" names one person)", () => {
    const strings = (o: unknown): string[] => (typeof o === "string" ? [o] : typeof o === "object" && o !== null ? Object.values(o).flatMap(strings) : []);
    const mixed = strings(JSON.parse(readFileSync("lang/en.json", "utf8")))
      .filter((text) => /\bJudge/.test(text) && /\bGMs?\b/.test(text.replace(/Judge \(GM\)/g, "Judge")));
    expect(mixed).toEqual([]);
  });

  it("no glitch wording: the tracker says Health once; the footer's repeat button says what it repeats", () => {
    const w = turnWorld([worldCombatant("hero1", { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 }, { name: "Kestrel", playerOwned: true, owners: ["gm"] }), worldCombatant("thug", { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 }, { name: "Thug" })]);
    const input = trackerInputFor(w, { id: "gm", isGM: true }, { row: () => ({ health: { value: 120, max: 120 } }) });
    const ctx = buildTrackerContext(input, localize);
    const tracker = parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: ctx }));
    const healthTexts = queryAll(tracker, ".case-health-text").map((d) => text(d).trim());
    expect(healthTexts).toEqual(["120/120 (unhurt)", "120/120 (unhurt)"]);
    expect(text(tracker).replace(/\s+/g, " ")).not.toContain("Health Health");
    const footer = renderTemplate("templates/combat/footer.hbs", { case: ctx });
    const repeat = queryOne(parseHtml(footer), "button.case-repeat-declare");
    expect(text(repeat).trim()).toBe("Repeat last turn's declarations");
  });

  it("no glitch wording: the builder names fields in words and says points over the budget, not a negative left", () => {
    const catalogue: BuilderCatalogue = { powers: [{ uuid: "Compendium.case.powers.Item.a", name: "Flight", rank: null }], talents: [] };
    let build = addEntry(blankBuild("points"), "powers", catalogue, (n) => `Contact ${String(n)}`);
    // Every ability at Shift Z: far over the budget, and each above a new hero's highest rank.
    build = applyEdits(build, { ...Object.fromEntries(ABILITY_KEYS.map((k) => [`abilities.${k}`, "1000"])), "powers.0.rank": "1000" }, catalogue);
    build = applyEdits(build, { "abilities.reason": "x" }, catalogue);
    const html = flat(renderTemplate("templates/apps/character-builder.hbs", builderContext(build, catalogue, null)));
    expect(html).toContain("(Reason)");
    expect(html).toContain("(Strength)");
    expect(html).toContain("(power 1)");
    expect(html).toMatch(/Points: \d+ of \d+ spent, \d+ over the budget\./);
    expect(html).not.toMatch(/\((abilities|powers|talents|contacts)\.|-\d+ left|−\d+ left/);
    expect([builderFieldLabel("power 2"), builderFieldLabel("contacts.0"), builderFieldLabel("budget"), builderFieldLabel("something.new")]).toEqual([
      { key: "CASE.Builder.Field.power", n: 2, text: "power 2" },
      { key: "CASE.Builder.Field.contact", n: 1, text: "contacts.0" },
      { key: "CASE.Builder.Field.budget", n: null, text: "budget" },
      { key: null, n: null, text: "something.new" },
    ]);
  });

  it("no glitch wording: a check no roll could win says so, not \"needed: Impossible\"", () => {
    const check = { label: "CASE.Score.agility.dex", localizeLabel: true, score: "agility.dex" as const, value: 30, shifts: [], karma: 0, intensity: 50, needed: null, blindsided: false, attack: null };
    const html = flat(renderTemplate("templates/chat/action-card.hbs", { ...actionCardContext(check, 100, UNIVERSAL_TABLE), formula: "1d100" }));
    expect(html).toContain("Failure (no roll could succeed)");
    expect(html).not.toMatch(/needed: Impossible/i);
  });

  it("no glitch wording: counted turns and areas read in the singular and the plural, never \"(s)\"", () => {
    const say = (family: string, count: number, data: Record<string, string | number>) => {
      const template = lookup(EN, pluralKey(family, count));
      if (template === undefined) throw new Error(`no ${pluralKey(family, count)}`);
      return template.replace(/\{(\w+)\}/g, (_, k: string) => String(data[k] ?? `{${k}}`));
    };
    expect(say("CASE.Consequence.Stun.ThisTurn.", 1, { turns: 1 })).toBe("stunned for 1 turn, starting now");
    expect(say("CASE.Consequence.Stun.NextTurn.", 3, { turns: 3 })).toBe("stunned for 3 turns, starting next turn");
    expect(say("CASE.Turn.Chat.Stunned.", 1, { name: "Kestrel", turns: 1 })).toBe("Kestrel is stunned for 1 more turn.");
    expect(say("CASE.Consequence.Slam.GrandSlam.", 1, { areas: 1, direction: "back" })).toBe("Grand Slam: thrown 1 area back");
    expect(say("CASE.Tracker.Repeated.", 2, { count: 2 })).toBe("Repeated last turn's declaration for 2 NPCs.");
    expect(() => pluralKey("CASE.Tracker.Repeated", 2)).toThrow(/ending in "\."/);
    // What the player reads: the attack dialog's range and an impact card's areas.
    expect(localize("CASE.Dialog.RangeHint", { range: 1 })).not.toContain("(s)");
    expect(localize("CASE.Impact.What", { areas: 3, material: "Excellent", value: 20 })).not.toContain("(s)");
  });
});
