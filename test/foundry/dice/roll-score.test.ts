/**
 * A plain ability roll (the sheet's roll buttons) through the real rollScore → CaseRoll path:
 * its check carries the talents and the conditions that apply, and it posts one card.
 */
import "../../support/foundry-globals";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, characterSource, installWorld } from "../../support/exchange-world";
import { statusId } from "../../../src/foundry/status-effects";
import { NO_COMBAT, type CombatBridge } from "../../../src/foundry/combat/bridge";
import { createCombatantTurn, createTurnState, type CombatantTurn } from "../../../src/rules/index";

/** A combatant's standing in a running turn, as the bridge reads it from the combat. */
function standing(over: Partial<CombatantTurn>): CombatBridge["standing"] {
  const combatant = { ...createCombatantTurn("cbt0000000000001", { initiativeModifier: 0, offence: 30, balance: 30, freeDefences: 1, endurance: 30 }), ...over };
  return () => Promise.resolve({ combatId: "combat0000000001", combatantId: combatant.id, state: createTurnState([combatant]), combatant });
}

interface Posted {
  options: { case?: { shifts: { cs: number; label: string }[]; value: number } };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

let world: ReturnType<typeof installWorld>;

async function rollFor(actor: FakeActor, combat: Partial<CombatBridge> = {}) {
  world = installWorld();
  world.services.combat = { ...NO_COMBAT, ...combat };
  const posted: Posted[] = [];
  // A Roll base that keeps its options and records the card it would post.
  vi.stubGlobal(
    "Roll",
    class {
      total = 55;
      _evaluated = false;
      constructor(
        readonly formula: string,
        readonly data: object,
        readonly options: Posted["options"],
      ) {}
      evaluate() {
        this._evaluated = true;
        return Promise.resolve(this);
      }
      toMessage() {
        posted.push({ options: this.options });
        return Promise.resolve();
      }
    },
  );
  vi.stubGlobal("ChatMessage", { getSpeaker: () => ({}) });
  const { rollScore } = await import("../../../src/foundry/dice/entry-points");
  await rollScore(actor as unknown as Actor.Implementation, "agility.dex", { skipDialog: true });
  return posted;
}

describe("rolling an ability", () => {
  it("a held hero's roll carries the hold's −2 CS and its talent, named on the card", async () => {
    const hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    hero.items.push({ type: "talent", name: "Marksman", system: { covers: ["agility.dex"], doubled: false } });
    await hero.toggleStatusEffect(statusId("partialHold"), { active: true });
    const posted = await rollFor(hero);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.options.case?.value).toBe(30);
    expect(posted[0]?.options.case?.shifts).toEqual([
      { cs: 1, label: "Marksman", localize: false },
      { cs: -2, label: "CASE.Status.partialHold", localize: true },
    ]);
  });

  it("in a running combat a declared dodger's FEAT carries the dodge's −2 CS, named on the card; outside one, nothing", async () => {
    const hero = new FakeActor("hero000000000003", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    const posted = await rollFor(hero, { standing: standing({ dodge: { roll: 60, color: "yellow", shift: -4 } }) });
    expect(posted[0]?.options.case?.shifts).toEqual([{ cs: -2, label: "CASE.TurnShift.declaredDodge", localize: true }]);
  });

  it("a stunned hero's FEAT is not rolled: the player is told why", async () => {
    const hero = new FakeActor("hero000000000004", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    const posted = await rollFor(hero, { standing: standing({ stunTurns: 1 }) });
    expect(posted).toEqual([]);
    expect(world.notifications.warn).toHaveBeenCalledWith("Kestrel cannot act: Stunned.");
  });

  it("a free hero's roll has no condition shift", async () => {
    const hero = new FakeActor("hero000000000002", "Wren", "hero", characterSource({ agility: 20 }), [ALICE.id]);
    const posted = await rollFor(hero);
    expect(posted[0]?.options.case?.shifts).toEqual([]);
  });
});
