/**
 * Which seed results a card row offers (rules follow-ups.ts), with rows played by the real
 * transitions: a Blunt Attack by Amazing (50), No defence; die 30 is green (a Hit), 60 yellow
 * (a Slam), 10 white (a Miss) on Amazing (green from 26, yellow from 56).
 */
import { describe, expect, it } from "vitest";
import { MERCY_OFFERED_BEFORE_APPLY, applyDamage, createExchange, declineDefence, resolveConsequence, rollToHit, rowFollowUps, type AttackCode, type ExchangeState } from "../../src/rules/index";
import { exchangeInput } from "../support/exchange-input";

function rolled(attack: AttackCode, die: number): ExchangeState {
  const s = createExchange(exchangeInput({
    attack,
    source: "test",
    attacker: { uuid: "Actor.a", name: "A", value: 50, strength: 50, armor: 0 },
    damage: { method: "static", value: 10 },
    targets: [{ uuid: "Actor.t", actorUuid: "Actor.t", name: "T", scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 } }],
  }));
  return rollToHit(declineDefence(s, "0"), "0", { die });
}
const offers = (s: ExchangeState) => rowFollowUps(s, s.targets[0] as ExchangeState["targets"][number]);

describe("follow-ups", () => {
  it("slam collision: only after a Slam? that moves the target (Excellent End 30: die 10 white, a Grand Slam)", () => {
    const slam = applyDamage(rolled("BA", 60), "0", { value: 100, max: 100 }).state;
    expect(offers(slam)).toEqual([]);
    expect(offers(resolveConsequence(slam, "0", { check: "slam", die: 10, d10: 1 }))).toEqual(["slamCollision"]);
    // 50 on Excellent is green: one area, which moves too; 96 red: no slam, nothing to strike.
    expect(offers(resolveConsequence(slam, "0", { check: "slam", die: 96 }))).toEqual([]);
  });

  it("careening charge and bystander roll: a white charge, a ranged miss; not a melee miss or a hit", () => {
    expect(offers(rolled("Ch", 10))).toEqual(["careen"]);
    expect(offers(rolled("En", 10))).toEqual(["bystanders"]);
    expect(offers(rolled("BA", 10))).toEqual([]);
    expect(offers(rolled("En", 30))).toEqual([]);
  });

  it("mercy bullets: a Shooting hit before it is applied, not after (MERCY_OFFERED_BEFORE_APPLY)", () => {
    expect(MERCY_OFFERED_BEFORE_APPLY).toBe(true);
    const hit = rolled("Sh", 30);
    expect(offers(hit)).toEqual(["mercy"]);
    expect(offers(applyDamage(hit, "0", { value: 100, max: 100 }).state)).toEqual([]);
  });

  it("nothing on an undone row", () => {
    const s = rolled("Ch", 10);
    expect(offers({ ...s, targets: s.targets.map((t) => ({ ...t, phase: "undone" as const })) })).toEqual([]);
  });
});
