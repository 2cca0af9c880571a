/**
 * Issue 24: what each colour of a defence does against this attack (the defence buttons'
 * tooltips), read against CASE-RULES §6's defence table cell by cell; and a hit that gets no
 * damage through finishing its row by itself.
 */
import { describe, expect, it } from "vitest";
import {
  createExchange,
  declineDefence,
  defenceColourOutcomes,
  exchangeComplete,
  rollToHit,
  targetActions,
  ZERO_DAMAGE_NEEDS_NO_APPLY,
  type ExchangeInput,
  type TargetInput,
} from "../../src/rules/index";
import type { AttackCode } from "../../src/rules/attacks";
import { DOC_COLORS, docRankAt, docRankOf, rulesTable, signedNumber, tableRecords } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

function targetInput(over: Partial<TargetInput> = {}): TargetInput {
  return {
    uuid: "Scene.s.Token.t0",
    actorUuid: "Actor.t0",
    name: "Kestrel",
    scores: { "agility.bal": 40, "fighting.def": 40, "strength.mgt": 40, "endurance.res": 30 },
    armor: { body: 0, energy: 0 },
    ...over,
  };
}

function input(attack: AttackCode, over: Partial<ExchangeInput> = {}): ExchangeInput {
  return exchangeInput({ attack, source: "test", attacker: { uuid: "Actor.a", name: "Gravel", value: 50, strength: 50, armor: 0 }, targets: [targetInput()], ...over });
}

/** §6's defence table, by defence name ("Block", …). */
function docDefences(): Record<string, Record<string, string>> {
  return Object.fromEntries(tableRecords(rulesTable(6, "defence", "white", "red")).map((r) => [r["defence"] ?? "", r]));
}

/** The number in a cell such as "attack −2 CS", "−4 CS", "Str +1 CS"; 0 for "no shift". */
function cellCs(cell: string): number {
  const m = /([+−-]\d+) CS/.exec(cell);
  return m?.[1] ? signedNumber(m[1]) : 0;
}

describe("colour outcomes on defence", () => {
  const doc = docDefences();

  it("colour outcomes on defence: Evasion and Feint read §6: white walks into the attack, green avoids it, yellow and red avoid it with +1 and +2 CS", () => {
    for (const [name, code, attack] of [["Evasion", "evasion", "BA"], ["Feint", "feint", "BT"]] as const) {
      const outcomes = defenceColourOutcomes(createExchange(input(attack)), "0", code);
      for (const [i, color] of DOC_COLORS.entries()) {
        const cell = doc[name]?.[color] ?? "";
        const o = outcomes[i];
        expect(o?.color).toBe(color);
        if (/auto-hit/i.test(cell)) expect(o).toMatchObject({ outcome: { autoHit: true, avoided: false }, stopsDamage: false });
        else {
          expect(cell).toMatch(/avoided/);
          expect(o).toMatchObject({ outcome: { autoHit: false, avoided: true, bonusCs: cellCs(cell) }, stopsDamage: true });
        }
      }
    }
  });

  it("colour outcomes on defence: Dodge and Weave shift the attack's to-hit column by §6's CS and never stop the damage alone", () => {
    for (const [name, code, attack] of [["Dodge", "dodge", "BT"], ["Weave", "weave", "BA"]] as const) {
      const outcomes = defenceColourOutcomes(createExchange(input(attack)), "0", code);
      expect(outcomes.map((o) => o.outcome.attackCs)).toEqual(DOC_COLORS.map((c) => cellCs(doc[name]?.[c] ?? "")));
      expect(outcomes.some((o) => o.stopsDamage || o.dealt !== null)).toBe(false);
    }
  });

  it("colour outcomes on defence: Catch reads §6: auto-hit, a miss that helps the attack (+1 CS), caught (may be damaged), caught", () => {
    const outcomes = defenceColourOutcomes(createExchange(input("BT")), "0", "catch");
    const cells = DOC_COLORS.map((c) => doc["Catch"]?.[c] ?? "");
    expect(cells[0]).toMatch(/Auto-hit/);
    expect(outcomes[0]).toMatchObject({ outcome: { catchResult: "autoHit", autoHit: true }, stopsDamage: false });
    expect(cells[1]).toMatch(/^Miss/);
    expect(outcomes[1]).toMatchObject({ outcome: { catchResult: "miss", attackCs: cellCs(cells[1] ?? "") }, stopsDamage: false });
    expect(cells[2]).toMatch(/Caught, may be damaged/);
    expect(outcomes[2]).toMatchObject({ outcome: { catchResult: "caughtDamaged", avoided: true }, stopsDamage: true });
    expect(cells[3]).toMatch(/^Catch/);
    expect(outcomes[3]).toMatchObject({ outcome: { catchResult: "caught", avoided: true }, stopsDamage: true });
  });

  it("colour outcomes on defence: Block gives §6's protection (Str shifted by the colour's CS) and says what a hit still gets through", () => {
    // Str 40 against 40 static damage, no armor: the protection alone decides what gets through.
    const state = createExchange(input("BA"));
    const outcomes = defenceColourOutcomes(state, "0", "block");
    const str = docRankOf(40);
    for (const [i, color] of DOC_COLORS.entries()) {
      const protection = docRankAt(str.index + cellCs(doc["Block"]?.[color] ?? "")).number;
      expect(outcomes[i]).toMatchObject({ outcome: { protection }, dealt: Math.max(0, 40 - protection), stopsDamage: protection >= 40 });
    }
    // Red (+1 CS) soaks the whole hit; white (−6 CS) does not.
    expect(outcomes[3]?.stopsDamage).toBe(true);
    expect(outcomes[0]?.stopsDamage).toBe(false);
  });

  it("colour outcomes on defence: a sealed row (the GM's numbers) or rolled damage gives no 'gets through'", () => {
    const open = createExchange(input("BA"));
    const secret = { ...open, targets: open.targets.map((t) => ({ ...t, sealed: true })) };
    expect(defenceColourOutcomes(secret, "0", "block").every((o) => o.dealt === null && !o.stopsDamage)).toBe(true);
    const rolled = createExchange(input("BA", { damage: { method: "intensity", value: 40 } }));
    expect(defenceColourOutcomes(rolled, "0", "block").every((o) => o.outcome.protection >= 0 && o.dealt === null && !o.stopsDamage)).toBe(true);
  });

  it("colour outcomes on defence: every defence offered against every attack has four outcomes, white to red", () => {
    for (const attack of ["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Ch", "Gb", "Gp"] as const) {
      const state = createExchange(input(attack));
      for (const code of targetActions(state, "0").defend) {
        expect(defenceColourOutcomes(state, "0", code).map((o) => o.color)).toEqual([...DOC_COLORS]);
      }
    }
  });
});

describe("zero damage finishes", () => {
  it("zero damage finishes: a red hit that armor soaks whole needs no Apply and no Undo; its row is finished and the card complete", () => {
    expect(ZERO_DAMAGE_NEEDS_NO_APPLY).toBe(true);
    const soaked = rollToHit(declineDefence(createExchange(input("BA", { targets: [targetInput({ armor: { body: 40, energy: 0 } })] })), "0"), "0", { die: 99 });
    expect(soaked.targets[0]?.damage?.dealt).toBe(0);
    expect(targetActions(soaked, "0")).toMatchObject({ apply: false, undo: false, pull: false, checks: [], finished: true });
    expect(exchangeComplete(soaked)).toBe(true);
    // One point through: the row waits on its Apply, and is not finished.
    const through = rollToHit(declineDefence(createExchange(input("BA", { targets: [targetInput({ armor: { body: 39, energy: 0 } })] })), "0"), "0", { die: 99 });
    expect(targetActions(through, "0")).toMatchObject({ apply: true, finished: false });
  });
});
