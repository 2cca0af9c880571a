/**
 * The Judge's "back one step" and "bulk declare" on the turn engine (combat-world.ts) and
 * through the real query router as the active GM receives them (gm-router.ts): a player may do
 * neither; the history is kept by the rules (rules/turn/history.ts) in the GM's record.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AskingUser, QueryDefinition } from "../../../src/foundry/requests/router";
import { NO_TURNS, gmRouter, type TestServices } from "../../support/gm-router";
import { advancePhaseQuery, completeActionQuery, declareActionQuery, declareManyQuery, repeatDeclarationsQuery, stepBackQuery } from "../../../src/foundry/combat/queries";
import { TURN_HISTORY_LIMIT, parseDeclaration } from "../../../src/rules/index";
import { turnWorld, worldCombatant, type TurnWorld } from "../../support/combat-world";
import { stats } from "../../support/turn-play";

const GM: AskingUser = { id: "gm00000000000000", isGM: true, active: true, name: "Judge" };
const ALICE: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
const USERS = new Map([GM, ALICE].map((u) => [u.id, u]));
const COMBAT = "combat0000000001";
const HERO = "hero000000000001";
const THUG1 = "thug000000000001";
const THUG2 = "thug000000000002";


let world: TurnWorld;
const gm = gmRouter(GM, USERS);
function ask<P, R>(query: QueryDefinition<P, R, TestServices>, user: AskingUser, payload: unknown) {
  // Everything crossing between clients goes through JSON, as Foundry's socket does.
  return gm.ask(query, user.id, JSON.parse(JSON.stringify(payload)) as unknown);
}

beforeEach(() => {
  world = turnWorld(
    [
      worldCombatant(HERO, stats({ initiativeModifier: 3 }), { name: "Kestrel", playerOwned: true, owners: [ALICE.id] }),
      worldCombatant(THUG1, stats(), { name: "Gravel Gang Bruiser" }),
      worldCombatant(THUG2, stats(), { name: "Gravel Gang Lookout" }),
    ],
    {},
    COMBAT,
  );
  gm.services.turns = {
    engine: (id) => (id === COMBAT ? world.engine : null),
    owns: (user, combatId, combatantId) => {
      if (combatId !== COMBAT) return null;
      const c = world.combatants.find((x) => x.id === combatantId);
      return c ? c.owners.includes(user.id) : null;
    },
    nameOf: (_combatId, id) => world.combatants.find((c) => c.id === id)?.name ?? id,
  };
});

afterEach(() => {
  gm.services.turns = NO_TURNS;
});

const jab = { text: "Jab", kind: "attack", attack: "BA", actions: 1 };
const swing = { text: "Swing the pipe at Kestrel's knees", kind: "attack", attack: "Sh", actions: 1 };

/** Declares everyone and walks to the resolve phase (dice: initiative for the thugs on entering, then Kestrel). */
async function toResolve(): Promise<void> {
  await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: jab });
  await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG1, declaration: swing }, { combatantId: THUG2, declaration: jab }] });
  await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare" });
  world.dice.push(4, 2);
  await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "extraActions" });
  world.dice.push(9);
  await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "initiative" });
}

describe("back one step", () => {
  it("back one step after a Done restores the turn before it, through the GM; a replay is stale", async () => {
    await toResolve();
    expect(world.combat.phase).toBe("resolve");
    const before = { combat: structuredClone(world.combat), hero: structuredClone(world.get(HERO).system) };
    expect(world.combat.order[0]).toBe(HERO);
    expect(await ask(completeActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, actionIndex: 0 })).toEqual({ ok: true, value: { changed: true } });
    expect(world.get(HERO).system.actionsUsed).toBe(1);
    const steps = world.history.length;
    expect(await ask(stepBackQuery, GM, { combatId: COMBAT, steps })).toEqual({ ok: true, value: { changed: true } });
    expect(world.combat).toEqual(before.combat);
    expect(world.get(HERO).system).toEqual(before.hero);
    expect(world.history).toHaveLength(steps - 1);
    // Foundry's current combatant follows the restored turn.
    expect(world.foundry.currentId).toBe(HERO);
    const writes = world.writes.length;
    expect(await ask(stepBackQuery, GM, { combatId: COMBAT, steps })).toMatchObject({ ok: false, reason: "stale" });
    expect(world.writes.length).toBe(writes);
  });

  it("back one step after an advance restores the phase before it, with the NPCs' secret declarations", async () => {
    await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: jab });
    await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG1, declaration: swing }, { combatantId: THUG2, declaration: jab }] });
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare" });
    world.dice.push(4, 2);
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "extraActions" });
    expect(world.combat.phase).toBe("initiative");
    expect(world.get(THUG1).system.initiative.total).not.toBeNull();
    await ask(stepBackQuery, GM, { combatId: COMBAT, steps: world.history.length });
    expect(world.combat.phase).toBe("extraActions");
    expect(world.get(THUG1).system.initiative.total).toBeNull();
    await ask(stepBackQuery, GM, { combatId: COMBAT, steps: world.history.length });
    expect(world.combat.phase).toBe("declare");
    expect(world.get(THUG1).system.declaration).toMatchObject({ declared: true, text: swing.text, secret: true });
    // The history lives in the GM's record (it holds secret declarations), never on the combat.
    expect(JSON.stringify(world.combat)).not.toContain("Swing the pipe");
    expect(await ask(stepBackQuery, GM, { combatId: COMBAT, steps: 0 })).toMatchObject({ ok: false, reason: "malformed" });
    expect(world.history).toHaveLength(0);
  });

  it("back one step: the engine keeps at most TURN_HISTORY_LIMIT steps", async () => {
    for (let turn = 0; turn < 4; turn++) {
      for (const from of ["declare", "extraActions", "initiative", "resolve", "extraRounds", "wrapUp"]) {
        if (world.combat.phase !== from) continue;
        world.dice.push(1, 2, 3, 4, 5, 6, 7, 8);
        await ask(advancePhaseQuery, GM, { combatId: COMBAT, from, force: true });
      }
    }
    expect(world.history.length).toBe(TURN_HISTORY_LIMIT);
  });

  it("a player cannot go back a step", async () => {
    await toResolve();
    const writes = world.writes.length;
    expect(await ask(stepBackQuery, ALICE, { combatId: COMBAT, steps: world.history.length })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(world.writes.length).toBe(writes);
  });
});

describe("bulk declare", () => {
  it("bulk declare: one request declares for every NPC, secret, in one write", async () => {
    const writes = world.writes.length;
    expect(await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG1, declaration: swing }, { combatantId: THUG2, declaration: jab }] })).toEqual({ ok: true, value: { changed: true } });
    expect(world.writes.length).toBe(writes + 1);
    expect(world.get(THUG1).system.declaration).toMatchObject({ declared: true, text: swing.text, secret: true });
    expect(world.get(THUG2).system.declaration).toMatchObject({ declared: true, text: "Jab", secret: true });
  });

  it("bulk declare: a player may not, and a bad entry refuses the whole request", async () => {
    expect(await ask(declareManyQuery, ALICE, { combatId: COMBAT, declarations: [{ combatantId: HERO, declaration: jab }] })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await ask(repeatDeclarationsQuery, ALICE, { combatId: COMBAT, combatantIds: [THUG1] })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG1, declaration: swing }, { combatantId: THUG2, declaration: { ...jab, actions: 9 } }] })).toMatchObject({ ok: false, reason: "malformed" });
    expect(await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG1, declaration: swing }, { combatantId: THUG1, declaration: jab }] })).toMatchObject({ ok: false, reason: "malformed" });
    expect(await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [] })).toMatchObject({ ok: false, reason: "malformed" });
    expect(world.writes).toEqual([]);
  });

  it("bulk declare: repeat last turn's declarations for the NPCs who have none yet", async () => {
    await toResolve();
    for (const from of ["resolve", "extraRounds", "wrapUp"]) if (world.combat.phase === from) await ask(advancePhaseQuery, GM, { combatId: COMBAT, from, force: true });
    expect(world.combat).toMatchObject({ phase: "declare", turnNumber: 2 });
    expect(world.get(THUG1).system.declaration.declared).toBe(false);
    await ask(declareManyQuery, GM, { combatId: COMBAT, declarations: [{ combatantId: THUG2, declaration: swing }] });
    expect(await ask(repeatDeclarationsQuery, GM, { combatId: COMBAT, combatantIds: [THUG1, THUG2] })).toEqual({ ok: true, value: { repeated: [THUG1] } });
    expect(world.get(THUG1).system.declaration).toMatchObject({ declared: true, text: swing.text, secret: true });
    // THUG2 had declared this turn already: left alone.
    expect(world.get(THUG2).system.declaration).toMatchObject({ text: swing.text });
  });
});

describe("minor foes grouped", () => {
  it("minor foe rule: a group of minor foes rolls one initiative and acts together; a group row declares once for all", async () => {
    const w = turnWorld(
      [
        worldCombatant(HERO, stats({ initiativeModifier: 3 }), { name: "Kestrel", playerOwned: true, owners: [ALICE.id] }),
        worldCombatant(THUG1, stats(), { name: "Gravel Gang Thug", minorGroup: "minor:thugActor" }),
        worldCombatant("boss000000000001", stats({ initiativeModifier: 1 }), { name: "Doctor Dread" }),
        worldCombatant(THUG2, stats(), { name: "Gravel Gang Thug", minorGroup: "minor:thugActor" }),
      ],
      {},
      COMBAT,
    );
    await w.engine.declareMany([THUG1, THUG2].map((combatantId) => ({ combatantId, declaration: parseDeclaration({ text: "Gang up on Kestrel" }) })));
    await w.engine.declare(HERO, parseDeclaration({ text: "Jab" }));
    await w.engine.declare("boss000000000001", parseDeclaration({ text: "Gloat" }));
    await w.engine.advance("declare");
    // Entering initiative rolls the NPCs' dice in tracker order: one for the whole group (2), one for Doctor Dread (9).
    w.dice.push(2, 9);
    await w.engine.advance("extraActions");
    expect(w.dice).toEqual([]);
    // The group's one roll is its leader's (the rules' team initiative): the other member acts on it.
    expect([w.get(THUG1).system.initiative.total, w.get(THUG2).system.initiative.total]).toEqual([2, null]);
    expect(w.get("boss000000000001").system.initiative.total).toBe(10);
    w.dice.push(5); // Kestrel
    await w.engine.advance("initiative");
    const order = w.combat.order;
    expect(Math.abs(order.indexOf(THUG1) - order.indexOf(THUG2))).toBe(1);
  });
});
