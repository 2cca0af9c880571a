/**
 * The compact tracker's view model (apps/tracker-context.ts) rendered with the real templates:
 * minor foes grouped into one row outside the acting phases, Health as numbers or a band, the
 * Judge's back and bulk-declare controls.
 */
import "../../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { buildTrackerContext, type TrackerInput } from "../../../../src/foundry/apps/tracker/tracker-context";
import { parseDeclaration } from "../../../../src/rules/index";
import { localize, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../../../support/combat-world";
import { stats } from "../../../support/turn-play";

const ALICE = "alice00000000000";
const HEALTH: Record<string, { value: number; max: number }> = { hero: { value: 50, max: 100 }, thug1: { value: 30, max: 30 }, thug2: { value: 0, max: 30 }, boss: { value: 200, max: 240 } };

function world(): TurnWorld {
  return turnWorld([
    worldCombatant("hero", stats({ initiativeModifier: 3 }), { name: "Kestrel", playerOwned: true, owners: [ALICE] }),
    worldCombatant("thug1", stats(), { name: "Gravel Gang Thug", minorGroup: "minor:thugActor" }),
    worldCombatant("boss", stats({ initiativeModifier: 1 }), { name: "Doctor Dread" }),
    worldCombatant("thug2", stats(), { name: "Gravel Gang Thug", minorGroup: "minor:thugActor" }),
  ]);
}

function input(w: TurnWorld, viewer: string): TrackerInput {
  return trackerInputFor(w, { id: viewer, isGM: viewer === "gm" }, {
    row: (c) => ({ health: HEALTH[c.id] ?? null }),
    history: viewer === "gm" ? { steps: 2, phase: "resolve", turn: 1, cause: "done", name: "Kestrel" } : null,
  });
}

function render(w: TurnWorld, viewer: string) {
  const ctx = buildTrackerContext(input(w, viewer), localize);
  return { ctx, tracker: parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: ctx })), footer: parseHtml(renderTemplate("templates/combat/footer.hbs", { case: ctx })) };
}

describe("compact tracker: minor foes grouped", () => {
  it("minor foe rule: in the declare phase a group is one row with one Declare for all its members", () => {
    const w = world();
    const { tracker } = render(w, "gm");
    const rows = queryAll(tracker, "li.case-combatant");
    expect(rows.map((r) => attr(r, "data-combatant-id"))).toEqual(["hero", "thug1", "boss"]);
    const group = queryOne(tracker, "li.case-group");
    expect(attr(group, "data-group-members")).toBe("thug1,thug2");
    expect(text(queryOne(group, ".case-name"))).toBe("Gravel Gang Thug (group of 2)");
    expect(queryAll(group, "button").map((b) => attr(b, "data-action"))).toContain("caseDeclareGroup");
    expect(queryAll(group, '[data-action="caseDeclare"]')).toHaveLength(0);
    // The group's Health is its members' together; each member's is in the details.
    expect(attr(queryOne(group, ".case-health"), "aria-label")).toBe("Health 30/60 (badly hurt)");
    expect(queryAll(group, ".case-group-members li").map(text)).toEqual(["Gravel Gang Thug · Health 30/30 (unhurt)", "Gravel Gang Thug · Health 0/30 (down)"]);
  });

  it("minor foe rule: once a group has declared (one declaration), it shows as declared; in resolve its members act on their own rows", async () => {
    const w = world();
    await w.engine.declareMany(["thug1", "thug2"].map((combatantId) => ({ combatantId, declaration: parseDeclaration({ text: "Gang up on Kestrel" }) })));
    const player = render(w, ALICE);
    const group = queryOne(player.tracker, "li.case-group");
    expect(text(queryOne(group, ".case-row-summary"))).toBe("Declared");
    // A player sees the group's Health as a band, never its numbers.
    expect(attr(queryOne(group, ".case-health"), "aria-label")).toBe("Health: badly hurt");
    expect(text(group)).not.toMatch(/\/\s*30/);
    await w.engine.declare("hero", parseDeclaration({ text: "Jab" }));
    await w.engine.declare("boss", parseDeclaration({ text: "Gloat" }));
    await w.engine.advance("declare");
    w.dice.push(4, 1);
    await w.engine.advance("extraActions");
    w.dice.push(2);
    await w.engine.advance("initiative");
    const resolve = render(w, "gm");
    expect(queryAll(resolve.tracker, "li.case-combatant")).toHaveLength(4);
    expect(queryAll(resolve.tracker, "li.case-group")).toHaveLength(0);
  });
});

describe("back one step and bulk declare in the footer", () => {
  it("back one step: the Judge's footer says what it goes back to; a player's has no back and no bulk declare", () => {
    const w = world();
    const gm = render(w, "gm");
    const back = queryOne(gm.footer, '[data-action="caseStepBack"]');
    expect([attr(back, "data-steps"), attr(back, "data-tooltip"), text(back)]).toEqual(["2", "Back to before Kestrel's Done (Resolve, turn 1)", "Back one step"]);
    expect(queryAll(gm.footer, '[data-action="caseBulkDeclare"]')).toHaveLength(1);
    const alice = render(w, ALICE);
    for (const action of ["caseStepBack", "caseBulkDeclare", "caseRepeatDeclarations"]) expect(queryAll(alice.footer, `[data-action="${action}"]`)).toHaveLength(0);
  });
});
