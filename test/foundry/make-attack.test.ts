import "../support/foundry-globals";
import "../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, characterSource, installWorld, type World } from "../support/exchange-world";
import { makeAttack } from "../../src/foundry/chat/make-attack";
import { readExchange } from "../../src/foundry/data/chat/attack-message";

let world: World;
let hero: FakeActor;
let villain: FakeActor;
let created: Record<string, unknown>[];

function item(actor: FakeActor, system: Record<string, unknown>, type = "weapon", name = "Sling") {
  return { type, name, actor, system } as unknown as Item.Implementation;
}

beforeEach(() => {
  world = installWorld();
  created = [];
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
  villain.items.push({ type: "armor", name: "Plating", system: { equipped: true, physical: 20, energy: 10 } });
  villain.items.push({ type: "armor", name: "Spare vest", system: { equipped: false, physical: 40, energy: 40 } });
  hero.items.push({ type: "talent", name: "Marksman", system: { covers: ["agility.dex"], doubled: false } });
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
  const g = globalThis as unknown as { game: { user: Record<string, unknown> } };
  g.game.user = { ...ALICE, targets: new Set() };
  vi.stubGlobal("ChatMessage", {
    getSpeaker: ({ actor }: { actor: { name: string } }) => ({ alias: actor.name }),
    create: (data: Record<string, unknown>) => {
      created.push(structuredClone(data));
      return Promise.resolve({ id: "msg0000000000009", ...data });
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("making an attack", () => {
  it("snapshots the attacker and each target by UUID, with scores, best equipped armor, damage and talent shifts", async () => {
    const sling = item(hero, { attack: { enabled: true, type: "BT", range: 1, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10 });
    const message = await makeAttack(sling, { targetUuids: [villain.uuid], skipDialog: true });
    expect(message).not.toBeNull();
    expect(created).toHaveLength(1);
    expect(created[0]?.type).toBe("attack");
    const state = readExchange((created[0]?.system as { exchange: unknown }).exchange);
    expect(state.attack).toBe("BT");
    expect(state.attacker).toMatchObject({ uuid: hero.uuid, name: "Kestrel", value: 30, strength: 20 });
    expect(state.damage).toEqual({ method: "static", value: 20 }); // the wielder's Strength
    expect(state.toHitCs).toEqual([{ cs: 1, label: "Marksman", localize: false }]);
    expect(state.targets).toHaveLength(1);
    expect(state.targets[0]).toMatchObject({
      uuid: villain.uuid,
      name: "Gravel",
      phase: "awaitingDefence",
      armor: { body: 20, energy: 10 },
      scores: { "agility.bal": 20, "fighting.def": 40, "strength.mgt": 40, "endurance.res": 30 },
    });
  });

  it("with no target, warns and posts nothing", async () => {
    const sling = item(hero, { attack: { enabled: true, type: "BT", range: 1, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10 });
    expect(await makeAttack(sling, { skipDialog: true })).toBeNull();
    expect(world.notifications.warn).toHaveBeenCalledWith("Target at least one token first (or drop the attack onto a token).");
    expect(created).toHaveLength(0);
  });

  it("an item that does not attack is refused clearly", async () => {
    const shield = item(hero, { attack: { enabled: false, type: "BA", range: 0, pullable: true }, damage: { mode: "rank", rank: 10 }, materialStrength: 10 });
    expect(await makeAttack(shield, { targetUuids: [villain.uuid], skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("This item does not make an attack.");
  });

  it("a blindsided attack with no GM connected: the card is posted, and the user is told the to-hit waits for a GM", async () => {
    const fists = item(hero, { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10 }, "weapon", "Fists");
    // Go through the real dialog-less path with the blindsided circumstance set by a caller.
    const message = await makeAttackBlindsided(fists);
    expect(message).not.toBeNull();
    const state = readExchange((created[0]?.system as { exchange: unknown }).exchange);
    expect(state.targets[0]?.phase).toBe("awaitingToHit");
    expect(world.notifications.error).toHaveBeenCalledWith("No GM is connected, so nothing was changed. Ask your Judge to join, then click again.");
  });
});

/** makeAttack with the attack dialog answered "targets unaware". */
async function makeAttackBlindsided(weapon: Item.Implementation) {
  vi.stubGlobal("foundry", {
    ...(globalThis as unknown as { foundry: object }).foundry,
    utils: { randomID: () => "dialog0000000001" },
    applications: {
      handlebars: { renderTemplate: () => Promise.resolve("<form></form>") },
      api: { DialogV2: { wait: () => Promise.resolve({ blindsided: "on" }) } },
      ux: {
        FormDataExtended: class {
          readonly object = {};
        },
      },
    },
  });
  return makeAttack(weapon, { targetUuids: [villain.uuid] });
}
