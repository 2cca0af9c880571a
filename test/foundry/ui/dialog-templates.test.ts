/**
 * The attack card's and the combat tracker's small dialogs: each template under
 * templates/dialog/ rendered with the real Handlebars harness and en.json (fields, words,
 * escaping); the reading of what was typed, as pure functions; and the dialogs as the card's
 * and the tracker's real actions show them (DialogV2 stood in for, recording what it is given
 * and answering as a person would), down to the request sent to the GM.
 */
import "../../support/foundry-globals";
import { existsSync } from "node:fs";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type * as GmModule from "../../../src/foundry/requests/gm";

const sent = vi.hoisted(() => [] as { query: string; payload: unknown }[]);

vi.mock("../../../src/foundry/requests/gm", async (importOriginal) => {
  const original = await importOriginal<typeof GmModule>();
  return {
    ...original,
    requestGM: (query: { name: string }, payload: unknown) => {
      sent.push({ query: query.name, payload });
      return Promise.resolve({ success: true });
    },
  };
});

import {
  DIALOG_FORM_TEMPLATES,
  FORCE_CONFIRM_TEMPLATE,
  NOTE_EVENT_TEMPLATE,
  PULL_DAMAGE_TEMPLATE,
  forceConfirmContext,
  noteEventContext,
  pullDamageContext,
  pullDamageMax,
  readNoteEvent,
  readPullDamage,
} from "../../../src/foundry/ui/dialog-forms";
import { askNoteEvent, askPullDamage, confirmForceAdvance } from "../../../src/foundry/ui/dialogs";
import { CARD_ACTIONS } from "../../../src/foundry/exchange/card";
import { DECLARATION_TEXT_MAX } from "../../../src/rules/index";
import { foundryDouble } from "../../support/foundry-double";
import { localize, renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";
import { fakeClick, fakeTarget, stubI18nAndNotifications, type Notifications } from "../../support/foundry-stubs";

/** A template path as the code names it (under systems/case/), as a repository path. */
const repoPath = (path: string): string => path.replace(/^systems\/case\//, "");

interface DialogCall {
  readonly kind: "wait" | "confirm";
  readonly window: { title: string };
  readonly content: string;
  readonly buttons?: { action: string; label: string; default?: boolean }[];
  readonly rejectClose: boolean;
}

let notifications: Notifications;
let dialogs: DialogCall[];
let answer: unknown;

beforeEach(() => {
  sent.length = 0;
  dialogs = [];
  answer = null;
  notifications = stubI18nAndNotifications();
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => "dlg0000000000001" },
    applications: {
      ...foundryDouble.applications,
      handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(repoPath(path), context)) },
      api: {
        ...foundryDouble.applications.api,
        DialogV2: {
          wait: vi.fn((config: Omit<DialogCall, "kind">) => {
            dialogs.push({ kind: "wait", ...config });
            return Promise.resolve(answer);
          }),
          confirm: vi.fn((config: Omit<DialogCall, "kind">) => {
            dialogs.push({ kind: "confirm", ...config });
            return Promise.resolve(answer);
          }),
        },
      },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The one dialog shown. */
function shown(): DialogCall {
  expect(dialogs).toHaveLength(1);
  const dialog = dialogs[0];
  if (!dialog) throw new Error("No dialog was shown.");
  return dialog;
}

describe("the dialog templates", () => {
  it("are files under templates/dialog/, as the build copies them", () => {
    expect(DIALOG_FORM_TEMPLATES.map(repoPath)).toEqual(["templates/dialog/pull-damage.hbs", "templates/dialog/note-event.hbs", "templates/dialog/force-confirm.hbs", "templates/dialog/back-confirm.hbs"]);
    expect(DIALOG_FORM_TEMPLATES.map(repoPath).filter((p) => !existsSync(p))).toEqual([]);
  });

  it("pull damage: a whole-number field from 0 to the damage rolled, starting there, labelled in words", () => {
    const doc = parseHtml(renderTemplate(repoPath(PULL_DAMAGE_TEMPLATE), pullDamageContext(30, "abc")));
    const input = queryOne(doc, 'input[name="damage"]');
    expect([attr(input, "type"), attr(input, "min"), attr(input, "max"), attr(input, "step"), attr(input, "value")]).toEqual(["number", "0", "30", "1", "30"]);
    expect("autofocus" in input.attribs).toBe(true);
    const label = queryOne(doc, "label");
    expect(text(label)).toBe("Damage to deal (at most 30)");
    expect(text(label)).toBe(localize("CASE.Exchange.PullDamagePrompt", { max: 30 }));
    expect(attr(label, "for")).toBe(attr(input, "id"));
    expect(attr(input, "id")).toBe("abc-damage");
  });

  it("note an event: one text field of at most the turn's text length, labelled in words", () => {
    const doc = parseHtml(renderTemplate(repoPath(NOTE_EVENT_TEMPLATE), noteEventContext("abc")));
    const input = queryOne(doc, 'input[name="event"]');
    expect([attr(input, "type"), attr(input, "maxlength"), attr(input, "id")]).toEqual(["text", String(DECLARATION_TEXT_MAX), "abc-event"]);
    expect(DECLARATION_TEXT_MAX).toBe(500);
    const label = queryOne(doc, "label");
    expect(text(label)).toBe("What happens?");
    expect(attr(label, "for")).toBe("abc-event");
    expect(queryAll(doc, "input")).toHaveLength(1);
  });

  it("force confirm: the question with who is still waited for; names are text, never markup", () => {
    const waiting = `<img src=x onerror="alert(1)"> Kestrel has not declared.`;
    const html = renderTemplate(repoPath(FORCE_CONFIRM_TEMPLATE), forceConfirmContext(waiting));
    const doc = parseHtml(html);
    expect(queryAll(doc, "img")).toHaveLength(0);
    expect(html).toContain("&lt;img");
    expect(text(queryOne(doc, "p"))).toBe(localize("CASE.Turn.Notify.ForceConfirm", { waiting }));
    expect(text(queryOne(doc, "p"))).toMatch(/^<img src=x onerror="alert\(1\)"> Kestrel has not declared\. Move on anyway\?/);
    // Nobody named: the question alone.
    expect(text(queryOne(parseHtml(renderTemplate(repoPath(FORCE_CONFIRM_TEMPLATE), forceConfirmContext(null))), "p"))).toBe(localize("CASE.Turn.Notify.ForceConfirm", { waiting: "" }).trim());
  });
});

describe("reading what was typed", () => {
  it("pull damage: a whole number from 0 to the damage rolled, as typed or as a number", () => {
    expect(readPullDamage(12, 30)).toBe(12);
    expect(readPullDamage("12", 30)).toBe(12);
    expect(readPullDamage(" 7 ", 30)).toBe(7);
    expect(readPullDamage(0, 30)).toBe(0);
    expect(readPullDamage(30, 30)).toBe(30);
  });

  it.each([[31], [-1], [2.5], ["ten"], [""], ["  "], [null], [undefined], [Number.NaN], [Infinity], [true]])("pull damage: refuses %j (never rounded or clamped)", (value) => {
    expect(readPullDamage(value, 30)).toBeNull();
  });

  it("the card's maximum: a whole number 0 or more, else a clear error", () => {
    expect(pullDamageMax("30")).toBe(30);
    expect(pullDamageMax("0")).toBe(0);
    for (const bad of [undefined, "", "-1", "2.5", "lots"]) expect(() => pullDamageMax(bad)).toThrow(/no readable maximum damage/);
  });

  it("an event: trimmed; nothing typed is nothing to note", () => {
    expect(readNoteEvent("  The bridge collapses. ")).toBe("The bridge collapses.");
    expect(readNoteEvent("   ")).toBeNull();
    expect(readNoteEvent("")).toBeNull();
    expect(readNoteEvent(null)).toBeNull();
    expect(readNoteEvent(42)).toBeNull();
  });
});

describe("the dialogs as DialogV2 shows them", () => {
  it("pull damage: the rendered template, a Pull button and Cancel; the number typed comes back", async () => {
    answer = { damage: 12 };
    await expect(askPullDamage(30)).resolves.toBe(12);
    const dialog = shown();
    expect(dialog.kind).toBe("wait");
    expect(dialog.window.title).toBe("Less damage…");
    expect(dialog.content).toBe(renderTemplate(repoPath(PULL_DAMAGE_TEMPLATE), pullDamageContext(30, "dlg0000000000001")));
    expect(dialog.buttons?.map((b) => [b.action, b.label, b.default === true])).toEqual([
      ["pull", "CASE.Exchange.PullLabel", true],
      ["cancel", "CASE.Dialog.Cancel", false],
    ]);
    expect(dialog.rejectClose).toBe(false);
    expect(notifications.error).not.toHaveBeenCalled();
  });

  it("pull damage: too much, or nothing typed, is refused with a message naming the limit", async () => {
    for (const damage of [31, null]) {
      answer = { damage };
      await expect(askPullDamage(30)).resolves.toBeNull();
    }
    expect(notifications.error).toHaveBeenCalledTimes(2);
    expect(notifications.error).toHaveBeenCalledWith("Damage to deal must be a whole number from 0 to 30.");
  });

  it("pull damage: cancelled or closed, nothing is asked and nothing said", async () => {
    for (const closed of ["cancel", null]) {
      answer = closed;
      await expect(askPullDamage(30)).resolves.toBeNull();
    }
    expect(notifications.error).not.toHaveBeenCalled();
  });

  it("note an event: the rendered template, a Note button and Cancel; the text comes back trimmed", async () => {
    answer = { event: "  Reinforcements arrive. " };
    await expect(askNoteEvent()).resolves.toBe("Reinforcements arrive.");
    const dialog = shown();
    expect(dialog.window.title).toBe("CASE.Turn.Notify.EventTitle");
    expect(dialog.content).toBe(renderTemplate(repoPath(NOTE_EVENT_TEMPLATE), noteEventContext("dlg0000000000001")));
    expect(dialog.buttons?.map((b) => [b.action, b.label, b.default === true])).toEqual([
      ["note", "CASE.Turn.Button.NoteEvent", true],
      ["cancel", "CASE.Dialog.Cancel", false],
    ]);
  });

  it("force confirm: a confirm with the rendered question; only a yes moves on", async () => {
    answer = true;
    await expect(confirmForceAdvance("Kestrel has not declared.")).resolves.toBe(true);
    const dialog = shown();
    expect(dialog.kind).toBe("confirm");
    expect(dialog.window.title).toBe("CASE.Turn.Notify.ForceTitle");
    expect(dialog.content).toBe(renderTemplate(repoPath(FORCE_CONFIRM_TEMPLATE), forceConfirmContext("Kestrel has not declared.")));
    expect(dialog.rejectClose).toBe(false);
    for (const no of [false, null]) {
      answer = no;
      await expect(confirmForceAdvance(null)).resolves.toBe(false);
    }
  });
});

describe("the attack card's Less damage… button", () => {
  const pullDamage = CARD_ACTIONS.casePullDamage;
  if (!pullDamage) throw new Error("The card has no casePullDamage action.");
  const click = (max: string | undefined) =>
    pullDamage.call({ messageId: "msg0000000000001" }, fakeClick(), fakeTarget({ action: "casePullDamage", targetKey: "t1", ...(max === undefined ? {} : { max }) }));

  it("asks with the button's maximum and sends the damage typed to the GM, against the card's revision", async () => {
    // The card as this client holds it (game.messages): the click names its revision.
    Object.assign(game, { messages: new Map([["msg0000000000001", { type: "attack", system: { revision: 3 } }]]) });
    answer = { damage: 10 };
    await click("25");
    expect(text(queryOne(parseHtml(shown().content), "label"))).toBe("Damage to deal (at most 25)");
    expect(sent).toEqual([{ query: "pull", payload: { messageId: "msg0000000000001", revision: 3, targetKey: "t1", color: undefined, damage: 10 } }]);
  });

  it("sends nothing when cancelled or refused", async () => {
    answer = "cancel";
    await click("25");
    answer = { damage: 26 };
    await click("25");
    expect(sent).toEqual([]);
    expect(notifications.error).toHaveBeenCalledWith("Damage to deal must be a whole number from 0 to 25.");
  });

  it("a button without a readable maximum is an error, and no dialog opens", async () => {
    await expect(click(undefined)).rejects.toThrow(/no readable maximum damage/);
    expect(dialogs).toEqual([]);
    expect(sent).toEqual([]);
  });
});

describe("the combat tracker's Note an event and Move on buttons", () => {
  type TrackerAction = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;
  let actions: Record<string, TrackerAction>;

  beforeAll(async () => {
    // Foundry's CombatTracker, as much as the module needs to load: the class to extend and its parts.
    const CombatTrackerStandIn = Object.assign(function CombatTracker() {}, { PARTS: {}, DEFAULT_OPTIONS: {} });
    (foundryDouble.applications as Record<string, unknown>).sidebar = { tabs: { CombatTracker: CombatTrackerStandIn } };
    const { CaseCombatTracker } = await import("../../../src/foundry/apps/tracker/combat-tracker");
    actions = (CaseCombatTracker.DEFAULT_OPTIONS as unknown as { actions: Record<string, TrackerAction> }).actions;
  });

  /** The tracker as the actions see it: the viewed combat's id and the CASE context's waiting line. */
  const tracker = { combatId: () => "combat0000000001", caseContext: () => ({ waiting: "Kestrel has not declared." }) };

  function action(name: string): TrackerAction {
    const found = actions[name];
    if (!found) throw new Error(`The tracker has no ${name} action.`);
    return found;
  }

  it("Note an event: the Judge's text, trimmed, goes to the GM; an empty one does not", async () => {
    answer = { event: " The bridge collapses. " };
    await action("caseNoteEvent").call(tracker, fakeClick(), fakeTarget({ action: "caseNoteEvent" }));
    expect(text(queryOne(parseHtml(shown().content), "label"))).toBe("What happens?");
    answer = { event: "  " };
    await action("caseNoteEvent").call(tracker, fakeClick(), fakeTarget({ action: "caseNoteEvent" }));
    expect(sent).toEqual([{ query: "noteEvent", payload: { combatId: "combat0000000001", text: "The bridge collapses." } }]);
  });

  it("Move on while the phase waits: asks with who is waited for; moves on only on a yes", async () => {
    const target = fakeTarget({ action: "caseAdvance", from: "declare", force: "true" });
    answer = false;
    await action("caseAdvance").call(tracker, fakeClick(), target);
    expect(text(queryOne(parseHtml(shown().content), "p"))).toBe(localize("CASE.Turn.Notify.ForceConfirm", { waiting: "Kestrel has not declared." }));
    expect(sent).toEqual([]);
    answer = true;
    await action("caseAdvance").call(tracker, fakeClick(), target);
    expect(sent).toEqual([{ query: "advancePhase", payload: { combatId: "combat0000000001", from: "declare", force: true } }]);
  });

  it("Advance when nothing waits: no question", async () => {
    await action("caseAdvance").call(tracker, fakeClick(), fakeTarget({ action: "caseAdvance", from: "declare", force: "false" }));
    expect(dialogs).toEqual([]);
    expect(sent).toEqual([{ query: "advancePhase", payload: { combatId: "combat0000000001", from: "declare", force: false } }]);
  });
});
