/**
 * Dice So Nice with the attack card and the roll request card (dice/dice-so-nice.ts,
 * exchange/card-store.ts, roll-requests/gm-request.ts), against the Dice So Nice double
 * (test/support/dice-so-nice.ts): each die is animated once, a secret one to the GMs only, and
 * the card shows the result only after the dice have landed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeMessage, GM, installWorld, kestrelAndGravel, type World } from "../../support/exchange-world";
import { installDiceSoNice } from "../../support/dice-so-nice";
import { createExchange } from "../../support/exchange-fixtures";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { showDice, skipShownDice } from "../../../src/foundry/dice/dice-so-nice";

const MESSAGE_ID = "msg0000000000001";

let world: World;
beforeEach(() => {
  world = installWorld();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Waits until `n` dice are rolling (the GM's handler is waiting on them). */
async function rolling(dsn: { readonly rolling: number }, n: number): Promise<void> {
  await vi.waitFor(() => {
    expect(dsn.rolling).toBe(n);
  });
}

describe("Dice So Nice", () => {
  it("dice so nice once: a defence and its to-hit are each animated once, not again from the card or the GM's record; a secret die to the GMs only", async () => {
    const { hero, villain } = kestrelAndGravel(world);
    world.settings.set("case.hideNpcDefences", true);
    const message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: hero, targetActor: villain, attack: "BT" }));
    world.messages.set(MESSAGE_ID, message);
    const dsn = installDiceSoNice([skipShownDice]);
    world.dice.push(66, 70);
    const asked = world.ask(defendQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" });
    await rolling(dsn, 2);
    dsn.land();
    expect(await asked).toMatchObject({ ok: true });
    // The NPC's hidden defence die goes to the GMs (on the record), the to-hit to everyone (on the card).
    expect(dsn.animations).toEqual([
      { die: "1d100=66", via: "showForRoll", to: [GM.id] },
      { die: "1d100=70", via: "showForRoll", to: null },
    ]);
    const record = [...world.messages.values()].find((m) => m.type === "attackRecord");
    expect(record?.rolls).toHaveLength(1);
    expect(message.rolls).toHaveLength(1);
  });

  it("result after the dice: the card is written only once its dice have landed", async () => {
    const { hero, villain } = kestrelAndGravel(world);
    const message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" }));
    world.messages.set(MESSAGE_ID, message);
    const dsn = installDiceSoNice([skipShownDice]);
    world.dice.push(66, 70);
    const asked = world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" });
    await rolling(dsn, 2);
    // A few turns of the event loop: still rolling, so the card still shows no result.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(message.updates).toEqual([]);
    dsn.land();
    expect(await asked).toMatchObject({ ok: true });
    expect(message.updates).toHaveLength(1);
    expect(message.rolls).toHaveLength(2);
  });

  it("result after the dice: without Dice So Nice the card is written at once; a die that never lands holds it at most the limit", async () => {
    const { hero, villain } = kestrelAndGravel(world);
    const message = new FakeMessage(MESSAGE_ID, createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" }));
    world.messages.set(MESSAGE_ID, message);
    world.dice.push(66, 70);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" })).toMatchObject({ ok: true });
    expect(message.updates).toHaveLength(1);
    const dsn = installDiceSoNice([skipShownDice]);
    const roll = { toJSON: () => ({ formula: "1d100", total: 5 }) } as unknown as Roll;
    await showDice(roll, false, 20);
    expect(dsn.rolling).toBe(1);
  });
});
