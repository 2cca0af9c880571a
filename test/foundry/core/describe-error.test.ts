/**
 * An adapter's own refusal of stored data (src/foundry/core/refusal-texts.ts' RefusalError), as a
 * user reads it through describeError (src/foundry/core/describe-error.ts): the text of its key in
 * the reader's language, its values filled in; never the English of its message, never "something
 * went wrong". The i18n double here has a text of its own for the key, so only the key's text can pass.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import "../../support/foundry-globals";
import { stubI18nAndNotifications } from "../../support/foundry-stubs";
import { localize } from "../../support/handlebars";
import { describeError } from "../../../src/foundry/core/describe-error";
import { parseRollCheck } from "../../../src/foundry/dice/roll-check";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { QueryRefusal } from "../../../src/foundry/requests/router";
import { advance } from "../../../src/rules/karma";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** game.i18n with this reader's own texts for some keys, en.json's for the rest. */
function readerWith(own: Record<string, string>): void {
  const say = (key: string, data: Record<string, unknown> = {}): string => (own[key] ?? localize(key)).replace(/\{(\w+)\}/g, (m, name: string) => (name in data ? String(data[name]) : m));
  stubI18nAndNotifications({ i18n: { localize: (key: string) => say(key), format: say } });
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("an adapter's refusal of stored data, as a user reads it", () => {
  it("refusals localised: a roll's bad recorded data and a card from a newer version read in the reader's text, their values filled in", () => {
    readerWith({ "CASE.Refusal.rollDataBad": "Wurf-Daten ungültig: {part}.", "CASE.Refusal.cardNewer": "Karte aus Version {version}." });
    expect(describeError(thrown(() => parseRollCheck({ label: "x", value: -3, shifts: [] })))).toBe("Wurf-Daten ungültig: value.");
    expect(describeError(thrown(() => readExchange({ version: 999, attack: "BA", targets: [] })))).toBe("Karte aus Version 999.");
  });

  it("refusals localised: a refusal made from one carries its key and values over the wire", () => {
    const refusal = QueryRefusal.of("failed", thrown(() => readExchange({ version: 1, attack: "ZZ", targets: [] })));
    expect(refusal.error).toEqual({ kind: "refusal", key: "cardMalformed", data: { part: "attack" } });
  });
});

describe("a rules error's values, as a user reads them", () => {
  it("rules errors localised: a rank is named by the reader's rank name, never its key (the advance past Class 5000)", () => {
    readerWith({ "CASE.RulesError.advancementTopRank": "{rank} ist die höchste Stufe.", "CASE.Rank.class5000": "Klasse 5000" });
    expect(describeError(thrown(() => advance(10_000, { kind: "ability", from: 5000, step: "rank" }, "2026-11-28")))).toBe("Klasse 5000 ist die höchste Stufe.");
  });
});
