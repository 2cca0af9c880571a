/**
 * Resisted powers, power stunts, Karma on defences and checks, Karma against death (issue 23,
 * items 4 and 5, the rules half). The seeds are silent, so these are rulings (FASERIP values);
 * the expected values are worked by hand in comments from §2 (the colour an intensity needs:
 * acting rank higher → green, equal → yellow, one rank lower → red, two or more → impossible;
 * Karma is added to the d100, capped at 100) and the Universal Table:
 *
 *   column      green from  yellow from  red from
 *   Good            46          76           98
 *   Excellent       41          71           95
 *   Remarkable      36          66           95
 *   Incredible      31          61           91
 */
import { describe, expect, it } from "vitest";
import {
  KARMA_AGAINST_DEATH_MINIMUM,
  POWER_STUNT_KARMA_COST,
  attemptPowerStunt,
  dodgeShift,
  karmaAgainstDeath,
  karmaAllowedOn,
  karmaOnRoll,
  powerStuntNeeds,
  resistedPowerOutcome,
  stunResult,
  universalColor,
  type ResistedPower,
} from "../../src/rules/index";

const mindControl: ResistedPower = { rank: 30, resistedBy: "psyche", effect: { kind: "condition", condition: "controlled", turns: 10 } };
const snare: ResistedPower = { rank: 20, resistedBy: "strength.mgt", effect: { kind: "hold", hold: "fullHold" } };
const flash: ResistedPower = { rank: 50, resistedBy: "endurance.res", effect: { kind: "condition", condition: "blinded", turns: 3 } };

describe("resisted power", () => {
  it("resisted power: Incredible Psyche against Remarkable Mind Control needs green: 40 resists, 20 is controlled for 10 turns", () => {
    // Incredible (40) is above Remarkable (30) → green; 40 on Incredible is green (31–60), 20 white.
    expect(resistedPowerOutcome(mindControl, { value: 40, die: 40 })).toEqual({ color: "green", required: "green", resisted: true, effect: null });
    expect(resistedPowerOutcome(mindControl, { value: 40, die: 20 })).toMatchObject({ resisted: false, effect: { kind: "condition", condition: "controlled", turns: 10 } });
  });

  it("resisted power: a Good mind two ranks below the Mind Control cannot resist at all", () => {
    // Remarkable is two ranks above Good → impossible, even on 100.
    expect(resistedPowerOutcome(mindControl, { value: 10, die: 100 })).toMatchObject({ required: "impossible", resisted: false });
  });

  it("resisted power: an Excellent snare against Excellent Strength needs yellow: 70 is held fast, 71 breaks free", () => {
    // Equal ranks → yellow; 70 on Excellent is green (41–70), 71 yellow (71–94).
    expect(resistedPowerOutcome(snare, { value: 20, die: 70 })).toMatchObject({ color: "green", resisted: false, effect: { kind: "hold", hold: "fullHold" } });
    expect(resistedPowerOutcome(snare, { value: 20, die: 71 }).resisted).toBe(true);
  });

  it("resisted power: Karma on the resistance: 80 + 20 Karma is red against an Amazing flash one rank above Incredible Endurance", () => {
    // Amazing is one rank above Incredible → red; 80 + 20 = 100 is red on Incredible (91+); 80 alone is yellow.
    expect(resistedPowerOutcome(flash, { value: 40, die: 80, karma: 20 }).resisted).toBe(true);
    expect(resistedPowerOutcome(flash, { value: 40, die: 80 }).resisted).toBe(false);
  });

  it("resisted power: a power must name a known ability and a lasting effect", () => {
    expect(() => resistedPowerOutcome({ ...mindControl, resistedBy: "luck" as "psyche" }, { value: 40, die: 40 })).toThrow(/resisted by/);
    expect(() => resistedPowerOutcome({ ...mindControl, effect: { kind: "condition", condition: "controlled", turns: 0 } }, { value: 40, die: 40 })).toThrow(/turns/);
  });
});

describe("power stunt", () => {
  it("power stunt: a new stunt needs red and 100 Karma; 96 on a Remarkable power is red and records the first success", () => {
    // Remarkable red from 95: 96 is red.
    const stunt = { name: "Shield ricochet", attempts: 0, successes: 0 };
    expect(powerStuntNeeds(stunt)).toEqual({ needed: "red", karmaCost: POWER_STUNT_KARMA_COST });
    expect(attemptPowerStunt(stunt, 30, 96, 150)).toEqual({ color: "red", needed: "red", success: true, karmaSpent: 100, stunt: { name: "Shield ricochet", attempts: 1, successes: 1 } });
    // 70 is only yellow: a failure, the Karma is spent anyway, the attempt is recorded.
    expect(attemptPowerStunt(stunt, 30, 70, 150)).toMatchObject({ success: false, karmaSpent: 100, stunt: { attempts: 1, successes: 0 } });
  });

  it("power stunt: red → yellow after the first success → green after the fourth; free after ten attempts", () => {
    expect(powerStuntNeeds({ name: "s", attempts: 2, successes: 1 }).needed).toBe("yellow");
    expect(powerStuntNeeds({ name: "s", attempts: 6, successes: 3 }).needed).toBe("yellow");
    expect(powerStuntNeeds({ name: "s", attempts: 5, successes: 4 })).toEqual({ needed: "green", karmaCost: 100 });
    expect(powerStuntNeeds({ name: "s", attempts: 10, successes: 6 })).toEqual({ needed: "green", karmaCost: 0 });
    // A yellow stunt: 70 on Remarkable is yellow (66–94): a success.
    expect(attemptPowerStunt({ name: "s", attempts: 2, successes: 1 }, 30, 70, 100).stunt).toEqual({ name: "s", attempts: 3, successes: 2 });
  });

  it("power stunt: refused, nothing spent, without the Karma; a record with more successes than attempts is refused", () => {
    expect(() => attemptPowerStunt({ name: "s", attempts: 0, successes: 0 }, 30, 96, 50)).toThrow(/costs 100 Karma; only 50/);
    expect(() => powerStuntNeeds({ name: "s", attempts: 1, successes: 2 })).toThrow(/more successes/);
  });
});

describe("karma on defence", () => {
  it("karma on defence: a Remarkable Dodge of 50 with 20 Karma reads 70, yellow, −4 CS instead of green's −2", () => {
    // 50 + 20 = 70: yellow on Remarkable (66–94) → Dodge −4 CS; 50 alone is green (36–65) → −2 CS.
    const withKarma = karmaOnRoll("defence", 50, 20, 35);
    expect(withKarma).toEqual({ total: 70, karmaLeft: 15 });
    expect(dodgeShift(universalColor(30, withKarma.total))).toBe(-4);
    expect(dodgeShift(universalColor(30, 50))).toBe(-2);
  });

  it("karma on defence: and on a check: a Good Stun? check of 40 with 10 Karma is green, stunned 1 turn instead of out 1d10", () => {
    // 40 + 10 = 50: green on Good (46–75) → one turn; 40 alone is white → 1d10 turns.
    const check = karmaOnRoll("check", 40, 10, 10);
    expect(check).toEqual({ total: 50, karmaLeft: 0 });
    expect(stunResult(universalColor(10, check.total))).toBe("oneTurn");
    expect(stunResult(universalColor(10, 40))).toBe("outLong");
  });

  it("karma on defence: refused when the world's ruling forbids it, when blindsided, below 10 or past the pool", () => {
    expect(karmaAllowedOn("defence", false)).toBe(true);
    expect(() => karmaOnRoll("defence", 50, 20, 35, false, { onDefence: false })).toThrow(/world's ruling/);
    expect(() => karmaOnRoll("check", 50, 20, 35, false, { onChecks: false })).toThrow(/world's ruling/);
    expect(() => karmaOnRoll("defence", 50, 20, 35, true)).toThrow(/blindsided/);
    expect(() => karmaOnRoll("defence", 50, 5, 35)).toThrow();
    expect(() => karmaOnRoll("defence", 50, 20, 15)).toThrow(/only 15/);
    // No Karma is no spend: always allowed, the die as rolled.
    expect(karmaOnRoll("defence", 50, 0, 0, true, { onDefence: false })).toEqual({ total: 50, karmaLeft: 0 });
    expect(() => karmaAllowedOn("defence", false, { onDefence: "yes" as unknown as boolean })).toThrow(/onDefence/);
  });
});

describe("karma against death", () => {
  it("karma against death: at Shift 0 Endurance the next loss kills; 35 Karma, all of it, buys it off", () => {
    // Shift 0 less one rank is below Shift 0: dead [001 "doing so until they die"].
    expect(karmaAgainstDeath(0, 35, true)).toEqual({ fatal: true, mayAvoid: true, karmaSpent: 35, endurance: 0, dead: false });
    expect(karmaAgainstDeath(0, 35, false)).toMatchObject({ mayAvoid: true, karmaSpent: 0, dead: true });
  });

  it("karma against death: too little Karma, or the ruling off, and the character dies; a loss that does not kill costs nothing", () => {
    expect(KARMA_AGAINST_DEATH_MINIMUM).toBe(10);
    expect(karmaAgainstDeath(0, 9, true)).toMatchObject({ mayAvoid: false, karmaSpent: 0, dead: true });
    expect(karmaAgainstDeath(0, 35, true, { againstDeath: false })).toMatchObject({ dead: true, karmaSpent: 0 });
    // Feeble (2) less one rank is Shift 0: alive, nothing to buy off.
    expect(karmaAgainstDeath(2, 35, true)).toEqual({ fatal: false, mayAvoid: false, karmaSpent: 0, endurance: 0, dead: false });
  });
});
