import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ABILITY_KEYS } from "../../src/rules/abilities";
import { characterStats, type AbilitiesInput } from "../../src/rules/character";
import { OWN_RANK_VALUE, abilitiesAfterEffects, applyScoreChanges, assertScoreChange, parseChangeValue, statsAfterEffects, type ScoreChange } from "../../src/rules/effects";
import { RANKS } from "../../src/rules/ranks";

const typical = Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: 6 }])) as unknown as AbilitiesInput;
const change = fc.oneof(
  fc.record({ mode: fc.constant("add" as const), value: fc.integer({ min: -200, max: 200 }), priority: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }) }),
  fc.record({ mode: fc.constantFrom("override" as const, "upgrade" as const, "downgrade" as const), value: fc.nat(500), priority: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }) }),
);

describe("active effect: applyScoreChanges", () => {
  it("applies add, then downgrade, then upgrade, then override, whatever the order given", () => {
    const changes: ScoreChange[] = [
      { mode: "override", value: 50 },
      { mode: "add", value: 10 },
    ];
    expect(applyScoreChanges(20, changes)).toBe(50);
    expect(applyScoreChanges(20, [{ mode: "upgrade", value: 30 }, { mode: "add", value: 20 }])).toBe(40);
    expect(applyScoreChanges(20, [{ mode: "upgrade", value: 30 }, { mode: "downgrade", value: 10 }])).toBe(30);
    expect(applyScoreChanges(20, [])).toBe(20);
  });

  it("never goes below Shift 0 (0): an add of −50 to a Good 10 gives 0", () => {
    expect(applyScoreChanges(10, [{ mode: "add", value: -50 }])).toBe(0);
  });

  it("adds are summed before clamping, so their order never matters", () => {
    expect(applyScoreChanges(0, [{ mode: "add", value: -5 }, { mode: "add", value: 5 }])).toBe(0);
    expect(applyScoreChanges(0, [{ mode: "add", value: 5 }, { mode: "add", value: -5 }])).toBe(0);
    expect(applyScoreChanges(10, [{ mode: "add", value: -20 }, { mode: "add", value: 15 }])).toBe(5);
  });

  it("priority orders changes within one mode", () => {
    expect(applyScoreChanges(10, [{ mode: "override", value: 40, priority: 2 }, { mode: "override", value: 30, priority: 1 }])).toBe(40);
  });

  it("refuses bad changes with a clear error", () => {
    expect(() => applyScoreChanges(-3, [])).toThrow(RangeError);
    expect(() => applyScoreChanges(10, [{ mode: "multiply" as "add", value: 2 }])).toThrow(RangeError);
    expect(() => applyScoreChanges(10, [{ mode: "override", value: -5 }])).toThrow(/score change 1/);
    expect(() => applyScoreChanges(10, [{ mode: "add", value: Number.NaN }])).toThrow(RangeError);
    expect(() => applyScoreChanges(10, [{ mode: "add", value: 1.5 }])).toThrow(RangeError);
  });

  it("property: the result is a rank number, the order given does not matter, and an override decides", () => {
    fc.assert(fc.property(fc.nat(500), fc.array(change, { maxLength: 6 }), (base, changes) => {
      const out = applyScoreChanges(base, changes);
      expect(Number.isSafeInteger(out) && out >= 0).toBe(true);
      const overrides = changes.filter((c) => c.mode === "override");
      if (overrides.length === 0) {
        expect(applyScoreChanges(base, [...changes].reverse())).toBe(out);
      } else {
        expect(overrides.map((o) => o.value)).toContain(out);
      }
    }));
  });
});

describe("active effect: derived values follow the effects", () => {
  it("a Strength bonus raises Health; an Intuition override changes initiative", () => {
    const stats = statsAfterEffects(typical, { strength: [{ mode: "add", value: 24 }], intuition: [{ mode: "override", value: 30 }] });
    expect(stats.healthMax).toBe(6 * 3 + 30);
    expect(stats.initiative).toBe(characterStats({ ...typical, intuition: { value: 30 } }).initiative);
  });

  it("a change to a sub-score sets it apart from its ability, starting from the changed ability", () => {
    const a = abilitiesAfterEffects(typical, { fighting: [{ mode: "add", value: 4 }], "fighting.off": [{ mode: "add", value: 10 }] });
    const stats = characterStats(a);
    expect(stats.scores.fighting).toBe(10);
    expect(stats.scores["fighting.off"]).toBe(20);
    expect(stats.scores["fighting.def"]).toBe(10);
    expect(stats.setApart["fighting.off"]).toBe(true);
  });

  it("refuses a change to something that is not a score", () => {
    expect(() => abilitiesAfterEffects(typical, { luck: [{ mode: "add", value: 1 }] } as never)).toThrow(/"luck"/);
  });
});

describe("active effect: change values", () => {
  it("reads whole numbers, rank names and keys, and @rank for the carrying item's rank", () => {
    expect(parseChangeValue("24", null)).toBe(24);
    expect(parseChangeValue(" -10 ", null)).toBe(-10);
    expect(parseChangeValue("+5", null)).toBe(5);
    expect(parseChangeValue("Remarkable", null)).toBe(30);
    expect(parseChangeValue("shift0", null)).toBe(0);
    expect(parseChangeValue("Shift 0", null)).toBe(0);
    expect(parseChangeValue("@rank", 75)).toBe(75);
    expect(parseChangeValue(40, null)).toBe(40);
  });

  it("refuses a fraction, a word, an empty value and @rank with nothing carrying a rank, naming the value", () => {
    expect(() => parseChangeValue("1.5", null)).toThrow(/"1.5"/);
    expect(() => parseChangeValue("lots", null)).toThrow(/"lots"/);
    expect(() => parseChangeValue("", null)).toThrow(RangeError);
    expect(() => parseChangeValue(null, null)).toThrow(RangeError);
    expect(() => parseChangeValue("@rank", null)).toThrow(/@rank/);
  });

  it("a rank of −3 reads as a number but is refused for an override or upgrade; an add of −3 is allowed", () => {
    const value = parseChangeValue("-3", null);
    expect(() => {
      assertScoreChange({ mode: "override", value });
    }).toThrow(RangeError);
    expect(() => {
      assertScoreChange({ mode: "upgrade", value });
    }).toThrow(RangeError);
    expect(() => {
      assertScoreChange({ mode: "add", value });
    }).not.toThrow();
  });

  it("property: every rank's name and key read as its standard number; every whole number reads as itself", () => {
    for (const r of RANKS) {
      expect(parseChangeValue(r.name, null)).toBe(r.number);
      expect(parseChangeValue(r.key.toUpperCase(), null)).toBe(r.number);
    }
    fc.assert(fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (n) => {
      expect(parseChangeValue(String(n), null)).toBe(n);
    }));
  });

  it("property: anything that is not a number, a rank or @rank is refused (RangeError), never read as 0", () => {
    const names = new Set(RANKS.flatMap((r) => [r.name.toLowerCase(), r.key.toLowerCase()]));
    fc.assert(fc.property(fc.string(), (text) => {
      const t = text.trim().toLowerCase();
      fc.pre(!/^[+-]?\d+$/.test(t) && !names.has(t) && t !== OWN_RANK_VALUE);
      expect(() => parseChangeValue(text, 30)).toThrow(RangeError);
    }));
  });
});
