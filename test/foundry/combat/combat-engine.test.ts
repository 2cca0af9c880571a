/**
 * The turn engine (src/foundry/combat/engine.ts) on an in-memory combat (combat-world.ts):
 * one writer, what it rolls for the Judge, what it writes, what it announces (secret lines
 * for NPCs), replays that change nothing.
 */
import { regenerationPerTurn } from "../../../src/rules/index";
import { describe, expect, it } from "vitest";
import { NotTurnWriterError } from "../../../src/foundry/combat/turn-host";
import { TurnError, parseDeclaration } from "../../../src/rules/index";
import { turnWorld, worldCombatant, type TurnWorld } from "../../support/combat-world";
import { stats } from "../../support/turn-play";


/** Two heroes (players') and a villain (the Judge's). */
function party(settings: Parameters<typeof turnWorld>[1] = {}): TurnWorld {
  return turnWorld(
    [
      worldCombatant("hero1", stats({ offence: 50, initiativeModifier: 2, freeDefences: 2 }), { name: "Kestrel", playerOwned: true, owners: ["alice"] }),
      worldCombatant("hero2", stats({ balance: 30 }), { name: "Bulwark", playerOwned: true, owners: ["bob"] }),
      worldCombatant("villain", stats({ offence: 30, initiativeModifier: 3, endurance: 30 }), { name: "Doctor Dread" }),
    ],
    settings,
  );
}

async function rejects(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("the GM-only lifecycle guard", () => {
  it("a client that is not the active GM writes nothing", async () => {
    const w = party();
    w.host.writer = false;
    expect(await rejects(w.engine.declare("hero1", parseDeclaration({ text: "Punch" })))).toBeInstanceOf(NotTurnWriterError);
    expect(await rejects(w.engine.advance("declare", true))).toBeInstanceOf(NotTurnWriterError);
    expect(w.writes).toEqual([]);
    expect(w.announcements).toEqual([]);
  });
});

describe("a turn through the engine", () => {
  it("declares, rolls what the Judge rolls, orders, resolves and wraps up", async () => {
    const w = party();
    await w.engine.declare("hero1", parseDeclaration({ text: "Two jabs", kind: "attack", attack: "BA", actions: 2, secret: true }));
    await w.engine.declare("hero2", parseDeclaration({ text: "Shield Kestrel", kind: "defence", defence: "block" }));
    await w.engine.declare("villain", parseDeclaration({ text: "Death ray", kind: "attack", attack: "En", actions: 2 }));
    // The secret flag is the engine's to set: players' declarations are open, NPCs' secret.
    expect(w.get("hero1").system.declaration).toMatchObject({ declared: true, text: "Two jabs", actions: 2, secret: false });
    expect(w.get("villain").system.declaration).toMatchObject({ declared: true, secret: true });

    // Extra actions are rolled for the Judge on entering the phase: hero1 (Amazing wanting 2 → green),
    // villain (Remarkable wanting 2 → yellow).
    w.dice.push(30, 40); // Amazing: green from 26 → passes; Remarkable: yellow from 66 → 40 is green, fails
    await w.engine.advance("declare");
    expect(w.combat.phase).toBe("extraActions");
    expect(w.get("hero1").system.extra).toMatchObject({ wanted: 2, required: "green", roll: 30, color: "green", success: true, mode: "" });
    expect(w.get("villain").system).toMatchObject({ actionsAllowed: 1, actionCs: -3 });
    const extra = w.announcements.at(-1);
    expect(extra?.title).toBe("CASE.Turn.Chat.ExtraTitle");
    expect(extra?.lines.map((l) => [l.key, l.data.name, l.secret])).toEqual([
      ["CASE.Turn.Chat.ExtraPassed", "Kestrel", false],
      ["CASE.Turn.Chat.ExtraFailed", "Doctor Dread", true],
    ]);

    await w.engine.chooseExtraMode("hero1", "separate");
    expect(w.get("hero1").system).toMatchObject({ actionsAllowed: 2, actionCs: -1 });

    // Initiative: the NPC rolls in one go for the Judge on entering the phase.
    w.dice.push(4);
    await w.engine.advance("extraActions");
    expect(w.get("villain").system.initiative).toMatchObject({ d10: 4, total: 7 });
    expect(w.get("hero1").system.initiative.d10).toBeNull();
    // A player rolls; the Judge moving on rolls the rest (hero2), then the tie roll-off.
    w.dice.push(5);
    await w.engine.rollInitiative(["hero1"]);
    expect(w.get("hero1").system.initiative).toMatchObject({ d10: 5, total: 7 });
    w.dice.push(7); // hero2: 7 + 0 = 7 — a three-way tie on 7, broken by modifiers (+3, +2, 0): no roll-off
    await w.engine.advance("initiative");
    expect(w.combat).toMatchObject({ phase: "resolve", round: 1, order: ["villain", "hero1", "hero2"], cursor: 0 });
    expect([w.get("villain").initiative, w.get("hero1").initiative, w.get("hero2").initiative]).toEqual([7, 7, 7]);
    expect(w.foundry).toEqual({ round: 1, currentId: "villain" });
    expect(w.announcements.at(-1)?.title).toBe("CASE.Turn.Chat.OrderTitle");

    // Resolve: villain, hero1, hero2; then an extra round for hero1.
    await w.engine.completeAction("villain", 0);
    expect(w.foundry.currentId).toBe("hero1");
    const defence = await w.engine.recordDefence("hero2", "block", "card1:3:0:defence");
    expect(defence).toEqual({ penalty: 0, tookAction: false });
    expect(w.get("hero2").system.defencesUsed).toBe(1);
    // The same card step retried (the GM's tab closed before the card was written): counted once.
    const writes = w.writes.length;
    await w.engine.recordDefence("hero2", "block", "card1:3:0:defence");
    expect(w.get("hero2").system.defencesUsed).toBe(1);
    expect(w.writes).toHaveLength(writes);
    // The key rides in the same combatant write as the count.
    expect(w.writes.at(-1)?.write.combatants.find((c) => c._id === "hero2")?.flags).toEqual({ case: { defenceKeys: ["card1:3:0:defence"] } });
    await w.engine.completeAction("hero1", 0);
    await w.engine.completeAction("hero2", 0);
    expect(w.foundry.currentId).toBeNull();
    await w.engine.advance("resolve");
    expect(w.combat).toMatchObject({ phase: "extraRounds", round: 2 });
    expect(w.foundry.currentId).toBe("hero1");
    await w.engine.completeAction("hero1", 1);
    await w.engine.advance("extraRounds");
    expect(w.combat.phase).toBe("wrapUp");

    await w.engine.noteEvent("The lab's reactor hums louder");
    await w.engine.advance("wrapUp");
    expect(w.combat).toMatchObject({ phase: "declare", turnNumber: 2, order: [], events: [] });
    expect(w.foundry).toEqual({ round: 2, currentId: null });
    expect(w.get("hero2").system.defencesUsed).toBe(0);
    expect(w.get("hero1").system.declaration.declared).toBe(false);
    const wrap = w.announcements.at(-1);
    expect(wrap?.title).toBe("CASE.Turn.Chat.WrapUpTitle");
    expect(wrap?.lines.map((l) => l.key)).toEqual(["CASE.Turn.Chat.TurnEnds", "CASE.Turn.Chat.Event"]);
  });

  it("an identical second request writes nothing", async () => {
    const w = party();
    const decl = parseDeclaration({ text: "Punch" });
    await w.engine.declare("hero1", decl);
    const writes = w.writes.length;
    const again = await w.engine.declare("hero1", decl);
    expect(again.combatants).toEqual([]);
    expect(w.writes.length).toBe(writes);
  });

  it("a second advance from the same phase is stale and writes nothing", async () => {
    const w = party();
    await w.engine.advance("declare", true);
    const writes = w.writes.length;
    const error = await rejects(w.engine.advance("declare", true));
    expect(error).toBeInstanceOf(TurnError);
    expect((error as TurnError).code).toBe("stale");
    expect(w.writes.length).toBe(writes);
  });

  it("a change of action is rolled by the GM once; a replay rolls nothing", async () => {
    const w = party();
    await w.engine.advance("declare", true);
    w.dice.push(1); // the villain's initiative, rolled on entering the phase: 1 + 3 = 4
    await w.engine.advance("extraActions");
    w.dice.push(9, 1); // hero1 9 + 2 = 11, hero2 1 + 0 = 1
    await w.engine.rollInitiative(["hero1", "hero2"]);
    await w.engine.advance("initiative");
    w.dice.push(70); // Agy (bal) Rm for hero2: yellow from 66 → passes
    const answer = await w.engine.changeAction("hero2", parseDeclaration({ text: "Catch the girder", kind: "defence", defence: "catch" }), 0);
    expect(answer).toEqual({ roll: 70, color: "yellow", success: true });
    expect(w.get("hero2").system).toMatchObject({ nextActionCs: -1, changedAt: 0, declaration: { text: "Catch the girder" } });
    const again = await w.engine.changeAction("hero2", parseDeclaration({ text: "Catch the girder", kind: "defence", defence: "catch" }), 0);
    expect(again).toEqual({ roll: null, color: null, success: null });
    expect(w.dice).toEqual([]);
    expect(w.announcements.filter((a) => a.title === "CASE.Turn.Chat.ChangeTitle")).toHaveLength(1);
  });

  it("a dying character loses Endurance at wrap-up unless aided; aid and death reach the status effects", async () => {
    const w = party();
    // The exchange put Dying on the villain's character (its status effect is the truth).
    w.get("villain").conditions = { dying: true, aided: false, hold: "none" };
    w.dice.push(1, 1, 1);
    await w.engine.advance("declare", true);
    await w.engine.advance("extraActions");
    await w.engine.advance("initiative");
    await w.engine.advance("resolve", true);
    await w.engine.advance("wrapUp");
    const last = w.writes.at(-1)?.write;
    expect(last?.endurance).toEqual([{ combatantId: "villain", value: 20, dead: false }]);
    expect(w.get("villain").stats?.endurance).toBe(20);
    // Next turn: the Judge marks the villain aided; at wrap-up the loss stops and Dying comes off.
    await w.engine.setAided("villain", true);
    expect(w.get("villain").conditions).toEqual({ dying: true, aided: true, hold: "none" });
    w.dice.push(1, 1, 1);
    await w.engine.advance("declare", true);
    await w.engine.advance("extraActions");
    await w.engine.advance("initiative");
    await w.engine.advance("resolve", true);
    await w.engine.advance("wrapUp");
    expect(w.writes.at(-1)?.write.endurance).toEqual([]);
    expect(w.get("villain").conditions).toEqual({ dying: false, aided: false, hold: "none" });
  });

  async function wholeTurn(w: ReturnType<typeof party>): Promise<void> {
    w.dice.push(1, 1, 1);
    await w.engine.advance("declare", true);
    await w.engine.advance("extraActions");
    await w.engine.advance("initiative");
    await w.engine.advance("resolve", true);
    await w.engine.advance("wrapUp");
  }

  it("Kill-loss timing: a Kill in this turn (the Dying effect marked fresh) costs no rank at this wrap-up, one at the next; the setting brings it forward", async () => {
    const w = party();
    w.get("villain").conditions = { dying: true, aided: false, hold: "none", dyingFresh: true };
    await wholeTurn(w);
    expect(w.writes.at(-1)?.write.endurance).toEqual([]);
    expect(w.get("villain").conditions).toEqual({ dying: true, aided: false, hold: "none" });
    await wholeTurn(w);
    expect(w.writes.at(-1)?.write.endurance).toEqual([{ combatantId: "villain", value: 20, dead: false }]);

    const on = party();
    on.settings = { ...on.settings, killLossAtOwnWrapUp: true };
    on.get("villain").conditions = { dying: true, aided: false, hold: "none", dyingFresh: true };
    await wholeTurn(on);
    expect(on.writes.at(-1)?.write.endurance).toEqual([{ combatantId: "villain", value: 20, dead: false }]);
  });

  it("regeneration at wrap-up: a regenerating character's share of Health is written and announced, by the world's turns-per-rank setting", async () => {
    const w = party();
    const villain = w.get("villain");
    villain.stats = { ...(villain.stats ?? stats()), regeneration: 30 };
    await wholeTurn(w);
    expect(w.writes.at(-1)?.write.health).toEqual([{ combatantId: "villain", amount: regenerationPerTurn(30) }]);
    const summary = w.announcements.find((a) => a.title === "CASE.Turn.Chat.WrapUpTitle");
    expect(summary?.lines).toContainEqual({ key: "CASE.Turn.Chat.Regenerates", data: { name: "Doctor Dread", amount: 3 }, secret: expect.any(Boolean) as boolean });
    w.settings = { ...w.settings, regenerationTurns: 5 };
    await wholeTurn(w);
    expect(w.writes.at(-1)?.write.health).toEqual([{ combatantId: "villain", amount: 6 }]);
  });

  it("a stun reaches the character's Stunned status, and comes off when served", async () => {
    const w = party();
    await w.engine.applyStun("hero2", 1);
    expect(w.writes.at(-1)?.write.conditions).toEqual([{ combatantId: "hero2", stunned: { turns: 1, startsNextTurn: false } }]);
    w.dice.push(1, 1, 1); // initiative (the stunned roll too; they just do not act)
    await w.engine.advance("declare", true);
    await w.engine.advance("extraActions");
    await w.engine.advance("initiative");
    await w.engine.advance("resolve", true);
    await w.engine.advance("wrapUp");
    expect(w.writes.at(-1)?.write.conditions).toEqual([{ combatantId: "hero2", stunned: null }]);
  });

  it("hidden combatants' and NPCs' secrets are announced to the GM only", async () => {
    const w = party({ declaredDodge: true });
    w.get("hero2").hidden = true;
    await w.engine.declare("villain", parseDeclaration({ kind: "defence", defence: "dodge" }));
    await w.engine.advance("declare", true);
    w.dice.push(3);
    await w.engine.advance("extraActions");
    const npcInitiative = w.announcements.at(-1);
    expect(npcInitiative?.lines.map((l) => [l.data.name, l.secret])).toEqual([["Doctor Dread", false]]);
    w.dice.push(2, 9, 60); // hero1, hero2, then the villain's declared dodge (Agy (bal) Ty: yellow from 81 → 60 green, −2)
    await w.engine.advance("initiative");
    const rolls = w.announcements.find((a) => a.title === "CASE.Turn.Chat.InitiativeTitle" && a.lines.length === 2);
    expect(rolls?.lines.map((l) => [l.data.name, l.secret])).toEqual([
      ["Kestrel", false],
      ["Bulwark", true],
    ]);
    const dodge = w.announcements.find((a) => a.title === "CASE.Turn.Chat.DodgeTitle");
    expect(dodge?.lines).toEqual([{ key: "CASE.Turn.Chat.Dodge", data: { name: "Doctor Dread", roll: 60, color: "green", shift: -2 }, secret: true, die: { formula: "1d100", total: 60 } }]);
    expect(w.get("villain").system.dodge).toMatchObject({ declared: true, roll: 60, shift: -2 });
  });
});
