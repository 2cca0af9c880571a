/**
 * The Judge's request card ("Roll Endurance against Incredible") on the strict table
 * (test/support/strict-table.ts): the GM posts it, each row's owner rolls from it, the active
 * GM rolls the die and writes the result, everything through JSON, the server checking who
 * may write what. Expected colours are read off the reference's Universal Table (§2).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// A player's own check (a `[[/case check]]` link) rolls through the sheet's path, tested in roll-score tests.
const ownRolls = vi.hoisted(() => [] as { score: string; intensity: number | null | undefined }[]);
vi.mock("../../../src/foundry/dice/entry-points", () => ({
  rollScore: (_actor: unknown, score: string, options: { intensity?: number | null }) => {
    ownRolls.push({ score, intensity: options.intensity });
    return Promise.resolve(null);
  },
}));
import { CAST, StrictTable, TABLE_USERS, installTableGlobals, seatCast } from "../../support/strict-table";
import { answerRollRequestQuery, createRequestCard } from "../../../src/foundry/roll-requests/gm-request";
import { askForRoll, rollCheckLink } from "../../../src/foundry/roll-requests/request-card";
import { readRollRequest, type RollRequest } from "../../../src/rules/index";
import { karmaLogOf } from "../../../src/foundry/actor-writes";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 11 });
  seatCast(table);
  await table.connectAll();
});

afterEach(async () => {
  // Let the table's sockets drain (connection notices, answers) before the globals go.
  await table.settle();
  vi.unstubAllGlobals();
});

/** The request as the server holds it. */
function request(id: string): RollRequest {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No request card ${id}.`);
  return readRollRequest(source.system.request);
}

/** The GM asks Kestrel (Alice's) and Wren (Bob's) for Endurance against Incredible (40). */
async function ask(): Promise<string> {
  const { gm } = table.clients;
  const card = await gm.run(() =>
    createRequestCard({
      score: "endurance",
      intensity: 40,
      label: null,
      subjects: [
        { actorUuid: `Actor.${CAST.kestrel}`, name: "Kestrel" },
        { actorUuid: `Actor.${CAST.wren}`, name: "Wren" },
      ],
    }),
  );
  await table.settle();
  if (!card.id) throw new Error("The request card has no id.");
  return card.id;
}

const answer = (messageId: string, rowKey: string, extra: Record<string, unknown> = {}) => ({ messageId, rowKey, cs: 0, reason: "", karma: 0, ...extra });

describe("request card", () => {
  it("request card: each owner rolls their own row over the wire, the GM rolls the die, and the results gather on the card", async () => {
    const { alice, bob } = table.clients;
    const id = await ask();
    expect(table.server.messages.get(id)?.author).toBe(TABLE_USERS.gm.id);
    // Endurance 100 is Unearthly: green from 16 (§2). Against Incredible (a lower rank) green succeeds.
    table.dice.push(20);
    expect(await alice.click(answerRollRequestQuery, answer(id, "0"))).toEqual({ ok: true, value: null });
    table.dice.push(10);
    expect(await bob.click(answerRollRequestQuery, answer(id, "1"))).toEqual({ ok: true, value: null });
    await table.settle();
    const rows = request(id).rows;
    expect(rows[0]?.result).toMatchObject({ die: 20, color: "green", success: true, value: 100, shift: 0 });
    expect(rows[1]?.result).toMatchObject({ die: 10, color: "white", success: false });
    // Both dice are Rolls the GM made, kept on the card.
    expect(table.rolled.map((r) => r.by)).toEqual([TABLE_USERS.gm.id, TABLE_USERS.gm.id]);
    expect((table.server.messages.get(id)?.rolls ?? []).map((r) => (JSON.parse(r) as { total: number }).total)).toEqual([20, 10]);
    expect(alice.notified).toEqual([]);
    expect(bob.notified).toEqual([]);
  });

  it("request card: an NPC's row is sealed: no player's copy of the card holds the NPC's score or shifts", async () => {
    const { gm, bob } = table.clients;
    const card = await gm.run(() =>
      createRequestCard({ score: "endurance.res", intensity: null, label: null, subjects: [{ actorUuid: `Actor.${CAST.kestrel}`, name: "Kestrel" }, { actorUuid: `Actor.${CAST.gravel}`, name: "Doctor Gravel" }] }),
    );
    await table.settle();
    table.dice.push(50, 50);
    expect(await gm.click(answerRollRequestQuery, answer(card.id ?? "", "1"))).toEqual({ ok: true, value: null });
    expect(await table.clients.alice.click(answerRollRequestQuery, answer(card.id ?? "", "0"))).toEqual({ ok: true, value: null });
    await table.settle();
    const rows = request(card.id ?? "").rows;
    expect(rows[1]?.result).toMatchObject({ die: 50, value: null, shift: null });
    expect(rows[0]?.result).toMatchObject({ die: 50, value: 100, shift: 0 });
    // Gravel's End (res) is 100 too: nothing Bob's client received about the card carries it.
    const seen = bob.received.filter((json) => json.includes(card.id ?? "")).map((json) => JSON.parse(json) as { system?: { request?: { rows?: { result?: { value?: unknown } | null }[] } } });
    expect(seen.length).toBeGreaterThan(0);
    for (const doc of seen) expect(doc.system?.request?.rows?.[1]?.result?.value ?? null).toBeNull();
  });

  it("request card: a player cannot roll another's row, a row is rolled once, and a die in the payload is never read", async () => {
    const { alice, bob } = table.clients;
    const id = await ask();
    expect(await bob.click(answerRollRequestQuery, answer(id, "0"))).toMatchObject({ ok: false, reason: "forbidden" });
    table.dice.push(90);
    expect(await alice.click(answerRollRequestQuery, answer(id, "0", { die: 100, roll: { total: 1 } }))).toEqual({ ok: true, value: null });
    expect(request(id).rows[0]?.result?.die).toBe(90);
    expect(await alice.click(answerRollRequestQuery, answer(id, "0"))).toMatchObject({ ok: false, reason: "stale" });
    expect(request(id).rows[0]?.result?.die).toBe(90);
    expect(request(id).rows[1]?.result).toBeNull();
    // Malformed: a shift past the dialog's bounds, Karma under the minimum, a row that does not exist.
    expect(await alice.click(answerRollRequestQuery, answer(id, "1", { cs: 99 }))).toMatchObject({ ok: false, reason: "malformed" });
    expect(await alice.click(answerRollRequestQuery, answer(id, "0", { karma: 5 }))).toMatchObject({ ok: false, reason: "malformed" });
    expect(await alice.click(answerRollRequestQuery, answer(id, "7"))).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("request card: Karma declared is spent once by the GM, logged, and added to the roll", async () => {
    const { alice } = table.clients;
    const id = await ask();
    table.dice.push(10);
    expect(await alice.click(answerRollRequestQuery, answer(id, "0", { karma: 10 }))).toEqual({ ok: true, value: null });
    await table.settle();
    // 10 + 10 Karma = 20: green on Unearthly (green from 16).
    expect(request(id).rows[0]?.result).toMatchObject({ die: 10, karma: 10, color: "green", success: true });
    const kestrel = table.server.actors.get(CAST.kestrel);
    expect((kestrel?.system as { karma: { value: number } }).karma.value).toBe(20);
    expect(karmaLogOf({ system: kestrel?.system })).toEqual([expect.objectContaining({ kind: "spend", amount: 10, balanceAfter: 20 })]);
    // More Karma than the pool holds is refused, and nothing is rolled or spent.
    const rolled = table.rolled.length;
    expect(await table.clients.bob.click(answerRollRequestQuery, answer(id, "1", { karma: 500 }))).toMatchObject({ ok: false, reason: "malformed" });
    expect(table.rolled.length).toBe(rolled);
  });

  it("request card: a forged Karma ledger entry skips no spend (the request's id is the player's to choose, the GM's note is not)", async () => {
    const { alice } = table.clients;
    const id = await ask();
    const requestId = "forgedreq0000001";
    // Alice writes, on her own hero (hers to write), a ledger entry for the request id she is
    // about to give her request (keepId), as if its Karma were already spent.
    const hero = alice.actors.get(CAST.kestrel);
    if (!hero) throw new Error("Alice's client holds no Kestrel.");
    await alice.run(() => hero.update({ "flags.case.ledger": [{ id: requestId, field: "system.karma.value", before: 30, after: 30 }] }));
    await table.settle();
    expect(JSON.stringify(table.server.actors.get(CAST.kestrel)?.flags)).toContain(requestId);
    table.dice.push(10);
    const whisper = [TABLE_USERS.gm.id, TABLE_USERS.gm2.id];
    await alice.run(async () => {
      await ChatMessage.implementation.create({ _id: requestId, type: "request", whisper, content: "", system: { query: answerRollRequestQuery.name, payload: answer(id, "0", { karma: 10 }), answer: null } } as never, { keepId: true });
    });
    await table.settle();
    expect(table.server.applied.some((w) => w.write.op === "update" && w.write.id === requestId && "system.answer" in w.write.data)).toBe(true);
    expect(request(id).rows[0]?.result).toMatchObject({ karma: 10 });
    // The Karma is spent all the same: 30 − 10.
    const kestrel = table.server.actors.get(CAST.kestrel);
    expect((kestrel?.system as { karma: { value: number } }).karma.value).toBe(20);
    // The same request id again (answered and deleted, so Alice may give it to a new request), on
    // a new card, once the GM has tidied the claim of the first (a reload does): its Karma is
    // spent too, not taken for the first spend.
    const second = await ask();
    table.clients.gm.drop();
    await table.clients.gm.connect();
    await table.settle();
    expect([...table.server.messages.values()].filter((m) => m.type === "requestClaim")).toEqual([]);
    table.dice.push(10);
    await alice.run(async () => {
      await ChatMessage.implementation.create({ _id: requestId, type: "request", whisper, content: "", system: { query: answerRollRequestQuery.name, payload: answer(second, "0", { karma: 10 }), answer: null } } as never, { keepId: true });
    });
    await table.settle();
    expect(request(second).rows[0]?.result).toMatchObject({ karma: 10 });
    expect((table.server.actors.get(CAST.kestrel)?.system as { karma: { value: number } }).karma.value).toBe(10);
  });

  it("request card: a card a player wrote counts for nothing", async () => {
    const { alice } = table.clients;
    const forged = await alice.run(() =>
      ChatMessage.implementation.create({
        type: "rollRequest",
        content: "",
        system: { request: { version: 1, score: "endurance", intensity: null, label: null, rows: [{ key: "0", actorUuid: `Actor.${CAST.kestrel}`, name: "Kestrel", result: null }] }, requests: [] },
      } as never),
    );
    await table.settle();
    expect(await alice.click(answerRollRequestQuery, answer(forged?.id ?? "", "0"))).toMatchObject({ ok: false, reason: "forbidden" });
    expect(table.rolled).toEqual([]);
  });

  it("request card: only a GM posts one", async () => {
    const { alice } = table.clients;
    await expect(alice.run(() => createRequestCard({ score: "endurance", intensity: null, label: null, subjects: [{ actorUuid: `Actor.${CAST.kestrel}`, name: "Kestrel" }] }))).rejects.toThrow();
    expect([...table.server.messages.values()].filter((m) => m.type === "rollRequest")).toEqual([]);
  });

  it("rules errors localised: a row the card does not have is refused in the asking player's language, the row filled in", async () => {
    const { gm, alice } = table.clients;
    const id = await ask();
    alice.lang.set("CASE.RulesError.requestNoRow", "Diese Anfrage hat keine Zeile {key}.");
    expect(await alice.ask(answerRollRequestQuery, answer(id, "7"))).toBeUndefined();
    expect(alice.notified).toEqual([{ level: "error", text: "The request was not understood, so nothing was changed: Diese Anfrage hat keine Zeile 7." }]);
    expect(gm.notified).toEqual([]);
  });

  it("request card: the API asks the characters it names (GM only), and a bad request is refused with a message, nothing posted", async () => {
    const { gm, alice } = table.clients;
    const card = await gm.run(() => askForRoll({ score: "endurance.res", intensity: 30, label: "Brace for the blast", uuids: [`Actor.${CAST.kestrel}`, `Actor.${CAST.gravel}`] }));
    await table.settle();
    expect(card).not.toBeNull();
    const asked = request(card?.id ?? "");
    expect(asked).toMatchObject({ score: "endurance.res", intensity: 30, label: "Brace for the blast" });
    expect(asked.rows.map((r) => r.actorUuid)).toEqual([`Actor.${CAST.kestrel}`, `Actor.${CAST.gravel}`]);
    const before = table.server.messages.size;
    await expect(alice.run(() => askForRoll({ score: "endurance", uuids: [`Actor.${CAST.kestrel}`] }))).resolves.toBeNull();
    await expect(gm.run(() => askForRoll({ score: "luck", uuids: [`Actor.${CAST.kestrel}`] }))).resolves.toBeNull();
    await expect(gm.run(() => askForRoll({ score: "endurance", intensity: -3, uuids: [`Actor.${CAST.kestrel}`] }))).resolves.toBeNull();
    await expect(gm.run(() => askForRoll({ score: "endurance", uuids: ["Actor.nobody"] }))).resolves.toBeNull();
    expect(table.server.messages.size).toBe(before);
    expect(alice.notified.map((n) => n.level)).toEqual(["error"]);
    expect(gm.notified.map((n) => n.level)).toEqual(["error", "error", "error"]);
  });

  it("request card: a check link clicked by a player rolls their own character, the intensity set; with no character of theirs, they are told", async () => {
    const { alice } = table.clients;
    await alice.run(() => rollCheckLink("endurance", 40, null));
    // No token selected and no assigned character: nothing rolled, a warning.
    expect(ownRolls).toEqual([]);
    expect(alice.notified.map((n) => n.level)).toEqual(["warn"]);
    // With her character assigned (core's User#character), Alice rolls Kestrel's Endurance against Incredible herself.
    Object.assign(alice.user, { character: alice.actors.get(CAST.kestrel) });
    await alice.run(() => rollCheckLink("endurance", 40, null));
    expect(ownRolls).toEqual([{ score: "endurance", intensity: 40 }]);
    expect(table.server.messages.size).toBe(0);
  });
});
