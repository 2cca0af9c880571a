/**
 * Area and explosive attacks. The CASE text gives none (001 only has bombs "go off" at the
 * wrap-up), so the geometry and the damage are [RULING]s, each a constant a setting may replace.
 * Geometry is pure grid arithmetic: one square is one area (README: "one square is one CASE
 * area"), positions are whole-number grid coordinates.
 */
import { attackDefinition, canCallShot, type AttackCode } from "./attacks";
import { assertRankNumber, rankOf, shiftRank } from "./ranks";
import { assertArray, assertInteger, assertObject, assertOneOfValues, assertText, assertWholeNumber } from "./checks";
import { RulesRangeError, type RulesFieldKey } from "./errors";

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
  /** An explosion: its damage falls off with distance ({@link areaRowDamage}). Absent: false. */
  readonly explosive?: boolean;
}

/** [RULING] The largest area a power or weapon may have, in areas (a guard against a typo: 20 areas is Shift Z's thrown range, Table 24). */
export const AREA_MAX_RADIUS = 20;

/**
 * [RULING] Only an explosive area's damage falls off with distance from its centre [003: "explosive
 * damage declines with distance"]; every other area (a gas cloud, a sheet of flame, a line) deals the
 * same damage to everyone in it.
 */
export const AREA_ONLY_EXPLOSIONS_FALL_OFF = true as boolean;

/** [RULING] An area attack cannot be caught: there is no one thing to catch (Catch is not offered). */
export const AREA_CANNOT_BE_CAUGHT = true as boolean;

/** [RULING] An area spares the attacker who made it (the power or weapon is aimed away from its wielder); allies in it are hit. */
export const AREA_SPARES_ATTACKER = true as boolean;

/** [RULING] An area attack cannot be a called shot: it aims at a place, not at a part of someone. */
export const AREA_NO_CALLED_SHOT = true as boolean;

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

function assertPoint(p: unknown, field: RulesFieldKey): asserts p is GridPoint {
  assertObject(p, field);
  assertInteger(p["x"], field);
  assertInteger(p["y"], field);
}

/** Throws unless `area` is a well-formed {@link AreaDefinition}. */
export function assertAreaDefinition(area: unknown): asserts area is AreaDefinition {
  assertObject(area, { input: "area" });
  assertOneOfValues(area["shape"], AREA_SHAPES, "areaShape");
  assertWholeNumber(area["radius"], "areaRadius");
  if (area["radius"] > AREA_MAX_RADIUS) throw new RulesRangeError("notAtMost", { field: "areaRadius", max: AREA_MAX_RADIUS, got: area["radius"] });
  if (area["shape"] === "line" && area["radius"] < 1) throw new RulesRangeError("areaLineTooShort");
  if (area["explosive"] !== undefined && typeof area["explosive"] !== "boolean") throw new RulesRangeError("notBoolean", { field: "areaExplosive", got: JSON.stringify(area["explosive"]) });
}

/** Distance in areas between two squares. */
export function gridDistance(a: GridPoint, b: GridPoint, metric: AreaDistanceMetric = AREA_DISTANCE_METRIC): number {
  assertPoint(a, "pointA");
  assertPoint(b, "pointB");
  assertOneOfValues(metric, AREA_DISTANCE_METRICS, "distanceMetric");
  const dx = Math.abs(a.x - b.x);
  const dy = Math.abs(a.y - b.y);
  return metric === "chebyshev" ? Math.max(dx, dy) : dx + dy;
}

/** The squares of a line from `from` toward `toward`: the `length` squares after `from` (Bresenham-style, by the longer axis). */
export function lineSquares(from: GridPoint, toward: GridPoint, length: number): GridPoint[] {
  assertPoint(from, "lineStart");
  assertPoint(toward, "lineDirection");
  assertWholeNumber(length, "lineLength", 1);
  const dx = toward.x - from.x;
  const dy = toward.y - from.y;
  const steps = Math.max(Math.abs(dx), Math.abs(dy));
  if (steps === 0) throw new RulesRangeError("areaLineNoDirection");
  const out: GridPoint[] = [];
  for (let i = 1; i <= length; i++) out.push({ x: from.x + Math.round((dx * i) / steps), y: from.y + Math.round((dy * i) / steps) });
  return out;
}

/** A token on the grid: its top-left square, and how many squares it covers (1 × 1 unless given). */
export interface AreaTarget extends GridPoint {
  readonly id: string;
  readonly width?: number;
  readonly height?: number;
}

/** The squares a token covers (a 2 × 2 token covers four). */
export function footprint(target: AreaTarget): GridPoint[] {
  const w = target.width ?? 1;
  const h = target.height ?? 1;
  assertWholeNumber(w, "tokenWidthInSquares", 1);
  assertWholeNumber(h, "tokenHeightInSquares", 1);
  const out: GridPoint[] = [];
  for (let dx = 0; dx < w; dx++) for (let dy = 0; dy < h; dy++) out.push({ x: target.x + dx, y: target.y + dy });
  return out;
}

/** A target the area covers, with its distance from the centre (0 for a line: full damage along it). */
export interface CoveredTarget {
  readonly id: string;
  readonly distance: number;
}

/**
 * The targets an area covers: a burst centred on `centre` covers every square within `radius`;
 * a line from `origin` (the attacker) through `centre` covers `radius` squares. In the order given.
 * A token larger than one square is covered when one of its squares is, at its nearest square's distance.
 */
export function targetsInArea(
  area: AreaDefinition,
  placement: { readonly origin: GridPoint; readonly centre: GridPoint },
  targets: readonly AreaTarget[],
  metric: AreaDistanceMetric = AREA_DISTANCE_METRIC,
): CoveredTarget[] {
  assertAreaDefinition(area);
  assertObject(placement, { input: "areaPlacement" });
  assertArray(targets, { input: "targets" });
  for (const t of targets) {
    assertPoint(t, "target");
    assertText(t.id, "targetId");
  }
  if (area.shape === "burst") {
    return targets.flatMap((t) => {
      const distance = Math.min(...footprint(t).map((square) => gridDistance(placement.centre, square, metric)));
      return distance <= area.radius ? [{ id: t.id, distance }] : [];
    });
  }
  const squares = lineSquares(placement.origin, placement.centre, area.radius);
  return targets.filter((t) => footprint(t).some((f) => squares.some((s) => s.x === f.x && s.y === f.y))).map((t) => ({ id: t.id, distance: 0 }));
}

/**
 * Damage of an area attack at `distance` areas from its centre [RULING]: the attack's rank
 * shifted by {@link AREA_FALLOFF_CS_PER_AREA} per area (clamped to the ladder), as that rank's
 * standard number; the centre takes the damage unchanged; never more than at the centre.
 */
export function areaDamageAt(damage: number, distance: number, falloffCsPerArea: number = AREA_FALLOFF_CS_PER_AREA): number {
  assertRankNumber(damage, "damage");
  assertWholeNumber(distance, "distanceFromTheCentre");
  assertInteger(falloffCsPerArea, "falloffPerArea");
  if (falloffCsPerArea > 0) throw new RulesRangeError("areaFalloffUp", { got: falloffCsPerArea });
  if (distance === 0 || falloffCsPerArea === 0) return damage;
  return Math.min(damage, shiftRank(rankOf(damage), falloffCsPerArea * distance).number);
}

/** [RULING] The attack types an area may carry: every type that deals damage at range (BT, ET, En, Fo, Sh). */
export function mayHaveArea(attack: AttackCode): boolean {
  return attackDefinition(attack).family === "ranged";
}

/**
 * The damage one row of an area attack takes before protection: an explosion's falls off with
 * the row's distance from the centre ({@link areaDamageAt}); every other area's is the same
 * everywhere ({@link AREA_ONLY_EXPLOSIONS_FALL_OFF}).
 */
export function areaRowDamage(area: AreaDefinition, damage: number, distance: number): number {
  assertAreaDefinition(area);
  if (AREA_ONLY_EXPLOSIONS_FALL_OFF && area.explosive !== true) {
    assertRankNumber(damage, "damage");
    assertWholeNumber(distance, "distanceFromTheCentre");
    return damage;
  }
  return areaDamageAt(damage, distance);
}

/** Whether an attack of type `attack` (with an area or not) may be a called shot: its type's rule, and none with an area ({@link AREA_NO_CALLED_SHOT}). */
export function mayCallShotWith(attack: AttackCode, hasArea: boolean): boolean {
  return canCallShot(attack) && !(hasArea && AREA_NO_CALLED_SHOT);
}

/**
 * Why an attack of type `attack` may not carry `area`, as a sentence; null when it may. An
 * attack with an area may not be a called shot ({@link AREA_NO_CALLED_SHOT}).
 */
export function areaRefusal(attack: AttackCode, area: AreaDefinition, calledShot: boolean): string | null {
  assertAreaDefinition(area);
  if (!mayHaveArea(attack)) return `A ${attack} attack cannot have an area: only ranged attacks can.`;
  if (AREA_NO_CALLED_SHOT && calledShot) return "An area attack cannot be a called shot.";
  return null;
}

/**
 * [RULING] An area attack lands within its range: a burst's centre is no farther from the
 * attacker than the attack's range, in areas. [001] gives a shot at a target beyond range −1 CS
 * per area; an area is aimed at a square, not rolled against a target's distance, so without this
 * a range-2 grenade could burst anywhere on the board. A line starts at the attacker and is as
 * long as it is, so it is always within.
 */
export const AREA_WITHIN_RANGE = true as boolean;

/**
 * Whether an area whose centre lies `distance` areas from the attacker may be placed for an
 * attack that reaches `range` areas (Infinity: as far as the eye can see). RangeError for bad input.
 */
export function areaWithinRange(area: AreaDefinition, distance: number, range: number): boolean {
  assertAreaDefinition(area);
  assertWholeNumber(distance, "areaDistanceFromTheAttacker");
  if (range !== Number.POSITIVE_INFINITY) assertWholeNumber(range, "attackRange");
  if (!AREA_WITHIN_RANGE || area.shape === "line") return true;
  return distance <= range;
}
