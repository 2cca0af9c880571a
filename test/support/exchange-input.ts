/**
 * The one builder of the rules' attack exchange input (rules `ExchangeInput`) for tests that
 * make an exchange by hand: a plain attack (a Blunt Attack, static damage, no Karma, no called
 * shot, not blindsided, no projectile) on one target, with the test's own fields over it. Plain
 * data, no globals: the rules tests and the adapters' share it.
 */
import type { ExchangeInput, TargetInput } from "../../src/rules/index";

/** A target: an actor with Good… scores (30 each) and no armor, with the test's fields over it. */
export function exchangeTarget(over: Partial<TargetInput> = {}): TargetInput {
  return { uuid: "Actor.t", actorUuid: "Actor.t", name: "T", scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 }, ...over };
}

/** An attack exchange's input: the plain attack with the test's fields over it. */
export function exchangeInput(over: Partial<ExchangeInput> = {}): ExchangeInput {
  return {
    attack: "BA",
    source: "Haymaker",
    attacker: { uuid: "Actor.a", name: "Gravel", value: 40, strength: 40, armor: 0 },
    toHitCs: [],
    karma: 0,
    damage: { method: "static", value: 40 },
    calledShot: false,
    blindsided: false,
    projectile: null,
    targets: [exchangeTarget()],
    ...over,
  };
}

/** The long names the table-scale card tests use for four targets. */
export const LONG_TARGET_NAMES = [
  "Kestrel of the Thousand Winds and the Seven Storms",
  "Doctor Gravelbottom-Featherstonehaugh the Unbreakable",
  "Miss Incomprehensibilities",
  "The Remarkably Long-Named Henchman Number Fourteen",
] as const;

/** Four token targets with {@link LONG_TARGET_NAMES} (Agy and Ftg Excellent, Str Good, End Excellent, no armor). */
export function longNamedTargets(): TargetInput[] {
  return LONG_TARGET_NAMES.map((name, i) =>
    exchangeTarget({ uuid: `Scene.s.Token.t${String(i)}`, actorUuid: `Actor.t${String(i)}`, name, scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 20, "endurance.res": 30 } }),
  );
}
