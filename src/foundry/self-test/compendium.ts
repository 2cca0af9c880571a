/** Imports a hero from the system's compendium into the world and checks what the data model derives. */
import { SYSTEM_ID } from "../core/constants";
import { isCharacter } from "../core/guards";
import { COMPENDIUM_HERO, batchSpec } from "./batches";
import type { Scratch } from "./scratch";

export const compendiumBatch = batchSpec<Scratch>("compendium", ({ describe, it, assert }, scratch) => {
  describe(`the ${COMPENDIUM_HERO.pack} compendium`, () => {
    it(`imports ${COMPENDIUM_HERO.name} with the derived values the rules give`, async () => {
      const pack = game.packs.get(`${SYSTEM_ID}.${COMPENDIUM_HERO.pack}`);
      assert.ok(pack, `the pack ${SYSTEM_ID}.${COMPENDIUM_HERO.pack} is there`);
      if (!pack) return;
      const index = await pack.getIndex();
      const entry = index.find((e) => e.name === COMPENDIUM_HERO.name);
      assert.ok(entry, `${COMPENDIUM_HERO.name} is in the pack`);
      const imported = await game.actors.importFromCompendium(pack as foundry.documents.collections.CompendiumCollection<"Actor">, entry?._id ?? "");
      const actor = scratch.record(imported, `${COMPENDIUM_HERO.name} from the compendium`);
      assert.equal(actor.type, "hero", "a hero");
      assert.equal(actor.items.size, COMPENDIUM_HERO.items, "with every power, talent and weapon");
      assert.ok(isCharacter(actor), "a character");
      if (!isCharacter(actor)) return;
      const system = actor.system;
      assert.equal(system.health.max, COMPENDIUM_HERO.healthMax, "Health max");
      assert.equal(system.karma.max, COMPENDIUM_HERO.karmaMax, "Karma max");
      assert.equal(system.initiative, COMPENDIUM_HERO.initiative, "initiative modifier");
    });
  });
});
