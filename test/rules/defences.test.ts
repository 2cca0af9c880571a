import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, isAttackCode, type AttackCode, type CombatSubScore, type HoldState } from "../../src/rules/attacks";
import {
  AUTO_HIT_MIN_COLOR,
  BLOCK_APPLIES_TO_CHARGE,
  BUDDY_STACK_CS,
  BUDDY_STACK_MAX_RANK_GAP,
  CATCH_AIMED_AT_CATCHER_CS,
  CATCH_APPLIES_TO_SHOOTING,
  CATCH_KINDS,
  CATCH_MISS_ATTACK_CS,
  DECLARED_DODGE_MAX_OTHER_ACTIONS,
  DECLARED_DODGE_MAY_CHARGE,
  DECLARED_DODGE_OTHER_ACTION_CS,
  DECLARED_DODGE_SPEED_FACTOR,
  DEFAULT_DEFENCE_RULINGS,
  DEFENCES,
  DEFENCE_CODES,
  DODGE_APPLIES_TO_CHARGE,
  attackColorAfterAutoHit,
  avoidanceResult,
  canAttemptCatch,
  catchAttackShift,
  catchResult,
  catchRollShift,
  combineProtection,
  defenceApplies,
  defenceDefinition,
  defenceMatrix,
  defenceProtection,
  defenceTakesAction,
  defencesAgainst,
  dodgeShift,
  escapeApplies,
  escapeResult,
  protectionColumnShift,
  resolveDefenceRulings,
  weaveShift,
  type CatchKind,
  type CatchResult,
  type DefenceCode,
  type DefenceRulings,
  type EscapeResult,
} from "../../src/rules/defences";
import { COLORS, colorIndex, type Color } from "../../src/rules/universal-table";
import { rulesSection, rulesTable, signedNumber, tableRecords, docLadder, docRankOf, docRankAt, docRankNamed } from "../support/rules-doc";

// ---------------------------------------------------------------------------------------------
// Reading CASE-RULES.md §1 (the ladder) and §6 (defences)
// ---------------------------------------------------------------------------------------------

const ladder = docLadder();

/** §6 with line breaks folded to spaces, so sentences can be matched across lines. */
const section6 = rulesSection(6).replace(/\s+/g, " ");
const defenceDoc = tableRecords(rulesTable(6, "defence", "rolls on", "white", "green", "yellow", "red", "against"));

function docRow(code: DefenceCode): Record<string, string> {
  const row = defenceDoc.find((r) => (r.defence ?? "").toLowerCase() === code);
  if (!row) throw new Error(`CASE-RULES §6 has no row for ${code}.`);
  return row;
}

const ABILITY_WORDS: Readonly<Record<string, string>> = { Ftg: "fighting", Agy: "agility", Str: "strength", End: "endurance" };

function docSubScore(cell: string): CombatSubScore {
  const m = /^(\w+) \((\w+)\)$/.exec(cell);
  const ability = m ? ABILITY_WORDS[m[1] ?? ""] : undefined;
  if (!m || !ability) throw new Error(`Cannot read a sub-score from "${cell}".`);
  return `${ability}.${m[2] ?? ""}` as CombatSubScore;
}

/** The "against" cell: the attack codes it lists, and the codes tagged as a ruling or other source. */
function docAgainst(cell: string): { codes: Set<AttackCode>; tagged: Map<AttackCode, string>; other: string[] } {
  const tagged = new Map<AttackCode, string>();
  for (const m of cell.matchAll(/\[(RULING|\d{3}) for (\w+)\]/g)) {
    const code = m[2] ?? "";
    if (!isAttackCode(code)) throw new Error(`Tag names no attack code: ${m[0]}.`);
    tagged.set(code, m[1] ?? "");
  }
  const codes = new Set<AttackCode>();
  const other: string[] = [];
  // Tags ([001]) and asides in parentheses ("Sh (projectile weapons, …)") are not list items.
  for (const raw of cell.replace(/\[[^\]]*\]/g, "").replace(/\([^)]*\)/g, "").split(",")) {
    const token = raw.trim();
    const first = token.split(/\s+/)[0] ?? "";
    if (isAttackCode(first)) codes.add(first);
    else if (token) other.push(token);
  }
  return { codes, tagged, other };
}

function docMatch(re: RegExp, text = section6): RegExpExecArray {
  const m = re.exec(text);
  if (!m) throw new Error(`CASE-RULES §6 does not match ${re.source}.`);
  return m;
}

const color = fc.constantFrom(...COLORS);
const rankNumber = fc.nat(6000);
const ordered = fc.tuple(color, color).map(([a, b]): [Color, Color] => (colorIndex(a) <= colorIndex(b) ? [a, b] : [b, a]));

// ---------------------------------------------------------------------------------------------

describe("the defence table (CASE-RULES §6)", () => {
  it("lists the same eight defences", () => {
    expect(defenceDoc.map((r) => (r.defence ?? "").toLowerCase())).toEqual([...DEFENCE_CODES]);
  });

  it.each(DEFENCE_CODES.map((d) => [d]))("%s: name and the sub-score it rolls on", (code) => {
    const row = docRow(code);
    expect(defenceDefinition(code).name).toBe(row.defence);
    expect(DEFENCES[code].rollsOn).toBe(docSubScore(row["rolls on"] ?? ""));
  });

  it("Evasion, Feint and Catch take the defender's action; the others do not", () => {
    const m = docMatch(/\. ([^.]+?) take the defender's action for the turn/);
    const names = (m[1] ?? "").split(/,\s*|\s+and\s+/).map((s) => s.trim().toLowerCase());
    expect(names.sort()).toEqual(["catch", "evasion", "feint"]);
    for (const d of DEFENCE_CODES) expect(defenceTakesAction(d)).toBe(names.includes(d));
  });

  // 8 defences × 10 attack codes.
  it.each(DEFENCE_CODES.flatMap((d) => ATTACK_CODES.map((a) => [d, a] as const)))("%s against %s is as the document lists", (d, a) => {
    const { codes } = docAgainst(docRow(d).against ?? "");
    expect(defenceApplies(d, a)).toBe(codes.has(a));
    expect(defencesAgainst(a).includes(d)).toBe(codes.has(a));
    expect(defenceMatrix()[d][a]).toBe(codes.has(a));
  });

  it("the tagged cells are the ruling constants", () => {
    const block = docAgainst(docRow("block").against ?? "");
    expect(block.tagged.get("Ch")).toBe("RULING");
    expect(BLOCK_APPLIES_TO_CHARGE).toBe(block.codes.has("Ch"));
    const dodge = docAgainst(docRow("dodge").against ?? "");
    expect(dodge.tagged.get("Ch")).toBe("000");
    expect(DODGE_APPLIES_TO_CHARGE).toBe(dodge.codes.has("Ch"));
    expect(CATCH_APPLIES_TO_SHOOTING).toBe(docAgainst(docRow("catch").against ?? "").codes.has("Sh"));
    // Every tagged code in the whole table is covered by one of these constants.
    const allTagged = DEFENCE_CODES.flatMap((d) => [...docAgainst(docRow(d).against ?? "").tagged.keys()].map((a) => `${d}:${a}`));
    expect(allTagged.sort()).toEqual(["block:Ch", "dodge:Ch"]);
  });

  it("the non-attack targets are kept in words", () => {
    for (const d of DEFENCE_CODES) {
      const { other } = docAgainst(docRow(d).against ?? "");
      expect(DEFENCES[d].alsoAgainst.length > 0).toBe(other.length > 0 || /\(and ([^)]+)\)/.test(docRow(d).against ?? ""));
    }
  });

  it("Escape works on an existing hold, never on an incoming attack", () => {
    expect(docRow("escape").against).toBe("an existing hold");
    for (const a of ATTACK_CODES) expect(defenceApplies("escape", a)).toBe(false);
    expect(escapeApplies("partialHold")).toBe(true);
    expect(escapeApplies("fullHold")).toBe(true);
    expect(escapeApplies("none")).toBe(false);
  });
});

describe("outcomes, cell by cell", () => {
  it.each(COLORS.map((c) => [c]))("Block and Brace on %s: the protection CS on Str / End", (c) => {
    for (const [d, abbr] of [["block", "Str"], ["brace", "End"]] as const) {
      const cell = docRow(d)[c] ?? "";
      const m = /(Str|End) ([+−-]\d+) CS/.exec(cell);
      expect(m?.[1]).toBe(abbr);
      expect(protectionColumnShift(c)).toBe(signedNumber(m?.[2] ?? "NaN"));
    }
  });

  it.each(COLORS.map((c) => [c]))("Dodge and Weave on %s: the shift on the attack", (c) => {
    for (const d of ["dodge", "weave"] as const) {
      const cell = docRow(d)[c] ?? "";
      const expected = cell === "no shift" ? 0 : signedNumber(/([+−-]\d+) CS/.exec(cell)?.[1] ?? "NaN");
      expect(d === "dodge" ? dodgeShift(c) : weaveShift(c)).toBe(expected);
    }
  });

  it.each(COLORS.map((c) => [c]))("Evasion and Feint on %s", (c) => {
    for (const d of ["evasion", "feint"] as const) {
      const cell = docRow(d)[c] ?? "";
      const autoHit = cell === "Auto-hit";
      const avoided = cell.startsWith("avoided");
      expect(autoHit || avoided).toBe(true);
      const bonus = /([+−-]\d+) CS/.exec(cell)?.[1];
      expect(avoidanceResult(c)).toEqual({ autoHit, avoided, bonusCs: bonus === undefined ? 0 : signedNumber(bonus) });
    }
  });

  it.each(COLORS.map((c) => [c]))("Catch on %s", (c) => {
    const cell = docRow("catch")[c] ?? "";
    const expected: CatchResult = cell === "Auto-hit" ? "autoHit" : cell.startsWith("Miss") ? "miss" : cell.startsWith("Caught, may be damaged") ? "caughtDamaged" : cell === "Catch" ? "caught" : (`?${cell}` as CatchResult);
    expect(catchResult(c)).toBe(expected);
    if (expected === "miss") {
      const m = /\(([+−-]\d+) CS to the attack if aimed at the catcher\)/.exec(cell);
      expect(CATCH_MISS_ATTACK_CS).toBe(signedNumber(m?.[1] ?? "NaN"));
      expect(catchAttackShift("miss", true)).toBe(CATCH_MISS_ATTACK_CS);
      expect(catchAttackShift("miss", false)).toBe(0);
    }
  });

  it.each(COLORS.map((c) => [c]))("Escape on %s", (c) => {
    const cell = docRow("escape")[c] ?? "";
    const expected: EscapeResult = cell === "fail" ? "fail" : cell.startsWith("Escape") ? "escape" : cell === "Reversal" ? "reversal" : (`?${cell}` as EscapeResult);
    expect(escapeResult(c)).toBe(expected);
  });

  // Every rank of the ladder × 4 colours × block/brace, against the ladder in the document.
  it.each(ladder.map((r) => [r.name, r] as const))("protection from %s Strength/Endurance", (_name, rank) => {
    for (const c of COLORS) {
      const shift = signedNumber(/([+−-]\d+) CS/.exec(docRow("block")[c] ?? "")?.[1] ?? "NaN");
      const expected = docRankAt(rank.index + shift).number;
      expect(defenceProtection("block", rank.number, c)).toBe(expected);
      expect(defenceProtection("brace", rank.number, c)).toBe(expected);
      if (rank.max !== Number.POSITIVE_INFINITY) expect(defenceProtection("block", rank.max, c)).toBe(expected);
    }
  });

  it("protection is the shifted rank's standard number, for any rank number", () => {
    fc.assert(
      fc.property(rankNumber, color, (v, c) => {
        expect(defenceProtection("block", v, c)).toBe(docRankAt(docRankOf(v).index + protectionColumnShift(c)).number);
      }),
    );
    expect(defenceProtection("block", 30, "white")).toBe(0); // Remarkable −6 CS = Shift 0
    expect(defenceProtection("block", 30, "red")).toBe(40); // Remarkable +1 CS = Incredible
    expect(defenceProtection("brace", 100, "yellow")).toBe(50); // Unearthly −2 CS = Amazing
  });
});

describe("a better defence colour is never worse for the defender", () => {
  it("Dodge and Weave shifts fall as the colour rises, never positive", () => {
    fc.assert(
      fc.property(ordered, ([lo, hi]) => {
        expect(dodgeShift(hi)).toBeLessThanOrEqual(dodgeShift(lo));
        expect(weaveShift(hi)).toBeLessThanOrEqual(weaveShift(lo));
        expect(dodgeShift(hi)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it("Block/Brace protection rises with colour and with the ability", () => {
    fc.assert(
      fc.property(ordered, rankNumber, rankNumber, ([lo, hi], a, b) => {
        const [weak, strong] = a <= b ? [a, b] : [b, a];
        expect(defenceProtection("block", a, hi)).toBeGreaterThanOrEqual(defenceProtection("block", a, lo));
        expect(defenceProtection("brace", strong, lo)).toBeGreaterThanOrEqual(defenceProtection("brace", weak, lo));
        expect(protectionColumnShift(hi)).toBeGreaterThanOrEqual(protectionColumnShift(lo));
      }),
    );
  });

  it("Evasion/Feint, Catch and Escape outcomes improve with colour", () => {
    const catchOrder: CatchResult[] = ["autoHit", "miss", "caughtDamaged", "caught"];
    const escapeOrder: EscapeResult[] = ["fail", "escape", "reversal"];
    fc.assert(
      fc.property(ordered, ([lo, hi]) => {
        const a = avoidanceResult(lo);
        const b = avoidanceResult(hi);
        expect(Number(b.avoided)).toBeGreaterThanOrEqual(Number(a.avoided));
        expect(Number(b.autoHit)).toBeLessThanOrEqual(Number(a.autoHit));
        expect(b.bonusCs).toBeGreaterThanOrEqual(a.bonusCs);
        expect(catchOrder.indexOf(catchResult(hi))).toBeGreaterThanOrEqual(catchOrder.indexOf(catchResult(lo)));
        expect(escapeOrder.indexOf(escapeResult(hi))).toBeGreaterThanOrEqual(escapeOrder.indexOf(escapeResult(lo)));
      }),
    );
  });

  it("an auto-hit turns a white attack into a hit ([000]: white is treated as green)", () => {
    expect(AUTO_HIT_MIN_COLOR).toBe("green");
    expect(attackColorAfterAutoHit("white")).toBe("green");
    for (const c of ["green", "yellow", "red"] as const) expect(attackColorAfterAutoHit(c)).toBe(c);
  });
});

describe("catching", () => {
  it("−3 CS when aimed at the catcher (from the document)", () => {
    const cs = signedNumber(docMatch(/Catch: ([+−-]\d+) CS when the object is aimed at the catcher/)[1] ?? "NaN");
    expect(CATCH_AIMED_AT_CATCHER_CS).toBe(cs);
    expect(catchRollShift(true)).toBe(cs);
    expect(catchRollShift(false)).toBe(0);
    for (const r of ["autoHit", "caughtDamaged", "caught"] as const) expect(catchAttackShift(r, true)).toBe(0);
  });

  it("minimum Agility by kind, for every rank of the ladder (from the document)", () => {
    const kindWords: Record<string, CatchKind> = {
      bullets: "bullet",
      arrows: "arrow",
      "other thrown projectiles": "thrown",
      "falling people": "falling",
    };
    const text = docMatch(/minimum Agility:([^[]+)\[000\]/)[1] ?? "";
    const minimum = new Map<CatchKind, number>();
    for (const m of text.matchAll(/(\w+) for ([a-z ]+?)(?=,|$)/g)) {
      const kind = kindWords[(m[2] ?? "").trim()];
      if (!kind) throw new Error(`Unknown catch kind "${m[2] ?? ""}".`);
      minimum.set(kind, m[1] === "any" ? 0 : docRankNamed(m[1] ?? "").index);
    }
    expect([...minimum.keys()].sort()).toEqual([...CATCH_KINDS].sort());
    for (const kind of CATCH_KINDS) {
      for (const r of ladder) {
        expect({ kind, rank: r.name, ok: canAttemptCatch(kind, r.number) }).toEqual({ kind, rank: r.name, ok: r.index >= (minimum.get(kind) ?? 99) });
      }
    }
    expect(canAttemptCatch("bullet", 88)).toBe(true); // 88 is Unearthly
    expect(canAttemptCatch("bullet", 87)).toBe(false);
  });
});

describe("combining protection with armor (buddy stacking)", () => {
  it("the ruling constants are the document's numbers", () => {
    const m = docMatch(/unless the two are within (\w+) rank of each other, when they stack as a buddy ([+−-]\d+) CS/);
    const words: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3 };
    expect(BUDDY_STACK_MAX_RANK_GAP).toBe(words[m[1] ?? ""]);
    expect(BUDDY_STACK_CS).toBe(signedNumber(m[2] ?? "NaN"));
  });

  it("uses the better, unless within one rank: then the better +1 CS", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (armor, prot) => {
        const better = Math.max(armor, prot);
        const gap = Math.abs(docRankOf(armor).index - docRankOf(prot).index);
        const stacks = armor > 0 && prot > 0 && gap <= BUDDY_STACK_MAX_RANK_GAP;
        const expected = stacks ? Math.max(better, docRankAt(docRankOf(better).index + BUDDY_STACK_CS).number) : better;
        const got = combineProtection(armor, prot);
        expect(got).toBe(expected);
        expect(got).toBeGreaterThanOrEqual(better);
        expect(combineProtection(prot, armor)).toBe(got);
      }),
    );
  });

  it("named cases", () => {
    expect(combineProtection(20, 30)).toBe(40); // Excellent + Remarkable: buddy, Remarkable +1 CS
    expect(combineProtection(30, 30)).toBe(40);
    expect(combineProtection(10, 30)).toBe(30); // two ranks apart: the better
    expect(combineProtection(0, 2)).toBe(2); // Shift 0 is no protection
    expect(combineProtection(0, 0)).toBe(0);
    expect(combineProtection(9000, 5000)).toBe(9000); // top of the ladder: never less than the better
  });
});

describe("declared dodge (optional [000])", () => {
  it("the constants are the document's", () => {
    const text = docMatch(/Optional \[000\] "declared dodge"[\s\S]*?no charging\./)[0];
    expect(/moves at half speed/.test(text)).toBe(true);
    expect(DECLARED_DODGE_SPEED_FACTOR).toBe(0.5);
    expect(/takes at most one other action/.test(text)).toBe(true);
    expect(DECLARED_DODGE_MAX_OTHER_ACTIONS).toBe(1);
    expect(DECLARED_DODGE_OTHER_ACTION_CS).toBe(signedNumber(/other ACTIONs are at ([+−-]\d+) CS/.exec(text)?.[1] ?? "NaN"));
    expect(DECLARED_DODGE_MAY_CHARGE).toBe(!/no charging/.test(text));
  });
});

describe("rulings passed by a setting", () => {
  it("the defaults are the exported constants", () => {
    expect(DEFAULT_DEFENCE_RULINGS).toEqual({
      blockAppliesToCharge: BLOCK_APPLIES_TO_CHARGE,
      dodgeAppliesToCharge: DODGE_APPLIES_TO_CHARGE,
      catchAppliesToShooting: CATCH_APPLIES_TO_SHOOTING,
      buddyStackMaxRankGap: BUDDY_STACK_MAX_RANK_GAP,
      buddyStackCs: BUDDY_STACK_CS,
      autoHitMinColor: AUTO_HIT_MIN_COLOR,
    });
    expect(resolveDefenceRulings()).toEqual(DEFAULT_DEFENCE_RULINGS);
  });

  it("each applies-to ruling changes exactly its own cell", () => {
    const flips: [Partial<DefenceRulings>, DefenceCode, AttackCode][] = [
      [{ blockAppliesToCharge: !BLOCK_APPLIES_TO_CHARGE }, "block", "Ch"],
      [{ dodgeAppliesToCharge: !DODGE_APPLIES_TO_CHARGE }, "dodge", "Ch"],
      [{ catchAppliesToShooting: !CATCH_APPLIES_TO_SHOOTING }, "catch", "Sh"],
    ];
    for (const [rulings, d, a] of flips) {
      const before = defenceMatrix();
      const after = defenceMatrix(rulings);
      for (const dd of DEFENCE_CODES) {
        for (const aa of ATTACK_CODES) {
          const changed = dd === d && aa === a;
          expect({ dd, aa, same: after[dd][aa] === before[dd][aa] }).toEqual({ dd, aa, same: !changed });
        }
      }
      expect(defenceApplies(d, a, rulings)).toBe(!defenceApplies(d, a));
      expect(defencesAgainst(a, rulings).includes(d)).toBe(!defencesAgainst(a).includes(d));
    }
  });

  it("buddy stacking and the auto-hit colour follow the rulings", () => {
    expect(combineProtection(20, 30, { buddyStackMaxRankGap: 0 })).toBe(30);
    expect(combineProtection(30, 30, { buddyStackMaxRankGap: 0 })).toBe(40);
    expect(combineProtection(10, 30, { buddyStackMaxRankGap: 2 })).toBe(40);
    expect(combineProtection(20, 30, { buddyStackCs: 2 })).toBe(50);
    expect(attackColorAfterAutoHit("white", { autoHitMinColor: "yellow" })).toBe("yellow");
    expect(attackColorAfterAutoHit("green", { autoHitMinColor: "yellow" })).toBe("green");
  });

  it("a bad ruling value is a clear error", () => {
    expect(() => resolveDefenceRulings({ blockAppliesToCharge: "yes" as unknown as boolean })).toThrow(/blockAppliesToCharge/);
    expect(() => resolveDefenceRulings({ buddyStackMaxRankGap: -1 })).toThrow(/buddyStackMaxRankGap.*-1/);
    expect(() => resolveDefenceRulings({ buddyStackCs: 0.5 })).toThrow(/0.5/);
    expect(() => resolveDefenceRulings({ autoHitMinColor: "gold" as Color })).toThrow(/"gold"/);
    expect(() => defenceApplies("block", "Ch", null as unknown as Partial<DefenceRulings>)).toThrow(TypeError);
  });
});

describe("bad input is a clear error", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["unknown defence", () => defenceApplies("parry" as DefenceCode, "BA"), /"parry"/],
    ["unknown attack", () => defenceApplies("block", "XX" as AttackCode), /"XX"/],
    ["definition, unknown", () => defenceDefinition("duck" as DefenceCode), /"duck"/],
    ["defences against unknown", () => defencesAgainst("ZZ" as AttackCode), /"ZZ"/],
    ["dodge, bad colour", () => dodgeShift("blue" as Color), /"blue"/],
    ["weave, bad colour", () => weaveShift("" as Color), /""/],
    ["protection shift, bad colour", () => protectionColumnShift("black" as Color), /"black"/],
    ["protection from dodge", () => defenceProtection("dodge", 30, "red"), /"dodge"/],
    ["protection, negative ability", () => defenceProtection("block", -10, "red"), /Strength.*-10/],
    ["protection, fractional ability", () => defenceProtection("brace", 2.5, "red"), /Endurance.*2.5/],
    ["protection, bad colour", () => defenceProtection("block", 30, "purple" as Color), /"purple"/],
    ["combine, negative armor", () => combineProtection(-1, 10), /Armor/],
    ["combine, NaN protection", () => combineProtection(10, Number.NaN), /NaN/],
    ["avoidance, bad colour", () => avoidanceResult("grey" as Color), /"grey"/],
    ["catch, bad colour", () => catchResult("grey" as Color), /"grey"/],
    ["catch kind unknown", () => canAttemptCatch("cannonball" as CatchKind, 100), /"cannonball"/],
    ["catch, negative agility", () => canAttemptCatch("thrown", -1), /Agility/],
    ["catch roll, not boolean", () => catchRollShift("yes" as unknown as boolean), /aimedAtCatcher/],
    ["catch attack shift, bad result", () => catchAttackShift("fumble" as CatchResult, true), /"fumble"/],
    ["escape, bad colour", () => escapeResult("orange" as Color), /"orange"/],
    ["escape, unknown hold", () => escapeApplies("headlock" as HoldState), /"headlock"/],
    ["auto-hit, bad colour", () => attackColorAfterAutoHit("teal" as Color), /"teal"/],
    ["takes action, unknown", () => defenceTakesAction("hide" as DefenceCode), /"hide"/],
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
