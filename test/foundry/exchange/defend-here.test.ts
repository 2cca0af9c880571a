/**
 * Issue 24, "Defend where you look": the tracker's *Defend!* badge, the defence notice and the
 * defend shortcut bring the card's row into view with its defence choices (the card's own
 * buttons: the same query); the shortcut is on a key core does not use.
 *
 * The doubles of what Foundry gives: `ui.sidebar.expand()` and `ui.sidebar.changeTab("chat",
 * "primary")` as public v13 modules call them (e.g. Dice So Nice's tour), a notification with its
 * `element` (v13 `Notification`), and the chat log's row as an element that records being scrolled
 * to, opened and focused. The card is the real template, rendered by real Handlebars.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeMessage, installWorld, kestrelAndGravel, type FakeActor, type World } from "../../support/exchange-world";
import { createExchange, readExchangeForTest } from "../../support/exchange-fixtures";
import { attackCardContext } from "../../../src/foundry/exchange/card-context";
import { localize, renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";
import { trackerInputFor, turnWorld, worldCombatant } from "../../support/combat-world";
import { buildTrackerContext } from "../../../src/foundry/apps/tracker/tracker-context";
import { defendShortcut, noticeWaitingDefences } from "../../../src/foundry/exchange/card";
import { DEFEND_ACTION, registerDefenceShortcut } from "../../../src/foundry/exchange/defence-shortcut";
import type { Viewer } from "../../../src/foundry/exchange/card-context";

let world: World;
let hero: FakeActor;
let villain: FakeActor;

/** A chat-log row as much as showDefence touches of it. */
class RowDouble {
  readonly listeners: (() => unknown)[] = [];
  readonly asked: string[] = [];
  scrolled = 0;
  opened = false;
  focused: string | null = null;
  addEventListener(_type: string, listener: () => unknown): void {
    this.listeners.push(listener);
  }
  querySelector(selector: string): { setAttribute(): void; focus(): void } {
    this.asked.push(selector);
    return { setAttribute: () => (this.opened = true), focus: () => (this.focused = selector) };
  }
  scrollIntoView(): void {
    this.scrolled += 1;
  }
}

/** Core's ChatPopout as the pop-out uses it (foundryvtt.com/api ChatPopout: constructed with `{ message }`, then rendered). */
const popouts: unknown[] = [];
class ChatPopoutDouble {
  constructor(readonly options: { message: unknown }) {}
  render(): Promise<this> {
    popouts.push(this.options.message);
    return Promise.resolve(this);
  }
}

let sidebar: { tabs: string[]; expanded: number };
/** The row the chat log shows, or null when the log does not show the card. */
let chatRow: RowDouble | null;
let selectors: string[];

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
  sidebar = { tabs: [], expanded: 0 };
  popouts.length = 0;
  chatRow = new RowDouble();
  selectors = [];
  const ui = (globalThis as unknown as { ui: Record<string, unknown> }).ui;
  vi.stubGlobal("ui", { ...ui, sidebar: { expand: () => (sidebar.expanded += 1), changeTab: (tab: string, group: string) => sidebar.tabs.push(`${tab}/${group}`) } });
  vi.stubGlobal("document", { querySelector: (s: string) => (selectors.push(s), chatRow) });
  const foundryNow = (globalThis as unknown as { foundry: { applications: Record<string, unknown> } }).foundry;
  vi.stubGlobal("foundry", { ...foundryNow, applications: { ...foundryNow.applications, sidebar: { apps: { ChatPopout: ChatPopoutDouble } } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Gravel's Blunt Attack on Kestrel, waiting on her defence, as message `id`. */
function waitingCard(id = "msg0000000000001"): FakeMessage {
  const message = new FakeMessage(id, createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" }));
  world.messages.set(message.id, message);
  return message;
}

describe("defend where you look", () => {
  it("defend badge opens the card: the tracker's Defend! badge is a button that asks for the card's row", () => {
    const w = turnWorld([worldCombatant("hero", { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 }, { name: "Kestrel", playerOwned: true, owners: ["alice00000000000"] })]);
    const ctx = buildTrackerContext(trackerInputFor(w, { id: "gm", isGM: true }, { row: () => ({ health: null, defenceWaiting: true }), history: null }), localize);
    const badge = queryOne(parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: ctx })), ".case-defence-waiting");
    expect(badge.name).toBe("button");
    expect(attr(badge, "data-action")).toBe("caseShowDefence");
    expect(text(badge)).toBe("Defend!");
  });

  it("defend badge opens the card: the row comes into view on Chat with its choices, the last defence focused (two clicks, or a key and Enter)", async () => {
    waitingCard("msg0000000000001");
    const newer = waitingCard("msg0000000000002");
    world.settings.set("case.lastDefence", "weave");
    // What the tracker's badge asks for: the newest row waiting on this combatant's actor or token.
    expect(await defendShortcut((t) => t.actorUuid === hero.uuid)).toBe(true);
    expect(sidebar).toEqual({ tabs: ["chat/primary"], expanded: 1 });
    expect(selectors).toEqual([`#chat [data-message-id="${newer.id}"] .target-row[data-target-key="0"]`]);
    expect(chatRow).toMatchObject({ scrolled: 1, opened: true, focused: '[data-defence="weave"]' });
    expect(popouts).toEqual([]);
    // The focused element is the card's own Weave button (the card's defend query), in the row the GM opens.
    const card = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(readExchangeForTest(newer.system.exchange), { isGM: true, owns: () => true, isNpc: () => false }, { hideNpcDefences: false, ownersApplyDamage: false })));
    const weave = queryAll(card, '.target-row[data-target-key="0"] details [data-defence="weave"]');
    expect(weave.map((b) => attr(b, "data-action"))).toEqual(["caseDefend"]);
  });

  it("defend badge opens the card: a card the chat log does not show pops out in its own window, with its choices", async () => {
    const message = waitingCard();
    chatRow = null;
    expect(await defendShortcut((t) => t.uuid === hero.uuid)).toBe(true);
    expect(popouts).toEqual([message]);
  });

  it("defend badge opens the card: the shortcut also opens the row's choices in a small dialog, each defence with its odds and what each colour does; the pick goes to the GM as the card's button sends it", async () => {
    const message = waitingCard();
    const shown: { content: string; actions: string[] }[] = [];
    const foundryNow = (globalThis as unknown as { foundry: { applications: Record<string, Record<string, unknown>> } }).foundry;
    vi.stubGlobal("foundry", {
      ...foundryNow,
      applications: {
        ...foundryNow.applications,
        handlebars: { renderTemplate: (path: string, data: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), data)) },
        api: { DialogV2: { wait: (o: { content: string; buttons: { action: string }[] }) => (shown.push({ content: o.content, actions: o.buttons.map((b) => b.action) }), Promise.resolve("weave")) } },
      },
    });
    const sent: { name: string; payload: unknown }[] = [];
    const router = (globalThis as unknown as { CONFIG: { CASE: { router: { request: unknown } } } }).CONFIG.CASE.router;
    router.request = (query: { name: string }, payload: unknown) => (sent.push({ name: query.name, payload }), Promise.resolve({ ok: true, value: null }));
    expect(await defendShortcut((t) => t.uuid === hero.uuid, { dialog: true })).toBe(true);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.actions).toContain("weave");
    expect(shown[0]?.actions.at(-1)).toBe("none");
    const doc = parseHtml(shown[0]?.content ?? "");
    expect(queryAll(doc, ".defence-choice-list li")).toHaveLength((shown[0]?.actions.length ?? 1) - 1);
    for (const outcomes of queryAll(doc, ".defence-outcomes")) expect(text(outcomes)).toMatch(/^White: .+ · Green: .+ · Yellow: .+ · Red: .+$/);
    expect(sent).toEqual([{ name: "defend", payload: { messageId: message.id, revision: expect.any(Number) as number, targetKey: "0", defence: "weave" } }]);
    expect(world.settings.get("case.lastDefence")).toBe("weave");
  });

  it("defend badge opens the card: with nothing waiting the user is told, and no dialog opens", async () => {
    expect(await defendShortcut((t) => t.actorUuid === hero.uuid)).toBe(false);
    expect(world.notifications.info).toHaveBeenLastCalledWith("No attack card waits on your defence.");
    expect(selectors).toEqual([]);
  });

  it("defend badge opens the card: the defence notice stays until clicked, and a click shows the row's choices", async () => {
    const message = waitingCard();
    const alice: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: () => false };
    const notice = new RowDouble();
    const shown: { text: string; options: unknown }[] = [];
    const ui = (globalThis as unknown as { ui: Record<string, unknown> }).ui;
    vi.stubGlobal("ui", { ...ui, notifications: { info: (t: string, options: unknown) => (shown.push({ text: t, options }), { element: notice }) } });
    vi.stubGlobal("canvas", undefined);
    expect(noticeWaitingDefences(message.id, readExchangeForTest(message.system.exchange), alice, new Set())).toEqual(["Kestrel"]);
    expect(shown).toEqual([{ text: "Gravel attacks Kestrel: click to choose Kestrel's defence.", options: { permanent: true } }]);
    for (const listener of notice.listeners) await listener();
    await vi.waitFor(() => {
      expect(chatRow?.scrolled).toBe(1);
    });
    expect(sidebar.tabs).toEqual(["chat/primary"]);
  });

  it("defend badge opens the card: the shortcut shows the choices (no blind defence) on Shift+G, not core's Shift+D", () => {
    const registered: { action: string; config: { name: string; editable: unknown; onDown: () => boolean } }[] = [];
    vi.stubGlobal("game", { ...game, keybindings: { register: (_ns: string, action: string, config: never) => registered.push({ action, config }) } });
    let pressed = 0;
    registerDefenceShortcut(() => (pressed++, Promise.resolve()));
    expect(registered).toMatchObject([{ action: DEFEND_ACTION, config: { name: "CASE.Board.DefendName", editable: [{ key: "KeyG", modifiers: ["SHIFT"] }] } }]);
    expect(localize("CASE.Board.DefendName")).toBe("Defend: show the choices");
    expect(registered[0]?.config.onDown()).toBe(true);
    expect(pressed).toBe(1);
  });
});
