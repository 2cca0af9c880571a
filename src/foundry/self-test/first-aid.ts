/**
 * First aid in the tracker: the Judge marks a hero dying (the tracker's condition query); an
 * ally standing beside it with the First Aid talent aids it through the first aid query (the
 * GM's handler reads the talent and the reach from the world), and it is Aided; an ally out of
 * reach is refused.
 */
import { firstAidQuery, setConditionQuery } from "../combat/queries";
import { batchSpec } from "./batches";
import { ask } from "./exchange";
import { FIRST_AID_TALENT, expectedAid } from "./expected";
import { combatantOf, scratchCombat } from "./fight";
import { scratchActor, scratchScene, scratchTokensAt, type Scratch } from "./scratch";

/** A scratch hero who knows first aid (the talent by its own name: the rules read the name). */
async function medic(scratch: Parameters<typeof scratchActor>[0], name: string): Promise<Actor.Implementation> {
  const actor = await scratchActor(scratch, name);
  await actor.createEmbeddedDocuments("Item", [{ name: FIRST_AID_TALENT, type: "talent" }]);
  return actor;
}

export const firstAidBatch = batchSpec<Scratch>("firstAid", ({ describe, it, assert }, scratch) => {
  describe("first aid", () => {
    it("an adjacent ally with the talent stops a dying hero's loss; one out of reach is refused", async () => {
      const victim = await scratchActor(scratch, "first aid victim");
      const near = await medic(scratch, "medic beside");
      const far = await medic(scratch, "medic far off");
      const scene = await scratchScene(scratch, "first aid");
      const tokens = await scratchTokensAt(scratch, scene, [
        { actor: victim, square: { x: 3, y: 3 } },
        { actor: near, square: { x: 4, y: 3 } },
        { actor: far, square: { x: 8, y: 8 } },
      ]);
      const combat = await scratchCombat(scratch, scene, tokens);
      const [victimId, nearId, farId] = tokens.map((t) => combatantOf(combat, t).id ?? "");
      const combatId = combat.id ?? "";
      await ask(scratch, setConditionQuery, { combatId, combatantId: victimId ?? "", condition: "dying", turns: 0, hold: "none" });
      assert.ok(combat.caseTurn.combatants.get(victimId ?? "")?.dying, "the Judge marked the hero dying");
      const refused = expectedAid(false);
      assert.ok(!refused.ok, "the rules refuse an aider out of reach");
      await ask(scratch, firstAidQuery, { combatId, combatantId: victimId ?? "", aiderId: farId ?? "" }).then(
        () => {
          assert.fail("an aider out of reach was accepted");
        },
        (error: unknown) => {
          assert.ok(String(error).includes("(forbidden)"), `refused (${String(error)})`);
        },
      );
      assert.ok(!combat.caseTurn.combatants.get(victimId ?? "")?.aided, "not aided by the refused one");
      const expected = expectedAid(true);
      const answer = await ask(scratch, firstAidQuery, { combatId, combatantId: victimId ?? "", aiderId: nearId ?? "" });
      assert.equal(answer?.stopsDying, expected.ok && expected.stopsDying, "the aid stops the loss");
      assert.ok(combat.caseTurn.combatants.get(victimId ?? "")?.aided, "the hero is Aided");
    });
  });
});
