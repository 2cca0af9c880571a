import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, type AttackCode } from "../../src/rules/attacks";
import {
  ARMOR_KINDS,
  BODY_ARMOR_ABSORBS_HOLD_DAMAGE,
  DAMAGE_METHOD_DEFAULT,
  ENERGY_PROTECTION_DEFAULT,
  INTENSITY_DAMAGE_SHIFTS,
  applyDamageToHealth,
  applyHealing,
  armorApplies,
  armorProtectionAgainst,
  clampHealth,
  damageAfterProtection,
  damageFromRoll,
  damageRollColor,
  intensityDamage,
  type ArmorKind,
  type DamageMethod,
} from "../../src/rules/damage";
import { COLORS, colorIndex, universalColor, type Color } from "../../src/rules/universal-table";
import { rulesSection, signedNumber, docLadder, docRankOf, docRankAt } from "../support/rules-doc";

// ---------------------------------------------------------------------------------------------
// Reading CASE-RULES.md §1 (the ladder), §5 (armor) and §7 (damage)
// ---------------------------------------------------------------------------------------------

const ladder = docLadder();

const flat = (n: number) => rulesSection(n).replace(/\s+/g, " ");
const section5 = flat(5);
const section7 = flat(7);

/** §7: "white −3 CS, green −1 CS, yellow ±0, red +1 CS" → the shift for each colour. */
function docIntensityShift(c: Color): number {
  const m = new RegExp(`${c} ([+−-]\\d+ CS|±0)`).exec(section7);
  const text = m?.[1];
  if (text === undefined) throw new Error(`CASE-RULES §7 gives no intensity shift for ${c}.`);
  return text === "±0" ? 0 : signedNumber(text.replace(" CS", ""));
}

/** §5 (second edition): "Body armor (…) absorbs its rank number from BA, EA, BT, ET, Fo, Sh and Ch damage". */
function docBodyArmorCodes(): string[] {
  const m = /absorbs its rank number from ([\s\S]+?)\s+damage/.exec(section5);
  if (!m) throw new Error("CASE-RULES §5 does not say what body armor absorbs.");
  return (m[1] ?? "").split(/,\s*|\s+and\s+/).map((s) => s.trim());
}

const color = fc.constantFrom(...COLORS);
const rankNumber = fc.nat(6000);

// ---------------------------------------------------------------------------------------------

describe("damage methods (CASE-RULES §7)", () => {
  it("static is the default", () => {
    expect(/Static \(default\)/.test(section7)).toBe(true);
    expect(DAMAGE_METHOD_DEFAULT).toBe("static");
  });

  it("static damage is the attack's rank number", () => {
    fc.assert(
      fc.property(rankNumber, (v) => {
        expect(damageFromRoll("static", v)).toBe(v);
      }),
    );
    expect(damageFromRoll("static", 35, "white")).toBe(35);
  });

  it("the intensity shifts are the document's", () => {
    for (const c of COLORS) expect(INTENSITY_DAMAGE_SHIFTS[c]).toBe(docIntensityShift(c));
  });

  // Every rank of the ladder × 4 colours, against the ladder in the document.
  it.each(ladder.map((r) => [r.name, r] as const))("intensity damage of a %s attack", (_name, rank) => {
    for (const c of COLORS) {
      const expected = docRankAt(rank.index + docIntensityShift(c)).number;
      expect({ color: c, damage: intensityDamage(rank.number, c) }).toEqual({ color: c, damage: expected });
      expect(damageFromRoll("intensity", rank.number, c)).toBe(expected);
      expect(intensityDamage(rank.min, c)).toBe(expected);
    }
  });

  it("the [001] example: Amazing (50) does Excellent 20, Incredible 40, Amazing 50, Monstrous 75", () => {
    expect(COLORS.map((c) => intensityDamage(50, c))).toEqual([20, 40, 50, 75]);
  });

  it("intensity damage is the rank's standard number, monotone in colour and in value", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, color, color, (a, b, c1, c2) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const [cl, ch] = colorIndex(c1) <= colorIndex(c2) ? [c1, c2] : [c2, c1];
        expect(intensityDamage(hi, c1)).toBeGreaterThanOrEqual(intensityDamage(lo, c1));
        expect(intensityDamage(a, ch)).toBeGreaterThanOrEqual(intensityDamage(a, cl));
        expect(intensityDamage(a, c1)).toBe(docRankAt(docRankOf(a).index + docIntensityShift(c1)).number);
      }),
    );
  });

  it("the intensity colour is a second d100 read on the attack's damage column", () => {
    fc.assert(
      fc.property(rankNumber, fc.integer({ min: 1, max: 100 }), (v, roll) => {
        expect(damageRollColor(v, roll)).toBe(universalColor(v, roll));
      }),
    );
    const c = damageRollColor(50, 60); // Amazing: yellow from 56
    expect(c).toBe("yellow");
    expect(damageFromRoll("intensity", 50, c)).toBe(50);
  });
});

describe("intensity shifts passed by a setting", () => {
  it("replace the default shifts", () => {
    const gentle = { white: -2, green: -1, yellow: 0, red: 0 };
    expect(COLORS.map((c) => intensityDamage(50, c, gentle))).toEqual([30, 40, 50, 50]);
    expect(damageFromRoll("intensity", 50, "red", gentle)).toBe(50);
    expect(damageFromRoll("static", 50, "red", gentle)).toBe(50);
  });

  it("a bad shift table is a clear error", () => {
    expect(() => intensityDamage(50, "red", { white: -3, green: -1, yellow: 0 } as unknown as Record<Color, number>)).toThrow(/red.*undefined/);
    expect(() => intensityDamage(50, "red", { white: -3, green: -1, yellow: 0, red: 0.5 })).toThrow(/0.5/);
    expect(() => intensityDamage(50, "red", null as unknown as Record<Color, number>)).toThrow(TypeError);
  });
});

describe("armor", () => {
  it("body armor absorbs the codes §5 lists, Charging among them [001]; energy protection absorbs En", () => {
    const listed = docBodyArmorCodes();
    expect(listed).toEqual(["BA", "EA", "BT", "ET", "Fo", "Sh", "Ch"]);
    // [001]: charge damage "is subject to the target's body armor"; the charger takes the armor back.
    expect(/a charger takes\s+the target's armor back/.test(section5)).toBe(true);
    const body = new Set(listed);
    for (const a of ATTACK_CODES) {
      expect({ a, body: armorApplies(a, "body") }).toEqual({ a, body: body.has(a) });
      expect({ a, energy: armorApplies(a, "energy") }).toEqual({ a, energy: a === "En" });
    }
  });

  it("grabbing and grappling attacks meet no armor; full-hold damage meets body armor [001]", () => {
    for (const k of ARMOR_KINDS) {
      expect(armorApplies("Gb", k)).toBe(false);
      expect(armorApplies("Gp", k)).toBe(false);
    }
    expect(BODY_ARMOR_ABSORBS_HOLD_DAMAGE).toBe(true);
  });

  it("energy protection defaults to Shift 0", () => {
    const m = /Protection against En is a separate rank on the armor \(default ([^)]+)\)/.exec(section5);
    const rank = ladder.find((r) => r.name === m?.[1]);
    expect(rank).toBeDefined();
    expect(ENERGY_PROTECTION_DEFAULT).toBe(rank?.number);
    expect(armorProtectionAgainst("En", { body: 40 })).toBe(ENERGY_PROTECTION_DEFAULT);
    expect(armorProtectionAgainst("En", { body: 40, energy: 20 })).toBe(20);
    expect(armorProtectionAgainst("Sh", { body: 40, energy: 20 })).toBe(40);
    expect(armorProtectionAgainst("Gp", { body: 40, energy: 20 })).toBe(0);
  });

  it("damage after protection is raw − protection, never negative, never more than raw", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (raw, prot) => {
        const d = damageAfterProtection(raw, prot);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(raw);
        expect(d).toBe(prot >= raw ? 0 : raw - prot);
        expect(damageAfterProtection(raw, prot + 1)).toBeLessThanOrEqual(d);
      }),
    );
    expect(damageAfterProtection(40, 30)).toBe(10);
    expect(damageAfterProtection(20, 30)).toBe(0);
  });
});

describe("Health", () => {
  const pool = fc.nat(500).chain((max) => fc.tuple(fc.constant(max), fc.nat(max)));

  it("damage comes off Health, clamped at 0, and reports reaching or being at 0", () => {
    fc.assert(
      fc.property(pool, fc.nat(600), ([max, health], dmg) => {
        const r = applyDamageToHealth(health, max, dmg);
        expect(r.health).toBe(Math.max(0, health - dmg));
        expect(r.health).toBeGreaterThanOrEqual(0);
        expect(r.health).toBeLessThanOrEqual(health);
        expect(r.lost).toBe(health - r.health);
        expect(r.reachedZero).toBe(health > 0 && dmg >= health);
        expect(r.wasAtZero).toBe(health === 0);
        expect(r.damagedAtZero).toBe(health === 0 && dmg > 0);
      }),
    );
    expect(applyDamageToHealth(50, 80, 50)).toEqual({ health: 0, lost: 50, reachedZero: true, wasAtZero: false, damagedAtZero: false });
    expect(applyDamageToHealth(0, 80, 10)).toEqual({ health: 0, lost: 0, reachedZero: false, wasAtZero: true, damagedAtZero: true });
    expect(applyDamageToHealth(0, 80, 0)).toEqual({ health: 0, lost: 0, reachedZero: false, wasAtZero: true, damagedAtZero: false });
  });

  it("healing never goes above the maximum", () => {
    fc.assert(
      fc.property(pool, fc.nat(600), ([max, health], amount) => {
        const h = applyHealing(health, max, amount);
        expect(h).toBe(Math.min(max, health + amount));
        expect(h).toBeLessThanOrEqual(max);
        expect(h).toBeGreaterThanOrEqual(health);
      }),
    );
  });

  it("clampHealth brings Health back under a lowered maximum", () => {
    expect(clampHealth(90, 70)).toBe(70);
    expect(clampHealth(30, 70)).toBe(30);
  });
});

describe("bad input is a clear error", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["intensity, bad colour", () => intensityDamage(50, "blue" as Color), /"blue"/],
    ["intensity, negative", () => intensityDamage(-50, "red"), /-50/],
    ["intensity, fraction", () => intensityDamage(50.5, "red"), /50.5/],
    ["method unknown", () => damageFromRoll("rolled" as DamageMethod, 30), /"rolled"/],
    ["intensity without colour", () => damageFromRoll("intensity", 30), /damageColor/],
    ["static with a bad colour", () => damageFromRoll("static", 30, "mauve" as Color), /"mauve"/],
    ["damage roll, bad d100", () => damageRollColor(30, 0), /1 to 100/],
    ["armor, unknown attack", () => armorApplies("XX" as AttackCode, "body"), /"XX"/],
    ["armor, unknown kind", () => armorApplies("BA", "force-field" as ArmorKind), /"force-field"/],
    ["armor protection, negative energy", () => armorProtectionAgainst("En", { body: 0, energy: -1 }), /Energy protection/],
    ["after protection, negative damage", () => damageAfterProtection(-5, 0), /Damage.*-5/],
    ["after protection, NaN protection", () => damageAfterProtection(5, Number.NaN), /Protection/],
    ["health above max", () => applyDamageToHealth(90, 80, 5), /above its maximum/],
    ["negative damage to health", () => applyDamageToHealth(50, 80, -5), /Damage.*-5/],
    ["fractional health", () => applyDamageToHealth(5.5, 80, 1), /Health/],
    ["negative healing", () => applyHealing(50, 80, -1), /Healing/],
    ["clamp, negative max", () => clampHealth(50, -1), /Maximum Health/],
  ];
  it.each(cases)("%s", (_name, thunk, message) => {
    expect(thunk).toThrow(message);
    try {
      thunk();
    } catch (e) {
      expect(e instanceof RangeError || e instanceof TypeError).toBe(true);
    }
  });
});
