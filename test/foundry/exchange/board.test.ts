/**
 * The attack card and the board on one client, against the canvas double (test/support/
 * canvas-double.ts): range from tokens (measured, shown in the dialog, pre-filled), the defence
 * waiting (a ping at the owner's token, the hover highlight, the keyboard shortcut) and the
 * client half of *Apply to selected*.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeActor, FakeMessage, GM, characterSource, installWorld, kestrelAndGravel, type World } from "../../support/exchange-world";
import { CanvasDouble } from "../../support/canvas-double";
import { createExchange, readExchangeForTest } from "../../support/exchange-fixtures";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../support/html";
import { hoverToken, pingToken, rangesFromTokens, selectedTokenUuids, unhoverToken } from "../../../src/foundry/exchange/board";
import { noticeWaitingDefences, selectToken } from "../../../src/foundry/exchange/card";
import { newestWaitingRow, rememberDefence, viewerRows } from "../../../src/foundry/exchange/defence-shortcut";
import { applyToSelected } from "../../../src/foundry/exchange/apply-to-selected";
import { makeAttack } from "../../../src/foundry/exchange/make-attack";
import { cardForViewer } from "../../../src/foundry/exchange/card-store";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { declineDefence, rollToHit, type ExchangeState } from "../../../src/rules/index";

let world: World;
let hero: FakeActor;
let villain: FakeActor;
let board: CanvasDouble;

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
  board = new CanvasDouble({ columns: 30, rows: 20 });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const alice: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
const gm: Viewer = { isGM: true, owns: () => true, isNpc: (uuid) => uuid === villain.uuid };

/** Gravel attacks Kestrel's token: the row's UUID is the token's. */
function onToken(state: ExchangeState, tokenUuid: string): ExchangeState {
  return { ...state, targets: state.targets.map((t) => ({ ...t, uuid: tokenUuid })) };
}

describe("range from tokens", () => {
  it("range from tokens: from the attacker's token to each target's token on the viewed scene, one square one area, from the nearest squares", () => {
    // Kestrel is a 2×2 token at (0, 0)–(1, 1).
    board.add({ id: "tokkestrel000001", x: 0, y: 0, width: 2, height: 2, actor: hero });
    board.add({ id: "tokgravel0000001", x: 5, y: 1, actor: villain });
    board.add({ id: "tokother00000001", x: 3, y: 7 });
    board.install();
    const ranges = rangesFromTokens(hero, [
      { uuid: board.uuid("tokgravel0000001"), name: "Gravel" },
      { uuid: board.uuid("tokother00000001"), name: "Mole" },
    ]);
    // Gravel: 4 squares east of Kestrel's right column. Mole: 2 east, 6 south: 6 with a diagonal step as one area.
    expect(ranges).toEqual([
      { uuid: board.uuid("tokgravel0000001"), name: "Gravel", areas: 4 },
      { uuid: board.uuid("tokother00000001"), name: "Mole", areas: 6 },
    ]);
  });

  it("range from tokens: nothing measured on a hex grid, with no attacker token on the scene, or for a target on another scene", () => {
    board.add({ id: "tokgravel0000001", x: 5, y: 1, actor: villain });
    board.install();
    expect(rangesFromTokens(hero, [{ uuid: board.uuid("tokgravel0000001"), name: "Gravel" }])).toEqual([]);
    board.add({ id: "tokkestrel000001", x: 0, y: 0, actor: hero });
    expect(rangesFromTokens(hero, [{ uuid: "Scene.otherscene000001.Token.tokgravel0000001", name: "Gravel" }])).toEqual([]);
    const hex = new CanvasDouble({ gridType: 2 });
    hex.add({ id: "tokkestrel000001", x: 0, y: 0, actor: hero });
    hex.add({ id: "tokgravel0000001", x: 5, y: 1, actor: villain });
    hex.install();
    expect(rangesFromTokens(hero, [{ uuid: hex.uuid("tokgravel0000001"), name: "Gravel" }])).toEqual([]);
  });

  it("range per target: the attack dialog pre-fills each target's own measured distance (the attacker may change each), with the preview per target", async () => {
    const thug = new FakeActor("thug000000000001", "Thug", "npc", characterSource({ agility: 10 }), []);
    world.actors.set(thug.id, thug);
    board.add({ id: "tokkestrel000001", x: 2, y: 2, actor: hero });
    board.add({ id: "tokgravel0000001", x: 11, y: 2, actor: villain });
    board.add({ id: "tokthug000000001", x: 3, y: 3, actor: thug });
    board.install();
    const sling = { type: "weapon", name: "Sling", actor: hero, documentName: "Item", uuid: `${hero.uuid}.Item.item000000000001`, system: { attack: { enabled: true, type: "Sh", range: 3, pullable: true }, damage: { mode: "rank", rank: 10 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    hero.items.push(sling);
    const shown: string[] = [];
    const f = (globalThis as { foundry: { applications: Record<string, object> } }).foundry;
    vi.stubGlobal("foundry", {
      ...f,
      applications: {
        ...f.applications,
        api: { ...f.applications.api, DialogV2: { wait: (options: { content: string }) => (shown.push(options.content), Promise.resolve(null)) } },
        handlebars: { ...f.applications.handlebars, renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
      },
    });
    expect(await makeAttack(sling as never, { targetUuids: [board.uuid("tokgravel0000001"), board.uuid("tokthug000000001")] })).toBeNull();
    const dialog = parseHtml(shown[0] ?? "");
    // One field per target, named by it, holding its own distance: 9 areas to Gravel, 1 to the thug (before: one field, 9 for both).
    expect(queryAll(dialog, ".attack-distances label").map((l) => text(l))).toEqual(["Gravel", "Thug"]);
    expect(queryAll(dialog, ".attack-distances input").map((i) => [attr(i, "name"), attr(i, "value")])).toEqual([["distance0", "9"], ["distance1", "1"]]);
    expect(queryAll(dialog, 'input[name="distance"]')).toEqual([]);
  });

  it("range per target: a shift-click attack (no dialog) gives each row its own measured range shift, shown on its row; the card's shifts have none", async () => {
    const thug = new FakeActor("thug000000000001", "Thug", "npc", characterSource({ agility: 10 }), []);
    world.actors.set(thug.id, thug);
    board.add({ id: "tokgravel0000001", x: 2, y: 2, actor: villain });
    board.add({ id: "tokkestrel000001", x: 11, y: 3, actor: hero });
    board.add({ id: "tokthug000000001", x: 3, y: 2, actor: thug });
    board.install();
    const ray = { type: "weapon", name: "Ray gun", actor: villain, documentName: "Item", uuid: `${villain.uuid}.Item.item000000000001`, system: { attack: { enabled: true, type: "En", range: 3, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    villain.items.push(ray);
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    const message = await makeAttack(ray as never, { targetUuids: [board.uuid("tokkestrel000001"), board.uuid("tokthug000000001")], skipDialog: true });
    const state = readExchangeForTest((message as unknown as FakeMessage).system.exchange);
    // Kestrel 9 areas away, range 3: −6 CS on her row; the thug 1 area away: none (before: −6 on both).
    expect(state.toHitCs.filter((c) => c.label === "CASE.Exchange.RangePenaltyLabel")).toEqual([]);
    expect(state.targets.map((t) => [t.name, t.toHitCs])).toEqual([
      ["Kestrel", [{ cs: -6, label: "CASE.Exchange.RangePenaltyLabel", localize: true }]],
      ["Thug", undefined],
    ]);
    const card = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(state, gm, { hideNpcDefences: false, ownersApplyDamage: false })));
    expect(queryAll(card, ".target-row").map((row) => queryAll(row, ".target-head .cs").map((c) => text(c)))).toEqual([["−6 CS Beyond range"], []]);
  });
});

describe("defence waiting: the token on the board", () => {
  it("defence waiting: the owner's client pings the waiting token once, besides the notice; the GM's does not", () => {
    const token = board.add({ id: "tokkestrel000001", x: 3, y: 4, actor: hero });
    board.install();
    const state = onToken(createExchange({ attackerActor: villain, targetActor: hero }), token.document.uuid);
    const seen = new Set<string>();
    expect(noticeWaitingDefences("msg0000000000001", state, alice, seen)).toEqual(["Kestrel"]);
    expect(board.pings).toEqual([{ x: 350, y: 450 }]);
    noticeWaitingDefences("msg0000000000001", state, alice, seen);
    noticeWaitingDefences("msg0000000000001", state, gm, new Set());
    expect(board.pings).toHaveLength(1);
    // No canvas (or the token elsewhere): the notice alone, no error.
    vi.stubGlobal("canvas", null);
    expect(pingToken(token.document.uuid)).toBe(false);
  });

  it("pull ping: the waiting ping is an explicit pulse that pulls no view, even while the player holds Shift; after a reload the same row is not pinged again", async () => {
    const token = board.add({ id: "tokkestrel000001", x: 3, y: 4, actor: hero });
    board.install();
    const state = onToken(createExchange({ attackerActor: villain, targetActor: hero }), token.document.uuid);
    // The player is typing a capital letter as the card arrives.
    (game as unknown as { keyboard: unknown }).keyboard = { isModifierActive: (key: string) => key === "Shift" };
    vi.stubGlobal("CONFIG", { ...CONFIG, Canvas: { pings: { types: { PULSE: "pulse", PULL: "chevron" } } } });
    // The tab's sessionStorage (Web Storage: survives a reload of the tab).
    const stored = new Map<string, string>();
    vi.stubGlobal("sessionStorage", { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) });
    expect(noticeWaitingDefences("msg0000000000001", state, alice)).toEqual(["Kestrel"]);
    expect(board.pingOptions).toEqual([{ style: "pulse", pull: false }]);
    // A reload: the module's memory is new, the tab's storage is not.
    vi.resetModules();
    const reloaded = await import("../../../src/foundry/exchange/card");
    expect(reloaded.noticeWaitingDefences("msg0000000000001", state, alice)).toEqual([]);
    expect(board.pings).toHaveLength(1);
  });

  it("defence waiting: hovering a row highlights its token as core's tracker does (others hovered out); leaving ends it; a controlled, hidden or absent token is left alone", () => {
    board.add({ id: "tokkestrel000001", x: 3, y: 4, actor: hero });
    board.add({ id: "tokgravel0000001", x: 5, y: 4, actor: villain });
    board.add({ id: "tokcontrolled001", x: 6, y: 4, controlled: true });
    board.add({ id: "tokhidden0000001", x: 7, y: 4, visible: false });
    board.install();
    const event = new Event("pointerenter");
    expect(hoverToken(board.uuid("tokkestrel000001"), event)).toBe(true);
    expect(hoverToken(board.uuid("tokgravel0000001"), event)).toBe(true);
    expect(board.log).toEqual(["hoverIn:tokkestrel000001", "hoverOut:tokkestrel000001", "hoverIn:tokgravel0000001"]);
    unhoverToken(event);
    expect(board.all().filter((t) => t.hover)).toEqual([]);
    expect(hoverToken(board.uuid("tokcontrolled001"), event)).toBe(false);
    expect(hoverToken(board.uuid("tokhidden0000001"), event)).toBe(false);
    expect(hoverToken("Scene.otherscene000001.Token.tokkestrel000001", event)).toBe(false);
    expect(hoverToken(hero.uuid, event)).toBe(false);
    // Click still selects and pans (the Find button).
    expect(selectToken(board.uuid("tokkestrel000001"))).toBe(true);
    expect(board.pans).toEqual([{ x: 350, y: 450 }]);
  });

  it("defence waiting: a token row carries its token's UUID for the hover, an actor row none", () => {
    const base = createExchange({ attackerActor: villain, targetActor: hero });
    const render = (s: ExchangeState) => parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackContext(s)));
    expect(queryAll(render(onToken(base, board.uuid("tokkestrel000001"))), ".target-row").map((li) => attr(li, "data-token-uuid"))).toEqual([board.uuid("tokkestrel000001")]);
    expect(queryAll(render(base), ".target-row").map((li) => attr(li, "data-token-uuid"))).toEqual([undefined]);
  });

  it("defence waiting: the shortcut finds the newest card waiting on the user's token (a player's own; the GM's selected only), and remembers the defence chosen last", () => {
    const token = board.add({ id: "tokkestrel000001", x: 3, y: 4, actor: hero, controlled: true });
    board.install();
    const waiting = onToken(createExchange({ attackerActor: villain, targetActor: hero, attack: "En" }), token.document.uuid);
    const older = new FakeMessage("msg0000000000001", waiting);
    const newer = new FakeMessage("msg0000000000002", waiting);
    world.messages.set(older.id, older);
    world.messages.set(newer.id, newer);
    const read = (m: { id: string | null; type: string }) => cardForViewer(m as never);
    expect(newestWaitingRow(world.messages.values(), viewerRows(alice, []), read)).toMatchObject({ messageId: newer.id, targetKey: "0" });
    expect(newestWaitingRow(world.messages.values(), viewerRows(gm, []), read)).toBeNull();
    expect(newestWaitingRow(world.messages.values(), viewerRows(gm, selectedTokenUuids()), read)).toMatchObject({ messageId: newer.id });
    rememberDefence("not-a-defence");
    expect(world.settings.get("case.lastDefence")).toBe("");
    rememberDefence("dodge");
    expect(world.settings.get("case.lastDefence")).toBe("dodge");
  });
});

describe("apply to selected: the client half", () => {
  it("apply to selected: with no token selected the user is told; otherwise the selected tokens go to the GM, who applies the row's damage to them", async () => {
    const bystander = board.add({ id: "tokgravel0000001", x: 3, y: 4, actor: villain });
    board.install();
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    const hit = rollToHit(declineDefence(createExchange({ attackerActor: villain, targetActor: hero, damage: 20 }), "0"), "0", { die: 99 });
    const message = new FakeMessage("msg0000000000001", hit);
    world.messages.set(message.id, message);
    const before = { hero: hero.system.health.value, villain: villain.system.health.value };
    await applyToSelected(message.id, "0");
    expect(world.notifications.warn).toHaveBeenLastCalledWith("Select the tokens to apply the damage to first.");
    expect(message.system.revision).toBe(0);
    bystander.controlled = true;
    expect(selectedTokenUuids()).toEqual([board.uuid("tokgravel0000001")]);
    await applyToSelected(message.id, "0");
    expect(villain.system.health.value).toBe(before.villain - 20);
    expect(hero.system.health.value).toBe(before.hero);
    expect(readExchangeForTest(message.system.exchange).targets[0]?.applied?.others?.map((o) => o.name)).toEqual(["Gravel"]);
    // The card's button, for who may apply, with its tooltip naming the row's target.
    const doc = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackContext(hit)));
    expect(queryAll(doc, '[data-action="caseApplyToSelected"]').map((b) => [text(b), attr(b, "data-tooltip")])).toEqual([["Apply to selected", "Apply this damage to the selected tokens instead of Kestrel"]]);
    const aliceSees = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(hit, alice, { hideNpcDefences: false, ownersApplyDamage: false })));
    expect(queryAll(aliceSees, '[data-action="caseApplyToSelected"]')).toHaveLength(0);
  });
});

function attackContext(s: ExchangeState) {
  return attackCardContext(s, gm, { hideNpcDefences: false, ownersApplyDamage: false });
}
