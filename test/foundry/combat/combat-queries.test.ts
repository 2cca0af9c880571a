/**
 * The turn's queries (src/foundry/combat/queries.ts) as the active GM handles them from the
 * wire, through the real QueryRouter: owners only for a combatant's own steps, the Judge only
 * for the turn's, malformed payloads refused, replays and stale requests changing nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubI18nAndNotifications } from "../../support/foundry-stubs";
import type { AskingUser, QueryDefinition } from "../../../src/foundry/requests/router";
import { NO_TURNS, gmRouter, type TestServices } from "../../support/gm-router";
import {
  advancePhaseQuery,
  changeActionQuery,
  chooseExtraModeQuery,
  completeActionQuery,
  declareActionQuery,
  noteEventQuery,
  recordDefenceQuery,
  rollTurnInitiativeQuery,
  setAidedQuery,
  setConditionQuery,
  defineTurnQuery,
  markCombatantQuery,
  TURN_QUERIES,
  type CombatantMark,
} from "../../../src/foundry/combat/queries";
import type { LockScope } from "../../../src/foundry/requests/locks";
import { parseDeclaration } from "../../../src/rules/index";
import { turnWorld, worldCombatant, type TurnWorld } from "../../support/combat-world";
import { stats } from "../../support/turn-play";

const GM: AskingUser = { id: "gm00000000000000", isGM: true, active: true, name: "Judge" };
const ALICE: AskingUser = { id: "alice00000000000", isGM: false, active: true, name: "Alice" };
const BOB: AskingUser = { id: "bob0000000000000", isGM: false, active: true, name: "Bob" };
const USERS = new Map([GM, ALICE, BOB].map((u) => [u.id, u]));

const COMBAT = "combat0000000001";
const HERO = "hero000000000001";
const SIDEKICK = "hero000000000002";
const VILLAIN = "villain000000001";


let world: TurnWorld;
const gm = gmRouter(GM, USERS);

/** A request from `user` as it reaches the GM (the GM's own clicks run locally). */
function ask<P, R>(query: QueryDefinition<P, R, TestServices>, user: AskingUser, payload: unknown) {
  return gm.ask(query, user.id, payload);
}

beforeEach(() => {
  world = turnWorld(
    [
      worldCombatant(HERO, stats({ offence: 50, initiativeModifier: 3 }), { name: "Kestrel", playerOwned: true, owners: [ALICE.id] }),
      worldCombatant(SIDEKICK, stats(), { name: "Wren", playerOwned: true, owners: [BOB.id] }),
      worldCombatant(VILLAIN, stats({ initiativeModifier: 1 }), { name: "Doctor Dread" }),
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
  // A refusal's words are localised (lang/en.json), as the GM's client says them.
  stubI18nAndNotifications();
});

afterEach(() => {
  gm.services.turns = NO_TURNS;
  vi.unstubAllGlobals();
});

const punch = { text: "Punch the doctor", kind: "attack", attack: "BA", actions: 1 };

describe("a player's requests", () => {
  it("an owner declares for their combatant; the declaration is stored, open to all", async () => {
    expect(await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: punch })).toEqual({ ok: true, value: { changed: true } });
    expect(world.get(HERO).system.declaration).toMatchObject({ declared: true, text: "Punch the doctor", attack: "BA", secret: false });
  });

  it("refusals localised: a turn step failing with an error that names no text reads \"see the GM's console\", never its English", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const engine = world.engine;
    vi.spyOn(engine, "declare").mockRejectedValue(new RangeError("The stored turn is odd (developer's English)."));
    const result = await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: punch });
    expect(result).toMatchObject({ ok: false, reason: "malformed", error: { kind: "refusal", key: "unexpected", data: {} } });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("refuses a user who does not own the combatant's character, and changes nothing", async () => {
    const result = await ask(declareActionQuery, BOB, { combatId: COMBAT, combatantId: HERO, declaration: punch });
    expect(result).toMatchObject({ ok: false, reason: "forbidden" });
    expect(result.ok ? "" : result.message).toContain("Kestrel");
    expect(await ask(chooseExtraModeQuery, BOB, { combatId: COMBAT, combatantId: VILLAIN, mode: "flurry" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await ask(rollTurnInitiativeQuery, BOB, { combatId: COMBAT, combatantIds: [SIDEKICK, HERO] })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await ask(recordDefenceQuery, BOB, { combatId: COMBAT, combatantId: HERO, defence: "dodge" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(world.writes).toEqual([]);
  });

  it.each([
    ["a payload that is not an object", 42],
    ["a combat id that is not an id", { combatId: "x", combatantId: HERO, declaration: punch }],
    ["no combatant", { combatId: COMBAT, declaration: punch }],
    ["no declaration", { combatId: COMBAT, combatantId: HERO }],
    ["a declaration that is a string", { combatId: COMBAT, combatantId: HERO, declaration: "punch" }],
    ["an unknown kind", { combatId: COMBAT, combatantId: HERO, declaration: { ...punch, kind: "dance" } }],
    ["nine actions", { combatId: COMBAT, combatantId: HERO, declaration: { ...punch, actions: 9 } }],
    ["negative actions", { combatId: COMBAT, combatantId: HERO, declaration: { ...punch, actions: -1 } }],
    ["a text too long", { combatId: COMBAT, combatantId: HERO, declaration: { ...punch, text: "x".repeat(501) } }],
  ])("refuses %s as malformed", async (_what, payload) => {
    expect(await ask(declareActionQuery, ALICE, payload)).toMatchObject({ ok: false, reason: "malformed" });
    expect(world.writes).toEqual([]);
  });

  it.each([
    ["chooseExtraMode", chooseExtraModeQuery, { combatId: COMBAT, combatantId: HERO, mode: "both" }],
    ["completeAction", completeActionQuery, { combatId: COMBAT, combatantId: HERO, actionIndex: -1 }],
    ["completeAction", completeActionQuery, { combatId: COMBAT, combatantId: HERO }],
    ["rollTurnInitiative", rollTurnInitiativeQuery, { combatId: COMBAT, combatantIds: [] }],
    ["rollTurnInitiative", rollTurnInitiativeQuery, { combatId: COMBAT, combatantIds: ["<script>"] }],
    ["recordDefence", recordDefenceQuery, { combatId: COMBAT, combatantId: HERO, defence: "parry" }],
    ["changeAction", changeActionQuery, { combatId: COMBAT, combatantId: HERO, declaration: punch }],
  ] as [string, QueryDefinition<unknown, unknown>, unknown][])("refuses a malformed %s: %j", async (_name, query, payload) => {
    expect(await ask(query, ALICE, payload)).toMatchObject({ ok: false, reason: "malformed" });
    expect(world.writes).toEqual([]);
  });

  it("an identical second request changes nothing", async () => {
    await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: punch });
    const writes = world.writes.length;
    expect(await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: punch })).toEqual({ ok: true, value: { changed: false } });
    expect(world.writes.length).toBe(writes);
  });

  it("a player cannot set their declaration secret (only NPCs' are)", async () => {
    await ask(declareActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, declaration: { ...punch, secret: true } });
    expect(world.get(HERO).system.declaration.secret).toBe(false);
  });

  it("finishing an action: only the one acting, once", async () => {
    world.dice.push(5); // the villain's initiative, on entering the phase: 5 + 1
    expect(await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare", force: true })).toMatchObject({ ok: true });
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "extraActions" });
    world.dice.push(9, 1); // Kestrel 9 + 3, Wren 1
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "initiative" });
    expect(world.combat.order).toEqual([HERO, VILLAIN, SIDEKICK]);
    const notYet = await ask(completeActionQuery, BOB, { combatId: COMBAT, combatantId: SIDEKICK, actionIndex: 0 });
    expect(notYet).toMatchObject({ ok: false, reason: "forbidden" });
    // The refusal names combatants by name, not by id.
    expect(notYet.ok ? "" : notYet.message).toBe("It is Kestrel's action, not Wren's.");
    expect(await ask(completeActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, actionIndex: 0 })).toEqual({ ok: true, value: { changed: true } });
    // A replay of the same click (same action index) changes nothing.
    const writes = world.writes.length;
    expect(await ask(completeActionQuery, ALICE, { combatId: COMBAT, combatantId: HERO, actionIndex: 0 })).toEqual({ ok: true, value: { changed: false } });
    expect(world.writes.length).toBe(writes);
  });

  it("a defence recorded through the GM answers its penalty (0 free, then −2 CS cumulative)", async () => {
    world.dice.push(5);
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare", force: true });
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "extraActions" });
    world.dice.push(9, 1);
    await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "initiative" });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await ask(recordDefenceQuery, BOB, { combatId: COMBAT, combatantId: SIDEKICK, defence: "block" }));
    expect(answers.map((a) => (a.ok ? (a.value as { penalty: number }).penalty : null))).toEqual([0, -2, -4]);
  });
});

describe("the Judge's requests", () => {
  it("players may not run the turn", async () => {
    for (const [query, payload] of [
      [advancePhaseQuery, { combatId: COMBAT, from: "declare" }],
      [setAidedQuery, { combatId: COMBAT, combatantId: HERO, aided: true }],
      [noteEventQuery, { combatId: COMBAT, text: "Boom" }],
      [setConditionQuery, { combatId: COMBAT, combatantId: VILLAIN, condition: "stun", turns: 2 }],
    ] as [QueryDefinition<unknown, unknown>, unknown][]) {
      expect(await ask(query, ALICE, payload)).toMatchObject({ ok: false, reason: "forbidden" });
    }
    expect(world.writes).toEqual([]);
  });

  it("advancing twice from the same phase: the second is stale and changes nothing", async () => {
    expect(await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare", force: true })).toEqual({ ok: true, value: { changed: true } });
    const writes = world.writes.length;
    expect(await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare", force: true })).toMatchObject({ ok: false, reason: "stale" });
    expect(world.writes.length).toBe(writes);
  });

  it("advancing while someone has not declared is refused until forced", async () => {
    const result = await ask(advancePhaseQuery, GM, { combatId: COMBAT, from: "declare" });
    expect(result).toMatchObject({ ok: false, reason: "forbidden" });
    expect(result.ok ? "" : result.message).toContain("Kestrel (declaration)");
  });

  it("conditions: a stun, a hold, dying", async () => {
    expect(await ask(setConditionQuery, GM, { combatId: COMBAT, combatantId: VILLAIN, condition: "stun", turns: 3 })).toMatchObject({ ok: true });
    expect(world.get(VILLAIN).system.stunTurns).toBe(3);
    expect(await ask(setConditionQuery, GM, { combatId: COMBAT, combatantId: HERO, condition: "hold", hold: "partialHold" })).toMatchObject({ ok: true });
    expect(world.get(HERO).conditions?.hold).toBe("partialHold");
    expect(await ask(setConditionQuery, GM, { combatId: COMBAT, combatantId: SIDEKICK, condition: "dying" })).toMatchObject({ ok: true });
    expect(world.get(SIDEKICK).conditions?.dying).toBe(true);
    expect(await ask(setConditionQuery, GM, { combatId: COMBAT, combatantId: SIDEKICK, condition: "stun", turns: 11 })).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("a combat that is gone is stale", async () => {
    expect(await ask(advancePhaseQuery, GM, { combatId: "gone000000000000", from: "declare" })).toMatchObject({ ok: false, reason: "stale" });
  });
});

describe("registration", () => {
  it("registers every turn query once, under its own name", () => {
    const names: string[] = [];
    for (const q of TURN_QUERIES) names.push(q.name);
    expect(names).toEqual([
      "declareAction",
      "chooseExtraMode",
      "rollTurnInitiative",
      "completeAction",
      "changeAction",
      "recordDefence",
      "advancePhase",
      "setAided",
      "firstAid",
      "noteEvent",
      "setTurnCondition",
      "declareMany",
      "repeatDeclarations",
      "stepBack",
      "markCombatant",
    ]);
  });
});

describe("one home: the owner-checked turn query", () => {
  /** A query of the one shape: the named combatant's owners (or the Judge) declare a punch. */
  const ownedNote = defineTurnQuery({
    name: "ownedPunch",
    parse: (raw: unknown) => raw as { combatId: string; combatantId: string },
    owners: (p) => [p.combatantId],
    run: async (engine, p, _services, scope: LockScope) => {
      await engine.declare(p.combatantId, parseDeclaration(punch));
      return { locks: scope.keys };
    },
  });
  const judgeNote = defineTurnQuery({
    name: "judgeAdvance",
    parse: (raw: unknown) => raw as { combatId: string },
    run: async (engine) => {
      await engine.advance("declare", true);
      return { noted: true };
    },
  });

  it("locks the combat, lets the owner and the Judge ask and refuses anyone else, without a write", async () => {
    gm.services.turns = { ...gm.services.turns, actorLocks: () => ["actor:Actor.kestrel"] };
    expect(ownedNote.lockKeys({ combatId: COMBAT, combatantId: HERO }, gm.services)).toEqual([`combat:${COMBAT}`, "actor:Actor.kestrel"]);
    expect(await ask(ownedNote, BOB, { combatId: COMBAT, combatantId: HERO })).toEqual({ ok: false, reason: "forbidden", message: 'notYourCombatant {"name":"Kestrel"}', error: { kind: "refusal", key: "notYourCombatant", data: { name: "Kestrel" } } });
    expect(world.writes).toHaveLength(0);
    expect(await ask(ownedNote, ALICE, { combatId: COMBAT, combatantId: HERO })).toEqual({ ok: true, value: { locks: ["actor:Actor.kestrel", `combat:${COMBAT}`] } });
    expect(world.writes).toHaveLength(1);
    expect(await ask(ownedNote, GM, { combatId: COMBAT, combatantId: SIDEKICK })).toMatchObject({ ok: true });
    expect(await ask(ownedNote, ALICE, { combatId: COMBAT, combatantId: "gone000000000000" })).toMatchObject({ ok: false, reason: "stale" });
  });

  it("without owners only the Judge asks; a combat that is gone is stale", async () => {
    expect(await ask(judgeNote, ALICE, { combatId: COMBAT })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await ask(judgeNote, GM, { combatId: COMBAT })).toMatchObject({ ok: true, value: { noted: true } });
    expect(await ask(judgeNote, GM, { combatId: "gone000000000000" })).toMatchObject({ ok: false, reason: "stale" });
  });
});

describe("the tracker's Hide and Defeated toggles through the router", () => {
  const marks: [string, CombatantMark, boolean, string[]][] = [];
  beforeEach(() => {
    marks.length = 0;
    gm.services.turns = {
      ...gm.services.turns,
      mark: (scope, _combatId, combatantId, mark, on) => {
        marks.push([combatantId, mark, on, [...scope.keys]]);
        return Promise.resolve(world.combatants.some((c) => c.id === combatantId));
      },
    };
  });

  it("the Judge's mark is written by the active GM under the combat's lock; a player's is refused", async () => {
    expect(await ask(markCombatantQuery, GM, { combatId: COMBAT, combatantId: VILLAIN, mark: "hidden", on: true })).toEqual({ ok: true, value: { changed: true } });
    expect(await ask(markCombatantQuery, GM, { combatId: COMBAT, combatantId: HERO, mark: "defeated", on: false })).toMatchObject({ ok: true });
    expect(marks).toEqual([
      [VILLAIN, "hidden", true, [`combat:${COMBAT}`]],
      [HERO, "defeated", false, [`combat:${COMBAT}`]],
    ]);
    expect(await ask(markCombatantQuery, ALICE, { combatId: COMBAT, combatantId: HERO, mark: "defeated", on: true })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(marks).toHaveLength(2);
  });

  it("refuses a bad mark or state, and a combatant that is gone is stale", async () => {
    expect(await ask(markCombatantQuery, GM, { combatId: COMBAT, combatantId: HERO, mark: "invisible", on: true })).toMatchObject({ ok: false, reason: "malformed" });
    expect(await ask(markCombatantQuery, GM, { combatId: COMBAT, combatantId: HERO, mark: "hidden", on: "yes" })).toMatchObject({ ok: false, reason: "malformed" });
    expect(await ask(markCombatantQuery, GM, { combatId: COMBAT, combatantId: "gone000000000000", mark: "hidden", on: true })).toMatchObject({ ok: false, reason: "stale" });
  });
});
