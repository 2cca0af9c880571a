/**
 * Active Effects on characters, through the real CaseActor, CaseActiveEffect and character data
 * model, prepared in Foundry's order by test/support/effects-double.ts (base data, embedded
 * documents ending in applyActiveEffects, derived data; item effects applied from the item
 * while `transfer`, as with CONFIG.ActiveEffect.legacyTransferral false). Also the Endurance
 * ranks lost to Kill results, which lower Endurance and everything derived from it.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODES, V14_WARNINGS, installEffectsDouble, useEffectsGeneration, type ActiveEffectDouble, type ActorDouble, type EffectSource } from "../../support/effects-double";
import { effectiveEndurance, health as healthMaxOf, rankOf, DEFAULT_RECOVERY_RULINGS, RANKS, type CharacterStats } from "../../../src/rules/index";
import type { EffectProblem } from "../../../src/foundry/data/actor/effect-changes";
import { restOutcome } from "../../../src/foundry/actor-writes";
import { vi } from "vitest";
import { stubI18nAndNotifications, stubI18nOverriding } from "../../support/foundry-stubs";
import { localize } from "../../support/handlebars";

type Data = Record<string, unknown>;

interface PreparedSystem {
  abilities: Record<string, Record<string, number | null>>;
  baseAbilities: Record<string, Record<string, number | null>>;
  stats: CharacterStats;
  health: { value: number; max: number };
  karma: { value: number; max: number };
  initiative: number;
  thrownRange: number | "sight";
  popularity: number;
  lostEnduranceRanks: number;
  effectProtection: { physical: number; energy: number };
  effectProblems: EffectProblem[];
  endurance: { beforeLoss: number; lost: number; value: number; dead: boolean };
}

interface CharacterDouble extends ActorDouble {
  system: ActorDouble["system"] & PreparedSystem;
}

let CaseActor: new (source: Data) => CharacterDouble;

beforeAll(async () => {
  installEffectsDouble();
  stubI18nAndNotifications({ user: { id: "gm" } });
  const { CaseActiveEffect } = await import("../../../src/foundry/documents/active-effect");
  // CONFIG.ActiveEffect.documentClass: the documents are built with the system's class.
  vi.stubGlobal("ActiveEffect", CaseActiveEffect);
  CaseActor = (await import("../../../src/foundry/documents/actor")).CaseActor as unknown as typeof CaseActor;
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** Typical 6 everywhere, Strength Good 10, Endurance Remarkable 30, Intuition Good 10. */
function abilities(): Data {
  return {
    fighting: { value: 6, off: null, def: null },
    agility: { value: 6, dex: null, bal: null },
    strength: { value: 10, mgt: null, vgr: null },
    endurance: { value: 30, res: null, sta: null },
    reason: { value: 6 },
    intuition: { value: 10 },
    psyche: { value: 6 },
  };
}

function effect(id: string, name: string, changes: EffectSource["changes"], extra: Partial<EffectSource> = {}): EffectSource {
  return { _id: id, name, changes, transfer: true, ...extra };
}

const superStrength = (rank: number, active = true, effects: EffectSource[] = [effect("ss", "Super Strength", [{ key: "system.abilities.strength.value", mode: MODES.UPGRADE, value: "@rank" }])]): Data => ({
  _id: "power",
  name: "Super Strength",
  type: "power",
  system: { category: "physicalEnhancement", rank, active },
  effects,
});

function hero(items: Data[] = [], effects: EffectSource[] = [], system: Data = {}): CharacterDouble {
  return new CaseActor({ _id: "hero", name: "Mountainside", type: "hero", system: { abilities: abilities(), health: { value: 40 }, karma: { value: 10 }, ...system }, items, effects });
}

describe("active effect: applied between base and derived data, in Foundry's order", () => {
  it("prepares base data, then embedded documents and effects, then derived data", () => {
    expect(hero().steps).toEqual(["base", "embedded", "effects", "derived"]);
  });

  it("an active effect on an active Super Strength power makes Strength its rank; Health, thrown range and running speed follow", () => {
    const plain = hero();
    const strong = hero([superStrength(75)]);
    expect(plain.system.stats.scores.strength).toBe(10);
    expect(strong.system.stats.scores.strength).toBe(75);
    // Sub-scores that follow their ability follow the changed ability.
    expect(strong.system.stats.scores["strength.mgt"]).toBe(75);
    expect(strong.system.stats.scores["strength.vgr"]).toBe(75);
    // Health = F + A + S + E rank numbers (§3), from the changed Strength.
    expect(strong.system.health.max).toBe(6 + 6 + 75 + 30);
    expect(strong.system.health.max).toBe(healthMaxOf({ fighting: 6, agility: 6, strength: 75, endurance: 30 }));
    expect(strong.system.thrownRange).not.toEqual(plain.system.thrownRange);
    expect(strong.system.stats.runningSpeed).toBeGreaterThan(plain.system.stats.runningSpeed);
    // What the sheet's inputs edit stays the stored number.
    expect(strong.system.baseAbilities.strength?.value).toBe(10);
    expect(strong._source).toMatchObject({ system: { abilities: { strength: { value: 10 } } } });
  });

  it("an active effect follows the power's rank (@rank) and is suppressed while the power is off", () => {
    const actor = hero([superStrength(30)]);
    expect(actor.system.stats.scores.strength).toBe(30);
    const power = actor.items.get("power");
    power?.updateSystem("rank", 50);
    expect(actor.system.stats.scores.strength).toBe(50);
    power?.updateSystem("active", false);
    expect(power?.effects.get("ss")?.isSuppressed).toBe(true);
    expect(power?.effects.get("ss")?.active).toBe(false);
    expect(actor.system.stats.scores.strength).toBe(10);
  });

  it("an active effect on armor or a weapon applies only while it is equipped", () => {
    const armor = { _id: "suit", name: "Power Suit", type: "armor", system: { physical: 20, energy: 10, equipped: true }, effects: [effect("suit-str", "Servos", [{ key: "system.abilities.strength.value", mode: MODES.ADD, value: "10" }])] };
    const actor = hero([armor]);
    expect(actor.system.stats.scores.strength).toBe(20);
    actor.items.get("suit")?.updateSystem("equipped", false);
    expect(actor.system.stats.scores.strength).toBe(10);
  });

  it("an active effect switched off (disabled) stops applying; switched on it applies again", async () => {
    const actor = hero([], [effect("focus", "Battle focus", [{ key: "system.abilities.intuition.value", mode: MODES.OVERRIDE, value: "Incredible" }], { transfer: false })]);
    expect(actor.system.stats.scores.intuition).toBe(40);
    const initiativeAt40 = actor.system.initiative;
    await actor.effects.get("focus")?.update({ disabled: true });
    expect(actor.system.stats.scores.intuition).toBe(10);
    expect(actor.system.initiative).not.toBe(initiativeAt40);
    await actor.effects.get("focus")?.update({ disabled: false });
    expect(actor.system.initiative).toBe(initiativeAt40);
  });

  it("an active effect on a sub-score sets it apart; Karma and initiative follow mental changes", () => {
    const actor = hero([], [
      effect("aim", "Targeting visor", [{ key: "system.abilities.agility.dex", mode: MODES.ADD, value: "14" }]),
      effect("calm", "Calm", [{ key: "system.abilities.psyche.value", mode: MODES.UPGRADE, value: "remarkable" }]),
    ]);
    expect(actor.system.stats.scores["agility.dex"]).toBe(20);
    expect(actor.system.stats.setApart["agility.dex"]).toBe(true);
    expect(actor.system.stats.scores["agility.bal"]).toBe(6);
    expect(actor.system.karma.max).toBe(6 + 10 + 30);
  });

  it("an active effect applied twice in one preparation (v14 applies effects in phases) adds once", () => {
    const actor = hero([], [effect("plus", "Boost", [{ key: "system.abilities.fighting.value", mode: MODES.ADD, value: "4" }])]);
    (actor as unknown as { applyActiveEffects(): void }).applyActiveEffects();
    actor.prepareDerivedData();
    expect(actor.system.stats.scores.fighting).toBe(10);
  });

  it("keys CASE does not read are left to Foundry's own arithmetic; CASE keys are never applied by it", () => {
    const actor = hero([], [
      effect("fame", "Famous", [{ key: "system.popularity", mode: MODES.ADD, value: "5" }]),
      effect("str", "Strong", [{ key: "system.abilities.strength.value", mode: MODES.ADD, value: "10" }]),
    ], { popularity: 3 });
    expect(actor.system.popularity).toBe(8);
    // Applied once (by the rules), not twice (Foundry's pass skipped it).
    expect(actor.system.stats.scores.strength).toBe(20);
  });
});

describe("active effect: bad change values are refused with a reason, never guessed", () => {
  it("a rank of −3, a word, a multiply and an unknown key are refused; the good change beside them still applies", () => {
    const actor = hero([], [
      effect("bad", "Cursed amulet", [
        { key: "system.abilities.fighting.value", mode: MODES.OVERRIDE, value: "-3" },
        { key: "system.abilities.agility.value", mode: MODES.ADD, value: "lots" },
        { key: "system.abilities.reason.value", mode: MODES.MULTIPLY, value: "2" },
        { key: "system.abilities.luck.value", mode: MODES.ADD, value: "1" },
        { key: "system.abilities.strength.value", mode: MODES.ADD, value: "10" },
      ]),
    ]);
    const reasons = actor.system.effectProblems.map((p) => [p.key, p.reason]);
    expect(reasons).toEqual([
      ["system.abilities.fighting.value", "CASE.Effects.Problem.Value"],
      ["system.abilities.agility.value", "CASE.Effects.Problem.Value"],
      ["system.abilities.reason.value", "CASE.Effects.Problem.Mode"],
      ["system.abilities.luck.value", "CASE.Effects.Problem.Key"],
    ]);
    expect(actor.system.effectProblems[0]?.detail).toMatch(/-3/);
    expect(actor.system.effectProblems[1]?.detail).toMatch(/"lots"/);
    expect(actor.system.stats.scores.fighting).toBe(6);
    expect(actor.system.stats.scores.agility).toBe(6);
    expect(actor.system.stats.scores.reason).toBe(6);
    expect(actor.system.stats.scores.strength).toBe(20);
    for (const value of Object.values(actor.system.stats.scores)) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
  });

  it("rules errors localised: the warning of a refused change gives the rules' reason in en.json's words", async () => {
    const actor = hero([], [effect("bad", "Cursed amulet", [])]);
    const notifications = stubI18nOverriding({ "CASE.RulesError.nthNotWholeAtLeast": "{field} #{n} BELOW {min}: {got}", "CASE.RulesField.scoreChangeValue": "VALUE" }, { user: { id: "alice" } });
    await actor.effects.get("bad")?.update({ changes: [{ key: "system.abilities.fighting.value", mode: MODES.OVERRIDE, value: "-3" }] }, "alice");
    expect(notifications.warn).toHaveBeenCalledWith(localize("CASE.Effects.RefusedWarning", { name: "Cursed amulet", detail: "VALUE #1 BELOW 0: -3" }));
  });

  it("rules errors localised: the warning of a change with an unknown key or a multiply gives its reason in the reader's words (the field by its name), never the English detail", async () => {
    const actor = hero([], [effect("bad", "Cursed amulet", [])]);
    const texts = { "CASE.Effects.Problem.Key": "FELD UNBEKANNT", "CASE.Effects.Problem.Mode": "MODUS FALSCH für {key}", "CASE.Effects.RefusedWarning": "{name}: {detail}" };
    const notifications = stubI18nOverriding(texts, { user: { id: "alice" } });
    await actor.effects.get("bad")?.update({ changes: [{ key: "system.abilities.nonsense.value", mode: MODES.ADD, value: "1" }] }, "alice");
    await actor.effects.get("bad")?.update({ changes: [{ key: "system.abilities.fighting.value", mode: MODES.MULTIPLY, value: "2" }] }, "alice");
    expect(vi.mocked(notifications.warn).mock.calls.map((c) => String(c[0]))).toEqual(["Cursed amulet: FELD UNBEKANNT", "Cursed amulet: MODUS FALSCH für Fighting"]);
  });

  it("the user who writes a refused active effect change is warned with the reason; other clients are not", async () => {
    const actor = hero([], [effect("bad", "Cursed amulet", [])]);
    const notifications = stubI18nAndNotifications({ user: { id: "alice" } });
    const amulet = actor.effects.get("bad");
    await amulet?.update({ changes: [{ key: "system.abilities.fighting.value", mode: MODES.OVERRIDE, value: "-3" }] }, "alice");
    expect(notifications.warn).toHaveBeenCalledTimes(1);
    expect(vi.mocked(notifications.warn).mock.calls[0]?.[0]).toMatch(/^Cursed amulet: a change was refused and does not apply\. .*-3/);
    await amulet?.update({ changes: [{ key: "system.abilities.fighting.value", mode: MODES.OVERRIDE, value: "lots" }] }, "bob");
    expect(notifications.warn).toHaveBeenCalledTimes(1);
    expect(actor.system.stats.scores.fighting).toBe(6);
  });

  it("@rank on an effect of the character itself (no item carries it) is refused", () => {
    const actor = hero([], [effect("r", "Odd", [{ key: "system.abilities.strength.value", mode: MODES.UPGRADE, value: "@rank" }])]);
    expect(actor.system.effectProblems.map((p) => p.reason)).toEqual(["CASE.Effects.Problem.Value"]);
    expect(actor.system.stats.scores.strength).toBe(10);
  });
});

describe("active effect: protection", () => {
  it("an active effect that changes protection gives the character a protection source (the best counts, like armor)", async () => {
    const actor = hero([
      { _id: "ring", name: "Ring of Warding", type: "power", system: { category: "mysticalManipulation", rank: 30 }, effects: [effect("ward", "Ward", [{ key: "system.protection.physical", mode: MODES.UPGRADE, value: "@rank" }, { key: "system.protection.energy", mode: MODES.UPGRADE, value: "10" }])] },
    ]);
    expect(actor.system.effectProtection).toEqual({ physical: 30, energy: 10 });
    const { bestProtection } = await import("../../../src/rules/index");
    const sources = [
      { name: "Kevlar", origin: "armor" as const, physical: 20, energy: 0 },
      { name: "Active effects", origin: "effect" as const, ...actor.system.effectProtection },
    ];
    expect(bestProtection(sources, "Sh").value).toBe(30);
    expect(bestProtection(sources, "En").value).toBe(10);
    actor.items.get("ring")?.updateSystem("active", false);
    expect(actor.system.effectProtection).toEqual({ physical: 0, energy: 0 });
  });
});

describe("v14 effect changes", () => {
  it("v14 effect changes: read from system.changes with named types; core's applyChange leaves CASE's keys (and @rank) to CASE; no deprecation warning", () => {
    useEffectsGeneration(14);
    V14_WARNINGS.length = 0;
    try {
      const v14 = (id: string, name: string, changes: { key: string; type: string; value: string }[]): EffectSource => ({ _id: id, name, transfer: true, system: { changes } });
      const strength = superStrength(75, true, [v14("ss", "Super Strength", [{ key: "system.abilities.strength.value", type: "upgrade", value: "@rank" }])]);
      const actor = hero([strength], [
        v14("fame", "Famous", [{ key: "system.popularity", type: "add", value: "5" }]),
        v14("shield", "Force shield", [{ key: "system.protection.energy", type: "override", value: "Excellent" }]),
        v14("bad", "Bad", [{ key: "system.abilities.psyche.value", type: "add", value: "lots" }]),
      ], { popularity: 3 });
      expect(actor.system.stats.scores.strength).toBe(75);
      expect(actor.system.health.max).toBe(6 + 6 + 75 + 30);
      expect(actor.system.effectProtection).toEqual({ physical: 0, energy: 20 });
      // Core applies what CASE leaves to it.
      expect(actor.system.popularity).toBe(8);
      // A refused change is read from system.changes too, and shown.
      expect(actor.system.effectProblems.map((p) => p.key)).toEqual(["system.abilities.psyche.value"]);
      expect((actor.effects.get("bad") as unknown as { refusedChanges: readonly unknown[] }).refusedChanges).toHaveLength(1);
      // Nothing of CASE's in core's overrides (a GM's edit of a base ability is not hidden by one).
      expect(Object.keys((actor as unknown as { overrides?: Data }).overrides ?? {})).toEqual(["system.popularity"]);
      expect(V14_WARNINGS).toEqual([]);
    } finally {
      useEffectsGeneration(13);
    }
  });
});

describe("lost Endurance ranks lower Endurance and what derives from it (active effect order kept)", () => {
  it("one lost rank takes Remarkable 30 to Excellent 20 and Health max down by 10; healed back, it returns", () => {
    const actor = hero([], [], { lostEnduranceRanks: 1 });
    expect(actor.system.stats.scores.endurance).toBe(20);
    expect(actor.system.endurance).toEqual({ beforeLoss: 30, lost: 1, value: 20, dead: false });
    expect(actor.system.health.max).toBe(6 + 6 + 10 + 20);
    expect(actor.system.baseAbilities.endurance?.value).toBe(30);
    expect(hero().system.health.max).toBe(6 + 6 + 10 + 30);
  });

  it.each([13, 14] as const)("final effect phase (Foundry %i): lost Endurance ranks stay lost after every effect phase; CASE's changes apply once, in the initial phase", (generation) => {
    useEffectsGeneration(generation);
    try {
      const tough = { _id: "tough", name: "Tough", type: "power", system: { category: "physicalEnhancement", rank: 50 }, effects: [effect("t", "Tough", [{ key: "system.abilities.endurance.value", mode: MODES.UPGRADE, value: "@rank" }])] };
      const strong = effect("str", "Strong", [{ key: "system.abilities.strength.value", mode: MODES.ADD, value: "10" }]);
      const wounded = hero([], [strong], { lostEnduranceRanks: 1 });
      expect(wounded.steps).toEqual(generation >= 14 ? ["base", "embedded", "effects:initial", "derived", "effects:final"] : ["base", "embedded", "effects", "derived"]);
      expect(wounded.system.abilities.endurance?.value).toBe(20);
      expect(wounded.system.endurance).toEqual({ beforeLoss: 30, lost: 1, value: 20, dead: false });
      expect(wounded.system.health.max).toBe(6 + 6 + 20 + 20);
      expect(wounded.system.abilities.strength?.value).toBe(20);
      const toughened = hero([tough], [], { lostEnduranceRanks: 2 });
      expect(toughened.system.abilities.endurance?.value).toBe(30);
      expect(toughened.system.stats.scores.endurance).toBe(30);
    } finally {
      useEffectsGeneration(13);
    }
  });

  it("lost ranks count from the Endurance the effects leave", () => {
    const tough = { _id: "tough", name: "Tough", type: "power", system: { category: "physicalEnhancement", rank: 50 }, effects: [effect("t", "Tough", [{ key: "system.abilities.endurance.value", mode: MODES.UPGRADE, value: "@rank" }])] };
    const actor = hero([tough], [], { lostEnduranceRanks: 2 });
    expect(actor.system.endurance.beforeLoss).toBe(50);
    expect(actor.system.endurance.value).toBe(effectiveEndurance(50, 2).value);
    // Amazing 50 → Incredible 40 → Remarkable 30.
    expect(actor.system.endurance.value).toBe(30);
  });

  it("property: rest never heals above the maximum the lost ranks leave, and never below the current Health", () => {
    const enduranceRanks = RANKS.filter((r) => r.number > 0 && r.number <= 100).map((r) => r.number);
    fc.assert(
      fc.property(fc.constantFrom(...enduranceRanks), fc.nat(4), fc.nat(250), fc.nat(30), fc.constantFrom("none" as const, "medical" as const), (endurance, lost, health, days, care) => {
        const system = { abilities: { ...abilities(), endurance: { value: endurance, res: null, sta: null } }, health: { value: health }, karma: { value: 0 }, lostEnduranceRanks: lost };
        const actor = hero([], [], system);
        const out = restOutcome(actor.system, days, care, DEFAULT_RECOVERY_RULINGS);
        expect(out.health.after).toBeLessThanOrEqual(actor.system.health.max);
        expect(out.health.after).toBeGreaterThanOrEqual(Math.min(health, actor.system.health.max));
        expect(out.lostEnduranceRanks.after).toBeLessThanOrEqual(lost);
        expect(actor.system.health.max).toBe(6 + 6 + 10 + effectiveEndurance(endurance, lost).value);
        expect(rankOf(actor.system.stats.scores.endurance).index).toBeLessThanOrEqual(rankOf(endurance).index);
      }),
      { numRuns: 200 },
    );
  });
});

describe("active effect: documents", () => {
  it("a power stored before the active switch existed (no `active`) reads as on, so its active effect applies", () => {
    const old = { _id: "power", name: "Super Strength", type: "power", system: { category: "physicalEnhancement", rank: 40 }, effects: [effect("ss", "Super Strength", [{ key: "system.abilities.strength.value", mode: MODES.UPGRADE, value: "@rank" }])] };
    const actor = hero([old]);
    expect(actor.items.get("power")?.system.active).toBe(true);
    expect(actor.system.stats.scores.strength).toBe(40);
  });

  it("an effect on the character itself is never suppressed by CASE", () => {
    const actor = hero([], [effect("own", "Own", [])]);
    const own = actor.effects.get("own") as ActiveEffectDouble;
    expect(own.isSuppressed).toBe(false);
  });
});
