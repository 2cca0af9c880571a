/**
 * The `system` data of every pack document, embedded items included, validates against our
 * data models (built through the foundry test double) and every declared field option; the
 * validator itself names the file and field of a bad rank, attack type or talent cover.
 * Pack actors' derived values match the rules engine.
 */
import "../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { CHARACTER_SCHEMA_VERSION } from "../../src/foundry/data/actor/character";
import { ITEM_SCHEMA_VERSION } from "../../src/foundry/data/item/items";
import { ABILITY_KEYS, characterStats, initiativeModifier, type AbilitiesInput } from "../../src/rules/index";
import { CHARACTER_SOURCE_SCHEMA_VERSION, ITEM_SOURCE_SCHEMA_VERSION } from "../../scripts/packs/documents";
import { readAllPacks, readManifest, readPack, type SourceDoc } from "../support/pack-files";
import { buildModel, systemProblems } from "../support/pack-validation";

const manifest = readManifest();
const packType = new Map(manifest.packs.map((p) => [p.name, p.type]));
const files = readAllPacks();

/** The problems of one pack document and its embedded items, each naming the file and field. */
function documentProblems(file: string, documentName: string, doc: SourceDoc): string[] {
  const problems: string[] = [];
  if (documentName === "Actor" || documentName === "Item") problems.push(...systemProblems(file, documentName, doc.type, doc.system));
  const items = Array.isArray(doc.items) ? (doc.items as SourceDoc[]) : [];
  items.forEach((item, i) => {
    problems.push(...systemProblems(file, "Item", item.type, item.system, `items[${i}](${String(item.name)}).system`));
  });
  return problems;
}

function firstOf(pack: string, type?: string): { file: string; doc: SourceDoc } {
  const found = readPack(pack).find((f) => type === undefined || f.doc?.type === type);
  if (!found?.doc) throw new Error(`No ${type ?? "document"} in pack ${pack}.`);
  return { file: found.file, doc: structuredClone(found.doc) };
}

describe("pack system data against the data models", () => {
  it("every Actor and Item (and embedded item) validates, builds a model and derives its values", () => {
    const problems = files.flatMap((f) => (f.doc ? documentProblems(f.file, packType.get(f.pack) ?? "", f.doc) : []));
    expect(problems).toEqual([]);
  });

  it("pack data is written in the models' current schema version", () => {
    expect(CHARACTER_SOURCE_SCHEMA_VERSION).toBe(CHARACTER_SCHEMA_VERSION);
    expect(ITEM_SOURCE_SCHEMA_VERSION).toBe(ITEM_SCHEMA_VERSION);
  });

  it("an invalid rank fails with the file path and field name", () => {
    const { file, doc } = firstOf("powers");
    (doc.system as Record<string, unknown>).rank = -3;
    const problems = documentProblems(file, "Item", doc);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toContain(`${file}: system.rank:`);
    expect(problems.join("\n")).toMatch(/must be at least 0 \(got -3\)/);
  });

  it("a fractional rank fails through the field's own rank-number validator", () => {
    const { file, doc } = firstOf("powers");
    (doc.system as Record<string, unknown>).rank = 2.5;
    expect(documentProblems(file, "Item", doc).join("\n")).toMatch(/system\.rank: must be a rank number: a whole number of 0 or more \(got 2\.5\)/);
  });

  it("null where the schema does not allow it fails; null for a sub-score that follows its ability passes", () => {
    const power = firstOf("powers");
    (power.doc.system as Record<string, unknown>).rank = null;
    expect(documentProblems(power.file, "Item", power.doc)).toEqual([`${power.file}: system.rank: may not be null`]);
    const hero = firstOf("heroes");
    const fighting = (hero.doc.system as { abilities: Record<string, Record<string, unknown>> }).abilities.fighting ?? {};
    fighting.off = null;
    fighting.def = null;
    expect(documentProblems(hero.file, "Actor", hero.doc)).toEqual([]);
  });

  it("an unknown attack type fails with the file path and field name", () => {
    const { file, doc } = firstOf("gear", "weapon");
    ((doc.system as Record<string, Record<string, unknown>>).attack ?? {}).type = "Zz";
    const problems = documentProblems(file, "Item", doc);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${file.replace(/[.]/g, "\\.")}: system\\.attack\\.type: not one of BA, EA, BT, ET, En, Fo, Sh, Gb, Gp, Ch \\(got "Zz"\\)$`));
  });

  it("an unknown talent cover fails with the file path and the element's index", () => {
    const { file, doc } = firstOf("talents");
    (doc.system as Record<string, unknown>).covers = ["BA", "juggling"];
    expect(documentProblems(file, "Item", doc)).toEqual([expect.stringMatching(/: system\.covers\.1: not one of .* \(got "juggling"\)$/)]);
  });

  it("an unknown power category, a missing field and a stray key all fail", () => {
    const { file, doc } = firstOf("powers");
    const system = doc.system as Record<string, unknown>;
    system.category = "cosmic";
    delete system.duration;
    system.rnak = 30;
    const text = documentProblems(file, "Item", doc).join("\n");
    expect(text).toContain("system.category: not one of physicalEnhancement");
    expect(text).toContain("system.duration: is missing");
    expect(text).toContain("system.rnak: is not a field of the schema");
  });

  it("a bad ability or sub-score on an actor, and a bad embedded item, name their field", () => {
    const { file, doc } = firstOf("heroes");
    const system = doc.system as { abilities: Record<string, Record<string, unknown>> };
    (system.abilities.fighting ?? {}).off = -1;
    const items = doc.items as SourceDoc[];
    const firstItem = items[0];
    if (!firstItem) throw new Error("A hero without items.");
    (firstItem.system as Record<string, unknown>).equipped = "yes";
    const problems = documentProblems(file, "Actor", doc).join("\n");
    expect(problems).toContain(`${file}: system.abilities.fighting.off: must be at least 0 (got -1)`);
    if (firstItem.type === "weapon" || firstItem.type === "armor") expect(problems).toContain(`items[0](${String(firstItem.name)}).system.equipped: must be true or false`);
    else expect(problems).toMatch(/items\[0\]\(.*\)\.system\.equipped: is not a field of the schema/);
  });
});

describe("pack actors' derived values", () => {
  const actors = files.filter((f) => packType.get(f.pack) === "Actor" && f.doc);

  it("there are actors to check", () => {
    expect(actors.length).toBeGreaterThanOrEqual(8);
  });

  it.each(actors.map((f) => [String(f.doc?.name), f] as const))("%s: Health max, Karma max and initiative match the rules engine; pools start full", (_name, f) => {
    const doc = f.doc as SourceDoc;
    const system = doc.system as { abilities: Record<string, { value: number } & Record<string, number | null>>; health: { value: number }; karma: { value: number } };
    const model = buildModel("Actor", String(doc.type), system) as unknown as {
      health: { value: number; max: number };
      karma: { value: number; max: number };
      initiative: number;
    };
    const stats = characterStats(system.abilities as unknown as AbilitiesInput);
    const value = (k: string): number => system.abilities[k]?.value ?? Number.NaN;
    // By hand, independently of the engine: Health = F + A + S + E, Karma = R + I + P.
    expect(stats.healthMax).toBe(value("fighting") + value("agility") + value("strength") + value("endurance"));
    expect(stats.karmaMax).toBe(value("reason") + value("intuition") + value("psyche"));
    expect(model.health.max).toBe(stats.healthMax);
    expect(model.karma.max).toBe(stats.karmaMax);
    expect(model.initiative).toBe(stats.initiative);
    expect(model.initiative).toBe(initiativeModifier(value("intuition")));
    expect(system.health.value).toBeLessThanOrEqual(model.health.max);
    expect(system.karma.value).toBeLessThanOrEqual(model.karma.max);
    // Ready to play: pools are full.
    expect(system.health.value).toBe(model.health.max);
    expect(system.karma.value).toBe(model.karma.max);
    expect(Object.keys(system.abilities).sort()).toEqual([...ABILITY_KEYS].sort());
  });
});
