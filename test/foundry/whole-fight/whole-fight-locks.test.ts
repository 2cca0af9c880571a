/**
 * A running fight on the strict table (test/support/strict-table.ts), where the locks, the
 * card's revision and the request's claim meet: a Stun in a running combat, defences at once,
 * a defence racing the phase, an Apply that arrives after an Undo, and two GMs handing over
 * the active role mid-request. The combat is seated directly in its Resolve phase (the strict
 * table merges a Combat update as Foundry does, so the phase can move on).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, TABLE_USERS, eventLoopTurns, installTableGlobals, itemUuid, seatCast, seatCombat, type StrictClient } from "../../support/strict-table";
import { advancePhaseQuery } from "../../../src/foundry/combat/queries";
import { turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, consequenceQuery, defendQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import type { QueryResult } from "../../../src/foundry/requests/router";
import { targetActions, type ExchangeState } from "../../../src/rules/index";

const COMBAT = "combat0000000001";
/** The combatants seatCombat makes, in the order of the actors given. */
const KESTREL_CBT = "cbt0000000000000";

let table: StrictTable;

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * A table with the cast, and a started combat already in Resolve (Kestrel, Wren, Gravel, Shade).
 * The attacks here race each other on purpose, whoever's action it is, so attacks are not the
 * turn's (the acting order is whole-fight-turn.test.ts's) — unless `gravelActs`: then attacks
 * are the turn's and the tracker stands at Gravel's action.
 */
async function fightTable(seed: number, gravelActs = false): Promise<StrictTable> {
  installTableGlobals();
  const t = new StrictTable({ seed, lockTimeoutMs: 4_000 });
  seatCast(t);
  seatCombat(t, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel, CAST.shade]);
  const combat = t.server.combats.get(COMBAT);
  if (!combat) throw new Error("no combat");
  combat.system = { ...combat.system, phase: "resolve", order: combat.combatants.map((c) => c._id), cursor: gravelActs ? 2 : 0 };
  t.server.settings.set("case.attacksInTurn", gravelActs);
  await t.connectAll();
  return t;
}

function card(id: string): { state: ExchangeState; revision: number; rolls: number } {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return { state: readExchange(source.system.exchange), revision: Number(source.system.revision), rolls: source.rolls.length };
}

async function attack(by: StrictClient, attacker: string, kind: "punch" | "grab" | "blast", targets: readonly string[]): Promise<string> {
  const result = await by.click(attackQuery, { itemUuid: itemUuid(attacker, kind), targetUuids: targets.map((t) => `Actor.${t}`), input: {} });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

function ok(result: QueryResult<unknown>): void {
  expect(result).toEqual({ ok: true, value: null });
}

/** Kestrel's combatant as the GM's engine reads it. */
function kestrelTurn(c: StrictClient = table.clients.gm) {
  return c.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state().combatants.get(KESTREL_CBT));
}

/** The −CS of the extra-defence penalty on a card's first row (0 when none). */
function extraDefenceCs(id: string): number {
  return card(id).state.targets[0]?.defence?.cs.find((c) => c.label === "CASE.Exchange.ExtraDefence")?.cs ?? 0;
}

describe("whole fight", () => {
  beforeEach(async () => {
    table = await fightTable(7);
  });

  it("stun in a running combat: Stun? on a combatant is answered ok in well under the lock timeout, and the stun is recorded once", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "punch", [CAST.kestrel]);
    table.dice.push(99); // the GM's to-hit: a red Blunt Attack
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    ok(await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" }));
    await table.settle();
    expect(targetActions(card(id).state, "0").checks).toContain("stun");
    const combatantWrites = () => table.server.applied.filter((w) => w.write.collection === "Combat" && w.write.op === "updateCombatants").length;
    const combatantWritesBefore = combatantWrites();
    table.dice.push(1, 4); // Endurance (res) fails, 4 turns
    const started = Date.now();
    const result = await alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "stun" });
    const took = Date.now() - started;
    ok(result);
    expect(took).toBeLessThan(table.lockTimeoutMs / 4);
    await table.settle();
    const outcome = card(id).state.targets[0]?.consequences.find((c) => c.check === "stun")?.outcome;
    expect(outcome).toMatchObject({ check: "stun", turns: 4 });
    // Recorded once: one stun on the combatant, one Stunned effect, one write of the combatants for it.
    const turn = kestrelTurn();
    expect(Math.max(turn?.stunTurns ?? 0, turn?.stunPending ?? 0)).toBe(4);
    expect(table.server.actors.get(CAST.kestrel)?.effects.filter((e) => e.statuses.includes("case-stunned"))).toHaveLength(1);
    expect(combatantWrites() - combatantWritesBefore).toBe(1);
  });

  it("defence penalty at once: six concurrent defences by one defender carry the same penalties as six in a row", async () => {
    const penalties = async (atOnce: boolean): Promise<number[]> => {
      vi.unstubAllGlobals();
      table = await fightTable(11);
      const { gm, alice } = table.clients;
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(await attack(gm, i % 2 === 0 ? CAST.gravel : CAST.shade, "blast", [CAST.kestrel]));
      const click = (id: string) => alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" });
      const results = atOnce ? await Promise.all(ids.map(click)) : await ids.reduce<Promise<QueryResult<unknown>[]>>(async (acc, id) => [...(await acc), await click(id)], Promise.resolve([]));
      await table.settle();
      expect(results.map((r) => (r.ok ? "ok" : `${r.reason}: ${r.message}`))).toEqual(Array(6).fill("ok"));
      expect(kestrelTurn()?.defencesUsed).toBe(6);
      return ids.map(extraDefenceCs).sort((a, b) => a - b);
    };
    const inARow = await penalties(false);
    expect(inARow.some((cs) => cs < 0)).toBe(true);
    expect(await penalties(true)).toEqual(inARow);
  });

  it("stale apply: an Apply made before an Undo and arriving after it changes nothing, and says so", async () => {
    const { gm, gm2, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    table.dice.push(90); // the to-hit: a hit
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    expect(targetActions(card(id).state, "0").apply).toBe(true);
    const start = table.health(CAST.kestrel);
    // The second GM clicks Apply on its copy of the card; its request is held on the way (a slow network).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    table.server.gate = (client, write) => (client === gm2 && write.collection === "ChatMessage" && write.op === "create" ? held : null);
    const late = gm2.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Meanwhile the active GM applies the damage and takes it back.
    ok(await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" }));
    expect(table.health(CAST.kestrel)).toBeLessThan(start);
    ok(await gm.click(undoDamageQuery, { messageId: id, targetKey: "0" }));
    expect(table.health(CAST.kestrel)).toBe(start);
    const revision = card(id).revision;
    table.server.gate = null;
    release();
    const result = await late;
    await table.settle();
    expect(result).toMatchObject({ ok: false, reason: "stale" });
    expect(result.ok ? "" : result.message).toContain("Apply damage");
    expect(table.health(CAST.kestrel)).toBe(start);
    expect(card(id).revision).toBe(revision);
    expect(card(id).state.targets[0]?.phase).toBe("undone");
  });

  it("handover: two GMs passing the active role mid-request handle each request exactly once", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    const ids = [await attack(gm, CAST.gravel, "blast", [CAST.kestrel, CAST.wren]), await attack(gm, CAST.shade, "blast", [CAST.kestrel, CAST.wren])];
    // The Judge's tab closes: the Co-Judge is the active GM.
    gm.drop();
    await table.settle();
    // The Co-Judge is mid-request when the Judge comes back: its card writes are held on the way.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    table.server.gate = (client, write) => (client === gm2 && write.op === "update" && write.collection === "ChatMessage" && "system.exchange" in write.data ? held : null);
    const rolledAtStart = table.rolled.length;
    const clicks = ids.flatMap((id) => [alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }), bob.click(defendQuery, { messageId: id, targetKey: "1", defence: "dodge" })]);
    await table.settle();
    // The Judge reloads: the active GM again (the lowest id), it finds the four requests unanswered.
    await gm.connect();
    await table.settle();
    expect(table.rolled.filter((r) => r.by === TABLE_USERS.gm.id)).toHaveLength(0);
    table.server.gate = null;
    release();
    const results = await Promise.all(clicks);
    await table.settle();
    expect(results.map((r) => (r.ok ? "ok" : `${r.reason}: ${r.message}`))).toEqual(["ok", "ok", "ok", "ok"]);
    // Each request once: one card write and one answer each, by the GM that claimed it; two dice per row.
    const cardWrites = table.server.applied.filter((w) => w.write.collection === "ChatMessage" && w.write.op === "update" && "system.exchange" in w.write.data);
    expect(cardWrites).toHaveLength(4);
    expect(new Set(cardWrites.map((w) => w.user))).toEqual(new Set([TABLE_USERS.gm2.id]));
    const answers = table.server.applied.filter((w) => w.write.collection === "ChatMessage" && w.write.op === "update" && "system.answer" in w.write.data);
    expect(answers).toHaveLength(4);
    const rolled = table.rolled.slice(rolledAtStart);
    expect(rolled).toHaveLength(8);
    expect(new Set(rolled.map((r) => r.by))).toEqual(new Set([TABLE_USERS.gm2.id]));
    for (const id of ids) {
      expect(card(id).revision).toBe(2);
      expect(card(id).rolls).toBe(4);
    }
    // Each defence counted once on the combat: Kestrel's two, one per card.
    expect(kestrelTurnKeys()).toHaveLength(2);
  });

  it("nulled answer: a player who brings back their answered request unanswered (the GM deleted it once answered) does not have it run again by the next GM", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }));
    await table.settle();
    const made = table.server.applied.find((w) => w.user === TABLE_USERS.alice.id && w.write.op === "create" && w.write.data.type === "request");
    const answered = table.server.applied.find((w) => w.write.op === "update" && w.write.collection === "ChatMessage" && "system.answer" in w.write.data);
    if (made?.write.op !== "create" || answered?.write.op !== "update") throw new Error("no request");
    const request: Record<string, unknown> & { _id: string } = { ...made.write.data, _id: answered.write.id };
    // Answered and deleted at once (requests pruned); Alice, who may create messages as herself with
    // an id of her choosing (keepId), brings it back with no answer.
    expect(table.server.messages.has(request._id)).toBe(false);
    await alice.run(async () => {
      await ChatMessage.implementation.create({ ...request, system: { ...(request.system as object), answer: null } }, { keepId: true });
    });
    expect(table.server.applied.at(-1)?.write).toMatchObject({ op: "create", keepId: true, data: { _id: request._id } });
    await table.settle();
    const revision = card(id).revision;
    const rolled = table.rolled.length;
    // The Judge reloads (the Co-Judge is active meanwhile), and both look for unanswered requests.
    gm.drop();
    await table.settle();
    await gm.connect();
    await table.settle();
    expect(card(id).revision).toBe(revision);
    expect(table.rolled.length).toBe(rolled);
    expect(kestrelTurnKeys()).toHaveLength(1);
  });

  it("defence during advance: a defence racing a phase advance is counted once or refused before any die is rolled", async () => {
    const outcomes = new Set<string>();
    for (const [seed, wait] of [[1, 0], [2, 1], [3, 2], [4, 3], [5, 5], [6, 8], [7, 12], [8, 20], [9, 30], [10, 45]] as const) {
      vi.unstubAllGlobals();
      // Attacks in the turn: Gravel's blast is his action, and a defence the turn can no longer count is refused.
      table = await fightTable(seed, true);
      const { gm, alice } = table.clients;
      const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
      const rollsBefore = card(id).rolls;
      const [defence, advance] = await Promise.all([
        alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }),
        // The Judge presses advance a few turns of the event loop after Alice clicks (a different moment each time).
        eventLoopTurns(wait).then(() => gm.click(advancePhaseQuery, { combatId: COMBAT, from: "resolve", force: true })),
      ]);
      await table.settle();
      expect(advance).toMatchObject({ ok: true });
      expect(table.server.combats.get(COMBAT)?.system.phase).not.toBe("resolve");
      const keys = kestrelTurnKeys();
      if (defence.ok) {
        outcomes.add("counted");
        expect(keys.filter((k) => k.startsWith(`${id}:`))).toHaveLength(1);
        expect(card(id).state.targets[0]?.defence?.code).toBe("dodge");
      } else {
        outcomes.add("refused");
        expect(defence).toMatchObject({ ok: false, reason: "stale" });
        expect(defence.message).toContain("can no longer be counted");
        expect(defence.message).not.toMatch(/belongs to the|phase; the turn is in/);
        expect(card(id).rolls).toBe(rollsBefore);
        expect(card(id).state.targets[0]?.defence ?? null).toBeNull();
        expect(keys.filter((k) => k.startsWith(`${id}:`))).toHaveLength(0);
      }
    }
    // Both orders were played.
    expect(outcomes).toEqual(new Set(["counted", "refused"]));
  });
});

/** The defence keys the combat holds for Kestrel (one per counted defence). */
function kestrelTurnKeys(): string[] {
  const combatant = table.server.combats.get(COMBAT)?.combatants.find((c) => c._id === KESTREL_CBT);
  const keys = (combatant?.flags as { case?: { defenceKeys?: unknown } } | undefined)?.case?.defenceKeys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
}


