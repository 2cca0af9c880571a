/**
 * The seed rules the attack card had not finished (issue 23, item 8): slam collisions, careening
 * charges, bystander rolls, Break, catch damage, catching a falling ally, Reversal on an escape,
 * Mercy Bullets, and the one impact rule. Every expected value is worked by hand in a comment
 * from the rules text (source/001, source/000) and the Universal Table of CASE-RULES §2:
 *
 *   column      green from  yellow from  red from
 *   Poor            56          86          100
 *   Typical         51          81           98
 *   Good            46          76           98
 *   Excellent       41          71           95
 *   Remarkable      36          66           95
 *   Incredible      31          61           91
 *   Amazing         26          56           91
 *
 * Charge damage [001]: the higher of Endurance and body armor, + 2 per area, the bonus at most
 * that value; the struck armor (or material strength) absorbs it and rebounds onto the charger,
 * less the charger's own body armor (CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BYSTANDER_FIRST_HIT_STOPS,
  IMPACT_DAMAGE_LIMIT,
  attackSetup,
  breakRoll,
  bystanderRolls,
  careeningCharge,
  catchDamage,
  catchFallingAlly,
  chargeReboundDamage,
  escapeOutcome,
  impactDamage,
  impactStrike,
  mercyBullets,
  resolveImpact,
  slamCollision,
} from "../../src/rules/index";

describe("slam collision", () => {
  it("slam collision: a Grand Slam flings an Excellent-Endurance hero 4 areas into a Good brick wall: the wall breaks, the hero takes the wall's strength back", () => {
    // [001] "treated per a charging attack": the slammed hero is the charger.
    // base = max(End 20, armor 0) = 20; bonus = min(2 × 4, 20) = 8; damage 28.
    // wall: 28 − MS 10 = 18 > 0, so it breaks; rebound = MS 10 − hero's armor 0 = 10.
    expect(slamCollision({ slam: "grandSlam", areasFlown: 4, slammed: { endurance: 20, bodyArmor: 0 }, struck: "object", struckArmor: 10 })).toEqual({
      damage: 28,
      toTarget: 18,
      breaks: true,
      rebound: 10,
      result: "hit",
    });
  });

  it("slam collision: a hero slammed one area into a thug: the thug takes the charge through his armor, the hero's armor soaks the rebound", () => {
    // Slammed: End Remarkable 30, body armor Good 10; struck thug's body armor Typical 6.
    // base = max(30, 10) = 30; bonus = min(2 × 1, 30) = 2; damage 32; thug: 32 − 6 = 26.
    // rebound = 6 − 10 → 0 (the slammed hero's own armor radiates it out).
    const out = slamCollision({ slam: "oneArea", areasFlown: 1, slammed: { endurance: 30, bodyArmor: 10 }, struck: "character", struckArmor: 6 });
    expect([out.damage, out.toTarget, out.rebound]).toEqual([32, 26, 0]);
  });

  it("slam collision: a stagger or no slam moves no one, so it strikes nothing: refused clearly", () => {
    expect(() => slamCollision({ slam: "stagger", areasFlown: 1, slammed: { endurance: 20, bodyArmor: 0 }, struck: "object", struckArmor: 10 })).toThrow(/slam that moves/);
    expect(() => slamCollision({ slam: "oneArea", areasFlown: 0, slammed: { endurance: 20, bodyArmor: 0 }, struck: "object", struckArmor: 10 })).toThrow(/Areas/);
  });
});

describe("careening charge", () => {
  const charger = { endurance: 30, bodyArmor: 0 };
  const base = { chargeColor: "white" as const, crowded: true, charger, areas: 2, struck: "character" as const, struckArmor: 10, die: 30 };

  it("careening charge: a white charge in a crowd rolls again against what it careens into: Remarkable Endurance +2 CS reads Amazing", () => {
    // Remarkable (30) + 2 CS for 2 areas = Amazing column; 30 is green on Amazing (26–55) → Hit.
    // damage = 30 + min(2 × 2, 30) = 34; bystander's armor 10 → 24; rebound 10 − 0 = 10.
    expect(careeningCharge(base)).toEqual({ careens: true, color: "green", result: "hit", impact: { damage: 34, toTarget: 24, breaks: true, rebound: 10 } });
  });

  it("careening charge: a yellow careen roll slams a character, but an object only takes the damage", () => {
    // 60 on Amazing is yellow (56–90): the Charging row's yellow is Slam.
    expect(careeningCharge({ ...base, die: 60 }).result).toBe("slam");
    expect(careeningCharge({ ...base, die: 60, struck: "object" }).result).toBe("hit");
  });

  it("careening charge: a white careen roll careens past harmlessly; no careen without a crowd or after a hit", () => {
    // 20 on Amazing is white (below 26): a Miss.
    expect(careeningCharge({ ...base, die: 20 })).toEqual({ careens: true, color: "white", result: "miss", impact: null });
    expect(careeningCharge({ ...base, crowded: false }).careens).toBe(false);
    expect(careeningCharge({ ...base, chargeColor: "green" }).careens).toBe(false);
  });
});

describe("bystander roll", () => {
  const miss = { attack: "Sh" as const, targetResult: "miss" as const, value: 20, cs: -1 };

  it("bystander roll: a missed shot rolls for each person next to the target until one is struck", () => {
    // Excellent (20) Agility, −1 CS for range: the Good column (green 46, yellow 76, red 98).
    // A: 30 → white (Miss); B: 50 → green (Hit): struck, and the shot stops there; C is not rolled.
    expect(BYSTANDER_FIRST_HIT_STOPS).toBe(true);
    const rolls = bystanderRolls({ ...miss, bystanders: [{ id: "A", die: 30 }, { id: "B", die: 50 }, { id: "C", die: 99 }] });
    expect(rolls).toEqual([
      { id: "A", die: 30, color: "white", result: "miss", struck: false },
      { id: "B", die: 50, color: "green", result: "hit", struck: true },
    ]);
  });

  it("a red bystander roll with a Shooting attack is its Kill result", () => {
    // 98 on Good is red; Shooting's red is Kill.
    expect(bystanderRolls({ ...miss, bystanders: [{ id: "A", die: 98 }] })[0]?.result).toBe("kill");
  });

  it("bystander roll: no rolls after a hit; none below Shift 0; a melee miss strikes no bystander", () => {
    expect(bystanderRolls({ ...miss, targetResult: "hit", bystanders: [{ id: "A", die: 99 }] })).toEqual([]);
    // Feeble (2) −2 CS is below Shift 0: no roll can hit [001].
    expect(bystanderRolls({ ...miss, value: 2, cs: -2, bystanders: [{ id: "A", die: 100 }] })[0]?.struck).toBe(false);
    expect(() => bystanderRolls({ ...miss, attack: "BA", bystanders: [] })).toThrow(/ranged/);
  });
});

describe("break roll", () => {
  it("break roll: an Incredible grabber against a Good (10) item needs green: 35 breaks it, 25 does not; the item is taken either way", () => {
    // Incredible is above Good → green needed; 35 on Incredible is green (31–60); 25 is white.
    expect(breakRoll(40, 10, 35)).toEqual({ die: 35, color: "green", success: true, taken: true, breaks: true });
    expect(breakRoll(40, 10, 25)).toMatchObject({ color: "white", taken: true, breaks: false });
  });

  it("break roll: against an Amazing (50) item one rank higher, only red breaks it", () => {
    // Amazing is one rank above Incredible → red needed; 95 is red (91+), 80 yellow (61–90).
    expect(breakRoll(40, 50, 95).breaks).toBe(true);
    expect(breakRoll(40, 50, 80).breaks).toBe(false);
  });
});

describe("catch damage", () => {
  it("catch damage: a caught vase: a Strength ACTION against its material strength decides whether it is damaged", () => {
    // Good (10) Strength against a Poor (4) vase: green needed; 50 on Good is green (46–75), 40 white.
    expect(catchDamage({ caught: "object", strength: 10, materialStrength: 4, die: 50 })).toMatchObject({ caught: "object", color: "green", damaged: true });
    expect(catchDamage({ caught: "object", strength: 10, materialStrength: 4, die: 40 }).damaged).toBe(false);
  });

  it("catch damage: a caught person takes charge damage from the armored catcher", () => {
    // The catch is the catcher's charge [000, 001]: base = max(End 10, armor 20) = 20;
    // bonus = min(2 × 3 areas, 20) = 6; damage 26; the caught one's armor 0 → 26.
    // rebound onto the catcher = caught armor 0 → 0.
    expect(catchDamage({ caught: "person", catcher: { endurance: 10, bodyArmor: 20 }, person: { endurance: 6, bodyArmor: 0 }, areas: 3 })).toEqual({
      caught: "person",
      damage: 26,
      toCaught: 26,
      toCatcher: 0,
    });
  });
});

describe("falling ally", () => {
  const base = { areasFallen: 5, faller: { endurance: 6, bodyArmor: 0 }, catcher: { endurance: 10, bodyArmor: 0 }, groundMaterialStrength: 10 };

  it("falling ally: white: the ally falls on the catcher as a charge at the speed of the fall, and the fall ends there", () => {
    // Faller's charge: max(6, 0) = 6 + min(2 × 5, 6) = 12 → catcher (armor 0) takes 12;
    // rebound onto the faller = catcher's armor 0.
    expect(catchFallingAlly({ ...base, catchColor: "white" })).toEqual({ result: "autoHit", caught: false, toFaller: 0, toCatcher: 12 });
  });

  it("falling ally: green: missed, the ally hits the Good (10) ground and takes its material strength", () => {
    expect(catchFallingAlly({ ...base, catchColor: "green" })).toEqual({ result: "miss", caught: false, toFaller: 10, toCatcher: 0 });
  });

  it("falling ally: yellow: caught, with the catch's charge damage on the ally; red: set down safely", () => {
    // Catcher's charge: max(10, 0) = 10 + min(2 × 5, 10) = 20 → ally (armor 0) takes 20.
    expect(catchFallingAlly({ ...base, catchColor: "yellow" })).toEqual({ result: "caughtDamaged", caught: true, toFaller: 20, toCatcher: 0 });
    expect(catchFallingAlly({ ...base, catchColor: "red" })).toEqual({ result: "caught", caught: true, toFaller: 0, toCatcher: 0 });
  });
});

describe("reversal on escape", () => {
  const base = { hold: "fullHold" as const, source: "grapple" as const, choice: "reverse" as const, ableToHold: true };

  it("reversal on escape: red: the escapee reverses the full hold and is now the grappler", () => {
    expect(escapeOutcome({ ...base, color: "red" })).toEqual({ result: "reversal", free: true, formerHolderHold: "fullHold", actsThisTurn: false });
  });

  it("reversal on escape: red, choosing to break loose (or unable to hold): free, with any one action this turn", () => {
    expect(escapeOutcome({ ...base, color: "red", choice: "loose" })).toEqual({ result: "reversal", free: true, formerHolderHold: "none", actsThisTurn: true });
    expect(escapeOutcome({ ...base, color: "red", ableToHold: false }).formerHolderHold).toBe("none");
  });

  it("reversal on escape: no reversal of a power's hold; yellow frees without an action; white and green fail", () => {
    expect(escapeOutcome({ ...base, color: "red", source: "power" })).toMatchObject({ free: true, formerHolderHold: "none", actsThisTurn: true });
    expect(escapeOutcome({ ...base, color: "yellow" })).toEqual({ result: "escape", free: true, formerHolderHold: "none", actsThisTurn: false });
    expect(escapeOutcome({ ...base, color: "green" }).free).toBe(false);
    expect(escapeOutcome({ ...base, color: "white" }).free).toBe(false);
  });
});

describe("mercy bullets", () => {
  it("mercy bullets: a hit deals no damage; a Good-Endurance target fails the FEAT against Excellent rounds and is out 1d10 turns", () => {
    // Excellent (20) rounds are one rank above Good (10) Endurance → red needed; 92 on Good is yellow (76–97).
    expect(mercyBullets({ result: "hit", weaponRank: 20, endurance: 10, die: 92, d10: 4 })).toEqual({ hit: true, damage: 0, color: "yellow", resisted: false, turnsOut: 4 });
  });

  it("mercy bullets: a Remarkable-Endurance target shrugs off Excellent rounds on green; a miss does nothing", () => {
    // Remarkable is above Excellent → green needed; 40 on Remarkable is green (36–65).
    expect(mercyBullets({ result: "kill", weaponRank: 20, endurance: 30, die: 40 })).toEqual({ hit: true, damage: 0, color: "green", resisted: true, turnsOut: 0 });
    expect(mercyBullets({ result: "miss", weaponRank: 20, endurance: 30, die: 1 })).toMatchObject({ hit: false, damage: 0 });
    expect(() => mercyBullets({ result: "hit", weaponRank: 20, endurance: 10, die: 92 })).toThrow(/d10/);
  });
});

describe("one impact rule", () => {
  it("one impact rule: a charge at a character, at an object and a fall deal the same damage for the same body and distance ([001] 'works the same')", () => {
    // End Remarkable 30, no armor, 3 areas: 30 + min(6, 30) = 36, whatever is struck.
    const setup = attackSetup({ attack: "Ch", basis: "strength", itemRank: 0, strength: 10, endurance: 30, bodyArmor: 0, range: 0, distance: 0, objects: 0, chargeAreas: 3 });
    expect(setup.damage).toBe(36);
    for (const target of ["character", "object", "ground"] as const) {
      expect(impactStrike({ target, areas: 3, endurance: 30, bodyArmor: 0, targetArmor: 20 })).toEqual({ damage: 36, toTarget: 16, breaks: true, rebound: 20 });
    }
    expect(resolveImpact({ kind: "object", areas: 3, endurance: 30, bodyArmor: 0, materialStrength: 20 })).toEqual({ damage: 36, objectDamage: 16, breaks: true, rebound: 20 });
    // The card's rebound on a charge at a character is the same function the impact rule uses.
    expect(chargeReboundDamage(20, 0)).toBe(impactStrike({ target: "character", areas: 3, endurance: 30, bodyArmor: 0, targetArmor: 20 }).rebound);
  });

  it("one impact rule: property: for any body, distance and armor, the three kinds and the attack card's charge agree", () => {
    fc.assert(
      fc.property(fc.nat(1200), fc.nat(1200), fc.integer({ min: 1, max: 300 }), fc.nat(1200), (endurance, bodyArmor, areas, targetArmor) => {
        const [character, object, ground] = (["character", "object", "ground"] as const).map((target) => impactStrike({ target, areas, endurance, bodyArmor, targetArmor }));
        expect(object).toEqual(character);
        expect(ground).toEqual(character);
        expect(character?.damage).toBe(impactDamage({ endurance, bodyArmor, areas }));
        expect(character?.rebound).toBe(chargeReboundDamage(targetArmor, bodyArmor));
        const setup = attackSetup({ attack: "Ch", basis: "strength", itemRank: 0, strength: 10, endurance, bodyArmor, range: 0, distance: 0, objects: 0, chargeAreas: areas });
        expect(setup.damage).toBe(character?.damage);
      }),
    );
  });

  it("one impact rule: the Shift Z limit on impacts now also limits a charge at a character", () => {
    // Shift Y (300) Endurance over 200 areas: 300 + min(400, 300) = 600, above Shift Z (500) → 500.
    expect(IMPACT_DAMAGE_LIMIT).toBe(500);
    const setup = attackSetup({ attack: "Ch", basis: "strength", itemRank: 0, strength: 10, endurance: 300, bodyArmor: 0, range: 0, distance: 0, objects: 0, chargeAreas: 200 });
    expect(setup.damage).toBe(500);
    expect(impactStrike({ target: "character", areas: 200, endurance: 300, bodyArmor: 0, targetArmor: 0 }).damage).toBe(500);
  });
});
