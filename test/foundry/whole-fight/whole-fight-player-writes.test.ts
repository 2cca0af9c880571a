/**
 * A player writes their own combatant on the strict table (test/support/strict-table.ts):
 * Foundry v13 lets an owner update its combatant's `system` and `flags`, so the GM's turn must
 * not read back from there what it decides with. The GM's turn record (a whisper to the GMs)
 * holds the authoritative copy; these scenarios check that the GM's next decision is the same
 * whatever the player wrote.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, itemUuid, seatCast, seatCombat, type ClientCombat, type StrictClient } from "../../support/strict-table";
import { completeActionQuery } from "../../../src/foundry/combat/queries";
import { combatLock } from "../../../src/foundry/combat/turn-host";
import { turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { LockScope } from "../../../src/foundry/requests/locks";
import { actionsLeft, defencePenalty } from "../../../src/rules/index";

const COMBAT = "combat0000000001";
/** The combatants seatCombat makes, in the order of the actors given. */
const KESTREL_CBT = "cbt0000000000000";

let table: StrictTable;

afterEach(() => {
  vi.unstubAllGlobals();
});

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 13 });
  seatCast(table);
  seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel, CAST.shade]);
  const combat = table.server.combats.get(COMBAT);
  if (!combat) throw new Error("no combat");
  // Resolve, Kestrel (Alice's) first.
  combat.system = { ...combat.system, phase: "resolve", order: combat.combatants.map((c) => c._id), cursor: 0 };
  table.server.settings.set("case.attacksInTurn", false);
  await table.connectAll();
});

/** Kestrel's combatant as the GM's engine reads it. */
function kestrelTurn() {
  const gm = table.clients.gm;
  const c = gm.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state().combatants.get(KESTREL_CBT));
  if (!c) throw new Error("Kestrel is not in the combat.");
  return c;
}

/** Gravel blasts Kestrel and Alice dodges; resolves to the card's id. */
async function blastAndDodge(): Promise<string> {
  const { gm, alice } = table.clients;
  const made = await gm.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "blast"), targetUuids: [`Actor.${CAST.kestrel}`], input: {} });
  if (!made.ok || !made.value) throw new Error(`The attack was refused: ${JSON.stringify(made)}`);
  await table.settle();
  const id = made.value.messageId;
  expect(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" })).toEqual({ ok: true, value: null });
  await table.settle();
  return id;
}

/** The −CS of the extra-defence penalty on a card's first row (0 when none). */
function extraDefenceCs(id: string): number {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return readExchange(source.system.exchange).targets[0]?.defence?.cs.find((c) => c.label === "CASE.Exchange.ExtraDefence")?.cs ?? 0;
}

/** The defence keys Kestrel's combatant holds on the server (`flags.case.defenceKeys`). */
function serverKeys(): string[] {
  const combatant = table.server.combats.get(COMBAT)?.combatants.find((c) => c._id === KESTREL_CBT);
  const keys = (combatant?.flags as { case?: { defenceKeys?: unknown } } | undefined)?.case?.defenceKeys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
}

/** The GM's bridge (its own module copy) on Kestrel: defences used and whether she has acted. */
async function bridgeOnKestrel(gm: StrictClient): Promise<{ defencesUsed: number; hasActed: boolean }> {
  const bridge = gm.modules.turnCombatBridge;
  const actor = gm.actors.get(CAST.kestrel) as never;
  return { defencesUsed: await gm.run(() => bridge.defencesUsed(actor)), hasActed: await gm.run(() => bridge.hasActed(actor)) };
}

describe("whole fight: a player writes their own combatant", () => {
  it("player writes own combatant: defencesUsed, actionsUsed and flags.case.defenceKeys written by Alice change none of the GM's next decisions (the extra-defence penalty, whether Kestrel may still act, a defence key counted once)", async () => {
    const { gm, alice } = table.clients;
    // Kestrel acts (her one action), then dodges until her free defences are spent.
    expect(await alice.click(completeActionQuery, { combatId: COMBAT, combatantId: KESTREL_CBT, actionIndex: 0 })).toMatchObject({ ok: true });
    await table.settle();
    const free = kestrelTurn().stats.freeDefences;
    const cards: string[] = [];
    while (kestrelTurn().defencesUsed < free) cards.push(await blastAndDodge());
    const used = kestrelTurn().defencesUsed;
    const keys = serverKeys();
    expect(keys).toHaveLength(cards.length);
    expect(kestrelTurn().actionsUsed).toBe(1);
    expect(actionsLeft(kestrelTurn())).toBe(0);
    const bridgeBefore = await bridgeOnKestrel(gm);
    expect(bridgeBefore).toEqual({ defencesUsed: used, hasActed: true });

    // Alice rewrites her own combatant: Foundry lets her (system and flags are an owner's).
    await alice.run(() =>
      (game.combats.get(COMBAT) as unknown as ClientCombat).combatants.get(KESTREL_CBT)?.update({ "system.defencesUsed": 0, "system.actionsUsed": 0, "flags.case.defenceKeys": [] }),
    );
    await table.settle();
    const tampered = table.server.combats.get(COMBAT)?.combatants.find((c) => c._id === KESTREL_CBT);
    expect(tampered?.system).toMatchObject({ defencesUsed: 0, actionsUsed: 0 });
    expect(serverKeys()).toEqual([]);

    // The GM's engine and bridge read what the GM wrote.
    expect(kestrelTurn()).toMatchObject({ defencesUsed: used, actionsUsed: 1 });
    expect(actionsLeft(kestrelTurn())).toBe(0);
    expect(await bridgeOnKestrel(gm)).toEqual(bridgeBefore);

    // A defence already counted (its key) is counted once, though Alice wiped the keys.
    const replayed = keys[0] ?? "";
    await gm.run(() =>
      turnEngineOf(game.combats.get(COMBAT) as never, new LockScope([combatLock(COMBAT)])).recordDefence(KESTREL_CBT, "dodge", replayed),
    );
    await table.settle();
    expect(kestrelTurn().defencesUsed).toBe(used);

    // The next defence carries the extra-defence penalty of the defences she really made.
    const next = await blastAndDodge();
    expect(defencePenalty(used, free)).toBeLessThan(0);
    expect(extraDefenceCs(next)).toBe(defencePenalty(used, free));
    expect(kestrelTurn().defencesUsed).toBe(used + 1);
  });
});

describe("whole fight: a player writes their own combatant after Clear Chat Log", () => {
  it("player writes own combatant after the chat log is cleared: the GM's record comes back with the combatants' turn state as the GM wrote it, not rebuilt from the combatants", async () => {
    const { gm, alice } = table.clients;
    expect(await alice.click(completeActionQuery, { combatId: COMBAT, combatantId: KESTREL_CBT, actionIndex: 0 })).toMatchObject({ ok: true });
    await table.settle();
    await blastAndDodge();
    const before = [...table.server.messages.values()].find((m) => m.type === "turnRecord");
    // Alice rewrites her combatant, then the GM clears the chat log (ChatLog's flush): the record is written again.
    await alice.run(() =>
      (game.combats.get(COMBAT) as unknown as ClientCombat).combatants.get(KESTREL_CBT)?.update({ "system.defencesUsed": 0, "system.actionsUsed": 0, "flags.case.defenceKeys": [] }),
    );
    await table.settle();
    await gm.run(() => ChatMessage.implementation.deleteDocuments([], { deleteAll: true }));
    await table.settle();
    const after = [...table.server.messages.values()].find((m) => m.type === "turnRecord");
    expect(after?._id).not.toBe(before?._id);
    expect(kestrelTurn()).toMatchObject({ defencesUsed: 1, actionsUsed: 1 });
    expect(await bridgeOnKestrel(gm)).toEqual({ defencesUsed: 1, hasActed: true });
  });
});
