import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ATTACKS,
  ATTACK_CODES,
  ATTACK_RESULTS,
  CALLED_SHOT_RED_SUCCEEDS,
  CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR,
  DEFAULT_ATTACK_RULINGS,
  CHARGE_DAMAGE_PER_AREA,
  CHARGE_MAX_TO_HIT_CS,
  CHARGE_MIN_AREAS,
  EDGED_THROWING_PULL_RULE,
  FULL_HOLD_CS,
  OBSTACLE_CS_PER_OBJECT,
  PARTIAL_HOLD_CS,
  PULL_DAMAGE_AND_COLOR_TOGETHER,
  PULL_TO_MISS_ALLOWED,
  RANGE_CS_PER_AREA,
  STRENGTH_CONTEST_BY,
  attackDefinition,
  attackResult,
  bluntThrowingDamage,
  calledShotSucceeds,
  calledShotSucceedsOnColor,
  canCallShot,
  canDefend,
  chargeDamage,
  chargeReboundDamage,
  chargeToHitShift,
  countsAsHit,
  damageThroughObstacles,
  fullHoldDealsDamage,
  holdEffects,
  isGrabResult,
  isHit,
  isHoldResult,
  isMiss,
  missMayStrikeOthers,
  obstaclePenalty,
  pullAttack,
  pullColor,
  pullDamage,
  pullRule,
  rangePenalty,
  resolveAttackRulings,
  strengthBeats,
  takeOutcome,
  takeSucceeds,
  toHitPossible,
  type AttackCode,
  type AttackFamily,
  type AttackResult,
  type CombatSubScore,
  type HoldState,
  type AttackRulings,
  type PullRule,
  CHARGE_TO_HIT_COLUMN_CAP,
} from "../../src/rules/attacks";
import { rankByKey } from "../../src/rules/ranks";
import { COLORS, colorIndex, type Color } from "../../src/rules/universal-table";
import { rulesSection, rulesTable, signedNumber, tableRecords, RESULT_WORDS } from "../support/rules-doc";

// ---------------------------------------------------------------------------------------------
// Reading CASE-RULES.md §5
// ---------------------------------------------------------------------------------------------

const attackDoc = tableRecords(rulesTable(5, "code", "attack", "rolls on", "white", "green", "yellow", "red", "may pull"));
const section5 = rulesSection(5);

function docRow(code: AttackCode): Record<string, string> {
  const row = attackDoc.find((r) => r.code === code);
  if (!row) throw new Error(`CASE-RULES §5 has no row for ${code}.`);
  return row;
}


function docResult(cell: string): AttackResult {
  const result = RESULT_WORDS[cell];
  if (!result) throw new Error(`Unknown attack result in CASE-RULES §5: "${cell}".`);
  return result;
}

const ABILITY_WORDS: Readonly<Record<string, string>> = { Ftg: "fighting", Agy: "agility", Str: "strength", End: "endurance" };

/** "Ftg (off)" → "fighting.off". */
function docSubScore(cell: string): CombatSubScore {
  const m = /^(\w+) \((\w+)\)$/.exec(cell);
  const ability = m ? ABILITY_WORDS[m[1] ?? ""] : undefined;
  if (!m || !ability) throw new Error(`Cannot read a sub-score from "${cell}".`);
  return `${ability}.${m[2] ?? ""}` as CombatSubScore;
}

const PULL_WORDS: Readonly<Record<string, PullRule>> = {
  "damage or colour": "damageOrColor",
  "damage only": "damage",
  "colour only": "color",
  no: "none",
  "—": "none",
};

/** A "may pull" cell: one rule, or one per source ("no [001]; damage only [000]"). */
function docPull(cell: string): { plain?: PullRule; bySource: Record<string, PullRule> } {
  const bySource: Record<string, PullRule> = {};
  if (!cell.includes("[")) {
    const plain = PULL_WORDS[cell];
    if (!plain) throw new Error(`Unknown pull rule "${cell}".`);
    return { plain, bySource };
  }
  for (const part of cell.split(";")) {
    const m = /^\s*(.*?)\s*\[(\d{3})\]\s*$/.exec(part);
    const rule = m ? PULL_WORDS[m[1] ?? ""] : undefined;
    if (!m || !rule) throw new Error(`Cannot read pull rule part "${part}".`);
    bySource[m[2] ?? ""] = rule;
  }
  return { bySource };
}

/** The family each "rolls on" sub-score stands for in §5 (slugfest, ranged, wrestling, charging). */
const FAMILY_BY_SUBSCORE: Readonly<Record<string, AttackFamily>> = {
  "fighting.off": "melee",
  "agility.dex": "ranged",
  "strength.mgt": "wrestling",
  "endurance.res": "charging",
};

function docNumber(re: RegExp, group = 1): number {
  const m = re.exec(section5);
  const text = m?.[group];
  if (text === undefined) throw new Error(`CASE-RULES §5 does not match ${re.source}.`);
  return signedNumber(text);
}

const color = fc.constantFrom(...COLORS);
const attack = fc.constantFrom(...ATTACK_CODES);
const rankNumber = fc.nat(6000);

// ---------------------------------------------------------------------------------------------

describe("the attack table (CASE-RULES §5), cell by cell", () => {
  it("lists the same ten codes in the same order", () => {
    expect(attackDoc.map((r) => r.code)).toEqual([...ATTACK_CODES]);
  });

  it.each(ATTACK_CODES.map((c) => [c]))("%s: name, rolls on, family", (code) => {
    const row = docRow(code);
    const def = attackDefinition(code);
    expect(def.code).toBe(code);
    expect(def.name).toBe(row.attack);
    expect(def.rollsOn).toBe(docSubScore(row["rolls on"] ?? ""));
    expect(def.family).toBe(FAMILY_BY_SUBSCORE[docSubScore(row["rolls on"] ?? "")]);
  });

  // 10 attacks × 4 colours.
  it.each(ATTACK_CODES.flatMap((c) => COLORS.map((col) => [c, col] as const)))("%s on %s gives the document's result", (code, col) => {
    expect(attackResult(code, col)).toBe(docResult(docRow(code)[col] ?? ""));
    expect(ATTACKS[code].results[col]).toBe(docResult(docRow(code)[col] ?? ""));
  });

  it.each(ATTACK_CODES.map((c) => [c]))("%s: the pull rule is the document's", (code) => {
    const doc = docPull(docRow(code)["may pull"] ?? "");
    if (doc.plain) {
      expect(pullRule(code)).toBe(doc.plain);
    } else {
      // The sources disagree: the ruling constant decides, and it takes [001] over [000].
      expect(Object.values(doc.bySource)).toContain(EDGED_THROWING_PULL_RULE);
      expect(EDGED_THROWING_PULL_RULE).toBe(doc.bySource["001"]);
      expect(pullRule(code)).toBe(EDGED_THROWING_PULL_RULE);
    }
  });

  it("only Edged Throwing is split between the sources", () => {
    const split = attackDoc.filter((r) => !docPull(r["may pull"] ?? "").plain).map((r) => r.code);
    expect(split).toEqual(["ET"]);
  });
});

describe("result classes", () => {
  it("hit-like results are exactly hit, slam, stun, kill, bullseye; grabs and holds are separate", () => {
    for (const r of ATTACK_RESULTS) {
      expect(isHit(r)).toBe(["hit", "slam", "stun", "kill", "bullseye"].includes(r));
      expect(isGrabResult(r)).toBe(["take", "grab", "break"].includes(r));
      expect(isHoldResult(r)).toBe(["partialHold", "fullHold"].includes(r));
      expect(isMiss(r)).toBe(r === "miss");
      // Each result is in exactly one class.
      expect([isHit(r), isGrabResult(r), isHoldResult(r), isMiss(r)].filter(Boolean)).toHaveLength(1);
    }
  });

  it("every attack misses on white, and once it connects a better colour never misses", () => {
    fc.assert(
      fc.property(attack, color, color, (a, c1, c2) => {
        expect(attackResult(a, "white")).toBe("miss");
        const [lo, hi] = colorIndex(c1) <= colorIndex(c2) ? [c1, c2] : [c2, c1];
        if (!isMiss(attackResult(a, lo))) expect(isMiss(attackResult(a, hi))).toBe(false);
      }),
    );
  });

  it("grab results come only from Grabbing, holds only from Grappling, hits from the rest", () => {
    for (const a of ATTACK_CODES) {
      for (const c of COLORS) {
        const r = attackResult(a, c);
        if (isGrabResult(r)) expect(a).toBe("Gb");
        if (isHoldResult(r)) expect(a).toBe("Gp");
        if (isHit(r)) expect(["Gb", "Gp"]).not.toContain(a);
      }
    }
  });

  it("a to-hit column pushed below Shift 0 cannot hit", () => {
    expect(toHitPossible(30, -6)).toBe(true); // Remarkable −6 CS is Shift 0
    expect(toHitPossible(30, -7)).toBe(false);
    expect(toHitPossible(0, 0)).toBe(true);
    expect(toHitPossible(0, -1)).toBe(false);
    expect(toHitPossible(5000, 40)).toBe(true);
  });
});

describe("called shots (Bullseye counts as a Hit unless a called shot was declared)", () => {
  it("only attacks with a Bullseye cell can call a shot", () => {
    for (const code of ATTACK_CODES) {
      const row = docRow(code);
      const hasBullseye = COLORS.some((c) => row[c] === "Bullseye");
      expect(canCallShot(code)).toBe(hasBullseye);
    }
  });

  it("a called shot needs the Bullseye; without one a Bullseye is just a hit", () => {
    for (const r of ATTACK_RESULTS) {
      expect(calledShotSucceeds(r)).toBe(r === "bullseye");
      expect(countsAsHit(r, true)).toBe(r === "bullseye");
      expect(countsAsHit(r, false)).toBe(isHit(r));
      expect(countsAsHit(r)).toBe(isHit(r));
    }
    expect(countsAsHit("bullseye")).toBe(true);
    expect(countsAsHit("kill", true)).toBe(false);
  });

  it("by colour: yellow succeeds; red only under the ruling", () => {
    for (const code of ["BT", "En", "Fo", "Sh"] as const) {
      expect(calledShotSucceedsOnColor(code, "yellow")).toBe(true);
      expect(calledShotSucceedsOnColor(code, "green")).toBe(false);
      expect(calledShotSucceedsOnColor(code, "white")).toBe(false);
      expect(calledShotSucceedsOnColor(code, "red")).toBe(CALLED_SHOT_RED_SUCCEEDS);
      expect(calledShotSucceedsOnColor(code, "red", true)).toBe(true);
      expect(calledShotSucceedsOnColor(code, "red", false)).toBe(false);
    }
    expect(() => calledShotSucceedsOnColor("EA", "yellow")).toThrow(/Bullseye/);
  });
});

describe("pulling punches", () => {
  /** What the document lets each attack pull (ET: the [001] reading, which the ruling takes). */
  function docPullRule(code: AttackCode): PullRule {
    const doc = docPull(docRow(code)["may pull"] ?? "");
    const rule = doc.plain ?? doc.bySource["001"];
    if (!rule) throw new Error(`No pull rule for ${code}.`);
    return rule;
  }

  it("colour: allowed exactly when the document allows colour and chosen ≤ rolled", () => {
    fc.assert(
      fc.property(attack, color, color, (a, rolled, chosen) => {
        const rule = docPullRule(a);
        const allowed = (rule === "damageOrColor" || rule === "color") && colorIndex(chosen) <= colorIndex(rolled);
        if (allowed) expect(pullColor(a, rolled, chosen)).toBe(chosen);
        else expect(() => pullColor(a, rolled, chosen)).toThrow(RangeError);
      }),
    );
  });

  it("damage: allowed exactly when the document allows damage and 0 ≤ chosen ≤ damage", () => {
    fc.assert(
      fc.property(attack, rankNumber, rankNumber, (a, damage, chosen) => {
        const rule = docPullRule(a);
        const allowed = (rule === "damageOrColor" || rule === "damage") && chosen <= damage;
        if (allowed) expect(pullDamage(a, damage, chosen)).toBe(chosen);
        else expect(() => pullDamage(a, damage, chosen)).toThrow(RangeError);
      }),
    );
  });

  it("named cases from the text", () => {
    expect(pullColor("BA", "red", "green")).toBe("green"); // a pulled punch avoids the Stun
    expect(pullColor("Ch", "yellow", "green")).toBe("green"); // a charge pulls the result only
    expect(() => pullDamage("Ch", 40, 20)).toThrow(/may not pull its damage/);
    expect(() => pullColor("En", "red", "green")).toThrow(/may not pull its colour/); // "but not the color result"
    expect(pullDamage("En", 50, 10)).toBe(10);
    expect(() => pullDamage("Sh", 20, 10)).toThrow(RangeError); // "may never be reduced"
    expect(() => pullColor("EA", "red", "yellow")).toThrow(RangeError);
    expect(() => pullColor("BA", "green", "yellow")).toThrow(/only lower/);
    if (PULL_TO_MISS_ALLOWED) expect(pullColor("BA", "green", "white")).toBe("white");
    else expect(() => pullColor("BA", "green", "white")).toThrow(/white miss/);
  });

  it("both at once follows PULL_DAMAGE_AND_COLOR_TOGETHER; choosing what was rolled is no pull", () => {
    const both = () => pullAttack("BA", { rolled: "red", damage: 40, chosenColor: "green", chosenDamage: 10 });
    if (PULL_DAMAGE_AND_COLOR_TOGETHER) expect(both()).toEqual({ color: "green", damage: 10 });
    else expect(both).toThrow(RangeError);
    expect(pullAttack("Sh", { rolled: "red", damage: 20, chosenColor: "red", chosenDamage: 20 })).toEqual({ color: "red", damage: 20 });
    expect(pullAttack("Sh", { rolled: "yellow", damage: 20 })).toEqual({ color: "yellow", damage: 20 });
    expect(() => pullAttack("Sh", { rolled: "red", damage: 20, chosenDamage: 10 })).toThrow(RangeError);
    expect(pullAttack("Fo", { rolled: "red", damage: 40, chosenDamage: 30 })).toEqual({ color: "red", damage: 30 });
  });
});

describe("charging", () => {
  const perAreaCs = docNumber(/charging gets ([+−-]?\d+) CS to hit per area moved \(max ([+−-]?\d+)\)/);
  const maxCs = docNumber(/charging gets ([+−-]?\d+) CS to hit per area moved \(max ([+−-]?\d+)\)/, 2);
  const perAreaDamage = docNumber(/Ch = max\(Endurance, body armor\) \+ (\d+) per area moved/);

  it("the constants are the document's", () => {
    expect(CHARGE_MAX_TO_HIT_CS).toBe(maxCs);
    expect(CHARGE_DAMAGE_PER_AREA).toBe(perAreaDamage);
  });

  it("to hit: +1 CS per area moved, at most +3", () => {
    fc.assert(
      fc.property(fc.integer({ min: CHARGE_MIN_AREAS, max: 200 }), (areas) => {
        expect(chargeToHitShift(areas)).toBe(Math.min(areas * perAreaCs, maxCs));
      }),
    );
    expect([1, 2, 3, 4, 10].map((a) => chargeToHitShift(a))).toEqual([1, 2, 3, 3, 3]);
  });

  it("the cap is the one §5 states: a practical limit of Shift Z on the charge (second edition)", () => {
    const stated = /practical limit of ([A-Za-z]+ [A-Za-z0-9]+)\s+\((\d+)\) on the charge/.exec(section5);
    expect(stated?.[1]).toBe(rankByKey(CHARGE_TO_HIT_COLUMN_CAP).name);
    expect(Number(stated?.[2])).toBe(rankByKey(CHARGE_TO_HIT_COLUMN_CAP).number);
  });

  it("to hit: the bonus never lifts the column above Shift Z [001]", () => {
    expect(chargeToHitShift(3, 100)).toBe(3); // Unearthly → Shift Z
    expect(chargeToHitShift(3, 150)).toBe(2); // Shift X → Shift Z
    expect(chargeToHitShift(3, 500)).toBe(0); // already Shift Z
    expect(chargeToHitShift(3, 1000)).toBe(0); // above Shift Z: no bonus, no penalty
  });

  it("damage = max(End, armor) + 2 per area, the bonus capped at that max", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, fc.integer({ min: 1, max: 5000 }), (endurance, bodyArmor, areas) => {
        const base = Math.max(endurance, bodyArmor);
        const dmg = chargeDamage({ endurance, bodyArmor, areas });
        expect(dmg).toBe(base + Math.min(perAreaDamage * areas, base));
        expect(dmg).toBeGreaterThanOrEqual(base);
        expect(dmg).toBeLessThanOrEqual(2 * base);
        expect(chargeDamage({ endurance, bodyArmor, areas: areas + 1 })).toBeGreaterThanOrEqual(dmg);
      }),
    );
  });

  it("the [001] example: Unearthly (100) Endurance benefits from up to 50 areas", () => {
    expect(chargeDamage({ endurance: 100, bodyArmor: 0, areas: 49 })).toBe(198);
    expect(chargeDamage({ endurance: 100, bodyArmor: 0, areas: 50 })).toBe(200);
    expect(chargeDamage({ endurance: 100, bodyArmor: 0, areas: 51 })).toBe(200);
    expect(chargeDamage({ endurance: 20, bodyArmor: 40, areas: 3 })).toBe(46);
  });

  it("rebound: the target's armor comes back at the charger, absorbed by like armor", () => {
    expect(chargeReboundDamage(30)).toBe(30);
    expect(chargeReboundDamage(30, 30)).toBe(0);
    expect(chargeReboundDamage(30, 40)).toBe(0);
    expect(chargeReboundDamage(30, 20)).toBe(10);
    expect(chargeReboundDamage(0, 20)).toBe(0);
  });
});

describe("ranged attacks", () => {
  const perArea = docNumber(/([+−-]\d+) CS per area beyond range/);
  const perObject = docNumber(/([+−-]\d+) CS per object in the path/);

  it("the constants are the document's", () => {
    expect(RANGE_CS_PER_AREA).toBe(perArea);
    expect(OBSTACLE_CS_PER_OBJECT).toBe(perObject);
  });

  it("−1 CS per area beyond range, nothing within it", () => {
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), (distance, range) => {
        const cs = rangePenalty(distance, range);
        expect(cs).toBe(distance > range ? perArea * (distance - range) : 0);
        expect(Object.is(cs, -0)).toBe(false);
        expect(rangePenalty(distance + 1, range)).toBeLessThanOrEqual(cs);
      }),
    );
    expect(rangePenalty(10_000, Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("−2 CS per object in the path", () => {
    fc.assert(
      fc.property(fc.nat(50), (n) => {
        expect(obstaclePenalty(n)).toBe(n === 0 ? 0 : perObject * n);
      }),
    );
    expect(Object.is(obstaclePenalty(0), 0)).toBe(true);
  });

  it("an object's material strength comes off the damage ([001]: Excellent bullets through a Good door do 10)", () => {
    expect(damageThroughObstacles(20, [10])).toBe(10);
    expect(damageThroughObstacles(20, [10, 30])).toBe(0);
    expect(damageThroughObstacles(20, [])).toBe(20);
    fc.assert(
      fc.property(rankNumber, fc.array(fc.nat(200), { maxLength: 5 }), (dmg, ms) => {
        const left = damageThroughObstacles(dmg, ms);
        expect(left).toBe(Math.max(0, dmg - ms.reduce((s, m) => s + m, 0)));
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(dmg);
      }),
    );
  });

  it("a miss may strike others only for ranged attacks", () => {
    for (const code of ATTACK_CODES) {
      expect(missMayStrikeOthers(code)).toBe(docRow(code)["rolls on"] === "Agy (dex)");
    }
  });

  it("Blunt Throwing damage is the lesser of Strength and the item's material strength [000]", () => {
    expect(/BT = the lesser of\s+thrower's Strength and the item's material strength \[000\]/.test(section5)).toBe(true);
    fc.assert(
      fc.property(rankNumber, rankNumber, (str, ms) => {
        expect(bluntThrowingDamage(str, ms)).toBe(Math.min(str, ms));
      }),
    );
  });
});

describe("grabbing and holds", () => {
  it("Take: grabbed only when strictly stronger, else a struggle (a loose item: a miss)", () => {
    fc.assert(
      fc.property(rankNumber, rankNumber, (g, h) => {
        const expected = STRENGTH_CONTEST_BY === "number" ? g > h : strengthBeats(g, h, "rank");
        expect(takeSucceeds(g, h)).toBe(expected);
        expect(takeOutcome(g, h)).toBe(expected ? "grabbed" : "struggle");
        expect(takeOutcome(g, h, true)).toBe(expected ? "grabbed" : "miss");
      }),
    );
    expect(takeSucceeds(30, 30)).toBe(false);
    expect(takeSucceeds(40, 30)).toBe(true);
  });

  it("strength contests by rank compare columns only", () => {
    expect(strengthBeats(31, 30, "rank")).toBe(false);
    expect(strengthBeats(31, 30, "number")).toBe(true);
    expect(strengthBeats(36, 35, "rank")).toBe(true);
    expect(() => strengthBeats(10, 5, "weight" as "rank")).toThrow(/weight/);
  });

  it("Partial Hold: −2 CS on all actions of the held (from the document)", () => {
    const cs = docNumber(/Partial Hold: ([+−-]\d+) CS on all actions of the held/);
    expect(PARTIAL_HOLD_CS).toBe(cs);
    expect(holdEffects("partialHold")).toEqual({ heldActionCs: cs, heldCanMove: true, holderOtherActions: 1 });
  });

  it("Full Hold: the held cannot move; the holder keeps one other action; damage only if stronger", () => {
    expect(/Full Hold: the held cannot move; the holder\s+may still take one other action and deals damage only if stronger/.test(section5)).toBe(true);
    expect(holdEffects("fullHold")).toEqual({ heldActionCs: FULL_HOLD_CS, heldCanMove: false, holderOtherActions: 1 });
    expect(FULL_HOLD_CS).toBeLessThanOrEqual(PARTIAL_HOLD_CS);
    expect(holdEffects("none")).toEqual({ heldActionCs: 0, heldCanMove: true, holderOtherActions: 0 });
    expect(fullHoldDealsDamage(40, 30)).toBe(true);
    expect(fullHoldDealsDamage(30, 30)).toBe(false);
    expect(fullHoldDealsDamage(20, 30)).toBe(false);
  });
});

describe("blindsiding", () => {
  it("a blindsided attack cannot be defended [000]", () => {
    expect(/Blindsided .* cannot be dodged or otherwise defended \[000\]/.test(section5)).toBe(true);
    expect(canDefend({ blindsided: true })).toBe(false);
    expect(canDefend({ blindsided: false })).toBe(true);
  });
});

describe("bad input is a clear error", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["unknown attack code", () => attackResult("XX" as AttackCode, "green"), /Unknown attack code "XX"/],
    ["lower-case attack code", () => attackResult("ba" as AttackCode, "green"), /"ba"/],
    ["invalid colour", () => attackResult("BA", "blue" as Color), /"blue"/],
    ["unknown result", () => isHit("crit" as AttackResult), /"crit"/],
    ["unknown result, called shot", () => calledShotSucceeds("crit" as AttackResult), /"crit"/],
    ["non-boolean calledShot", () => countsAsHit("hit", "yes" as unknown as boolean), /calledShot/],
    ["pull colour, bad colour", () => pullColor("BA", "red", "pink" as Color), /"pink"/],
    ["pull damage, negative", () => pullDamage("BA", 20, -1), /-1/],
    ["pull damage, fraction", () => pullDamage("BA", 20.5, 10), /20.5/],
    ["charge with 0 areas", () => chargeToHitShift(0), /of 1 or more/],
    ["charge with 1.5 areas", () => chargeDamage({ endurance: 30, bodyArmor: 0, areas: 1.5 }), /1.5/],
    ["charge, negative endurance", () => chargeDamage({ endurance: -30, bodyArmor: 0, areas: 1 }), /Endurance/],
    ["charge, NaN armor", () => chargeDamage({ endurance: 30, bodyArmor: Number.NaN, areas: 1 }), /Body armor/],
    ["charge to-hit, bad endurance", () => chargeToHitShift(2, -1), /Endurance/],
    ["rebound, negative armor", () => chargeReboundDamage(-5), /-5/],
    ["range, negative distance", () => rangePenalty(-1, 3), /Distance/],
    ["range, fractional range", () => rangePenalty(4, 2.5), /Range/],
    ["obstacles, fractional", () => obstaclePenalty(1.5), /1.5/],
    ["obstacle MS negative", () => damageThroughObstacles(20, [-3]), /Material strength of object 1/],
    ["obstacles not an array", () => damageThroughObstacles(20, 10 as unknown as number[]), /array/],
    ["thrown, negative MS", () => bluntThrowingDamage(30, -2), /material strength/],
    ["take, negative", () => takeSucceeds(-1, 5), /Strength/],
    ["hold, unknown", () => holdEffects("armlock" as HoldState), /"armlock"/],
    ["blindsided not boolean", () => canDefend({ blindsided: 1 as unknown as boolean }), /blindsided/],
    ["definition, unknown", () => attackDefinition("Zz" as AttackCode), /"Zz"/],
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

describe("rulings passed by a setting", () => {
  it("the defaults are the exported constants", () => {
    expect(DEFAULT_ATTACK_RULINGS).toEqual({
      edgedThrowingPull: EDGED_THROWING_PULL_RULE,
      pullToMissAllowed: PULL_TO_MISS_ALLOWED,
      pullDamageAndColorTogether: PULL_DAMAGE_AND_COLOR_TOGETHER,
      chargeReboundAbsorbed: CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR,
      strengthContestBy: STRENGTH_CONTEST_BY,
      fullHoldCs: FULL_HOLD_CS,
    });
    expect(resolveAttackRulings()).toEqual(DEFAULT_ATTACK_RULINGS);
  });

  it("Edged Throwing under the [000] reading pulls damage only", () => {
    const doc000 = docPull(docRow("ET")["may pull"] ?? "").bySource["000"];
    expect(doc000).toBe("damage");
    const r = { edgedThrowingPull: doc000 };
    expect(pullRule("ET", r)).toBe("damage");
    expect(pullDamage("ET", 20, 10, r)).toBe(10);
    expect(() => pullColor("ET", "red", "yellow", r)).toThrow(RangeError);
    expect(() => pullDamage("ET", 20, 10)).toThrow(RangeError); // the default, [001]
    expect(pullRule("BA", r)).toBe("damageOrColor"); // only ET is affected
  });

  it("each pull ruling has an effect both ways", () => {
    expect(pullColor("BA", "green", "white", { pullToMissAllowed: true })).toBe("white");
    expect(() => pullColor("BA", "green", "white", { pullToMissAllowed: false })).toThrow(/white miss/);
    expect(pullColor("BA", "white", "white", { pullToMissAllowed: false })).toBe("white"); // nothing pulled
    const both = { rolled: "red", damage: 40, chosenColor: "green", chosenDamage: 10 } as const;
    expect(pullAttack("BA", both, { pullDamageAndColorTogether: true })).toEqual({ color: "green", damage: 10 });
    expect(() => pullAttack("BA", both, { pullDamageAndColorTogether: false })).toThrow(/not both/);
    expect(pullAttack("BA", { rolled: "red", damage: 40, chosenColor: "green" }, { pullDamageAndColorTogether: false })).toEqual({ color: "green", damage: 40 });
  });

  it("rebound, strength contests and the full-hold CS follow the rulings", () => {
    expect(chargeReboundDamage(30, 20, { chargeReboundAbsorbed: false })).toBe(30);
    expect(chargeReboundDamage(30, 20, { chargeReboundAbsorbed: true })).toBe(10);
    expect(takeSucceeds(31, 30, { strengthContestBy: "rank" })).toBe(false);
    expect(takeSucceeds(31, 30, { strengthContestBy: "number" })).toBe(true);
    expect(takeOutcome(31, 30, true, { strengthContestBy: "rank" })).toBe("miss");
    expect(fullHoldDealsDamage(31, 30, { strengthContestBy: "rank" })).toBe(false);
    expect(holdEffects("fullHold", { fullHoldCs: -4 }).heldActionCs).toBe(-4);
    expect(holdEffects("partialHold", { fullHoldCs: -4 }).heldActionCs).toBe(PARTIAL_HOLD_CS);
  });

  it("a bad ruling value is a clear error", () => {
    expect(() => resolveAttackRulings({ edgedThrowingPull: "some" as PullRule })).toThrow(/edgedThrowingPull.*"some"/);
    expect(() => resolveAttackRulings({ pullToMissAllowed: "yes" as unknown as boolean })).toThrow(/pullToMissAllowed/);
    expect(() => resolveAttackRulings({ strengthContestBy: "mass" as "rank" })).toThrow(/strengthContestBy/);
    expect(() => resolveAttackRulings({ fullHoldCs: 1.5 })).toThrow(/fullHoldCs.*1.5/);
    expect(() => resolveAttackRulings(null as unknown as Partial<AttackRulings>)).toThrow(TypeError);
    expect(() => pullColor("BA", "red", "green", { pullDamageAndColorTogether: 0 as unknown as boolean })).toThrow(/pullDamageAndColorTogether/);
  });
});

// The result array type is also usable for exhaustive lists.
describe("ATTACK_RESULTS", () => {
  it("covers every result a cell of the table produces", () => {
    const used = new Set(ATTACK_CODES.flatMap((a) => COLORS.map((c) => attackResult(a, c))));
    expect([...used].every((r) => (ATTACK_RESULTS as readonly string[]).includes(r))).toBe(true);
    expect(new Set(ATTACK_RESULTS)).toEqual(used);
  });
});
