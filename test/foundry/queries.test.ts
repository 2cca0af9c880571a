import { describe, expect, it, vi } from "vitest";
import { MAX_REQUESTS_PER_USER, QueryRefusal, QueryRouter, REFUSAL_REASONS, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryEnvironment } from "../../src/foundry/requests/router";
import { oneGMClaims } from "../support/gm-router";
import { LockTable } from "../../src/foundry/requests/locks";
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
    lockKeys: () => ["counter"],
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

/** The active GM's environment; `replies` records what it writes on requests (through JSON, as the server stores it). */
function gmEnv(replies: { id: string; answer: unknown }[] = []): QueryEnvironment {
  let n = 0;
  return {
    self: () => gm,
    user: (id) => users.get(id),
    isActiveGM: () => true,
    gmConnected: () => true,
    post: () => Promise.reject(new Error("the GM posts nothing")),
    answer: () => Promise.reject(new Error("the GM waits for nothing")),
    reply: (id, answer) => (replies.push({ id, answer: JSON.parse(JSON.stringify(answer)) as unknown }), Promise.resolve()),
    newId: () => `local${String(++n)}`,
    ...oneGMClaims(),
  };
}

function record(authorId: string, payload: unknown, id = "req0000000000001", query = "bump") {
  return { id, authorId, query, payload, answered: false };
}

describe("the GM side of a request", () => {
  it("applies a well-formed request from its server-stamped author, and writes the answer on the request", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const replies: { id: string; answer: unknown }[] = [];
    const router = new QueryRouter(gmEnv(replies), null);
    router.register(counterQuery(state));
    expect(await router.receive(record(alice.id, { requestId: "r1", by: 2 }))).toEqual({ ok: true, value: 2 });
    expect(state.count).toBe(2);
    expect(replies).toEqual([{ id: "req0000000000001", answer: { ok: true, value: 2 } }]);
  });

  it.each([
    ["an unknown user", record("nobody0000000000", { requestId: "r", by: 1 }), "unknownUser"],
    ["an unknown query", record(alice.id, { requestId: "r", by: 1 }, "req0000000000001", "drain"), "unknownQuery"],
    ["a payload that is not an object", record(alice.id, 7), "malformed"],
    ["a number out of range", record(alice.id, { requestId: "r", by: 11 }), "malformed"],
    ["a missing field", record(alice.id, { by: 1 }), "malformed"],
  ])("refuses %s and changes nothing", async (_what, raw, reason) => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const router = new QueryRouter(gmEnv(), null);
    router.register(counterQuery(state));
    expect(await router.receive(raw)).toMatchObject({ ok: false, reason });
    expect(state.count).toBe(0);
  });

  it("refuses a user the query does not authorise", async () => {
    const carol: AskingUser = { id: "carol00000000000", isGM: false, active: true, name: "Carol" };
    const env = gmEnv();
    env.user = (id) => (id === carol.id ? carol : users.get(id));
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const router = new QueryRouter(env, null);
    router.register(counterQuery(state));
    expect(await router.receive(record(carol.id, { requestId: "r", by: 1 }))).toEqual({ ok: false, reason: "forbidden", message: "not your counter" });
    expect(state.count).toBe(0);
  });

  it("only the active GM handles a request; an answered request is never handled again", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const replies: { id: string; answer: unknown }[] = [];
    const other = new QueryRouter({ ...gmEnv(replies), isActiveGM: () => false }, null);
    other.register(counterQuery(state));
    expect(await other.receive(record(alice.id, { requestId: "r", by: 1 }))).toBeNull();
    const active = new QueryRouter(gmEnv(replies), null);
    active.register(counterQuery(state));
    expect(await active.receive({ ...record(alice.id, { requestId: "r", by: 1 }), answered: true })).toBeNull();
    expect(state.count).toBe(0);
    expect(replies).toEqual([]);
  });

  it("the same request seen twice at once (the hook and a take-over) is handled once", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const router = new QueryRouter(gmEnv(), null);
    router.register(counterQuery(state, 5));
    const [a, b] = await Promise.all([router.receive(record(alice.id, { requestId: "x", by: 1 })), router.receive(record(alice.id, { requestId: "y", by: 1 }))]);
    expect(a).toEqual({ ok: true, value: 1 });
    expect(b).toBeNull();
    expect(state.order).toEqual(["start x", "end x"]);
  });

  it("handles simultaneous requests on one lock one after the other", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const router = new QueryRouter(gmEnv(), null);
    router.register(counterQuery(state, 5));
    const results = await Promise.all([
      router.receive(record(alice.id, { requestId: "a", by: 1 }, "req000000000000a")),
      router.receive(record(alice.id, { requestId: "b", by: 2 }, "req000000000000b")),
      router.receive(record(alice.id, { requestId: "a", by: 1 }, "req000000000000c")),
    ]);
    expect(state.order).toEqual(["start a", "end a", "start b", "end b", "start a", "end a"]);
    expect(results.map((r) => r?.ok === true && r.value)).toEqual([1, 3, 3]);
  });

  it(`caps each user's requests in flight at ${MAX_REQUESTS_PER_USER}: more are refused as busy`, async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const router = new QueryRouter(gmEnv(), null);
    router.register(counterQuery(state, 5));
    const results = await Promise.all(Array.from({ length: MAX_REQUESTS_PER_USER + 3 }, (_, i) => router.receive(record(alice.id, { requestId: `r${i}`, by: 1 }, `req${String(i).padStart(13, "0")}`))));
    expect(results.filter((r) => r?.ok === false && r.reason === "busy")).toHaveLength(3);
    expect(state.count).toBe(MAX_REQUESTS_PER_USER);
    // Once they are done, the user may ask again.
    expect(await router.receive(record(alice.id, { requestId: "later", by: 1 }, "req9999999999999"))).toMatchObject({ ok: true });
  });

  it("a handler's own failure comes back as a refusal, not a thrown error (the asker reads \"see the GM's console\", never its English)", async () => {
    const broken = defineQuery({
      name: "broken",
      parse: (raw: unknown) => raw,
      lockKeys: () => ["k"],
      authorize: () => undefined,
      handle: () => Promise.reject(new Error("boom")),
    });
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const router = new QueryRouter(gmEnv(), null);
    router.register(broken);
    expect(await router.receive(record(alice.id, {}, "req0000000000001", "broken"))).toEqual({ ok: false, reason: "failed", message: "boom", error: { kind: "refusal", key: "unexpected", data: {} } });
    spy.mockRestore();
  });

  it("a handler that never settles frees its lock after the timeout; the next request goes on", async () => {
    const hang = defineQuery({ name: "hang", parse: (raw: unknown) => raw, lockKeys: () => ["k"], authorize: () => undefined, handle: () => new Promise<null>(() => undefined) });
    const quick = defineQuery({ name: "quick", parse: (raw: unknown) => raw, lockKeys: () => ["k"], authorize: () => undefined, handle: () => Promise.resolve(1) });
    const router = new QueryRouter(gmEnv(), null, new LockTable(30));
    router.register(hang);
    router.register(quick);
    const [hung, next] = await Promise.all([router.receive(record(alice.id, {}, "req0000000000001", "hang")), router.receive(record(alice.id, {}, "req0000000000002", "quick"))]);
    expect(hung).toMatchObject({ ok: false, reason: "timeout" });
    expect(next).toEqual({ ok: true, value: 1 });
  });
});

describe("the asking side", () => {
  function playerEnv(overrides: Partial<QueryEnvironment>): QueryEnvironment {
    return { ...gmEnv(), self: () => alice, isActiveGM: () => false, ...overrides };
  }

  it("with no GM connected, says so and posts nothing", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const posted: unknown[] = [];
    const env = playerEnv({ gmConnected: () => false, post: (q, p) => (posted.push([q, p]), Promise.resolve("x")) });
    expect(await new QueryRouter(env, null).request(counterQuery(state), { requestId: "r", by: 1 })).toMatchObject({ ok: false, reason: "noGM" });
    expect(posted).toEqual([]);
  });

  it("when the clicker is the active GM, runs it in place as that GM", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    expect(await new QueryRouter(gmEnv(), null).request(counterQuery(state), { requestId: "r", by: 4 })).toEqual({ ok: true, value: 4 });
  });

  it("a player's request is posted, and the answer read back through JSON (an answer with no value is still a success)", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const env = playerEnv({ post: () => Promise.resolve("req0000000000001"), answer: () => Promise.resolve(JSON.parse(JSON.stringify({ ok: true, value: undefined })) as unknown) });
    expect(await new QueryRouter(env, null).request(counterQuery(state), { requestId: "r", by: 3 })).toEqual({ ok: true, value: null });
  });

  it("a time-out says the request may still be applied; a garbled answer is a refusal, never a throw", async () => {
    const state = { count: 0, seen: new Set<string>(), order: [] as string[] };
    const timeout = playerEnv({ post: () => Promise.resolve("req0000000000001"), answer: () => Promise.reject(new Error("No answer")) });
    expect(await new QueryRouter(timeout, null).request(counterQuery(state), {})).toMatchObject({ ok: false, reason: "timeout" });
    const garbled = playerEnv({ post: () => Promise.resolve("req0000000000001"), answer: () => Promise.resolve(42) });
    expect(await new QueryRouter(garbled, null).request(counterQuery(state), {})).toMatchObject({ ok: false, reason: "failed" });
    const lang = JSON.parse(readFileSync("lang/en.json", "utf8")) as { CASE: { Query: { Refused: Record<string, string> } } };
    expect(lang.CASE.Query.Refused.timeout).toMatch(/may still be applied/);
  });

  it("every refusal reason has a localised message", () => {
    const known = flattenKeys(JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, unknown>);
    expect(REFUSAL_REASONS.filter((r) => !known.has(`CASE.Query.Refused.${r}`))).toEqual([]);
  });
});
