/**
 * The defence shortcut: a keybinding (Shift+D by default, changeable in Configure Controls)
 * that defends with the defence this user chose last, on the newest attack card waiting on a
 * defence of their token. The last defence is a client setting (`case.lastDefence`), so each
 * player's shortcut remembers their own. Registered with `game.keybindings.register`
 * (foundryvtt.com/api ClientKeybindings#register: name, hint, editable, onDown; done in init).
 */
import { DEFENCE_CODES, targetActions, type DefenceChoice } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { requestGM } from "../requests/gm";
import { cardForViewer, cardRevision } from "./card-store";
import { defendQuery } from "./gm-actions";
import type { Viewer } from "./card-context";

/** The keybinding's action name (under the system's namespace). */
export const DEFEND_LAST_ACTION = "defendLast";

function isDefenceChoice(code: string): code is DefenceChoice {
  return code === "none" || (DEFENCE_CODES as readonly string[]).includes(code);
}

/** Remembers the defence this user just chose on a card (ignored when not a defence). */
export function rememberDefence(code: string): void {
  if (!isDefenceChoice(code)) return;
  void game.settings.set(SYSTEM_ID, "lastDefence", code);
}

/** A card row the shortcut may defend. */
export interface WaitingRow {
  readonly messageId: string;
  readonly targetKey: string;
  readonly offered: readonly DefenceChoice[];
}

interface CardMessage {
  readonly id: string | null;
  readonly type: string;
  /** When it was created (ChatMessage#timestamp); the collection's order breaks ties (oldest first). */
  readonly timestamp?: number;
}

/**
 * The newest row, over the attack cards given, that waits on a defence of this viewer's
 * token: a player's own characters; the GM's only the tokens they have selected (`selected`
 * UUIDs), so a GM never defends for a token by chance. Null when nothing waits.
 */
export function newestWaitingRow(messages: Iterable<CardMessage>, viewer: Viewer, selected: readonly string[], read: (m: CardMessage) => ReturnType<typeof cardForViewer>): WaitingRow | null {
  const cards = [...messages]
    .map((m, order) => ({ m, order }))
    .filter(({ m }) => m.type === "attack" && m.id)
    .sort((a, b) => (b.m.timestamp ?? 0) - (a.m.timestamp ?? 0) || b.order - a.order)
    .map(({ m }) => m);
  for (const message of cards) {
    let state;
    try {
      state = read(message);
    } catch {
      continue; // a card that cannot be read waits on no one
    }
    for (const t of [...state.targets].reverse()) {
      const mine = viewer.isGM ? selected.includes(t.uuid) : viewer.owns(t.actorUuid);
      const defend = mine ? targetActions(state, t.key).defend : [];
      if (defend.length > 0) return { messageId: message.id ?? "", targetKey: t.key, offered: [...defend, "none"] };
    }
  }
  return null;
}

/**
 * Defends with the last defence on the newest card waiting on this user's token; tells the user
 * when nothing waits, no defence was chosen yet, or the last one is not offered there.
 */
export async function defendWithLast(viewer: Viewer, selected: readonly string[]): Promise<boolean> {
  const last = game.settings.get(SYSTEM_ID, "lastDefence");
  if (!isDefenceChoice(last)) {
    ui.notifications.warn(game.i18n.localize("CASE.Board.NoLastDefence"));
    return false;
  }
  const row = newestWaitingRow(game.messages, viewer, selected, (m) => cardForViewer(m as ChatMessage.Implementation));
  if (!row) {
    ui.notifications.info(game.i18n.localize("CASE.Board.NothingWaits"));
    return false;
  }
  if (!row.offered.includes(last)) {
    ui.notifications.warn(game.i18n.format("CASE.Board.LastDefenceNotOffered", { defence: game.i18n.localize(`CASE.Defence.${last}`) }));
    return false;
  }
  await requestGM(defendQuery, { messageId: row.messageId, targetKey: row.targetKey, revision: cardRevision(row.messageId), defence: last });
  return true;
}

/** Registers the shortcut (on init). `run` is what a key press does (the card's defendWithLast for this client). */
export function registerDefenceShortcut(run: () => Promise<unknown>): void {
  game.keybindings.register(SYSTEM_ID, DEFEND_LAST_ACTION, {
    name: "CASE.Board.DefendLastName",
    hint: "CASE.Board.DefendLastHint",
    // "SHIFT": a MODIFIER_KEYS name, which ClientKeybindings maps to its key ("Shift").
    editable: [{ key: "KeyD", modifiers: ["SHIFT"] }],
    onDown: () => {
      void run();
      return true;
    },
  });
}
