/** Foundry 13 and 14: conditions, flag deletion and enricher links, the three places they differ. */
import { SYSTEM_ID } from "../core/constants";
import { deletionUpdate, foundryGeneration } from "../core/compat";
import { statusId, CASE_STATUSES, CORE_LOOKALIKES } from "../status-effects";
import { ENRICHER_ID, LINK_CLASS } from "../enrichers";
import { batchSpec } from "./batches";
import { recordingMessages, scratchActor, settle, type Scratch } from "./scratch";
import { caseFlag } from "../core/flags";

export const versionsBatch = batchSpec<Scratch>("versions", ({ describe, it, assert }, scratch) => {
  describe(`Foundry ${String(foundryGeneration())}`, () => {
    it("registers every CASE condition first in CONFIG.statusEffects, in place of core's look-alikes, and a toggled one shows on the actor", async () => {
      const list: unknown = CONFIG.statusEffects;
      const ids = Array.isArray(list) ? list.map((e: { id: string }) => e.id) : Object.keys(list as object);
      assert.deepEqual(ids.slice(0, CASE_STATUSES.length), CASE_STATUSES.map(statusId), "CASE's conditions come first");
      for (const id of CORE_LOOKALIKES) assert.ok(!ids.includes(id), `core's ${id} is replaced`);
      const hero = await scratchActor(scratch, "conditions");
      await hero.toggleStatusEffect(statusId("stunned"), { active: true });
      assert.ok(hero.statuses.has(statusId("stunned")), "the actor is stunned");
      await hero.toggleStatusEffect(statusId("stunned"), { active: false });
      assert.ok(!hero.statuses.has(statusId("stunned")), "the stun is gone");
    });

    it("deletes a foe bonus flag with this version's deletion syntax", async () => {
      const hero = await scratchActor(scratch, "foe bonus");
      await hero.update({ [`flags.${SYSTEM_ID}.foeBonus.Actor_selftest`]: 2 } as Actor.UpdateData);
      await hero.update(deletionUpdate(`flags.${SYSTEM_ID}.foeBonus`, ["Actor_selftest"]));
      const bonus = caseFlag(hero.flags, "foeBonus");
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
        const { messages } = await recordingMessages(scratch, async () => {
          link?.click();
          await settle(500);
        });
        assert.equal(messages.length, 1, "one click, one roll");
      } finally {
        host.remove();
      }
    });
  });
});
