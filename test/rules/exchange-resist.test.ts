/**
 * A resisted power on the attack card (rules/exchange/resist.ts): the row waits on a Resist, not a
 * defence; the resistance is power-rulings' FEAT against the power's rank; the effect applies and
 * undoes. Expected colours worked by hand from the Universal Table (§1: the Remarkable column is
 * green from 36, yellow from 66, red from 95) and §2's intensity rule.
 */
import { describe, expect, it } from "vitest";
import {
  ExchangeError,
  applyResisted,
  createExchange,
  createResistedExchange,
  exchangeComplete,
  pickNpcDefence,
  resistActions,
  resistPower,
  resistanceOf,
  sealExchange,
  targetActions,
  unsealExchange,
  targetOf,
  undoResisted,
  type ExchangeInput,
} from "../../src/rules/exchange";
import type { ResistedPower } from "../../src/rules/power-rulings";
import { UNIVERSAL_TABLE } from "../../src/rules/universal-table";
import { exchangeInput } from "../support/exchange-input";

const input: ExchangeInput = exchangeInput({
  attack: "En",
  source: "Mind Control",
  attacker: { uuid: "Actor.a", name: "Puppeteer", value: 30, strength: 6, armor: 0 },
  damage: { method: "static", value: 30 },
  targets: [{ uuid: "Actor.t", actorUuid: "Actor.t", name: "Hero", scores: { "agility.bal": 10, "fighting.def": 10, "strength.mgt": 10, "endurance.res": 10 }, armor: { body: 0, energy: 0 } }],
});
const mindControl: ResistedPower = { rank: 30, resistedBy: "psyche", effect: { kind: "condition", condition: "Mind-controlled", turns: 10 } };

describe("resisted power on the attack card", () => {
  it("resisted power: the row offers Resist and no defence; Remarkable Psyche against Remarkable Mind Control needs yellow: 65 is controlled, 66 resists", () => {
    const s = createResistedExchange(input, mindControl);
    expect(targetActions(s, "0").defend).toEqual([]);
    expect(targetActions(s, "0").awaitingDefence).toBe(true);
    expect(resistActions(s, "0")).toEqual({ resist: true, apply: false, undo: false });
    // No NPC defence is picked for it (the Judge clicks Resist), under any mode but the GM's own.
    expect(pickNpcDefence(s, "0", { mode: "bestOdds", declaration: null })).toBeNull();
    expect(pickNpcDefence(createExchange(input), "0", { mode: "bestOdds", declaration: null })).not.toBeNull();
    // The same attack unresisted offers defences: the Resist replaces them.
    expect(targetActions(createExchange(input), "0").defend.length).toBeGreaterThan(0);
    const failed = resistPower(s, "0", { die: 65, value: 30 }, UNIVERSAL_TABLE);
    expect(resistanceOf(targetOf(failed, "0"))).toMatchObject({ color: "green", required: "yellow", resisted: false, effect: mindControl.effect });
    expect(resistActions(failed, "0")).toEqual({ resist: false, apply: true, undo: false });
    expect(exchangeComplete(failed)).toBe(false);
    const held = resistPower(s, "0", { die: 66, value: 30 });
    expect(resistanceOf(targetOf(held, "0"))).toMatchObject({ color: "yellow", resisted: true, effect: null });
    expect(resistActions(held, "0")).toEqual({ resist: false, apply: false, undo: false });
    expect(exchangeComplete(held)).toBe(true);
  });

  it("resisted power: Karma on the resistance: Excellent Endurance one rank below a Remarkable flash needs red; 75 + 20 Karma is 95, red", () => {
    const flash: ResistedPower = { rank: 30, resistedBy: "endurance", effect: { kind: "condition", condition: "Blinded", turns: 2 } };
    const s = resistPower(createResistedExchange(input, flash), "0", { die: 75, value: 20, karma: 20 });
    expect(resistanceOf(targetOf(s, "0"))).toMatchObject({ total: 95, color: "red", required: "red", resisted: true });
    expect(() => resistPower(createResistedExchange(input, flash), "0", { die: 75, value: 20, karma: 5 })).toThrow(/at least 10/);
  });

  it("resisted power: applied and undone like damage, each once; a second Resist is stale", () => {
    const snare: ResistedPower = { rank: 20, resistedBy: "strength", effect: { kind: "hold", hold: "fullHold" } };
    const s = resistPower(createResistedExchange(input, snare), "0", { die: 10, value: 10 });
    expect(() => resistPower(s, "0", { die: 99, value: 10 })).toThrow(ExchangeError);
    const applied = applyResisted(s, "0");
    expect(targetOf(applied, "0").phase).toBe("applied");
    expect(resistActions(applied, "0").undo).toBe(true);
    expect(() => applyResisted(applied, "0")).toThrow(expect.objectContaining({ kind: "stale", key: "exchangeWrongPhase", data: { name: targetOf(applied, "0").name, phase: "applied" } }) as Error);
    const undone = undoResisted(applied, "0");
    expect(targetOf(undone, "0").phase).toBe("undone");
    expect(() => undoResisted(undone, "0")).toThrow(expect.objectContaining({ kind: "stale", key: "exchangeWrongPhase", data: { name: targetOf(undone, "0").name, phase: "undone" } }) as Error);
    expect(exchangeComplete(undone)).toBe(true);
  });

  it("resisted power: an NPC target's resisting rank and its shifts are sealed off the card like its scores, and the GM's record gives them back", () => {
    const rolled = resistPower(createResistedExchange(input, mindControl), "0", { die: 65, value: 30, cs: [{ cs: 1, label: "Iron Will talent", localize: false }] });
    const { card, secrets } = sealExchange(rolled, { sealed: new Set(["0"]), hiddenDefence: new Set() });
    expect(resistanceOf(targetOf(card, "0"))).toMatchObject({ value: 0, cs: [], die: 65 });
    expect(JSON.stringify(card)).not.toContain("Iron Will");
    expect(resistanceOf(targetOf(unsealExchange(card, secrets), "0"))).toEqual(resistanceOf(targetOf(rolled, "0")));
    // A hero's row keeps its own numbers.
    expect(resistanceOf(targetOf(sealExchange(rolled, { sealed: new Set(), hiddenDefence: new Set() }).card, "0"))).toMatchObject({ value: 30 });
  });

  it("resisted power: bad input is refused with a clear error, never guessed", () => {
    expect(() => createResistedExchange({ ...input, blindsided: true }, mindControl)).toThrow(/cannot be made blindsided/);
    expect(() => createResistedExchange(input, { ...mindControl, resistedBy: "luck" as never })).toThrow(/must name the ability/);
    expect(() => createResistedExchange(input, { ...mindControl, effect: { kind: "condition", condition: " ", turns: 3 } })).toThrow(/condition must be a non-empty text/);
    expect(() => createResistedExchange(input, { ...mindControl, effect: { kind: "hold", hold: "none" as never } })).toThrow(/hold must be one of "partialHold", "fullHold"/);
    expect(() => resistPower(createExchange(input), "0", { die: 50, value: 30 })).toThrow(/not a resisted power/);
  });
});
