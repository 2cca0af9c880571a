import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ATTACK_CODES, ATTACK_RESULTS, isAttackCode, type AttackCode, type AttackResult } from "../../src/rules/attacks";
import {
  KILL_CHECK_ON_ZERO_HEALTH,
  KILL_ENDURANCE_RANK_LOSS,
  KILL_ON_GREEN_SOURCES,
  SLAM_ONE_AREA_DISTANCE,
  consequenceCheck,
  enduranceAfterKillLoss,
  grandSlamDistance,
  grandSlamStrength,
  killCheckDue,
  killLossContinues,
  killResult,
  slamDirection,
  slamDistance,
  slamResult,
  stunAppliesThisTurn,
  stunResult,
  stunTurns,
  type KillResult,
  type SlamDirection,
  type SlamResult,
  type StunResult,
} from "../../src/rules/consequences";
import { applyDamageToHealth } from "../../src/rules/damage";
import { COLORS, colorIndex, type Color } from "../../src/rules/universal-table";
import { rulesSection, rulesTable, tableRecords, docLadder, docRankOf } from "../support/rules-doc";

// ---------------------------------------------------------------------------------------------
// Reading CASE-RULES.md §1 (the ladder), §8 (Slam/Stun/Kill) and §9 (Table 24)
// ---------------------------------------------------------------------------------------------

const ladder = docLadder();

const section8 = rulesSection(8).replace(/\s+/g, " ");
const checks = tableRecords(rulesTable(8, "check", "white", "green", "yellow", "red"));

function checkRow(name: string): Record<string, string> {
  const row = checks.find((r) => r.check === name);
  if (!row) throw new Error(`CASE-RULES §8 has no ${name} row.`);
  return row;
}

function docSlam(cell: string): SlamResult {
  if (cell.startsWith("Grand Slam:")) return "grandSlam";
  if (cell === "slammed 1 area") return "oneArea";
  if (cell.startsWith("staggered")) return "stagger";
  if (cell === "no slam") return "none";
  throw new Error(`Unknown Slam? cell "${cell}".`);
}

function docStun(cell: string): StunResult {
  if (/^out 1d10 turns$/.test(cell)) return "outLong";
  if (cell.startsWith("stunned 1 turn")) return "oneTurn";
  if (cell === "not stunned") return "none";
  throw new Error(`Unknown Stun? cell "${cell}".`);
}

/** A Kill? cell for a damage source; "as white, but only if the source was EA or Sh" refers back. */
function docKill(c: Color, source: AttackCode): KillResult {
  const cell = checkRow("Kill?")[c] ?? "";
  if (cell.startsWith("loses 1 Endurance rank")) return "enduranceLoss";
  if (cell === "fine") return "none";
  const m = /^as white, but only if the source was (.+)$/.exec(cell);
  if (m) {
    const sources = (m[1] ?? "").split(/\s+or\s+|,\s*/).filter(isAttackCode);
    return sources.includes(source) ? docKill("white", source) : "none";
  }
  throw new Error(`Unknown Kill? cell "${cell}".`);
}

/** Table 24 (§9) as a function of Strength, read from the document: the caller's lookup. */
function docThrownRange(strength: number): number | "line of sight" {
  const text = rulesSection(9).replace(/\s+/g, " ");
  const rank = docRankOf(strength);
  const m = new RegExp(`${rank.name} (\\d+|line of sight)`).exec(text);
  if (!m) throw new Error(`Table 24 has no entry for ${rank.name}.`);
  return m[1] === "line of sight" ? "line of sight" : Number(m[1]);
}

const color = fc.constantFrom(...COLORS);
const attack = fc.constantFrom(...ATTACK_CODES);
const ordered = fc.tuple(color, color).map(([a, b]): [Color, Color] => (colorIndex(a) <= colorIndex(b) ? [a, b] : [b, a]));

// ---------------------------------------------------------------------------------------------

describe("the Slam/Stun/Kill table (CASE-RULES §8), cell by cell", () => {
  it("has exactly the three checks", () => {
    expect(checks.map((r) => r.check)).toEqual(["Slam?", "Stun?", "Kill?"]);
  });

  it.each(COLORS.map((c) => [c]))("Slam? on %s", (c) => {
    expect(slamResult(c)).toBe(docSlam(checkRow("Slam?")[c] ?? ""));
  });

  it.each(COLORS.map((c) => [c]))("Stun? on %s", (c) => {
    expect(stunResult(c)).toBe(docStun(checkRow("Stun?")[c] ?? ""));
  });

  // 4 colours × 10 damage sources.
  it.each(COLORS.flatMap((c) => ATTACK_CODES.map((a) => [c, a] as const)))("Kill? on %s from %s", (c, a) => {
    expect(killResult(c, a)).toBe(docKill(c, a));
  });

  it("the green Kill? sources are the document's", () => {
    const m = /as white, but only if the source was (.+)$/.exec(checkRow("Kill?").green ?? "");
    expect([...KILL_ON_GREEN_SOURCES].sort()).toEqual((m?.[1] ?? "").split(/\s+or\s+/).sort());
  });
});

describe("a better Endurance colour is never worse for the target", () => {
  it("Slam, Stun and Kill results improve with colour", () => {
    const slamOrder: SlamResult[] = ["grandSlam", "oneArea", "stagger", "none"];
    const stunOrder: StunResult[] = ["outLong", "oneTurn", "none"];
    const killOrder: KillResult[] = ["enduranceLoss", "none"];
    fc.assert(
      fc.property(ordered, attack, ([lo, hi], a) => {
        expect(slamOrder.indexOf(slamResult(hi))).toBeGreaterThanOrEqual(slamOrder.indexOf(slamResult(lo)));
        expect(stunOrder.indexOf(stunResult(hi))).toBeGreaterThanOrEqual(stunOrder.indexOf(stunResult(lo)));
        expect(killOrder.indexOf(killResult(hi, a))).toBeGreaterThanOrEqual(killOrder.indexOf(killResult(lo, a)));
      }),
    );
  });
});

describe("checks happen only when damage got through", () => {
  it("slam, stun and kill results call for their check only with damage > 0", () => {
    expect(/Only checked when the attack did damage after protection/.test(section8)).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...ATTACK_RESULTS), fc.nat(500), (r: AttackResult, dmg) => {
        const expected = dmg > 0 && (r === "slam" || r === "stun" || r === "kill") ? r : null;
        expect(consequenceCheck(r, dmg)).toBe(expected);
      }),
    );
    expect(consequenceCheck("kill", 0)).toBeNull();
    expect(consequenceCheck("bullseye", 40)).toBeNull();
  });
});

describe("slams", () => {
  it("direction by d10 is the document's", () => {
    const m = /Slam direction \(d10\): (.+?)\./.exec(section8);
    const expected = new Map<number, string>();
    for (const part of (m?.[1] ?? "").split(/,\s*/)) {
      const p = /^(\d+)–(\d+) (\w+)$/.exec(part);
      if (!p) throw new Error(`Cannot read slam direction "${part}".`);
      for (let d = Number(p[1]); d <= Number(p[2]); d++) expected.set(d, p[3] ?? "");
    }
    expect(expected.size).toBe(10);
    for (let d = 1; d <= 10; d++) expect(slamDirection(d)).toBe(expected.get(d));
  });

  it("a grand slam throws the target as by Strength = damage dealt (Table 24)", () => {
    expect(/Grand Slam: thrown as by Strength = damage dealt \(Table 24 areas\)/.test(checkRow("Slam?").white ?? "")).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6000 }), (dmg) => {
        expect(grandSlamStrength(dmg)).toBe(dmg);
        const lookup = vi.fn(docThrownRange);
        expect(grandSlamDistance(dmg, lookup)).toBe(docThrownRange(dmg));
        expect(lookup).toHaveBeenCalledWith(dmg);
      }),
    );
    expect(grandSlamDistance(30, docThrownRange)).toBe(4); // Remarkable: four areas
    expect(grandSlamDistance(6000, docThrownRange)).toBe("line of sight");
  });

  it("distance by result: grand slam by Table 24, one area, or none", () => {
    expect(/slammed (\d+) area/.exec(checkRow("Slam?").green ?? "")?.[1]).toBe(String(SLAM_ONE_AREA_DISTANCE));
    expect(slamDistance("grandSlam", 100, docThrownRange)).toBe(8);
    expect(slamDistance("oneArea", 100, docThrownRange)).toBe(1);
    expect(slamDistance("stagger", 100, docThrownRange)).toBe(0);
    expect(slamDistance("none", 100, docThrownRange)).toBe(0);
  });
});

describe("stuns", () => {
  it("out 1d10 turns: the d10 roll; stunned 1 turn: one", () => {
    for (let d = 1; d <= 10; d++) expect(stunTurns("outLong", d)).toBe(d);
    expect(stunTurns("oneTurn")).toBe(1);
    expect(stunTurns("none")).toBe(0);
    expect(docStun(checkRow("Stun?").white ?? "")).toBe("outLong");
  });

  it("a one-turn stun is this turn if the target has not yet acted, else next", () => {
    expect(/\(this turn if not yet acted, else next\)/.test(checkRow("Stun?").green ?? "")).toBe(true);
    expect(stunAppliesThisTurn(false)).toBe(true);
    expect(stunAppliesThisTurn(true)).toBe(false);
  });
});

describe("kills", () => {
  // Every rank of the ladder, against the ladder in the document.
  it.each(ladder.map((r) => [r.name, r] as const))("%s Endurance loses one rank", (_name, rank) => {
    const lower = ladder[rank.index - 1];
    const expected = lower ? { endurance: lower.number, dead: false } : { endurance: 0, dead: true };
    expect(enduranceAfterKillLoss(rank.number)).toEqual(expected);
    expect(enduranceAfterKillLoss(rank.min)).toEqual(expected);
  });

  it("repeated losses kill after exactly (rank index + 1) turns unaided", () => {
    expect(/Endurance below Shift 0 = dead/.test(section8)).toBe(true);
    expect(KILL_ENDURANCE_RANK_LOSS).toBe(1);
    fc.assert(
      fc.property(fc.nat(6000), (end) => {
        let state = { endurance: end, dead: false };
        let turns = 0;
        while (!state.dead) {
          const next = enduranceAfterKillLoss(state.endurance);
          if (!next.dead) expect(next.endurance).toBeLessThan(state.endurance);
          state = next;
          turns++;
        }
        expect(turns).toBe(docRankOf(end).index + 1);
      }),
    );
  });

  it("a Kill? check is due when Health reaches 0 and on damage while at 0", () => {
    expect(/A Kill\? check is also made when Health reaches 0 and on damage while at 0/.test(section8)).toBe(true);
    expect(KILL_CHECK_ON_ZERO_HEALTH).toBe(true);
    fc.assert(
      fc.property(fc.nat(300), fc.nat(300), (health, dmg) => {
        const r = applyDamageToHealth(health, 300, dmg);
        expect(killCheckDue(health, dmg)).toBe(r.reachedZero || r.damagedAtZero);
      }),
    );
    expect(killCheckDue(10, 10)).toBe(true);
    expect(killCheckDue(10, 9)).toBe(false);
    expect(killCheckDue(0, 1)).toBe(true);
    expect(killCheckDue(0, 0)).toBe(false);
    // A setting may turn the zero-Health check off.
    expect(killCheckDue(10, 10, false)).toBe(false);
    expect(killCheckDue(0, 5, false)).toBe(false);
    expect(killCheckDue(10, 10, true)).toBe(true);
    expect(() => killCheckDue(10, 10, "no" as unknown as boolean)).toThrow(/enabled/);
  });

  it("any aid stops the loss", () => {
    expect(/any aid stops the loss/.test(section8)).toBe(true);
    expect(killLossContinues(false)).toBe(true);
    expect(killLossContinues(true)).toBe(false);
  });
});

describe("bad input is a clear error", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["slam, bad colour", () => slamResult("blue" as Color), /"blue"/],
    ["stun, bad colour", () => stunResult("pink" as Color), /"pink"/],
    ["kill, bad colour", () => killResult("black" as Color, "EA"), /"black"/],
    ["kill, unknown source", () => killResult("green", "Ax" as AttackCode), /"Ax"/],
    ["check, unknown result", () => consequenceCheck("crit" as AttackResult, 10), /"crit"/],
    ["check, negative damage", () => consequenceCheck("slam", -1), /-1/],
    ["check, fractional damage", () => consequenceCheck("stun", 2.5), /2.5/],
    ["direction, d10 = 0", () => slamDirection(0), /1 to 10.*0/],
    ["direction, d10 = 11", () => slamDirection(11), /11/],
    ["direction, d10 = 3.5", () => slamDirection(3.5), /3.5/],
    ["grand slam, negative damage", () => grandSlamStrength(-4), /-4/],
    ["grand slam, no lookup", () => grandSlamDistance(10, undefined as unknown as (s: number) => number), /thrownRange/],
    ["slam distance, unknown result", () => slamDistance("knockdown" as SlamResult, 10, docThrownRange), /"knockdown"/],
    ["stun turns, no d10 for outLong", () => stunTurns("outLong"), /d10/],
    ["stun turns, d10 out of range", () => stunTurns("outLong", 12), /12/],
    ["stun turns, unknown result", () => stunTurns("dazed" as StunResult), /"dazed"/],
    ["stun this turn, not boolean", () => stunAppliesThisTurn("no" as unknown as boolean), /hasActed/],
    ["endurance loss, negative", () => enduranceAfterKillLoss(-2), /Endurance/],
    ["endurance loss, NaN", () => enduranceAfterKillLoss(Number.NaN), /NaN/],
    ["kill check, negative health", () => killCheckDue(-1, 5), /Health/],
    ["kill check, fractional damage", () => killCheckDue(10, 0.5), /Damage/],
    ["aid, not boolean", () => killLossContinues(1 as unknown as boolean), /aided/],
  ];
  it.each(cases)("%s", (_name, thunk, message) => {
    expect(thunk).toThrow(message);
    try {
      thunk();
    } catch (e) {
      expect(e instanceof RangeError || e instanceof TypeError).toBe(true);
    }
  });

  it("slam direction covers exactly the five directions", () => {
    const seen = new Set<SlamDirection>();
    for (let d = 1; d <= 10; d++) seen.add(slamDirection(d));
    expect([...seen].sort()).toEqual(["back", "down", "left", "right", "up"]);
  });
});
