/**
 * A whole fight on the strict table (test/support/strict-table.ts), issue 21 items 4 and 9:
 * NPCs defend themselves under the world's NPC-defence setting (a player's attack on an NPC
 * resolves with no GM click, and the GM can still change the pick before Apply), and the
 * tracker's dice are Rolls on a tracker card (NPC rolls whose declaration is secret reach the
 * GMs only).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, TABLE_USERS, installTableGlobals, itemUuid, seatCast, seatCombat, type StrictClient } from "../support/strict-table";
import { attackQuery } from "../../src/foundry/exchange/make-attack";
import { applyDamageQuery, defendQuery } from "../../src/foundry/exchange/gm-actions";
import { changeDefenceQuery, npcDefendQuery, pickRequestId } from "../../src/foundry/exchange/npc-defence";
import { declareActionQuery } from "../../src/foundry/combat/queries";
import { turnCombatBridge } from "../../src/foundry/combat/foundry-host";
import type { CombatBridge } from "../../src/foundry/combat/bridge";
import { readExchange } from "../../src/foundry/exchange/card-model";
import type { ExchangeState } from "../../src/rules/index";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 21 });
  seatCast(table);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The card as the server holds it. */
function card(id: string): { state: ExchangeState; revision: number; requests: string[] } {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return { state: readExchange(source.system.exchange), revision: Number(source.system.revision), requests: source.system.requests as string[] };
}

/** The GM's whole view of a row (the record's secrets joined), as the GM's client reads it. */
function gmRow(id: string) {
  return table.clients.gm.run(async () => {
    const { loadCard } = await import("../../src/foundry/exchange/card-store");
    return loadCard(id).state.targets[0];
  });
}

async function attack(by: StrictClient, attacker: string, kind: "punch" | "grab" | "blast", targets: readonly string[]): Promise<string> {
  const result = await by.click(attackQuery, { itemUuid: itemUuid(attacker, kind), targetUuids: targets.map((t) => `Actor.${t}`), input: {} });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

/** Every request message a user wrote (a click that crossed to the GM). */
function requestsBy(userId: string): string[] {
  return [...table.server.messages.values()].filter((m) => m.type === "request" && m.author === userId).map((m) => String(m.system.query));
}

describe("whole fight", () => {
  it("npc defends itself: with the setting on, a player's attack on an NPC resolves with no GM click, once", async () => {
    const { alice, gm, gm2 } = table.clients;
    table.server.settings.set("case.npcDefence", "bestOdds");
    const rolledBefore = table.rolled.length;
    const id = await attack(alice, CAST.kestrel, "punch", [CAST.gravel]);
    // No one clicked a defence: the only request is Alice's attack, and the GM wrote nothing of its own asking.
    expect(requestsBy(TABLE_USERS.alice.id)).toEqual(["attack"]);
    expect(requestsBy(TABLE_USERS.gm.id)).toEqual([]);
    const { state, requests } = card(id);
    expect(state.targets[0]?.phase).toBe("resolved");
    expect(state.targets[0]?.defencePicked).toBe(true);
    expect(requests).toContain(pickRequestId(id, "0"));
    // Hidden NPC defences stay hidden (this world hides them): the public card holds no defence; the GM's record does.
    expect(state.targets[0]?.defence).toBeNull();
    expect(state.targets[0]?.defenceHidden).toBe(true);
    const row = await gmRow(id);
    // Gravel's Strength 100 against Fighting 40 (a Blunt Attack: Block, Evasion, Weave): Block has the best odds.
    expect(row?.defence?.code).toBe("block");
    expect(table.server.received(alice)).not.toContain('"code":"block"');
    // Two dice: the defence and the to-hit, both the active GM's.
    expect(table.rolled.slice(rolledBefore).map((r) => r.by)).toEqual([TABLE_USERS.gm.id, TABLE_USERS.gm.id]);
    // Once: the pick again (a replay, a GM taking over) changes nothing.
    const revision = card(id).revision;
    expect(await gm.run(() => gm.router.runLocally(npcDefendQuery, { messageId: id, targetKey: "0" }, pickRequestId(id, "0")))).toEqual({ ok: true, value: null });
    gm.drop();
    await table.settle();
    await gm2.run(() => gm2.call("userConnected", gm.user, false));
    await table.settle();
    expect(card(id).revision).toBe(revision);
    expect(table.rolled.length).toBe(rolledBefore + 2);
    // The damage is the GM's to apply, as before.
    expect(await gm2.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: true });
  });

  it("npc defends itself: off (the GM clicks), the card waits on the GM as before", async () => {
    const id = await attack(table.clients.alice, CAST.kestrel, "punch", [CAST.gravel]);
    expect(card(id).state.targets[0]?.phase).toBe("awaitingDefence");
  });

  it("npc defends itself: the declared defence, read from the GM's record of the turn", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    seatCombat(table, "combat0000000001", [CAST.kestrel, CAST.gravel]);
    for (const c of [gm, gm2, alice, bob]) {
      c.drop();
      await c.connect();
    }
    table.server.settings.set("case.npcDefence", "declared");
    const declared = await gm.click(declareActionQuery, { combatId: "combat0000000001", combatantId: "cbt0000000000001", declaration: { text: "Weave through the punches", kind: "defence", defence: "weave", actions: 1 } });
    expect(declared.ok).toBe(true);
    await table.settle();
    const id = await attack(alice, CAST.kestrel, "punch", [CAST.gravel]);
    // Block has the better odds (Strength 100, Fighting 40); the Judge declared Weave, and Weave it is.
    expect((await gmRow(id))?.defence?.code).toBe("weave");
    expect(card(id).state.targets[0]?.phase).toBe("resolved");
  });

  it("npc defends itself: the GM changes the pick before Apply; it is rolled again and counted once; a player may not", async () => {
    const { gm, alice } = table.clients;
    table.server.settings.set("case.npcDefence", "bestOdds");
    const counted: string[] = [];
    // The GM's bridge to the turn, counting the defences it is asked to record (no combat runs here).
    const counting: CombatBridge = { ...turnCombatBridge, recordDefence: (_a, d) => (counted.push(String(d)), Promise.resolve()) };
    Object.assign(gm.router.services, { combat: counting });
    const id = await attack(alice, CAST.kestrel, "punch", [CAST.gravel]);
    expect(counted).toEqual(["block"]);
    expect(await alice.click(changeDefenceQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "forbidden" });
    const rollsBefore = table.server.messages.get(String(table.server.messages.get(id)?.system.recordId))?.rolls.length ?? 0;
    expect(await gm.click(changeDefenceQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(card(id).state.targets[0]).toMatchObject({ phase: "awaitingDefence", defenceChanges: 1 });
    // Not picked again by the GM's client: the Judge took it over.
    await gm.run(() => gm.router.finishUnfinished());
    expect(card(id).state.targets[0]?.phase).toBe("awaitingDefence");
    expect(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "weave" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect((await gmRow(id))?.defence?.code).toBe("weave");
    expect(counted).toEqual(["block"]);
    // The first dice stay on the GM's record (hidden defences' dice live there), the new ones join them.
    const record = table.server.messages.get(String(table.server.messages.get(id)?.system.recordId));
    expect(record?.rolls.length ?? 0).toBeGreaterThan(rollsBefore);
    expect(await gm.click(changeDefenceQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
  });
});
