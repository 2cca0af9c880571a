/**
 * A roll request: the Judge asks a scratch hero for an Endurance roll through
 * `CONFIG.CASE.api.askForRoll`; the row is rolled through the answer query (what the card's
 * button sends after its dialog): once, on the GM, with its die and colour on the card; a second
 * answer is refused.
 */
import { COLORS, readRollRequest, type RollRequest } from "../../rules/index";
import { isMessageType } from "../core/guards";
import { answerRollRequestQuery } from "../roll-requests/gm-request";
import { batchSpec } from "./batches";
import { ask } from "./exchange";
import { recordingMessages, scratchActor, type Scratch } from "./scratch";

function requestOf(messageId: string): RollRequest | null {
  const message = game.messages.get(messageId);
  return message && isMessageType(message, "rollRequest") ? readRollRequest(message.system.request) : null;
}

export const rollRequestBatch = batchSpec<Scratch>("rollRequest", ({ describe, it, assert }, scratch) => {
  describe("a roll request", () => {
    it("is asked by the Judge, rolled once for the hero on the GM, and refuses a second roll", async () => {
      const hero = await scratchActor(scratch, "roll request", { abilities: { endurance: { value: 30 } } });
      const { value: card } = await recordingMessages(scratch, () => CONFIG.CASE.api.askForRoll({ score: "endurance", intensity: 20, label: "CASE self-test", uuids: [hero.uuid] }));
      assert.ok(card?.author?.isGM, "the GM posted the request card");
      const messageId = card?.id ?? "";
      const row = requestOf(messageId)?.rows[0];
      assert.equal(row?.actorUuid, hero.uuid, "the hero's row");
      assert.equal(row?.result, null, "not rolled yet");
      // ROLL REQUESTS: what the row's button sends once its dialog is answered.
      const answer = { messageId, rowKey: row?.key ?? "", cs: 0, reason: "", karma: 0 };
      await ask(scratch, answerRollRequestQuery, answer);
      const result = requestOf(messageId)?.rows[0]?.result;
      assert.ok(result, "the row has its result");
      const die = result?.die ?? 0;
      assert.ok(die >= 1 && die <= 100, `the die ${String(die)} is a d100`);
      assert.include(COLORS, result?.color, "with a colour");
      await ask(scratch, answerRollRequestQuery, answer).then(
        () => {
          assert.fail("a second roll of the row was accepted");
        },
        (error: unknown) => {
          assert.ok(String(error).includes("stale"), "a second roll is refused as stale");
        },
      );
    });
  });
});
