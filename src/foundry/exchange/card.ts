/**
 * The attack card on each client: rendered from the message for the user looking at it, and
 * the client halves of its buttons, each of which asks the active GM (gm-actions.ts holds the
 * GM halves). No die is rolled here: the GM rolls every die of the exchange.
 */
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import { cardForViewer, cardRevision } from "./card-store";
import { attackCardContext, type ExchangeCardView, type ExchangeSettings, type Viewer } from "./card-context";
import { applyAllQuery, applyDamageQuery, consequenceQuery, defenceShifts, defendQuery, escapeQuery, pullQuery, rollAllChecksQuery, rollToHitQuery, undoDamageQuery } from "./gm-actions";
import { requestGM } from "../requests/gm";
import { actorFromUuid } from "../core/guards";
import { COLORS, targetActions, type Color, type CsReason, type ExchangeState, type ExchangeTarget } from "../../rules/index";
import { callCaseHook } from "../core/case-hooks";
import type { ClickActions } from "../ui/click-actions";
import type { CardOwner } from "../ui/chat-card";
import { askFollowUp } from "./follow-up";
import { askPullDamage } from "../ui/dialogs";
import { pullDamageMax } from "../ui/dialog-forms";
import { boardCanvas, hoverToken, pingToken, tokenOnBoard, unhoverToken } from "./board";
import { applyToSelected } from "./apply-to-selected";
import { newestWaitingRow, rememberDefence, type WaitingRow } from "./defence-shortcut";
import { changeDefenceQuery } from "./npc-defence";
import { helplessNow } from "../combat/turn-feed";
import { RESIST_ACTIONS, karmaBeside } from "./resist-steps";
import { DEATH_ACTIONS } from "./death-steps";

export const ATTACK_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/attack-card.hbs`;

/** The viewer of a card on this client. */
export function currentViewer(): Viewer {
  const owns = (uuid: string): boolean => {
    const doc = fromUuidSync(uuid) as { isOwner?: boolean } | null;
    return doc?.isOwner === true;
  };
  const isNpc = (uuid: string): boolean => {
    const doc = fromUuidSync(uuid) as { type?: string } | null;
    return doc?.type === "npc";
  };
  const portrait = (uuid: string): string | null => {
    const doc = fromUuidSync(uuid) as { texture?: { src?: string | null }; img?: string | null } | null;
    return doc?.texture?.src ?? doc?.img ?? null;
  };
  return { isGM: game.user.isGM, owns, isNpc, portrait };
}

/**
 * Selects a row's token on the viewed scene and pans to it, when this user owns it (the GM owns
 * every token); otherwise says why nothing happened. Never throws for a missing canvas.
 */
export function selectToken(uuid: string): boolean {
  const board = boardCanvas();
  const token = tokenOnBoard(uuid, board);
  if (!board || !token) {
    ui.notifications.warn(game.i18n.localize("CASE.Exchange.TokenNotHere"));
    return false;
  }
  if (!token.isOwner) {
    ui.notifications.warn(game.i18n.localize("CASE.Exchange.TokenNotYours"));
    return false;
  }
  token.control({ releaseOthers: true });
  void board.animatePan({ x: token.center.x, y: token.center.y });
  return true;
}

export type { CardOwner } from "../ui/chat-card";

/**
 * The card's buttons, by `data-action`: ApplicationV2-shaped actions (`this` the card's
 * message, the click, the button), each reading its data from the button's dataset.
 */
export const CARD_ACTIONS: ClickActions<CardOwner> = {
  ...RESIST_ACTIONS,
  ...DEATH_ACTIONS,
  caseDefend(_event, target) {
    const data = target.dataset;
    rememberDefence(data.defence ?? "");
    return requestGM(defendQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: data.targetKey ?? "", defence: (data.defence ?? "") as never, karma: karmaBeside(target) });
  },
  caseChangeDefence(_event, target) {
    return requestGM(changeDefenceQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
  caseRollToHit() {
    return requestGM(rollToHitQuery, { messageId: this.messageId, revision: cardRevision(this.messageId) });
  },
  casePull(_event, target) {
    const data = target.dataset;
    const color = data.color as Color;
    if (!(COLORS as readonly string[]).includes(color)) return Promise.resolve();
    return requestGM(pullQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: data.targetKey ?? "", color, damage: undefined });
  },
  async casePullDamage(_event, target) {
    const data = target.dataset;
    const damage = await askPullDamage(pullDamageMax(data.max));
    if (damage === null) return;
    return requestGM(pullQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: data.targetKey ?? "", color: undefined, damage });
  },
  caseApplyDamage(_event, target) {
    return requestGM(applyDamageQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
  caseApplyToSelected(_event, target) {
    return applyToSelected(this.messageId, target.dataset.targetKey ?? "");
  },
  caseApplyAll() {
    return requestGM(applyAllQuery, { messageId: this.messageId, revision: cardRevision(this.messageId) });
  },
  caseRollAllChecks() {
    return requestGM(rollAllChecksQuery, { messageId: this.messageId, revision: cardRevision(this.messageId) });
  },
  caseUndoDamage(_event, target) {
    return requestGM(undoDamageQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
  caseConsequence(_event, target) {
    const data = target.dataset;
    return requestGM(consequenceQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: data.targetKey ?? "", check: data.check as "slam" | "stun" | "kill", karma: karmaBeside(target) });
  },
  caseFollowUp(_event, target) {
    return askFollowUp(this.messageId, target.dataset.targetKey ?? "", target.dataset.kind ?? "");
  },
  caseEscape(_event, target) {
    return requestGM(escapeQuery, { messageId: this.messageId, revision: cardRevision(this.messageId), targetKey: target.dataset.targetKey ?? "" });
  },
  caseSelectToken(_event, target) {
    selectToken(target.dataset.uuid ?? "");
  },
  async caseOpenTarget(_event, target) {
    const doc = await fromUuid(target.dataset.uuid ?? "");
    const actor = doc && "actor" in doc ? (doc as { actor: Actor.Implementation | null }).actor : (doc as Actor.Implementation | null);
    // Only a sheet this user may see opens (LIMITED or better); otherwise say so.
    if (!actor?.testUserPermission(game.user, "LIMITED")) {
      ui.notifications.warn(game.i18n.localize("CASE.Exchange.CannotSeeTarget"));
      return;
    }
    const sheet = actor.sheet;
    if (sheet instanceof foundry.applications.api.ApplicationV2) await sheet.render({ force: true });
  },
};

/**
 * Makes a rendered card's token rows highlight their tokens. Its buttons are wired by the card's
 * model (ui/chat-card.ts) through the one click dispatcher (ui/click-actions.ts): a button is
 * disabled while its request runs, and a failed request is shown to the user.
 */
export function activateCard(root: HTMLElement): void {
  // Pointer or keyboard on a token row highlights its token on the canvas (core's tracker does the same for combatants).
  for (const row of root.querySelectorAll<HTMLElement>(".target-row[data-token-uuid]")) {
    const uuid = row.dataset.tokenUuid ?? "";
    row.addEventListener("pointerenter", (event) => hoverToken(uuid, event));
    row.addEventListener("pointerleave", (event) => { unhoverToken(event); });
    row.addEventListener("focusin", (event) => hoverToken(uuid, event));
    row.addEventListener("focusout", (event) => { unhoverToken(event); });
  }
}

/**
 * The shifts the GM will put on each defence this viewer may choose now, by row and defence:
 * the GM's own `defenceShifts` (extra-defence penalty from the turn, talents, conditions), so
 * the buttons' odds are the odds of the roll the GM makes. Sealed rows are left out.
 */
export async function defenceShiftsFor(state: ExchangeState, viewer: Viewer): Promise<ExchangeSettings["defenceCs"]> {
  const bridge = (CONFIG as Partial<CONFIG>).CASE?.router.services.combat;
  if (!bridge) return undefined;
  const known = new Map<string, readonly CsReason[]>();
  for (const t of state.targets) {
    if (t.phase !== "awaitingDefence" || t.sealed === true || !(viewer.isGM || viewer.owns(t.actorUuid))) continue;
    const actor = await actorFromUuid(t.actorUuid);
    if (!actor) continue;
    for (const code of targetActions(state, t.key).defend) known.set(`${t.key}/${code}`, await defenceShifts(bridge, actor, code));
  }
  return (key, code) => known.get(`${key}/${code}`);
}

/**
 * Which rows' targets may defend now, as this client reads their actors and the combat (rules
 * turn/able.ts): a helpless target's owner sees No defence only. The GM's handler decides again.
 */
export async function mayDefendFor(state: ExchangeState, viewer: Viewer): Promise<NonNullable<ExchangeSettings["mayDefend"]>> {
  const bridge = (CONFIG as Partial<CONFIG>).CASE?.router.services.combat;
  const able = new Map<string, boolean>();
  for (const t of state.targets) {
    if (t.phase !== "awaitingDefence" || !(viewer.isGM || viewer.owns(t.actorUuid))) continue;
    const actor = await actorFromUuid(t.actorUuid);
    if (actor) able.set(t.key, helplessNow(actor, bridge ? await bridge.standing(actor) : null) === null);
  }
  return (key) => able.get(key) ?? true;
}

/** Rows already told about (message id and row key). */
export interface SeenRows {
  has(id: string): boolean;
  add(id: string): unknown;
}

/** How many told rows this tab remembers. */
const NOTICED_KEEP = 200;
const NOTICED_KEY = "case.noticedDefences";

/**
 * The rows this tab has already told its user about, kept in memory and in the tab's
 * sessionStorage, so a reload (which renders every card again) does not notify and ping again.
 */
const NOTICED_HERE = new Set<string>();
const NOTICED: SeenRows = {
  has: (id) => NOTICED_HERE.has(id) || noticedList().includes(id),
  add: (id) => {
    NOTICED_HERE.add(id);
    const list = [...noticedList().filter((n) => n !== id), id].slice(-NOTICED_KEEP);
    try {
      globalThis.sessionStorage.setItem(NOTICED_KEY, JSON.stringify(list));
    } catch {
      // No storage (private mode, full): the notice may come again after a reload.
    }
  },
};

function noticedList(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.sessionStorage.getItem(NOTICED_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Tells a player, once per card and row, that a card waits on a defence of a character they
 * own, and pings that token on their canvas (the GM sees every card and is not told). The
 * notice stays until clicked, and a click shows the row's defence choices ({@link showDefence}).
 * Returns the names told about.
 */
export function noticeWaitingDefences(messageId: string, state: ExchangeState, viewer: Viewer, seen: SeenRows = NOTICED): string[] {
  if (viewer.isGM) return [];
  const told: string[] = [];
  for (const t of state.targets) {
    if (!viewer.owns(t.actorUuid) || targetActions(state, t.key).defend.length === 0) continue;
    const id = `${messageId}:${t.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    // A notice that stays (v13 Notification: `permanent`, its `element` once shown); some test worlds give none back.
    const notice = ui.notifications.info(game.i18n.format("CASE.Exchange.DefenceWaiting", { attacker: state.attacker.name, name: t.name }), { permanent: true }) as { element?: HTMLElement | undefined } | undefined;
    notice?.element?.addEventListener("click", () => {
      void showDefence({ messageId, targetKey: t.key });
    });
    pingToken(t.uuid);
    told.push(t.name);
  }
  return told;
}

/** The attack card's view for the user on this client (its model, card-message.ts, renders it). */
export async function attackCardView(message: ChatMessage.Implementation): Promise<ExchangeCardView> {
  const state = cardForViewer(message);
  const viewer = currentViewer();
  const defenceCs = await defenceShiftsFor(state, viewer);
  const mayDefend = await mayDefendFor(state, viewer);
  return attackCardContext(state, viewer, {
    mayDefend,
    hideNpcDefences: game.settings.get(SYSTEM_ID, "hideNpcDefences"),
    ownersApplyDamage: game.settings.get(SYSTEM_ID, "damageAppliedBy") === "owners",
    karmaOnChecks: game.settings.get(SYSTEM_ID, "karmaOnChecks"),
    karmaOnDefence: game.settings.get(SYSTEM_ID, "karmaOnDefence"),
    karmaAgainstDeath: game.settings.get(SYSTEM_ID, "karmaAgainstDeath"),
    turn: game.combat?.started ? game.combat.round : null,
    table: CONFIG.CASE.universalTable,
    ...(defenceCs ? { defenceCs } : {}),
  });
}

/** After the card is in the page: its rows hover their tokens, and a defence waiting on this user is noticed. */
export function activateAttackCard(message: ChatMessage.Implementation, content: HTMLElement): void {
  activateCard(content);
  noticeWaitingDefences(message.id ?? "", cardForViewer(message), currentViewer());
}

/**
 * Defend where you look: brings row `targetKey` of the card in message `messageId` into view,
 * with its defence choices (the card's own buttons): the sidebar open on Chat
 * (`ui.sidebar.changeTab("chat", "primary")`, as public v13 modules call it), a GM's folded row
 * opened, the row scrolled to and its defence chosen last focused, which outlines the row
 * (chat.css) and lets Enter repeat that defence. A card the log does not show pops out
 * (`ChatPopout`, foundryvtt.com/api: `{ message }`).
 */
export async function showDefence(row: WaitingRow): Promise<void> {
  ui.sidebar.expand();
  ui.sidebar.changeTab("chat", "primary");
  const found = document.querySelector<HTMLElement>(`#chat [data-message-id="${row.messageId}"] .target-row[data-target-key="${row.targetKey}"]`);
  if (!found) {
    // A card the chat log does not show (an old one): it pops out in its own small window, with its choices.
    const message = game.messages.get(row.messageId);
    // fvtt-types reads the options as a deep partial of the message: the document itself is what core takes.
    if (message) await new foundry.applications.sidebar.apps.ChatPopout({ message: message as never }).render({ force: true });
    return;
  }
  found.querySelector("details")?.setAttribute("open", "");
  found.scrollIntoView({ block: "center" });
  found.querySelector<HTMLElement>(`[data-defence="${game.settings.get(SYSTEM_ID, "lastDefence")}"]`)?.focus();
}

export const DEFENCE_CHOICE_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/defence-choice.hbs`;

/**
 * The row's defence choices in a small dialog (DialogV2: a button per defence the card offers,
 * and No defence; the content says what each rolls on, its odds and what each colour does):
 * the choice goes to the GM as the card's own button would send it. Nothing when the row no
 * longer waits on this user.
 */
export async function askDefenceHere(row: WaitingRow): Promise<void> {
  const message = game.messages.get(row.messageId);
  if (!message) return;
  const view = await attackCardView(message);
  const target = view.rows.find((r) => r.key === row.targetKey);
  if (!target?.canDefend) return;
  const content = await foundry.applications.handlebars.renderTemplate(DEFENCE_CHOICE_TEMPLATE, { row: target, source: view.source });
  const buttons = [...target.defenceButtons.map((b) => ({ action: b.code, label: b.labelKey })), { action: "none", label: "CASE.Defence.none" }];
  const choice: unknown = await foundry.applications.api.DialogV2.wait({ window: { title: game.i18n.format("CASE.Exchange.ChooseDefenceFor", { name: target.name }) }, content, buttons, rejectClose: false });
  if (typeof choice !== "string" || !buttons.some((b) => b.action === choice)) return;
  rememberDefence(choice);
  await requestGM(defendQuery, { messageId: row.messageId, revision: cardRevision(row.messageId), targetKey: row.targetKey, defence: choice as never });
}

/**
 * The defend shortcut and the tracker's *Defend!* badge: the choices of the newest row waiting on
 * a defence of a target `mine` accepts (the shortcut: defence-shortcut.ts `viewerRows`), or a notice that none waits.
 */
export function defendShortcut(mine: (t: ExchangeTarget) => boolean, options: { readonly dialog?: boolean } = {}): Promise<boolean> {
  const row = newestWaitingRow(game.messages, mine, (m) => cardForViewer(m as ChatMessage.Implementation));
  if (!row) {
    ui.notifications.info(game.i18n.localize("CASE.Board.NothingWaits"));
    return Promise.resolve(false);
  }
  // The shortcut also opens the choices in a small dialog; the badge and the notice bring the row into view.
  return showDefence(row)
    .then(() => (options.dialog === true ? askDefenceHere(row) : undefined))
    .then(() => true);
}

/**
 * `case.renderAttackCard(message, html)`, once the card is filled in: core's
 * `renderChatMessageHTML` runs before the card exists, so modules that decorate chat listen to this one.
 */
export function announceAttackCard(message: ChatMessage.Implementation, html: HTMLElement): void {
  callCaseHook("case.renderAttackCard", message, html);
}

