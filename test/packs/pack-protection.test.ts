/**
 * The shipped protective powers and the characters that carry them (issue 11, item 1): read from
 * the committed pack sources through the same collector the GM's attack uses
 * (protectionSources), and weighed by the rules (bestProtection).
 */
import "../support/foundry-globals";
import { describe, expect, it } from "vitest";
import { protectionSources } from "../../src/foundry/exchange/protection";
import { bestProtection, rankByKey, type AttackCode } from "../../src/rules/index";
import { readPack, type SourceDoc } from "../support/pack-files";

const rank = (key: string): number => rankByKey(key).number;
const docs = (pack: string): SourceDoc[] => readPack(pack).map((f) => f.doc as SourceDoc);
const characters = [...docs("heroes"), ...docs("villains")];

function sourcesOf(name: string) {
  const doc = characters.find((d) => d.name === name);
  if (!doc) throw new Error(`No pack character "${name}".`);
  return protectionSources({ items: doc.items } as unknown as Actor.Implementation);
}

function against(name: string, attack: AttackCode) {
  return bestProtection(sourcesOf(name), attack);
}

describe("protective powers in the packs", () => {
  it("protective power: the shipped characters are protected as their text says", () => {
    const expected: [character: string, attack: AttackCode, value: number, source: string][] = [
      ["Mountainside", "BA", rank("remarkable"), "Granite Skin"],
      ["Mountainside", "Ch", rank("remarkable"), "Granite Skin"],
      ["Halogen", "En", rank("good"), "Radiant Body"],
      ["Hexwright", "Sh", rank("remarkable"), "Mystic Shield"],
      ["Hexwright", "En", rank("remarkable"), "Mystic Shield"],
      ["Sovereign Null", "Fo", rank("monstrous"), "Null Carapace"],
      ["Sovereign Null", "En", rank("amazing"), "Energy Resistance"],
      ["Security Robot", "EA", rank("excellent"), "Steel Chassis"],
    ];
    for (const [character, attack, value, source] of expected) {
      expect(against(character, attack), `${character} against ${attack}`).toEqual({ value, sources: [source] });
    }
  });

  it("protective power: body protection does not stop energy, energy resistance does not stop blows", () => {
    expect(against("Mountainside", "En").value).toBe(0);
    expect(against("Security Robot", "En").value).toBe(0);
    expect(against("Halogen", "BA").value).toBe(0);
  });

  it("protective power: a character without one is not protected, and powers that do not protect give nothing", () => {
    expect(sourcesOf("Switchback")).toEqual([]);
    for (const doc of characters) {
      for (const source of sourcesOf(String(doc.name)).filter((s) => s.origin === "power")) expect(["Granite Skin", "Radiant Body", "Mystic Shield", "Null Carapace", "Energy Resistance", "Steel Chassis"]).toContain(source.name);
    }
  });

  it("protective power: the pack powers protect at their own rank", () => {
    const powers = docs("powers");
    const protection = (name: string) => protectionSources({ items: powers.filter((d) => d.name === name) } as unknown as Actor.Implementation);
    expect(protection("Body Armor")).toEqual([{ name: "Body Armor", origin: "power", physical: rank("excellent"), energy: 0, against: {} }]);
    expect(protection("Energy Resistance")).toEqual([{ name: "Energy Resistance", origin: "power", physical: 0, energy: rank("good"), against: {} }]);
    expect(protection("Force Field")).toEqual([{ name: "Force Field", origin: "power", physical: rank("remarkable"), energy: rank("remarkable"), against: {} }]);
    expect(protection("Mystic Shield")).toEqual([{ name: "Mystic Shield", origin: "power", physical: rank("remarkable"), energy: rank("remarkable"), against: {} }]);
    expect(protection("Super Strength")).toEqual([]);
  });
});
