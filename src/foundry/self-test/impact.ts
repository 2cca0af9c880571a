/**
 * An impact: the Judge's fall through `CONFIG.CASE.api.impact`, for a scratch hero. The rebound
 * and the Health it leaves are the rules' (impacts.ts), and the impact card is posted.
 */
import { isCharacter, isMessageType } from "../core/guards";
import { batchSpec } from "./batches";
import { IMPACT_CASE, expectedImpact } from "./expected";
import { recordingMessages, scratchActor, type Scratch } from "./scratch";

export const impactBatch = batchSpec<Scratch>("impact", ({ describe, it, assert }, scratch) => {
  describe("an impact", () => {
    it("a fall takes the rules' rebound off Health and posts its card", async () => {
      const hero = await scratchActor(scratch, "impact", IMPACT_CASE.hero);
      assert.ok(isCharacter(hero), "a character");
      if (!isCharacter(hero)) return;
      const expected = expectedImpact(hero.system.score("endurance.res"), hero.system.health.value, hero.system.health.max);
      const { value: summary, messages } = await recordingMessages(scratch, () => CONFIG.CASE.api.impact([hero.uuid], IMPACT_CASE.impact));
      assert.ok(summary, "the impact was resolved");
      assert.equal(summary?.targets[0]?.rebound, expected.rebound, "the rebound");
      assert.equal(hero.system.health.value, expected.health, "Health after the fall");
      const card = messages.find((m) => isMessageType(m, "impact") && m.system.requestId === summary?.requestId);
      assert.ok(card, "the impact card is in chat");
    });
  });
});
