/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …").
 * Each batch makes what it needs and deletes it afterwards. The pure logic they touch is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 *
 * Quench's public API (its README): `Hooks.on("quenchReady", quench => quench.registerBatch(key,
 * fn, { displayName }))`; `fn` receives a context with mocha's `describe`/`it`/`after` and
 * chai's `assert`. It is declared here narrowly, for these batches only.
 */
import { SYSTEM_ID } from "../core/constants";
import { deletionUpdate, foundryGeneration } from "../core/compat";
import { statusId, CASE_STATUSES } from "../status-effects";
import { ENRICHER_ID, LINK_CLASS } from "../enrichers";

type Test = () => Promise<void> | void;

interface QuenchContext {
  readonly describe: (name: string, fn: () => void) => void;
  readonly it: (name: string, fn: Test) => void;
  readonly after: (fn: Test) => void;
  assert: {
    ok(value: unknown, message?: string): void;
    equal(actual: unknown, expected: unknown, message?: string): void;
    isUndefined(value: unknown, message?: string): void;
  };
}

interface Quench {
  registerBatch(key: string, fn: (context: QuenchContext) => void, options: { displayName: string }): void;
}

/** A scratch hero, deleted by the batch afterwards. */
async function scratchHero(name: string): Promise<Actor.Implementation> {
  const actor = await Actor.implementation.create({ name: `CASE self-test: ${name}`, type: "hero" });
  if (!actor) throw new Error("The self-test could not create a scratch actor.");
  return actor;
}

/** Foundry 13 and 14: conditions, flag deletion and enricher links, the three places they differ. */
function versionBatch(context: QuenchContext): void {
  const { describe, it, after, assert } = context;
  const made: { delete(): Promise<unknown> }[] = [];
  after(async () => {
    for (const doc of made) await doc.delete();
  });
  describe(`Foundry ${String(foundryGeneration())}`, () => {
    it("registers every CASE condition in CONFIG.statusEffects, and a toggled one shows on the actor", async () => {
      const list: unknown = CONFIG.statusEffects;
      const ids = Array.isArray(list) ? list.map((e: { id: string }) => e.id) : Object.keys(list as object);
      for (const status of CASE_STATUSES) assert.ok(ids.includes(statusId(status)), `${statusId(status)} is registered`);
      const hero = await scratchHero("conditions");
      made.push(hero);
      await hero.toggleStatusEffect(statusId("stunned"), { active: true });
      assert.ok(hero.statuses.has(statusId("stunned")), "the actor is stunned");
      await hero.toggleStatusEffect(statusId("stunned"), { active: false });
      assert.ok(!hero.statuses.has(statusId("stunned")), "the stun is gone");
    });

    it("deletes a foe bonus flag with this version's deletion syntax", async () => {
      const hero = await scratchHero("foe bonus");
      made.push(hero);
      await hero.update({ [`flags.${SYSTEM_ID}.foeBonus.Actor_selftest`]: 2 } as Actor.UpdateData);
      await hero.update(deletionUpdate(`flags.${SYSTEM_ID}.foeBonus`, ["Actor_selftest"]));
      const bonus = (hero.flags as Record<string, { foeBonus?: Record<string, unknown> } | undefined>)[SYSTEM_ID]?.foeBonus;
      assert.isUndefined(bonus?.Actor_selftest, "the bonus is gone");
    });

    it("gives a [[/case]] link its own listener, so it works in a popped-out window too", async () => {
      const html = await foundry.applications.ux.TextEditor.implementation.enrichHTML("[[/case remarkable]]{Self-test}");
      const host = document.createElement("div");
      host.innerHTML = html;
      document.body.append(host);
      try {
        const wrapper = host.querySelector<HTMLElement>(`[data-enricher-id="${ENRICHER_ID}"]`);
        assert.ok(wrapper, "the link is wrapped for onRender");
        const link = host.querySelector<HTMLElement>(`a.${LINK_CLASS}`);
        assert.ok(link, "the link is rendered");
        const before = game.messages.size;
        link?.click();
        await new Promise((resolve) => setTimeout(resolve, 500));
        const rolled = game.messages.contents.slice(before);
        assert.equal(rolled.length, 1, "one click, one roll");
        for (const m of rolled) made.push(m);
      } finally {
        host.remove();
      }
    });
  });
}

/** Registers the batches when Quench is ready (call in init; nothing happens without Quench). */
export function registerSelfTest(): void {
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => void) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", (quench) => {
    quench.registerBatch(`${SYSTEM_ID}.versions`, versionBatch, { displayName: game.i18n.localize("CASE.SelfTest.Versions") });
  });
}
