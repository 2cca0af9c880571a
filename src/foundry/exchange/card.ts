/**
 * The attack card on each client: rendered from the message for the user looking at it, and
 * the client halves of its buttons, each of which asks the active GM (gm-actions.ts holds the
 * GM halves). No die is rolled here: the GM rolls every die of the exchange.
 */
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import { cardForViewer } from "./card-store";
import { exchangeCardView, type Viewer } from "./view";
import { applyDamageQuery, consequenceQuery, defendQuery, escapeQuery, pullQuery, rollToHitQuery, undoDamageQuery } from "./gm-actions";
import { requestGM } from "../requests/gm";
import { COLORS, type Color } from "../../rules/index";
import { callCaseHook } from "../core/case-hooks";

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
  return { isGM: game.user.isGM, owns, isNpc };
}

/** What each card button asks for. `data` carries the button's dataset; `id` is the message id. */
export const CARD_ACTIONS: Record<string, (id: string, data: DOMStringMap) => Promise<unknown>> = {
  caseDefend: (id, data) => requestGM(defendQuery, { messageId: id, targetKey: data.targetKey ?? "", defence: (data.defence ?? "") as never }),
  caseRollToHit: (id) => requestGM(rollToHitQuery, { messageId: id }),
  casePull(id, data) {
    const color = data.color as Color;
    if (!(COLORS as readonly string[]).includes(color)) return Promise.resolve();
    return requestGM(pullQuery, { messageId: id, targetKey: data.targetKey ?? "", color, damage: undefined });
  },
  async casePullDamage(id, data) {
    const max = Number(data.max ?? 0);
    const value: unknown = await foundry.applications.api.DialogV2.wait({
      window: { title: game.i18n.localize("CASE.Exchange.PullDamage") },
      content: `<div class="form-group"><label>${game.i18n.format("CASE.Exchange.PullDamagePrompt", { max: String(max) })}</label><input type="number" name="damage" min="0" max="${String(max)}" step="1" value="${String(max)}" autofocus></div>`,
      buttons: [
        {
          action: "pull",
          label: "CASE.Exchange.PullLabel",
          default: true,
          callback: (_event, button) => Number((button.form?.elements.namedItem("damage") as HTMLInputElement | null)?.value),
        },
        { action: "cancel", label: "CASE.Dialog.Cancel" },
      ],
      rejectClose: false,
    });
    if (typeof value !== "number" || !Number.isInteger(value)) return;
    return requestGM(pullQuery, { messageId: id, targetKey: data.targetKey ?? "", color: undefined, damage: value });
  },
  caseApplyDamage: (id, data) => requestGM(applyDamageQuery, { messageId: id, targetKey: data.targetKey ?? "" }),
  caseUndoDamage: (id, data) => requestGM(undoDamageQuery, { messageId: id, targetKey: data.targetKey ?? "" }),
  caseConsequence: (id, data) => requestGM(consequenceQuery, { messageId: id, targetKey: data.targetKey ?? "", check: data.check as "slam" | "stun" | "kill" }),
  caseEscape: (id, data) => requestGM(escapeQuery, { messageId: id, targetKey: data.targetKey ?? "" }),
  async caseOpenTarget(_id, data) {
    const doc = await fromUuid(data.uuid ?? "");
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

/** Wires a rendered card's buttons; a button is disabled while its request runs. */
export function activateCard(root: HTMLElement, messageId: string): void {
  root.addEventListener("click", (event) => {
    const el = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-action]");
    if (!el || !root.contains(el)) return;
    const action = CARD_ACTIONS[el.dataset.action ?? ""];
    if (!action) return;
    event.preventDefault();
    if (el instanceof HTMLButtonElement) el.disabled = true;
    action(messageId, el.dataset)
      .catch((error: unknown) => {
        console.error("case | card action failed", error);
        ui.notifications.error(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        if (el instanceof HTMLButtonElement && el.isConnected) el.disabled = false;
      });
  });
}

/**
 * Fills a rendered attack message with its card for this user, then fires
 * `case.renderAttackCard(message, html)`: core's `renderChatMessageHTML` runs before the card
 * exists, so modules that decorate chat listen to this one.
 */
export async function renderAttackCard(message: ChatMessage.Implementation, html: HTMLElement): Promise<void> {
  const content = html.querySelector<HTMLElement>(".message-content");
  if (!content) return;
  try {
    const state = cardForViewer(message);
    const view = exchangeCardView(state, currentViewer(), {
      hideNpcDefences: game.settings.get(SYSTEM_ID, "hideNpcDefences"),
      ownersApplyDamage: game.settings.get(SYSTEM_ID, "damageAppliedBy") === "owners",
      turn: game.combat?.started ? game.combat.round : null,
    });
    content.innerHTML = await foundry.applications.handlebars.renderTemplate(ATTACK_CARD_TEMPLATE, { ...view });
    activateCard(content, message.id ?? "");
  } catch (error) {
    console.error("case | cannot render an attack card", error);
    content.innerHTML = await foundry.applications.handlebars.renderTemplate(`${SYSTEM_PATH}/templates/chat/roll-error.hbs`, {
      message: error instanceof Error ? error.message : String(error),
      total: null,
    });
  }
  callCaseHook("case.renderAttackCard", message, html);
}

