/**
 * Active Effects on a character, as the data model applies them through the rules: an effect
 * on the actor raises an ability, another gives protection, and an effect carried by a power
 * sets Endurance to the power's rank ("@rank"), following the power when it is re-ranked.
 */
import { isCharacter } from "../core/guards";
import { EFFECT_MODE_NUMBERS } from "../data/actor/effect-changes";
import { batchSpec, scratchName } from "./batches";
import { EFFECT_CHANGES, EFFECT_HERO, EFFECT_POWER_RANKS, expectedEffects, type EffectChangeCase } from "./expected";
import { scratchActor, type Scratch } from "./scratch";

/**
 * EFFECTS: an effect's data in today's (v13) form: `changes` with Foundry's mode numbers. The
 * v14 form (`system.changes`, named change types) goes here.
 */
function effectData(name: string, change: EffectChangeCase, transfer = false): ActiveEffect.CreateData {
  return { name: scratchName(name), transfer, changes: [{ key: change.key, mode: EFFECT_MODE_NUMBERS[change.mode], value: change.value }] } as ActiveEffect.CreateData;
}

function scoresOf(actor: Actor.Implementation): { strength: number; endurance: number; physical: number } {
  if (!isCharacter(actor)) throw new Error(`${actor.name} is not a character.`);
  const s = actor.system;
  return { strength: s.abilities.strength.value, endurance: s.abilities.endurance.value, physical: s.effectProtection.physical };
}

export const effectsBatch = batchSpec<Scratch>("effects", ({ describe, it, assert }, scratch) => {
  describe("Active Effects", () => {
    const expected = expectedEffects();
    let hero: Actor.Implementation | null = null;

    it("an effect on the actor changes an ability, another gives protection", async () => {
      hero = await scratchActor(scratch, "effects", EFFECT_HERO);
      await hero.createEmbeddedDocuments("ActiveEffect", [effectData("Strength", EFFECT_CHANGES.ability), effectData("Protection", EFFECT_CHANGES.protection)]);
      const now = scoresOf(hero);
      assert.equal(now.strength, expected.strength, "Strength after the effect");
      assert.equal(now.physical, expected.physical, "the effect's physical protection");
      assert.equal(now.endurance, EFFECT_HERO.abilities.endurance.value, "Endurance untouched");
    });

    it('an effect on a power sets Endurance to the power\'s rank ("@rank"), and follows the power', async () => {
      assert.ok(hero, "the hero exists (the test before passed)");
      if (!hero) return;
      const [power] = await hero.createEmbeddedDocuments("Item", [
        { name: scratchName("Body Armor power"), type: "power", system: { rank: EFFECT_POWER_RANKS[0], active: true }, effects: [effectData("@rank", EFFECT_CHANGES.rank, true)] },
      ]);
      assert.ok(power, "the power exists");
      assert.equal(scoresOf(hero).endurance, expected.endurance[0], `Endurance at the power's rank ${String(EFFECT_POWER_RANKS[0])}`);
      await power?.update({ "system.rank": EFFECT_POWER_RANKS[1] } as Item.UpdateData);
      assert.equal(scoresOf(hero).endurance, expected.endurance[1], `Endurance follows the power to ${String(EFFECT_POWER_RANKS[1])}`);
      assert.equal(scoresOf(hero).strength, expected.strength, "the actor's own effect still applies");
    });
  });
});
