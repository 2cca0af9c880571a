/**
 * NPCs defending themselves (rules exchange/npc-defence.ts): the declared defence, the valid
 * defence with the best odds read off the Universal Table (CASE-RULES §2, cell by cell), and
 * the Judge's change of a picked defence.
 */
import { describe, expect, it } from "vitest";
import {
  ATTACK_CODES,
  DEFENCES,
  DEFENCE_SCORE,
  ExchangeError,
  chooseDefence,
  countsAsNewDefence,
  createExchange,
  declineDefence,
  defencesAgainst,
  markPickedDefence,
  mayChangeDefence,
  parseDeclaration,
  pickNpcDefence,
  reopenDefence,
  rollToHit,
  applyDamage,
  shiftColumn,
  targetActions,
  targetOf,
  type AttackCode,
  type DefenceCode,
  type ExchangeInput,
  type ExchangeState,
  type TargetScores,
} from "../../src/rules/index";
import { docBands, docRankOf, docRollFor } from "../support/rules-doc";
import { exchangeInput } from "../support/exchange-input";

const SCORES: TargetScores = { "agility.bal": 20, "fighting.def": 30, "strength.mgt": 75, "endurance.res": 40 };

function exchange(attack: AttackCode = "BA", scores: TargetScores = SCORES): ExchangeState {
  const input: ExchangeInput = exchangeInput({
    attack,
    source: "test",
    attacker: { uuid: "Actor.a", name: "Attacker", value: 30, strength: 30, armor: 0 },
    damage: { method: "static", value: 30 },
    targets: [{ uuid: "Actor.npc", actorUuid: "Actor.npc", name: "Gravel", scores, armor: { body: 0, energy: 0 } }],
  });
  return createExchange(input);
}

/** The chance of better than white on a rank number's column after `cs`, read off §2 (a 1–100 die; green from `g`). */
function docSuccess(value: number, cs = 0): number {
  const index = shiftColumn(value, cs).rank.index;
  return (101 - docBands(index).green) / 100;
}

const declared = (defence: DefenceCode | null, kind: "defence" | "attack" = "defence") => parseDeclaration({ text: "", kind, defence: kind === "defence" ? defence : null, actions: 1 });

describe("pickNpcDefence", () => {
  it("the Judge clicks: no pick", () => {
    expect(pickNpcDefence(exchange(), "0", { mode: "gm", declaration: null })).toBeNull();
  });

  it("best odds: the valid defence with the best chance of better than white, read off §2", () => {
    const state = exchange("BA");
    const pick = pickNpcDefence(state, "0", { mode: "bestOdds", declaration: null });
    const keeping = defencesAgainst("BA").filter((d) => d !== "escape" && !DEFENCES[d].takesAction);
    const best = [...keeping].sort((a, b) => docSuccess(SCORES[DEFENCE_SCORE[b]]) - docSuccess(SCORES[DEFENCE_SCORE[a]]))[0];
    expect(pick).toEqual({ defence: best, reason: "bestOdds" });
    expect(pick?.defence).toBe("block"); // Strength 75 against Fighting 30
  });

  it("best odds reads the GM's shifts: −6 CS on Block turns it to Weave", () => {
    const shifts = (d: DefenceCode) => (d === "block" ? [{ cs: -6, label: "test", localize: false }] : []);
    expect(docSuccess(SCORES["strength.mgt"], -6)).toBeLessThan(docSuccess(SCORES["fighting.def"]));
    expect(pickNpcDefence(exchange("BA"), "0", { mode: "bestOdds", declaration: null, shifts })?.defence).toBe("weave");
  });

  it("best odds never spends the NPC's action (Evasion, Feint, Catch), whatever its odds", () => {
    const high: TargetScores = { "agility.bal": 1000, "fighting.def": 1000, "strength.mgt": 2, "endurance.res": 2 };
    for (const attack of ATTACK_CODES) {
      const pick = pickNpcDefence(exchange(attack, high), "0", { mode: "bestOdds", declaration: null });
      if (pick === null) continue;
      if (pick.defence !== "none") expect(DEFENCES[pick.defence].takesAction).toBe(false);
      expect(pick.defence === "none" || targetActions(exchange(attack, high), "0").defend.includes(pick.defence)).toBe(true);
    }
  });

  it("declared: the declared defence when valid, even one that takes the action; else the best odds", () => {
    const state = exchange("BA");
    expect(pickNpcDefence(state, "0", { mode: "declared", declaration: declared("weave") })).toEqual({ defence: "weave", reason: "declared" });
    expect(pickNpcDefence(state, "0", { mode: "declared", declaration: declared("evasion") })).toEqual({ defence: "evasion", reason: "declared" });
    // Dodge is not valid against a Blunt Attack (§6): the best odds instead.
    expect(pickNpcDefence(state, "0", { mode: "declared", declaration: declared("dodge") })).toEqual({ defence: "block", reason: "bestOdds" });
    expect(pickNpcDefence(state, "0", { mode: "declared", declaration: declared(null, "attack") })).toEqual({ defence: "block", reason: "bestOdds" });
    expect(pickNpcDefence(state, "0", { mode: "declared", declaration: null })).toEqual({ defence: "block", reason: "bestOdds" });
    // Under "best odds" a declaration is not read.
    expect(pickNpcDefence(state, "0", { mode: "bestOdds", declaration: declared("weave") })?.defence).toBe("block");
  });

  it("a helpless NPC (it may not defend) is picked No defence, whatever it declared and whatever the odds", () => {
    const state = exchange("BA");
    for (const mode of ["declared", "bestOdds"] as const) {
      expect(pickNpcDefence(state, "0", { mode, declaration: declared("weave"), mayDefend: false })).toEqual({ defence: "none", reason: "noDefence" });
    }
  });

  it("no pick on a row that does not wait on a defence; a bad mode is refused", () => {
    const defended = declineDefence(exchange(), "0");
    expect(pickNpcDefence(defended, "0", { mode: "bestOdds", declaration: null })).toBeNull();
    expect(() => pickNpcDefence(exchange(), "0", { mode: "always" as "gm", declaration: null })).toThrow(/Unknown NPC defence mode "always"/);
  });
});

describe("changing a picked defence", () => {
  const index = docRankOf(30).index;
  function picked(): ExchangeState {
    const s = chooseDefence(exchange("BA"), "0", { defence: "block", die: 50, cs: [] });
    return rollToHit(markPickedDefence(s, "0"), "0", { die: docRollFor(index, "green") });
  }

  it("the Judge may change a picked defence before Apply; the row waits on its defence again and counts the change", () => {
    const s = picked();
    expect(targetOf(s, "0").phase).toBe("resolved");
    expect(mayChangeDefence(s, "0")).toBe(true);
    const reopened = reopenDefence(s, "0");
    const row = targetOf(reopened, "0");
    expect(row).toMatchObject({ phase: "awaitingDefence", defence: null, toHit: null, damage: null, defencePicked: false, defenceChanges: 1 });
    expect(countsAsNewDefence(row)).toBe(false);
    expect(countsAsNewDefence(targetOf(s, "0"))).toBe(true);
    expect(targetActions(reopened, "0").defend).toEqual(targetActions(exchange("BA"), "0").defend);
  });

  it("the re-chosen defence takes the first one's place in the count: counted only when the first was not", () => {
    const declined = rollToHit(markPickedDefence(declineDefence(exchange("BA"), "0"), "0"), "0", { die: docRollFor(index, "green") });
    const row = targetOf(reopenDefence(declined, "0"), "0");
    expect(row.replacedCounted).toBe(false);
    expect(countsAsNewDefence(row)).toBe(true);
    expect(targetOf(reopenDefence(picked(), "0"), "0").replacedCounted).toBe(true);
  });

  it("a clicked defence, an applied row and a changed one cannot be changed (stale)", () => {
    const clicked = chooseDefence(exchange("BA"), "0", { defence: "block", die: 50, cs: [] });
    expect(mayChangeDefence(clicked, "0")).toBe(false);
    const s = picked();
    const applied = applyDamage(s, "0", { value: 100, max: 100 }).state;
    expect(mayChangeDefence(applied, "0")).toBe(false);
    expect(() => reopenDefence(applied, "0")).toThrow(ExchangeError);
    expect(() => reopenDefence(reopenDefence(s, "0"), "0")).toThrow(/can no longer be changed/);
  });
});
