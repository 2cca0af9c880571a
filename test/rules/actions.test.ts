import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSubScoreRef } from "../../src/rules/abilities";
import {
  ACTIONS_TABLE,
  BELOW_SHIFT0_IMPOSSIBLE,
  CHANGE_ACTION_CS,
  CHANGE_ACTION_REQUIRED_COLOR,
  CHANGE_ACTION_SUB_SCORE,
  EXTRA_ACTION_FAIL_CS,
  EXTRA_ACTION_SEPARATE_CS,
  EXTRA_ACTION_SUB_SCORE,
  EXTRA_DEFENCE_CS,
  FLURRY_DAMAGE_CS_PER_DOUBLING,
  FREE_DEFENCE_SUB_SCORE,
  FULL_MOVE_CS,
  FULL_MOVE_MAX_ACTIONS,
  IMPOSSIBLE,
  INTENSITY_COMPARED_WITH,
  KARMA_MINIMUM,
  KARMA_ROLL_CAP,
  MAX_ACTIONS_PER_TURN,
  MIN_ACTIONS_PER_TURN,
  NO_INTENSITY_REQUIRED_COLOR,
  actionsPerTurn,
  applyKarma,
  assertKarmaSpend,
  canSpendKarma,
  changeActionOutcome,
  defencePenalty,
  extraActionIntensity,
  extraActionOutcome,
  extraActionRequiredColor,
  flurryDamageShift,
  freeDefences,
  fullMovePenalty,
  requiredColor,
  requiredColorIndex,
  resolveAction,
  spendKarma,
  type RequiredColor,
} from "../../src/rules/actions";
import { MAX_RANK_INDEX, RANKS, rankOf, type Rank } from "../../src/rules/ranks";
import { UNIVERSAL_TABLE, colorIndex, isColor, type Color } from "../../src/rules/universal-table";
import { rulesSection, rulesTable, signedNumber, tableRecords } from "../support/rules-doc";
import { rankNamed, samplesOf } from "../support/rank-samples";


/** A section's text with all runs of whitespace (line breaks too) made single spaces. */
function prose(n: number): string {
  return rulesSection(n).replace(/\s+/g, " ");
}

/** The capture groups of `re` in section `n`'s prose; fails loudly when the text has moved. */
function match(n: number, re: RegExp): string[] {
  const m = re.exec(prose(n));
  if (!m) throw new Error(`§${n} no longer says ${String(re)}.`);
  return Array.from(m).slice(1).map((g: string | undefined) => g ?? "");
}

function docColor(word: string): RequiredColor {
  if (word === IMPOSSIBLE || isColor(word)) return word;
  throw new Error(`Not a colour: "${word}".`);
}

const rankNumber = fc.oneof(fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 2 ** 40 }));
const d100 = fc.integer({ min: 1, max: 100 });
const karmaSpend = fc.oneof(fc.constant(0), fc.integer({ min: KARMA_MINIMUM, max: 500 }));
const invalidRankNumbers = [-1, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

// ---------------------------------------------------------------------------------------------
// §2: ACTION against an intensity
// ---------------------------------------------------------------------------------------------

describe("requiredColor (§2)", () => {
  const [higher = "", equal = "", oneHigher = "", twoHigher = ""] = match(
    2,
    /acting rank higher → (\w+) needed; equal → (\w+); intensity one rank higher → (\w+); two or more ranks higher → (\w+)\./,
  );
  const [noIntensity = ""] = match(2, /With no intensity given, (\w+) succeeds\./);

  /** The document's rule for a given ladder gap (intensity index − acting index). */
  function docRule(gap: number): RequiredColor {
    if (gap < 0) return docColor(higher);
    if (gap === 0) return docColor(equal);
    if (gap === 1) return docColor(oneHigher);
    return docColor(twoHigher);
  }

  it("follows the document for every pair of ranks, at every sample rank number", () => {
    for (const acting of RANKS) {
      for (const intensity of RANKS) {
        const expected = docRule(intensity.index - acting.index);
        for (const a of samplesOf(acting)) {
          for (const i of samplesOf(intensity)) expect(requiredColor(a, i), `${acting.name} vs ${intensity.name}`).toBe(expected);
        }
      }
    }
  });

  it("compares ladder positions, not numbers", () => {
    expect(requiredColor(46, 62)).toBe("yellow"); // both Amazing
    expect(requiredColor(45, 46)).toBe("red"); // Incredible vs Amazing
    expect(requiredColor(62, 46)).toBe("yellow");
  });

  it("needs green with no intensity, as the document says", () => {
    expect(NO_INTENSITY_REQUIRED_COLOR).toBe(docColor(noIntensity));
    expect(resolveAction({ value: 10, roll: 1 }).required).toBe(docColor(noIntensity));
  });

  it("is monotone: a higher acting rank never needs more, a higher intensity never needs less", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, rankNumber, (a, b, i) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(requiredColorIndex(requiredColor(hi, i))).toBeLessThanOrEqual(requiredColorIndex(requiredColor(lo, i)));
        expect(requiredColorIndex(requiredColor(i, hi))).toBeGreaterThanOrEqual(requiredColorIndex(requiredColor(i, lo)));
      }),
    );
  });

  it("rejects invalid rank numbers", () => {
    for (const bad of invalidRankNumbers) {
      expect(() => requiredColor(bad, 10), String(bad)).toThrow(RangeError);
      expect(() => requiredColor(10, bad), String(bad)).toThrow(RangeError);
    }
    expect(() => requiredColor(10, -4)).toThrow(/Intensity .*-4/);
  });
});

// ---------------------------------------------------------------------------------------------
// §2: Karma
// ---------------------------------------------------------------------------------------------

describe("Karma (§2)", () => {
  it("has the document's minimum and cap", () => {
    const [minimum = ""] = match(2, /declared before the roll \(at least (\d+) points\)/);
    const [cap = ""] = match(2, /added to the d100 result \(capped at (\d+)\)/);
    expect(KARMA_MINIMUM).toBe(Number(minimum));
    expect(KARMA_ROLL_CAP).toBe(Number(cap));
  });

  it("adds the Karma to the roll, capped", () => {
    fc.assert(
      fc.property(d100, karmaSpend, (roll, k) => {
        const total = applyKarma(roll, k);
        expect(total).toBe(Math.min(KARMA_ROLL_CAP, roll + k));
        expect(total).toBeGreaterThanOrEqual(roll);
        expect(applyKarma(roll, 0)).toBe(roll);
      }),
    );
    expect(applyKarma(95, 10)).toBe(100);
    expect(applyKarma(40, 10)).toBe(50);
  });

  it("forbids Karma when blindsided", () => {
    const [forbidden = ""] = match(2, /Not allowed when the character is (\w+)\./);
    expect(forbidden).toBe("blindsided");
    expect(() => applyKarma(50, 10, { blindsided: true })).toThrow(/blindsided/);
    expect(applyKarma(50, 0, { blindsided: true })).toBe(50);
    expect(applyKarma(50, 10, { blindsided: false })).toBe(60);
  });

  it("rejects bad rolls and bad Karma amounts, naming the value", () => {
    for (const roll of [0, 101, 50.5, Number.NaN, -1]) expect(() => applyKarma(roll, 0), String(roll)).toThrow(RangeError);
    for (const k of [1, 9, -10, 10.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => applyKarma(50, k), String(k)).toThrow(RangeError);
      expect(() => { assertKarmaSpend(k); }, String(k)).toThrow(RangeError);
    }
    expect(() => applyKarma(50, 9)).toThrow(/at least 10, got 9/);
  });

  it("spends from a pool without ever taking it below 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), karmaSpend, (pool, k) => {
        expect(canSpendKarma(pool, k)).toBe(k <= pool);
        if (k <= pool) expect(spendKarma(pool, k)).toBe(pool - k);
        else expect(() => spendKarma(pool, k)).toThrow(/below 0/);
      }),
    );
    expect(spendKarma(10, 10)).toBe(0);
    expect(() => spendKarma(-1, 0)).toThrow(/pool .*-1/);
    expect(() => spendKarma(50, 5)).toThrow(/at least 10/);
    expect(() => canSpendKarma(1.5, 0)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// resolveAction
// ---------------------------------------------------------------------------------------------

/** The document's §2 Universal Table, first roll of each band, by engine rank index. */
function docBands(): Map<number, { green: number; yellow: number; red: number }> {
  return new Map(
    tableRecords(rulesTable(2, "column", "green from")).map((r) => [
      rankNamed(r["column"] ?? "").index,
      { green: Number(r["green from"]), yellow: Number(r["yellow from"]), red: Number(r["red from"]) },
    ]),
  );
}

describe("resolveAction", () => {
  const bands = docBands();

  it("reads the roll on the value's column and succeeds on green without an intensity", () => {
    for (const rank of RANKS) {
      const band = bands.get(rank.index);
      if (!band) throw new Error(`No document column for ${rank.name}.`);
      const hit = resolveAction({ value: rank.number, roll: band.green });
      expect(hit.column).toBe(rank);
      expect(hit.color, rank.name).toBe(band.green === band.yellow ? "yellow" : "green");
      expect(hit.success).toBe(true);
      if (band.green > 1) {
        const miss = resolveAction({ value: rank.number, roll: band.green - 1 });
        expect(miss.color).toBe("white");
        expect(miss.success).toBe(false);
      }
    }
  });

  it("needs yellow against an equal intensity and red one rank up", () => {
    const rm = bands.get(rankNamed("Remarkable").index);
    if (!rm) throw new Error("no Remarkable column");
    expect(resolveAction({ value: 30, roll: rm.yellow - 1, intensity: 30 })).toMatchObject({ color: "green", required: "yellow", success: false });
    expect(resolveAction({ value: 30, roll: rm.yellow, intensity: 30 })).toMatchObject({ color: "yellow", success: true });
    expect(resolveAction({ value: 30, roll: rm.red - 1, intensity: 40 })).toMatchObject({ required: "red", success: false });
    expect(resolveAction({ value: 30, roll: rm.red, intensity: 40 })).toMatchObject({ color: "red", success: true });
  });

  it("never succeeds against an intensity two ranks up, even on 100", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RANK_INDEX - 2 }), d100, karmaSpend, fc.integer({ min: -3, max: 5 }), (index, roll, karma, cs) => {
        const acting = RANKS[index];
        const intensity = RANKS[index + 2 + (roll % (MAX_RANK_INDEX - index - 1))];
        if (!acting || !intensity) throw new Error("index out of ladder");
        const result = resolveAction({ value: acting.number, roll, karma, cs, intensity: intensity.number });
        expect(result.required).toBe(IMPOSSIBLE);
        expect(result.success).toBe(false);
      }),
    );
  });

  it("adds Karma before reading the colour and reports both rolls", () => {
    const rm = bands.get(rankNamed("Remarkable").index);
    if (!rm) throw new Error("no Remarkable column");
    const result = resolveAction({ value: 30, roll: rm.green - 10, karma: 10 });
    expect(result).toMatchObject({ roll: rm.green - 10, total: rm.green, color: "green", success: true });
    expect(resolveAction({ value: 30, roll: 95, karma: 50 }).total).toBe(100);
    expect(() => resolveAction({ value: 30, roll: 50, karma: 10, blindsided: true })).toThrow(/blindsided/);
  });

  it("reads the shifted column, and a shift below Shift 0 makes the ACTION impossible [RULING]", () => {
    expect(BELOW_SHIFT0_IMPOSSIBLE).toBe(true);
    const up = resolveAction({ value: 30, roll: 50, cs: 2 });
    expect(up.column.name).toBe("Amazing");
    const down = resolveAction({ value: 2, roll: 100, cs: -2 });
    expect(down).toMatchObject({ belowShift0: true, required: IMPOSSIBLE, success: false, color: "red" });
    expect(down.column.index).toBe(0);
    const clamped = resolveAction({ value: 2, roll: 100, cs: -2, belowShift0Impossible: false });
    expect(clamped).toMatchObject({ belowShift0: true, required: "green", success: true });
    expect(resolveAction({ value: 2, roll: 100, cs: -1 })).toMatchObject({ belowShift0: false, success: true });
  });

  it("compares the intensity with the unshifted rank by default [RULING]", () => {
    expect(INTENSITY_COMPARED_WITH).toBe("rank");
    const am = bands.get(rankNamed("Amazing").index);
    if (!am) throw new Error("no Amazing column");
    // Incredible +1 CS against Amazing: red needed (rank), read on the Amazing column.
    const byRank = resolveAction({ value: 40, roll: am.yellow, cs: 1, intensity: 50 });
    expect(byRank).toMatchObject({ required: "red", color: "yellow", success: false });
    expect(byRank.column.name).toBe("Amazing");
    const byColumn = resolveAction({ value: 40, roll: am.yellow, cs: 1, intensity: 50, intensityComparedWith: "column" });
    expect(byColumn).toMatchObject({ required: "yellow", success: true });
  });

  it("supports a fixed colour (\"a yellow ACTION\")", () => {
    const ty = bands.get(rankNamed("Typical").index);
    if (!ty) throw new Error("no Typical column");
    expect(resolveAction({ value: 6, roll: ty.yellow - 1, needed: "yellow" })).toMatchObject({ required: "yellow", success: false });
    expect(resolveAction({ value: 6, roll: ty.yellow, needed: "yellow" })).toMatchObject({ success: true });
  });

  it("is consistent: success exactly when the colour rolled reaches the colour needed", () => {
    fc.assert(
      fc.property(rankNumber, d100, fc.integer({ min: -20, max: 20 }), karmaSpend, fc.option(rankNumber, { nil: undefined }), (value, roll, cs, karma, intensity) => {
        const r = resolveAction({ value, roll, cs, karma, intensity });
        expect(r.roll).toBe(roll);
        expect(r.total).toBe(Math.min(100, roll + karma));
        expect(r.belowShift0).toBe(rankOf(value).index + cs < 0);
        expect(r.column.index).toBe(Math.max(0, Math.min(MAX_RANK_INDEX, rankOf(value).index + cs)));
        expect(r.success).toBe(r.required !== IMPOSSIBLE && colorIndex(r.color) >= colorIndex(r.required));
        if (intensity === undefined && !r.belowShift0) expect(r.required).toBe("green");
      }),
    );
  });

  it("never turns a success into a failure with a higher roll, more Karma or a better shift", () => {
    fc.assert(
      fc.property(rankNumber, d100, d100, fc.integer({ min: -10, max: 10 }), fc.nat(5), fc.option(rankNumber, { nil: undefined }), (value, r1, r2, cs, extraCs, intensity) => {
        const [lo, hi] = r1 <= r2 ? [r1, r2] : [r2, r1];
        const base = resolveAction({ value, roll: lo, cs, intensity });
        if (base.success) {
          expect(resolveAction({ value, roll: hi, cs, intensity }).success).toBe(true);
          expect(resolveAction({ value, roll: lo, cs, intensity, karma: KARMA_MINIMUM }).success).toBe(true);
          expect(resolveAction({ value, roll: lo, cs: cs + extraCs, intensity }).success).toBe(true);
        }
      }),
    );
  });

  it("uses a replacement Universal Table and rejects a broken one", () => {
    const easy = UNIVERSAL_TABLE.map(() => ({ green: 2, yellow: 3, red: 4 }));
    expect(resolveAction({ value: 0, roll: 2, table: easy }).color).toBe("green");
    expect(() => resolveAction({ value: 0, roll: 2, table: easy.slice(1) })).toThrow(RangeError);
  });

  it("rejects bad input", () => {
    expect(() => resolveAction({ value: -1, roll: 50 })).toThrow(/-1/);
    expect(() => resolveAction({ value: 10, roll: 0 })).toThrow(RangeError);
    expect(() => resolveAction({ value: 10, roll: 50, cs: 0.5 })).toThrow(RangeError);
    expect(() => resolveAction({ value: 10, roll: 50, karma: 5 })).toThrow(RangeError);
    expect(() => resolveAction({ value: 10, roll: 50, intensity: Number.NaN })).toThrow(/Intensity/);
    expect(() => resolveAction({ value: 10, roll: 50, intensity: 10, needed: "yellow" })).toThrow(TypeError);
    expect(() => resolveAction({ value: 10, roll: 50, needed: "blue" as Color })).toThrow(/blue/);
    expect(() => resolveAction({ value: 10, roll: 50, intensityComparedWith: "both" as "rank" })).toThrow(/both/);
    expect(() => resolveAction({ value: 10, roll: 50, blindsided: "yes" as unknown as boolean })).toThrow(TypeError);
    expect(() => resolveAction({ value: 10, roll: 50, belowShift0Impossible: 1 as unknown as boolean })).toThrow(TypeError);
    expect(() => resolveAction(null as never)).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// §4: Table 22
// ---------------------------------------------------------------------------------------------

function docTable22(): { rank: Rank; actions: number }[] {
  return tableRecords(rulesTable(4, "rank", "actions")).map((r) => ({ rank: rankNamed(r["rank"] ?? ""), actions: Number(r["actions"]) }));
}

/** The document's reading for rank `rank`: the highest row at or below it, else the minimum. */
function docActionsFor(rank: Rank, minimum: number): number {
  let actions = minimum;
  for (const row of docTable22()) if (row.rank.index <= rank.index) actions = row.actions;
  return actions;
}

describe("Table 22: actions and free defences per turn (§4)", () => {
  const [minimumWord = ""] = match(4, /everyone has at least (\w+) of each/);
  const minimum = minimumWord === "1" || minimumWord === "one" ? 1 : Number.NaN;

  it("has the document's rows, cell by cell", () => {
    const doc = docTable22();
    expect(doc.length).toBeGreaterThan(0);
    expect(ACTIONS_TABLE.map((r) => [r.rank, r.actions])).toEqual(doc.map((d) => [d.rank.key, d.actions]));
    expect(MIN_ACTIONS_PER_TURN).toBe(minimum);
    expect(MAX_ACTIONS_PER_TURN).toBe(Math.max(...doc.map((d) => d.actions)));
  });

  it("gives every rank the document's row (a rank between rows counts as the lower row)", () => {
    for (const rank of RANKS) {
      const expected = docActionsFor(rank, minimum);
      for (const n of samplesOf(rank)) {
        expect(actionsPerTurn(n), `${rank.name} (${n})`).toBe(expected);
        expect(freeDefences(n), `${rank.name} (${n})`).toBe(expected);
      }
    }
  });

  it("matches the document's worked example and the brief's readings", () => {
    const [rank = "", count = ""] = match(4, /\((\w+) Ftg \(def\) → (\d+) free defences\)/);
    expect(freeDefences(rankNamed(rank).number)).toBe(Number(count));
    expect(actionsPerTurn(40)).toBe(2); // Incredible
    expect(actionsPerTurn(75)).toBe(3); // Monstrous
    expect(actionsPerTurn(150)).toBe(4); // Shift X
    expect(actionsPerTurn(500)).toBe(5); // Shift Z
    expect(actionsPerTurn(25)).toBe(1); // Excellent
  });

  it("never gives fewer actions to a higher rank, and always at least one", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(actionsPerTurn(lo)).toBeLessThanOrEqual(actionsPerTurn(hi));
        expect(actionsPerTurn(lo)).toBeGreaterThanOrEqual(1);
        expect(freeDefences(hi)).toBe(actionsPerTurn(hi));
      }),
    );
  });

  it("names the extra-action intensity for each count from the document", () => {
    for (const { rank, actions } of docTable22()) expect(extraActionIntensity(actions)).toBe(rank);
    for (const bad of [1, 0, -2, MAX_ACTIONS_PER_TURN + 1, 2.5, Number.NaN]) {
      expect(() => extraActionIntensity(bad), String(bad)).toThrow(RangeError);
    }
    expect(() => extraActionIntensity(9)).toThrow(/got 9/);
  });

  it("reproduces [001]'s example: three actions need red from Incredible, green from Monstrous", () => {
    expect(extraActionRequiredColor(40, 3)).toBe("red");
    expect(extraActionRequiredColor(75, 3)).toBe("green");
    expect(extraActionRequiredColor(50, 3)).toBe("yellow");
    expect(extraActionRequiredColor(30, 3)).toBe(IMPOSSIBLE);
  });

  it("is rolled on and read from the sub-scores the document names", () => {
    const table = rulesTable(3, "ability", "sub-scores");
    const usedFor = table.header.find((h) => h.startsWith("used for")) ?? "";
    const fighting = tableRecords(table).find((r) => (r["ability"] ?? "").startsWith("Fighting"))?.[usedFor] ?? "";
    expect(fighting).toMatch(/off: [^.]*extra-action roll/);
    expect(fighting).toMatch(/def: [^.]*free defences/);
    expect(EXTRA_ACTION_SUB_SCORE).toBe("fighting.off");
    expect(FREE_DEFENCE_SUB_SCORE).toBe("fighting.def");
    const [offence = ""] = match(4, /offence: needs a (\w+ \(\w+\)) ACTION/);
    const [defence = ""] = match(4, /by (\w+ \(\w+\)) rank; everyone/);
    expect(parseSubScoreRef(offence)).toBe(EXTRA_ACTION_SUB_SCORE);
    expect(parseSubScoreRef(defence)).toBe(FREE_DEFENCE_SUB_SCORE);
  });

  it("rejects invalid rank numbers", () => {
    for (const bad of invalidRankNumbers) {
      expect(() => actionsPerTurn(bad), String(bad)).toThrow(RangeError);
      expect(() => freeDefences(bad), String(bad)).toThrow(RangeError);
    }
    expect(() => freeDefences(-7)).toThrow(/def.*-7/);
  });
});

// ---------------------------------------------------------------------------------------------
// §4: extra-action outcome
// ---------------------------------------------------------------------------------------------

describe("extra-action outcome (§4)", () => {
  it("has the document's shifts", () => {
    const [fail = ""] = match(4, /Failed extra-action roll → one action only, at ([−+-]?\d+) CS\./);
    const [separate = ""] = match(4, /separate actions at ([−+-]?\d+) CS each/);
    const [flurry = ""] = match(4, /flurry\*?: ([−+-]?\d+) CS to damage per doubling of attacks/);
    expect(EXTRA_ACTION_FAIL_CS).toBe(signedNumber(fail));
    expect(EXTRA_ACTION_SEPARATE_CS).toBe(signedNumber(separate));
    expect(FLURRY_DAMAGE_CS_PER_DOUBLING).toBe(signedNumber(flurry));
  });

  it("gives one action at the failure shift on a failed roll, whatever the mode", () => {
    for (let n = 2; n <= MAX_ACTIONS_PER_TURN; n++) {
      for (const mode of ["separate", "flurry"] as const) {
        expect(extraActionOutcome(false, n, mode)).toEqual({ actions: 1, actionCs: EXTRA_ACTION_FAIL_CS, damageCs: 0 });
      }
    }
  });

  it("gives separate actions at −1 CS each, or one flurry with +1 CS damage per doubling", () => {
    expect(extraActionOutcome(true, 3, "separate")).toEqual({ actions: 3, actionCs: -1, damageCs: 0 });
    expect(extraActionOutcome(true, 2, "flurry")).toEqual({ actions: 1, actionCs: 0, damageCs: 1 });
    expect(extraActionOutcome(true, 3, "flurry")).toEqual({ actions: 1, actionCs: 0, damageCs: 1 });
    expect(extraActionOutcome(true, 4, "flurry")).toEqual({ actions: 1, actionCs: 0, damageCs: 2 });
    expect(extraActionOutcome(true, 8, "flurry")).toEqual({ actions: 1, actionCs: 0, damageCs: 3 });
  });

  it("counts doublings exactly: 2^s ≤ attacks < 2^(s+1)", () => {
    expect([1, 2, 3, 4, 5, 7, 8, 9, 16].map(flurryDamageShift)).toEqual([0, 1, 1, 2, 2, 2, 3, 3, 4]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const s = flurryDamageShift(n);
        expect(2 ** s).toBeLessThanOrEqual(n);
        expect(2 ** (s + 1)).toBeGreaterThan(n);
      }),
    );
  });

  it("rejects bad input", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => flurryDamageShift(bad), String(bad)).toThrow(RangeError);
    for (const bad of [1, 9, 2.5]) expect(() => extraActionOutcome(true, bad, "separate"), String(bad)).toThrow(RangeError);
    expect(() => extraActionOutcome(true, 3, "volley" as "flurry")).toThrow(/volley/);
    expect(() => extraActionOutcome("yes" as unknown as boolean, 3, "flurry")).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// §4: extra defences, full movement, change of action
// ---------------------------------------------------------------------------------------------

describe("defences beyond the free count (§4)", () => {
  it("has the document's shift", () => {
    const [cs = ""] = match(4, /Defences beyond the free count: cumulative ([−+-]?\d+) CS each/);
    expect(EXTRA_DEFENCE_CS).toBe(signedNumber(cs));
  });

  it("is free within the count, then −2, −4, … cumulatively", () => {
    expect([0, 1, 2, 3, 4].map((used) => defencePenalty(used, 2))).toEqual([0, 0, -2, -4, -6]);
    expect(defencePenalty(0, 0)).toBe(-2);
    fc.assert(
      fc.property(fc.nat(50), fc.nat(10), (used, free) => {
        const p = defencePenalty(used, free);
        if (used < free) expect(p).toBe(0);
        else expect(p).toBe(EXTRA_DEFENCE_CS * (used - free + 1));
        expect(defencePenalty(used + 1, free)).toBeLessThanOrEqual(p);
      }),
    );
  });

  it("rejects bad counts", () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => defencePenalty(bad, 1), String(bad)).toThrow(/Defences already used/);
      expect(() => defencePenalty(0, bad), String(bad)).toThrow(/Free defences/);
    }
  });
});

describe("full movement (§4)", () => {
  it("has the document's values", () => {
    const [count = "", cs = ""] = match(4, /Moving one's full speed → (\w+) action only, at ([−+-]?\d+) CS unless it is a charge\./);
    expect(count).toBe("one");
    expect(FULL_MOVE_MAX_ACTIONS).toBe(1);
    expect(FULL_MOVE_CS).toBe(signedNumber(cs));
  });

  it("shifts the action unless it is a charge", () => {
    expect(fullMovePenalty(false)).toBe(FULL_MOVE_CS);
    expect(fullMovePenalty(true)).toBe(0);
    expect(() => fullMovePenalty("charge" as unknown as boolean)).toThrow(TypeError);
  });
});

describe("changing a declared action (§4)", () => {
  it("has the document's colour, sub-score and shift", () => {
    const [color = "", sub = "", cs = "", failure = ""] = match(
      4,
      /\*\*Changing a declared action\*\*: a (\w+) (\w+ \(\w+\)) ACTION; success → the new action at ([−+-]?\d+) CS; failure → (no action) this turn\./,
    );
    expect(CHANGE_ACTION_REQUIRED_COLOR).toBe(color);
    expect(CHANGE_ACTION_SUB_SCORE).toBe(parseSubScoreRef(sub));
    expect(CHANGE_ACTION_CS).toBe(signedNumber(cs));
    expect(failure).toBe("no action");
  });

  it("allows the new action at −1 CS on success, no action on failure", () => {
    expect(changeActionOutcome(true)).toEqual({ allowed: true, cs: CHANGE_ACTION_CS });
    expect(changeActionOutcome(false)).toEqual({ allowed: false });
    expect(() => changeActionOutcome(undefined as unknown as boolean)).toThrow(TypeError);
  });

  it("is resolved as a fixed-colour ACTION", () => {
    const result = resolveAction({ value: 20, roll: 1, needed: CHANGE_ACTION_REQUIRED_COLOR });
    expect(result.required).toBe("yellow");
    expect(changeActionOutcome(result.success)).toEqual({ allowed: false });
  });
});
