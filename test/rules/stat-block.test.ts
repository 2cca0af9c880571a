/**
 * Stat-block import (issue 23 item 6): the pure reader of a pasted FASERIP-style block. The
 * expected numbers are worked by hand from the rank ladder (CASE-RULES §1: Excellent 20,
 * Remarkable 30, Good 10 …) read from the rules reference, never from the reader itself.
 */
import { describe, expect, it } from "vitest";
import { STAT_BLOCK_MAX_LENGTH, readRank, readStatBlock, statBlockNpc } from "../../src/rules/stat-block";
import { docLadder } from "../support/rules-doc";

const GRAVEL = `Doctor Gravel
F: Excellent (20)
A: Good 10
S: RM (30)
E: Incredible
R: Ty (6)
I: 10
P: Poor
Health: 100
Karma: 20
Resources: Good
Popularity: -5
Powers:
Body Armor: Remarkable (30)
Energy Blast (Amazing)
Flight - Ex
Stone Skin: Good (30)
Talents:
Geology
He hates the sun.`;

describe("stat block import", () => {
  it("stat block import: reads the name, the seven abilities by rank name, abbreviation or number, Health, Karma, Resources, Popularity and powers", () => {
    const { block, missing, complete } = readStatBlock(GRAVEL);
    expect(block.name).toBe("Doctor Gravel");
    // By hand: Excellent 20, Good 10, Remarkable 30, Incredible 40, Typical 6, 10, Poor 4.
    expect(block.abilities).toEqual({ fighting: 20, agility: 10, strength: 30, endurance: 40, reason: 6, intuition: 10, psyche: 4 });
    // The rank names' standard numbers, as the rules reference's ladder gives them.
    const standard = (name: string) => docLadder().find((r) => r.name === name)?.number;
    expect([block.abilities.endurance, block.abilities.psyche, block.abilities.reason]).toEqual([standard("Incredible"), standard("Poor"), standard("Typical")]);
    expect([block.health, block.karma, block.resources, block.popularity]).toEqual([100, 20, 10, -5]);
    expect(block.powers).toEqual([
      { name: "Body Armor", rank: 30 },
      { name: "Energy Blast", rank: 50 },
      { name: "Flight", rank: 20 },
    ]);
    expect(missing).toEqual([]);
    expect(complete).toBe(true);
  });

  it("stat block import: names each line it did not understand, and why (a rank whose number is not of it, another section, prose)", () => {
    const { unread } = readStatBlock(GRAVEL);
    expect(unread).toEqual([
      { line: 17, text: "Stone Skin: Good (30)", reason: "badRank" },
      { line: 18, text: "Talents:", reason: "section" },
      { line: 19, text: "Geology", reason: "section" },
      { line: 20, text: "He hates the sun.", reason: "section" },
    ]);
  });

  it("stat block import: several abilities on one line, shifts and classes, and a block missing abilities is incomplete", () => {
    const { block, missing, complete, unread } = readStatBlock("Name: Titan\nF EX(20), A GD(10), S ShX | E CL1000\nR: Good (9); I: Feeble; P: Monstrous 75\nBlarg");
    expect(block.name).toBe("Titan");
    expect(block.abilities).toEqual({ fighting: 20, agility: 10, strength: 150, endurance: 1000, reason: 9, intuition: 2, psyche: 75 });
    expect(missing).toEqual([]);
    expect(complete).toBe(true);
    expect(unread).toEqual([{ line: 4, text: "Blarg", reason: "notUnderstood" }]);
    const partial = readStatBlock("Mook\nF: Good\nA: Good\nF: Poor");
    expect(partial.missing).toEqual(["strength", "endurance", "reason", "intuition", "psyche"]);
    expect(partial.complete).toBe(false);
    expect(partial.unread).toEqual([{ line: 4, text: "F: Poor", reason: "duplicate" }]);
    expect(readStatBlock("F: Good\nA: Good").block.name).toBeNull();
  });

  it("stat block import: a rank is its name, its abbreviation, its number, or both when they agree", () => {
    expect(readRank("Remarkable (30)")).toBe(30);
    expect(readRank("rm30")).toBe(30);
    expect(readRank("Amazing")).toBe(50);
    expect(readRank("Shift X")).toBe(150);
    expect(readRank("Class 3000")).toBe(3000);
    expect(readRank("Shift 0")).toBe(0);
    expect(readRank("27")).toBe(27);
    expect(readRank("Good (30)")).toBe("bad");
    expect(readRank("Awesome")).toBeNull();
    expect(() => readStatBlock("x".repeat(STAT_BLOCK_MAX_LENGTH + 1))).toThrow(RangeError);
  });

  it("stat block import: the NPC's Health and Karma maxima follow its abilities; a block's number above them starts at the maximum", () => {
    const npc = statBlockNpc(readStatBlock(GRAVEL));
    // By hand: Health 20 + 10 + 30 + 40 = 100; Karma 6 + 10 + 4 = 20.
    expect(npc.health).toEqual({ given: 100, max: 100, value: 100 });
    expect(npc.karma).toEqual({ given: 20, max: 20, value: 20 });
    const big = statBlockNpc(readStatBlock("Brute\nF 10, A 10, S 10, E 10, R 2, I 2, P 2\nHealth: 150"));
    expect(big.health).toEqual({ given: 150, max: 40, value: 40 });
    expect(big.karma).toEqual({ given: null, max: 6, value: 6 });
    expect(() => statBlockNpc(readStatBlock("Mook\nF: Good"))).toThrow(/lacks agility, strength/);
    expect(() => statBlockNpc(readStatBlock("F 10, A 10, S 10, E 10, R 2, I 2, P 2"))).toThrow(/names no one/);
  });
});
