/**
 * The Karma tab on a scratch hero: the Judge's award through `CONFIG.CASE.api.awardKarma`
 * (the pool and its log line), an advance clicked on the sheet's Karma tab (its dialog
 * answered yes), and the group pool through the API (switched on for the test, put back as it
 * was afterwards).
 */
import type { KarmaLogEntry } from "../../rules/index";
import { isCharacter } from "../core/guards";
import { batchSpec } from "./batches";
import { KARMA_CASE, expectedAdvance } from "./expected";
import { answerNextConfirm, recordingMessages, scratchActor, waitFor, withSetting, type Scratch } from "./scratch";

interface KarmaView {
  readonly karma: number;
  readonly log: readonly KarmaLogEntry[];
  readonly stored: number;
}

function karmaOf(actor: Actor.Implementation): KarmaView {
  if (!isCharacter(actor)) throw new Error(`${actor.name} is not a character.`);
  const s = actor.system;
  return { karma: s.karma.value, log: s.karmaLog, stored: s.baseAbilities[KARMA_CASE.ability].value ?? s.abilities[KARMA_CASE.ability].value };
}

export const karmaBatch = batchSpec<Scratch>("karma", ({ describe, it, assert }, scratch) => {
  describe("the Karma tab", () => {
    let hero: Actor.Implementation | null = null;

    it("awards Karma through the API, and the log gives the reason", async () => {
      hero = await scratchActor(scratch, "karma", { abilities: { [KARMA_CASE.ability]: { value: KARMA_CASE.from } } });
      const before = karmaOf(hero).karma;
      const { value: awarded } = await recordingMessages(scratch, () => CONFIG.CASE.api.awardKarma([hero?.uuid ?? ""], KARMA_CASE.award, KARMA_CASE.reason));
      assert.equal(awarded?.[0]?.after, before + KARMA_CASE.award, "the award's answer");
      const now = karmaOf(hero);
      assert.equal(now.karma, before + KARMA_CASE.award, "the pool");
      assert.equal(now.log.at(-1)?.reason, KARMA_CASE.reason, "the log's newest line");
      assert.equal(now.log.at(-1)?.balanceAfter, now.karma, "the log's balance");
    });

    it("advances an ability from the Karma tab: the rank goes up, the cost comes off, the log says so", async () => {
      assert.ok(hero, "the hero exists (the test before passed)");
      if (!hero) return;
      const actor = hero;
      const sheet = actor.sheet;
      assert.ok(sheet instanceof foundry.applications.api.ApplicationV2, "the hero's sheet");
      if (!(sheet instanceof foundry.applications.api.ApplicationV2)) return;
      await sheet.render({ force: true });
      try {
        const expected = expectedAdvance(karmaOf(actor).karma);
        const button = sheet.element.querySelector<HTMLElement>(`[data-action="advance"][data-ability="${KARMA_CASE.ability}"][data-step="${KARMA_CASE.step}"]`);
        assert.ok(button, "the Karma tab offers the advance");
        const answered = answerNextConfirm();
        try {
          button?.click();
          assert.ok(await waitFor(() => karmaOf(actor).stored === expected.rank), `${KARMA_CASE.ability} went to ${String(expected.rank)}`);
        } finally {
          answered();
        }
        assert.equal(karmaOf(actor).karma, expected.balance, `${String(expected.cost)} Karma spent`);
        assert.equal(karmaOf(actor).log.at(-1)?.kind, "advance", "the log's newest line is the advance");
      } finally {
        await sheet.close();
      }
    });

    it("puts Karma into the group pool and draws it back", async () => {
      assert.ok(hero, "the hero exists (the tests before passed)");
      if (!hero) return;
      const actor = hero;
      await withSetting({ key: "karmaPool", value: true }, async () => {
        const before = karmaOf(actor).karma;
        const { value: put } = await recordingMessages(scratch, () => CONFIG.CASE.api.contributeToGroupPool(actor.uuid, KARMA_CASE.pool));
        assert.equal(put?.karma, before - KARMA_CASE.pool, "the hero's Karma after the contribution");
        const total = put?.total ?? 0;
        const { value: drawn } = await recordingMessages(scratch, () => CONFIG.CASE.api.drawFromGroupPool(actor.uuid, KARMA_CASE.pool));
        assert.equal(drawn?.karma, before, "the hero's Karma after drawing it back");
        assert.equal(drawn?.total, total - KARMA_CASE.pool, "the pool's total after the draw");
        assert.equal(karmaOf(actor).log.at(-1)?.balanceAfter, before, "the log's newest line follows the draw");
      });
    });
  });
});
