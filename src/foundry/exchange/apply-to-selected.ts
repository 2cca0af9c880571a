/**
 * *Apply to selected tokens*: a row's damage goes to the tokens the user has selected instead
 * of the row's target (a miss that struck a bystander, the wrong token targeted). The client
 * half sends the selected tokens; the active GM checks the asker may apply damage to each
 * (the GM, or under the "damage applied by owners" setting, an owner of every one), then under
 * the card's lock and every actor's lock writes each one's Health with a ledger entry, and the
 * card last (rules `applyDamageToOthers`). A retry of the same step writes nothing twice.
 */
import { applyDamageToOthers, targetActions, targetOf } from "../../rules/index";
import { actorLock, ledgerEntry, writeOnce } from "../actor-writes";
import { actorFromUuid, isCharacter } from "../core/guards";
import { requestGM, userOwns } from "../requests/gm";
import { QueryRefusal, UUID_PATTERN, payloadRecord, stringField, type AskingUser } from "../requests/router";
import { selectedTokenUuids } from "./board";
import { cardFor, cardLock, defineCardQuery, mayApplyDamage, save, transition } from "./gm-actions";

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
  await mayApplyDamage(user, p);
  for (const { actor } of await selectedActors(p.tokenUuids)) {
    if (!userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Exchange.NotYourTarget", { name: actor.name }));
  }
}

export const applyToSelectedQuery = defineCardQuery({
  name: "applyToSelected",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    const list = r.tokenUuids;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_SELECTED_TOKENS) throw new QueryRefusal("malformed", `"tokenUuids" must list 1 to ${MAX_SELECTED_TOKENS} tokens.`);
    const tokenUuids = (list as unknown[]).map((u, i) => stringField({ [i]: u }, String(i), UUID_PATTERN));
    return { messageId: stringField(r, "messageId", ID), targetKey: stringField(r, "targetKey", KEY), tokenUuids: [...new Set(tokenUuids)] };
  },
  lockKey: (p) => cardLock(p.messageId),
  authorize: (user, p) => mayApplyToSelected(user, p),
  async handle(_user, p, context) {
    const loaded = await cardFor(p.messageId, context);
    if (!loaded) return null;
    const { state } = loaded;
    const target = transition(() => targetOf(state, p.targetKey));
    if (!targetActions(state, p.targetKey).apply) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.NothingToApply", { name: target.name }));
    const chosen = await selectedActors(p.tokenUuids);
    // One id per row, whatever the card's revision: a row goes to others at most once (no undo),
    // so a retry after a GM was cut between these writes and the card's finds its entries.
    const id = `${p.messageId}:${p.targetKey}:selected`;
    const field = "system.health.value";
    const next = await context.locks.run(chosen.map((c) => actorLock(c.actor.uuid)), async () => {
      // Health is read inside the locks; a retry reuses the "before" its ledger entry recorded.
      const health = (a: Actor.Implementation) => (isCharacter(a) ? a.system.health : { value: 0, max: 0 });
      const now = chosen.map(({ uuid, actor }) => ({ uuid, name: actor.name, value: ledgerEntry(actor, id, field)?.before ?? health(actor).value, max: health(actor).max }));
      const result = transition(() => applyDamageToOthers(state, p.targetKey, now));
      for (const [i, { actor }] of chosen.entries()) {
        const before = now[i]?.value ?? 0;
        const after = result.health[i]?.health ?? before;
        await writeOnce(actor, id, field, before, after);
      }
      return result.state;
    });
    await save("applyToSelected", loaded, next, context, []);
    return null;
  },
});

/** The client half: the row's damage to this user's selected tokens, or a warning when none is selected. */
export async function applyToSelected(messageId: string, targetKey: string): Promise<void> {
  const tokenUuids = selectedTokenUuids();
  if (tokenUuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Board.SelectTokensFirst"));
    return;
  }
  await requestGM(applyToSelectedQuery, { messageId, targetKey, tokenUuids });
}

/** The queries of the card and the board, for the root to register beside the card's. */
export const BOARD_QUERIES = [applyToSelectedQuery] as const;
