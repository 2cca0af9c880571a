/**
 * Foundry 13 and 14 side by side (src/foundry/core/compat.ts): each difference is tested on both
 * generations against a double of what each version documents.
 */
import "../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deletionUpdate, statusEffectEntries } from "../../../src/foundry/core/compat";
import { registerStatusEffects, statusId } from "../../../src/foundry/status-effects";
import { ALICE, FakeActor, characterSource, installWorld, type World } from "../../support/exchange-world";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { foeBonus } from "../../../src/foundry/exchange/protection";
import { foeBonusKey } from "../../../src/foundry/exchange/gm-actions";
import { DEL, ForcedDeletion, deletesKey, installOperators } from "../../support/update-operators";

function useGeneration(generation: 13 | 14, options: { del?: boolean; create?: boolean } = {}): void {
  const game = globalThis as unknown as { game: Record<string, unknown> };
  game.game.release = { generation };
  installOperators(generation, options);
}

let world: World;
beforeEach(() => {
  world = installWorld();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("deleting keys in an update", () => {
  it("on 13: the `-=key` form; on 14: the ForcedDeletion operator instance, `_del` (the `-=` form is deprecated there, removed in 16)", () => {
    useGeneration(13);
    expect(deletionUpdate("flags.case.foeBonus", ["Actor_a", "Actor_b"])).toEqual({ "flags.case.foeBonus.-=Actor_a": null, "flags.case.foeBonus.-=Actor_b": null });
    useGeneration(14);
    const update = deletionUpdate("flags.case.foeBonus", ["Actor_a"]);
    expect(Object.keys(update)).toEqual(["flags.case.foeBonus.Actor_a"]);
    expect(update["flags.case.foeBonus.Actor_a"]).toBe(DEL);
  });

  it("deletion really deletes on 14 without the `_del` global: the instance from ForcedDeletion.create(), never the class", () => {
    useGeneration(14, { del: false });
    const value = deletionUpdate("flags.case.foeBonus", ["Actor_a"])["flags.case.foeBonus.Actor_a"];
    expect(value).toBeInstanceOf(ForcedDeletion);
    expect(deletesKey(value)).toBe(true);
  });

  it("deletion really deletes on 14 without `_del` or `ForcedDeletion.create()`: a new instance of the class, never the class", () => {
    useGeneration(14, { del: false, create: false });
    const value = deletionUpdate("flags.case.foeBonus", ["Actor_a"])["flags.case.foeBonus.Actor_a"];
    expect(value).toBeInstanceOf(ForcedDeletion);
    expect(deletesKey(value)).toBe(true);
  });

  it("the v14 double refuses the operator class where an instance is needed (so no test passes on the class)", () => {
    useGeneration(14);
    expect(() => deletesKey(ForcedDeletion)).toThrow(/instance/);
    expect(deletesKey(DEL)).toBe(true);
    expect(deletesKey(null)).toBe(false);
  });

  it("a v14 without the operator falls back to the v13 form rather than writing `undefined`", () => {
    useGeneration(13);
    (globalThis as unknown as { game: { release: { generation: number } } }).game.release.generation = 14;
    expect(deletionUpdate("flags.case.foeBonus", ["Actor_a"])).toEqual({ "flags.case.foeBonus.-=Actor_a": null });
  });

  it.each([13, 14] as const)("deletion really deletes on %i: a used foe bonus goes away, the next attack on that foe gets none", async (generation) => {
    useGeneration(generation);
    const hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    const villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40 }), []);
    world.actors.set(hero.id, hero);
    world.actors.set(villain.id, villain);
    const fists = { type: "weapon", name: "Fists", actor: hero, uuid: `${hero.uuid}.Item.fists00000000001`, documentName: "Item", system: { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    hero.items.push(fists);
    await hero.update({ [`flags.case.foeBonus.${foeBonusKey(villain.uuid)}`]: 2 });
    expect(foeBonus(hero as unknown as Actor.Implementation, villain.uuid)).toBe(2);
    expect(await world.ask(attackQuery, ALICE.id, { itemUuid: fists.uuid, targetUuids: [villain.uuid], input: {} })).toMatchObject({ ok: true });
    expect(Object.keys(hero.updates.at(-1) ?? {})).toEqual([generation >= 14 ? `flags.case.foeBonus.${foeBonusKey(villain.uuid)}` : `flags.case.foeBonus.-=${foeBonusKey(villain.uuid)}`]);
    expect(foeBonus(hero as unknown as Actor.Implementation, villain.uuid)).toBe(0);
  });
});

describe("registering the conditions", () => {
  it("on 13: first in the array, core's own entries kept after them, once", () => {
    useGeneration(13);
    const list: unknown[] = [{ id: "dead", name: "Dead", img: "x" }];
    (globalThis as unknown as { CONFIG: { statusEffects: unknown } }).CONFIG.statusEffects = list;
    registerStatusEffects();
    registerStatusEffects();
    expect(list.map((e) => (e as { id: string }).id)).toEqual([statusId("stunned"), statusId("slammed"), statusId("partialHold"), statusId("fullHold"), statusId("dying"), statusId("unconscious"), "dead"]);
  });

  it("on 14: set by id in the record, first by an explicit order (core's own entries kept after them), once", () => {
    useGeneration(14);
    const record: Record<string, unknown> = { dead: { id: "dead", name: "Dead", img: "x" } };
    (globalThis as unknown as { CONFIG: { statusEffects: unknown } }).CONFIG.statusEffects = record;
    registerStatusEffects();
    registerStatusEffects();
    expect(Object.keys(record)).toEqual([statusId("stunned"), statusId("slammed"), statusId("partialHold"), statusId("fullHold"), statusId("dying"), statusId("unconscious"), "dead"]);
    expect(record[statusId("stunned")]).toEqual({ id: statusId("stunned"), name: "CASE.Status.stunned", img: "icons/svg/daze.svg", order: 0 });
    expect(record.dead).toEqual({ id: "dead", name: "Dead", img: "x", order: 6 });
    // Read back by id on 14 as on 13 (the team sheet names its members' conditions so).
    expect(statusEffectEntries().find((e) => e.id === "dead")?.name).toBe("Dead");
  });
});
