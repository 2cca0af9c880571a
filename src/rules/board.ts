/**
 * The board: range between tokens and where a slam throws a token, as pure grid arithmetic.
 * One grid square is one CASE area (README). A token covers a rectangle of whole squares
 * (a 2×2 token covers four). Positions are whole-number square coordinates, x to the right
 * and y DOWN the map (as a map is drawn on screen). Every choice the text leaves open is a
 * [RULING] constant below, with its row in the README's rulings table.
 */
import { assertInteger, assertObject, assertOneOfValues, assertWholeNumber } from "./checks";
import type { SlamDirection } from "./consequences";
import type { GridPoint } from "./areas";
import { type RulesFieldKey } from "./errors";

/** The squares a token covers: its top-left square and its size in squares (≥ 1 each way). */
export interface Footprint extends GridPoint {
  readonly width: number;
  readonly height: number;
}

/** The scene's squares: x from `x` to `x + width − 1`, y likewise. */
export interface BoardBounds extends GridPoint {
  readonly width: number;
  readonly height: number;
}

/**
 * [RULING] How a diagonal step counts toward range: "one" (every diagonal step is one area, as
 * `AREA_DISTANCE_METRIC` "chebyshev" counts areas on a square grid), "alternating" (every
 * second diagonal step counts two: Foundry's optional 5/10/5 rule) or "two" (a diagonal step
 * is two areas: no diagonals).
 */
export const DIAGONAL_RULES = ["one", "alternating", "two"] as const;
export type DiagonalRule = (typeof DIAGONAL_RULES)[number];
export const RANGE_DIAGONAL_RULE: DiagonalRule = "one";

/**
 * [RULING] An attack on several targets at different ranges takes EACH target's own range shift
 * [001: "−1 CS per area beyond range"]: a target 1 area away is not shot at as if it stood 9
 * away (attack-setup.ts `targetRangeShifts`; the card's row shows its own shift). The attacker
 * may change each distance in the dialog.
 */
export const SEVERAL_TARGETS_RANGE = "each" as const;

function assertFootprint(f: unknown, field: RulesFieldKey): asserts f is Footprint {
  assertObject(f, field);
  assertInteger(f["x"], field);
  assertInteger(f["y"], field);
  assertWholeNumber(f["width"], field, 1);
  assertWholeNumber(f["height"], field, 1);
}

/** The squares between two spans [a, a+len) on one axis (0 when they overlap or touch). */
function gap(a: number, aLength: number, b: number, bLength: number): number {
  if (b >= a + aLength) return b - (a + aLength - 1);
  if (a >= b + bLength) return a - (b + bLength - 1);
  return 0;
}

/**
 * Range in areas between two tokens: the steps from the nearest square of one to the nearest
 * square of the other (0 when they share a square, 1 when side by side), a diagonal step
 * counted by `diagonal` ({@link RANGE_DIAGONAL_RULE}).
 */
export function rangeInAreas(from: Footprint, to: Footprint, diagonal: DiagonalRule = RANGE_DIAGONAL_RULE): number {
  assertFootprint(from, "attackerToken");
  assertFootprint(to, "targetToken");
  assertOneOfValues(diagonal, DIAGONAL_RULES, "diagonalRule");
  const dx = gap(from.x, from.width, to.x, to.width);
  const dy = gap(from.y, from.height, to.y, to.height);
  const diagonals = Math.min(dx, dy);
  const straight = Math.max(dx, dy) - diagonals;
  switch (diagonal) {
    case "one":
      return straight + diagonals;
    case "alternating":
      return straight + diagonals + Math.floor(diagonals / 2);
    case "two":
      return straight + 2 * diagonals;
  }
}

// ── Slam on the board ─────────────────────────────────────────────────────────────────────

/** Where a slam direction sends a token on the map, seen from the attacker. */
export type BoardHeading = "away" | "left" | "right" | "stay";

/**
 * [RULING] The d10 slam direction [001] on a flat map: "back" is straight away from the
 * attacker, "left"/"right" are square to that line as the attacker sees it; "up" throws the
 * target up and over, landing away from the attacker; "down" drives it into the ground (it
 * stays in its square).
 */
export const SLAM_BOARD_HEADING: Readonly<Record<SlamDirection, BoardHeading>> = Object.freeze({
  back: "away",
  up: "away",
  left: "left",
  right: "right",
  down: "stay",
});

/** The centre of a footprint, in half squares (so it stays a whole number). */
function doubledCentre(f: Footprint): GridPoint {
  return { x: 2 * f.x + f.width - 1, y: 2 * f.y + f.height - 1 };
}

/** A slam's move on the board: where the token's top-left square ends, how many areas it went, and whether the scene's edge stopped it. */
export interface SlamMove {
  readonly heading: BoardHeading;
  readonly to: GridPoint;
  readonly areas: number;
  /** The scene's edge stopped it short of the areas rolled. */
  readonly edge: boolean;
}

/**
 * Where a slam moves the target's token: `areas` areas (whole, or Infinity for "as far as the
 * eye can see") in the heading of `direction` ({@link SLAM_BOARD_HEADING}) measured from the
 * attacker's centre to the target's; each area is one square along that line (the longer axis
 * moves one square per area, the other in proportion, rounded). It stops at the last square
 * where the whole token is still on the scene. A token on the attacker's own centre has no
 * "away": it stays.
 */
export function slamMove(attacker: Footprint, target: Footprint, direction: SlamDirection, areas: number, bounds: BoardBounds): SlamMove {
  assertFootprint(attacker, "attackerToken");
  assertFootprint(target, "targetToken");
  assertFootprint(bounds, "scene");
  if (areas !== Number.POSITIVE_INFINITY) assertWholeNumber(areas, "slamAreas");
  const heading = SLAM_BOARD_HEADING[direction];
  assertOneOfValues(heading, ["away", "left", "right", "stay"] as const, "slamDirection");
  const from = doubledCentre(attacker);
  const at = doubledCentre(target);
  const away = { x: at.x - from.x, y: at.y - from.y };
  const stay: SlamMove = { heading, to: { x: target.x, y: target.y }, areas: 0, edge: false };
  if (heading === "stay" || areas === 0 || (away.x === 0 && away.y === 0)) return stay;
  // y runs down the map: seen from the attacker looking along `away`, left is (y, −x).
  const step = heading === "away" ? away : heading === "left" ? { x: away.y, y: -away.x } : { x: -away.y, y: away.x };
  const longer = Math.max(Math.abs(step.x), Math.abs(step.y));
  const inside = (p: GridPoint): boolean =>
    p.x >= bounds.x && p.y >= bounds.y && p.x + target.width <= bounds.x + bounds.width && p.y + target.height <= bounds.y + bounds.height;
  let to: GridPoint = { x: target.x, y: target.y };
  let moved = 0;
  // Never more steps than the scene is long: "as far as the eye can see" ends at the edge.
  const limit = Math.min(areas, bounds.width + bounds.height);
  for (let k = 1; k <= limit; k++) {
    const next = { x: target.x + Math.round((step.x * k) / longer), y: target.y + Math.round((step.y * k) / longer) };
    if (!inside(next)) break;
    to = next;
    moved = k;
  }
  return { heading, to, areas: moved, edge: moved < areas };
}
