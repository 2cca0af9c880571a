/**
 * An attack exchange through real documents, the router and the card, as the GM: the attack
 * query writes the card and the GM's record, "No defence" rolls the to-hit, Apply takes the
 * damage off the target's Health, Undo gives it back. The GM's own requests run in place
 * (router.ts); a player's half is the second-browser batch (player.ts).
 */
import { targetActions, type ExchangeState } from "../../rules/index";
import { characterSystem } from "../core/guards";
import { DEFAULT_ATTACK_INPUT } from "../exchange/attack-input";
import { cardRevision, loadCard } from "../exchange/card-store";
import { applyDamageQuery, defendQuery, undoDamageQuery } from "../exchange/gm-actions";
import { attackQuery } from "../exchange/make-attack";
import { caseRouter } from "../requests/gm";
import type { QueryDefinition } from "../requests/router";
import { EXCHANGE_ATTACKER, EXCHANGE_TARGET, EXCHANGE_WEAPON, MAX_ATTACK_TRIES, batchSpec, expectedHealth, scratchName } from "./batches";
import { recordIdOf, recordingMessages, scratchActor, scratchScene, scratchTokens, type Recorder, type Scratch } from "./scratch";

/** Asks the router as this user would from a button; a refusal is a failed test with its reason. */
export async function ask<P, R>(scratch: Recorder, query: QueryDefinition<P, R, never>, payload: P): Promise<R | null> {
  const { value: result } = await recordingMessages(scratch, () => caseRouter().request(query, payload));
  if (!result.ok) throw new Error(`${query.name} was refused (${result.reason}): ${result.message}`);
  return result.value;
}

/** The card's state, as the GM sees it. */
function stateOf(messageId: string): ExchangeState {
  return loadCard(messageId).state;
}

function healthOf(actor: Actor.Implementation): number {
  return characterSystem(actor).health.value;
}

export const exchangeBatch = batchSpec<Scratch>("exchange", ({ describe, it, assert }, scratch) => {
  describe("an attack, defended, applied and undone", () => {
    let messageId = "";
    let target: Actor.Implementation | null = null;
    let key = "";
    let healthBefore = 0;

    it("writes an attack card and the GM's record from the attack query", async () => {
      const attacker = await scratchActor(scratch, "attacker", EXCHANGE_ATTACKER);
      target = await scratchActor(scratch, "target", EXCHANGE_TARGET);
      const [weapon] = await attacker.createEmbeddedDocuments("Item", [{ name: scratchName("club"), type: "weapon", system: EXCHANGE_WEAPON }]);
      const scene = await scratchScene(scratch, "exchange");
      const [, targetToken] = await scratchTokens(scratch, scene, [attacker, target]);
      assert.ok(weapon && targetToken, "the weapon and the tokens exist");
      healthBefore = healthOf(target);
      // A miss leaves nothing to apply: attack again (each card is deleted afterwards).
      for (let tries = 0; tries < MAX_ATTACK_TRIES; tries++) {
        const answer = await ask(scratch, attackQuery, { itemUuid: weapon?.uuid ?? "", targetUuids: [targetToken?.uuid ?? ""], input: { ...DEFAULT_ATTACK_INPUT } });
        messageId = answer?.messageId ?? "";
        const card = game.messages.get(messageId);
        assert.ok(card, "the card is in chat");
        assert.equal(card?.type, "attack", "it is an attack card");
        assert.ok(card?.author?.isGM, "the GM wrote it");
        const recordId = recordIdOf(card);
        assert.equal(game.messages.get(recordId)?.type, "attackRecord", "the GM's record is beside it");
        const row = stateOf(messageId).targets[0];
        assert.ok(row, "the card has the target's row");
        key = row?.key ?? "";
        assert.equal(row?.phase, "awaitingDefence", "the target may defend");
        assert.isAbove(targetActions(stateOf(messageId), key).defend.length, 0, "the target is offered its defences (Block, Evasion, Weave against a blunt attack)");
        await ask(scratch, defendQuery, { messageId, targetKey: key, revision: cardRevision(messageId), defence: "none" });
        const after = stateOf(messageId).targets[0];
        assert.equal(after?.phase, "resolved", "no defence: the to-hit is rolled and the row resolved");
        assert.ok(after?.toHit, "the to-hit is on the card");
        if (targetActions(stateOf(messageId), key).apply) return;
      }
      assert.fail(`${String(MAX_ATTACK_TRIES)} attacks at Unearthly all missed or dealt nothing`);
    });

    it("applies the damage to the target's Health", async () => {
      assert.ok(target && messageId, "the attack card exists (the test before passed)");
      await ask(scratch, applyDamageQuery, { messageId, targetKey: key, revision: cardRevision(messageId) });
      const row = stateOf(messageId).targets[0];
      assert.equal(row?.phase, "applied", "the row is applied");
      const applied = row?.applied;
      assert.ok(applied, "the card records the change");
      if (!applied || !target) return;
      assert.equal(applied.healthBefore, healthBefore, "from the Health the target had");
      assert.equal(healthOf(target), expectedHealth(applied).afterApply, "the target's Health is what the card says");
      assert.ok(healthOf(target) < healthBefore, "the target lost Health");
      await ask(scratch, applyDamageQuery, { messageId, targetKey: key, revision: cardRevision(messageId) }).then(
        () => {
          assert.fail("a second Apply was accepted");
        },
        (error: unknown) => {
          assert.ok(String(error).includes("stale"), "a second Apply is refused as stale");
        },
      );
    });

    it("undoes it: the Health comes back and the row is voided (undone, no Apply again)", async () => {
      assert.ok(target && messageId, "the attack card exists (the tests before passed)");
      await ask(scratch, undoDamageQuery, { messageId, targetKey: key, revision: cardRevision(messageId) });
      if (target) assert.equal(healthOf(target), healthBefore, "the Health is back");
      assert.equal(stateOf(messageId).targets[0]?.phase, "undone", "the row is undone");
      assert.ok(!targetActions(stateOf(messageId), key).apply, "Apply is not offered again");
    });
  });
});
