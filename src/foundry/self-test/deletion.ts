/**
 * A deletion that must really delete, on 13 and on 14: a flag deleted through core/compat.ts
 * `deletionUpdate` is gone after the update, on this client and in the world's database (read
 * back from the server, not from this client's copy); and the foe bonus an attack uses (the
 * attack query deletes it with the same syntax) is gone once the attack is made.
 */
import { SYSTEM_ID } from "../core/constants";
import { deletionUpdate, foundryGeneration } from "../core/compat";
import { foeBonusKey } from "../exchange/gm-actions";
import { foeBonus } from "../exchange/protection";
import { DEFAULT_ATTACK_INPUT } from "../exchange/attack-input";
import { attackQuery } from "../exchange/make-attack";
import { batchSpec } from "./batches";
import { ask } from "./exchange";
import { armedAttacker } from "./fight";
import { scratchActor, scratchScene, scratchTokens, type Scratch } from "./scratch";
import { caseFlag } from "../core/flags";

const PATH = `flags.${SYSTEM_ID}.foeBonus`;

function bonuses(flags: unknown): Readonly<Record<string, unknown>> {
  return caseFlag(flags, "foeBonus") ?? {};
}

/** The actor's flags as the world's database holds them (Foundry's database backend: a fresh read from the server). */
async function storedFlags(actor: Actor.Implementation): Promise<unknown> {
  // DatabaseBackend#get resolves to the documents (Promise.resolve reads either shape the types allow).
  const found: unknown = await Promise.resolve(CONFIG.DatabaseBackend.get(Actor.implementation, { query: { _id: actor.id } }));
  const fresh: unknown = Array.isArray(found) ? await Promise.resolve(found[0]) : null;
  return (fresh as { flags?: unknown } | null)?.flags ?? null;
}

export const deletionBatch = batchSpec<Scratch>("deletion", ({ describe, it, assert }, scratch) => {
  describe(`a deletion on Foundry ${String(foundryGeneration())}`, () => {
    it("a flag deleted through core/compat.ts is gone after the update, here and in the database", async () => {
      const hero = await scratchActor(scratch, "deletion");
      await hero.update({ [`${PATH}.Actor_keep`]: 1, [`${PATH}.Actor_gone`]: 2 } as Actor.UpdateData);
      assert.equal(bonuses(await storedFlags(hero)).Actor_gone, 2, "the flag was stored");
      await hero.update(deletionUpdate(PATH, ["Actor_gone"]));
      assert.ok(!("Actor_gone" in bonuses(hero.flags)), "gone on this client");
      const stored = bonuses(await storedFlags(hero));
      assert.ok(!("Actor_gone" in stored), "gone in the database");
      assert.equal(stored.Actor_keep, 1, "the other flag stays");
    });

    it("the foe bonus an attack uses is deleted by that attack", async () => {
      const { actor: attacker, weapon } = await armedAttacker(scratch, "foe bonus attacker");
      const target = await scratchActor(scratch, "foe bonus target", { abilities: { endurance: { value: 100 } } });
      const scene = await scratchScene(scratch, "deletion");
      const [, targetToken] = await scratchTokens(scratch, scene, [attacker, target]);
      assert.ok(targetToken, "the target's token");
      // A bare flag (as versions before foe-bonus.ts wrote it; no GM note backs it): the attack deletes it all the same.
      await attacker.update({ [`${PATH}.${foeBonusKey(target.uuid)}`]: 1 });
      assert.equal(foeBonus(attacker, target.uuid), 1, "the attacker has a bonus against the target");
      await ask(scratch, attackQuery, { itemUuid: weapon.uuid, targetUuids: [targetToken?.uuid ?? ""], input: { ...DEFAULT_ATTACK_INPUT } });
      assert.equal(foeBonus(attacker, target.uuid), 0, "used up on this client");
      assert.ok(!(foeBonusKey(target.uuid) in bonuses(await storedFlags(attacker))), "used up in the database");
    });
  });
});
