import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIAGONAL_RULES, RANGE_DIAGONAL_RULE, SEVERAL_TARGETS_RANGE, SLAM_BOARD_HEADING, rangeInAreas, slamMove, type BoardBounds, type Footprint } from "../../src/rules/board";
import { targetRangeShifts } from "../../src/rules/attack-setup";
import { rangePenalty } from "../../src/rules/attacks/ranged";
import { slamDirection, type SlamDirection } from "../../src/rules/consequences";
import { gridDistance } from "../../src/rules/areas";

const size = fc.integer({ min: 1, max: 4 });
const footprint = fc.record({ x: fc.integer({ min: -40, max: 40 }), y: fc.integer({ min: -40, max: 40 }), width: size, height: size });
const single = (x: number, y: number): Footprint => ({ x, y, width: 1, height: 1 });
const DIRECTIONS: readonly SlamDirection[] = ["down", "left", "right", "back", "up"];

describe("range from tokens: grid squares to CASE areas", () => {
  it("range from tokens: one square is one area; side by side is 1, the same square 0; the diagonal rule is the [RULING]", () => {
    expect(rangeInAreas(single(0, 0), single(0, 0))).toBe(0);
    expect(rangeInAreas(single(0, 0), single(1, 0))).toBe(1);
    expect(rangeInAreas(single(0, 0), single(5, 0))).toBe(5);
    // Four diagonal steps and one straight step.
    expect(rangeInAreas(single(0, 0), single(5, 4), "one")).toBe(5);
    expect(rangeInAreas(single(0, 0), single(5, 4), "alternating")).toBe(7);
    expect(rangeInAreas(single(0, 0), single(5, 4), "two")).toBe(9);
    expect(RANGE_DIAGONAL_RULE).toBe("one");
    // A 2×2 token is measured from its nearest square.
    expect(rangeInAreas({ x: 0, y: 0, width: 2, height: 2 }, single(4, 1))).toBe(3);
    expect(() => rangeInAreas(single(0, 0), { x: 0, y: 0, width: 0, height: 1 })).toThrow(RangeError);
    expect(() => rangeInAreas(single(0.5, 0), single(0, 0))).toThrow(RangeError);
  });

  it("range from tokens: symmetric, 0 only when the tokens overlap, and the same as area distance between single squares", () => {
    fc.assert(
      fc.property(footprint, footprint, fc.constantFrom(...DIAGONAL_RULES), (a, b, rule) => {
        const r = rangeInAreas(a, b, rule);
        expect(r).toBe(rangeInAreas(b, a, rule));
        const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        expect(r === 0).toBe(overlap);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -40, max: 40 }), (x, y) => {
        expect(rangeInAreas(single(0, 0), single(x, y), "one")).toBe(gridDistance({ x: 0, y: 0 }, { x, y }, "chebyshev"));
        expect(rangeInAreas(single(0, 0), single(x, y), "two")).toBe(gridDistance({ x: 0, y: 0 }, { x, y }, "manhattan"));
      }),
    );
  });

  it("range from tokens: one step farther never lowers the range, nor the ranged attack's penalty", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.constantFrom(...DIAGONAL_RULES), fc.integer({ min: 0, max: 20 }), (x, y, rule, range) => {
        const near = rangeInAreas(single(0, 0), single(x, y), rule);
        const far = rangeInAreas(single(0, 0), single(x + 1, y), rule);
        expect(far).toBeGreaterThanOrEqual(near);
        expect(far - near).toBeLessThanOrEqual(1);
        expect(rangePenalty(far, range)).toBeLessThanOrEqual(rangePenalty(near, range));
      }),
    );
  });

  it("range per target: several targets are each attacked at their own range (the ruling)", () => {
    expect(SEVERAL_TARGETS_RANGE).toBe("each");
    // A pistol (range 3) at targets 1, 9 and 4 areas away: 0, −6 and −1 CS, not −6 for all.
    expect(targetRangeShifts("Sh", 3, [1, 9, 4])).toEqual([0, -6, -1]);
    expect(targetRangeShifts("Sh", "sight", [1, 90])).toEqual([0, 0]);
    expect(targetRangeShifts("BA", 0, [5])).toEqual([0]);
    expect(() => targetRangeShifts("Sh", 3, [1, -1])).toThrow(RangeError);
  });
});

describe("slam moves: where a slam throws a token on the board", () => {
  const bounds: BoardBounds = { x: 0, y: 0, width: 30, height: 20 };

  it("slam moves: 'back' goes straight away from the attacker by the areas rolled; left and right are square to that line", () => {
    // Attacker west of the target, looking east: left is north (y up the map), right south.
    expect(slamMove(single(2, 10), single(5, 10), "back", 3, bounds)).toEqual({ heading: "away", to: { x: 8, y: 10 }, areas: 3, edge: false });
    expect(slamMove(single(2, 10), single(5, 10), "left", 2, bounds).to).toEqual({ x: 5, y: 8 });
    expect(slamMove(single(2, 10), single(5, 10), "right", 2, bounds).to).toEqual({ x: 5, y: 12 });
    // Diagonal: one area is one diagonal square.
    expect(slamMove(single(2, 2), single(4, 4), "back", 2, bounds).to).toEqual({ x: 6, y: 6 });
    expect(SLAM_BOARD_HEADING.up).toBe("away");
    expect(slamMove(single(2, 10), single(5, 10), "down", 3, bounds)).toEqual({ heading: "stay", to: { x: 5, y: 10 }, areas: 0, edge: false });
  });

  it("slam moves: the scene's edge stops the token, and the card can say so", () => {
    expect(slamMove(single(20, 10), single(27, 10), "back", 5, bounds)).toEqual({ heading: "away", to: { x: 29, y: 10 }, areas: 2, edge: true });
    // "As far as the eye can see" ends at the edge.
    expect(slamMove(single(1, 1), single(2, 1), "back", Number.POSITIVE_INFINITY, bounds)).toEqual({ heading: "away", to: { x: 29, y: 1 }, areas: 27, edge: true });
    // A 2×2 token stops with its whole body on the scene.
    expect(slamMove(single(20, 10), { x: 26, y: 10, width: 2, height: 2 }, "back", 5, bounds).to).toEqual({ x: 28, y: 10 });
    expect(() => slamMove(single(0, 0), single(1, 0), "back", -1, bounds)).toThrow(RangeError);
  });

  it("slam moves: never farther than rolled, always on the scene, 'away' never nearer the attacker, and each area one square", () => {
    const inside = fc.record({ x: fc.integer({ min: 0, max: 27 }), y: fc.integer({ min: 0, max: 17 }), width: fc.integer({ min: 1, max: 3 }), height: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(inside, inside, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 12 }), (attacker, target, d10, areas) => {
        const direction = slamDirection(d10);
        const move = slamMove(attacker, target, direction, areas, bounds);
        expect(move.areas).toBeLessThanOrEqual(areas);
        expect(move.to.x).toBeGreaterThanOrEqual(0);
        expect(move.to.y).toBeGreaterThanOrEqual(0);
        expect(move.to.x + target.width).toBeLessThanOrEqual(30);
        expect(move.to.y + target.height).toBeLessThanOrEqual(20);
        expect(gridDistance({ x: target.x, y: target.y }, move.to, "chebyshev")).toBe(move.areas);
        expect(move.edge).toBe(move.heading !== "stay" && move.areas < areas && !(attacker.x * 2 + attacker.width === target.x * 2 + target.width && attacker.y * 2 + attacker.height === target.y * 2 + target.height));
        if (move.heading === "away") {
          const before = rangeInAreas(attacker, target);
          expect(rangeInAreas(attacker, { ...target, ...move.to })).toBeGreaterThanOrEqual(before);
        }
      }),
    );
    for (const d of DIRECTIONS) expect(SLAM_BOARD_HEADING[d]).toBeDefined();
  });
});
