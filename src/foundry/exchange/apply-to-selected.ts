/**
 * *Apply to selected tokens*: a row's damage goes to the tokens the user has selected instead
 * of the row's target (a miss that struck a bystander, the wrong token targeted). The client
 * half sends the selected tokens; the active GM checks the asker may apply damage to each
 * (the GM, or under the "damage applied by owners" setting, an owner of every one), then under
 * the card's lock and every actor's lock writes each one's Health with a ledger entry, and the
 * card last (rules `applyDamageToOthers`). A retry of the same step writes nothing twice.
 */
import { applyDamageToOthers, targetActions, targetOf } from "../../rules/index";
import { actorLock, actorLocksOf, ledgerEntry, writeOnce } from "../actor-writes";
import { actorFromUuid, isCharacter } from "../core/guards";
import { requestGM, userOwns } from "../requests/gm";
import { QueryRefusal, payloadRecord, stringField, uuidListField, type AskingUser } from "../requests/router";
import { selectedTokenUuids } from "./board";
import { cardFor, cardLockKeys, defineCardQuery, revisionField, mayApplyDamage, notYours, redirectId, redirectsCut, save, transition } from "./gm-actions";
import { cardRevision, journalStep, loadCard } from "./card-store";

/** The most tokens one *Apply to selected* may name. */
export const MAX_SELECTED_TOKENS = 20;

const ID = /^[A-Za-z0-9]{16}$/;
const KEY = /^\d{1,3}$/;

/** The selected tokens' actors, one per actor (two tokens of one linked actor take the damage once). */
async function selectedActors(uuids: readonly string[]): Promise<{ uuid: string; actor: Actor.Implementation }[]> {
  const seen = new Set<string>();
  const out: { uuid: string; actor: Actor.Implementation }[] = [];
  for (const uuid of uuids) {
    const actor = await actorFromUuid(uuid);
    if (!actor || !isCharacter(actor)) throw new QueryRefusal("stale", game.i18n.localize("CASE.Board.SelectedNotCharacter"));
    if (seen.has(actor.uuid)) continue;
    seen.add(actor.uuid);
    out.push({ uuid, actor });
  }
  return out;
}

/**
 * The GM may; a player only where they could apply the row's damage itself (the owners setting,
 * and the row's target theirs: moving a foe's damage away is not theirs to do), and only onto
 * tokens they own.
 */
async function mayApplyToSelected(user: AskingUser, p: { readonly messageId: string; readonly targetKey: string; readonly tokenUuids: readonly string[] }): Promise<void> {
  if (user.isGM) return;
  await mayApplyDamage(user, p, "applyToSelected");
  for (const { actor } of await selectedActors(p.tokenUuids)) {
    if (!userOwns(user, actor)) throw notYours("applyToSelected", actor.name);
  }
}

export const applyToSelectedQuery = defineCardQuery({
  name: "applyToSelected",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    return { messageId: stringField(r, "messageId", ID), targetKey: stringField(r, "targetKey", KEY), revision: revisionField(r), tokenUuids: uuidListField(r, "tokenUuids", MAX_SELECTED_TOKENS) };
  },
  // The card's locks, the selected tokens' actors, and those of a redirect a GM began on other tokens.
  lockKeys: async (p, { combat }) => {
    let begun: readonly string[] = [];
    try {
      begun = redirectsCut(loadCard(p.messageId)).find((r) => r.targetKey === p.targetKey)?.tokenUuids ?? [];
    } catch {
      // a card that cannot be read: the handler refuses it
    }
    return cardLockKeys(p.messageId, combat, await actorLocksOf([...p.tokenUuids, ...begun]));
  },
  authorize: (user, p) => mayApplyToSelected(user, p),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context, undefined, p.targetKey, { revision: p.revision, key: p.targetKey, action: "applyToSelected" });
    if (!loaded) return null;
    const { state } = loaded;
    const target = transition(() => targetOf(state, p.targetKey));
    if (!targetActions(state, p.targetKey).apply) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToApply", { name: target.name }));
    // One id per row, whatever the card's revision: a row goes to others at most once (no undo),
    // so a retry after a GM was cut between these writes and the card's finds its entries.
    const id = redirectId(p.messageId, p.targetKey);
    const field = "system.health.value";
    // A redirect the GM began and was cut goes on to the tokens it was begun on, whatever is asked
    // now: the GM's note of it on the card's record names them (never the target's own flags).
    const begun = redirectsCut(loaded).find((r) => r.targetKey === p.targetKey);
    const tokenUuids = begun && begun.tokenUuids.length > 0 ? begun.tokenUuids : p.tokenUuids;
    const chosen = await selectedActors(tokenUuids);
    // First the GM's note, naming the tokens: a GM cut after this is found on the card and
    // finished, never applied a second time. Its nonce marks the Health writes that follow.
    const note = begun ?? (await journalStep(loaded, id, { tokenUuids: [...tokenUuids] }));
    const locked = [...new Set(chosen.map((c) => c.actor.uuid))].map(actorLock);
    const next = await context.scope.within(locked, async () => {
      // Health is read inside the locks; a retry reuses the "before" its ledger entry recorded.
      const health = (a: Actor.Implementation) => (isCharacter(a) ? a.system.health : { value: 0, max: 0 });
      const now = chosen.map(({ uuid, actor }) => ({ uuid, name: actor.name, value: ledgerEntry(actor, id, field, note.nonce)?.before ?? health(actor).value, max: health(actor).max }));
      const result = transition(() => applyDamageToOthers(state, p.targetKey, now));
      for (const [i, { actor }] of chosen.entries()) {
        const before = now[i]?.value ?? 0;
        const after = result.health[i]?.health ?? before;
        await writeOnce(context.scope, actor, id, field, before, after, note.nonce);
      }
      return result.state;
    });
    await save("applyToSelected", loaded, next, context, []);
    return null;
  },
  /** Redirects a GM began and was cut before the card: the GM taking over finishes them, on the same tokens. */
  unfinished() {
    const found: { messageId: string; targetKey: string; revision: number; tokenUuids: string[] }[] = [];
    for (const message of game.messages) {
      if (message.type !== "attack" || !message.id || message.author?.isGM !== true) continue;
      try {
        const loaded = loadCard(message.id);
        for (const cut of redirectsCut(loaded)) if (cut.tokenUuids.length > 0) found.push({ messageId: cut.messageId, targetKey: cut.targetKey, revision: loaded.revision, tokenUuids: [...cut.tokenUuids] });
      } catch {
        // a card that cannot be read has nothing to finish
      }
    }
    return found;
  },
});

/** The client half: the row's damage to this user's selected tokens, or a warning when none is selected. */
export async function applyToSelected(messageId: string, targetKey: string): Promise<void> {
  const tokenUuids = selectedTokenUuids();
  if (tokenUuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Board.SelectTokensFirst"));
    return;
  }
  await requestGM(applyToSelectedQuery, { messageId, targetKey, revision: cardRevision(messageId), tokenUuids });
}

/** The queries of the card and the board, for the root to register beside the card's. */
export const BOARD_QUERIES = [applyToSelectedQuery] as const;
