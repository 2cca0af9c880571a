import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, canCallShot } from "../../src/rules/attacks";
import {
  AREA_WITHIN_RANGE,
  areaWithinRange,
  AREA_FALLOFF_CS_PER_AREA,
  AREA_MAX_RADIUS,
  AREA_NO_CALLED_SHOT,
  AREA_ONLY_EXPLOSIONS_FALL_OFF,
  areaDamageAt,
  areaRefusal,
  areaRowDamage,
  footprint,
  gridDistance,
  lineSquares,
  mayCallShotWith,
  mayHaveArea,
  targetsInArea,
  type AreaDefinition,
} from "../../src/rules/areas";
import { docRankAt, docRankOf } from "../support/rules-doc";
import { ExchangeError, createExchange, rollToHit, type ExchangeState } from "../../src/rules/exchange/index";
import { exchangeInput } from "../support/exchange-input";

const point = fc.record({ x: fc.integer({ min: -50, max: 50 }), y: fc.integer({ min: -50, max: 50 }) });
const origin = { x: 0, y: 0 };

describe("area attack: which targets a template covers", () => {
  const targets = [
    { id: "a", x: 5, y: 5 },
    { id: "b", x: 6, y: 6 },
    { id: "c", x: 7, y: 5 },
    { id: "d", x: 8, y: 5 },
  ];

  it("a burst of radius 1 covers the centre square and the eight round it (1 square = 1 area)", () => {
    expect(targetsInArea({ shape: "burst", radius: 1 }, { origin, centre: { x: 5, y: 5 } }, targets)).toEqual([
      { id: "a", distance: 0 },
      { id: "b", distance: 1 },
    ]);
    expect(targetsInArea({ shape: "burst", radius: 2 }, { origin, centre: { x: 5, y: 5 } }, targets).map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(targetsInArea({ shape: "burst", radius: 0 }, { origin, centre: { x: 5, y: 5 } }, targets).map((t) => t.id)).toEqual(["a"]);
  });

  it("a line from the attacker covers its length in squares toward the aim point", () => {
    expect(lineSquares(origin, { x: 3, y: 0 }, 4)).toEqual([{ x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }, { x: 4, y: 0 }]);
    const onLine = [{ id: "near", x: 2, y: 0 }, { id: "off", x: 2, y: 1 }, { id: "far", x: 9, y: 0 }];
    expect(targetsInArea({ shape: "line", radius: 5 }, { origin, centre: { x: 1, y: 0 } }, onLine).map((t) => t.id)).toEqual(["near"]);
  });

  it("refuses malformed areas and positions", () => {
    expect(() => targetsInArea({ shape: "cone", radius: 1 } as unknown as AreaDefinition, { origin, centre: origin }, [])).toThrow(RangeError);
    expect(() => targetsInArea({ shape: "burst", radius: -3 }, { origin, centre: origin }, [])).toThrow(RangeError);
    expect(() => targetsInArea({ shape: "burst", radius: 1 }, { origin, centre: origin }, [{ id: "x", x: 1.5, y: 0 }])).toThrow(RangeError);
    expect(() => lineSquares(origin, origin, 3)).toThrow(/needs a direction/);
    expect(() => gridDistance(origin, { x: Number.NaN, y: 0 })).toThrow(RangeError);
  });

  it("property: a burst covers exactly the targets within its radius, and a larger burst covers at least as many", () => {
    fc.assert(fc.property(point, fc.array(point, { maxLength: 15 }), fc.nat(6), (centre, ps, radius) => {
      const ts = ps.map((p, i) => ({ id: `t${i}`, ...p }));
      const covered = targetsInArea({ shape: "burst", radius }, { origin, centre }, ts);
      expect(covered.map((c) => c.id)).toEqual(ts.filter((t) => Math.max(Math.abs(t.x - centre.x), Math.abs(t.y - centre.y)) <= radius).map((t) => t.id));
      expect(targetsInArea({ shape: "burst", radius: radius + 1 }, { origin, centre }, ts).length).toBeGreaterThanOrEqual(covered.length);
    }));
  });
});

describe("area attack: damage by distance (ruling)", () => {
  it("full damage at the centre, one rank less per area out (§1 ladder standard numbers)", () => {
    expect(AREA_FALLOFF_CS_PER_AREA).toBe(-1);
    expect(areaDamageAt(40, 0)).toBe(40);
    expect(areaDamageAt(40, 1)).toBe(docRankAt(docRankOf(40).index - 1).number);
    expect(areaDamageAt(40, 2)).toBe(docRankAt(docRankOf(40).index - 2).number);
    expect(areaDamageAt(40, 30)).toBe(0);
    expect(areaDamageAt(40, 3, 0)).toBe(40);
    expect(() => areaDamageAt(40, 1, 1)).toThrow(/only fall off/);
    expect(() => areaDamageAt(-3, 1)).toThrow(RangeError);
  });

  it("property: damage never rises with distance and never exceeds the centre's", () => {
    fc.assert(fc.property(fc.nat(6000), fc.nat(20), fc.integer({ min: -3, max: 0 }), (damage, d, falloff) => {
      const here = areaDamageAt(damage, d, falloff);
      expect(here).toBeLessThanOrEqual(damage);
      expect(here).toBeGreaterThanOrEqual(0);
      expect(areaDamageAt(damage, d + 1, falloff)).toBeLessThanOrEqual(here);
    }));
  });

  it("area attacks are ranged attack types", () => {
    expect(ATTACK_CODES.filter(mayHaveArea)).toEqual(["BT", "ET", "En", "Fo", "Sh"]);
  });
});

describe("area attack: explosions, footprints and the exchange (rulings)", () => {
  it("only an explosion's damage falls off; a gas cloud or a line deals the same to everyone in it", () => {
    expect(AREA_ONLY_EXPLOSIONS_FALL_OFF).toBe(true);
    expect(areaRowDamage({ shape: "burst", radius: 3, explosive: true }, 40, 2)).toBe(docRankAt(docRankOf(40).index - 2).number);
    expect(areaRowDamage({ shape: "burst", radius: 3 }, 40, 2)).toBe(40);
    expect(areaRowDamage({ shape: "line", radius: 5, explosive: false }, 40, 0)).toBe(40);
    expect(() => areaRowDamage({ shape: "burst", radius: 3, explosive: "yes" } as unknown as AreaDefinition, 40, 0)).toThrow(/explosive/);
    expect(() => areaRowDamage({ shape: "burst", radius: AREA_MAX_RADIUS + 1 }, 40, 0)).toThrow(/at most/);
  });

  it("property: a row's area damage is never more than the attack's, and equal to it at the centre", () => {
    fc.assert(fc.property(fc.nat(6000), fc.nat(AREA_MAX_RADIUS), fc.boolean(), (damage, d, explosive) => {
      const area: AreaDefinition = { shape: "burst", radius: AREA_MAX_RADIUS, explosive };
      expect(areaRowDamage(area, damage, d)).toBeLessThanOrEqual(damage);
      expect(areaRowDamage(area, damage, 0)).toBe(damage);
      if (!explosive) expect(areaRowDamage(area, damage, d)).toBe(damage);
    }));
  });

  it("a token of several squares is in the area when any of its squares is, at its nearest square's distance", () => {
    expect(footprint({ id: "big", x: 2, y: 2, width: 2, height: 2 })).toEqual([{ x: 2, y: 2 }, { x: 2, y: 3 }, { x: 3, y: 2 }, { x: 3, y: 3 }]);
    const big = [{ id: "big", x: 2, y: 2, width: 2, height: 2 }];
    expect(targetsInArea({ shape: "burst", radius: 1 }, { origin, centre: { x: 5, y: 5 } }, big)).toEqual([]);
    expect(targetsInArea({ shape: "burst", radius: 2 }, { origin, centre: { x: 5, y: 5 } }, big)).toEqual([{ id: "big", distance: 2 }]);
    expect(targetsInArea({ shape: "line", radius: 3 }, { origin: { x: 0, y: 3 }, centre: { x: 1, y: 3 } }, big).map((t) => t.id)).toEqual(["big"]);
    expect(() => footprint({ id: "x", x: 0, y: 0, width: 0 })).toThrow(RangeError);
  });

  it("property: a token is covered exactly when one of its squares lies within the burst", () => {
    fc.assert(fc.property(point, point, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.nat(5), (centre, p, width, height, radius) => {
      const t = { id: "t", ...p, width, height };
      const inside = footprint(t).some((s) => Math.max(Math.abs(s.x - centre.x), Math.abs(s.y - centre.y)) <= radius);
      expect(targetsInArea({ shape: "burst", radius }, { origin, centre }, [t]).length).toBe(inside ? 1 : 0);
    }));
  });

  it("an area is refused on a melee attack and on a called shot", () => {
    expect(areaRefusal("En", { shape: "burst", radius: 1 }, false)).toBeNull();
    expect(areaRefusal("BA", { shape: "burst", radius: 1 }, false)).toMatch(/only ranged/);
    expect(areaRefusal("Sh", { shape: "burst", radius: 1 }, true)).toMatch(/called shot/);
  });

  /** A grenade (Sh, Incredible 40 damage, explosive burst of 3) on four thugs at 0–3 areas from the centre. */
  function grenade(explosive: boolean): ExchangeState {
    const row = (i: number) => ({
      uuid: `Scene.s.Token.t${i}`,
      actorUuid: `Actor.thug${i}`,
      name: `Thug ${i}`,
      scores: { "agility.bal": 6, "fighting.def": 6, "strength.mgt": 10, "endurance.res": 10 },
      armor: { body: 0, energy: 0 },
      areaDistance: i,
    });
    return createExchange(exchangeInput({
      attack: "Sh",
      source: "Grenade",
      attacker: { uuid: "Actor.hero", name: "Hero", value: 30, strength: 20, armor: 0 },
      blindsided: true,
      projectile: "bullet",
      targets: [0, 1, 2, 3].map(row),
      area: { shape: "burst", radius: 3, explosive },
    }));
  }

  it("an area attack's exchange: one row a target, each rolled apart, an explosion's damage falling off by distance; nothing to catch", () => {
    let s = grenade(true);
    expect(s.projectile).toBeNull();
    expect(s.targets.map((t) => t.areaDistance)).toEqual([0, 1, 2, 3]);
    // Each row its own to-hit roll: 99 is red on Remarkable, a hit on every row.
    for (const t of s.targets) s = rollToHit(s, t.key, { die: 99 });
    expect(s.targets.map((t) => t.damage?.raw)).toEqual([0, 1, 2, 3].map((d) => docRankAt(docRankOf(40).index - d).number));
    // A non-explosive area: the same damage everywhere.
    let flat = grenade(false);
    for (const t of flat.targets) flat = rollToHit(flat, t.key, { die: 99 });
    expect(flat.targets.map((t) => t.damage?.raw)).toEqual([40, 40, 40, 40]);
    // It survives the wire.
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it("an area attack's exchange refuses a target without its distance, or beyond the area, or a melee area", () => {
    const s = grenade(true);
    const [first] = s.targets;
    if (!first) throw new Error("The grenade has targets.");
    const input = { ...s, targets: s.targets };
    expect(() => createExchange({ ...input, targets: [{ ...first, areaDistance: undefined }] })).toThrow(/distance from the centre/);
    expect(() => createExchange({ ...input, targets: [{ ...first, areaDistance: 4 }] })).toThrow(/0 to 3 areas/);
    expect(() => createExchange({ ...input, attack: "BA" })).toThrow(ExchangeError);
  });
});

describe("area attack: called shots", () => {
  it("area attack: an attack without an area may call its shot where its type allows; with an area never, under the ruling", () => {
    for (const attack of ATTACK_CODES) {
      expect(mayCallShotWith(attack, false)).toBe(canCallShot(attack));
      expect(mayCallShotWith(attack, true)).toBe(canCallShot(attack) && !AREA_NO_CALLED_SHOT);
    }
    // The ruling is on: no attack type calls its shot with an area; some do without one.
    expect(ATTACK_CODES.some((a) => mayCallShotWith(a, true))).toBe(false);
    expect(ATTACK_CODES.some((a) => mayCallShotWith(a, false))).toBe(true);
  });
});

describe("template range: an area lands within its range (ruling)", () => {
  it("template range: a burst's centre no farther than the range; a line always; bad input refused", () => {
    expect(AREA_WITHIN_RANGE).toBe(true);
    const burst = { shape: "burst", radius: 2, explosive: true } as const;
    expect(areaWithinRange(burst, 2, 2)).toBe(true);
    expect(areaWithinRange(burst, 3, 2)).toBe(false);
    expect(areaWithinRange(burst, 24, 2)).toBe(false);
    expect(areaWithinRange(burst, 0, 0)).toBe(true);
    expect(areaWithinRange(burst, 500, Number.POSITIVE_INFINITY)).toBe(true);
    expect(areaWithinRange({ shape: "line", radius: 10, explosive: false }, 24, 2)).toBe(true);
    fc.assert(fc.property(fc.nat(100), fc.nat(100), (distance, range) => areaWithinRange(burst, distance, range) === distance <= range));
    expect(() => areaWithinRange(burst, -1, 2)).toThrow(RangeError);
    expect(() => areaWithinRange(burst, 1.5, 2)).toThrow(RangeError);
  });
});
