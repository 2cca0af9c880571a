/**
 * The translation between stored turn data and the rules' turn (src/foundry/combat/state.ts).
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TEAMS,
  NEUTRAL_STATS,
  combatSystemPatch,
  combatTurnFromSystem,
  combatantSystemFrom,
  combatantTurnFromInput,
  conditionWrite,
  freshCombatSystem,
  freshCombatantSystem,
  isEmptyWrite,
  statsFromCharacter,
  turnSettings,
  turnStateFrom,
  turnWrite,
  type CombatantInput,
} from "../../../src/foundry/combat/state";
import { characterStats, createCombatantTurn, parseDeclaration, type CombatantTurn } from "../../../src/rules/index";

const SETTINGS = turnSettings({ initiativeMode: "everyTurn", teamInitiative: false, declaredDodge: false });

function input(id: string, over: Partial<CombatantInput> = {}): CombatantInput {
  return { id, system: freshCombatantSystem(), stats: null, playerOwned: false, defeated: false, ...over };
}

describe("reading", () => {
  it("a character's stats: Table 23 modifier, Ftg (off), Agy (bal), free defences, Endurance (hand-worked)", () => {
    const stats = characterStats({
      fighting: { value: 30, off: null, def: 40 },
      agility: { value: 20, dex: null, bal: 10 },
      strength: { value: 10 },
      endurance: { value: 50 },
      reason: { value: 6 },
      intuition: { value: 40 },
      psyche: { value: 10 },
    });
    expect(statsFromCharacter(stats)).toEqual({ initiativeModifier: 4, offence: 30, balance: 10, freeDefences: 2, endurance: 50 });
  });

  it("a combatant without a character is Typical everywhere", () => {
    expect(combatantTurnFromInput(input("x"), SETTINGS).stats).toEqual(NEUTRAL_STATS);
  });

  it("everything the rules keep survives a round trip through the stored shape", () => {
    const rich: CombatantTurn = {
      ...createCombatantTurn("c1", NEUTRAL_STATS),
      declaration: parseDeclaration({ text: "Blast", kind: "attack", attack: "En", actions: 3, secret: true }),
      extra: { wanted: 3, required: "red", roll: 91, color: "red", success: true, mode: "flurry" },
      actionsAllowed: 1,
      actionsUsed: 1,
      actionCs: 0,
      damageCs: 1,
      nextActionCs: -1,
      actedInRound: 1,
      defencesUsed: 2,
      initiative: { d10: 7, total: 9, rollOffs: [3, 8] },
      dodge: { roll: 50, color: "green", shift: -2 },
      lostTurn: false,
      changedAt: 0,
      stunTurns: 2,
      stunPending: 1,
      dying: true,
      aided: true,
      dead: false,
      hold: "partialHold",
    };
    const back = combatantTurnFromInput(input("c1", { system: combatantSystemFrom(rich, "") }), SETTINGS);
    expect(back).toEqual(rich);
  });

  it("the character's status effects are the truth for dying, aided and holds", () => {
    const system = combatantSystemFrom({ ...createCombatantTurn("c", NEUTRAL_STATS), dying: false, hold: "none" }, "");
    const c = combatantTurnFromInput(input("c", { system, conditions: { dying: true, aided: true, hold: "fullHold" } }), SETTINGS);
    expect(c).toMatchObject({ dying: true, aided: true, hold: "fullHold" });
  });

  it("team initiative: the Judge's team name, else players and the Judge's side; none when the setting is off", () => {
    const on = turnSettings({ initiativeMode: "everyTurn", teamInitiative: true, declaredDodge: false });
    expect(combatantTurnFromInput(input("p", { playerOwned: true }), on).team).toBe(DEFAULT_TEAMS.players);
    expect(combatantTurnFromInput(input("n"), on).team).toBe(DEFAULT_TEAMS.judge);
    expect(combatantTurnFromInput(input("n", { system: { ...freshCombatantSystem(), team: "henchmen" } }), on).team).toBe("henchmen");
    expect(combatantTurnFromInput(input("n", { playerOwned: true }), SETTINGS).team).toBeNull();
  });

  it("stored data the rules would refuse keeps what it can", () => {
    const system = { ...freshCombatantSystem(), declaration: { declared: true, text: "Fly", kind: "dance", attack: "", defence: "", actions: 1, secret: false } };
    expect(combatantTurnFromInput(input("c", { system }), SETTINGS).declaration).toMatchObject({ text: "Fly", kind: null, actions: 1 });
    expect(combatTurnFromSystem({ ...freshCombatSystem(), phase: "lunch", turnNumber: 0 })).toMatchObject({ phase: "declare", number: 1 });
    expect(turnSettings({ initiativeMode: "sometimes", teamInitiative: false, declaredDodge: true }).initiative.mode).toBe("everyTurn");
  });

  it("builds the whole turn in tracker order", () => {
    const state = turnStateFrom(freshCombatSystem(), [input("b"), input("a")], { initiativeMode: "fixedOrder", teamInitiative: false, declaredDodge: false });
    expect([...state.combatants.keys()]).toEqual(["b", "a"]);
    expect(state.settings.initiative.mode).toBe("fixedOrder");
  });
});

describe("writing", () => {
  it("a change becomes the combat's changed fields and each changed combatant's whole stored part; Foundry's initiative only when the total changed", () => {
    const before = input("c", { system: { ...freshCombatantSystem(), team: "henchmen" } });
    const after: CombatantTurn = { ...createCombatantTurn("c", NEUTRAL_STATS), initiative: { d10: 4, total: 4, rollOffs: [] } };
    const write = turnWrite({ combat: { phase: "resolve", number: 2, order: ["c"], cursor: 0 }, combatants: [after], enduranceLosses: [{ id: "c", from: 30, to: 20, dead: false }] }, new Map([["c", before]]));
    expect(write.combat).toEqual({ phase: "resolve", turnNumber: 2, order: ["c"], cursor: 0 });
    expect(write.combatants).toEqual([{ _id: "c", system: { ...combatantSystemFrom(after, "henchmen") }, initiative: 4 }]);
    expect(write.endurance).toEqual([{ combatantId: "c", value: 20, dead: false }]);
    const same = turnWrite({ combat: {}, combatants: [after], enduranceLosses: [] }, new Map([["c", input("c", { system: combatantSystemFrom(after, "") })]]));
    expect(same.combatants[0]).not.toHaveProperty("initiative");
    expect(isEmptyWrite(turnWrite({ combat: {}, combatants: [], enduranceLosses: [] }, new Map()))).toBe(true);
    expect(combatSystemPatch({ combat: { events: ["Boom"] }, combatants: [], enduranceLosses: [] })).toEqual({ events: ["Boom"] });
  });

  it("status effects follow stuns, dying, aid, holds and death", () => {
    const base = createCombatantTurn("c", NEUTRAL_STATS);
    expect(conditionWrite(base, { ...base, stunTurns: 2 })).toEqual({ combatantId: "c", stunned: { turns: 2, startsNextTurn: false } });
    expect(conditionWrite(base, { ...base, stunPending: 1 })).toEqual({ combatantId: "c", stunned: { turns: 1, startsNextTurn: true } });
    expect(conditionWrite({ ...base, stunTurns: 1 }, base)).toEqual({ combatantId: "c", stunned: null });
    expect(conditionWrite(base, { ...base, dying: true, dyingFresh: true })).toEqual({ combatantId: "c", dying: { aided: false, fresh: true } });
    expect(conditionWrite({ ...base, dying: true }, { ...base, dying: true, aided: true })).toEqual({ combatantId: "c", dying: { aided: true, fresh: false } });
    expect(conditionWrite({ ...base, dying: true, aided: true }, base)).toEqual({ combatantId: "c", dying: null });
    expect(conditionWrite(base, { ...base, hold: "fullHold" })).toEqual({ combatantId: "c", hold: "fullHold" });
    expect(conditionWrite({ ...base, dying: true }, { ...base, dead: true })).toEqual({ combatantId: "c", dying: null, dead: true });
    expect(conditionWrite(base, { ...base, actionsUsed: 1 })).toBeNull();
  });
});
