/**
 * What of an exchange players may not see (src/rules/exchange/secrets.ts): sealing splits a
 * full exchange into a public card and the GM's secrets; unsealing joins them back exactly.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ExchangeError,
  applyDamage,
  chooseDefence,
  createExchange,
  declineDefence,
  resolveConsequence,
  rollToHit,
  sealExchange,
  unsealExchange,
  type ExchangeState,
  type ExchangeTarget,
} from "../../src/rules/index";
import { exchangeInput } from "../support/exchange-input";

function target(i: number) {
  return {
    uuid: `Actor.t${String(i)}`,
    actorUuid: `Actor.t${String(i)}`,
    name: `Target ${String(i)}`,
    scores: { "agility.bal": 30 + i, "fighting.def": 40 + i, "strength.mgt": 20 + i, "endurance.res": 50 + i },
    armor: { body: 10 + i, energy: i },
  };
}

/** An exchange with four targets at different steps: awaiting defence, blocked and hit, dodged, applied. */
function exchange(): ExchangeState {
  let s = createExchange(exchangeInput({
    source: "Wrecking ball",
    attacker: { uuid: "Actor.a", name: "Gravel", value: 50, strength: 50, armor: 0 },
    targets: [0, 1, 2, 3].map(target),
  }));
  s = chooseDefence(s, "1", { defence: "block", die: 90, cs: [] });
  s = rollToHit(s, "1", { die: 70 });
  s = chooseDefence(s, "2", { defence: "weave", die: 60, cs: [] });
  s = rollToHit(s, "2", { die: 80 });
  s = declineDefence(s, "3");
  s = rollToHit(s, "3", { die: 95 });
  return applyDamage(s, "3", { value: 100, max: 120 }).state;
}

const plain = (t: ExchangeTarget) => ({ ...t, sealed: false, defenceHidden: false });
const keys = fc.subarray(["0", "1", "2", "3"]);

describe("sealing an exchange", () => {
  it("unseal(seal(s)) is s, for any rows sealed and any defences hidden", () => {
    const s = exchange();
    fc.assert(
      fc.property(keys, keys, (sealed, hidden) => {
        const { card, secrets } = sealExchange(s, { sealed: new Set(sealed), hiddenDefence: new Set(hidden) });
        expect(unsealExchange(card, secrets)).toEqual({ ...s, targets: s.targets.map(plain) });
      }),
    );
  });

  it("the card of a sealed row holds no score, armor, protection, defence or defence shift; other rows are untouched", () => {
    const s = exchange();
    fc.assert(
      fc.property(keys, (sealed) => {
        const { card } = sealExchange(s, { sealed: new Set(sealed), hiddenDefence: new Set(sealed) });
        for (const [i, row] of card.targets.entries()) {
          const original = s.targets[i] as ExchangeTarget;
          if (!sealed.includes(row.key)) {
            expect(row).toEqual(plain(original));
            continue;
          }
          const json = JSON.stringify(row);
          expect(row.scores).toEqual({ "agility.bal": 0, "fighting.def": 0, "strength.mgt": 0, "endurance.res": 0 });
          expect(row.armor).toEqual({ body: 0, energy: 0 });
          expect(json).not.toMatch(/CASE\.Defence\./);
          expect(row.defence).toBeNull();
          if (row.damage) expect([row.damage.armor, row.damage.protection, row.damage.defenceProtection]).toEqual([0, 0, 0]);
          // What the table may see stays: the phase, the to-hit result, the damage dealt.
          expect([row.phase, row.toHit?.result, row.damage?.dealt]).toEqual([original.phase, original.toHit?.result, original.damage?.dealt]);
        }
      }),
    );
  });

  it("sealed numbers: a sealed row's Health (before, after, max) and a Kill?'s Endurance, and a sealed attacker's rank, Strength and armor, leave the card; unseal gives them back", () => {
    const s = resolveConsequence(applyDamage(exchange(), "1", { value: 1, max: 120 }).state, "1", { check: "kill", die: 1, endurance: 50 });
    const row = s.targets[1];
    expect(row?.applied).toMatchObject({ healthBefore: 1, healthAfter: 0, max: 120 });
    expect(row?.consequences.find((c) => c.check === "kill")?.outcome).toMatchObject({ endurance: 40 });
    fc.assert(
      fc.property(keys, fc.boolean(), (sealed, attacker) => {
        const { card, secrets } = sealExchange(s, { sealed: new Set(sealed), hiddenDefence: new Set(), attacker });
        expect(unsealExchange(card, secrets)).toEqual({ ...s, targets: s.targets.map(plain) });
        for (const t of card.targets) {
          if (!sealed.includes(t.key) || !t.applied) continue;
          expect([t.applied.healthBefore, t.applied.healthAfter, t.applied.max]).toEqual([0, 0, 0]);
          for (const c of t.consequences) if (c.outcome?.check === "kill") expect(c.outcome.endurance).toBe(0);
        }
        if (attacker) expect(card.attacker).toEqual({ ...s.attacker, value: 0, strength: 0, armor: 0, sealed: true });
        else expect(card.attacker).toEqual(s.attacker);
      }),
    );
    // A card whose attacker is sealed cannot be read without its record.
    const { card } = sealExchange(s, { sealed: new Set(), hiddenDefence: new Set(), attacker: true });
    expect(() => unsealExchange(card, {})).toThrow(/record of the attacker is missing/);
  });

  it("a sealed row without its secrets is refused, never run on blank scores", () => {
    const { card } = sealExchange(exchange(), { sealed: new Set(["1"]), hiddenDefence: new Set() });
    expect(() => unsealExchange(card, {})).toThrow(ExchangeError);
    expect(() => unsealExchange(card, {})).toThrow(/record of this row is missing/);
  });
});
