import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeActor} from "../../support/exchange-world";
import { ALICE, BOB, FakeMessage, GM, installWorld, type World, kestrelAndGravel } from "../../support/exchange-world";
import {
  applyDamageQuery,
  consequenceQuery,
  defendQuery,
  escapeQuery,
  pullQuery,
  rollToHitQuery,
  undoDamageQuery,
} from "../../../src/foundry/exchange/gm-actions";
import { createExchange, readExchangeForTest } from "../../support/exchange-fixtures";
import { statusId } from "../../../src/foundry/status-effects";
import { loadCard } from "../../../src/foundry/exchange/card-store";
import { NO_COMBAT } from "../../../src/foundry/combat/bridge";
import { resolveConsequence } from "../../../src/rules/index";
import { vi } from "vitest";
import type { ExchangeState } from "../../../src/rules/index";

const MESSAGE_ID = "msg0000000000001";

let world: World;
let hero: FakeActor; // Alice's
let villain: FakeActor; // the GM's
let message: FakeMessage;

function state(): ExchangeState {
  return readExchangeForTest(message.system.exchange);
}

function attack(options: Partial<Parameters<typeof createExchange>[0]> = {}): void {
  const exchange = createExchange({ attackerActor: villain, targetActor: hero, ...options });
  message = new FakeMessage(MESSAGE_ID, exchange);
  world.messages.set(MESSAGE_ID, message);
}

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("defending (case.defend)", () => {
  it("the defender's owner dodges; the GM reads the to-hit on the shifted column and writes the card once", async () => {
    attack({ attack: "BT" });
    // Dodge on Agy (bal) Remarkable: 66 is yellow (−4 CS). The GM's to-hit die: 70 on Agy (dex) Excellent (20) −4 CS = Feeble: green there.
    world.dice.push(66, 70); // the GM rolls the defence, then the to-hit
    const result = await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" });
    // Plain JSON: null, never undefined, so it reads the same after the wire.
    expect(result).toEqual({ ok: true, value: null });
    const t = state().targets[0];
    expect(t?.defence).toMatchObject({ code: "dodge", die: 66, color: "yellow", outcome: { attackCs: -4 } });
    expect(t?.toHit).toMatchObject({ die: 70, column: "feeble", color: "green", result: "hit" });
    expect(t?.phase).toBe("resolved");
    expect(message.updates).toHaveLength(1);
  });

  it("refuses a user who does not own the defender, and changes nothing", async () => {
    attack();
    const before = structuredClone(message.system);
    const result = await world.ask(defendQuery, BOB.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" });
    expect(result).toMatchObject({ ok: false, reason: "forbidden" });
    expect(message.system).toEqual(before);
    expect(message.updates).toHaveLength(0);
  });

  it.each([
    ["an unknown defence", { defence: "juggle" }],
    ["no defence named", {}],
    ["a defence that is not a string", { defence: 7 }],
    ["a bad message id", { defence: "dodge", messageId: "../../etc" }],
    ["a bad target key", { defence: "dodge", targetKey: "x" }],
  ])("refuses %s as malformed, and changes nothing", async (_what, extra) => {
    attack();
    const before = structuredClone(message.system);
    const result = await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", ...extra });
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
    expect(message.system).toEqual(before);
  });

  it("refuses a defence not valid against the attack (Block against Shooting)", async () => {
    attack({ attack: "Sh" });
    const result = await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "block" });
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
    expect(state().targets[0]?.phase).toBe("awaitingDefence");
  });

  it("a second click (a new request for what already happened) changes nothing", async () => {
    attack();
    world.dice.push(40);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" })).toMatchObject({ ok: true });
    const after = structuredClone(message.system);
    const again = await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    expect(again).toMatchObject({ ok: false, reason: "stale" });
    expect(message.system).toEqual(after);
    expect(message.updates).toHaveLength(1);
  });

  it("two defences clicked at once: one lands, the other is stale", async () => {
    attack({ attack: "BT" });
    world.dice.push(90, 40, 41);
    const [a, b] = await Promise.all([
      world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" }),
      world.ask(defendQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" }),
    ]);
    // Whichever reaches the card's lock first lands (the GM's own click runs in place; Alice's is claimed first).
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect(a.ok ? b : a).toMatchObject({ reason: "stale" });
    expect(state().targets[0]?.defence?.code).toBe(a.ok ? "dodge" : "none");
    expect(message.updates).toHaveLength(1);
  });

  it("a card that is gone, or not an attack, is refused", async () => {
    expect(await world.ask(defendQuery, ALICE.id, { messageId: "nomessage0000000", targetKey: "0", revision: 0, defence: "none" })).toMatchObject({ ok: false, reason: "stale" });
    attack();
    (message as unknown as { type: string }).type = "base";
    expect(await world.ask(defendQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", revision: 0, defence: "none" })).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("a grappler's full hold puts the Full Hold condition on the target", async () => {
    attack({ attack: "Gp" });
    // No defence; the to-hit die 99 on Str (mgt) Incredible is red: Full Hold.
    world.dice.push(99);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" })).toMatchObject({ ok: true });
    expect(state().targets[0]?.toHit?.result).toBe("fullHold");
    expect(hero.statuses.has(statusId("fullHold"))).toBe(true);
  });
});

describe("applying and undoing damage", () => {
  async function resolvedHit(): Promise<void> {
    attack({ attack: "BA", damage: 40 });
    world.dice.push(60); // Ftg (off) Incredible: 60 is green — a Hit.
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
  }

  it("the GM applies it: Health is set to the exact value; a second apply is stale and Health is unchanged", async () => {
    await resolvedHit();
    const health = hero.system.health.value;
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(health - 40);
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(hero.system.health.value).toBe(health - 40);
    // One write: the Health and its ledger entry together.
    expect(hero.updates).toHaveLength(1);
    expect(hero.updates[0]).toMatchObject({ "system.health.value": health - 40 });
  });

  it("undo restores Health exactly and voids the row: undone, not applied again (UNDO_VOIDS_THE_ROW)", async () => {
    await resolvedHit();
    const health = hero.system.health.value;
    await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(health);
    expect(state().targets[0]?.phase).toBe("undone");
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(hero.system.health.value).toBe(health);
  });

  it("a target's owner may apply only when the world allows owners to", async () => {
    await resolvedHit();
    expect(await world.ask(applyDamageQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "forbidden" });
    world.settings.set("case.damageAppliedBy", "owners");
    expect(await world.ask(applyDamageQuery, BOB.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await world.ask(applyDamageQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
  });

  it("Health reaching 0 adds a Kill? check; a white Kill? roll costs an Endurance rank and sets Dying", async () => {
    await resolvedHit();
    await hero.update({ "system.health.value": 30 });
    await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    expect(hero.system.health.value).toBe(0);
    const t = state().targets[0];
    expect(t?.consequences.map((c) => [c.check, c.cause])).toEqual([["kill", "health"]]);
    // Kill? on End (res) Remarkable: 10 is white — one Endurance rank lost (30 → 20).
    world.dice.push(10);
    expect(await world.ask(consequenceQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", check: "kill" })).toMatchObject({ ok: true });
    expect(hero.system.abilities.endurance.value).toBe(20);
    // The rank is recorded apart from the ability (so rest heals it back); the stored Endurance stays.
    expect(hero.system.lostEnduranceRanks).toBe(1);
    expect(hero.system.baseAbilities.endurance.value).toBe(30);
    expect(hero.statuses.has(statusId("dying"))).toBe(true);
    // Undo takes the whole hit back, the check's rank and Dying with it (UNDO_TAKES_BACK_CHECKS); once.
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(30);
    expect(hero.system.lostEnduranceRanks).toBe(0);
    expect(hero.statuses.has(statusId("dying"))).toBe(false);
    expect(state().targets[0]?.phase).toBe("undone");
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(hero.system.lostEnduranceRanks).toBe(0);
  });
});

describe("consequences, pulls, escapes and pending to-hit rolls", () => {
  it("a red Blunt Attack that gets through calls for Stun?; a green Stun? roll stuns for one turn", async () => {
    attack({ attack: "BA", damage: 40 });
    world.dice.push(95); // red on Incredible: Stun
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    expect(state().targets[0]?.toHit?.result).toBe("stun");
    await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    // Stun? on End (res) Remarkable: 40 is green — stunned 1 turn. Then the GM's d10 (unused for a one-turn stun).
    world.dice.push(40, 7);
    expect(await world.ask(consequenceQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", check: "stun" })).toMatchObject({ ok: true });
    expect(hero.statuses.has(statusId("stunned"))).toBe(true);
    const effect = hero.effects.find((e) => e.statuses.has(statusId("stunned")));
    expect(effect?.flags.case).toEqual({ turns: 1, startsNextTurn: false });
    expect(effect).toMatchObject({ name: "Stunned (1 turn)" });
    // Rolling it again is stale; someone else cannot roll it.
    expect(await world.ask(consequenceQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", check: "stun" })).toMatchObject({ ok: false, reason: "stale" });
    expect(await world.ask(consequenceQuery, BOB.id, { messageId: MESSAGE_ID, targetKey: "0", check: "stun" })).toMatchObject({ ok: false, reason: "forbidden" });
  });

  it("undo after checks: Undo takes the stun off, Stunned and the turn's stun, as it stood before the check", async () => {
    // The turn holds a 2-turn stun pending from before; the Stun? check records another.
    const turn = { turns: 0, pending: 2 };
    const restored: { turns: number; pending: number }[] = [];
    world.services.combat = {
      ...NO_COMBAT,
      recordStun: (_scope, _actor, turns) => {
        turn.turns = Math.max(turn.turns, turns);
        return Promise.resolve();
      },
      stunOf: () => Promise.resolve({ ...turn }),
      restoreStun: (_scope, _actor, before) => {
        restored.push({ ...before });
        Object.assign(turn, before);
        return Promise.resolve();
      },
    };
    attack({ attack: "BA", damage: 40 });
    world.dice.push(95);
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    world.dice.push(40, 7);
    expect(await world.ask(consequenceQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", check: "stun" })).toMatchObject({ ok: true });
    expect(turn).toEqual({ turns: 1, pending: 2 });
    expect(hero.statuses.has(statusId("stunned"))).toBe(true);
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(turn).toEqual({ turns: 0, pending: 2 });
    expect(restored).toEqual([{ turns: 0, pending: 2 }]);
    expect(hero.statuses.has(statusId("stunned"))).toBe(false);
    // The row is voided: no check left to roll.
    expect(state().targets[0]?.consequences).toEqual([]);
  });

  it("undo after checks: a card whose check was rolled before Undo kept its notes is refused, clearly, and nothing is written", async () => {
    attack({ attack: "BA", damage: 40 });
    world.dice.push(95);
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    // The Stun? rolled as an older version did: on the card, with no note on the GM's record.
    const rolled = resolveConsequence(state(), "0", { check: "stun", die: 40, d10: 7 });
    await message.update({ "system.exchange": rolled });
    const health = hero.system.health.value;
    const answer = await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" });
    expect(answer).toMatchObject({ ok: false, reason: "stale", message: expect.stringContaining("were rolled before Undo could take them back") as string });
    expect(hero.system.health.value).toBe(health);
    expect(state().targets[0]?.phase).toBe("applied");
  });

  it("only the attacker's side may pull, and only as the attack type allows", async () => {
    attack({ attack: "BA", damage: 40 });
    world.dice.push(95);
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    expect(await world.ask(pullQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", color: "green" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await world.ask(pullQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", color: "green" })).toMatchObject({ ok: true });
    expect(state().targets[0]?.toHit).toMatchObject({ color: "green", result: "hit", pulled: true });
    expect(state().targets[0]?.consequences).toEqual([]);
    expect(await world.ask(pullQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "malformed" });
    // A pull is final: pulling again (down to white) is refused.
    expect(await world.ask(pullQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", color: "white" })).toMatchObject({ ok: false, reason: "stale" });
    expect(state().targets[0]?.toHit).toMatchObject({ color: "green" });
  });

  it("an Edged Attack cannot be pulled", async () => {
    attack({ attack: "EA", damage: 20 });
    world.dice.push(60);
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    expect(await world.ask(pullQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0", damage: 5 })).toMatchObject({ ok: false, reason: "stale" });
  });

  it("a held target escapes: the hold condition is removed", async () => {
    attack({ attack: "Gp" });
    world.dice.push(99);
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    // A failed try (Str (mgt) Excellent: 20 is white).
    world.dice.push(20);
    expect(await world.ask(escapeQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(state().targets[0]?.escapes).toHaveLength(1);
    expect(hero.statuses.has(statusId("fullHold"))).toBe(true);
    // Outside a combat the next try may follow: 90 is yellow — escaped, and the hold's condition goes.
    world.dice.push(90);
    expect(await world.ask(escapeQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.statuses.has(statusId("fullHold"))).toBe(false);
    expect(await world.ask(escapeQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
  });

  it("blindsided targets: the attacker's side asks for the pending to-hit roll, once", async () => {
    attack({ attack: "BA", damage: 40, blindsided: true });
    expect(state().targets[0]?.phase).toBe("awaitingToHit");
    expect(await world.ask(rollToHitQuery, ALICE.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: false, reason: "forbidden" });
    world.dice.push(60);
    expect(await world.ask(rollToHitQuery, GM.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: true });
    expect(state().targets[0]?.phase).toBe("resolved");
    expect(await world.ask(rollToHitQuery, GM.id, { messageId: MESSAGE_ID })).toMatchObject({ ok: false, reason: "stale" });
  });
});

describe("an Evasion's bonus against the foe", () => {
  it("a red Evasion records +2 CS against the attacker; the defender's next attack on that foe gets it once", async () => {
    attack({ attack: "BA" });
    world.dice.push(97);
    // Evasion on Ftg (def) Remarkable: 97 is red — avoided, +2 CS on the next action against Gravel.
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "evasion" })).toMatchObject({ ok: true });
    expect(state().targets[0]?.defence?.outcome).toMatchObject({ avoided: true, bonusCs: 2 });
    const { foeBonus } = await import("../../../src/foundry/exchange/protection");
    expect(foeBonus(hero as unknown as Actor.Implementation, villain.uuid)).toBe(2);
    expect(foeBonus(hero as unknown as Actor.Implementation, "Actor.someoneElse00")).toBe(0);
  });

  it("a forged foe bonus counts for nothing: only the GM's noted grant gives +CS, once, and a flag re-added after use gives nothing", async () => {
    const { attackQuery } = await import("../../../src/foundry/exchange/make-attack");
    const { foeBonusKey } = await import("../../../src/foundry/exchange/gm-actions");
    // Foundry 13's deletion syntax (core/compat.ts), which the fake actor applies.
    (globalThis as unknown as { game: Record<string, unknown> }).game.release = { generation: 13 };
    const fists = { type: "weapon", name: "Fists", actor: hero, uuid: `${hero.uuid}.Item.fists00000000001`, documentName: "Item", system: { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    hero.items.push(fists);
    const path = `flags.case.foeBonus.${foeBonusKey(villain.uuid)}`;
    const foeLines = (): unknown[] => {
      const cards = [...world.messages.values()].filter((m) => m.type === "attack" && m.id !== MESSAGE_ID);
      return readExchangeForTest(cards.at(-1)?.system.exchange).toHitCs.filter((c) => c.label === "CASE.Exchange.FoeBonus");
    };
    const strike = () => world.ask(attackQuery, ALICE.id, { itemUuid: fists.uuid, targetUuids: [villain.uuid], input: {} });
    const cardLocks = async () => (await attackQuery.lockKeys(attackQuery.parse({ itemUuid: fists.uuid, targetUuids: [villain.uuid], input: {} }), world.services)).filter((k) => k.startsWith("card:"));
    // The player writes +60 CS on their own hero: no line, and the forged flag goes.
    await hero.update({ [path]: 60 });
    expect(await strike()).toMatchObject({ ok: true });
    expect(foeLines()).toEqual([]);
    // A forged pointer to a card with no grant note for it: nothing either.
    await hero.update({ [path]: { bonus: 2, card: MESSAGE_ID, nonce: "forgednonce00000" } });
    attack({ attack: "BA" });
    // Nor does it make the GM queue on that card's lock.
    expect(await cardLocks()).toEqual([]);
    expect(await strike()).toMatchObject({ ok: true });
    expect(foeLines()).toEqual([]);
    // The GM's grant (a red Evasion) gives +2 CS on the next attack on that foe.
    world.dice.push(97);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "evasion" })).toMatchObject({ ok: true });
    const granted: unknown = structuredClone((hero.flags as { case?: { foeBonus?: Record<string, unknown> } }).case?.foeBonus?.[foeBonusKey(villain.uuid)]);
    expect(granted).toMatchObject({ bonus: 2, card: MESSAGE_ID });
    // Raising the pointer's bonus is refused: the GM's note says 2.
    await hero.update({ [path]: { ...(granted as object), bonus: 60 } });
    expect(await strike()).toMatchObject({ ok: true });
    expect(foeLines()).toEqual([]);
    await hero.update({ [path]: granted });
    // The attack declares the granting card's lock: it notes the grant's use on that card's record.
    expect(await cardLocks()).toEqual([`card:${MESSAGE_ID}`]);
    expect(await strike()).toMatchObject({ ok: true });
    expect(foeLines()).toEqual([{ cs: 2, label: "CASE.Exchange.FoeBonus", localize: true }]);
    // Used: re-adding the same flag gives nothing.
    await hero.update({ [path]: granted });
    expect(await strike()).toMatchObject({ ok: true });
    expect(foeLines()).toEqual([]);
  });
});

describe("with a combat running (the turn's bridge)", () => {
  it("a declared dodge settles Dodge without a new roll and spends no defence; other defences are recorded with their code", async () => {
    const recorded: (string | undefined)[] = [];
    world.services.combat = {
      ...NO_COMBAT,
      recordDefence: (_scope, _actor, defence) => (recorded.push(defence), Promise.resolve()),
      declaredDodgeShift: () => Promise.resolve(-4),
    };
    try {
      world.settings.set("case.declaredDodge", true);
      attack({ attack: "BT" });
      world.dice.push(70); // the GM's to-hit: no defence die is rolled
      expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" })).toMatchObject({ ok: true });
      expect(state().targets[0]?.defence).toMatchObject({ code: "dodge", die: null, outcome: { attackCs: -4 } });
      expect(recorded).toEqual([]);
      // A Feint is a defence of its own: rolled, and recorded as a Feint (it takes the action).
      attack({ attack: "BT" });
      world.dice.push(10, 70);
      expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "feint" })).toMatchObject({ ok: true });
      expect(recorded).toEqual(["feint"]);
    } finally {
      world.services.combat = NO_COMBAT;
    }
  });

  it("the extra-defence penalty comes from the combatant's count: the third defence with 2 free is at −2 CS", async () => {
    world.services.combat = {
      ...NO_COMBAT,
      defencesUsed: () => Promise.resolve(2),
    };
    try {
      attack({ attack: "BT" });
      world.dice.push(66, 70);
      await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" });
      expect(state().targets[0]?.defence?.cs).toEqual([{ cs: -2, label: "CASE.Exchange.ExtraDefence", localize: true }]);
      // Remarkable −2 CS is Good: 66 is green there (46–75), so −2 CS on the attack instead of −4.
      expect(state().targets[0]?.defence).toMatchObject({ column: "good", color: "green", outcome: { attackCs: -2 } });
    } finally {
      world.services.combat = NO_COMBAT;
    }
  });
});

describe("a charge into armor", () => {
  it("applying the damage also applies the rebound to the charger; undo restores both", async () => {
    // Gravel charges Kestrel, who wears Good (10) body armor: 10 rebounds onto Gravel.
    attack({ attack: "Ch", damage: 40, targetArmor: 10 });
    world.dice.push(50); // End (res) Remarkable: 50 is green — a Hit
    await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "none" });
    expect(state().targets[0]?.damage).toMatchObject({ raw: 40, armor: 10, dealt: 30, rebound: 10 });
    const heroHealth = hero.system.health.value;
    const chargerHealth = villain.system.health.value;
    expect(await world.ask(applyDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(heroHealth - 30);
    expect(villain.system.health.value).toBe(chargerHealth - 10);
    // The charger is an NPC: its Health is on the GM's record, not on the public card.
    expect(state().targets[0]?.applied?.rebound).toEqual({ before: 0, after: 0 });
    expect(loadCard(MESSAGE_ID).state.targets[0]?.applied?.rebound).toEqual({ before: chargerHealth, after: chargerHealth - 10 });
    expect(await world.ask(undoDamageQuery, GM.id, { messageId: MESSAGE_ID, targetKey: "0" })).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(heroHealth);
    expect(villain.system.health.value).toBe(chargerHealth);
  });
});
