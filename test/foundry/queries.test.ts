import { describe, expect, it, vi } from "vitest";
import { QueryRefusal, QueryRouter, REFUSAL_REASONS, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryEnvironment } from "../../src/foundry/queries";
import { readFileSync } from "node:fs";
import { flattenKeys } from "../support/lang";

const gm: AskingUser = { id: "gm0000000000000a", isGM: true, active: true, name: "Judge" };
const alice: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
const bob: AskingUser = { id: "bob0000000000000", isGM: false, active: false, name: "Bob" };
const users = new Map([gm, alice, bob].map((u) => [u.id, u]));

/** A counter a query increments; owned by alice only. Idempotent per request id. */
function counterQuery(state: { count: number; seen: Set<string>; order: string[] }, delay = 0) {
  return defineQuery({
    name: "bump",
    parse(raw: unknown) {
      const r = payloadRecord(raw);
      return { requestId: stringField(r, "requestId"), by: intField(r, "by", 1, 10) };
    },
    lockKey: () => "counter",
    authorize(user: AskingUser) {
      if (!user.isGM && user.id !== alice.id) throw new QueryRefusal("forbidden", "not your counter");
    },
    async handle(_user: AskingUser, p: { requestId: string; by: number }) {
      state.order.push(`start ${p.requestId}`);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      if (!state.seen.has(p.requestId)) {
        state.seen.add(p.requestId);
        state.count += p.by;
      }
      state.order.push(`end ${p.requestId}`);
      return state.count;
    },
  });
}

function gmEnv(): QueryEnvironment {
  return { self: () => gm, user: (id) => users.get(id), activeGM: () => ({ id: gm.id, isSelf: true, query: () => Promise.reject(new Error("never over the wire")) }) };
}

describe("the GM side of a query", () => {
  it("applies a well-formed request from a connected owner", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const handler = new QueryRouter(gmEnv()).handlerFor(counterQuery(state));
    expect(await handler({ userId: alice.id, payload: { requestId: "r1", by: 2 } })).toEqual({ ok: true, value: 2 });
    expect(state.count).toBe(2);
  });

  it.each([
    ["not an object", "nope", "malformed"],
    ["no user", { payload: { requestId: "r", by: 1 } }, "malformed"],
    ["an unknown user", { userId: "nobody0000000000", payload: { requestId: "r", by: 1 } }, "unknownUser"],
    ["a user who is not connected", { userId: bob.id, payload: { requestId: "r", by: 1 } }, "inactiveUser"],
    ["the handling GM itself, over the wire", { userId: gm.id, payload: { requestId: "r", by: 1 } }, "spoofed"],
    ["a payload that is not an object", { userId: alice.id, payload: 7 }, "malformed"],
    ["a number out of range", { userId: alice.id, payload: { requestId: "r", by: 11 } }, "malformed"],
    ["a missing field", { userId: alice.id, payload: { by: 1 } }, "malformed"],
  ])("refuses %s and changes nothing", async (_what, raw, reason) => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const result = await new QueryRouter(gmEnv()).handlerFor(counterQuery(state))(raw);
    expect(result).toMatchObject({ ok: false, reason });
    expect(state.count).toBe(0);
  });

  it("refuses a user the query does not authorise", async () => {
    const carol: AskingUser = { id: "carol00000000000", isGM: false, active: true, name: "Carol" };
    const env = gmEnv();
    env.user = (id) => (id === carol.id ? carol : users.get(id));
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const result = await new QueryRouter(env).handlerFor(counterQuery(state))({ userId: carol.id, payload: { requestId: "r", by: 1 } });
    expect(result).toEqual({ ok: false, reason: "forbidden", message: "not your counter" });
    expect(state.count).toBe(0);
  });

  it("a player's client does not handle requests", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const env: QueryEnvironment = { ...gmEnv(), self: () => alice };
    const result = await new QueryRouter(env).handlerFor(counterQuery(state))({ userId: alice.id, payload: { requestId: "r", by: 1 } });
    expect(result).toMatchObject({ ok: false, reason: "notGM" });
  });

  it("handles simultaneous requests on one key one after the other", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const handler = new QueryRouter(gmEnv()).handlerFor(counterQuery(state, 5));
    const results = await Promise.all([
      handler({ userId: alice.id, payload: { requestId: "a", by: 1 } }),
      handler({ userId: alice.id, payload: { requestId: "b", by: 2 } }),
      handler({ userId: alice.id, payload: { requestId: "a", by: 1 } }),
    ]);
    expect(state.order).toEqual(["start a", "end a", "start b", "end b", "start a", "end a"]);
    expect(results.map((r) => r.ok && r.value)).toEqual([1, 3, 3]);
  });

  it("a handler's own failure comes back as a refusal, not a thrown error", async () => {
    const broken = defineQuery({
      name: "broken",
      parse: (raw: unknown) => raw,
      lockKey: () => "k",
      authorize: () => undefined,
      handle: () => Promise.reject(new Error("boom")),
    });
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await new QueryRouter(gmEnv()).handlerFor(broken)({ userId: alice.id, payload: {} })).toEqual({ ok: false, reason: "failed", message: "boom" });
    spy.mockRestore();
  });
});

describe("the asking side", () => {
  it("with no GM connected, says so and sends nothing", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const env: QueryEnvironment = { self: () => alice, user: (id) => users.get(id), activeGM: () => null };
    expect(await new QueryRouter(env).request(counterQuery(state), { requestId: "r", by: 1 })).toMatchObject({ ok: false, reason: "noGM" });
    expect(state.count).toBe(0);
  });

  it("when the clicker is the active GM, runs it in place as that GM", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    expect(await new QueryRouter(gmEnv()).request(counterQuery(state), { requestId: "r", by: 4 })).toEqual({ ok: true, value: 4 });
  });

  it("a player's request reaches the GM's handler as that player, end to end", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const query = counterQuery(state);
    const gmSide = new QueryRouter(gmEnv()).handlerFor(query);
    const sent: { name: string; data: unknown }[] = [];
    const env: QueryEnvironment = {
      self: () => alice,
      user: (id) => users.get(id),
      activeGM: () => ({ id: gm.id, isSelf: false, query: (name, data) => (sent.push({ name, data }), gmSide(data)) }),
    };
    expect(await new QueryRouter(env).request(query, { requestId: "r", by: 3 })).toEqual({ ok: true, value: 3 });
    expect(sent).toEqual([{ name: "case.bump", data: { userId: alice.id, payload: { requestId: "r", by: 3 } } }]);
  });

  it("a time-out or a garbled answer is a refusal, never a throw", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const timeout: QueryEnvironment = { self: () => alice, user: (id) => users.get(id), activeGM: () => ({ id: gm.id, isSelf: false, query: () => Promise.reject(new Error("Query timed out")) }) };
    expect(await new QueryRouter(timeout).request(counterQuery(state), {})).toMatchObject({ ok: false, reason: "timeout" });
    const garbled: QueryEnvironment = { ...timeout, activeGM: () => ({ id: gm.id, isSelf: false, query: () => Promise.resolve(42) }) };
    expect(await new QueryRouter(garbled).request(counterQuery(state), {})).toMatchObject({ ok: false, reason: "failed" });
  });

  it("every refusal reason has a localised message", () => {
    const known = flattenKeys(JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, unknown>);
    expect(REFUSAL_REASONS.filter((r) => !known.has(`CASE.Query.Refused.${r}`))).toEqual([]);
  });
});
