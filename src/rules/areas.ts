/**
 * Area and explosive attacks. The CASE text gives none (001 only has bombs "go off" at the
 * wrap-up), so the geometry and the damage are [RULING]s, each a constant a setting may replace.
 * Geometry is pure grid arithmetic: one square is one area (README: "one square is one CASE
 * area"), positions are whole-number grid coordinates.
 */
import { attackDefinition, type AttackCode } from "./attacks";
import { assertRankNumber, rankOf, shiftRank } from "./ranks";
import { assertArray, assertInteger, assertObject, assertOneOfValues, assertText, assertWholeNumber } from "./checks";

/** A square of the grid (1 square = 1 area). */
export interface GridPoint {
  readonly x: number;
  readonly y: number;
}

/** Area shapes: a burst round a point, or a line from the attacker. */
export const AREA_SHAPES = ["burst", "line"] as const;
export type AreaShape = (typeof AREA_SHAPES)[number];

/** An area on a power or weapon: a burst of `radius` areas, or a line `radius` areas long. */
export interface AreaDefinition {
  readonly shape: AreaShape;
  /** Areas from the centre a burst reaches (0 = the centre square only); a line's length. */
  readonly radius: number;
}

/**
 * [RULING] Distance on the grid in areas: "chebyshev" (a diagonal step is one area, as the
 * ladder's "areas" are counted on a square grid) or "manhattan".
 */
export const AREA_DISTANCE_METRICS = ["chebyshev", "manhattan"] as const;
export type AreaDistanceMetric = (typeof AREA_DISTANCE_METRICS)[number];
export const AREA_DISTANCE_METRIC: AreaDistanceMetric = "chebyshev";

/** [RULING] Damage of an area attack falls by this many CS per area from the centre (0: the same everywhere). */
export const AREA_FALLOFF_CS_PER_AREA = -1;
/**
 * [RULING] Each target in the area defends separately, with the defences valid against the
 * attack's type (a Dodge against an explosion, a Brace against a fire burst): the same as a
 * multi-target attack card, one row per target.
 */
export const AREA_EACH_TARGET_DEFENDS = true as boolean;
/** [RULING] An area attack still rolls to hit each target (on the attacker's dex); a miss on one target misses that one only. */
export const AREA_ROLLS_TO_HIT_EACH = true as boolean;

function assertPoint(p: unknown, what: string): asserts p is GridPoint {
  assertObject(p, what);
  assertInteger(p["x"], `${what}: x`);
  assertInteger(p["y"], `${what}: y`);
}

/** Throws unless `area` is a well-formed {@link AreaDefinition}. */
export function assertAreaDefinition(area: unknown): asserts area is AreaDefinition {
  assertObject(area, "An area");
  assertOneOfValues(area["shape"], AREA_SHAPES, "Area shape");
  assertWholeNumber(area["radius"], "Area radius");
  if (area["shape"] === "line" && area["radius"] < 1) throw new RangeError("A line area must be at least 1 area long.");
}

/** Distance in areas between two squares. */
export function gridDistance(a: GridPoint, b: GridPoint, metric: AreaDistanceMetric = AREA_DISTANCE_METRIC): number {
  assertPoint(a, "Point a");
  assertPoint(b, "Point b");
  assertOneOfValues(metric, AREA_DISTANCE_METRICS, "Distance metric");
  const dx = Math.abs(a.x - b.x);
  const dy = Math.abs(a.y - b.y);
  return metric === "chebyshev" ? Math.max(dx, dy) : dx + dy;
}

/** The squares of a line from `from` toward `toward`: the `length` squares after `from` (Bresenham-style, by the longer axis). */
export function lineSquares(from: GridPoint, toward: GridPoint, length: number): GridPoint[] {
  assertPoint(from, "Line start");
  assertPoint(toward, "Line direction");
  assertWholeNumber(length, "Line length", 1);
  const dx = toward.x - from.x;
  const dy = toward.y - from.y;
  const steps = Math.max(Math.abs(dx), Math.abs(dy));
  if (steps === 0) throw new RangeError("A line needs a direction: its target square is its start.");
  const out: GridPoint[] = [];
  for (let i = 1; i <= length; i++) out.push({ x: from.x + Math.round((dx * i) / steps), y: from.y + Math.round((dy * i) / steps) });
  return out;
}

/** A token on the grid. */
export interface AreaTarget extends GridPoint {
  readonly id: string;
}

/** A target the area covers, with its distance from the centre (0 for a line: full damage along it). */
export interface CoveredTarget {
  readonly id: string;
  readonly distance: number;
}

/**
 * The targets an area covers: a burst centred on `centre` covers every square within `radius`;
 * a line from `origin` (the attacker) through `centre` covers `radius` squares. In the order given.
 */
export function targetsInArea(
  area: AreaDefinition,
  placement: { readonly origin: GridPoint; readonly centre: GridPoint },
  targets: readonly AreaTarget[],
  metric: AreaDistanceMetric = AREA_DISTANCE_METRIC,
): CoveredTarget[] {
  assertAreaDefinition(area);
  assertObject(placement, "Area placement");
  assertArray(targets, "Targets");
  for (const t of targets) {
    assertPoint(t, "A target");
    assertText(t.id, "A target's id");
  }
  if (area.shape === "burst") {
    return targets.flatMap((t) => {
      const distance = gridDistance(placement.centre, t, metric);
      return distance <= area.radius ? [{ id: t.id, distance }] : [];
    });
  }
  const squares = lineSquares(placement.origin, placement.centre, area.radius);
  return targets.filter((t) => squares.some((s) => s.x === t.x && s.y === t.y)).map((t) => ({ id: t.id, distance: 0 }));
}

/**
 * Damage of an area attack at `distance` areas from its centre [RULING]: the attack's rank
 * shifted by {@link AREA_FALLOFF_CS_PER_AREA} per area (clamped to the ladder), as that rank's
 * standard number; the centre takes the damage unchanged; never more than at the centre.
 */
export function areaDamageAt(damage: number, distance: number, falloffCsPerArea: number = AREA_FALLOFF_CS_PER_AREA): number {
  assertRankNumber(damage, "Damage");
  assertWholeNumber(distance, "Distance from the centre");
  assertInteger(falloffCsPerArea, "Falloff per area");
  if (falloffCsPerArea > 0) throw new RangeError(`Area damage may only fall off with distance: falloff ${falloffCsPerArea} CS per area is above 0.`);
  if (distance === 0 || falloffCsPerArea === 0) return damage;
  return Math.min(damage, shiftRank(rankOf(damage), falloffCsPerArea * distance).number);
}

/** [RULING] The attack types an area may carry: every type that deals damage at range (BT, ET, En, Fo, Sh). */
export function mayHaveArea(attack: AttackCode): boolean {
  return attackDefinition(attack).family === "ranged";
}
