/**
 * What the attacker enters before an attack: distance, objects in the path, areas charged,
 * a called shot, whether the targets are unaware, Karma and every other shift. Parsed strictly.
 */
import { KARMA_MINIMUM, RANKS, isRankNumber, rankOf } from "../../rules/index";
import { MAX_DIALOG_CS } from "../dice/roll-input";

export interface AttackInput {
  /** The distance in areas of a target the dialog names none for. */
  readonly distance: number;
  /** Each target's own distance in areas, by its UUID (rules board.ts SEVERAL_TARGETS_RANGE). */
  readonly distances: Readonly<Record<string, number>>;
  readonly objects: number;
  /** The material strength (a rank number) of each object in the path: taken off the damage (§5). */
  readonly obstacleStrength: number;
  readonly chargeAreas: number;
  readonly calledShot: boolean;
  readonly blindsided: boolean;
  readonly karma: number;
  readonly cs: number;
  readonly reason: string;
}

export const DEFAULT_ATTACK_INPUT: AttackInput = Object.freeze({ distance: 0, distances: {}, objects: 0, obstacleStrength: 0, chargeAreas: 1, calledShot: false, blindsided: false, karma: 0, cs: 0, reason: "" });

export type AttackInputResult = { ok: true; value: AttackInput } | { ok: false; errorKey: string; data?: Record<string, string> };

function count(raw: unknown, max: number): number | null {
  if (raw === undefined || raw === null || raw === "") return 0;
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim().replace(/^[−–]/, "-")) : Number.NaN;
  return Number.isInteger(n) && Math.abs(n) <= max ? n : null;
}

function flag(raw: unknown): boolean {
  return raw === true || raw === "on" || raw === "true";
}

/** Validates the attack dialog's form against the attacker's Karma pool. */
export function parseAttackInput(form: Record<string, unknown>, karmaPool: number): AttackInputResult {
  const distance = count(form.distance, 10_000);
  const objects = count(form.objects, 100);
  const obstacleStrength = count(form.obstacleStrength, 1_000_000);
  const chargeAreas = count(form.chargeAreas, 10_000);
  const distances: Record<string, number> = {};
  const each = typeof form.distances === "object" && form.distances !== null ? Object.entries(form.distances) : [];
  for (const [uuid, raw] of each) {
    const d = count(raw, 10_000);
    if (d === null || d < 0) return { ok: false, errorKey: "CASE.Dialog.Error.Distance" };
    distances[uuid] = d;
  }
  if (distance === null || distance < 0) return { ok: false, errorKey: "CASE.Dialog.Error.Distance" };
  if (objects === null || objects < 0) return { ok: false, errorKey: "CASE.Dialog.Error.Objects" };
  if (obstacleStrength === null || !isRankNumber(obstacleStrength)) return { ok: false, errorKey: "CASE.Obstacle.Error.Strength" };
  if (chargeAreas === null || chargeAreas < 0) return { ok: false, errorKey: "CASE.Dialog.Error.ChargeAreas" };
  const cs = count(form.cs, MAX_DIALOG_CS);
  if (cs === null) return { ok: false, errorKey: "CASE.Dialog.Error.Shift", data: { max: String(MAX_DIALOG_CS) } };
  const karma = count(form.karma, 1_000_000);
  if (karma === null || karma < 0) return { ok: false, errorKey: "CASE.Dialog.Error.Karma" };
  if (karma > 0 && karma < KARMA_MINIMUM) return { ok: false, errorKey: "CASE.Dialog.Error.KarmaMinimum", data: { min: String(KARMA_MINIMUM) } };
  if (karma > karmaPool) return { ok: false, errorKey: "CASE.Dialog.Error.KarmaPool", data: { pool: String(karmaPool) } };
  const reason = typeof form.reason === "string" ? form.reason.trim().slice(0, 100) : "";
  return { ok: true, value: { distance, distances, objects, obstacleStrength, chargeAreas, calledShot: flag(form.calledShot), blindsided: flag(form.blindsided), karma, cs, reason } };
}

/** One choice of the dialog's obstacle material strength: a standard rank number. */
export interface ObstacleOption {
  readonly value: number;
  readonly labelKey: string;
  readonly selected: boolean;
}

/** The standard ranks to choose an obstacle's material strength from, `selected` marked (its rank's, for an odd number). */
export function obstacleOptions(selected: number): ObstacleOption[] {
  const chosen = isRankNumber(selected) ? rankOf(selected).key : "shift0";
  return RANKS.map((r) => ({ value: r.number, labelKey: `CASE.Rank.${r.key}`, selected: r.key === chosen }));
}

/** The material strengths of the objects in the path (one per object), or none when they take nothing off. */
export function obstaclesOf(input: AttackInput): number[] {
  return input.obstacleStrength > 0 ? Array.from({ length: input.objects }, () => input.obstacleStrength) : [];
}
