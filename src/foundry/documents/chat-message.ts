/**
 * The system's ChatMessage class. An `attack` message renders its card from `system.exchange`
 * each time it is shown, for the user looking at it (their buttons, hidden NPC defences), so a
 * reload loses nothing and each client sees what it may do. Clicks become GM requests.
 */
import { SYSTEM_ID, SYSTEM_PATH } from "../constants";
import { readExchange } from "../data/chat/attack-message";
import { exchangeCardView, type Viewer } from "../chat/exchange-view";
import { applyDamageQuery, consequenceQuery, defendQuery, escapeQuery, pullQuery, rollToHitQuery, undoDamageQuery } from "../chat/exchange-queries";
import { requestGM } from "../gm";
import { COLORS, type Color } from "../../rules/index";

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

async function d100(): Promise<number> {
  const roll = await new Roll("1d100").evaluate();
  return roll.total;
}

/** What each card button asks for. `el` carries the dataset; `id` is the message id. */
export const CARD_ACTIONS: Record<string, (id: string, data: DOMStringMap) => Promise<unknown>> = {
  async caseDefend(id, data) {
    const defence = data.defence ?? "";
    const die = defence === "none" ? undefined : await d100();
    return requestGM(defendQuery, { messageId: id, targetKey: data.targetKey ?? "", defence, die } as never);
  },
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
  async caseConsequence(id, data) {
    const check = data.check as "slam" | "stun" | "kill";
    return requestGM(consequenceQuery, { messageId: id, targetKey: data.targetKey ?? "", check, die: await d100() });
  },
  async caseEscape(id, data) {
    return requestGM(escapeQuery, { messageId: id, targetKey: data.targetKey ?? "", die: await d100(), attempt: Number(data.attempt ?? -1) });
  },
  async caseOpenTarget(_id, data) {
    const doc = await fromUuid(data.uuid ?? "");
    const actor = doc && "actor" in doc ? (doc as { actor: Actor.Implementation | null }).actor : (doc as Actor.Implementation | null);
    const sheet = actor?.sheet;
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

export class CaseChatMessage<SubType extends ChatMessage.SubType = ChatMessage.SubType> extends ChatMessage<SubType> {
  override async renderHTML(options?: Parameters<ChatMessage["renderHTML"]>[0]): Promise<HTMLElement> {
    const html = await super.renderHTML(options);
    if (this.type !== "attack") return html;
    const content = html.querySelector<HTMLElement>(".message-content");
    if (!content) return html;
    try {
      const state = readExchange((this.system as { exchange?: unknown }).exchange);
      const view = exchangeCardView(state, currentViewer(), {
        hideNpcDefences: game.settings.get(SYSTEM_ID, "hideNpcDefences"),
        ownersApplyDamage: game.settings.get(SYSTEM_ID, "damageAppliedBy") === "owners",
      });
      content.innerHTML = await foundry.applications.handlebars.renderTemplate(ATTACK_CARD_TEMPLATE, { ...view });
      activateCard(content, this.id ?? "");
    } catch (error) {
      console.error("case | cannot render an attack card", error);
      content.innerHTML = await foundry.applications.handlebars.renderTemplate(`${SYSTEM_PATH}/templates/chat/roll-error.hbs`, {
        message: error instanceof Error ? error.message : String(error),
        total: null,
      });
    }
    return html;
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    ChatMessage: typeof CaseChatMessage<ChatMessage.SubType>;
  }
  interface ConfiguredChatMessage<SubType extends ChatMessage.SubType> {
    document: CaseChatMessage<SubType>;
  }
}
