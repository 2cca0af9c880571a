import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES } from "../../src/rules/attacks";
import {
  AREA_FALLOFF_CS_PER_AREA,
  areaDamageAt,
  gridDistance,
  lineSquares,
  mayHaveArea,
  targetsInArea,
  type AreaDefinition,
} from "../../src/rules/areas";
import { docRankAt, docRankOf } from "../support/rules-doc";

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
