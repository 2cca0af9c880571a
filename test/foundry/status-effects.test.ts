import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CASE_STATUSES, CORE_LOOKALIKES, STUN_ICON_MAX, clearStatus, registerStatusEffects, setStatus, statusId, statusShift, stunIcon } from "../../src/foundry/status-effects";
import { FakeEffect } from "../support/exchange-world";
import { stubI18nAndNotifications } from "../support/foundry-stubs";
import { FULL_HOLD_CS, PARTIAL_HOLD_CS } from "../../src/rules/index";

describe("the shift a character's conditions put on its rolls", () => {
  it("a Partial Hold: its −2 CS on every action, Escape included", () => {
    const held = new Set([statusId("partialHold")]);
    expect(statusShift(held)).toEqual([{ cs: PARTIAL_HOLD_CS, label: "CASE.Status.partialHold" }]);
    expect(statusShift(held, "escape")).toEqual([{ cs: PARTIAL_HOLD_CS, label: "CASE.Status.partialHold" }]);
  });

  it("a Full Hold: its ruling's CS on actions other than the Escape it allows, and it does not add to a Partial one", () => {
    const held = new Set([statusId("fullHold"), statusId("partialHold")]);
    expect(statusShift(held)).toEqual([{ cs: FULL_HOLD_CS, label: "CASE.Status.fullHold" }]);
    expect(statusShift(held, "escape")).toEqual([]);
  });

  it("no hold, no shift", () => {
    expect(statusShift(new Set([statusId("stunned")]))).toEqual([]);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * Core's own statuses as CONFIG.statusEffects holds them (id, name key, core icon), the ones a
 * look-alike matters for plus some that stay: ids and icons as Foundry's public API page for
 * CONFIG.statusEffects lists them.
 */
function coreStatuses(): { id: string; name: string; img: string }[] {
  return [
    { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
    { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
    { id: "sleep", name: "EFFECT.StatusAsleep", img: "icons/svg/sleep.svg" },
    { id: "stun", name: "EFFECT.StatusStunned", img: "icons/svg/daze.svg" },
    { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
    { id: "restrain", name: "EFFECT.StatusRestrained", img: "icons/svg/net.svg" },
    { id: "blind", name: "EFFECT.StatusBlind", img: "icons/svg/blind.svg" },
    { id: "bleeding", name: "EFFECT.StatusBleeding", img: "icons/svg/blood.svg" },
  ];
}

describe("CASE's conditions in the token HUD", () => {
  const caseIds = CASE_STATUSES.map(statusId);
  const kept = ["dead", "sleep", "blind"];

  it("case conditions replace core: CASE's six first, core's look-alikes gone, core's other statuses kept, each icon once (13: the array)", () => {
    const list = coreStatuses();
    vi.stubGlobal("game", { release: { generation: 13 } });
    vi.stubGlobal("CONFIG", { statusEffects: list });
    registerStatusEffects();
    registerStatusEffects();
    expect(list.map((e) => e.id)).toEqual([...caseIds, ...kept]);
    for (const id of CORE_LOOKALIKES) expect(list.map((e) => e.id)).not.toContain(id);
    expect(new Set(list.map((e) => e.img)).size).toBe(list.length);
  });

  it("case conditions replace core on 14: the record keyed by id, CASE's six first by an explicit order", () => {
    const record: Record<string, { id: string; img: string; order?: number }> = Object.fromEntries(coreStatuses().map((e) => [e.id, e]));
    vi.stubGlobal("game", { release: { generation: 14 } });
    vi.stubGlobal("CONFIG", { statusEffects: record });
    registerStatusEffects();
    expect(Object.keys(record)).toEqual([...caseIds, ...kept]);
    const byOrder = Object.values(record).sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity));
    expect(byOrder.map((e) => e.id)).toEqual([...caseIds, ...kept]);
    expect(new Set(byOrder.map((e) => e.img)).size).toBe(byOrder.length);
  });
});

/** An actor with the members setStatus and clearStatus use: effects, statuses and toggleStatusEffect (as exchange-world's FakeActor). */
function stunnable(): { effects: FakeEffect[]; actor: Actor.Implementation } {
  const state = { effects: [] as FakeEffect[] };
  const actor = {
    get effects() {
      return state.effects;
    },
    toggleStatusEffect(id: string, { active }: { active: boolean }) {
      if (active && !state.effects.some((e) => e.statuses.has(id))) state.effects.push(new FakeEffect(new Set([id])));
      if (!active) state.effects = state.effects.filter((e) => !e.statuses.has(id));
      return Promise.resolve(active);
    },
  };
  return { get effects() { return state.effects; }, actor: actor as unknown as Actor.Implementation };
}

describe("a stun's turns left on the token", () => {
  it("stun turns on token: the Stunned effect's name and icon say its turns left and follow them as they change", async () => {
    stubI18nAndNotifications();
    const hero = stunnable();
    await setStatus(hero.actor, "stunned", { turns: 2, startsNextTurn: false });
    expect(hero.effects).toHaveLength(1);
    expect(hero.effects[0]).toMatchObject({ name: "Stunned (2 turns)", img: "systems/case/icons/stunned-2.svg", flags: { case: { turns: 2 } } });
    await setStatus(hero.actor, "stunned", { turns: 1, startsNextTurn: false });
    expect(hero.effects).toHaveLength(1);
    expect(hero.effects[0]).toMatchObject({ name: "Stunned (1 turn)", img: "systems/case/icons/stunned-1.svg", flags: { case: { turns: 1 } } });
    await setStatus(hero.actor, "stunned", {});
    expect(hero.effects[0]).toMatchObject({ name: "Stunned", img: "icons/svg/daze.svg" });
    await setStatus(hero.actor, "dying", { aided: false, fresh: true });
    expect(hero.effects[1]).not.toHaveProperty("name");
    await clearStatus(hero.actor, "stunned");
    expect(hero.effects.map((e) => [...e.statuses])).toEqual([[statusId("dying")]]);
  });
});

describe("the stun icons", () => {
  it("stun turns on token: an icon with the count for every turn a stun can last (1–10, then 10+), each naming its count", () => {
    const counts = Array.from({ length: STUN_ICON_MAX + 2 }, (_, i) => i + 1);
    for (const turns of counts) {
      const path = stunIcon(turns).replace(/^systems\/case\//, "");
      const label = turns > STUN_ICON_MAX ? `${String(STUN_ICON_MAX)}+` : String(turns);
      expect(existsSync(path), path).toBe(true);
      expect(readFileSync(path, "utf8")).toContain(`>${label}</text>`);
    }
    expect(stunIcon(0)).toBe("icons/svg/daze.svg");
  });
});
