/**
 * Rest and recovery: a hurt hero with a lost Endurance rank rests a week through the rest query
 * (what the Karma tab's *Rest* and `CONFIG.CASE.api.restSelected` send). Health and lost ranks
 * come out as the rules give them under the world's recovery settings.
 */
import { restQuery } from "../api/campaign-api";
import { recoveryRulings } from "../core/settings";
import { isCharacter } from "../core/guards";
import { batchSpec } from "./batches";
import { ask } from "./exchange";
import { REST_CASE, expectedRest } from "./expected";
import { scratchActor, type Scratch } from "./scratch";

function restingOf(actor: Actor.Implementation): { health: number; max: number; enduranceBeforeLoss: number; lost: number } {
  if (!isCharacter(actor)) throw new Error(`${actor.name} is not a character.`);
  const s = actor.system;
  return { health: s.health.value, max: s.health.max, enduranceBeforeLoss: s.endurance.beforeLoss, lost: s.lostEnduranceRanks };
}

export const restBatch = batchSpec<Scratch>("rest", ({ describe, it, assert }, scratch) => {
  describe("rest and recovery", () => {
    it("gives back Health and a lost Endurance rank as the rules and the world's settings say", async () => {
      const hero = await scratchActor(scratch, "rest", REST_CASE.hero);
      const before = restingOf(hero);
      assert.equal(before.lost, REST_CASE.hero.lostEnduranceRanks, "the hero starts with a lost rank");
      const expected = expectedRest(before, recoveryRulings());
      // REST: the query the sheet's Rest and the API's restSelected send (they read the controlled tokens).
      await ask(scratch, restQuery, { requestId: foundry.utils.randomID(16), actorUuids: [hero.uuid], days: REST_CASE.days, care: REST_CASE.care });
      const after = restingOf(hero);
      assert.equal(after.health, expected.health, "Health after the rest");
      assert.equal(after.lost, expected.lost, "lost Endurance ranks after the rest");
      assert.ok(after.health > before.health, "the rest healed");
    });
  });
});
