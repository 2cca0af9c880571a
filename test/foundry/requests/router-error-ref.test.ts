/**
 * A refusal's rules error on the wire (src/foundry/requests/router.ts): it travels as its key
 * and data, and the asking client reads it back as such; anything else in its place is dropped,
 * never shown as text.
 */
import { describe, expect, it } from "vitest";
import { QueryRefusal, readQueryResult } from "../../../src/foundry/requests/router";
import { ExchangeError } from "../../../src/rules/index";

describe("a refusal's rules error on the wire", () => {
  it("rules errors localised: a refusal made from a rules error carries its key and data, and the answer keeps them through JSON", () => {
    const refusal = QueryRefusal.of("malformed", new ExchangeError("invalid", "exchangeNoSuchTarget", { key: "7" }));
    expect(refusal.error).toEqual({ key: "exchangeNoSuchTarget", data: { key: "7" } });
    // Its English stays as the message, for the logs.
    expect(refusal.message).toBe('This attack has no target "7".');
    expect(QueryRefusal.of("failed", new Error("lost connection")).error).toBeNull();
    const wire = JSON.parse(JSON.stringify({ ok: false, reason: "malformed", message: refusal.message, error: refusal.error })) as unknown;
    expect(readQueryResult(wire)).toEqual({ ok: false, reason: "malformed", message: 'This attack has no target "7".', error: { key: "exchangeNoSuchTarget", data: { key: "7" } } });
  });

  it("rules errors localised: a forged or malformed error on an answer is dropped, never read as text", () => {
    const answer = (error: unknown) => readQueryResult({ ok: false, reason: "forbidden", message: "m", error });
    for (const forged of ["<b>free text</b>", { key: "notAKey", data: {} }, { key: "exchangeNoSuchTarget", data: "7" }, { key: "exchangeNoSuchTarget", data: [] }, { key: "toString", data: {} }]) {
      expect(answer(forged)).toEqual({ ok: false, reason: "forbidden", message: "m" });
    }
    // Values other than text and finite numbers are left out of the data.
    expect(answer({ key: "exchangeNoSuchTarget", data: { key: { html: "<img>" }, n: Number.NaN } })).toEqual({ ok: false, reason: "forbidden", message: "m", error: { key: "exchangeNoSuchTarget", data: {} } });
  });
});
