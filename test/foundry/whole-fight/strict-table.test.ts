/**
 * The attack exchange on the strict table (test/support/strict-table.ts): a server, two GM
 * clients and two player clients, everything through JSON, the server checking who may write
 * what, seeded interleaving, and clients that drop. Each scenario drives the real request
 * glue, router, handlers and data models, as a player or Judge would click.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { vi } from "vitest";
import { CAST, OWNER, StrictTable, TABLE_USERS, USER_ROLES, installTableGlobals, itemUuid, seatCast, seatCombat, type ClientActor, type ClientCombat, type StrictClient } from "../../support/strict-table";
import { registerSettings } from "../../../src/foundry/core/settings";
import { advancePhaseQuery, chooseExtraModeQuery, completeActionQuery, declareActionQuery, declareManyQuery, firstAidQuery, rollTurnInitiativeQuery, setConditionQuery } from "../../../src/foundry/combat/queries";
import { characterSource } from "../../support/exchange-world";
import { turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, consequenceQuery, defendQuery, escapeQuery, pullQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { applyDamageApiQuery } from "../../../src/foundry/api/damage-api";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import type { QueryResult } from "../../../src/foundry/requests/router";
import { unsealExchange, type ExchangeSecrets, type ExchangeState } from "../../../src/rules/index";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 7 });
  seatCast(table);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The card as the server holds it. */
function card(id: string): { state: ExchangeState; revision: number; author: string } {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return { state: readExchange(source.system.exchange), revision: Number(source.system.revision), author: source.author };
}

/** `by` attacks `targets` with `kind`; the GM writes the card. Resolves to the card's id. */
async function attack(by: StrictClient, attacker: string, kind: "punch" | "grab" | "blast", targets: readonly string[], input: Record<string, unknown> = {}): Promise<string> {
  const result = await by.click(attackQuery, { itemUuid: itemUuid(attacker, kind), targetUuids: targets.map((t) => `Actor.${t}`), input });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

/** The card whole, as the GM reads it: the public card joined with its record's secrets (an NPC row's Health is there). */
function gmCard(id: string): ExchangeState {
  const { state, revision } = card(id);
  const recordId = table.server.messages.get(id)?.system.recordId;
  const secrets = (table.server.messages.get(typeof recordId === "string" ? recordId : "")?.system.secrets as { revision: number; secrets: ExchangeSecrets }[] | undefined)?.find((r) => r.revision === revision)?.secrets ?? {};
  return unsealExchange(state, secrets);
}

function ok(result: QueryResult<unknown>): void {
  expect(result).toEqual({ ok: true, value: null });
}

describe("strict table", () => {
  it("a Combat update merges nested objects as Foundry's update does: combat.update({ system: { phase } }) keeps the order", async () => {
    const { gm, gm2 } = table.clients;
    seatCombat(table, "combat0000000001", [CAST.kestrel, CAST.gravel]);
    const source = table.server.combats.get("combat0000000001");
    if (!source) throw new Error("no combat");
    source.system = { ...source.system, order: ["cbt0000000000001", "cbt0000000000000"] };
    for (const c of [gm, gm2]) {
      c.drop();
      await c.connect();
    }
    await gm.run(() => (game.combats.get("combat0000000001") as unknown as { update(data: object): Promise<unknown> }).update({ system: { phase: "resolve" }, round: 2 }));
    await table.settle();
    expect(table.server.combats.get("combat0000000001")).toMatchObject({ round: 2, system: { phase: "resolve", order: ["cbt0000000000001", "cbt0000000000000"], turnNumber: 1 } });
    expect(gm2.combats.get("combat0000000001")?.system).toMatchObject({ phase: "resolve", order: ["cbt0000000000001", "cbt0000000000000"] });
  });

  it("settle() returns once the table is quiet: a click not yet awaited has been answered, written, and broadcast to every client", async () => {
    const id = await attack(table.clients.gm, CAST.gravel, "blast", [CAST.kestrel]);
    const before = card(id).revision;
    table.dice.push(50, 60);
    let answered = false;
    const clicked = table.clients.alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }).then((result) => {
      answered = true;
      return result;
    });
    await table.settle();
    expect(table.server.inFlight).toBe(0);
    expect(answered).toBe(true);
    expect(card(id).revision).toBe(before + 1);
    for (const client of Object.values(table.clients)) expect(Number(client.messages.get(id)?.system.revision), client.user.name).toBe(before + 1);
    ok(await clicked);
  });

  it("over the wire: a player's defence click, answered through JSON, reports success once, and the card advances once", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    const before = card(id).revision;
    table.dice.push(50, 60); // Alice's Dodge, then the to-hit: both rolled by the GM
    const result = await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" });
    await table.settle();
    ok(result);
    expect(card(id).revision).toBe(before + 1);
    expect(card(id).state.targets[0]?.phase).toBe("resolved");
    expect(alice.notified).toEqual([]);
    // The same click again is stale, and says so once: no false error.
    const again = await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" });
    expect(again).toMatchObject({ ok: false, reason: "stale" });
    expect(card(id).revision).toBe(before + 1);
  });

  it("requests pruned: a player's answered request is deleted at once, from the server and every client; the asker heard the answer", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    table.dice.push(50, 60);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }));
    await table.settle();
    const answered = table.server.applied.flatMap(({ write }) => (write.op === "update" && write.collection === "ChatMessage" && "system.answer" in write.data ? [write.id] : []));
    expect(answered).toHaveLength(1);
    const deleted = table.server.applied.flatMap(({ write, user }) => (write.op === "delete" ? [{ id: write.id, user }] : []));
    expect(deleted).toEqual([{ id: answered[0], user: gm.user.id }]);
    for (const client of [table.server, gm, alice]) expect([...client.messages.values()].filter((m) => m.type === "request")).toEqual([]);
  });

  it("stale requests expire: a request left unanswered from an earlier session is refused as stale and deleted when the GM comes back, never applied; a recent one is run", async () => {
    const { gm, gm2, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    await table.settle();
    const before = card(id).revision;
    // Every GM gone: Alice's click waits, unanswered, and she gives up.
    gm.drop();
    gm2.drop();
    const whisper = [gm.user.id, gm2.user.id];
    const post = (targetKey: string) => alice.run(() => ChatMessage.implementation.create({ type: "request", whisper, content: "", system: { query: defendQuery.name, payload: { messageId: id, targetKey, revision: before, defence: "dodge" }, answer: null } } as never));
    await post("0");
    const old = [...table.server.messages.values()].find((m) => m.type === "request");
    if (!old) throw new Error("The request was not stored.");
    old._stats.createdTime = Date.now() - 6 * 60 * 1000;
    await gm.connect();
    await table.settle();
    expect(card(id).revision).toBe(before);
    expect(card(id).state.targets[0]?.phase).not.toBe("resolved");
    const answer = table.server.applied.find(({ write }) => write.op === "update" && write.id === old._id)?.write;
    expect(answer?.op === "update" && answer.collection === "ChatMessage" ? answer.data["system.answer"] : null).toMatchObject({ ok: false, reason: "stale" });
    expect([...table.server.messages.values()].filter((m) => m.type === "request")).toEqual([]);
    // A request from a moment ago (a GM's tab closed as it came) is still run by the next GM.
    gm.drop();
    await post("0");
    table.dice.push(50, 60);
    await gm.connect();
    await table.settle();
    expect(card(id).revision).toBe(before + 1);
  });

  it("expiry by server time: a request whose author dates it six minutes back is still run; one the server made six minutes ago expires whatever its author dated it", async () => {
    const { gm, gm2, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    await table.settle();
    const before = card(id).revision;
    gm.drop();
    gm2.drop();
    const whisper = [gm.user.id, gm2.user.id];
    const post = (timestamp: number) => alice.run(() => ChatMessage.implementation.create({ type: "request", whisper, content: "", timestamp, system: { query: defendQuery.name, payload: { messageId: id, targetKey: "0", revision: before, defence: "dodge" }, answer: null } } as never));
    // Dated by its author an hour ahead, but made by the server six minutes ago: expired, never run.
    await post(Date.now() + 60 * 60 * 1000);
    const old = [...table.server.messages.values()].find((m) => m.type === "request");
    if (!old) throw new Error("The request was not stored.");
    old._stats.createdTime = Date.now() - 6 * 60 * 1000;
    await gm.connect();
    await table.settle();
    expect(card(id).revision).toBe(before);
    const answer = table.server.applied.find(({ write }) => write.op === "update" && write.id === old._id)?.write;
    expect(answer?.op === "update" && answer.collection === "ChatMessage" ? answer.data["system.answer"] : null).toMatchObject({ ok: false, reason: "stale" });
    // Dated by its author six minutes back, made by the server just now: run.
    gm.drop();
    await post(Date.now() - 6 * 60 * 1000);
    table.dice.push(50, 60);
    await gm.connect();
    await table.settle();
    expect(card(id).revision).toBe(before + 1);
  });

  it("impostor: a request claiming to be another player, a second GM or the handling GM changes nothing", async () => {
    const { gm, alice, bob } = table.clients;
    const id = await attack(gm, CAST.gravel, "punch", [CAST.wren]);
    table.dice.push(60);
    ok(await bob.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    const health = table.health(CAST.wren);
    const revision = card(id).revision;
    const payload = { messageId: id, targetKey: "0" };
    const whisper = [TABLE_USERS.gm.id, TABLE_USERS.gm2.id];
    // Alice writes requests that name someone else as their author: the server refuses each.
    for (const author of [TABLE_USERS.bob.id, TABLE_USERS.gm2.id, TABLE_USERS.gm.id]) {
      await expect(alice.run(() => ChatMessage.implementation.create({ type: "request", author, whisper, system: { query: "applyDamage", payload, answer: null } } as never))).rejects.toThrow(/may not create a message as/);
    }
    // A payload that names a GM is read as data only: the request is Alice's, and she may not apply damage.
    const named = await alice.click(applyDamageQuery, { ...payload, userId: TABLE_USERS.gm.id, user: TABLE_USERS.gm2.id });
    expect(named).toMatchObject({ ok: false, reason: "forbidden" });
    await table.settle();
    expect(table.health(CAST.wren)).toBe(health);
    expect(card(id).revision).toBe(revision);
  });

  it("forged card: a card written or edited by a player is refused by every handler", async () => {
    const { gm, alice } = table.clients;
    // A real card, resolved: Alice may not rewrite it (the server refuses: she is not its author).
    const id = await attack(gm, CAST.gravel, "punch", [CAST.wren]);
    table.dice.push(60);
    ok(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    const real = card(id).state;
    const forged = { ...real, targets: real.targets.map((t) => ({ ...t, damage: t.damage ? { ...t.damage, dealt: 9999 } : null })) };
    const gmCopy = alice.messages.get(id);
    await expect(alice.run(() => gmCopy?.update({ "system.exchange": forged }))).rejects.toThrow(/may not change a message/);
    // A card Alice writes herself, "already resolved" for 9,999: no handler takes it, not even the GM's own click.
    const own = await alice.run(() => ChatMessage.implementation.create({ type: "attack", system: { exchange: forged, revision: 0, requests: [], recordId: "" } } as never));
    const ownId = String((own as { id: string } | undefined)?.id);
    await table.settle();
    const health = table.health(CAST.wren);
    for (const [query, payload] of [
      [applyDamageQuery, { messageId: ownId, targetKey: "0" }],
      [undoDamageQuery, { messageId: ownId, targetKey: "0" }],
      [defendQuery, { messageId: ownId, targetKey: "0", defence: "none" }],
      [pullQuery, { messageId: ownId, targetKey: "0", color: "white" }],
      [consequenceQuery, { messageId: ownId, targetKey: "0", check: "stun" }],
      [escapeQuery, { messageId: ownId, targetKey: "0" }],
    ] as const) {
      expect(await gm.click(query as typeof applyDamageQuery, payload)).toMatchObject({ ok: false, reason: "forbidden" });
    }
    expect(table.health(CAST.wren)).toBe(health);
  });

  it("player dice: no handler accepts a die value chosen by a player", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    table.dice.push(5, 99); // the GM's Dodge die for Alice, the GM's to-hit
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge", die: 100, dice: [100], roll: { total: 100 } }));
    await table.settle();
    const row = card(id).state.targets[0];
    expect(row?.defence?.die).toBe(5);
    expect(row?.toHit?.die).toBe(99);
    // Every die on the card is a Roll the GM made, in the order it made them.
    const rolls = (table.server.messages.get(id)?.rolls ?? []).map((r) => (JSON.parse(r) as { total: number }).total);
    expect(rolls).toEqual([5, 99]);
    expect(table.rolled.every((r) => r.by === TABLE_USERS.gm.id)).toBe(true);
    // The consequence and the escape likewise: a die in the payload is never read.
    ok(await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" }));
    // Alice clicks the check once her copy of the card shows it (a click on an older copy is stale).
    await table.settle();
    const check = card(id).state.targets[0]?.consequences.find((c) => c.outcome === null)?.check;
    if (check) {
      table.dice.push(1, 1);
      ok(await alice.click(consequenceQuery, { messageId: id, targetKey: "0", check, die: 100 }));
      expect(card(id).state.targets[0]?.consequences.find((c) => c.check === check)?.die).toBe(1);
    }
  });

  it("two cards one actor: two cards and the damage API hit one actor at once, and every point of damage lands", async () => {
    const { gm, gm2, alice } = table.clients;
    const a = await attack(gm, CAST.gravel, "punch", [CAST.kestrel]);
    const b = await attack(gm, CAST.shade, "blast", [CAST.kestrel]);
    table.dice.push(60, 60);
    ok(await alice.click(defendQuery, { messageId: a, targetKey: "0", defence: "none" }));
    ok(await alice.click(defendQuery, { messageId: b, targetKey: "0", defence: "none" }));
    await table.settle();
    const start = table.health(CAST.kestrel);
    const dealt = (id: string) => card(id).state.targets[0]?.damage?.dealt ?? 0;
    expect(dealt(a)).toBeGreaterThan(0);
    expect(dealt(b)).toBeGreaterThan(0);
    const results = await Promise.all([
      gm.click(applyDamageQuery, { messageId: a, targetKey: "0" }),
      gm.click(applyDamageQuery, { messageId: b, targetKey: "0" }),
      alice.click(applyDamageApiQuery, { requestId: "dmg0000000000001", tokenUuids: [`Actor.${CAST.kestrel}`], amount: 7 }),
      gm2.click(applyDamageApiQuery, { requestId: "dmg0000000000002", tokenUuids: [`Actor.${CAST.kestrel}`], amount: 5 }),
    ]);
    await table.settle();
    expect(results.map((r) => (r.ok ? "ok" : `${r.reason}: ${r.message}`))).toEqual(["ok", "ok", "ok", "ok"]);
    expect(table.health(CAST.kestrel)).toBe(start - dealt(a) - dealt(b) - 7 - 5);
  });

  it("undo after other damage: undo returns only its own card's damage", async () => {
    const { gm, alice } = table.clients;
    const a = await attack(gm, CAST.gravel, "punch", [CAST.kestrel]);
    const b = await attack(gm, CAST.shade, "blast", [CAST.kestrel]);
    table.dice.push(60, 60);
    ok(await alice.click(defendQuery, { messageId: a, targetKey: "0", defence: "none" }));
    ok(await alice.click(defendQuery, { messageId: b, targetKey: "0", defence: "none" }));
    const start = table.health(CAST.kestrel);
    ok(await gm.click(applyDamageQuery, { messageId: a, targetKey: "0" }));
    ok(await gm.click(applyDamageQuery, { messageId: b, targetKey: "0" }));
    const dealtB = card(b).state.targets[0]?.damage?.dealt ?? 0;
    ok(await gm.click(undoDamageQuery, { messageId: a, targetKey: "0" }));
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(start - dealtB);
    expect(card(a).state.targets[0]?.phase).toBe("undone");
  });

  it("two buttons one card: different actions on one card at once all land", async () => {
    const { gm, alice, bob } = table.clients;
    // Two targets: Alice and Bob defend at the same moment.
    const blast = await attack(gm, CAST.gravel, "blast", [CAST.kestrel, CAST.wren]);
    const [a, b] = await Promise.all([alice.click(defendQuery, { messageId: blast, targetKey: "0", defence: "dodge" }), bob.click(defendQuery, { messageId: blast, targetKey: "1", defence: "none" })]);
    ok(a);
    ok(b);
    await table.settle();
    expect(card(blast).state.targets.map((t) => t.phase)).toEqual(["resolved", "resolved"]);
    // A hold on Kestrel: her escape and Wren's defence land together.
    const grab = await attack(gm, CAST.shade, "grab", [CAST.kestrel, CAST.wren]);
    table.dice.push(100); // the GM's to-hit on Kestrel: red, a Full Hold
    ok(await alice.click(defendQuery, { messageId: grab, targetKey: "0", defence: "none" }));
    expect(card(grab).state.targets[0]?.toHit?.result).toBe("fullHold");
    const [escape, defend] = await Promise.all([alice.click(escapeQuery, { messageId: grab, targetKey: "0" }), bob.click(defendQuery, { messageId: grab, targetKey: "1", defence: "none" })]);
    ok(escape);
    ok(defend);
    await table.settle();
    const rows = card(grab).state.targets;
    expect(rows[0]?.escapes).toHaveLength(1);
    expect(rows[1]?.phase).toBe("resolved");
  });

  it.each([0, 1, 2])("GM drops mid-apply (after %i writes): the next active GM finishes it, and the card never shows applied without the Health change", async (writes) => {
    const { gm, alice } = table.clients;
    table.server.settings.set("case.damageAppliedBy", "owners");
    const id = await attack(gm, CAST.gravel, "punch", [CAST.kestrel]);
    table.dice.push(60);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    const start = table.health(CAST.kestrel);
    const dealt = card(id).state.targets[0]?.damage?.dealt ?? 0;
    const log = table.server.applied.length;
    gm.dropAfterWrites(writes);
    if (writes === 0) gm.drop();
    const result = await alice.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    await table.settle();
    ok(result);
    expect(table.health(CAST.kestrel)).toBe(start - dealt);
    expect(card(id).state.targets[0]?.phase).toBe("applied");
    // In the server's own order of writes, the card says "applied" only after the Health is written.
    const after = table.server.applied.slice(log);
    const healthWrites = after.flatMap((w, i) => (w.write.collection === "Actor" && w.write.op === "update" && "system.health.value" in w.write.data ? [i] : []));
    const appliedCard = after.findIndex((w) => w.write.op === "update" && w.write.collection === "ChatMessage" && JSON.stringify(w.write.data).includes('"phase":"applied"'));
    expect(healthWrites).toHaveLength(1);
    expect(appliedCard).toBeGreaterThan(healthWrites[0] ?? Infinity);
  });

  /** The Health writes the server applied to an actor since `from` (its log index). */
  function healthWrites(actorId: string, from: number): number {
    return table.server.applied.slice(from).filter((w) => w.write.collection === "Actor" && w.write.op === "update" && w.write.id === actorId && "system.health.value" in w.write.data).length;
  }

  it("GM's own click cut after the Health write: the GM taking over finishes it (no request of its own to find), once", async () => {
    const { gm, gm2, alice } = table.clients;
    // Kestrel's blast on Doctor Gravel, an NPC: the GM defends for him, and applies his damage itself.
    const id = await attack(alice, CAST.kestrel, "blast", [CAST.gravel]);
    table.dice.push(60, 60);
    ok(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    const start = table.health(CAST.gravel);
    const dealt = card(id).state.targets[0]?.damage?.dealt ?? 0;
    expect(dealt).toBeGreaterThan(0);
    const log = table.server.applied.length;
    // The GM's tab closes right after the Health write (its note on the card's record, then the
    // Health): its card write never reaches the server.
    gm.dropAfterWrites(2);
    const cut = await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    expect(cut.ok).toBe(false);
    expect(gm.connected).toBe(false);
    expect(table.health(CAST.gravel)).toBe(start - dealt);
    // The Co-Judge becomes the active GM and finishes the step: the card records the damage, written once.
    await table.settle();
    expect(gm2.connected).toBe(true);
    expect(card(id).state.targets[0]?.phase).toBe("applied");
    expect(gmCard(id).targets[0]?.applied).toMatchObject({ healthBefore: start, healthAfter: start - dealt });
    expect(table.health(CAST.gravel)).toBe(start - dealt);
    expect(healthWrites(CAST.gravel, log)).toBe(1);
  });

  it("GM's own click cut, then another step on the card first: the cut step is finished before the card moves on, and never written twice", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    const id = await attack(alice, CAST.kestrel, "blast", [CAST.gravel, CAST.wren]);
    table.dice.push(60, 60);
    ok(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    const start = table.health(CAST.gravel);
    const dealt = card(id).state.targets[0]?.damage?.dealt ?? 0;
    const log = table.server.applied.length;
    // The server holds the GM's Health write until Bob's defence request (row 1) has reached the GM,
    // which queues it behind the apply on the card's lock (the GM's claim on it is its first write);
    // then the GM's tab closes after the Health write.
    let bobAsked!: () => void;
    const asked = new Promise<void>((resolve) => {
      bobAsked = resolve;
    });
    table.server.gate = (client, write) => (client === gm && write.collection === "Actor" && write.op === "update" ? asked : null);
    gm.dropAfterWrites(2);
    const cut = gm.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    table.dice.push(60);
    const defence = bob.click(defendQuery, { messageId: id, targetKey: "1", defence: "none" });
    const bobWaiting = () => [...gm.messages.values()].some((m) => m.type === "request" && m.source.author === bob.user.id && m.system.answer === null);
    await table.settle();
    if (!bobWaiting()) throw new Error("Bob's request never reached the GM.");
    table.server.gate = null;
    bobAsked();
    expect((await cut).ok).toBe(false);
    // The Co-Judge takes over: Bob's waiting request comes first, and finishes the cut apply before its own step.
    ok(await defence);
    await table.settle();
    expect(gm2.connected).toBe(true);
    const rows = card(id).state.targets;
    expect(rows.map((t) => t.phase)).toEqual(["applied", "resolved"]);
    expect(gmCard(id).targets[0]?.applied).toMatchObject({ healthBefore: start, healthAfter: start - dealt });
    expect(table.health(CAST.gravel)).toBe(start - dealt);
    // A later click on the row is "already done": the damage is never written a second time.
    expect(await gm2.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(table.health(CAST.gravel)).toBe(start - dealt);
    expect(healthWrites(CAST.gravel, log)).toBe(1);
  });

  it("replay after reload: the same request after the GM reloads changes nothing", async () => {
    const { gm, gm2, alice } = table.clients;
    gm2.drop();
    table.server.settings.set("case.damageAppliedBy", "owners");
    const id = await attack(gm, CAST.gravel, "punch", [CAST.kestrel]);
    table.dice.push(60);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    await table.settle();
    const start = table.health(CAST.kestrel);
    const dealt = card(id).state.targets[0]?.damage?.dealt ?? 0;
    // The GM claims the request, applies it (its note on the record, Health, the record, the card) and its tab closes before it can answer.
    gm.dropAfterWrites(5);
    const pending = alice.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    await table.settle();
    expect(gm.connected).toBe(false);
    expect(table.health(CAST.kestrel)).toBe(start - dealt);
    const revision = card(id).revision;
    // The GM reloads: it finds the request unanswered and handles it again. Nothing changes twice.
    await gm.connect();
    ok(await pending);
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(start - dealt);
    expect(card(id).revision).toBe(revision);
    // Reloading once more: the request is answered (and deleted), so it is not handled at all;
    // the GM only tidies what a request leaves (its claim, once the request is gone).
    gm.drop();
    const writes = table.server.applied.length;
    await gm.connect();
    await table.settle();
    const tidying = (w: (typeof table.server.applied)[number]) => w.write.op === "delete";
    expect(table.server.applied.slice(writes).filter((w) => !tidying(w))).toEqual([]);
  });

  it("second GM: with two GMs connected, each request is handled exactly once", async () => {
    const { gm, alice, bob } = table.clients;
    const ids = [await attack(gm, CAST.gravel, "blast", [CAST.kestrel, CAST.wren]), await attack(gm, CAST.shade, "blast", [CAST.kestrel, CAST.wren])];
    const clicks = ids.flatMap((id) => [alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }), bob.click(defendQuery, { messageId: id, targetKey: "1", defence: "dodge" })]);
    const results = await Promise.all(clicks);
    await table.settle();
    expect(results.every((r) => r.ok)).toBe(true);
    // Only the active GM (the lowest id) wrote; each card took one write per request.
    const cardWrites = table.server.applied.filter((w) => w.write.collection === "ChatMessage" && w.write.op === "update" && "system.exchange" in w.write.data);
    expect(new Set(cardWrites.map((w) => w.user))).toEqual(new Set([TABLE_USERS.gm.id]));
    expect(cardWrites).toHaveLength(4);
    const answers = table.server.applied.filter((w) => w.write.op === "update" && "system.answer" in (w.write as { data: object }).data);
    expect(answers).toHaveLength(4);
    for (const id of ids) expect(card(id).revision).toBe(2);
  });

  it("hung handler: a request that never settles frees its lock after the timeout, and the player is told", async () => {
    table = new StrictTable({ seed: 7, lockTimeoutMs: 300 });
    seatCast(table);
    await table.connectAll();
    const { gm, alice, bob } = table.clients;
    table.server.settings.set("case.damageAppliedBy", "owners");
    const id = await attack(gm, CAST.gravel, "punch", [CAST.kestrel, CAST.wren]);
    table.dice.push(60);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" }));
    // The GM's Health write for Kestrel never gets an answer from the server.
    table.server.hang = (client, write) => client === gm && write.collection === "Actor" && write.op === "update" && write.id === CAST.kestrel;
    const hung = await alice.click(applyDamageQuery, { messageId: id, targetKey: "0" });
    expect(hung).toMatchObject({ ok: false, reason: "timeout" });
    // The card's lock is free again: Bob's defence on the same card goes through.
    table.server.hang = null;
    table.dice.push(60);
    ok(await bob.click(defendQuery, { messageId: id, targetKey: "1", defence: "none" }));
  });

  it("hidden from players: no document a player receives holds a hidden defence or NPC scores", async () => {
    const { gm, alice, bob } = table.clients;
    // Alice's hero attacks two NPCs; the GM defends for them (the setting hides NPC defences).
    const id = await attack(alice, CAST.kestrel, "blast", [CAST.gravel, CAST.shade]);
    table.dice.push(77, 60, 50, 40);
    ok(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }));
    ok(await gm.click(defendQuery, { messageId: id, targetKey: "1", defence: "none" }));
    await table.settle();
    const full = table.clients.gm.run(() => card(id).state);
    expect(full.targets.every((t) => t.sealed === true)).toBe(true);
    for (const player of [alice, bob]) {
      const seen = table.server.received(player);
      // The GM's record never reaches a player; the card they receive has no NPC scores or defence.
      expect(seen).not.toContain('"type":"attackRecord"');
      expect(seen).not.toMatch(/"fighting\.def":40|"agility\.bal":40/);
      expect(seen).not.toContain('"code":"dodge"');
      expect(seen).not.toContain("CASE.Defence.dodge");
    }
    // The GM's record holds them, and the GM's next step reads them back.
    expect(table.server.received(gm)).toContain('"code":"dodge"');
    ok(await gm.click(applyDamageQuery, { messageId: id, targetKey: "0" }));
  });

  it("hidden from players: an NPC's declaration reaches no player, and the GM's turn still reads it", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    // A combat the clients load as they (re)connect.
    seatCombat(table, "combat0000000001", [CAST.kestrel, CAST.gravel]);
    for (const c of [gm, gm2, alice, bob]) {
      c.drop();
      await c.connect();
    }
    const [hero, villain] = ["cbt0000000000000", "cbt0000000000001"];
    expect(await alice.click(declareActionQuery, { combatId: "combat0000000001", combatantId: hero, declaration: { text: "Shield the bystanders", actions: 1 } })).toMatchObject({ ok: true });
    const declared = await gm.click(declareActionQuery, { combatId: "combat0000000001", combatantId: villain, declaration: { text: "Bring the wrecking ball down on Kestrel", kind: "attack", attack: "BA", actions: 1 } });
    expect(declared.ok).toBe(true);
    await table.settle();
    for (const player of [alice, bob]) {
      const seen = table.server.received(player);
      expect(seen).not.toContain("wrecking ball");
      expect(seen).toContain("Shield the bystanders");
    }
    expect(table.server.received(gm2)).toContain("wrecking ball");
    // The GM's engine reads the whole declaration back; a player's reads only that it was made.
    const read = (c: StrictClient) => c.run(() => turnEngineOf(game.combats.get("combat0000000001") as never).state().combatants.get(villain)?.declaration);
    expect(read(gm)).toMatchObject({ text: "Bring the wrecking ball down on Kestrel", attack: "BA", secret: true });
    expect(read(alice)).toMatchObject({ text: "", secret: true });
  });
});

describe("strict table: Clear Chat Log", () => {
  /** The GM's Clear Chat Log: ChatLog's flush, `deleteDocuments([], { deleteAll: true })`. */
  async function clearChat(gm: StrictClient): Promise<void> {
    await gm.run(() => ChatMessage.implementation.deleteDocuments([], { deleteAll: true }));
    await table.settle();
  }

  it("records survive clear chat: mid-combat, the NPCs' secret declarations and the back-step history come back for the GM, still hidden from players", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    seatCombat(table, "combat0000000001", [CAST.kestrel, CAST.gravel]);
    for (const c of [gm, gm2, alice, bob]) {
      c.drop();
      await c.connect();
    }
    const villain = "cbt0000000000001";
    expect(await gm.click(declareActionQuery, { combatId: "combat0000000001", combatantId: villain, declaration: { text: "Bring the wrecking ball down on Kestrel", kind: "attack", attack: "BA", actions: 1 } })).toMatchObject({ ok: true });
    await table.settle();
    const before = [...table.server.messages.values()].find((m) => m.type === "turnRecord");
    expect(before).toBeDefined();
    const aliceHad = alice.received.length;
    await clearChat(gm);
    const records = [...table.server.messages.values()].filter((m) => m.type === "turnRecord");
    expect(records).toHaveLength(1);
    expect(records[0]?._id).not.toBe(before?._id);
    expect(records[0]?.system).toEqual(before?.system);
    const read = (c: StrictClient) => c.run(() => turnEngineOf(game.combats.get("combat0000000001") as never).state().combatants.get(villain)?.declaration);
    expect(read(gm)).toMatchObject({ text: "Bring the wrecking ball down on Kestrel", secret: true });
    expect(read(gm2)).toMatchObject({ text: "Bring the wrecking ball down on Kestrel", secret: true });
    expect(alice.received.slice(aliceHad).join("\n")).not.toContain("wrecking ball");
  });

  it("records survive clear chat: a card's record deleted alone is written again and the card points to it; cleared with its card, it is let go", async () => {
    const { gm, alice } = table.clients;
    const id = await attack(gm, CAST.gravel, "blast", [CAST.kestrel]);
    await table.settle();
    const recordId = String((table.server.messages.get(id)?.system as { recordId?: string }).recordId);
    await gm.run(() => ChatMessage.implementation.deleteDocuments([recordId]));
    await table.settle();
    const newRecordId = (table.server.messages.get(id)?.system as { recordId?: string }).recordId ?? "";
    expect(newRecordId).not.toBe(recordId);
    expect(table.server.messages.get(newRecordId)?.type).toBe("attackRecord");
    // The card still plays: Alice defends, the GM rolls.
    table.dice.push(50, 60);
    ok(await alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" }));
    await clearChat(gm);
    expect([...table.server.messages.values()]).toEqual([]);
  });
});

describe("strict table: a session played at random", () => {
  /** Who clicks for an actor: its owner's client. */
  function ownerOf(actorId: string): StrictClient {
    const c = table.clients;
    return actorId === CAST.kestrel ? c.alice : actorId === CAST.wren ? c.bob : c.gm;
  }

  it.each([11, 23])("twenty random attacks with random clicks, reloads and drops (seed %i): no damage lost or doubled, no false error", async (seed) => {
    // Generous time limits: on a loaded machine a slow step must not read as a hung one.
    table = new StrictTable({ seed, lockTimeoutMs: 10_000, answerTimeoutMs: 30_000 });
    seatCast(table);
    await table.connectAll();
    table.server.settings.set("case.damageAppliedBy", "owners");
    const rng = table.server.rng;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
    const actors = Object.values(CAST);
    const start = new Map(actors.map((a) => [a, table.health(a)]));
    const figures = { attacks: 0, clicks: 0, ok: 0, stale: 0, other: [] as string[], reloads: 0, drops: 0, closed: 0 };
    const cards: string[] = [];
    /** Tallies a click's answer. A click whose own tab closed under it (the GM's) shows nobody anything. */
    const count = (r: QueryResult<unknown>, by?: StrictClient) => {
      figures.clicks += 1;
      if (by && !by.connected) figures.closed += 1;
      else if (r.ok) figures.ok += 1;
      else if (r.reason === "stale") figures.stale += 1;
      else figures.other.push(`${r.reason}: ${r.message}`);
    };
    /** Now and then the GM's tab reloads, or drops mid-work and comes back. */
    const mischief = async () => {
      const gm = table.clients.gm;
      const roll = rng();
      if (roll < 0.1 && gm.connected) {
        figures.reloads += 1;
        gm.drop();
        await gm.connect();
      } else if (roll < 0.2 && gm.connected) {
        figures.drops += 1;
        gm.dropAfterWrites(1 + Math.floor(rng() * 4));
      } else if (!gm.connected && roll < 0.6) await gm.connect();
    };
    for (let tries = 0; figures.attacks < 20 && tries < 60; tries++) {
      const attacker = pick(actors);
      const others = actors.filter((a) => a !== attacker);
      const targets = rng() < 0.5 ? [pick(others)] : others.slice(0, 2);
      const result = await ownerOf(attacker).click(attackQuery, { itemUuid: itemUuid(attacker, pick(["punch", "blast"] as const)), targetUuids: targets.map((t) => `Actor.${t}`), input: {} });
      count(result, ownerOf(attacker));
      if (!result.ok || !result.value) continue;
      figures.attacks += 1;
      const id = result.value.messageId;
      cards.push(id);
      await mischief();
      // Every defender clicks at once (some twice: a double click).
      // A defence not on offer against this attack is refused as malformed (the card shows no such button): not counted.
      const defend = card(id).state.targets.flatMap((t) => {
        const by = ownerOf(targets[Number(t.key)] ?? "");
        const click = async () => ({ by, r: await by.click(defendQuery, { messageId: id, targetKey: t.key, defence: pick(["none", "dodge", "block", "weave"]) }) });
        return rng() < 0.3 ? [click(), click()] : [click()];
      });
      for (const { by, r } of await Promise.all(defend)) if (r.ok || r.reason !== "malformed") count(r, by);
      await mischief();
      // Some rows get their damage applied (by the target's owner), some of those undone, double clicks included.
      const apply = card(id).state.targets.filter(() => rng() < 0.7).map(async (t) => {
        const owner = ownerOf(targets[Number(t.key)] ?? "");
        if (!card(id).state.targets[Number(t.key)]?.damage?.dealt) return;
        count(await owner.click(applyDamageQuery, { messageId: id, targetKey: t.key }), owner);
        if (rng() < 0.3) count(await owner.click(applyDamageQuery, { messageId: id, targetKey: t.key }), owner);
        if (rng() < 0.25) count(await owner.click(undoDamageQuery, { messageId: id, targetKey: t.key }), owner);
      });
      await Promise.all(apply);
      await mischief();
    }
    if (!table.clients.gm.connected) await table.clients.gm.connect();
    await table.settle();
    expect(figures.attacks).toBe(20);
    // Every point of damage the cards say was applied, and only that, is off each character's Health.
    for (const actor of actors) {
      let taken = 0;
      for (const id of cards) {
        const state = gmCard(id);
        for (const t of state.targets) if (t.actorUuid === `Actor.${actor}` && t.phase === "applied" && t.applied) taken += t.applied.healthBefore - t.applied.healthAfter;
      }
      expect({ actor, health: table.health(actor) }).toEqual({ actor, health: (start.get(actor) ?? 0) - taken });
    }
    // Every request was answered exactly once.
    const answers = new Map<string, number>();
    for (const w of table.server.applied) if (w.write.op === "update" && "system.answer" in w.write.data) answers.set(w.write.id, (answers.get(w.write.id) ?? 0) + 1);
    const requests = [...table.server.messages.values()].filter((m) => m.type === "request");
    expect(requests.filter((r) => answers.get(r._id) !== 1).map((r) => r._id)).toEqual([]);
    // Answered requests are deleted as they are answered (none is answered twice before it goes).
    expect([...answers.values()].filter((n) => n !== 1)).toEqual([]);
    // No player (or GM) was shown a false error: every refusal was "already done".
    expect(figures.other).toEqual([]);
    console.info(
      `strict table seed ${seed}: ${figures.attacks} attacks, ${figures.clicks} clicks (${figures.ok} applied, ${figures.stale} already done, ${figures.closed} lost with the GM's closing tab), ${answers.size} requests answered (${requests.length} left), ${figures.reloads} GM reloads, ${figures.drops} GM drops mid-work`,
    );
  }, 60_000);
});

describe("strict table: first aid and Aided from the tracker", () => {
  const COMBAT = "combat0000000001";
  const [kestrel, wren, gravel] = ["cbt0000000000000", "cbt0000000000001", "cbt0000000000002"];

  beforeEach(async () => {
    // Kestrel (Alice's) knows first aid; Wren (Bob's) stands next to her; Doctor Gravel far off.
    table.server.actors.get(CAST.kestrel)?.items.push({ _id: "talentfirstaid01", name: "First Aid", type: "talent", system: { covers: ["reason"], doubled: false } });
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel]);
    const places = [{ x: 0, y: 0 }, { x: 100, y: 100 }, { x: 800, y: 0 }];
    table.server.combats.get(COMBAT)?.combatants.forEach((c, i) => (c.token = { ...(places[i] ?? { x: 0, y: 0 }), width: 1, height: 1 }));
    for (const c of Object.values(table.clients)) {
      c.drop();
      await c.connect();
    }
  });

  const turn = (c: StrictClient) => c.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state());

  it("first aid: Alice's Kestrel aids Bob's dying Wren next to her through the GM; Aided reaches everyone; Bob cannot aid with Alice's character", async () => {
    const { gm, alice, bob } = table.clients;
    expect(await gm.click(setConditionQuery, { combatId: COMBAT, combatantId: wren, condition: "dying" })).toMatchObject({ ok: true });
    expect(await bob.click(firstAidQuery, { combatId: COMBAT, combatantId: wren, aiderId: kestrel })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await alice.click(firstAidQuery, { combatId: COMBAT, combatantId: wren, aiderId: kestrel })).toEqual({ ok: true, value: { stopsDying: true, revived: false } });
    await table.settle();
    for (const c of [gm, bob]) expect(turn(c).combatants.get(wren)).toMatchObject({ dying: true, aided: true });
    // Aiding again changes nothing: no write lands, and every client's turn state is the same.
    const writes = table.server.applied.length;
    const before = [gm, bob].map((c) => JSON.stringify(turn(c).combatants.get(wren)));
    expect(await alice.click(firstAidQuery, { combatId: COMBAT, combatantId: wren, aiderId: kestrel })).toMatchObject({ ok: true });
    await table.settle();
    expect(table.server.applied.filter((w) => w.write.collection !== "ChatMessage")).toHaveLength(table.server.applied.slice(0, writes).filter((w) => w.write.collection !== "ChatMessage").length);
    expect([gm, bob].map((c) => JSON.stringify(turn(c).combatants.get(wren)))).toEqual(before);
  });

  it("first aid: the talent revives Wren's stun; Doctor Gravel, far off, cannot be reached; the refusal is clear", async () => {
    const { gm, alice } = table.clients;
    await gm.click(setConditionQuery, { combatId: COMBAT, combatantId: wren, condition: "stun", turns: 3 });
    await gm.click(setConditionQuery, { combatId: COMBAT, combatantId: gravel, condition: "stun", turns: 3 });
    expect(await alice.click(firstAidQuery, { combatId: COMBAT, combatantId: wren, aiderId: kestrel })).toEqual({ ok: true, value: { stopsDying: false, revived: true } });
    await table.settle();
    expect(turn(gm).combatants.get(wren)).toMatchObject({ stunTurns: 0, stunPending: 0 });
    const far = await alice.click(firstAidQuery, { combatId: COMBAT, combatantId: gravel, aiderId: kestrel });
    expect(far).toMatchObject({ ok: false, reason: "forbidden" });
    expect(JSON.stringify(far)).toContain("must stand next to");
    expect(turn(gm).combatants.get(gravel)).toMatchObject({ stunTurns: 3 });
  });
});

describe("strict table: the CASE turn", () => {
  const COMBAT = "combat0000000001";
  const NPCS = { minionA: "villain000000003", minionB: "villain000000004" } as const;
  /** Combatant ids in seat order: Kestrel (Alice), Wren (Bob), Gravel, Shade, two minions (the GM's). */
  const [kestrel, wren, gravel, shade, minionA, minionB] = [0, 1, 2, 3, 4, 5].map((i) => `cbt${String(i).padStart(13, "0")}`) as [string, string, string, string, string, string];

  beforeEach(async () => {
    table = new StrictTable({ seed: 5 });
    seatCast(table);
    table.server.addActor(NPCS.minionA, "Goon A", "npc", characterSource({ fighting: 20, agility: 20 }), []);
    table.server.addActor(NPCS.minionB, "Goon B", "npc", characterSource({ fighting: 20, agility: 30 }), []);
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel, CAST.shade, NPCS.minionA, NPCS.minionB]);
    await table.connectAll();
  });

  /** The turn as a client's engine reads it. */
  const turnOf = (c: StrictClient) => c.run(() => turnEngineOf(game.combats.get(COMBAT) as never).state());

  it("a GM plays a whole CASE turn through the real tracker queries, with 2 GMs, 2 players and 4 NPCs: Declare → Extra actions → Initiative → Resolve → Extra rounds → Wrap up → next Declare", async () => {
    const { gm, gm2, alice, bob } = table.clients;
    const owner = (id: string): StrictClient => (id === kestrel ? alice : id === wren ? bob : gm);
    const must = async (by: StrictClient, query: Parameters<StrictClient["click"]>[0], payload: Record<string, unknown>): Promise<void> => {
      const result = await by.click(query, payload);
      expect(result, `${by.user.name}: ${query.name} ${JSON.stringify(payload)} -> ${JSON.stringify(result)}`).toMatchObject({ ok: true });
      await table.settle();
    };
    const phase = () => turnOf(gm).combat.phase;
    const phases = [phase()];
    const advance = async () => {
      await must(gm, advancePhaseQuery, { combatId: COMBAT, from: phase() });
      phases.push(phase());
    };
    // Declare: each player for their own hero (Kestrel two actions), the GM for the NPCs in one go.
    await must(alice, declareActionQuery, { combatId: COMBAT, combatantId: kestrel, declaration: { text: "Two haymakers at Gravel", kind: "attack", attack: "BA", actions: 2 } });
    await must(bob, declareActionQuery, { combatId: COMBAT, combatantId: wren, declaration: { text: "Dodge and cover Kestrel", kind: "defence", defence: "dodge", actions: 1 } });
    await must(gm, declareManyQuery, {
      combatId: COMBAT,
      declarations: [gravel, shade, minionA, minionB].map((combatantId) => ({ combatantId, declaration: { text: "Rush the heroes", kind: "attack", attack: "BA", actions: 1 } })),
    });
    // Extra actions: entering the phase rolls Kestrel's extra action (a 99: it passes); Alice picks separate actions.
    table.dice.push(99);
    await advance();
    const extra = turnOf(gm).combatants.get(kestrel)?.extra ?? null;
    expect(extra?.success).toBe(true);
    if (extra?.mode === null) await must(alice, chooseExtraModeQuery, { combatId: COMBAT, combatantId: kestrel, mode: "separate" });
    // Initiative: the players roll their own; the NPCs' roll as the phase begins.
    await advance();
    await must(alice, rollTurnInitiativeQuery, { combatId: COMBAT, combatantIds: [kestrel] });
    await must(bob, rollTurnInitiativeQuery, { combatId: COMBAT, combatantIds: [wren] });
    await advance();
    const order = turnOf(gm).combat.order;
    expect([...order].sort()).toEqual([kestrel, wren, gravel, shade, minionA, minionB].sort());
    // Resolve, then the extra rounds (Kestrel's second action): whoever is due completes an action, clicked by its owner.
    for (const acting of ["resolve", "extraRounds"] as const) {
      expect(phase()).toBe(acting);
      for (let guard = 0; guard < 20; guard++) {
        const state = turnOf(gm);
        const current = state.combat.order[state.combat.cursor];
        if (current === undefined) break;
        await must(owner(current), completeActionQuery, { combatId: COMBAT, combatantId: current, actionIndex: state.combatants.get(current)?.actionsUsed ?? 0 });
        // Every write merged into the combat: the order stands while the cursor moves.
        expect(turnOf(gm).combat.order).toEqual(order);
      }
      await advance();
    }
    expect(phase()).toBe("wrapUp");
    await advance();
    expect(phases).toEqual(["declare", "extraActions", "initiative", "resolve", "extraRounds", "wrapUp", "declare"]);
    // Every client, players and the second GM, holds the next turn's Declare, the turn's number one up.
    for (const c of [gm, gm2, alice, bob]) expect({ who: c.user.name, phase: turnOf(c).combat.phase, turn: turnOf(c).combat.number }).toEqual({ who: c.user.name, phase: "declare", turn: 2 });
    expect(table.server.combats.get(COMBAT)?.round).toBe(2);
  });
});

describe("strict table: as strict as Foundry", () => {
  const COMBAT = "combat0000000001";
  const [kestrel, wren, gravel] = ["cbt0000000000000", "cbt0000000000001", "cbt0000000000002"];

  /** A fresh table with a combat of Kestrel, Wren and Gravel, every client connected. */
  async function withCombat(options: ConstructorParameters<typeof StrictTable>[0] = {}): Promise<void> {
    table = new StrictTable({ seed: 3, ...options });
    seatCast(table);
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel]);
    await table.connectAll();
  }
  const combatOn = (c: StrictClient) => c.run(() => game.combats.get(COMBAT) as unknown as ClientCombat);
  const serverCombat = () => {
    const combat = table.server.combats.get(COMBAT);
    if (!combat) throw new Error("No combat.");
    return combat;
  };
  const actorOn = (c: StrictClient, id: string): ClientActor => {
    const actor = c.actors.get(id);
    if (!actor) throw new Error(`No actor ${id} on ${c.user.name}'s client.`);
    return actor;
  };

  it("recursive merge: combat.update({system: {phase}}) keeps system.order and the cursor (mergeObject), an array is replaced whole", async () => {
    await withCombat();
    const { gm, alice } = table.clients;
    await gm.run(() => combatOn(gm).update({ system: { phase: "resolve", order: [wren, kestrel, gravel], cursor: 1 } }));
    await gm.run(() => combatOn(gm).update({ system: { phase: "extraRounds" } }));
    await gm.run(() => combatOn(gm).update({ "system.order": [gravel] }));
    await table.settle();
    expect(serverCombat().system).toMatchObject({ phase: "extraRounds", order: [gravel], cursor: 1, turnNumber: 1 });
    // A combatant's nested update merges too: the declaration keeps what the update does not name.
    await gm.run(() => combatOn(gm).updateEmbeddedDocuments("Combatant", [{ _id: gravel, system: { declaration: { declared: true, text: "Smash" } } }]));
    await gm.run(() => combatOn(gm).updateEmbeddedDocuments("Combatant", [{ _id: gravel, "system.declaration.actions": 2 }]));
    await table.settle();
    expect(serverCombat().combatants[2]?.system.declaration).toMatchObject({ declared: true, text: "Smash", actions: 2 });
    expect(combatOn(alice).system).toMatchObject({ phase: "extraRounds", order: [gravel], cursor: 1 });
  });

  it("deletion on 13: a `-=key` (dotted or nested) deletes the key; the rest of the object stays", async () => {
    await withCombat();
    const { alice } = table.clients;
    const actor = actorOn(alice, CAST.kestrel);
    await alice.run(() => actor.update({ "flags.case.foeBonus": { a: 1 }, "flags.case.keep": 1, "flags.case.other": 2 }));
    await alice.run(() => actor.update({ "flags.case.-=foeBonus": null }));
    await alice.run(() => actor.update({ flags: { case: { "-=other": null } } }));
    expect(table.server.actors.get(CAST.kestrel)?.flags).toEqual({ case: { keep: 1 } });
  });

  it("deletion on 14: a ForcedDeletion instance (`_del`) deletes its key; the class itself given as the value does not cross the wire and deletes nothing", async () => {
    await withCombat({ generation: 14 });
    const { alice } = table.clients;
    const actor = actorOn(alice, CAST.kestrel);
    await alice.run(async () => {
      expect(game.release.generation).toBe(14);
      const operators = (foundry.data as unknown as { operators: { ForcedDeletion: new () => object } }).operators;
      await actor.update({ "flags.case.a": 1, "flags.case.b": 2, "flags.case.c": 3 });
      await actor.update({ "flags.case.a": new operators.ForcedDeletion() });
      await actor.update({ "flags.case.b": (globalThis as unknown as { _del: object })._del });
      await actor.update({ "flags.case.c": operators.ForcedDeletion });
    });
    expect(table.server.actors.get(CAST.kestrel)?.flags).toEqual({ case: { c: 3 } });
  });

  it("whisper: delivered to its author and its recipients only (a GM not named never receives it); a GM added later is not a recipient of earlier records", async () => {
    await withCombat();
    const { gm, gm2, alice, bob } = table.clients;
    await alice.run(() => ChatMessage.create({ content: "For the Judge only", whisper: [gm.user.id] }));
    await gm.run(() => ChatMessage.create({ content: "GM record", whisper: [gm.user.id, gm2.user.id] }));
    await table.settle();
    const holds = (c: StrictClient, text: string) => c.run(() => game.messages.some((m) => m.content === text));
    expect([gm, gm2, alice, bob].map((c) => holds(c, "For the Judge only"))).toEqual([true, false, true, false]);
    expect(table.server.received(gm2)).not.toContain("For the Judge only");
    // A third GM joins the world now: the record was whispered before there was such a user.
    const late = table.join("gm00000000000003", "Late Judge", USER_ROLES.GAMEMASTER);
    await late.connect();
    await table.settle();
    expect([gm, gm2, late].map((c) => holds(c, "GM record"))).toEqual([true, true, false]);
    expect(table.server.received(late)).not.toContain("GM record");
  });

  it("activeGM: each client has its own view, updated by the socket event when a user connects or leaves, and a full GM is preferred to an Assistant", async () => {
    table = new StrictTable({ seed: 3, roles: { gm: USER_ROLES.ASSISTANT } });
    seatCast(table);
    const { gm, gm2, alice, bob } = table.clients;
    const views = () => [gm, gm2, alice, bob].map((c) => (c.connected ? c.run(() => game.users.activeGM?.id ?? null) : "off"));
    await gm.connect();
    await alice.connect();
    await bob.connect();
    await table.settle();
    expect(views()).toEqual([gm.user.id, "off", gm.user.id, gm.user.id]);
    // The full GM connects: its own view has itself at once (its id is higher, its role wins);
    // the others learn it from the server's event, in order on their sockets.
    await gm2.connect();
    expect(gm2.run(() => game.users.activeGM?.isSelf)).toBe(true);
    expect(views()).toEqual([gm.user.id, gm2.user.id, gm.user.id, gm.user.id]);
    await table.settle();
    expect(views()).toEqual([gm2.user.id, gm2.user.id, gm2.user.id, gm2.user.id]);
    expect(gm.run(() => game.users.activeGM?.isSelf)).toBe(false);
    // The full GM leaves: until the event arrives, Alice's view still names them.
    gm2.drop();
    expect(alice.run(() => game.users.activeGM?.id)).toBe(gm2.user.id);
    await table.settle();
    expect(views()).toEqual([gm.user.id, "off", gm.user.id, gm.user.id]);
    expect(alice.run(() => game.users.get(gm2.user.id)?.active)).toBe(false);
  });

  it("combatant: its actor's owner writes its system, flags, initiative and defeated, and creates (keepId) and deletes it; nothing else of it, and nobody else's", async () => {
    await withCombat();
    const { gm, alice, bob } = table.clients;
    const mine = () => combatOn(alice).combatants.get(kestrel);
    await alice.run(() => mine()?.update({ initiative: 14, defeated: false, "flags.case.note": "ready", "system.declaration.text": "Hold the line", "system.declaration.declared": true }));
    expect(serverCombat().combatants[0]).toMatchObject({ initiative: 14, defeated: false, flags: { case: { note: "ready" } }, system: { declaration: { text: "Hold the line", declared: true } } });
    await expect(alice.run(() => mine()?.update({ hidden: true }))).rejects.toThrow(/may not change hidden/);
    await expect(alice.run(() => mine()?.update({ name: "Someone else" }))).rejects.toThrow(/may not change name/);
    await expect(bob.run(() => combatOn(bob).combatants.get(kestrel)?.update({ initiative: 1 }))).rejects.toThrow(/does not own/);
    await expect(alice.run(() => combatOn(alice).combatants.get(gravel)?.update({ defeated: true }))).rejects.toThrow(/does not own/);
    // Alice adds a second Kestrel combatant with her own id, then removes it; Bob cannot remove Gravel.
    const made = await alice.run(() => combatOn(alice).createEmbeddedDocuments("Combatant", [{ _id: "kestrelsecond001", actorId: CAST.kestrel }], { keepId: true }));
    expect(made.map((c) => c.id)).toEqual(["kestrelsecond001"]);
    await expect(alice.run(() => combatOn(alice).createEmbeddedDocuments("Combatant", [{ actorId: CAST.wren }]))).rejects.toThrow(/may not add/);
    await alice.run(() => combatOn(alice).combatants.get("kestrelsecond001")?.delete());
    await expect(bob.run(() => combatOn(bob).combatants.get(gravel)?.delete())).rejects.toThrow(/may not remove/);
    await table.settle();
    expect(serverCombat().combatants.map((c) => c._id)).toEqual([kestrel, wren, gravel]);
    // The combat itself stays the GM's.
    await expect(alice.run(() => combatOn(alice).update({ "system.phase": "wrapUp" }))).rejects.toThrow(/may not change the combat/);
    await gm.run(() => combatOn(gm).update({ "system.phase": "initiative" }));
    expect(serverCombat().system.phase).toBe("initiative");
  });

  it("ownership: an owner may not change who owns their actor; a GM may", async () => {
    await withCombat();
    const { gm, alice } = table.clients;
    await expect(alice.run(() => actorOn(alice, CAST.kestrel).update({ [`ownership.${TABLE_USERS.bob.id}`]: OWNER }))).rejects.toThrow(/may not change who owns/);
    await expect(alice.run(() => actorOn(alice, CAST.kestrel).update({ ownership: { [TABLE_USERS.alice.id]: OWNER, [TABLE_USERS.bob.id]: OWNER } }))).rejects.toThrow(/may not change who owns/);
    expect(table.server.actors.get(CAST.kestrel)?.ownership).toEqual({ [TABLE_USERS.alice.id]: OWNER });
    await gm.run(() => actorOn(gm, CAST.kestrel).update({ [`ownership.${TABLE_USERS.bob.id}`]: OWNER }));
    expect(table.server.actors.get(CAST.kestrel)?.ownership).toEqual({ [TABLE_USERS.alice.id]: OWNER, [TABLE_USERS.bob.id]: OWNER });
  });

  it("system validated by the data models: a value the combat's, combatant's or character's model rejects refuses the write, a key it does not define is dropped", async () => {
    await withCombat();
    const { gm, alice } = table.clients;
    await expect(gm.run(() => combatOn(gm).update({ "system.phase": "lunch" }))).rejects.toThrow(/system\.phase: not one of/);
    await expect(alice.run(() => combatOn(alice).combatants.get(kestrel)?.update({ "system.declaration.actions": 99 }))).rejects.toThrow(/system\.declaration\.actions: must be at most/);
    await expect(alice.run(() => combatOn(alice).combatants.get(kestrel)?.update({ "system.defencesUsed": -1 }))).rejects.toThrow(/system\.defencesUsed/);
    expect(serverCombat().system.phase).toBe("declare");
    await alice.run(() => combatOn(alice).combatants.get(kestrel)?.update({ "system.madeUp": 5, "system.declaration.text": "ok" }));
    expect(serverCombat().combatants[0]?.system).not.toHaveProperty("madeUp");
    expect(serverCombat().combatants[0]?.system.declaration).toMatchObject({ text: "ok" });
    // A character's system goes through its model too (after its migrateData).
    await expect(alice.run(() => actorOn(alice, CAST.kestrel).update({ "system.karma.value": "lots" }))).rejects.toThrow(/system\.karma\.value: must be a finite number/);
    await alice.run(() => actorOn(alice, CAST.kestrel).update({ "system.karma.value": 12 }));
    expect(table.server.actors.get(CAST.kestrel)?.system.karma).toMatchObject({ value: 12 });
  });

  it("keepId: a message created with its own _id keeps it only with keepId; a taken or malformed id is refused", async () => {
    await withCombat();
    const { alice } = table.clients;
    const kept = await alice.run(() => ChatMessage.create({ _id: "mymessage0000001", content: "kept" }, { keepId: true }));
    const fresh = await alice.run(() => ChatMessage.create({ _id: "mymessage0000002", content: "fresh" }));
    expect(kept?.id).toBe("mymessage0000001");
    expect(fresh?.id).not.toBe("mymessage0000002");
    await expect(alice.run(() => ChatMessage.create({ _id: "mymessage0000001", content: "again" }, { keepId: true }))).rejects.toThrow(/already exists/);
    await expect(alice.run(() => ChatMessage.create({ _id: "short", content: "bad" }, { keepId: true }))).rejects.toThrow(/not a valid document id/);
  });

  it("messages: flags and speaker kept, ChatMessage.create and ChatMessage.getSpeaker as Foundry's, game.messages on every client that received it", async () => {
    await withCombat();
    const { gm, bob, alice } = table.clients;
    const speaker = alice.run(() => ChatMessage.getSpeaker({ actor: actorOn(alice, CAST.kestrel) as never }));
    expect(speaker).toEqual({ scene: null, actor: CAST.kestrel, token: null, alias: "Kestrel, the Unbreakable Sentinel of the Northern Reach" });
    expect(alice.run(() => ChatMessage.getSpeaker({ alias: "The Turn" }))).toEqual({ scene: null, actor: null, token: null, alias: "The Turn" });
    expect(alice.run(() => ChatMessage.getSpeaker())).toMatchObject({ alias: "Alice" });
    const made = await alice.run(() => ChatMessage.create({ content: "Hello", speaker, flags: { case: { mark: 7 } } } as never));
    await table.settle();
    for (const c of [gm, bob, alice]) {
      const held = c.run(() => game.messages.get(made?.id ?? ""));
      expect(held?.flags, c.user.name).toEqual({ case: { mark: 7 } });
      expect(held?.speaker, c.user.name).toEqual(speaker);
      expect(c.run(() => game.messages.contents.length)).toBe(c.messages.size);
    }
    await alice.run(() => made?.update({ "flags.case.-=mark": null, "flags.case.seen": true } as never));
    expect(table.server.messages.get(made?.id ?? "")?.flags).toEqual({ case: { seen: true } });
  });

  it("settings: every setting the system registers (the real registration) reads on every client with its value; one not registered throws; a client setting is each client's own", async () => {
    await withCombat();
    const { gm, alice } = table.clients;
    // The keys the real registration registers, counted on its own.
    const keys: string[] = [];
    vi.stubGlobal("game", { settings: { register: (ns: string, key: string) => keys.push(`${ns}.${key}`) } });
    registerSettings();
    installTableGlobals();
    expect(keys.length).toBeGreaterThan(15);
    expect([...table.server.registered.keys()].sort()).toEqual([...keys].sort());
    for (const id of keys) {
      const [ns, key] = id.split(".") as [string, string];
      for (const c of [gm, alice]) expect(() => c.run(() => game.settings.get(ns as "case", key as never)), id).not.toThrow();
    }
    expect(alice.run(() => game.settings.get("case", "karmaPoolDrawLimit"))).toBe(table.server.registered.get("case.karmaPoolDrawLimit")?.default);
    expect(() => alice.run(() => game.settings.get("case", "noSuchSetting" as never))).toThrow(/not a registered game setting/);
    await alice.run(() => game.settings.set("case", "lastDefence", "dodge"));
    expect(alice.run(() => game.settings.get("case", "lastDefence"))).toBe("dodge");
    expect(gm.run(() => game.settings.get("case", "lastDefence"))).not.toBe("dodge");
  });

  it("one module instance per client: each client (and each reload) runs its own copy of src/foundry, so two GMs' turn writes race as in the field instead of queueing on one shared lock map", async () => {
    table = new StrictTable({ seed: 3, roles: { gm: USER_ROLES.ASSISTANT } });
    seatCast(table);
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel]);
    const { gm, gm2, alice, bob } = table.clients;
    for (const c of [gm, alice, bob]) await c.connect();
    const before = gm.modules;
    expect(gm.modules.CASE_QUERIES).not.toBe(alice.modules.CASE_QUERIES);
    expect(gm.modules.foundryTurnDirectory).not.toBe(bob.modules.foundryTurnDirectory);
    // The Assistant GM's declare for Gravel: its combat write held at the server.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    table.server.gate = (client, write) => (client === gm && write.collection === "Combat" ? held : null);
    const first = gm.click(declareManyQuery, { combatId: COMBAT, declarations: [{ combatantId: gravel, declaration: { text: "Smash", actions: 1 } }] });
    await table.settle();
    // The full GM connects and is the active GM in its own view at once; its own step on the same combat is not queued behind the held one.
    await gm2.connect();
    expect(gm2.modules).not.toBe(before);
    expect(await gm2.click(declareManyQuery, { combatId: COMBAT, declarations: [{ combatantId: wren, declaration: { text: "Cover", actions: 1 } }] })).toMatchObject({ ok: true });
    expect(serverCombat().combatants[1]?.system.declaration).toMatchObject({ declared: true });
    expect(serverCombat().combatants[2]?.system.declaration).toMatchObject({ declared: false });
    release();
    await first;
    await table.settle();
    // A reload gets a new copy too.
    gm.drop();
    await gm.connect();
    expect(gm.modules).not.toBe(before);
  });
});
