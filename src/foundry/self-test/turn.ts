/**
 * One CASE turn in the tracker: a combat of scratch tokens, begun; every combatant declares
 * through the declare query; the GM advances through every phase (forcing where the table lets
 * a phase wait) until the next turn's Declare.
 */
import type { TurnPhase } from "../../rules/index";
import { advancePhaseQuery, declareActionQuery } from "../combat/queries";
import { CaseCombat } from "../documents/combat";
import { MAX_TURN_STEPS, batchSpec, turnWalkProblems } from "./batches";
import { ask } from "./exchange";
import { recordingMessages, scratchActor, scratchScene, scratchTokens, type Scratch } from "./scratch";

export const turnBatch = batchSpec<Scratch>("turn", ({ describe, it, assert }, scratch) => {
  describe("one CASE turn", () => {
    let combat: CaseCombat | null = null;

    it("begins a combat of scratch tokens in the Declare phase", async () => {
      const hero = await scratchActor(scratch, "turn hero", { abilities: { intuition: { value: 30 } } });
      const foe = await scratchActor(scratch, "turn foe", {}, "npc");
      const scene = await scratchScene(scratch, "turn");
      const tokens = await scratchTokens(scratch, scene, [hero, foe]);
      const made = scratch.record(await Combat.implementation.create({ scene: scene.id }), "the combat");
      assert.ok(made instanceof CaseCombat, "the combat is CASE's");
      combat = made instanceof CaseCombat ? made : null;
      await made.createEmbeddedDocuments(
        "Combatant",
        tokens.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })),
      );
      assert.equal(made.combatants.size, 2, "two combatants");
      await recordingMessages(scratch, async () => {
        await made.startCombat();
      });
      assert.ok(made.started, "the combat started");
      assert.equal(combat?.casePhase, "declare", "the turn starts in Declare");
    });

    it("takes a declaration from every combatant", async () => {
      assert.ok(combat, "the combat exists (the test before passed)");
      if (!combat) return;
      for (const c of combat.combatants) {
        await ask(scratch, declareActionQuery, { combatId: combat.id ?? "", combatantId: c.id ?? "", declaration: { text: "Self-test", kind: null, attack: null, defence: null, actions: 1, secret: false } });
      }
      const turn = combat.caseTurn;
      for (const c of combat.combatants) assert.ok(turn.combatants.get(c.id ?? "")?.declaration, `${c.name ?? ""} has declared`);
    });

    it("advances through every phase to the next turn's Declare", async () => {
      assert.ok(combat, "the combat exists (the tests before passed)");
      if (!combat) return;
      const start = combat.caseTurn.combat.number;
      const phases: TurnPhase[] = [combat.casePhase];
      for (let step = 0; step < MAX_TURN_STEPS; step++) {
        await ask(scratch, advancePhaseQuery, { combatId: combat.id ?? "", from: combat.casePhase, force: true });
        phases.push(combat.casePhase);
        if (combat.casePhase === "declare") break;
      }
      const problems = turnWalkProblems(phases, start, combat.caseTurn.combat.number);
      assert.deepEqual(problems, [], `the walk ${phases.join(" → ")}`);
      assert.equal(combat.round, combat.caseTurn.combat.number, "Foundry's round follows the CASE turn");
    });
  });
});
