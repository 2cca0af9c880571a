/**
 * Regeneration at wrap-up: a hurt hero with a Regeneration power fights one CASE turn (everyone
 * declares, the GM advances to the next turn's Declare); at the wrap-up its Health comes back
 * by the rules' share for the power's rank and the world's "turns for Regeneration" setting.
 */
import { SYSTEM_ID } from "../core/constants";
import { isCharacter } from "../core/guards";
import { batchSpec, scratchName } from "./batches";
import { REGENERATION_CASE, expectedRegeneration } from "./expected";
import { scratchCombat, walkTurn } from "./fight";
import { scratchActor, scratchScene, scratchTokens, waitFor, type Scratch } from "./scratch";

function healthOf(actor: Actor.Implementation): { value: number; max: number } {
  if (!isCharacter(actor)) throw new Error(`${actor.name} is not a character.`);
  return { value: actor.system.health.value, max: actor.system.health.max };
}

export const regenerationBatch = batchSpec<Scratch>("regeneration", ({ describe, it, assert }, scratch) => {
  describe("regeneration", () => {
    it("gives a regenerating hero its share of Health at the wrap-up", async () => {
      const hero = await scratchActor(scratch, "regenerating hero", { health: { value: REGENERATION_CASE.health } });
      await hero.createEmbeddedDocuments("Item", [{ name: scratchName("Regeneration"), type: "power", system: REGENERATION_CASE.power }]);
      const foe = await scratchActor(scratch, "regeneration foe", {}, "npc");
      const scene = await scratchScene(scratch, "regeneration");
      const combat = await scratchCombat(scratch, scene, await scratchTokens(scratch, scene, [hero, foe]));
      const before = healthOf(hero);
      const expected = expectedRegeneration(before.value, before.max, game.settings.get(SYSTEM_ID, "regenerationTurns"));
      assert.ok(expected > before.value, "the hero has Health to regain");
      const phases = await walkTurn(scratch, combat);
      assert.include(phases, "wrapUp", `the turn passed the wrap-up (${phases.join(" → ")})`);
      assert.ok(await waitFor(() => healthOf(hero).value === expected), `Health ${String(healthOf(hero).value)}, expected ${String(expected)}`);
    });
  });
});
