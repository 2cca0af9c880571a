/**
 * NPCs defend themselves (the world setting `npcDefence`, rules exchange/npc-defence.ts). When
 * an attack card is created, the active GM's client picks each waiting NPC row's defence (the
 * declared one, or the valid one with the best odds) and rolls it through the very handler a
 * click on that defence runs (`defendRow`), as a request of its own with an id made from the
 * card and the row: a second run (a replay, the create hook and a GM taking over both seeing
 * it) finds the request already on the card, or the row defended, and changes nothing. A GM
 * taking over picks the rows nobody picked (`unfinished`). Hidden NPC defences stay hidden:
 * the handler rolls and seals them as for a click.
 *
 * The GM may change a picked defence before damage is applied (`changeDefenceQuery`): the row
 * waits on its defence again and the GM clicks one, which is rolled again (rules
 * CHANGED_DEFENCE_REPLACES).
 */
import { helplessNow } from "../combat/turn-feed";
import { mayChangeDefence, pickNpcDefence, reopenDefence, targetActions, targetOf, type CsReason, type DefenceCode, type ExchangeState, type NpcDefenceMode, type NpcDefenceReason, type DefenceChoice } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { actorFromUuid } from "../core/guards";
import { QueryRefusal, payloadRecord, type AskingUser, type QueryRouter } from "../requests/router";
import { loadCard } from "./card-store";
import { cardFor, cardLockKeys, defenceShifts, defendRow, defineCardQuery, isNpcActor, parseRowRef, parseTargetRef, save, transition, type CardContext, type CardServices, type RowRequest, type TargetRef } from "./gm-actions";

/** The world's NPC-defence setting. */
export function npcDefenceMode(): NpcDefenceMode {
  return game.settings.get(SYSTEM_ID, "npcDefence");
}

function mustBeGM(user: AskingUser): void {
  if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.OnlyGMChangesDefence"));
}

/** The request id of the pick on one row: the same for every run, so the pick is made once. */
export function pickRequestId(messageId: string, targetKey: string): string {
  return `npcDefence.${messageId}.${targetKey}`;
}

/** The NPC rows of a card's exchange that wait on a defence the GM's client should pick. */
function rowsToPick(state: ExchangeState, mode: NpcDefenceMode): string[] {
  return state.targets.filter((t) => isNpcActor(t.actorUuid) && pickNpcDefence(state, t.key, { mode, declaration: null }) !== null).map((t) => t.key);
}

/**
 * Picks and rolls the defence of one NPC row, on the active GM, under the card's lock: the
 * declaration is read from the turn (the GM's record), the shifts as the defence buttons show
 * them, the odds from the world's Universal Table. Answers the pick, or null when there is
 * nothing to pick (the GM clicks, the row is defended, the Judge changed it).
 */
export const npcDefendQuery = defineCardQuery({
  name: "npcDefend",
  parse(raw: unknown): TargetRef {
    return parseRowRef(payloadRecord(raw));
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user) => {
    mustBeGM(user);
  },
  async handle(_user, p, context): Promise<{ defence: DefenceChoice; reason: NpcDefenceReason } | null> {
    const { state } = loadCard(p.messageId);
    const target = transition(() => targetOf(state, p.targetKey));
    if (!isNpcActor(target.actorUuid)) throw new QueryRefusal("malformed", game.i18n.format("CASE.Exchange.NotNpc", { name: target.name }));
    const actor = await actorFromUuid(target.uuid);
    if (!actor) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.TargetGone"));
    const bridge = context.services.combat;
    const declaration = (await bridge.declaration?.(actor)) ?? null;
    const shifts = new Map<DefenceCode, readonly CsReason[]>();
    const mode = npcDefenceMode();
    // A helpless NPC (Stunned, Unconscious, dying unaided) is picked No defence, as a click would be refused anything else.
    const mayDefend = helplessNow(actor, await bridge.standing(actor)) === null;
    if (pickNpcDefence(state, p.targetKey, { mode, declaration, mayDefend }) === null) return null;
    for (const code of targetActions(state, p.targetKey, null, { mayDefend }).defend) shifts.set(code, await defenceShifts(bridge, actor, code));
    const pick = pickNpcDefence(state, p.targetKey, { mode, declaration, mayDefend, shifts: (d) => shifts.get(d) ?? [], table: CONFIG.CASE.universalTable });
    if (pick === null) return null;
    await defendRow({ ...p, defence: pick.defence }, context, true);
    return { defence: pick.defence, reason: pick.reason };
  },
  unfinished() {
    const mode = npcDefenceMode();
    if (mode === "gm") return [];
    const found: TargetRef[] = [];
    for (const message of game.messages) {
      if (message.type !== "attack" || !message.id || message.author?.isGM !== true) continue;
      let state: ExchangeState;
      try {
        state = loadCard(message.id).state;
      } catch {
        continue; // a card that cannot be read has nothing to pick
      }
      for (const key of rowsToPick(state, mode)) found.push({ messageId: message.id, targetKey: key });
    }
    return found;
  },
});

/** The GM changes a defence the GM's client picked, before damage is applied: the row waits on its defence again. */
export const changeDefenceQuery = defineCardQuery({
  name: "changeDefence",
  parse(raw: unknown): RowRequest {
    return parseTargetRef(payloadRecord(raw));
  },
  lockKeys: (p, { combat }) => cardLockKeys(p.messageId, combat),
  authorize: (user) => {
    mustBeGM(user);
  },
  async handle(_user, p, context: CardContext) {
    const loaded = await cardFor(p.messageId, context, undefined, undefined, { revision: p.revision, key: p.targetKey, action: "changeDefence" });
    if (!loaded) return null;
    const target = transition(() => targetOf(loaded.state, p.targetKey));
    if (!mayChangeDefence(loaded.state, p.targetKey)) throw new QueryRefusal("stale", game.i18n.format("CASE.Exchange.CannotChangeDefence", { name: target.name }));
    const next = transition(() => reopenDefence(loaded.state, p.targetKey));
    await save("changeDefence", loaded, next, context, []);
    return null;
  },
});

export const NPC_DEFENCE_QUERIES = [npcDefendQuery, changeDefenceQuery] as const;

/**
 * Picks the NPC defences of every attack card this client sees created, when it is the active
 * GM and the setting is on: each row once, through the router as the GM's own request.
 */
export async function pickNpcDefences(router: QueryRouter<CardServices>, message: ChatMessage.Implementation): Promise<void> {
  if (message.type !== "attack" || !message.id || message.author?.isGM !== true) return;
  if (game.users.activeGM?.isSelf !== true) return;
  const mode = npcDefenceMode();
  if (mode === "gm") return;
  let state: ExchangeState;
  try {
    state = loadCard(message.id).state;
  } catch {
    return;
  }
  for (const key of rowsToPick(state, mode)) {
    const result = await router.runLocally(npcDefendQuery, { messageId: message.id, targetKey: key }, pickRequestId(message.id, key));
    if (!result.ok && result.reason !== "stale") console.error(`case | could not pick ${key}'s defence on ${message.id}: ${result.reason}: ${result.message}`);
  }
}

/** Wires {@link pickNpcDefences} to `createChatMessage` (the root calls it in init, beside the request hooks). */
export function registerNpcDefenceHooks(router: QueryRouter<CardServices>): void {
  Hooks.on("createChatMessage", (message: ChatMessage.Implementation) => {
    void pickNpcDefences(router, message);
  });
}
