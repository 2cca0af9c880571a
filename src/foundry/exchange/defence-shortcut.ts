/**
 * The defence shortcut: a keybinding (Shift+G by default, changeable in Configure Controls; not
 * Shift+D, which is core's "face right") that shows the defence choices of the newest attack card
 * waiting on a defence of this user's token (defend-here.ts `showDefence`: the card's row in a
 * small dialog, the defence chosen last focused, so Enter repeats it). The last defence is a
 * client setting (`case.lastDefence`), so each player's dialog remembers their own. Registered with
 * `game.keybindings.register` (foundryvtt.com/api ClientKeybindings#register: name, hint,
 * editable, onDown; done in init).
 */
import { DEFENCE_CODES, targetActions, type DefenceChoice, type ExchangeTarget } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import type { cardForViewer } from "./card-store";
import type { Viewer } from "./card-context";

/** The keybinding's action name (under the system's namespace). */
export const DEFEND_ACTION = "defend";

function isDefenceChoice(code: string): code is DefenceChoice {
  return code === "none" || (DEFENCE_CODES as readonly string[]).includes(code);
}

/** Remembers the defence this user just chose on a card (ignored when not a defence). */
export function rememberDefence(code: string): void {
  if (!isDefenceChoice(code)) return;
  void game.settings.set(SYSTEM_ID, "lastDefence", code);
}

/** A card row waiting on a defence. */
export interface WaitingRow {
  readonly messageId: string;
  readonly targetKey: string;
}

interface CardMessage {
  readonly id: string | null;
  readonly type: string;
  /** When it was created (ChatMessage#timestamp); the collection's order breaks ties (oldest first). */
  readonly timestamp?: number;
}

/** Whose rows the shortcut looks at: a player's own characters; the GM's only the tokens they have selected (`selected` UUIDs), so a GM never defends for a token by chance. */
export function viewerRows(viewer: Viewer, selected: readonly string[]): (t: ExchangeTarget) => boolean {
  return (t) => (viewer.isGM ? selected.includes(t.uuid) : viewer.owns(t.actorUuid));
}

/** The newest row, over the attack cards given, that waits on a defence of a target `mine` accepts. Null when nothing waits. */
export function newestWaitingRow(messages: Iterable<CardMessage>, mine: (t: ExchangeTarget) => boolean, read: (m: CardMessage) => ReturnType<typeof cardForViewer>): WaitingRow | null {
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
      if (mine(t) && targetActions(state, t.key).defend.length > 0) return { messageId: message.id ?? "", targetKey: t.key };
    }
  }
  return null;
}

/** Registers the shortcut (on init). `run` is what a key press does (defend-here.ts `defendShortcut` for this client). */
export function registerDefenceShortcut(run: () => Promise<unknown>): void {
  game.keybindings.register(SYSTEM_ID, DEFEND_ACTION, {
    name: "CASE.Board.DefendName",
    hint: "CASE.Board.DefendHint",
    // "SHIFT": a MODIFIER_KEYS name, which ClientKeybindings maps to its key ("Shift"). Shift+W/A/S/D are core's token facing.
    editable: [{ key: "KeyG", modifiers: ["SHIFT"] }],
    onDown: () => {
      void run();
      return true;
    },
  });
}
