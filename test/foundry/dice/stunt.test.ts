/**
 * A power stunt from the power row's Stunt button (dice/stunt.ts) through the real CaseRoll and
 * the FEAT rolls' Karma spend path: the colour the stunt's progress needs (power-rulings.ts:
 * red until the first success, then yellow), 100 Karma an attempt spent either way, the attempt
 * recorded on the power. The Remarkable column (§1) is yellow from 66, red from 95.
 */
import "../../support/foundry-globals";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, characterSource, installWorld } from "../../support/exchange-world";

interface Posted {
  options: { case?: { needed: string | null; value: number; karma: number } };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** Kestrel (Karma `karma`) and a Remarkable Energy Blast with `stunts`; `dice` are the d100s to come. */
async function setUp(karma: number, stunts: { name: string; attempts: number; successes: number }[], dice: number[], on = true) {
  const world = installWorld();
  world.settings.set("case.powerStunts", on);
  const hero = new FakeActor("hero000000000001", "Kestrel", "hero", { ...characterSource(), karma: { value: karma } }, [ALICE.id]);
  const item = {
    type: "power",
    name: "Energy Blast",
    actor: hero,
    system: { rank: 30, stunts },
    update: vi.fn((data: Record<string, unknown>) => {
      item.system.stunts = data["system.stunts"] as typeof stunts;
      return Promise.resolve(item);
    }),
  };
  const posted: Posted[] = [];
  vi.stubGlobal(
    "Roll",
    class {
      total = 0;
      _evaluated = false;
      constructor(
        readonly formula: string,
        readonly data: object,
        readonly options: Posted["options"],
      ) {}
      evaluate() {
        this.total = dice.shift() ?? Number.NaN;
        this._evaluated = true;
        return Promise.resolve(this);
      }
      toMessage() {
        posted.push({ options: this.options });
        return Promise.resolve();
      }
    },
  );
  const { attemptStunt } = await import("../../../src/foundry/dice/stunt");
  const attempt = (name: string) => attemptStunt(item as unknown as Item.Implementation, name);
  return { world, hero, item, posted, attempt };
}

const karmaOf = (hero: FakeActor) => (hero.system as unknown as { karma: { value: number } }).karma.value;

describe("power stunt from the sheet", () => {
  it("power stunt: a new stunt needs red and costs 100 Karma; 94 is yellow, a failure still paid and recorded; 95 is red, the first success, then yellow is needed", async () => {
    const { hero, item, posted, attempt } = await setUp(250, [], [94, 95]);
    const first = await attempt("Ricochet Shot");
    expect(first).toMatchObject({ color: "yellow", needed: "red", success: false, karmaSpent: 100 });
    expect(posted[0]?.options.case).toMatchObject({ needed: "red", value: 30, karma: 0 });
    expect(karmaOf(hero)).toBe(150);
    expect(item.system.stunts).toEqual([{ name: "Ricochet Shot", attempts: 1, successes: 0 }]);
    const second = await attempt("Ricochet Shot");
    expect(second).toMatchObject({ color: "red", success: true });
    expect(karmaOf(hero)).toBe(50);
    expect(item.system.stunts).toEqual([{ name: "Ricochet Shot", attempts: 2, successes: 1 }]);
    // The Karma log names the stunt (the FEAT spend path writes it).
    expect(JSON.stringify(hero.updates)).toContain("Ricochet Shot");
  });

  it("power stunt: a stunt after its first success needs yellow (66 succeeds); ten attempts on, it costs nothing", async () => {
    const { hero, posted, attempt } = await setUp(100, [{ name: "Wide Beam", attempts: 10, successes: 2 }], [66]);
    expect(await attempt("Wide Beam")).toMatchObject({ needed: "yellow", success: true, karmaSpent: 0 });
    expect(posted[0]?.options.case?.needed).toBe("yellow");
    expect(karmaOf(hero)).toBe(100);
  });

  it("power stunt: refused with a reason and nothing spent when Karma is short, no name is given, or the world has stunts off", async () => {
    const short = await setUp(90, [], [99]);
    expect(await short.attempt("Ricochet Shot")).toBeNull();
    expect(short.world.notifications.error).toHaveBeenCalledWith(expect.stringContaining("90"));
    expect(short.posted).toHaveLength(0);
    expect(short.item.update).not.toHaveBeenCalled();
    const unnamed = await setUp(200, [], [99]);
    expect(await unnamed.attempt("  ")).toBeNull();
    expect(karmaOf(unnamed.hero)).toBe(200);
    const off = await setUp(200, [], [99], false);
    expect(await off.attempt("Ricochet Shot")).toBeNull();
    expect(off.world.notifications.error).toHaveBeenCalledWith("Power stunts are switched off in this world.");
    expect(karmaOf(off.hero)).toBe(200);
  });
});
