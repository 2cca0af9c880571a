/**
 * The second browser: a player's half of the exchange. Run by a player who owns a hero with an
 * attack, while the GM is connected in another browser. The player's requests travel as
 * request messages to the GM's client (no shortcut: this client is not the GM), and the batch
 * checks what the player sees: a card the GM wrote, no GM record, the defence resolved by the
 * GM, Apply as the world's setting allows, and a GM-only step refused. The player's request
 * messages are deleted afterwards; the attack card the GM wrote stays in chat (a player may not
 * delete it): the GM deletes it.
 */
import { targetActions, type ExchangeState } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { isCharacter, isItemType } from "../core/guards";
import { advancePhaseQuery } from "../combat/queries";
import { DEFAULT_ATTACK_INPUT } from "../exchange/attack-input";
import { cardForViewer, cardRevision } from "../exchange/card-store";
import { applyDamageQuery, defendQuery, undoDamageQuery } from "../exchange/gm-actions";
import { attackQuery } from "../exchange/make-attack";
import { caseRouter } from "../requests/gm";
import type { QueryDefinition, QueryResult } from "../requests/router";
import { batchSpec, playerApplyExpectation } from "./batches";
import { recordIdOf, settle, type Recorder, type Scratch } from "./scratch";

/** Asks the GM as this player; records the player's own request messages (the GM's writes are not the player's to delete). */
async function askAsPlayer<P, R>(scratch: Recorder, query: QueryDefinition<P, R, never>, payload: P): Promise<QueryResult<R>> {
  const before = new Set(game.messages.contents.map((m) => m.id));
  try {
    return await caseRouter().request(query, payload);
  } finally {
    scratch.recordAll(game.messages.contents.filter((m) => !before.has(m.id) && m.author?.isSelf === true));
    await settle();
  }
}

function expectOk<R>(result: QueryResult<R>, what: string): R | null {
  if (!result.ok) throw new Error(`${what} was refused (${result.reason}): ${result.message}`);
  return result.value;
}

/** The player's hero and its first attack that spends nothing (a power, or a weapon that does not count shots). */
function playersAttack(): { hero: Actor.Implementation; item: Item.Implementation } | null {
  const own = game.user.character;
  for (const hero of [...(own ? [own] : []), ...game.actors.contents]) {
    if (!hero.isOwner || !isCharacter(hero)) continue;
    for (const item of hero.items) {
      const attacks = (isItemType(item, "power") || isItemType(item, "weapon")) && item.system.attack.enabled;
      // A weapon that counts shots would spend one of the player's: not for a test.
      const free = !isItemType(item, "weapon") || !item.system.ammunition.tracked;
      if (attacks && free) return { hero, item };
    }
  }
  return null;
}

export const playerBatch = batchSpec<Scratch>("player", ({ describe, it, assert }, scratch) => {
  describe("a player's side of an attack", () => {
    let cardId = "";
    let key = "";
    let hero: Actor.Implementation | null = null;
    const view = (): ExchangeState => {
      const card = game.messages.get(cardId);
      if (!card) throw new Error("The attack card is gone.");
      return cardForViewer(card);
    };

    it("finds the GM connected and a hero of yours with an attack", () => {
      assert.ok(!game.user.isGM, "this browser is a player's");
      assert.ok(game.users.activeGM, "a GM is connected (log in as the GM in the first browser)");
      assert.ok(playersAttack(), "you own a hero with an attack power or a weapon that does not count shots");
    });

    it("asks the GM for an attack on your own hero and sees the card the GM wrote, without the GM's record", async () => {
      const found = playersAttack();
      assert.ok(found, "a hero with an attack");
      if (!found) return;
      hero = found.hero;
      const before = new Set(game.messages.contents.map((m) => m.id));
      const answer = expectOk(await askAsPlayer(scratch, attackQuery, { itemUuid: found.item.uuid, targetUuids: [found.hero.uuid], input: { ...DEFAULT_ATTACK_INPUT } }), "the attack");
      cardId = answer?.messageId ?? "";
      const card = game.messages.get(cardId);
      assert.ok(card, "the card reached this browser");
      assert.ok(card?.author?.isGM, "the GM wrote it");
      assert.ok(!card?.author?.isSelf, "this client did not write it");
      const recordId = recordIdOf(card);
      assert.ok(!game.messages.get(recordId), "the GM's record is not visible to a player");
      assert.ok(!game.messages.contents.some((m) => !before.has(m.id) && m.type === "attackRecord"), "no GM record reached this browser");
      const row = view().targets[0];
      key = row?.key ?? "";
      assert.equal(row?.phase, "awaitingDefence", "your hero may defend");
      assert.isAbove(targetActions(view(), key).defend.length, 0, "your hero is offered its defences");
    });

    it("defends with No defence: the GM rolls the to-hit and the card shows it here", async () => {
      assert.ok(cardId, "the card exists (the test before passed)");
      expectOk(await askAsPlayer(scratch, defendQuery, { messageId: cardId, targetKey: key, revision: cardRevision(cardId), defence: "none" }), "the defence");
      assert.equal(view().targets[0]?.phase, "resolved", "the row is resolved on this client");
      assert.ok(view().targets[0]?.toHit, "the to-hit is on the card");
      const again = await askAsPlayer(scratch, defendQuery, { messageId: cardId, targetKey: key, revision: cardRevision(cardId), defence: "none" });
      assert.ok(!again.ok, "a second defence is refused");
    });

    it("applies damage as the world's setting allows, and undoes it", async () => {
      assert.ok(cardId && hero, "the card exists (the tests before passed)");
      if (!hero) return;
      if (!targetActions(view(), key).apply) return; // a miss: nothing to apply
      const expectation = playerApplyExpectation(game.settings.get(SYSTEM_ID, "damageAppliedBy"));
      const health = isCharacter(hero) ? hero.system.health.value : 0;
      const applied = await askAsPlayer(scratch, applyDamageQuery, { messageId: cardId, targetKey: key, revision: cardRevision(cardId) });
      if (expectation === "forbidden") {
        assert.ok(!applied.ok && applied.reason === "forbidden", "only the GM applies damage in this world: refused");
        return;
      }
      expectOk(applied, "Apply damage");
      assert.equal(view().targets[0]?.phase, "applied", "applied on this client");
      expectOk(await askAsPlayer(scratch, undoDamageQuery, { messageId: cardId, targetKey: key, revision: cardRevision(cardId) }), "Undo");
      if (isCharacter(hero)) assert.equal(hero.system.health.value, health, "your hero's Health is back");
    });

    it("is refused a GM-only step (advancing a turn)", async () => {
      const result = await askAsPlayer(scratch, advancePhaseQuery, { combatId: foundry.utils.randomID(16), from: "declare", force: true });
      assert.ok(!result.ok, "refused");
      if (!result.ok) assert.include(["forbidden", "notGM"], result.reason, `refused as not the GM's (${result.reason})`);
    });
  });
});
