/**
 * The CASE turn (src/rules/turn/): a whole turn for a mixed party (hand-worked).
 * Colours are read off the Universal Table of CASE-RULES §2 by hand (the column's
 * green/yellow/red "from" values are quoted next to each roll).
 */
import { describe, expect, it } from "vitest";
import { actionShift, actionsLeft, advancePhase, applyStun, canActThisTurn, changeAction, chooseExtraMode, declareAction, initiativeWaiting, markDying, noteEvent, parseDeclaration, phaseWaiting, recordDefence, recordExtraActionRoll, recordInitiativeRoll, recordInitiativeRollOffs, recordInitiativeRolls, setAided } from "../../../src/rules/turn";
import { Table, expectTurnError, mixedParty, stats } from "../../support/turn-play";
import { createCombatantTurn } from "../../../src/rules/turn";
import { regenerationPerTurn } from "../../../src/rules/recovery";
import fc from "fast-check";
import { KILL_LOSS_AT_OWN_WRAP_UP, killLossAtWrapUp } from "../../../src/rules/consequences";
import { DEFAULT_TURN_SETTINGS, type TurnSettings } from "../../../src/rules/turn";

describe("a whole turn for a mixed party (hand-worked)", () => {
  it("runs declare → extra actions → initiative → resolve → extra rounds → wrap-up", () => {
    const t = mixedParty();
    expect(t.state.combat).toMatchObject({ number: 1, phase: "declare", round: 0 });

    // Step 1: declare.
    t.declare("cap", { text: "Three punches at the boss", kind: "attack", attack: "BA", actions: 3 });
    t.declare("speedy", { text: "Two kicks", kind: "attack", attack: "BA", actions: 2 });
    t.declare("brick", { text: "Pummel the boss", kind: "attack", attack: "BA", actions: 4 });
    t.declare("thug", { text: "Shoot Cap", kind: "attack", attack: "Sh", secret: true });
    expect(phaseWaiting(t.state)).toEqual([{ id: "boss", need: "declaration" }]);
    expectTurnError(() => advancePhase(t.state, "declare"), "notReady", /"boss" \(declaration\)/);
    t.declare("boss", { text: "Energy blast at Brick", kind: "attack", attack: "En", actions: 2, secret: true });
    expect(t.c("thug").declaration?.secret).toBe(true);

    // Step 2: extra-action rolls. Table 22 intensities: 3 → Amazing, 2 → Remarkable, 4 → Unearthly.
    t.advance();
    expect(t.state.combat.phase).toBe("extraActions");
    expect(t.c("cap").extra?.required).toBe("yellow"); // Amazing vs Amazing
    expect(t.c("speedy").extra?.required).toBe("green"); // Incredible vs Remarkable
    expect(t.c("brick").extra?.required).toBe("red"); // Monstrous vs Unearthly
    expect(t.c("boss").extra?.required).toBe("yellow"); // Remarkable vs Remarkable
    expect(t.c("thug").extra).toBeNull();
    expect(phaseWaiting(t.state).map((w) => `${w.id}:${w.need}`)).toEqual(["cap:extraRoll", "speedy:extraRoll", "brick:extraRoll", "boss:extraRoll"]);

    t.apply(recordExtraActionRoll(t.state, "cap", 60)); // Amazing column: yellow from 56 → yellow, passes
    t.apply(recordExtraActionRoll(t.state, "speedy", 20)); // Incredible column: green from 31 → white, fails
    t.apply(recordExtraActionRoll(t.state, "brick", 90)); // Monstrous column: red from 86 → red, passes
    t.apply(recordExtraActionRoll(t.state, "boss", 70)); // Remarkable column: yellow from 66 → yellow, passes
    expect(t.c("cap").extra).toMatchObject({ roll: 60, color: "yellow", success: true, mode: null });
    expect(t.c("speedy")).toMatchObject({ actionsAllowed: 1, actionCs: -3 });
    expect(phaseWaiting(t.state).map((w) => `${w.id}:${w.need}`)).toEqual(["cap:extraMode", "brick:extraMode", "boss:extraMode"]);
    expectTurnError(() => chooseExtraMode(t.state, "speedy", "flurry"), "cannotAct");

    t.apply(chooseExtraMode(t.state, "cap", "separate"));
    t.apply(chooseExtraMode(t.state, "brick", "flurry"));
    t.apply(chooseExtraMode(t.state, "boss", "separate"));
    expect(t.c("cap")).toMatchObject({ actionsAllowed: 3, actionCs: -1, damageCs: 0 });
    expect(t.c("brick")).toMatchObject({ actionsAllowed: 1, actionCs: 0, damageCs: 2 }); // 4 attacks = 2 doublings
    expect(t.c("boss")).toMatchObject({ actionsAllowed: 2, actionCs: -1 });
    expect(t.c("thug")).toMatchObject({ actionsAllowed: 1, actionCs: 0 });

    // Step 3: initiative. cap 6+4 = 10, speedy 9+1 = 10, brick 7+0, thug 7+0, boss 2+5 = 7.
    t.advance();
    expect(t.state.combat.phase).toBe("initiative");
    expect(initiativeWaiting(t.state).rolls).toEqual(["cap", "speedy", "brick", "thug", "boss"]);
    t.apply(recordInitiativeRolls(t.state, { cap: 6, speedy: 9, brick: 7, thug: 7 }));
    t.apply(recordInitiativeRoll(t.state, "boss", 2));
    expect(t.c("cap").initiative.total).toBe(10);
    // cap and speedy tie on 10, settled by the modifier (+4 over +1); boss's +5 beats the 0s on 7;
    // brick and thug (7, mod 0) roll off.
    expect(initiativeWaiting(t.state).rollOffs).toEqual([["brick", "thug"]]);
    expectTurnError(() => advancePhase(t.state, "initiative"), "notReady", /rollOff/);
    t.apply(recordInitiativeRollOffs(t.state, { brick: 4, thug: 8 }));
    expect(initiativeWaiting(t.state)).toEqual({ rolls: [], rollOffs: [], dodges: [] });

    // Step 4: resolve in order.
    t.advance();
    expect(t.state.combat).toMatchObject({ phase: "resolve", round: 1, order: ["cap", "speedy", "boss", "thug", "brick"] });
    expect(t.current).toBe("cap");
    expect(actionShift(t.c("cap"))).toBe(-1);
    t.act("cap");
    expect(t.current).toBe("speedy");

    // speedy defends three times with one free defence: 0, −2, −4.
    const d1 = recordDefence(t.state, "speedy", "dodge");
    t.apply(d1.change);
    const d2 = recordDefence(t.state, "speedy", "block");
    t.apply(d2.change);
    const d3 = recordDefence(t.state, "speedy", "weave");
    t.apply(d3.change);
    expect([d1.penalty, d2.penalty, d3.penalty]).toEqual([0, -2, -4]);
    expect(t.c("speedy").defencesUsed).toBe(3);

    // A stun lands on the thug before it acted: it is out this turn.
    t.apply(applyStun(t.state, "thug", 1));
    expect(t.c("thug").stunTurns).toBe(1);
    expect(actionsLeft(t.c("thug"))).toBe(0);

    t.act("speedy");
    expect(t.current).toBe("boss");

    // The boss changes its action: yellow Agy (bal) ACTION on Good (yellow from 76): 80 → yellow, passes.
    const changed = changeAction(t.state, "boss", 80, parseDeclaration({ text: "Grab the hostage", kind: "attack", attack: "Gb" }), 0);
    expect(changed).toMatchObject({ color: "yellow", success: true });
    t.apply(changed.change);
    expect(t.c("boss").declaration).toMatchObject({ text: "Grab the hostage", attack: "Gb", actions: 2, secret: true });
    expect(actionShift(t.c("boss"))).toBe(-2); // −1 separate extra action, −1 changed action
    t.act("boss");
    expect(actionShift(t.c("boss"))).toBe(-1); // the change's −1 was for that one action

    // The stunned thug is skipped.
    expect(t.current).toBe("brick");
    t.act("brick");
    expect(t.current).toBeNull();
    expect(phaseWaiting(t.state)).toEqual([]);

    // Step 5: extra rounds: cap (3 actions) and boss (2), then cap alone.
    t.advance();
    expect(t.state.combat).toMatchObject({ phase: "extraRounds", round: 2 });
    expect(t.current).toBe("cap");
    t.apply(markDying(t.state, "brick")); // a Kill result on brick, who already acted
    t.apply(applyStun(t.state, "cap", 1)); // cap has acted: the stun waits for next turn
    expect(t.c("cap")).toMatchObject({ stunTurns: 0, stunPending: 1 });
    t.act("cap");
    expect(t.current).toBe("boss");
    t.act("boss");
    expect(t.state.combat.round).toBe(3);
    expect(t.current).toBe("cap");
    t.act("cap");
    expect(t.current).toBeNull();
    expect(Object.fromEntries([...t.state.combatants.values()].map((c) => [c.id, c.actionsUsed]))).toEqual({ cap: 3, speedy: 1, brick: 1, thug: 0, boss: 2 });

    // Step 6: wrap up.
    t.advance();
    expect(t.state.combat.phase).toBe("wrapUp");
    t.apply(noteEvent(t.state, "The floor collapses"));
    expect(t.state.combat.events).toEqual(["The floor collapses"]);
    const wrap = t.advance();
    // brick lies unaided, but the Kill landed this turn: by default (errata §4, [001] "every
    // subsequent turn") the first extra rank goes at the next turn's wrap-up.
    expect(wrap.enduranceLosses).toEqual([]);
    expect(t.c("brick")).toMatchObject({ dying: true, dyingFresh: false, stats: { endurance: 30 } });
    expect(t.state.combat).toMatchObject({ number: 2, phase: "declare", round: 0, order: [], events: [] });
    for (const c of t.state.combatants.values()) {
      expect(c).toMatchObject({ declaration: null, extra: null, actionsUsed: 0, defencesUsed: 0, actionCs: 0, damageCs: 0, dodge: null, lostTurn: false });
      expect(c.initiative).toEqual({ d10: null, total: null, rollOffs: [] });
    }
    expect(t.c("thug").stunTurns).toBe(0); // one turn served
    expect(t.c("cap")).toMatchObject({ stunTurns: 1, stunPending: 0 }); // now out for turn 2
    expect(t.c("brick")).toMatchObject({ dying: true, stats: { endurance: 30 } });

    // Turn 2: cap (stunned) and brick (dying) cannot declare; aid stops brick's loss, and the
    // aided brick may act again (DYING_CHARACTERS_ACT: helpless "until aided").
    expectTurnError(() => declareAction(t.state, "cap", parseDeclaration({ text: "Punch" })), "cannotAct");
    expectTurnError(() => declareAction(t.state, "brick", parseDeclaration({ text: "Punch" })), "cannotAct");
    t.apply(setAided(t.state, "brick", true));
    for (const id of ["speedy", "thug", "boss", "brick"]) t.declare(id, { text: "Fight on" });
    t.advance(); // extra actions: nobody asked
    t.advance(); // initiative
    t.apply(recordInitiativeRolls(t.state, { speedy: 5, thug: 5, boss: 5, cap: 1, brick: 1 }));
    t.advance();
    // boss 5+5, speedy 5+1, cap 1+4 = 5 and thug 5+0 = 5 (cap's +4 first), brick 1.
    expect(t.state.combat.order).toEqual(["boss", "speedy", "cap", "thug", "brick"]);
    for (const id of ["boss", "speedy", "thug", "brick"]) t.act(id);
    expect(t.current).toBeNull();
    t.advance(); // nobody has extra actions: straight to wrap-up
    expect(t.state.combat.phase).toBe("wrapUp");
    expect(t.advance().enduranceLosses).toEqual([]);
    expect(t.c("brick")).toMatchObject({ dying: false, aided: false, stats: { endurance: 30 } });
    expect(t.c("cap").stunTurns).toBe(0);
    expect(canActThisTurn(t.c("cap"))).toBe(true);
  });

  it("a failed change of action costs the rest of the turn", () => {
    const t = mixedParty();
    for (const id of ["cap", "speedy", "brick", "thug", "boss"]) t.declare(id, { text: "Attack" });
    t.advance();
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 1, speedy: 1, brick: 1, thug: 2, boss: 10 }));
    t.advance();
    // Order: boss 10+5 = 15, cap 1+4 = 5, speedy 1+1 = 2 and thug 2+0 = 2 (speedy's +1 first), brick 1.
    expect(t.state.combat.order).toEqual(["boss", "cap", "speedy", "thug", "brick"]);
    // cap tries to change before its turn: Agy (bal) Excellent, yellow from 71: 50 is green → fails.
    const r = changeAction(t.state, "cap", 50, parseDeclaration({ text: "Dive for cover", kind: "move" }));
    expect(r).toMatchObject({ color: "green", success: false });
    t.apply(r.change);
    expect(t.c("cap").lostTurn).toBe(true);
    expect(actionsLeft(t.c("cap"))).toBe(0);
    t.act("boss");
    expect(t.current).toBe("speedy"); // cap is skipped
    expectTurnError(() => changeAction(t.state, "cap", 99, parseDeclaration({ text: "Again" })), "cannotAct");
  });

  it("the acting combatant losing its action (stun, dying, failed change) moves the turn on", () => {
    const t = mixedParty();
    for (const id of ["cap", "speedy", "brick", "thug", "boss"]) t.declare(id, { text: "Attack" });
    t.advance();
    t.advance();
    t.apply(recordInitiativeRolls(t.state, { cap: 10, speedy: 8, brick: 6, thug: 4, boss: 1 }));
    t.advance();
    // cap 14, speedy 9, boss 1+5 = 6 and brick 6+0 = 6 (boss's +5 first), thug 4.
    expect(t.state.combat.order).toEqual(["cap", "speedy", "boss", "brick", "thug"]);
    t.apply(applyStun(t.state, "cap", 3)); // a white Stun? with a d10 of 3, before cap acted
    expect(t.current).toBe("speedy");
    t.apply(markDying(t.state, "speedy"));
    expect(t.current).toBe("boss");
    // boss's change fails (Agy (bal) Good, 1 is white): the turn moves on.
    t.apply(changeAction(t.state, "boss", 1, parseDeclaration({ text: "Run" })).change);
    expect(t.current).toBe("brick");
    // cap is out for turns 1, 2 and 3.
    t.act("brick");
    t.act("thug");
    for (let turn = 2; turn <= 4; turn++) {
      t.advance(); // → wrapUp
      t.advance(); // → next turn
      expect(t.state.combat.number).toBe(turn);
      expect(canActThisTurn(t.c("cap"))).toBe(turn === 4);
      if (turn === 4) break;
      t.advance({ force: true }); // declare (nobody needs to)
      t.advance(); // extra actions
      t.apply(recordInitiativeRolls(t.state, { cap: 1, speedy: 1, brick: 2, thug: 3, boss: 4 }));
      t.advance();
      while (t.current !== null) t.act(t.current);
    }
    // speedy lay dying, unaided, through three wrap-ups: none at the Kill's own (errata §4), then Ex 20 → Gd 10 → Ty 6.
    expect(t.c("speedy")).toMatchObject({ dying: true, dead: false, stats: { endurance: 6 } });
  });
});

describe("the Kill-result Endurance loss timing (errata §4, a world setting)", () => {
  function dyingThrough(settings: TurnSettings, wrapUps: number): { losses: number[]; endurance: number } {
    const t = mixedParty(settings);
    t.apply(markDying(t.state, "brick"));
    const losses: number[] = [];
    for (let turn = 0; turn < wrapUps; turn++) {
      t.state.combat = { ...t.state.combat, phase: "wrapUp" }; // the turn's middle plays no part here
      losses.push(t.advance().enduranceLosses.length);
    }
    return { losses, endurance: t.c("brick").stats.endurance };
  }

  it("Kill-loss timing default: no loss at the wrap-up of the Kill's own turn, one at every later one", () => {
    expect(KILL_LOSS_AT_OWN_WRAP_UP).toBe(false);
    expect(dyingThrough(DEFAULT_TURN_SETTINGS, 3)).toEqual({ losses: [0, 1, 1], endurance: 10 }); // Rm 30 → Ex 20 → Gd 10
  });

  it("Kill-loss timing setting on: the first extra rank already at the Kill's own wrap-up", () => {
    expect(dyingThrough({ ...DEFAULT_TURN_SETTINGS, killLossAtOwnWrapUp: true }, 3)).toEqual({ losses: [1, 1, 1], endurance: 6 });
  });

  it("property: aid always stops the loss, and the loss comes only when not fresh or the setting says so", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (aided, fresh, own) => {
        expect(killLossAtWrapUp(aided, fresh, own)).toBe(!aided && (!fresh || own));
      }),
    );
  });
});

describe("regeneration and recovery at wrap-up (§4 Step 6, rules recovery.ts)", () => {
  function regenerating(rank: number, settings: TurnSettings = DEFAULT_TURN_SETTINGS) {
    const t = new Table([createCombatantTurn("wolf", stats({ endurance: 30, regeneration: rank })), createCombatantTurn("thug", stats())], settings);
    t.state.combat = { ...t.state.combat, phase: "wrapUp" };
    return { t, change: t.advance() };
  }

  it("regeneration: a Remarkable (30) regenerator gets 3 Health back at wrap-up; others nothing", () => {
    expect(regenerating(30).change.healing).toEqual([{ id: "wolf", amount: 3 }]);
  });

  it("regeneration follows the world's turns-per-rank ruling", () => {
    expect(regenerating(30, { ...DEFAULT_TURN_SETTINGS, regenerationTurns: 1 }).change.healing).toEqual([{ id: "wolf", amount: 30 }]);
  });

  it("regeneration: none without the power, and none for the dead", () => {
    expect(regenerating(0).change.healing).toBeUndefined();
    const t = new Table([{ ...createCombatantTurn("wolf", stats({ regeneration: 30 })), dead: true }]);
    t.state.combat = { ...t.state.combat, phase: "wrapUp" };
    expect(t.advance().healing).toBeUndefined();
  });

  it("property: the wrap-up's regeneration is the rules' regenerationPerTurn for any rank and ruling, never negative", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 100 }), (rank, turns) => {
        const healing = regenerating(rank, { ...DEFAULT_TURN_SETTINGS, regenerationTurns: turns }).change.healing;
        expect(healing).toEqual([{ id: "wolf", amount: regenerationPerTurn(rank, { regenerationTurns: turns }) }]);
        expect(healing?.[0]?.amount).toBeGreaterThan(0);
      }),
    );
  });
});
