/**
 * Attack items on the hotbar and on the canvas, and the stable API the macros call.
 * Foundry's globals are per-test stand-ins (test/support/foundry-stubs.ts); makeAttack is mocked.
 */
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";

vi.mock("../../../src/foundry/dice/entry-points", () => ({
  rollScore: vi.fn(() => Promise.resolve({})),
  rollItem: vi.fn(() => Promise.resolve({})),
  rollStandingFeat: vi.fn(() => Promise.resolve({})),
  isStandingFeat: (v: unknown) => v === "resources" || v === "popularity",
}));
vi.mock("../../../src/foundry/exchange/make-attack", () => ({
  makeAttack: vi.fn(() => Promise.resolve()),
}));

import { makeAttack } from "../../../src/foundry/exchange/make-attack";
import { CASE_API, attackWithItem } from "../../../src/foundry/api/index";
import { assignAttackMacro, attackMacroCommand, onHotbarDrop, powerFeatMacroCommand, registerHotbarHook, scoreMacroCommand } from "../../../src/foundry/hooks/hotbar";
import { rollItem, rollScore as rollActorScore, rollStandingFeat } from "../../../src/foundry/dice/entry-points";
import { rollDragData } from "../../../src/foundry/apps/sheet/roll-drag";
import { rollPowerFeat, rollScore } from "../../../src/foundry/api/roll-api";
import { ABILITY_KEYS, SUB_SCORE_REFS } from "../../../src/rules/index";
import { renderSheet } from "../../support/handlebars";
import { attr, parseHtml, queryAll } from "../../support/html";
import { SHEET_TEMPLATES, heroSheetData } from "../../support/sheet-fixtures";
import { onDropCanvasData, registerCanvasDropHook, tokenAt, type TokenLike } from "../../../src/foundry/hooks/canvas-drop";
import { fakeActor, fakeItem, flush, stubI18nAndNotifications, type FakeItem, type Notifications } from "../../support/foundry-stubs";

interface FakeMacro {
  name: string;
  command: string;
  isOwner: boolean;
}

let notifications: Notifications;
let macros: FakeMacro[];
let createMacro: Mock<(data: FakeMacro) => Promise<FakeMacro>>;
let assignHotbarMacro: ReturnType<typeof vi.fn>;
let documents: Map<string, FakeItem>;

beforeEach(() => {
  vi.mocked(makeAttack).mockClear();
  macros = [];
  documents = new Map();
  createMacro = vi.fn((data: FakeMacro) => {
    const macro = { ...data, isOwner: true };
    macros.push(macro);
    return Promise.resolve(macro);
  });
  assignHotbarMacro = vi.fn(() => Promise.resolve());
  notifications = stubI18nAndNotifications({ macros, user: { assignHotbarMacro } });
  vi.stubGlobal("Macro", { implementation: { create: createMacro } });
  vi.stubGlobal("fromUuidSync", (uuid: string) => documents.get(uuid) ?? null);
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(documents.get(uuid) ?? null));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function attackItem(): FakeItem {
  const item = fakeItem(fakeActor(), "bolt", { isAttack: true, name: "Plasma Bolt" });
  documents.set(item.uuid, item);
  return item;
}

describe("hotbar", () => {
  it("an attack item dropped on the hotbar becomes a script macro calling the stable API, in that slot", async () => {
    const bolt = attackItem();
    expect(onHotbarDrop({}, { type: "Item", uuid: bolt.uuid }, 4)).toBe(false);
    await flush();
    expect(createMacro).toHaveBeenCalledWith({
      name: "Kestrel: Plasma Bolt",
      type: "script",
      img: bolt.img,
      command: `await CONFIG.CASE.api.attackWithItem("Actor.kestrel.Item.bolt");`,
    });
    expect(assignHotbarMacro).toHaveBeenCalledWith(macros[0], 4);
  });

  it("reuses an existing macro with the same command", async () => {
    const bolt = attackItem();
    const existing = { name: "My bolt", command: attackMacroCommand(bolt.uuid), isOwner: true };
    macros.push({ name: "Other", command: attackMacroCommand("Actor.x.Item.y"), isOwner: true }, existing);
    expect(onHotbarDrop({}, { type: "Item", uuid: bolt.uuid }, 2)).toBe(false);
    await flush();
    expect(createMacro).not.toHaveBeenCalled();
    expect(assignHotbarMacro).toHaveBeenCalledWith(existing, 2);
  });

  it("does not reuse someone else's macro the user does not own", async () => {
    const bolt = attackItem();
    macros.push({ name: "GM's", command: attackMacroCommand(bolt.uuid), isOwner: false });
    await assignAttackMacro(bolt as never, 1);
    expect(createMacro).toHaveBeenCalledTimes(1);
  });

  it("leaves every other drop to Foundry: items that are neither attacks nor powers, unknown UUIDs, other documents", async () => {
    const talent = fakeItem(fakeActor(), "judo", { type: "talent", isAttack: false });
    documents.set(talent.uuid, talent);
    expect(onHotbarDrop({}, { type: "Item", uuid: talent.uuid }, 1)).toBeUndefined();
    expect(onHotbarDrop({}, { type: "CaseRoll", actorUuid: "", score: "fighting" }, 1)).toBeUndefined();
    expect(onHotbarDrop({}, { type: "Item", uuid: "Compendium.case.powers.Item.abc" }, 1)).toBeUndefined();
    expect(onHotbarDrop({}, { type: "Macro", uuid: "Macro.abc" }, 1)).toBeUndefined();
    expect(onHotbarDrop({}, null, 1)).toBeUndefined();
    await flush();
    expect(createMacro).not.toHaveBeenCalled();
    expect(assignHotbarMacro).not.toHaveBeenCalled();
  });

  it("a failure to make the macro is reported, not lost", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    createMacro.mockImplementation(() => Promise.reject(new Error("no permission")));
    const bolt = attackItem();
    expect(onHotbarDrop({}, { type: "Item", uuid: bolt.uuid }, 1)).toBe(false);
    await flush();
    expect(notifications.error).toHaveBeenCalledWith("Could not make a macro for Plasma Bolt.");
    vi.restoreAllMocks();
  });

  it("the macro's command, run as Foundry runs a script macro, attacks with that item", async () => {
    const bolt = attackItem();
    // Foundry runs a script macro's command as the body of an async function.
    await (runInNewContext(`(async () => { ${attackMacroCommand(bolt.uuid)} })()`, { CONFIG: { CASE: { api: CASE_API } } }) as Promise<void>);
    expect(makeAttack).toHaveBeenCalledWith(bolt, {});
  });

  it("registers on the hotbarDrop hook", () => {
    const on = vi.fn();
    vi.stubGlobal("Hooks", { on });
    registerHotbarHook();
    expect(on).toHaveBeenCalledWith("hotbarDrop", onHotbarDrop);
  });
});

describe("hotbar ability", () => {
  /** Foundry's Actor class: actorFromUuid knows an actor by it. */
  class ActorDoc {
    readonly documentName = "Actor";
  }
  class TokenDoc {
    readonly documentName = "Token";
  }
  function hero(owned = true) {
    vi.stubGlobal("Actor", ActorDoc);
    vi.stubGlobal("TokenDocument", TokenDoc);
    const actor = Object.assign(new ActorDoc(), { uuid: "Actor.kestrel", name: "Kestrel", type: "hero", img: "k.webp", isOwner: owned });
    documents.set(actor.uuid, actor as never);
    return actor;
  }
  const api = { ...CASE_API, rollScore, rollPowerFeat };
  const run = (command: string) => runInNewContext(`(async () => { ${command} })()`, { CONFIG: { CASE: { api } } }) as Promise<void>;

  it("hotbar ability: an ability dragged from the sheet becomes a macro rolling it for that character", async () => {
    const actor = hero();
    expect(onHotbarDrop({}, { type: "CaseRoll", actorUuid: actor.uuid, score: "fighting" }, 3)).toBe(false);
    await flush();
    expect(createMacro).toHaveBeenCalledWith({ name: "Kestrel: Fighting", type: "script", img: "k.webp", command: `await CONFIG.CASE.api.rollScore("Actor.kestrel", "fighting");` });
    expect(assignHotbarMacro).toHaveBeenCalledWith(macros[0], 3);
    await run(scoreMacroCommand(actor.uuid, "agility.dex"));
    expect(rollActorScore).toHaveBeenLastCalledWith(actor, "agility.dex");
  });

  it("hotbar ability: the Resources and Popularity FEATs and a power's FEAT go on the hotbar too", async () => {
    const actor = hero();
    expect(onHotbarDrop({}, { type: "CaseRoll", actorUuid: actor.uuid, score: "resources" }, 1)).toBe(false);
    await flush();
    expect(macros[0]?.name).toBe("Kestrel: Resources FEAT");
    await run(scoreMacroCommand(actor.uuid, "popularity"));
    expect(rollStandingFeat).toHaveBeenLastCalledWith(actor, "popularity");
    const flight = fakeItem(fakeActor(), "flight", { isAttack: false, name: "Flight" });
    documents.set(flight.uuid, flight);
    expect(onHotbarDrop({}, { type: "Item", uuid: flight.uuid }, 2)).toBe(false);
    await flush();
    expect(macros[1]).toMatchObject({ name: "Kestrel: Flight", command: powerFeatMacroCommand(flight.uuid) });
    await run(powerFeatMacroCommand(flight.uuid));
    expect(rollItem).toHaveBeenLastCalledWith(flight);
  });

  it("hotbar ability: a macro for an unknown score, a missing character or someone else's rolls nothing and says why", async () => {
    vi.mocked(rollActorScore).mockClear();
    hero();
    await run(scoreMacroCommand("Actor.kestrel", "cooking"));
    await run(scoreMacroCommand("Actor.gone", "fighting"));
    hero(false);
    await run(scoreMacroCommand("Actor.kestrel", "fighting"));
    expect(rollActorScore).not.toHaveBeenCalled();
    expect(notifications.error.mock.calls.map((c): unknown => c[0])).toEqual([
      '"cooking" is no ability, sub-score, Resources or Popularity.',
      "No character found for Actor.gone: the macro's character was deleted or moved.",
      "You do not own Kestrel.",
    ]);
  });

  it("hotbar ability: the sheet's roll buttons carry the drag data; other drags are Foundry's", () => {
    expect(rollDragData("Actor.k", { caseDrag: "score", score: "strength.mgt" })).toEqual({ type: "CaseRoll", actorUuid: "Actor.k", score: "strength.mgt" });
    expect(rollDragData("Actor.k", { caseDrag: "score", score: "popularity" })).toEqual({ type: "CaseRoll", actorUuid: "Actor.k", score: "popularity" });
    expect(rollDragData("Actor.k", { caseDrag: "score", score: "cooking" })).toBeNull();
    expect(rollDragData("Actor.k", { itemId: "abc" })).toBeNull();
    // The hero sheet's ability, sub-score and FEAT buttons are draggable and say what they roll.
    const doc = parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData() }, { classes: ["case", "sheet", "actor", "hero"], title: "Kestrel" }));
    const scores = queryAll(doc, 'button[data-case-drag="score"]');
    expect(scores.every((b) => (attr(b, "class") ?? "").split(" ").includes("draggable"))).toBe(true);
    expect(scores.map((b) => attr(b, "data-score"))).toEqual(expect.arrayContaining([...ABILITY_KEYS, ...SUB_SCORE_REFS, "resources", "popularity"]));
  });
});

describe("CONFIG.CASE.api.attackWithItem", () => {
  it("attacks with the item the UUID names, passing the options on", async () => {
    const bolt = attackItem();
    await expect(attackWithItem(bolt.uuid, { targetUuids: ["Scene.s.Token.t"] })).resolves.toBe(true);
    expect(makeAttack).toHaveBeenCalledWith(bolt, { targetUuids: ["Scene.s.Token.t"] });
    expect(notifications.error).not.toHaveBeenCalled();
  });

  it("a UUID that does not resolve: a clear, localised error and no attack", async () => {
    await expect(attackWithItem("Actor.gone.Item.bolt")).resolves.toBe(false);
    expect(notifications.error).toHaveBeenCalledWith("No item found for Actor.gone.Item.bolt: the macro's item was deleted or moved.");
    const actor = fakeActor();
    documents.set(actor.uuid, actor as never);
    await expect(attackWithItem(actor.uuid)).resolves.toBe(false);
    expect(makeAttack).not.toHaveBeenCalled();
  });

  it("an item that cannot attack, or belongs to no character: a clear error and no attack", async () => {
    const flight = fakeItem(fakeActor(), "flight", { isAttack: false, name: "Flight" });
    documents.set(flight.uuid, flight);
    await attackWithItem(flight.uuid);
    expect(notifications.error).toHaveBeenLastCalledWith("Flight cannot make an attack.");
    const loose = fakeItem(null, "loose", { isAttack: true, name: "Loose Blaster" });
    documents.set(loose.uuid, loose);
    await attackWithItem(loose.uuid);
    expect(notifications.error).toHaveBeenLastCalledWith("Loose Blaster belongs to no character, so it cannot attack.");
    expect(makeAttack).not.toHaveBeenCalled();
  });
});

describe("canvas drop", () => {
  function token(uuid: string, box: [number, number, number, number], options: { elevation?: number; sort?: number; visible?: boolean } = {}): TokenLike {
    const [x, y, w, h] = box;
    return {
      visible: options.visible ?? true,
      bounds: { contains: (px: number, py: number) => px >= x && px < x + w && py >= y && py < y + h },
      document: { uuid, elevation: options.elevation ?? 0, sort: options.sort ?? 0 },
    };
  }

  const thug = token("Scene.s.Token.thug", [100, 100, 100, 100]);
  const boss = token("Scene.s.Token.boss", [300, 100, 100, 100]);
  const board = { tokens: { placeables: [thug, boss] } };

  it("an attack item dropped on a token attacks that token", async () => {
    const bolt = attackItem();
    expect(onDropCanvasData(board, { type: "Item", uuid: bolt.uuid, x: 350, y: 150 })).toBe(false);
    await flush();
    expect(makeAttack).toHaveBeenCalledWith(bolt, { targetUuids: ["Scene.s.Token.boss"] });
  });

  it("dropped between tokens, or with an item that cannot attack: left to Foundry", () => {
    const bolt = attackItem();
    expect(onDropCanvasData(board, { type: "Item", uuid: bolt.uuid, x: 250, y: 150 })).toBeUndefined();
    const flight = fakeItem(fakeActor(), "flight", { isAttack: false });
    documents.set(flight.uuid, flight);
    expect(onDropCanvasData(board, { type: "Item", uuid: flight.uuid, x: 150, y: 150 })).toBeUndefined();
    expect(onDropCanvasData(board, { type: "Actor", uuid: "Actor.x", x: 150, y: 150 })).toBeUndefined();
    expect(onDropCanvasData(board, { type: "Item", uuid: bolt.uuid })).toBeUndefined();
    expect(onDropCanvasData({ tokens: null }, { type: "Item", uuid: bolt.uuid, x: 150, y: 150 })).toBeUndefined();
    expect(makeAttack).not.toHaveBeenCalled();
  });

  it("a user who does not own the item is told so, and nothing attacks", () => {
    const item = fakeItem(fakeActor("villain", "Villain"), "claws", { isAttack: true, isOwner: false, name: "Claws" });
    documents.set(item.uuid, item);
    expect(onDropCanvasData(board, { type: "Item", uuid: item.uuid, x: 150, y: 150 })).toBe(false);
    expect(notifications.warn).toHaveBeenCalledWith("You do not control Claws, so you cannot attack with it.");
    expect(makeAttack).not.toHaveBeenCalled();
  });

  it("picks the topmost visible token under the point: highest elevation, then sort", () => {
    const low = token("low", [0, 0, 100, 100], { elevation: 0, sort: 5 });
    const high = token("high", [50, 50, 100, 100], { elevation: 10, sort: 0 });
    const hidden = token("hidden", [0, 0, 200, 200], { elevation: 99, visible: false });
    const later = token("later", [0, 0, 100, 100], { elevation: 0, sort: 9 });
    expect(tokenAt([low, high, hidden], 75, 75)?.document.uuid).toBe("high");
    expect(tokenAt([low, high, hidden], 25, 25)?.document.uuid).toBe("low");
    expect(tokenAt([low, later], 25, 25)?.document.uuid).toBe("later");
    expect(tokenAt([hidden], 25, 25)).toBeNull();
  });

  it("registers on the dropCanvasData hook", () => {
    const on = vi.fn();
    vi.stubGlobal("Hooks", { on });
    registerCanvasDropHook();
    expect(on).toHaveBeenCalledWith("dropCanvasData", onDropCanvasData);
  });
});
