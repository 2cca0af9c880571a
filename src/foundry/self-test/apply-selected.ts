/**
 * *Apply to selected tokens*: a row's damage goes to another token (a bystander the miss
 * struck) through the card's query, with what the button sends (the user's selected tokens).
 * The bystander loses the row's damage, the target nothing, and the row is done.
 */
import { applyDamageToHealth, targetActions } from "../../rules/index";
import { isCharacter } from "../core/guards";
import { applyToSelectedQuery } from "../exchange/apply-to-selected";
import { EXCHANGE_TARGET, MAX_ATTACK_TRIES, batchSpec } from "./batches";
import { ask } from "./exchange";
import { armedAttacker, attackUntil, cardState } from "./fight";
import { scratchActor, scratchScene, scratchTokens, type Scratch } from "./scratch";
import { cardRevision } from "../exchange/card-store";

function healthOf(actor: Actor.Implementation): { value: number; max: number } {
  if (!isCharacter(actor)) throw new Error(`${actor.name} is not a character.`);
  return { value: actor.system.health.value, max: actor.system.health.max };
}

export const applySelectedBatch = batchSpec<Scratch>("applySelected", ({ describe, it, assert }, scratch) => {
  describe("Apply to selected tokens", () => {
    it("gives the row's damage to the selected bystander, not the target", async () => {
      const { actor: attacker, weapon } = await armedAttacker(scratch, "apply to selected attacker");
      const target = await scratchActor(scratch, "apply to selected target", EXCHANGE_TARGET);
      const bystander = await scratchActor(scratch, "bystander", EXCHANGE_TARGET);
      const scene = await scratchScene(scratch, "apply to selected");
      const [, targetToken, bystanderToken] = await scratchTokens(scratch, scene, [attacker, target, bystander]);
      assert.ok(targetToken && bystanderToken, "the tokens exist");
      const hit = await attackUntil(scratch, weapon.uuid, targetToken?.uuid ?? "", (state, key) => targetActions(state, key).apply, MAX_ATTACK_TRIES);
      assert.ok(hit, `a hit with damage within ${String(MAX_ATTACK_TRIES)} attacks`);
      if (!hit) return;
      const dealt = cardState(hit.messageId).targets[0]?.damage?.dealt ?? 0;
      const targetBefore = healthOf(target).value;
      const before = healthOf(bystander);
      // APPLY TO SELECTED: what the row's button sends with this user's selected tokens.
      await ask(scratch, applyToSelectedQuery, { messageId: hit.messageId, targetKey: hit.key, revision: cardRevision(hit.messageId), tokenUuids: [bystanderToken?.uuid ?? ""] });
      assert.equal(healthOf(bystander).value, applyDamageToHealth(before.value, before.max, dealt).health, `the bystander lost the row's ${String(dealt)}`);
      assert.equal(healthOf(target).value, targetBefore, "the target lost nothing");
      assert.ok(!targetActions(cardState(hit.messageId), hit.key).apply, "the row's damage is spent");
    });
  });
});
