/**
 * The character builder on a scratch hero, clicked as a player clicks it: opened through
 * `CONFIG.CASE.api.openCharacterBuilder`, *Add power* takes the first power of the Powers pack,
 * *Confirm* (its dialog answered yes) writes it. The power keeps the rank the pack gives it,
 * in the build and on the hero (not Typical, the rank of a power with no rank known).
 */
import { isItemType } from "../core/guards";
import { batchSpec } from "./batches";
import { builderRankProblems } from "./expected";
import { answerNextConfirm, scratchActor, waitFor, type Scratch } from "./scratch";

/** A rank read off a document's system data (null when it has none). */
function rankOf(doc: unknown): number | null {
  const rank = (doc as { system?: { rank?: unknown } } | null)?.system?.rank;
  return typeof rank === "number" ? rank : null;
}

export const builderBatch = batchSpec<Scratch>("builder", ({ describe, it, assert }, scratch) => {
  describe("the character builder", () => {
    it("adds a power from the Powers pack at the pack's rank and writes it so", async () => {
      const hero = await scratchActor(scratch, "builder");
      const app = await CONFIG.CASE.api.openCharacterBuilder(hero.uuid);
      assert.ok(app, "the builder opened");
      if (!app) return;
      try {
        app.element.querySelector<HTMLElement>('[data-action="builderAdd"][data-list="powers"]')?.click();
        assert.ok(await waitFor(() => app.build.powers.length === 1), "Add power added one power");
        const pick = app.build.powers[0];
        const packRank = rankOf(await fromUuid(pick?.uuid ?? ""));
        const written = () => hero.items.find((i) => isItemType(i, "power") && i.name === pick?.name);
        const answered = answerNextConfirm();
        try {
          app.element.querySelector<HTMLElement>('[data-action="builderConfirm"]')?.click();
          assert.ok(await waitFor(() => written() !== undefined, 10_000), `Confirm wrote ${pick?.name ?? "the power"} onto the hero`);
        } finally {
          answered();
        }
        assert.deepEqual(builderRankProblems(packRank, pick?.rank ?? null, rankOf(written())), [], "the pack's rank throughout");
      } finally {
        if (app.rendered) await app.close();
      }
    });
  });
});
