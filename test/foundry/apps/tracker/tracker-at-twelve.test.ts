/**
 * The tracker at 12 (issue 24, item 8), in what the view model, the template and the tracker's
 * actions decide: the phase hint and the waiting list fold (remembered per user, a client
 * setting), the folded row shows the extra actions asked and a failed roll, and core's row menu
 * loses the entries that would bypass the CASE turn. Heights and names in Chromium are in
 * test/browser/compact-tracker.test.ts.
 */
import "../../../support/foundry-globals";
import { describe, expect, it, vi } from "vitest";
import { buildTrackerContext, type TrackerInput } from "../../../../src/foundry/apps/tracker/tracker-context";
import { BYPASSING_ENTRIES, caseEntryOptions } from "../../../../src/foundry/apps/tracker/tracker-menu";
import { registerSettings } from "../../../../src/foundry/core/settings";
import { parseDeclaration } from "../../../../src/rules/index";
import { localize, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../../../support/combat-world";
import { SettingsDouble } from "../../../support/settings-double";
import { foundryDouble } from "../../../support/foundry-double";
import { fakeClick, fakeTarget, stubI18nAndNotifications } from "../../../support/foundry-stubs";
import { stats } from "../../../support/turn-play";

const ALICE = "alice00000000000";

function world(): TurnWorld {
  return turnWorld([
    worldCombatant("hero1", stats({ offence: 50 }), { name: "Kestrel", playerOwned: true, owners: [ALICE] }),
    worldCombatant("hero2", stats({ offence: 50 }), { name: "Wren", playerOwned: true, owners: [ALICE] }),
    worldCombatant("villain", stats(), { name: "Doctor Dread" }),
  ]);
}

function render(w: TurnWorld, viewer: string, hintFolded: boolean) {
  const input: TrackerInput = { ...trackerInputFor(w, { id: viewer, isGM: viewer === "gm" }), hintFolded };
  return parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: buildTrackerContext(input, localize) }));
}

describe("tracker hint folds", () => {
  it("tracker hint folds: unfolded, the hint and the waiting list; folded, the waiting list alone on one line, the toggle saying so", () => {
    const w = world();
    const open = render(w, "gm", false);
    const toggle = queryOne(open, '[data-action="caseToggleHint"]');
    expect([attr(toggle, "aria-expanded"), attr(toggle, "aria-controls"), text(toggle)]).toEqual(["true", "case-phase-help", "Hint"]);
    expect(attr(queryOne(open, ".case-phase-hint"), "hidden")).toBeUndefined();
    const folded = render(w, "gm", true);
    expect(attr(queryOne(folded, '[data-action="caseToggleHint"]'), "aria-expanded")).toBe("false");
    expect(attr(queryOne(folded, ".case-phase-help"), "class")).toContain("folded");
    expect(attr(queryOne(folded, ".case-phase-hint"), "hidden")).toBe("");
    // Who the phase waits for stays (one line, the whole list in its tooltip).
    const waiting = queryOne(folded, ".case-waiting");
    expect(text(waiting)).toBe("Waiting for: Kestrel, Wren, Doctor Dread");
    expect(attr(waiting, "data-tooltip")).toBe(text(waiting));
  });

  it("tracker hint folds: remembered per user, as a client setting the fold toggle flips (and the tracker renders again)", async () => {
    const settings = new SettingsDouble();
    stubI18nAndNotifications({ settings });
    registerSettings();
    const fold = settings.registered.find((s) => s.key === "trackerHintFolded");
    expect(fold?.config).toMatchObject({ scope: "client", config: false, type: Boolean, default: false });
    const CombatTrackerStandIn = Object.assign(function CombatTracker() {}, { PARTS: {}, DEFAULT_OPTIONS: {} });
    (foundryDouble.applications as Record<string, unknown>).sidebar = { tabs: { CombatTracker: CombatTrackerStandIn } };
    const { CaseCombatTracker } = await import("../../../../src/foundry/apps/tracker/combat-tracker");
    const toggle = (CaseCombatTracker.DEFAULT_OPTIONS as unknown as { actions: Record<string, (this: unknown, e: PointerEvent, t: HTMLElement) => Promise<void>> }).actions.caseToggleHint;
    const tracker = { render: vi.fn(() => Promise.resolve()) };
    await toggle?.call(tracker, fakeClick(), fakeTarget({ action: "caseToggleHint" }));
    expect(settings.get("case", "trackerHintFolded")).toBe(true);
    await toggle?.call(tracker, fakeClick(), fakeTarget({ action: "caseToggleHint" }));
    expect(settings.get("case", "trackerHintFolded")).toBe(false);
    expect(tracker.render).toHaveBeenCalledTimes(2);
  });
});

describe("the tracker at 12: the folded row and the row menu", () => {
  it("tracker full names: the folded row shows the actions asked and a failed extra-action roll (before: only in the details)", async () => {
    const w = world();
    await w.engine.declare("hero1", parseDeclaration({ text: "Three jabs", kind: "attack", attack: "BA", actions: 3 }));
    await w.engine.declare("hero2", parseDeclaration({ text: "Two shots", kind: "attack", attack: "Sh", actions: 2 }));
    await w.engine.declare("villain", parseDeclaration({ text: "Wait", kind: "other" }));
    w.dice.push(1, 99); // Kestrel fails (white), Wren passes (red)
    await w.engine.advance("declare");
    const doc = render(w, ALICE, false);
    const failed = queryOne(queryOne(doc, '[data-combatant-id="hero1"] .case-row'), ".case-extra-badge");
    expect(text(failed)).toBe("×3 failed");
    expect(attr(failed, "class")).toContain("failed");
    expect(attr(failed, "data-tooltip")).toMatch(/^Asked for 3 actions .* Rolled 1, .*: failed\.$/);
    const passed = queryOne(queryOne(doc, '[data-combatant-id="hero2"] .case-row'), ".case-extra-badge");
    expect(text(passed)).toBe("×2");
    // The NPC asked for no extra action: no badge; and a player never sees another's.
    expect(queryAll(doc, '[data-combatant-id="villain"] .case-extra-badge')).toEqual([]);
  });

  it("core's row menu: Clear and Update initiative go, Reroll becomes the CASE turn's roll in its place, the rest stay", () => {
    const core = ["COMBAT.CombatantUpdate", "COMBAT.CombatantClear", "COMBAT.CombatantReroll", "COMBAT.CombatantClearMovementHistory", "COMBAT.CombatantRemove"].map((name) => ({ name }));
    const caseRoll = { name: "CASE.Turn.Button.RollInitiative" };
    expect(caseEntryOptions(core, caseRoll).map((e) => e.name)).toEqual(["CASE.Turn.Button.RollInitiative", "COMBAT.CombatantClearMovementHistory", "COMBAT.CombatantRemove"]);
    expect(BYPASSING_ENTRIES).toEqual(["COMBAT.CombatantClear", "COMBAT.CombatantUpdate"]);
    // v14's entries name themselves by `label` (core/compat.ts): the same ones go.
    const v14 = ["COMBAT.CombatantClear", "COMBAT.CombatantReroll", "COMBAT.CombatantRemove"].map((label) => ({ label }));
    expect(caseEntryOptions<object>(v14, caseRoll)).toEqual([caseRoll, { label: "COMBAT.CombatantRemove" }]);
    // A core menu without a reroll (another version) still gets the CASE roll, last.
    expect(caseEntryOptions([{ name: "COMBAT.CombatantRemove" }], caseRoll).map((e) => e.name)).toEqual(["COMBAT.CombatantRemove", "CASE.Turn.Button.RollInitiative"]);
  });
});
