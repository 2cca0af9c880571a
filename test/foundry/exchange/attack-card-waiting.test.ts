/**
 * Defence waiting: a player whose character a card waits on is told so once per card and row,
 * on their own client when the card renders; the GM, and players who own no waiting target, are not.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FakeActor} from "../../support/exchange-world";
import { ALICE, FakeMessage, installWorld, type World, kestrelAndGravel } from "../../support/exchange-world";
import { noticeWaitingDefences } from "../../../src/foundry/exchange/card";
import { DEFENCE_WAITING_SCAN, defencesWaiting } from "../../../src/foundry/exchange/waiting";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import type { Viewer } from "../../../src/foundry/exchange/card-context";
import { createExchange, readExchangeForTest } from "../../support/exchange-fixtures";

const MESSAGE_ID = "msg0000000000001";
let world: World;
let hero: FakeActor;
let villain: FakeActor;

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const alice: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
const bob: Viewer = { isGM: false, owns: () => false, isNpc: (uuid) => uuid === villain.uuid };
const gm: Viewer = { isGM: true, owns: () => true, isNpc: (uuid) => uuid === villain.uuid };

describe("defence waiting", () => {
  it("defence waiting: the defender's owner is told once per card and row; the GM and other players are not", () => {
    const state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" });
    const seen = new Set<string>();
    expect(noticeWaitingDefences(MESSAGE_ID, state, alice, seen)).toEqual(["Kestrel"]);
    expect(world.notifications.info).toHaveBeenCalledExactlyOnceWith("Gravel attacks Kestrel: click to choose Kestrel's defence.");
    // The card renders again (any change, a scroll back): not told twice.
    expect(noticeWaitingDefences(MESSAGE_ID, state, alice, seen)).toEqual([]);
    // Another card waiting on Kestrel is another notice.
    expect(noticeWaitingDefences("msg0000000000002", state, alice, seen)).toEqual(["Kestrel"]);
    expect(world.notifications.info).toHaveBeenCalledTimes(2);
    // The GM sees every card; Bob owns no one on it.
    expect(noticeWaitingDefences(MESSAGE_ID, state, gm, new Set())).toEqual([]);
    expect(noticeWaitingDefences(MESSAGE_ID, state, bob, new Set())).toEqual([]);
    expect(world.notifications.info).toHaveBeenCalledTimes(2);
  });

  it("defence waiting: nothing is told once the defence is chosen, nor for a blindsided target (it has no defence to choose)", async () => {
    const message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" }));
    world.messages.set(MESSAGE_ID, message);
    world.dice.push(66, 70);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" })).toMatchObject({ ok: true });
    expect(noticeWaitingDefences(MESSAGE_ID, readExchangeForTest(message.system.exchange), alice, new Set())).toEqual([]);
    const blindsided = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", blindsided: true });
    expect(noticeWaitingDefences(MESSAGE_ID, blindsided, alice, new Set())).toEqual([]);
    expect(world.notifications.info).not.toHaveBeenCalled();
  });

  it("defence waiting: the tracker's badge set holds the targets of GM-written cards still offering a defence, among the newest messages", async () => {
    const waiting = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" });
    const target = waiting.targets[0];
    if (!target) throw new Error("No target row.");
    // A card a player wrote counts for nothing; an older card beyond the scan is not badged.
    world.messages.set("msgold0000000001", new FakeMessage("msgold0000000001", waiting));
    for (let i = 0; i < DEFENCE_WAITING_SCAN; i++) world.messages.set(`msgfill${String(i).padStart(9, "0")}`, new FakeMessage(`msgfill${String(i).padStart(9, "0")}`, null, "base", undefined, {}));
    world.messages.set("msgforged0000001", new FakeMessage("msgforged0000001", waiting, "attack", ALICE));
    expect(defencesWaiting()).toEqual(new Set());
    world.messages.set(MESSAGE_ID, new FakeMessage(MESSAGE_ID, waiting));
    expect(defencesWaiting()).toEqual(new Set([target.actorUuid, target.uuid]));
    // Kestrel takes it without a defence (the GM rolls the to-hit): the card waits on nobody.
    world.dice.push(70);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" })).toMatchObject({ ok: true });
    expect(defencesWaiting()).toEqual(new Set());
  });
});
