/**
 * A refusal's rules error on the wire (src/foundry/requests/router.ts): it travels as its key
 * and data, and the asking client reads it back as such; anything else in its place is dropped,
 * never shown as text. The same for the adapter's own refusals (src/foundry/core/refusal-texts.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { QueryRefusal, QueryRouter, defineQuery, readQueryResult, type QueryEnvironment } from "../../../src/foundry/requests/router";
import { ExchangeError } from "../../../src/rules/index";

describe("a refusal's rules error on the wire", () => {
  it("rules errors localised: a refusal made from a rules error carries its key and data, and the answer keeps them through JSON; one made from any other error says \"see the GM's console\"", () => {
    const refusal = QueryRefusal.of("malformed", new ExchangeError("invalid", "exchangeNoSuchTarget", { key: "7" }));
    expect(refusal.error).toEqual({ key: "exchangeNoSuchTarget", data: { key: "7" } });
    // Its English stays as the message, for the logs.
    expect(refusal.message).toBe('This attack has no target "7".');
    // Any other error is not the asker's to read in the GM's English: "see the GM's console", where it is logged.
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(QueryRefusal.of("failed", new Error("lost connection")).error).toEqual({ kind: "refusal", key: "unexpected", data: {} });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    const wire = JSON.parse(JSON.stringify({ ok: false, reason: "malformed", message: refusal.message, error: refusal.error })) as unknown;
    expect(readQueryResult(wire)).toEqual({ ok: false, reason: "malformed", message: 'This attack has no target "7".', error: { key: "exchangeNoSuchTarget", data: { key: "7" } } });
  });

  it("rules errors localised: a forged or malformed error on an answer reads as an answer not understood, never as text", () => {
    const answer = (error: unknown) => readQueryResult({ ok: false, reason: "forbidden", message: "m", error });
    const unreadable = { ok: false, reason: "forbidden", message: "m", error: { kind: "refusal", key: "unreadable", data: {} } };
    for (const forged of ["<b>free text</b>", 7, { key: "notAKey", data: {} }, { key: "exchangeNoSuchTarget", data: "7" }, { key: "exchangeNoSuchTarget", data: [] }, { key: "toString", data: {} }]) {
      expect(answer(forged)).toEqual(unreadable);
    }
    // A value of its text that is not text or a finite number, or is missing, would show as "{key}": not understood either.
    expect(answer({ key: "exchangeNoSuchTarget", data: { key: { html: "<img>" } } })).toEqual(unreadable);
    expect(answer({ key: "exchangeNoSuchTarget", data: {} })).toEqual(unreadable);
    // No error at all is no error.
    expect(readQueryResult({ ok: false, reason: "stale", message: "m" })).toEqual({ ok: false, reason: "stale", message: "m" });
    // A message that is not text reads as none; a huge one is cut.
    expect(readQueryResult({ ok: false, reason: "stale", message: { html: "<img>" } })).toEqual({ ok: false, reason: "stale", message: "" });
    const huge = readQueryResult({ ok: false, reason: "forbidden", message: "z".repeat(1_000_000) });
    expect(huge?.ok === false && huge.message.length <= 1000).toBe(true);
  });

  it("rules errors localised: a forged error's field must name a field text, its extra values are left out, and a long value is cut", () => {
    const answer = (error: unknown) => readQueryResult({ ok: false, reason: "malformed", message: "m", error });
    // "turnNotCount": "{field} must be a whole number of at least {min}, got {got}."
    expect(answer({ key: "turnNotCount", data: { field: "notAField", min: 0, got: "x" } })).toMatchObject({ error: { kind: "refusal", key: "unreadable" } });
    expect(answer({ key: "turnNotCount", data: { field: "turnForce", min: 0, got: "x", html: "<img>" } })).toMatchObject({ error: { key: "turnNotCount", data: { field: "turnForce", min: 0, got: "x" } } });
    const long = answer({ key: "turnNotCount", data: { field: "turnForce", min: 0, got: "y".repeat(100_000) } });
    const got = long?.ok === false ? long.error?.data.got : undefined;
    expect(typeof got === "string" && got.length < 400 && got.startsWith("yyy")).toBe(true);
    expect(answer({ key: "turnNotCount", data: { field: "turnForce", min: Number.POSITIVE_INFINITY, got: "x" } })).toMatchObject({ error: { kind: "refusal", key: "unreadable" } });
  });
});

describe("an adapter's own refusal on the wire", () => {
  const answer = (error: unknown) => readQueryResult({ ok: false, reason: "forbidden", message: "m", error });

  it("refusals localised: a refusal of the adapter's own carries its key and values, and the answer keeps them through JSON", () => {
    const refusal = QueryRefusal.keyed("forbidden", "notYourCombatant", { name: "Kestrel" });
    expect(refusal.error).toEqual({ kind: "refusal", key: "notYourCombatant", data: { name: "Kestrel" } });
    const wire = JSON.parse(JSON.stringify({ ok: false, reason: "forbidden", message: refusal.message, error: refusal.error })) as unknown;
    expect(readQueryResult(wire)).toEqual({ ok: false, reason: "forbidden", message: refusal.message, error: { kind: "refusal", key: "notYourCombatant", data: { name: "Kestrel" } } });
  });

  it("refusals localised: a forged refusal key from the wire is dropped, as is a key of the wrong kind; values its text lacks are left out", () => {
    for (const forged of [{ kind: "refusal", key: "notAKey", data: {} }, { kind: "refusal", key: "toString", data: {} }, { kind: "refusal", key: "exchangeNoSuchTarget", data: {} }, { key: "judgeRunsTurn", data: {} }, { kind: "other", key: "judgeRunsTurn", data: {} }, { kind: "refusal", key: "busy", data: { name: "Wren" } }]) {
      expect(answer(forged)).toEqual({ ok: false, reason: "forbidden", message: "m", error: { kind: "refusal", key: "unreadable", data: {} } });
    }
    expect(answer({ kind: "refusal", key: "notYourCombatant", data: { name: "Wren", html: "<img>" } })).toEqual({ ok: false, reason: "forbidden", message: "m", error: { kind: "refusal", key: "notYourCombatant", data: { name: "Wren" } } });
  });

  it("refusals localised: the asking client's own refusals (no GM, an answer not understood) name their text, never English", async () => {
    const env = (connected: boolean, reply: unknown): QueryEnvironment => ({
      self: () => ({ id: "alice00000000000", isGM: false, active: true, name: "Alice" }),
      user: () => undefined,
      isActiveGM: () => false,
      gmConnected: () => connected,
      post: () => Promise.resolve("req0000000000001"),
      answer: () => Promise.resolve(reply),
      reply: () => Promise.resolve(),
      newId: () => "local",
      claims: () => [],
      claim: () => Promise.resolve(),
      finishClaim: () => Promise.resolve(),
    });
    const query = defineQuery({ name: "q", parse: (raw: unknown) => raw, lockKeys: () => [], authorize: () => undefined, handle: () => Promise.resolve(null) });
    expect(await new QueryRouter(env(false, null), null).request(query, {})).toMatchObject({ ok: false, reason: "noGM", error: { kind: "refusal", key: "noGM", data: {} } });
    expect(await new QueryRouter(env(true, { ok: "maybe" }), null).request(query, {})).toMatchObject({ ok: false, reason: "failed", error: { kind: "refusal", key: "unreadable", data: {} } });
  });

  it("refusals localised: a request the server would not take is said as not posted, never in the server's English", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const env: QueryEnvironment = {
      self: () => ({ id: "alice00000000000", isGM: false, active: true, name: "Alice" }),
      user: () => undefined,
      isActiveGM: () => false,
      gmConnected: () => true,
      post: () => Promise.reject(new Error("User Alice lacks permission to create ChatMessage")),
      answer: () => Promise.resolve(null),
      reply: () => Promise.resolve(),
      newId: () => "local",
      claims: () => [],
      claim: () => Promise.resolve(),
      finishClaim: () => Promise.resolve(),
    };
    const query = defineQuery({ name: "q", parse: (raw: unknown) => raw, lockKeys: () => [], authorize: () => undefined, handle: () => Promise.resolve(null) });
    const result = await new QueryRouter(env, null).request(query, {});
    expect(result).toMatchObject({ ok: false, reason: "failed", error: { kind: "refusal", key: "notPosted", data: {} } });
    expect(JSON.stringify(result)).not.toContain("permission");
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
