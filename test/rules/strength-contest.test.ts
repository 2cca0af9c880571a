/**
 * Take and Full Hold damage as a world setting (errata §5): a comparison of Strengths or a
 * Strength ACTION against the other's Strength. Colours are read with the rules' own ACTION.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TAKE_AND_FULL_HOLD_BY, fullHoldDealsDamage, strengthAction } from "../../src/rules/attacks";
import { createExchange, rollToHit, type ExchangeState } from "../../src/rules/exchange";
import { resolveAction } from "../../src/rules/actions";
import { rulesSection } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

const section5 = rulesSection(5).replace(/\s+/g, " ");

function grapple(attack: "Gp" | "Gb", holder: number, held: number, strengthContest?: "comparison" | "action"): ExchangeState {
  return createExchange(exchangeInput({
    attack,
    source: "Bear hug",
    attacker: { uuid: "a", name: "Gravel", value: 40, strength: holder, armor: 0 },
    damage: { method: "static", value: holder },
    blindsided: true,
    ...(strengthContest ? { strengthContest } : {}),
    targets: [{ uuid: "t", actorUuid: "t", name: "Kestrel", scores: { "agility.bal": 10, "fighting.def": 10, "strength.mgt": held, "endurance.res": 10 }, armor: { body: 0, energy: 0 } }],
  }));
}

describe("Take and Full Hold as a setting (errata §5)", () => {
  it("the reference's default is the ACTION", () => {
    expect(section5).toMatch(/pick one as a setting, default the ACTION/);
    expect(TAKE_AND_FULL_HOLD_BY).toBe("action");
  });

  it("Full Hold, comparison: the stronger deals damage, no roll needed", () => {
    const t = rollToHit(grapple("Gp", 40, 30, "comparison"), "0", { die: 99 }).targets[0];
    expect(t?.toHit?.result).toBe("fullHold");
    expect(t?.toHit?.contest).toBeUndefined();
    expect(t?.damage?.dealt).toBe(40);
  });

  it("Full Hold, ACTION: a weaker holder who rolls red against the held one's Strength deals damage; a failed roll deals none", () => {
    // Strength Remarkable (30) against Incredible (40): one rank higher, red needed.
    const red = rollToHit(grapple("Gp", 30, 40, "action"), "0", { die: 99, strengthDie: 100 }).targets[0];
    expect(red?.toHit?.contest).toEqual({ die: 100, color: "red", success: true });
    expect(red?.damage?.dealt).toBe(30);
    const fail = rollToHit(grapple("Gp", 30, 40, "action"), "0", { die: 99, strengthDie: 50 }).targets[0];
    expect(fail?.toHit?.contest?.success).toBe(false);
    expect(fail?.damage).toBeNull();
  });

  it("Full Hold, ACTION: refused without the strength roll, and an old state without the setting is the comparison", () => {
    expect(() => rollToHit(grapple("Gp", 40, 30, "action"), "0", { die: 99 })).toThrow(/Strength ACTION/);
    const { strengthContest: _gone, ...old } = grapple("Gp", 40, 30);
    expect(rollToHit(old, "0", { die: 99 }).targets[0]?.damage?.dealt).toBe(40);
  });

  it("property (Take and Full Hold): the ACTION reading follows the rules' ACTION; the comparison reading the Strengths", () => {
    const rank = fc.constantFrom(2, 4, 6, 10, 20, 30, 40, 50, 75, 100);
    fc.assert(
      fc.property(rank, rank, fc.integer({ min: 1, max: 100 }), (holder, held, die) => {
        const acted = strengthAction(holder, held, die);
        expect(acted.success).toBe(resolveAction({ value: holder, roll: die, intensity: held }).success);
        const action = rollToHit(grapple("Gp", holder, held, "action"), "0", { die: 99, strengthDie: die }).targets[0];
        expect((action?.damage?.dealt ?? 0) > 0).toBe(acted.success);
        const comparison = rollToHit(grapple("Gp", holder, held, "comparison"), "0", { die: 99 }).targets[0];
        expect((comparison?.damage?.dealt ?? 0) > 0).toBe(fullHoldDealsDamage(holder, held));
      }),
    );
  });
});
