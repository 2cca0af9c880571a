import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_INITIATIVE_SETTINGS,
  INITIATIVE_DIE_SIDES,
  INITIATIVE_MODES,
  INITIATIVE_MODIFIERS,
  INITIATIVE_SHIFT0_MODIFIER,
  INITIATIVE_TIES_BY_MODIFIER,
  assertInitiativeRoll,
  assertInitiativeMode,
  initiativeModifier,
  initiativeTies,
  initiativeTotal,
  initiativeTotalForMode,
  isInitiativeMode,
  needsRoll,
  orderInitiative,
  teamInitiative,
  validateInitiativeModifiers,
  type InitiativeEntry,
  type InitiativeMode,
} from "../../src/rules/initiative";
import { RANKS, type Rank } from "../../src/rules/ranks";
import { rankNamed, samplesOf } from "../support/rank-samples";
import { rankValueList, rulesSection, signedNumber } from "../support/rules-doc";


/** Table 23's prose list in §4, from "Table 23" up to "Ties:". */
function table23Text(): string {
  const section = rulesSection(4).replace(/\s+/g, " ");
  const start = section.indexOf("Table 23");
  const end = section.indexOf("Ties:", start);
  if (start < 0 || end < 0) throw new Error("§4 no longer has Table 23's list ending at \"Ties:\".");
  return section.slice(start, end);
}

function docTable23(): { rank: Rank; modifier: number; ruling: boolean }[] {
  const text = table23Text();
  return rankValueList(text, "[+−–-]?\\d+").map(({ rank, value }) => ({
    rank: rankNamed(rank),
    modifier: signedNumber(value),
    ruling: new RegExp(`${rank} ${value} \\[RULING\\]`).test(text),
  }));
}

const rankNumber = fc.oneof(fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 2 ** 40 }));
const d10 = fc.integer({ min: 1, max: 10 });
const modifier = fc.integer({ min: -3, max: 25 });

// ---------------------------------------------------------------------------------------------
// Table 23
// ---------------------------------------------------------------------------------------------

describe("Table 23: initiative modifier (§4)", () => {
  it("reads a modifier for every rank of the ladder, in order, from the document", () => {
    expect(docTable23().map((d) => d.rank.index)).toEqual(RANKS.map((r) => r.index));
  });

  it("matches the document cell by cell, at the bottom, middle and top of each rank", () => {
    for (const { rank, modifier: expected } of docTable23()) {
      for (const n of samplesOf(rank)) expect(initiativeModifier(n), `${rank.name} (${n})`).toBe(expected);
    }
  });

  it("marks Shift 0 as the ruling, and the constant holds the document's value", () => {
    const shift0 = docTable23().find((d) => d.rank.index === 0);
    expect(shift0?.ruling).toBe(true);
    expect(INITIATIVE_SHIFT0_MODIFIER).toBe(shift0?.modifier);
    expect(docTable23().filter((d) => d.ruling)).toHaveLength(1);
  });

  it("never falls as Intuition grows", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(initiativeModifier(lo)).toBeLessThanOrEqual(initiativeModifier(hi));
      }),
    );
  });

  it("accepts a replacement table and rejects a broken one", () => {
    const zero = Object.fromEntries(RANKS.map((r) => [r.key, 0])) as Record<Rank["key"], number>;
    expect(initiativeModifier(5000, zero)).toBe(0);
    expect(() => { validateInitiativeModifiers(INITIATIVE_MODIFIERS); }).not.toThrow();
    expect(() => initiativeModifier(10, { ...zero, good: 0.5 })).toThrow(/good/);
    expect(() => initiativeModifier(10, { ...zero, speedy: 1 } as never)).toThrow(/unknown rank "speedy"/);
    expect(() => { validateInitiativeModifiers(undefined); }).toThrow(TypeError);
  });

  it("rejects invalid Intuition", () => {
    for (const bad of [-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => initiativeModifier(bad), String(bad)).toThrow(RangeError);
    expect(() => initiativeModifier(-2)).toThrow(/Intuition .*-2/);
  });
});

describe("initiativeTotal", () => {
  it("is the document's 1d10 + modifier", () => {
    const [die = ""] = /= 1(d\d+) \+ modifier/.exec(table23Text())?.slice(1) ?? [];
    expect(die).toBe(`d${INITIATIVE_DIE_SIDES}`);
    fc.assert(
      fc.property(d10, modifier, (roll, mod) => {
        expect(initiativeTotal(roll, mod)).toBe(roll + mod);
      }),
    );
  });

  it("rejects a d10 outside 1..10 and a non-whole modifier", () => {
    for (const bad of [0, 11, 1.5, -3, Number.NaN]) {
      expect(() => initiativeTotal(bad, 0), String(bad)).toThrow(RangeError);
      expect(() => { assertInitiativeRoll(bad); }, String(bad)).toThrow(/1 to 10/);
    }
    for (const bad of [0.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => initiativeTotal(5, bad), String(bad)).toThrow(/modifier/);
  });
});

// ---------------------------------------------------------------------------------------------
// Order
// ---------------------------------------------------------------------------------------------

const entryArb = fc.record(
  {
    total: fc.integer({ min: -2, max: 12 }),
    modifier: fc.integer({ min: -3, max: 3 }),
    tiebreak: fc.integer({ min: 1, max: 3 }),
  },
  { requiredKeys: ["total", "modifier"] },
);
const entriesArb = fc.array(entryArb, { maxLength: 40 }).map((es) => es.map((e, i): InitiativeEntry => ({ id: `c${i}`, ...e })));

function deepFreeze(entries: InitiativeEntry[]): readonly InitiativeEntry[] {
  return Object.freeze(entries.map((e) => Object.freeze({ ...e })));
}

describe("orderInitiative", () => {
  it("breaks ties by higher modifier, as the document's ruling says", () => {
    const section = rulesSection(4).replace(/\s+/g, " ");
    expect(section).toMatch(/Ties: \[RULING\] higher modifier first, then a d10 roll-off\./);
    expect(INITIATIVE_TIES_BY_MODIFIER).toBe(true);
  });

  it("orders by total, then modifier, then tiebreak, then input order", () => {
    const entries: InitiativeEntry[] = [
      { id: "slow", total: 3, modifier: 0 },
      { id: "fast", total: 12, modifier: 2 },
      { id: "tieLowMod", total: 8, modifier: 1 },
      { id: "tieHighMod", total: 8, modifier: 4 },
      { id: "rollOffLow", total: 5, modifier: 1, tiebreak: 2 },
      { id: "noRollOff", total: 5, modifier: 1 },
      { id: "rollOffHigh", total: 5, modifier: 1, tiebreak: 9 },
      { id: "firstOfEqual", total: 0, modifier: 0 },
      { id: "secondOfEqual", total: 0, modifier: 0 },
    ];
    expect(orderInitiative(entries)).toEqual([
      "fast",
      "tieHighMod",
      "tieLowMod",
      "rollOffHigh",
      "rollOffLow",
      "noRollOff",
      "slow",
      "firstOfEqual",
      "secondOfEqual",
    ]);
  });

  it("goes straight to the roll-off when ties by modifier are switched off", () => {
    const entries: InitiativeEntry[] = [
      { id: "a", total: 8, modifier: 1, tiebreak: 7 },
      { id: "b", total: 8, modifier: 4, tiebreak: 3 },
    ];
    expect(orderInitiative(entries)).toEqual(["b", "a"]);
    expect(orderInitiative(entries, { tiesByModifier: false })).toEqual(["a", "b"]);
  });

  it("is a stable sort by (total, modifier, tiebreak) descending, and never mutates its input", () => {
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const frozen = deepFreeze(entries);
        const snapshot = JSON.stringify(frozen);
        const ids = orderInitiative(frozen);
        expect(JSON.stringify(frozen)).toBe(snapshot);
        expect([...ids].sort()).toEqual(entries.map((e) => e.id).sort());
        const byId = new Map(entries.map((e, i) => [e.id, { ...e, index: i }]));
        for (let k = 1; k < ids.length; k++) {
          const a = byId.get(ids[k - 1] ?? "");
          const b = byId.get(ids[k] ?? "");
          if (!a || !b) throw new Error("unknown id in the order");
          const key = (e: typeof a): number[] => [e.total, e.modifier, e.tiebreak ?? Number.NEGATIVE_INFINITY];
          const [ka, kb] = [key(a), key(b)];
          const cmp = ka.findIndex((v, j) => v !== kb[j]);
          if (cmp < 0) expect(a.index).toBeLessThan(b.index);
          else expect(ka[cmp]).toBeGreaterThan(kb[cmp] ?? Number.NaN);
        }
      }),
    );
  });

  it("handles a large field quickly (O(n log n))", () => {
    const n = 200_000;
    const entries = Array.from({ length: n }, (_, i): InitiativeEntry => ({ id: `c${i}`, total: (i * 7919) % 35, modifier: (i * 31) % 29 - 3 }));
    const start = performance.now();
    const ids = orderInitiative(entries);
    expect(ids).toHaveLength(n);
    expect(performance.now() - start).toBeLessThan(3000);
  });

  it("rejects bad entries", () => {
    expect(() => orderInitiative([{ id: "a", total: 1, modifier: 0 }, { id: "a", total: 2, modifier: 0 }])).toThrow(/"a" appears more than once/);
    expect(() => orderInitiative([{ id: "", total: 1, modifier: 0 }])).toThrow(/non-empty string id/);
    expect(() => orderInitiative([{ id: 3 as unknown as string, total: 1, modifier: 0 }])).toThrow(RangeError);
    expect(() => orderInitiative([{ id: "a", total: Number.NaN, modifier: 0 }])).toThrow(/total of "a"/);
    expect(() => orderInitiative([{ id: "a", total: 1.5, modifier: 0 }])).toThrow(/total of "a"/);
    expect(() => orderInitiative([{ id: "a", total: 1, modifier: 0.5 }])).toThrow(/modifier of "a"/);
    expect(() => orderInitiative([{ id: "a", total: 1, modifier: 0, tiebreak: Number.NaN }])).toThrow(/tiebreak of "a"/);
    expect(() => orderInitiative([null as unknown as InitiativeEntry])).toThrow(TypeError);
    expect(() => orderInitiative("abc" as unknown as InitiativeEntry[])).toThrow(TypeError);
    expect(() => orderInitiative([], { tiesByModifier: "no" as unknown as boolean })).toThrow(TypeError);
    expect(orderInitiative([])).toEqual([]);
  });
});

describe("initiativeTies", () => {
  it("lists the groups that still need a roll-off, in acting order", () => {
    const entries: InitiativeEntry[] = [
      { id: "a", total: 8, modifier: 1 },
      { id: "b", total: 8, modifier: 1 },
      { id: "c", total: 8, modifier: 2 },
      { id: "d", total: 10, modifier: 0, tiebreak: 4 },
      { id: "e", total: 10, modifier: 0, tiebreak: 4 },
      { id: "f", total: 10, modifier: 0, tiebreak: 5 },
      { id: "g", total: 2, modifier: 0 },
    ];
    expect(initiativeTies(entries)).toEqual([
      ["d", "e"],
      ["a", "b"],
    ]);
    expect(initiativeTies(entries, { tiesByModifier: false })).toEqual([
      ["d", "e"],
      ["a", "b", "c"],
    ]);
  });

  it("finds exactly the entries whose whole sort key is shared", () => {
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const key = (e: InitiativeEntry): string => `${e.total}|${e.modifier}|${String(e.tiebreak)}`;
        const counts = new Map<string, number>();
        for (const e of entries) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
        const tied = new Set(initiativeTies(entries).flat());
        for (const e of entries) expect(tied.has(e.id)).toBe((counts.get(key(e)) ?? 0) > 1);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Optional rules
// ---------------------------------------------------------------------------------------------

describe("initiative modes", () => {
  it("lists the standard rule and the document's three optional modes, and a team flag", () => {
    expect([...INITIATIVE_MODES]).toEqual(["everyTurn", "oncePerCombat", "modifierOnly", "fixedOrder"]);
    const section = rulesSection(4).replace(/\s+/g, " ");
    expect(section).toMatch(/roll once per combat; no roll \(modifier only, roll ties\); fixed order; team initiative \(one roll for a group\)/);
    expect(DEFAULT_INITIATIVE_SETTINGS).toEqual({ mode: "everyTurn", team: false });
    for (const mode of INITIATIVE_MODES) expect(isInitiativeMode(mode)).toBe(true);
    expect(isInitiativeMode("random")).toBe(false);
    expect(() => { assertInitiativeMode("random"); }).toThrow(/Unknown initiative mode "random"/);
  });

  it("says who rolls", () => {
    const cases: [InitiativeMode, boolean, boolean][] = [
      ["everyTurn", false, true],
      ["everyTurn", true, true],
      ["oncePerCombat", false, true],
      ["oncePerCombat", true, false],
      ["modifierOnly", false, false],
      ["modifierOnly", true, false],
      ["fixedOrder", false, false],
      ["fixedOrder", true, false],
    ];
    for (const [mode, hasRolledThisCombat, expected] of cases) {
      expect(needsRoll(mode, { hasRolledThisCombat }), `${mode} ${String(hasRolledThisCombat)}`).toBe(expected);
    }
    expect(() => needsRoll("sometimes" as InitiativeMode, { hasRolledThisCombat: false })).toThrow(RangeError);
    expect(() => needsRoll("everyTurn", {} as never)).toThrow(TypeError);
    expect(() => needsRoll("everyTurn", null as never)).toThrow(TypeError);
  });

  it("computes a total per mode", () => {
    fc.assert(
      fc.property(d10, modifier, (roll, mod) => {
        expect(initiativeTotalForMode("everyTurn", mod, roll)).toBe(roll + mod);
        expect(initiativeTotalForMode("oncePerCombat", mod, roll)).toBe(roll + mod);
        expect(initiativeTotalForMode("modifierOnly", mod)).toBe(mod);
        expect(initiativeTotalForMode("fixedOrder", mod)).toBeNull();
      }),
    );
    expect(() => initiativeTotalForMode("everyTurn", 2)).toThrow(/needs a d10/);
    expect(() => initiativeTotalForMode("modifierOnly", 2, 5)).toThrow(/does not use a d10/);
    expect(() => initiativeTotalForMode("everyTurn", 2, 11)).toThrow(RangeError);
    expect(() => initiativeTotalForMode("modifierOnly", 1.5)).toThrow(/modifier/);
    expect(() => initiativeTotalForMode("chaos" as InitiativeMode, 1)).toThrow(/chaos/);
  });

  it("gives every team member the group's one result, keeping the team's own order", () => {
    const team = teamInitiative(["cap", "wasp", "thor"], { total: initiativeTotal(6, 3), modifier: 3 });
    expect(team).toEqual([
      { id: "cap", total: 9, modifier: 3 },
      { id: "wasp", total: 9, modifier: 3 },
      { id: "thor", total: 9, modifier: 3 },
    ]);
    const withRollOff = teamInitiative(["a"], { total: 4, modifier: 1, tiebreak: 7 });
    expect(withRollOff).toEqual([{ id: "a", total: 4, modifier: 1, tiebreak: 7 }]);
    const villains: InitiativeEntry[] = [
      { id: "doom", total: 12, modifier: 7 },
      { id: "goon", total: 4, modifier: 0 },
    ];
    expect(orderInitiative([...villains, ...team])).toEqual(["doom", "cap", "wasp", "thor", "goon"]);
  });

  it("rejects a bad team", () => {
    expect(() => teamInitiative(["a", "a"], { total: 5, modifier: 0 })).toThrow(/more than once/);
    expect(() => teamInitiative([""], { total: 5, modifier: 0 })).toThrow(/non-empty/);
    expect(() => teamInitiative(["a"], { total: 5.5, modifier: 0 })).toThrow(/total/);
    expect(() => teamInitiative(["a"], { total: 5, modifier: 0, tiebreak: Number.NaN })).toThrow(/tiebreak/);
    expect(() => teamInitiative("a" as unknown as string[], { total: 5, modifier: 0 })).toThrow(TypeError);
    expect(() => teamInitiative(["a"], null as never)).toThrow(TypeError);
    expect(teamInitiative([], { total: 5, modifier: 0 })).toEqual([]);
  });
});
