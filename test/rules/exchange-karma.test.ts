/**
 * Karma on a defence roll (power-rulings.ts `KARMA_ON_DEFENCE`; §2: at least 10, added to the
 * die, the total capped at 100), and Karma against death on the card (exchange/death.ts). The Good column (§1) is green from 46, yellow from 76, red from 98.
 */
import { describe, expect, it } from "vitest";
import { buyOffDeath, chooseDefence, createExchange, mayBuyOffDeath, resolveConsequence, targetOf, undoPlan, type ExchangeInput, type ExchangeState } from "../../src/rules/exchange";
import { karmaOnRoll } from "../../src/rules/power-rulings";
import { exchangeInput } from "../support/exchange-input";

const input: ExchangeInput = exchangeInput({
  attack: "Sh",
  source: "Rifle",
  attacker: { uuid: "Actor.a", name: "Sniper", value: 20, strength: 6, armor: 0 },
  damage: { method: "static", value: 10 },
  targets: [{ uuid: "Actor.t", actorUuid: "Actor.t", name: "Hero", scores: { "agility.bal": 10, "fighting.def": 10, "strength.mgt": 10, "endurance.res": 10 }, armor: { body: 0, energy: 0 } }],
});

describe("karma on defence", () => {
  it("karma on defence: a Good Dodge of 60 is green; with 20 Karma it reads 80, yellow, and the card keeps the die and the Karma apart", () => {
    const plain = chooseDefence(createExchange(input), "0", { defence: "dodge", die: 60, cs: [] });
    expect(targetOf(plain, "0").defence).toMatchObject({ die: 60, color: "green" });
    expect(targetOf(plain, "0").defence?.karma).toBeUndefined();
    const boosted = chooseDefence(createExchange(input), "0", { defence: "dodge", die: 60, cs: [], karma: 20 });
    expect(targetOf(boosted, "0").defence).toMatchObject({ die: 60, karma: 20, color: "yellow" });
    // 90 + 20 is capped at 100: red.
    expect(targetOf(chooseDefence(createExchange(input), "0", { defence: "dodge", die: 90, cs: [], karma: 20 }), "0").defence?.color).toBe("red");
  });

  it("karma on defence: less than 10 is refused; the world's ruling and blindsiding forbid it with a reason", () => {
    expect(() => chooseDefence(createExchange(input), "0", { defence: "dodge", die: 60, cs: [], karma: 5 })).toThrow(RangeError);
    expect(() => karmaOnRoll("defence", 60, 20, 30, false, { onDefence: false })).toThrow(/world's ruling/);
    expect(() => karmaOnRoll("defence", 60, 20, 30, true)).toThrow(/blindsided/);
    expect(karmaOnRoll("defence", 60, 20, 30)).toEqual({ total: 80, karmaLeft: 10 });
  });
});

describe("karma on checks", () => {
  it("karma on defence and checks: a Stun? on Good End (res) of 40 is white; with 10 Karma it reads 50, green, and the check keeps the die and the Karma", () => {
    const s = createExchange(input);
    const t = targetOf(s, "0");
    const due: ExchangeState = { ...s, targets: [{ ...t, phase: "applied", consequences: [{ check: "stun", cause: "result", die: null, color: null, outcome: null }] }] };
    expect(targetOf(resolveConsequence(due, "0", { check: "stun", die: 40, d10: 5 }), "0").consequences[0]).toMatchObject({ die: 40, color: "white" });
    const boosted = targetOf(resolveConsequence(due, "0", { check: "stun", die: 40, d10: 5, karma: 10 }), "0").consequences[0];
    expect(boosted).toMatchObject({ die: 40, karma: 10, color: "green" });
  });
});

describe("karma against death", () => {
  const fatal = (): ExchangeState => {
    const s = createExchange(input);
    const t = targetOf(s, "0");
    return { ...s, targets: [{ ...t, phase: "applied", consequences: [{ check: "kill", cause: "result", die: 1, color: "white", outcome: { check: "kill", result: "enduranceLoss", endurance: 0, dead: true } }] }] };
  };

  it("karma against death: a Kill? from Shift 0 that killed is bought off with all 30 Karma: Shift 0, alive; once only", () => {
    expect(mayBuyOffDeath(fatal(), "0")).toBe(true);
    const saved = buyOffDeath(fatal(), "0", 30);
    expect(targetOf(saved, "0").consequences[0]?.outcome).toEqual({ check: "kill", result: "enduranceLoss", endurance: 0, dead: false, karmaAgainstDeath: 30 });
    expect(mayBuyOffDeath(saved, "0")).toBe(false);
    expect(() => buyOffDeath(saved, "0", 30)).toThrow(/no death to buy off/);
  });

  it("karma against death: Undo after a buy-off takes back no second Endurance rank (the buy-off gave it back); before a buy-off it does", () => {
    const applied = (s: ExchangeState): ExchangeState => ({ ...s, targets: s.targets.map((t) => ({ ...t, applied: { healthBefore: 30, healthAfter: 0, max: 30, reachedZero: true } })) });
    expect(undoPlan(applied(fatal()), "0").kill).toEqual({ dead: true });
    expect(undoPlan(applied(buyOffDeath(fatal(), "0", 30)), "0").kill).toBeNull();
  });

  it("karma against death: refused with 9 Karma (at least 10) or under the world's ruling off", () => {
    expect(() => buyOffDeath(fatal(), "0", 9)).toThrow(/cannot buy off death/);
    expect(() => buyOffDeath(fatal(), "0", 30, { againstDeath: false })).toThrow(/cannot buy off death/);
    expect(mayBuyOffDeath(createExchange(input), "0")).toBe(false);
  });
});
