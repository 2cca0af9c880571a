/**
 * Karma against death on the card (rules exchange/death.ts, the world's `karmaAgainstDeath`
 * ruling): a row whose Kill? killed offers its owner *Karma against death*; the GM spends all
 * the character's Karma (the card's journal, as every row's Karma), takes back the Endurance rank
 * that Kill? cost (ledgered) and the defeated mark, and writes the card last. The character
 * stays dying until aided.
 */
import { buyOffDeath, targetOf } from "../../rules/index";
import { actorLock, ledgerEntry, writeOnce } from "../actor-writes";
import { isCharacter } from "../core/guards";
import { karmaRulings } from "../core/settings";
import { requestGM } from "../requests/gm";
import { payloadRecord } from "../requests/router";
import type { ClickActions } from "../ui/click-actions";
import { cardLockKeys } from "./card-request";
import { cardRevision, journalStep } from "./card-store";
import { defineCardQuery, effectId, mustOwnTarget, parseTargetRef, save, targetActor, transition } from "./card-step";
import { cardFor } from "./damage-steps";
import { rowKarmaStep, spendRowKarma } from "./row-karma";

export const buyOffDeathQuery = defineCardQuery({
  name: "buyOffDeath",
  parse: (raw: unknown) => parseTargetRef(payloadRecord(raw)),
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user, p) => mustOwnTarget(user, p, "consequence"),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: p.targetKey, action: "consequence" });
    if (!loaded) return null;
    const actor = await targetActor(transition(() => targetOf(loaded.state, p.targetKey)));
    // All the Karma the character had before this step spent it (a retry reads the first run's ledger entry).
    const karmaStep = await rowKarmaStep(loaded, p.targetKey, "death", actor);
    const karma = karmaStep.pool;
    const next = transition(() => buyOffDeath(loaded.state, p.targetKey, karma, karmaRulings()));
    await spendRowKarma(karmaStep, actor, karma, context, game.i18n.localize("CASE.Exchange.KarmaAgainstDeath"));
    const id = effectId(loaded, p.targetKey, "death");
    const { nonce } = await journalStep(loaded, id);
    await context.scope.within([actorLock(actor.uuid)], async () => {
      if (!isCharacter(actor)) return;
      const field = "system.lostEnduranceRanks";
      const lost = ledgerEntry(actor, id, field, nonce)?.before ?? actor.system.lostEnduranceRanks;
      await writeOnce(context.scope, actor, id, field, lost, Math.max(0, lost - 1), nonce);
      if (actor.statuses.has(CONFIG.specialStatusEffects.DEFEATED)) await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: false, overlay: true });
    });
    await save("buyOffDeath", loaded, next, context, []);
    return null;
  },
});

export const DEATH_ACTIONS: ClickActions<{ readonly messageId: string }> = {
  caseBuyOffDeath(_event, target) {
    return requestGM(buyOffDeathQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
};
