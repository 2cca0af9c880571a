/**
 * Clear Chat Log in the middle of a combat, as the chat log's button does it (Messages#flush:
 * a confirmation, then every message deleted). The GM's turn record must survive it or come
 * back: the NPC's secret declaration is still known and the Judge can still step back; an
 * attack card that is still there still has its record. Clear Chat Log deletes every message
 * of the world, so this batch is never ticked by default and refuses to run on a chat log that
 * holds anything it did not make.
 */
import { stepBackQuery, advancePhaseQuery } from "../combat/queries";
import { turnRecordOf } from "../combat/foundry-host";
import { loadCard } from "../exchange/card-store";
import { MAX_ATTACK_TRIES, batchSpec } from "./batches";
import { ask } from "./exchange";
import { clearChatRefusal, recordLossAfterClear, type TurnRecordView } from "./expected";
import { armedAttacker, attackUntil, combatantOf, declareAll, scratchCombat } from "./fight";
import { answerNextConfirm, scratchActor, scratchScene, scratchTokens, waitFor, withSetting, type Recorder, type Scratch } from "./scratch";
import type { CaseCombat } from "../documents/combat";

/** CLEAR CHAT: the GM's record of the combat as the tracker reads it (turnRecordOf: declarations and history). */
function recordView(combat: CaseCombat, npcId: string): TurnRecordView {
  return { npcDeclared: Boolean(combat.caseTurn.combatants.get(npcId)?.declaration), steps: turnRecordOf(combat.id ?? "")?.history.length ?? 0 };
}

/** The ids of the chat messages this batch recorded. */
function madeMessageIds(scratch: Recorder): string[] {
  return scratch.uuids.filter((u) => u.startsWith("ChatMessage.")).map((u) => u.slice("ChatMessage.".length));
}

export const clearChatBatch = batchSpec<Scratch>("clearChat", ({ describe, it, assert }, scratch) => {
  describe("Clear Chat Log mid-combat", () => {
    it("keeps or brings back the GM's turn record (a secret declaration, the steps back) and an attack card's record", async () => {
      // Before anything is made: a log with messages of the world's own is never cleared.
      const untouched = clearChatRefusal(
        game.messages.contents.map((m) => m.id),
        [],
      );
      if (untouched !== null) assert.fail(untouched);
      const { actor: hero, weapon } = await armedAttacker(scratch, "clear chat hero");
      const foe = await scratchActor(scratch, "clear chat foe", { abilities: { endurance: { value: 100 } } }, "npc");
      const scene = await scratchScene(scratch, "clear chat");
      const tokens = await scratchTokens(scratch, scene, [hero, foe]);
      const combat = await scratchCombat(scratch, scene, tokens);
      const npcToken = tokens[1];
      if (!npcToken) throw new Error("The NPC's token is missing.");
      const npcId = combatantOf(combat, npcToken).id ?? "";
      await declareAll(scratch, combat);
      await ask(scratch, advancePhaseQuery, { combatId: combat.id ?? "", from: combat.casePhase, force: true });
      // Every card will do here, in whatever phase the forced advance left the turn: attacks need not be the turn's.
      const card = await withSetting({ key: "attacksInTurn", value: false }, () => attackUntil(scratch, weapon.uuid, npcToken.uuid, () => true, MAX_ATTACK_TRIES));
      const before = recordView(combat, npcId);
      assert.ok(before.npcDeclared && before.steps > 0, "the GM's record holds the NPC's declaration and a step back");
      const refusal = clearChatRefusal(
        game.messages.contents.map((m) => m.id),
        madeMessageIds(scratch),
      );
      if (refusal !== null) assert.fail(refusal);
      // CLEAR CHAT: the chat log's Clear button (its confirmation answered yes).
      const answered = answerNextConfirm();
      try {
        await game.messages.flush();
      } finally {
        answered();
      }
      // Recreated by the active GM, or kept where Clear does not reach: either way, within a few seconds.
      await waitFor(() => recordLossAfterClear(before, recordView(combat, npcId)).length === 0, 5000);
      assert.deepEqual(recordLossAfterClear(before, recordView(combat, npcId)), [], "the turn record survived Clear Chat Log");
      await ask(scratch, stepBackQuery, { combatId: combat.id ?? "", steps: before.steps });
      assert.equal(combat.casePhase, "declare", "the Judge stepped back to Declare");
      // A card Clear deleted needs no record; one still there needs its record.
      if (card && game.messages.get(card.messageId)) assert.ok(loadCard(card.messageId).state.targets.length > 0, "the card that stayed reads with its record");
    });
  });
});
