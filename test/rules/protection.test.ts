import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR, chargeDamage, type AttackCode } from "../../src/rules/attacks";
import { ARMOR_STACKS, wornArmor } from "../../src/rules/attack-setup";
import { combineProtection } from "../../src/rules/defences";
import {
  PROTECTION_SOURCES_STACK,
  bestProtection,
  chargeThroughProtection,
  chargerBodyArmor,
  damageThroughProtection,
  protectionAgainst,
  sourceProtectionAgainst,
  type ProtectionSource,
} from "../../src/rules/protection";
import { RANKS } from "../../src/rules/ranks";
import { rulesSection } from "../support/rules-doc";

const section5 = rulesSection(5).replace(/\s+/g, " ");
/** §5: "absorbs its rank number from BA, EA, BT, ET, Fo, Sh and Ch damage". */
function docBodyCodes(): AttackCode[] {
  const m = /absorbs its rank number from ([\s\S]+?)\s+damage/.exec(section5);
  if (!m?.[1]) throw new Error("CASE-RULES §5 does not say what body armor absorbs.");
  return m[1].split(/,\s*|\s+and\s+/).map((c) => c.trim()) as AttackCode[];
}

const vest: ProtectionSource = { name: "Kevlar vest", origin: "armor", physical: 10, energy: 0 };
const field: ProtectionSource = { name: "Force Field", origin: "power", physical: 40, energy: 40 };
const resist: ProtectionSource = { name: "Energy Resistance", origin: "power", physical: 0, energy: 0, against: { En: 30 } };
const bladeproof: ProtectionSource = { name: "Blade-proof skin", origin: "power", physical: 6, energy: 0, against: { EA: 30, ET: 30 } };

const rank = fc.integer({ min: 0, max: 6000 });
const source = fc.record({
  name: fc.constantFrom("a", "b", "c", "d"),
  origin: fc.constantFrom("armor" as const, "power" as const),
  physical: rank,
  energy: rank,
  against: fc.option(fc.dictionary(fc.constantFrom(...ATTACK_CODES), rank), { nil: undefined }),
});
const attackCode = fc.constantFrom(...ATTACK_CODES);

describe("protective power and armor: which source counts", () => {
  it("a protective power counts as body armor against every code §5 lists (Errata), and not against Grabbing/Grappling", () => {
    const body = docBodyCodes();
    expect(body).toContain("Ch");
    for (const code of ATTACK_CODES) {
      const expected = body.includes(code) || code === "En" ? 40 : 0;
      expect(sourceProtectionAgainst(field, code), code).toBe(expected);
    }
  });

  it("a protective power listed against one attack type protects against that type only", () => {
    expect(sourceProtectionAgainst(resist, "En")).toBe(30);
    for (const code of ATTACK_CODES.filter((c) => c !== "En")) expect(sourceProtectionAgainst(resist, code)).toBe(0);
    expect(sourceProtectionAgainst(bladeproof, "EA")).toBe(30);
    expect(sourceProtectionAgainst(bladeproof, "BA")).toBe(6);
  });

  it("the best source counts; armor and protective powers do not stack (ARMOR_STACKS)", () => {
    expect(PROTECTION_SOURCES_STACK).toBe(ARMOR_STACKS);
    expect(bestProtection([vest, field, resist], "Sh")).toEqual({ value: 40, sources: ["Force Field"] });
    expect(bestProtection([vest, resist], "En")).toEqual({ value: 30, sources: ["Energy Resistance"] });
    expect(bestProtection([vest], "Gp")).toEqual({ value: 0, sources: [] });
    expect(bestProtection([vest, field], "BA", true)).toEqual({ value: 50, sources: ["Kevlar vest", "Force Field"] });
  });

  it("agrees with wornArmor for plain armor pieces (same stacking semantics)", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ body: rank, energy: rank }), { maxLength: 5 }), fc.boolean(), (pieces, stacks) => {
        const sources = pieces.map((p, i) => ({ name: `p${i}`, origin: "armor" as const, physical: p.body, energy: p.energy }));
        const worn = wornArmor(pieces, stacks);
        expect(bestProtection(sources, "BA", stacks).value).toBe(worn.body);
        expect(bestProtection(sources, "En", stacks).value).toBe(worn.energy);
      }),
    );
  });

  it("refuses bad sources with a clear error", () => {
    expect(() => bestProtection([{ ...vest, physical: -3 }], "BA")).toThrow(RangeError);
    expect(() => bestProtection([{ ...vest, energy: Number.NaN }], "BA")).toThrow(/energy rank/);
    expect(() => bestProtection([{ ...vest, name: "" }], "BA")).toThrow(TypeError);
    expect(() => bestProtection([{ ...vest, against: { XX: 10 } as never }], "BA")).toThrow(RangeError);
    expect(() => bestProtection([vest], "Zz" as AttackCode)).toThrow(RangeError);
  });
});

describe("protective power with Block/Brace and charges", () => {
  it("combines with Block/Brace by the buddy rule of combineProtection (reused, not copied)", () => {
    // Remarkable block (30) and a Force Field of 40: within one rank → the better +1 CS = Amazing 50.
    expect(protectionAgainst([field], "BA", 30).total).toBe(combineProtection(40, 30));
    expect(protectionAgainst([field], "BA", 30).total).toBe(50);
    // Good block (10) with a 40 field: far apart → the better one.
    expect(protectionAgainst([field], "BA", 10).total).toBe(40);
    fc.assert(fc.property(fc.array(source, { maxLength: 4 }), attackCode, rank, (s, a, b) => {
      expect(protectionAgainst(s, a, b).total).toBe(combineProtection(bestProtection(s, a).value, b));
    }));
  });

  it("a charge is absorbed by the target's protective power and rebounds onto the charger (Errata)", () => {
    const damage = chargeDamage({ endurance: 30, bodyArmor: chargerBodyArmor([]), areas: 3 });
    expect(damage).toBe(36);
    const out = chargeThroughProtection(damage, [field], []);
    expect(out).toEqual({ toTarget: 0, targetProtection: 40, toCharger: 40 });
    const armoured = chargeThroughProtection(damage, [vest], [bladeproof]);
    expect(armoured.toTarget).toBe(26);
    expect(armoured.toCharger).toBe(CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR ? 4 : 10);
  });

  it("a charger's protective power raises its charge damage like body armor [001]", () => {
    expect(chargerBodyArmor([field])).toBe(40);
    expect(chargeDamage({ endurance: 10, bodyArmor: chargerBodyArmor([field]), areas: 1 })).toBe(42);
  });

  it("a Block adds protection against the charge but does not rebound", () => {
    const out = chargeThroughProtection(60, [vest], [], 10);
    expect(out.targetProtection).toBe(combineProtection(10, 10));
    expect(out.toCharger).toBe(10);
  });
});

describe("protective power properties", () => {
  it("never makes damage worse: 0 ≤ after ≤ before", () => {
    fc.assert(fc.property(rank, fc.array(source, { maxLength: 4 }), attackCode, rank, (damage, s, a, block) => {
      const after = damageThroughProtection(damage, s, a, block);
      expect(after).toBeGreaterThanOrEqual(0);
      expect(after).toBeLessThanOrEqual(damage);
    }));
  });

  it("more protection never lets more through: adding a source, or raising one, never raises the damage", () => {
    fc.assert(fc.property(rank, fc.array(source, { maxLength: 4 }), source, attackCode, (damage, s, extra, a) => {
      expect(damageThroughProtection(damage, [...s, extra], a)).toBeLessThanOrEqual(damageThroughProtection(damage, s, a));
      const raised = { ...extra, physical: extra.physical + 5, energy: extra.energy + 5 };
      expect(damageThroughProtection(damage, [...s, raised], a)).toBeLessThanOrEqual(damageThroughProtection(damage, [...s, extra], a));
    }));
  });

  it("with a Block, a higher standard armor rank never lets more through", () => {
    const standard = fc.constantFrom(...RANKS.map((r) => r.number));
    fc.assert(fc.property(rank, standard, standard, standard, (damage, a, b, block) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const one = (v: number) => [{ name: "x", origin: "armor" as const, physical: v, energy: 0 }];
      expect(damageThroughProtection(damage, one(hi), "BA", block)).toBeLessThanOrEqual(damageThroughProtection(damage, one(lo), "BA", block));
    }));
  });
});
