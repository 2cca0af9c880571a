/**
 * Minor foes: two unlinked tokens of one minor NPC form one group in the tracker (they declare
 * and roll initiative as one), and under the minor-foe rule that takes a damaged one out (switched on
 * for the test, put back afterwards) a hit applied through the card takes the foe out of the
 * fight: the card says so, the foe is defeated, and so is its combatant.
 */
import { targetActions } from "../../rules/index";
import { minorGroupsOf } from "../combat/foundry-host";
import { applyDamageQuery } from "../exchange/gm-actions";
import { MAX_ATTACK_TRIES, batchSpec } from "./batches";
import { ask } from "./exchange";
import { armedAttacker, attackUntil, cardState, combatantOf, scratchCombat } from "./fight";
import { scratchActor, scratchScene, scratchTokensAt, withSetting, type Scratch } from "./scratch";
import type { CaseCombat } from "../documents/combat";
import { cardRevision } from "../exchange/card-store";

export const minorFoesBatch = batchSpec<Scratch>("minorFoes", ({ describe, it, assert }, scratch) => {
  describe("minor foes", () => {
    let combat: CaseCombat | null = null;
    let thugs: TokenDocument.Implementation[] = [];
    let weaponUuid = "";

    it("two unlinked tokens of one minor NPC are one group in the tracker; the hero is in none", async () => {
      const { actor: hero, weapon } = await armedAttacker(scratch, "minor foes hero");
      weaponUuid = weapon.uuid;
      const thug = await scratchActor(scratch, "thug", { minor: true }, "npc");
      const scene = await scratchScene(scratch, "minor foes");
      const [heroToken] = await scratchTokensAt(scratch, scene, [{ actor: hero, square: { x: 2, y: 2 } }]);
      thugs = await scratchTokensAt(
        scratch,
        scene,
        [
          { actor: thug, square: { x: 3, y: 2 } },
          { actor: thug, square: { x: 3, y: 3 } },
        ],
        false,
      );
      assert.ok(heroToken, "the hero's token");
      if (!heroToken) return;
      combat = await scratchCombat(scratch, scene, [heroToken, ...thugs]);
      const groups = minorGroupsOf(combat);
      const [a, b] = thugs.map((t) => (combat ? groups.get(combatantOf(combat, t).id ?? "") : undefined));
      assert.ok(a !== undefined && a === b, "the thugs share a group");
      assert.isUndefined(groups.get(combatantOf(combat, heroToken).id ?? ""), "the hero is in no group");
    });

    it("under the minor-foe rule that takes a damaged minor foe out, a hit applied takes the thug out of the fight", async () => {
      const target = thugs[0];
      assert.ok(combat && target && weaponUuid, "the combat exists (the test before passed)");
      if (!combat || !target) return;
      const fight = combat;
      await withSetting({ key: "minorFoeRule", value: "outOnAnyDamage" }, async () => {
        // The combat waits in Declare: its attacks are not the turn's (that is the CASE turn's own batch).
        const hit = await withSetting({ key: "attacksInTurn", value: false }, () => attackUntil(scratch, weaponUuid, target.uuid, (state, key) => targetActions(state, key).apply, MAX_ATTACK_TRIES));
        assert.ok(hit, `a hit with damage within ${String(MAX_ATTACK_TRIES)} attacks`);
        if (!hit) return;
        await ask(scratch, applyDamageQuery, { messageId: hit.messageId, targetKey: hit.key, revision: cardRevision(hit.messageId) });
        assert.equal(cardState(hit.messageId).targets[0]?.applied?.out, true, "the card takes the thug out of the fight");
        assert.ok(target.actor?.statuses.has(CONFIG.specialStatusEffects.DEFEATED), "the thug is defeated");
        assert.ok(combatantOf(fight, target).isDefeated, "its combatant is marked defeated");
      });
    });
  });
});
