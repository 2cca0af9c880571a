/**
 * The tracker's templates (templates/combat/*.hbs) rendered by real Handlebars with the real
 * lang/en.json (test/support/handlebars.ts: a missing key or field fails), from the real
 * context builder, at each step of a turn run by the real engine, as the Judge and as players.
 */
import "../../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { EXTRA_ACTION_MODES } from "../../../../src/foundry/data/combat/combatant";
import { announcementLines } from "../../../../src/foundry/combat/announce";
import { buildDeclareContext, declarationFromForm } from "../../../../src/foundry/apps/tracker/declare-context";
import { TRACKER_KEY_PREFIXES, buildTrackerContext, statusKeys, type TrackerContext, type TrackerInput } from "../../../../src/foundry/apps/tracker/tracker-context";
import { DECLARED_ACTION_KINDS, TURN_PHASES, createCombatantTurn, parseDeclaration } from "../../../../src/rules/index";
import { localize, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../../../support/combat-world";
import { stats } from "../../../support/turn-play";

const ALICE = "alice00000000000";
const BOB = "bob0000000000000";


function party(): TurnWorld {
  return turnWorld([
    worldCombatant("hero1", stats({ offence: 50, initiativeModifier: 2, freeDefences: 2 }), { name: "Kestrel", playerOwned: true, owners: [ALICE] }),
    worldCombatant("hero2", stats(), { name: "Wren", playerOwned: true, owners: [BOB] }),
    worldCombatant("villain", stats({ offence: 30, initiativeModifier: 3, endurance: 30 }), { name: "Doctor Dread" }),
    worldCombatant("lurker", stats(), { name: "Sniper", hidden: true }),
  ]);
}

/** The tracker's input for a viewer: "gm" for the Judge, or a player's user id. */
function inputFor(w: TurnWorld, viewer: string, started = true): TrackerInput {
  return trackerInputFor(w, { id: viewer, isGM: viewer === "gm" }, { started });
}

function contextFor(w: TurnWorld, viewer: string, started = true): TrackerContext {
  return buildTrackerContext(inputFor(w, viewer, started), localize);
}

function render(ctx: TrackerContext) {
  const tracker = parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: ctx }));
  const footer = parseHtml(renderTemplate("templates/combat/footer.hbs", { case: ctx }));
  return { tracker, footer };
}

function row(doc: ReturnType<typeof parseHtml>, id: string) {
  return queryOne(doc, `li.case-combatant[data-combatant-id="${id}"]`);
}

/** Core's controls and the compact row's own buttons (find, details, the primary copy), tested in "compact tracker". */
const ROW_CHROME = new Set(["caseFindToken", "caseToggleRow", "casePingToken", "caseToggleHidden", "caseToggleDefeated"]);

/** The turn's buttons: a row's (in its details) or the footer's. */
function buttons(el: Parameters<typeof queryAll>[0]): string[] {
  const controls = queryAll(el, ".case-row-controls");
  const scope = controls.length > 0 ? controls : [el];
  return scope.flatMap((c) => queryAll(c, "button").map((b) => attr(b, "data-action") ?? "")).filter((a) => !ROW_CHROME.has(a));
}

describe("the declare phase", () => {
  it("the Judge sees every declaration, the waiting list and the advance button", async () => {
    const w = party();
    await w.engine.declare("villain", parseDeclaration({ text: "Death ray at Kestrel", kind: "attack", attack: "En" }));
    const { tracker, footer } = render(contextFor(w, "gm"));
    expect(text(queryOne(tracker, ".case-phase-label"))).toBe("Declare");
    expect(queryAll(tracker, ".case-step.current .case-step-label").map(text)).toEqual(["Declare"]);
    expect(text(queryOne(tracker, ".case-waiting"))).toBe("Waiting for: Kestrel, Wren, Sniper");
    expect(text(queryOne(row(tracker, "villain"), ".case-declaration"))).toBe("Energy Death ray at Kestrel");
    expect(buttons(row(tracker, "hero1"))).toEqual(["caseDeclare"]);
    expect(queryAll(tracker, "li.case-combatant").length).toBe(4);
    const advance = queryOne(footer, "button.case-advance");
    expect(text(advance)).toBe("Roll extra actions");
    expect(attr(advance, "data-from")).toBe("declare");
    expect(attr(advance, "data-force")).toBe("true");
  });

  it("a player sees an NPC's declaration only as 'Declared', declares for their own, and never sees the hidden sniper", async () => {
    const w = party();
    await w.engine.declare("villain", parseDeclaration({ text: "Death ray at Kestrel", kind: "attack", attack: "En" }));
    await w.engine.declare("hero2", parseDeclaration({ text: "Dive for cover", kind: "move" }));
    const { tracker, footer } = render(contextFor(w, ALICE));
    expect(text(queryOne(row(tracker, "villain"), ".case-declaration"))).toBe("Declared");
    expect(renderTemplate("templates/combat/tracker.hbs", { case: contextFor(w, ALICE) })).not.toContain("Death ray");
    expect(text(queryOne(row(tracker, "hero2"), ".case-declaration"))).toBe("Move Dive for cover");
    expect(text(queryOne(row(tracker, "hero1"), ".case-declaration"))).toBe("Not declared");
    expect(buttons(row(tracker, "hero1"))).toEqual(["caseDeclare"]);
    expect(buttons(row(tracker, "hero2"))).toEqual([]);
    expect(queryAll(tracker, 'li[data-combatant-id="lurker"]')).toEqual([]);
    expect(text(queryOne(tracker, ".case-waiting"))).toBe("Waiting for: Kestrel and 1 more");
    expect(queryAll(footer, "button.case-advance")).toEqual([]);
  });

  it("before the combat begins, the Judge is offered Begin, not advance", () => {
    const { footer } = render(contextFor(party(), "gm", false));
    expect(buttons(footer)).toEqual(["startCombat"]);
  });
});

describe("extra actions, initiative, resolve, wrap-up", () => {
  it("follows the turn step by step", async () => {
    const w = party();
    await w.engine.declare("hero1", parseDeclaration({ text: "Two jabs", kind: "attack", attack: "BA", actions: 2 }));
    w.dice.push(30); // Amazing wanting 2 (green): 30 is green, passes
    await w.engine.advance("declare", true);
    let { tracker, footer } = render(contextFor(w, ALICE));
    expect(text(queryOne(tracker, ".case-phase-label"))).toBe("Extra actions");
    expect(text(queryOne(row(tracker, "hero1"), ".case-extra"))).toBe("Asked for 2 actions (Green needed). Rolled 30, Green: passed.");
    expect(buttons(row(tracker, "hero1"))).toEqual(["caseChooseMode", "caseChooseMode"]);
    await w.engine.chooseExtraMode("hero1", "flurry");
    ({ tracker } = render(contextFor(w, ALICE)));
    expect(text(queryOne(row(tracker, "hero1"), ".case-extra-mode"))).toBe("Flurry");
    expect(text(queryOne(row(tracker, "hero1"), ".case-actions-left"))).toBe("1/1 damage +1 CS");

    w.dice.push(4, 2); // the Judge's two NPCs roll on entering initiative: villain 4+3, sniper 2
    await w.engine.advance("extraActions");
    ({ tracker } = render(contextFor(w, ALICE)));
    expect(text(queryOne(tracker, ".case-phase-label"))).toBe("Initiative");
    expect(buttons(row(tracker, "hero1"))).toEqual(["caseRollInitiative"]);
    expect(text(queryOne(row(tracker, "villain"), ".case-initiative"))).toBe("7");
    w.dice.push(9, 1); // Kestrel 9+2, Wren 1
    await w.engine.advance("initiative");

    ({ tracker, footer } = render(contextFor(w, ALICE)));
    expect(text(queryOne(tracker, ".case-phase-label"))).toBe("Resolve");
    expect(text(queryOne(tracker, ".case-acting"))).toBe("Acting now: Kestrel");
    expect(queryAll(tracker, "li.case-combatant").map((li) => attr(li, "data-combatant-id"))).toEqual(["hero1", "villain", "hero2"]);
    expect(attr(row(tracker, "hero1"), "class")).toContain("active");
    expect(buttons(row(tracker, "hero1"))).toEqual(["caseComplete", "caseChange"]);
    expect(text(queryOne(footer, "button.case-done"))).toBe("Done: Kestrel");
    // Bob sees whose turn it is, and may not press Done for it.
    ({ tracker, footer } = render(contextFor(w, BOB)));
    expect(text(queryOne(tracker, ".case-acting"))).toBe("Acting now: Kestrel");
    expect(queryAll(footer, "button")).toEqual([]);
    expect(buttons(row(tracker, "hero2"))).toEqual(["caseChange"]);

    await w.engine.recordDefence("hero2", "dodge");
    ({ tracker } = render(contextFor(w, "gm")));
    expect(text(queryOne(row(tracker, "hero2"), ".case-defences-left"))).toBe("0 \u22122 CS");

    await w.engine.completeAction("hero1", 0);
    await w.engine.completeAction("villain", 0);
    await w.engine.completeAction("lurker", 0); // the hidden sniper (2) acts before Wren (1)
    await w.engine.completeAction("hero2", 0);
    w.get("villain").conditions = { dying: true, aided: false, hold: "none" };
    await w.engine.advance("resolve");
    await w.engine.noteEvent("The floor gives way");
    ({ tracker, footer } = render(contextFor(w, "gm")));
    expect(text(queryOne(tracker, ".case-phase-label"))).toBe("Wrap up");
    expect(queryAll(queryOne(tracker, ".case-events"), "li").map(text)).toEqual(["The floor gives way"]);
    expect(text(queryOne(row(tracker, "villain"), ".case-statuses"))).toBe("Dying");
    expect(buttons(row(tracker, "villain"))).toEqual(["caseAided"]);
    expect(buttons(footer)).toEqual(["caseAdvance", "caseNoteEvent", "caseFightLog", "endCombat"]);
    expect(text(queryOne(footer, "button.case-advance"))).toBe("Next turn");
  });

  it("every phase, kind, mode and status the tracker can show has its words in en.json", () => {
    const keys: string[] = [];
    for (const p of TURN_PHASES) keys.push(`${TRACKER_KEY_PREFIXES.phase}${p}`, `${TRACKER_KEY_PREFIXES.phaseHint}${p}`, `${TRACKER_KEY_PREFIXES.advance}${p}`);
    for (const k of DECLARED_ACTION_KINDS) keys.push(`${TRACKER_KEY_PREFIXES.kind}${k}`);
    for (const m of EXTRA_ACTION_MODES) keys.push(`${TRACKER_KEY_PREFIXES.mode}${m}`);
    const base = createCombatantTurn("c", stats());
    const everything = { ...base, dying: true, stunTurns: 1, stunPending: 2, hold: "fullHold" as const, lostTurn: true, dodge: { roll: null, color: null, shift: 0 }, defeated: true };
    for (const c of [everything, { ...everything, aided: true }, { ...everything, dead: true, hold: "partialHold" as const }]) keys.push(...statusKeys(c).map(([, k]) => k));
    const missing = keys.filter((k) => {
      try {
        localize(k);
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
    expect(new Set(statusKeys(everything).map(([key]) => key))).toEqual(new Set(["dying", "stunned", "stunNext", "fullHold", "lostTurn", "dodging", "defeated"]));
  });
});

describe("the declare form", () => {
  it("offers only the action counts Ftg (off) can try, with the colour each needs (Table 22)", () => {
    const ctx = buildDeclareContext({ name: "Kestrel", offence: 40, current: null, change: false, declaredDodge: true }, localize);
    const doc = parseHtml(renderTemplate("templates/combat/declare.hbs", ctx));
    expect(queryAll(doc, 'select[name="actions"] option').map(text)).toEqual(["1 action (no roll)", "2 actions (Ftg (off) ACTION: Green needed)", "3 actions (Ftg (off) ACTION: Red needed)"]);
    expect(queryAll(doc, 'select[name="attack"] option').length).toBe(11);
    expect(queryAll(doc, ".hint").length).toBe(1);
  });

  it("changing an action keeps its count; the form's data becomes a declaration", () => {
    const current = parseDeclaration({ text: "Punch", kind: "attack", attack: "BA", actions: 2 });
    const ctx = buildDeclareContext({ name: "Kestrel", offence: 50, current, change: true, declaredDodge: false }, localize);
    const doc = parseHtml(renderTemplate("templates/combat/declare.hbs", ctx));
    expect(queryAll(doc, 'select[name="actions"] option').map((o) => attr(o, "value"))).toEqual(["2"]);
    expect(attr(queryOne(doc, 'select[name="actions"]'), "disabled")).toBe("");
    expect(text(queryOne(doc, "textarea"))).toBe("Punch");
    expect(declarationFromForm({ text: " Grab the girl ", kind: "", attack: "Gb", defence: "", actions: "1" })).toEqual(parseDeclaration({ text: "Grab the girl", kind: "attack", attack: "Gb" }));
    expect(declarationFromForm({ text: "", kind: "move", attack: "BA", defence: "dodge", actions: "2" })).toEqual(parseDeclaration({ kind: "move", actions: 2 }));
    expect(() => declarationFromForm({ actions: "12" })).toThrow(RangeError);
  });
});

describe("the turn's chat card", () => {
  it("names colours and shifts, and keeps NPC secrets apart for the GM, each die with its line", () => {
    const dodge = { formula: "1d100", total: 80 };
    const extra = { formula: "1d100", total: 40 };
    const { open, secret, openDice, secretDice } = announcementLines(
      {
        title: "CASE.Turn.Chat.DodgeTitle",
        lines: [
          { key: "CASE.Turn.Chat.Dodge", data: { name: "Kestrel", roll: 80, color: "yellow", shift: -4 }, secret: false, die: dodge },
          { key: "CASE.Turn.Chat.ExtraFailed", data: { name: "Doctor Dread", actions: 2, required: "yellow", roll: 40, color: "green" }, secret: true, die: extra },
        ],
      },
      localize,
    );
    expect(open).toEqual(["Kestrel dodges: rolled 80, Yellow — attacks on Kestrel this turn at \u22124 CS."]);
    expect(secret).toEqual(["Doctor Dread tries 2 actions (Yellow needed): rolled 40, Green — failed: one action at −3 CS."]);
    expect(openDice).toEqual([dodge]);
    expect(secretDice).toEqual([extra]);
    const card = parseHtml(renderTemplate("templates/combat/chat-card.hbs", { title: localize("CASE.Turn.Chat.DodgeTitle"), lines: open, dice: openDice }));
    expect(text(queryOne(card, ".card-title"))).toBe("Declared dodges");
    expect(queryAll(card, "li").length).toBe(1);
    // The die shows with its tooltip (the Roll itself rides on the message's rolls).
    expect(queryAll(card, ".case-turn-dice .die").map((d) => [text(d), attr(d, "data-tooltip")])).toEqual([["80", "1d100 rolled by the GM: 80"]]);
    const plain = parseHtml(renderTemplate("templates/combat/chat-card.hbs", { title: "Order", lines: ["1. Kestrel (7)"], dice: [] }));
    expect(queryAll(plain, ".case-turn-dice").length).toBe(0);
  });
});

describe("first aid and Aided on the tracker", () => {
  it("a player sees First aid on another's dying or stunned character (with their own able character as aider), never on their own, nor the Judge; the Judge keeps Aided", async () => {
    const w = party();
    w.get("hero2").conditions = { dying: true, aided: false, hold: "none" };
    await w.engine.applyStun("villain", 2);
    const alice = render(contextFor(w, ALICE)).tracker;
    for (const id of ["hero2", "villain"]) {
      const button = queryOne(row(alice, id), '[data-action="caseFirstAid"]');
      expect(text(button)).toBe("First aid");
      expect(attr(button, "data-aider-id")).toBe("hero1");
    }
    expect(buttons(row(alice, "hero1"))).not.toContain("caseFirstAid");
    const gm = render(contextFor(w, "gm")).tracker;
    expect(buttons(row(gm, "hero2"))).toContain("caseAided");
    expect(buttons(row(gm, "hero2"))).not.toContain("caseFirstAid");
    // Once aided, a dying character needs no more aid.
    await w.engine.setAided("hero2", true);
    expect(buttons(row(render(contextFor(w, ALICE)).tracker, "hero2"))).not.toContain("caseFirstAid");
  });
});

