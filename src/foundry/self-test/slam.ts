/**
 * A slam moves the token: with the "slam moves tokens" setting on (for the test; put back
 * afterwards), a blunt hit that calls for a Slam? is applied and its check rolled through the
 * card's queries; when the slam throws the target, its token goes the squares the card records.
 * A slam that does not throw (a stagger, "down") proves nothing: the batch attacks again.
 */
import { targetActions, targetOf, type ExchangeState } from "../../rules/index";
import { applyDamageQuery, consequenceQuery } from "../exchange/gm-actions";
import { MAX_ATTACK_TRIES, batchSpec } from "./batches";
import { ask } from "./exchange";
import { MAX_SLAM_TRIES, slamMoveProblems } from "./expected";
import { armedAttacker, attackUntil, cardState } from "./fight";
import { scratchActor, scratchScene, scratchTokensAt, withSetting, type Scratch } from "./scratch";
import { cardRevision } from "../exchange/card-store";

/** A row that calls for a Slam? and has damage to apply. */
function slamDue(state: ExchangeState, key: string): boolean {
  return targetActions(state, key).apply && targetOf(state, key).consequences.some((c) => c.check === "slam");
}

export const slamBatch = batchSpec<Scratch>("slam", ({ describe, it, assert }, scratch) => {
  describe("a slam", () => {
    it("moves the slammed token the squares the card records", async () => {
      await withSetting({ key: "slamMovesTokens", value: true }, async () => {
        const { actor: attacker, weapon } = await armedAttacker(scratch, "slammer");
        // Feeble Endurance (a slam throws it most of the time), Health to take every try.
        const target = await scratchActor(scratch, "slam target", { abilities: { fighting: { value: 100 }, agility: { value: 100 }, strength: { value: 100 }, endurance: { value: 2 } } });
        const scene = await scratchScene(scratch, "slam");
        const [, token] = await scratchTokensAt(scratch, scene, [
          { actor: attacker, square: { x: 2, y: 5 } },
          { actor: target, square: { x: 3, y: 5 } },
        ]);
        assert.ok(token, "the target's token");
        if (!token) return;
        for (let tries = 0; tries < MAX_SLAM_TRIES; tries++) {
          const hit = await attackUntil(scratch, weapon.uuid, token.uuid, slamDue, MAX_ATTACK_TRIES);
          if (!hit) continue;
          await ask(scratch, applyDamageQuery, { messageId: hit.messageId, targetKey: hit.key, revision: cardRevision(hit.messageId) });
          const before = { x: token.x, y: token.y };
          // SLAM: the card's Slam? button.
          await ask(scratch, consequenceQuery, { messageId: hit.messageId, targetKey: hit.key, revision: cardRevision(hit.messageId), check: "slam" });
          const moved = cardState(hit.messageId).targets[0]?.consequences.find((c) => c.check === "slam")?.moved ?? null;
          if (!moved || moved.areas === 0) continue;
          assert.deepEqual(slamMoveProblems(before, { x: token.x, y: token.y }, moved, scene.grid.size), [], "the token went where the card says");
          return;
        }
        assert.fail(`no slam threw the target in ${String(MAX_SLAM_TRIES)} tries`);
      });
    });
  });
});
