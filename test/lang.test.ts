/**
 * Every localisation key the system uses exists in lang/en.json: keys written in source
 * ("CASE.…" string literals), in templates ({{localize "CASE.…"}} and friends), and in
 * system.json. A key that en.json lacks would show a raw "CASE.Foo.Bar" to a player.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { flattenKeys, localisationFamilies, usedLocalisationKeys } from "./support/lang";

const en = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, unknown>;
const known = flattenKeys(en);

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f));
}

describe("lang/en.json", () => {
  it("has only string leaves", () => {
    for (const [key, value] of known) expect(typeof value, key).toBe("string");
  });

  it("has every key used in src/", () => {
    const missing: string[] = [];
    for (const file of files("src", ".ts")) {
      for (const key of usedLocalisationKeys(readFileSync(file, "utf8"), "source")) {
        if (!known.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has every key used in templates/", () => {
    const missing: string[] = [];
    for (const file of files("templates", ".hbs")) {
      for (const key of usedLocalisationKeys(readFileSync(file, "utf8"), "template")) {
        if (!known.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has every key used in system.json and pack sources", () => {
    const missing: string[] = [];
    const texts = [["system.json", readFileSync("system.json", "utf8")], ...files("packs", ".json").map((f) => [f, readFileSync(f, "utf8")])];
    for (const [file, text] of texts) {
      for (const key of usedLocalisationKeys(text ?? "", "source")) if (!known.has(key)) missing.push(`${file ?? ""}: ${key}`);
    }
    expect(missing).toEqual([]);
  });

  it("has no key that nothing uses (each one is shipped to every client)", () => {
    const texts = [...files("src", ".ts"), ...files("templates", ".hbs"), "system.json", ...files("packs", ".json")].map((f) => readFileSync(f, "utf8"));
    const used = new Set(texts.flatMap((t) => [...usedLocalisationKeys(t, "source")]));
    const families = [...new Set(texts.flatMap((t) => [...localisationFamilies(t)]))];
    // TYPES.* are Foundry's: it labels the document subtypes system.json declares with them.
    const unused = [...known.keys()].filter((key) => !key.startsWith("TYPES.") && !used.has(key) && !families.some((f) => key.startsWith(f)));
    expect(unused).toEqual([]);
  });

  it("the family finder finds built keys' prefixes, and not the bare CASE.", () => {
    const text = 'game.i18n.localize(`CASE.Turn.Phase.${phase}`); "CASE.Rank." + key; v.startsWith("CASE."); choiceField(SHAPES, "none", "Area.Shape")';
    expect([...localisationFamilies(text)].sort()).toEqual(["CASE.Area.Shape.", "CASE.Rank.", "CASE.Turn.Phase."]);
  });

  it("the key finder finds keys in both forms, and a missing key fails", () => {
    const keys = usedLocalisationKeys(`{{localize "CASE.A.B"}} {{localize 'CASE.C'}} title="{{localize "CASE.Rank.good"}}"`, "template");
    expect([...keys]).toEqual(["CASE.A.B", "CASE.C", "CASE.Rank.good"]);
    expect(known.has("CASE.A.B")).toBe(false);
    expect(known.has("CASE.Rank.good")).toBe(true);
  });
});

describe("labels for the rules' vocabulary (keys built at run time)", () => {
  it("every rank, score, attack, defence, power category and colour has a label", async () => {
    const rules = await import("../src/rules/index");
    const families: [string, readonly string[]][] = [
      ["CASE.Rank.", rules.RANK_KEYS],
      ["CASE.RankAbbr.", rules.RANK_KEYS],
      ["CASE.Ability.", rules.ABILITY_KEYS],
      ["CASE.AbilityAbbr.", rules.ABILITY_KEYS],
      ["CASE.Score.", [...rules.ABILITY_KEYS, ...rules.SUB_SCORE_REFS]],
      ["CASE.SubScoreHint.", rules.SUB_SCORE_REFS],
      ["CASE.Attack.", rules.ATTACK_CODES],
      ["CASE.Defence.", rules.DEFENCE_CODES],
      ["CASE.PowerCategory.", rules.POWER_CATEGORIES],
      ["CASE.Color.", rules.COLORS],
    ];
    const missing = families.flatMap(([prefix, values]) => values.map((v) => `${prefix}${v}`).filter((k) => !known.has(k)));
    expect(missing).toEqual([]);
  });

  it("every document type in system.json has a TYPES label", () => {
    const manifest = JSON.parse(readFileSync("system.json", "utf8")) as { documentTypes: Record<string, Record<string, unknown>> };
    const missing = Object.entries(manifest.documentTypes).flatMap(([doc, types]) =>
      Object.keys(types).map((t) => `TYPES.${doc}.${t}`).filter((k) => !known.has(k)),
    );
    expect(missing).toEqual([]);
  });
});

describe("rules errors localised: the rules' error texts (src/rules/errors.ts) and en.json", () => {
  const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "").sort();

  it("every rules error text has a CASE.RulesError key in en.json with the same placeholders", async () => {
    const { RULES_ERROR_TEXT } = await import("../src/rules/errors");
    const mismatched = Object.entries(RULES_ERROR_TEXT).flatMap(([key, text]: [string, string]) => {
      const local = known.get(`CASE.RulesError.${key}`);
      if (typeof local !== "string") return [`${key}: missing`];
      return placeholders(local).join() === placeholders(text).join() ? [] : [`${key}: {${placeholders(local).join("}{")}} in en.json, {${placeholders(text).join("}{")}} in the rules`];
    });
    expect(mismatched).toEqual([]);
  });

  it("en.json has no rules error or field that the rules lack (the adapter's own 'unexpected' aside)", async () => {
    const { RULES_ERROR_TEXT, RULES_FIELD_TEXT } = await import("../src/rules/errors");
    const extra = [...known.keys()].filter(
      (key) =>
        (key.startsWith("CASE.RulesError.") && key !== "CASE.RulesError.unexpected" && !Object.hasOwn(RULES_ERROR_TEXT, key.slice("CASE.RulesError.".length))) ||
        (key.startsWith("CASE.RulesField.") && !Object.hasOwn(RULES_FIELD_TEXT, key.slice("CASE.RulesField.".length))),
    );
    expect(extra).toEqual([]);
  });

  it("every field an error may name has a CASE.RulesField label", async () => {
    const { RULES_FIELD_TEXT } = await import("../src/rules/errors");
    expect(Object.keys(RULES_FIELD_TEXT).filter((key) => typeof known.get(`CASE.RulesField.${key}`) !== "string")).toEqual([]);
  });
});

describe("refusals localised: the adapters' own refusal texts (src/foundry/core/refusal-texts.ts) and en.json", () => {
  it("every refusal key has a CASE.Refusal text with exactly its values' placeholders, and en.json has no other", async () => {
    const { REFUSAL_DATA } = await import("../src/foundry/core/refusal-texts");
    const placeholders = (text: string): string => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "").sort().join();
    const mismatched = Object.entries(REFUSAL_DATA).flatMap(([key, names]: [string, readonly string[]]) => {
      const local = known.get(`CASE.Refusal.${key}`);
      if (typeof local !== "string") return [`${key}: missing`];
      return placeholders(local) === [...names].sort().join() ? [] : [`${key}: {${placeholders(local)}} in en.json, {${[...names].sort().join()}} in the list`];
    });
    expect(mismatched).toEqual([]);
    expect([...known.keys()].filter((k) => k.startsWith("CASE.Refusal.") && !Object.hasOwn(REFUSAL_DATA, k.slice("CASE.Refusal.".length)))).toEqual([]);
  });

  it("every refusal key is used: src/foundry names it (QueryRefusal.keyed, RefusalError, the router's own), so no text is shipped for nothing", async () => {
    const { REFUSAL_DATA } = await import("../src/foundry/core/refusal-texts");
    const source = files(join("src", "foundry"), ".ts").filter((f) => !f.endsWith("refusal-texts.ts")).map((f) => readFileSync(f, "utf8")).join("\n");
    expect(Object.keys(REFUSAL_DATA).filter((key) => !source.includes(`"${key}"`) && !source.includes(`"CASE.Refusal.${key}"`))).toEqual([]);
  });
});

describe("no glitch wording: a refusal said inside a request's refusal", () => {
  it("no glitch wording: every refusal text read inside CASE.Query.Refused reads as sentences (no \".).\", no \"..\", no \"))\", a full stop before the next sentence)", () => {
    const outer = [...known.entries()].filter(([k, v]) => k.startsWith("CASE.Query.Refused.") && String(v).includes("{message}"));
    expect(outer.length).toBeGreaterThan(3);
    const inner = [...known.entries()].filter(([k]) => k.startsWith("CASE.Refusal.") || k.startsWith("CASE.RulesError."));
    const said = outer.flatMap(([ok, o]) => inner.map(([ik, i]) => ({ which: `${ok} + ${ik}`, text: String(o).replace("{message}", String(i)) })));
    const glitches = said.filter(({ text }) => /\.\)|\.\.|\)\)|[^.?!] [A-Z][a-z]+ the card/.test(text));
    expect(glitches.map(({ which, text }) => `${which}: ${text}`)).toEqual([]);
  });
});
