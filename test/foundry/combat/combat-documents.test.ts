/**
 * CaseCombat and CaseCombatant over the Combat/Combatant doubles (test/support/foundry-double.ts),
 * and the data models over the `foundry` double: declarations survive Foundry's startCombat(),
 * only the active GM writes, the tracker's sort follows the CASE order while resolving, and the
 * stored shapes the turn reads are the data models' own defaults.
 */
import "../../support/foundry-globals";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CombatDouble, CombatantDouble } from "../../support/foundry-double";
import { CaseCombatData } from "../../../src/foundry/data/combat/combat";
import { CaseCombatantData } from "../../../src/foundry/data/combat/combatant";
import { combatantSystemFrom, freshCombatSystem, freshCombatantSystem, type CombatSystemData } from "../../../src/foundry/combat/state";
import { createCombatantTurn, parseDeclaration, type CombatantStats } from "../../../src/rules/index";
import type * as DocumentsModule from "../../../src/foundry/documents/combat";
import type * as HostModule from "../../../src/foundry/combat/foundry-host";

let docs: typeof DocumentsModule;
let host: typeof HostModule;
const activeGM: { isSelf: boolean } | null = { isSelf: true };
let gm: { isSelf: boolean } | null = activeGM;

beforeAll(async () => {
  vi.stubGlobal("Combat", CombatDouble);
  vi.stubGlobal("Combatant", CombatantDouble);
  vi.stubGlobal("game", {
    users: {
      get activeGM() {
        return gm;
      },
    },
    settings: { get: (_ns: string, key: string) => ({ initiativeMode: "everyTurn", teamInitiative: false, declaredDodge: false })[key] },
    i18n: { localize: (k: string) => k, format: (k: string) => k },
    // No chat messages: no GM turn record here (secret declarations are tested on the strict table).
    messages: { find: () => undefined },
  });
  vi.stubGlobal("ui", { notifications: { warn: vi.fn(), error: vi.fn(), info: vi.fn() } });
  docs = await import("../../../src/foundry/documents/combat");
  host = await import("../../../src/foundry/combat/foundry-host");
});

afterAll(() => {
  vi.unstubAllGlobals();
});

const STATS: CombatantStats = { initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 };

function declared(text: string): Record<string, unknown> {
  return { ...combatantSystemFrom({ ...createCombatantTurn("x", STATS), declaration: parseDeclaration({ text }) }, "") };
}

type Combat = InstanceType<typeof DocumentsModule.CaseCombat>;

function combat(system: CombatSystemData = freshCombatSystem()): Combat & CombatDouble {
  const Case = docs.CaseCombat as unknown as new (id: string, system: Record<string, unknown>, combatants: CombatantDouble[]) => Combat & CombatDouble;
  const Member = docs.CaseCombatant as unknown as new (id: string, name: string, system: Record<string, unknown>, options?: object) => CombatantDouble;
  return new Case("combat0000000001", { ...system }, [
    new Member("a000000000000001", "Kestrel", declared("Punch the doctor"), { hasPlayerOwner: true }),
    new Member("b000000000000002", "Wren", declared("Throw a bin")),
    new Member("c000000000000003", "Doctor Dread", { ...freshCombatantSystem() }, { initiative: 9 }),
  ]);
}

describe("CaseCombat", () => {
  it("declarations made before the start survive Foundry's startCombat(); the GM takes the turn marker off (nobody acts yet)", async () => {
    gm = activeGM;
    const c = combat();
    await c.startCombat();
    expect(c.updates[0]).toEqual({ round: 1, turn: 0 }); // Foundry's own start
    expect(c.updates[1]).toEqual({ turn: null }); // the GM's sync: declare phase, nobody acting
    expect(c.round).toBe(1);
    expect(c.caseTurn.combat.phase).toBe("declare");
    expect(c.caseTurn.combatants.get("a000000000000001")?.declaration?.text).toBe("Punch the doctor");
    expect(c.caseTurn.combatants.get("b000000000000002")?.declaration?.text).toBe("Throw a bin");
  });

  it("a client that is not the active GM starts nothing of its own (Foundry's update only)", async () => {
    gm = { isSelf: false };
    const c = combat();
    await c.startCombat();
    expect(c.updates).toEqual([{ round: 1, turn: 0 }]);
    gm = null;
    expect(host.isTurnWriter()).toBe(false);
    gm = activeGM;
    expect(host.isTurnWriter()).toBe(true);
  });

  it("while resolving, the tracker sorts by the CASE order and Foundry's turn points at the one acting", async () => {
    gm = activeGM;
    const system: CombatSystemData = { ...freshCombatSystem(), phase: "resolve", round: 1, order: ["b000000000000002", "a000000000000001", "c000000000000003"], cursor: 1 };
    const c = combat(system);
    c.round = 1;
    const sorted = host.trackerOrder(c as unknown as Parameters<typeof host.trackerOrder>[0]).map((m) => m.name);
    expect(sorted).toEqual(["Wren", "Kestrel", "Doctor Dread"]);
    await c.syncFoundryTurn();
    expect(c.turn).toBe(1);
    // Outside resolve: Foundry's initiative value (highest first), then name.
    const declaring = combat();
    expect(host.trackerOrder(declaring as unknown as Parameters<typeof host.trackerOrder>[0]).map((m) => m.name)).toEqual(["Doctor Dread", "Kestrel", "Wren"]);
  });
});

describe("the data models' defaults are the turn's fresh state", () => {
  it("combat.system", () => {
    const model = new (CaseCombatData as unknown as new (s: object) => Record<string, unknown>)({});
    const { schemaVersion, ...rest } = model as unknown as CombatSystemData & { schemaVersion: number };
    expect(schemaVersion).toBe(1);
    expect(Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith("_") && k !== "parent"))).toEqual(freshCombatSystem());
  });

  it("combatant.system", () => {
    const model = new (CaseCombatantData as unknown as new (s: object) => Record<string, unknown>)({});
    const fresh = { ...freshCombatantSystem(), schemaVersion: 1 };
    expect(Object.fromEntries(Object.entries(model).filter(([k]) => !k.startsWith("_") && k !== "parent"))).toEqual(fresh);
  });
});
