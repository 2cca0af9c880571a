/** A FEAT roll through the sheet's own entry point: an ability and a sub-score, each one card. */
import { COLORS } from "../../rules/index";
import { rollScore } from "../dice/entry-points";
import { CaseRoll } from "../dice/case-roll";
import { batchSpec } from "./batches";
import { recordingMessages, scratchActor, type Scratch } from "./scratch";

export const featBatch = batchSpec<Scratch>("feat", ({ describe, it, assert }, scratch) => {
  describe("a FEAT roll", () => {
    for (const score of ["fighting", "agility.dex"] as const) {
      it(`rolls ${score} without the dialog and posts one action card with its colour`, async () => {
        const hero = await scratchActor(scratch, `FEAT ${score}`, { abilities: { fighting: { value: 30 }, agility: { value: 20, dex: 40 } } });
        const { value: roll, messages } = await recordingMessages(scratch, () => rollScore(hero, score, { skipDialog: true }));
        assert.ok(roll instanceof CaseRoll, "a CaseRoll was made");
        assert.equal(roll?.check.value, score === "fighting" ? 30 : 40, "it rolled on the score's rank number");
        const die = roll?.die ?? 0;
        assert.ok(die >= 1 && die <= 100, `the die ${String(die)} is a d100`);
        assert.include(COLORS, roll?.outcome?.color, "the outcome has a colour");
        assert.equal(messages.length, 1, "one card");
        assert.ok(messages[0]?.rolls.some((r) => r instanceof CaseRoll), "the card carries the roll");
      });
    }
  });
});
