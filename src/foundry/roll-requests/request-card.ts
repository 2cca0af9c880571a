/**
 * The roll request card on each client, and the Judge's ways of asking for a roll.
 *
 * The card is rendered for the user looking at it (request-card-context.ts): a Roll button on
 * each row this user may roll. A click opens the usual roll dialog on the clicker's client
 * (extra shifts, Karma; the intensity is the request's, shown, not chosen), then asks the
 * active GM, who rolls (gm-request.ts). The Judge asks through `promptRollRequest` (the
 * selected tokens), `askForRoll` (the API) or a `[[/case check …]]` link in a journal.
 */
import { isRankNumber, isScoreRef, readRollRequest, type RollRequest, type RollRequestSubject, type ScoreRef } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { formatSigned } from "../core/format";
import { actorFromUuid, isCharacter, isMessageType } from "../core/guards";
import { rollDialog } from "../dice/roll-dialog";
import { DEFAULT_ROLL_INPUT } from "../dice/roll-input";
import { rollScore } from "../dice/entry-points";
import { rollShifts } from "../dice/talents";
import { requestGM } from "../requests/gm";
import { QueryRefusal } from "../requests/router";
import { askForm } from "../ui/dialogs";
import type { ClickActions } from "../ui/click-actions";
import { refusalText } from "../ui/error-text";
import type { CardOwner } from "../ui/chat-card";
import { answerRollRequestQuery, createRequestCard } from "./gm-request";
import { readRollRequestForm, requestCardContext, rollRequestDialogContext, type RequestCardView, type RequestViewer } from "./request-card-context";
import { RefusalError } from "../core/refusal-texts";

export const ROLL_REQUEST_TEMPLATE = `${SYSTEM_PATH}/templates/chat/roll-request.hbs`;
export const ROLL_REQUEST_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/roll-request.hbs`;

/** The viewer of a request card on this client. */
function currentViewer(): RequestViewer {
  const doc = (uuid: string) => fromUuidSync(uuid) as { isOwner?: boolean; img?: string | null; prototypeToken?: { texture?: { src?: string | null } } } | null;
  return {
    isGM: game.user.isGM,
    owns: (uuid) => doc(uuid)?.isOwner === true,
    portrait: (uuid) => doc(uuid)?.img ?? null,
  };
}


/**
 * A row's Roll button: the roll dialog for the row's character on this client (its score,
 * talents and Karma pool as this client sees them; the GM reads them again), then the request.
 */
async function answerRow(messageId: string, rowKey: string): Promise<void> {
  const message = game.messages.get(messageId);
  const request = message && isMessageType(message, "rollRequest") ? readRollRequest(message.system.request) : null;
  const row = request?.rows.find((r) => r.key === rowKey);
  if (!request || !row) {
    ui.notifications.warn(game.i18n.localize("CASE.RollRequest.CardGone"));
    return;
  }
  const actor = await actorFromUuid(row.actorUuid);
  if (!actor || !isCharacter(actor)) {
    ui.notifications.error(game.i18n.format("CASE.RollRequest.ActorGone", { name: row.name }));
    return;
  }
  const talents = rollShifts(actor, { score: request.score });
  const talentShift = talents.reduce((s, t) => s + t.cs, 0);
  const input = await rollDialog(
    {
      subject: `${row.name}: ${request.label ?? game.i18n.localize(`CASE.Score.${request.score}`)}`,
      value: actor.system.score(request.score),
      karmaPool: actor.system.karma.value,
      talents: talents.map((t) => (t.localize ? game.i18n.localize(t.label) : t.label)),
      talentCs: formatSigned(talentShift),
      talentShift,
      intensityFixed: true,
    },
    { ...DEFAULT_ROLL_INPUT, intensity: request.intensity },
  );
  if (!input) return;
  await requestGM(answerRollRequestQuery, { messageId, rowKey, cs: input.cs, reason: input.reason, karma: input.karma });
}

/** The card's buttons, by `data-action`. */
export const REQUEST_CARD_ACTIONS: ClickActions<CardOwner> = {
  caseAnswerRollRequest(_event, target) {
    return answerRow(this.messageId, target.dataset.rowKey ?? "");
  },
};

/** The request card's view for the user on this client (its model, request-card-model.ts, renders it); only a GM's card is read. */
export function rollRequestCardView(message: ChatMessage.Implementation, request: () => RollRequest): RequestCardView {
  if (message.author?.isGM !== true) throw new RefusalError("notWrittenByGM");
  return requestCardContext(request(), currentViewer());
}

// ── Asking ───────────────────────────────────────────────────────────────────────────────

/** The characters behind the selected tokens (each actor once). */
function selectedSubjects(): RollRequestSubject[] {
  const board = (globalThis as { canvas?: { tokens?: { controlled?: readonly { actor?: Actor.Implementation | null; document?: { uuid?: string; name?: string } }[] } | null } | null }).canvas;
  const subjects: RollRequestSubject[] = [];
  for (const token of board?.tokens?.controlled ?? []) {
    const actor = token.actor;
    if (!actor || !isCharacter(actor)) continue;
    subjects.push({ actorUuid: actor.uuid, name: token.document?.name ?? actor.name });
  }
  return subjects;
}

/** What the Judge asks for (the API's argument). */
export interface AskForRollOptions {
  /** An ability ("endurance") or sub-score ("endurance.res"). */
  readonly score: string;
  /** The intensity's rank number, or null/absent for none. */
  readonly intensity?: number | null;
  readonly label?: string | null;
  /** The characters asked (actor or token UUIDs); absent: the selected tokens. */
  readonly uuids?: readonly string[];
}

/**
 * Posts a roll request (the GM): `CONFIG.CASE.api.askForRoll({ score, intensity, label, uuids })`.
 * Resolves to the card, or null after telling the user what was wrong.
 */
export async function askForRoll(options: AskForRollOptions): Promise<ChatMessage.Implementation | null> {
  try {
    if (!game.user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.RollRequest.GMOnly"));
    if (!isScoreRef(options.score)) throw new QueryRefusal("malformed", game.i18n.format("CASE.RollRequest.UnknownScore", { score: options.score }));
    const intensity = options.intensity ?? null;
    if (intensity !== null && !isRankNumber(intensity)) throw new QueryRefusal("malformed", game.i18n.format("CASE.RollRequest.BadIntensity", { value: String(intensity) }));
    const subjects = options.uuids ? await subjectsOf(options.uuids) : selectedSubjects();
    if (subjects.length === 0) throw new QueryRefusal("malformed", game.i18n.localize("CASE.RollRequest.NoneSelected"));
    return await createRequestCard({ score: options.score, intensity, label: options.label ?? null, subjects });
  } catch (error) {
    // A refusal in the reader's words (its key's text, or en.json's words it was made with); a rules error likewise.
    ui.notifications.error(refusalText(error));
    return null;
  }
}

async function subjectsOf(uuids: readonly string[]): Promise<RollRequestSubject[]> {
  const subjects: RollRequestSubject[] = [];
  for (const uuid of uuids) {
    const actor = await actorFromUuid(uuid);
    if (!actor || !isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.format("CASE.RollRequest.NotACharacter", { uuid }));
    subjects.push({ actorUuid: actor.uuid, name: actor.name });
  }
  return subjects;
}

/** The Judge's dialog: what to roll, against what, for the selected tokens. */
export async function promptRollRequest(): Promise<ChatMessage.Implementation | null> {
  if (!game.user.isGM) {
    ui.notifications.warn(game.i18n.localize("CASE.RollRequest.GMOnly"));
    return null;
  }
  const subjects = selectedSubjects();
  if (subjects.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.RollRequest.NoneSelected"));
    return null;
  }
  const content = await foundry.applications.handlebars.renderTemplate(ROLL_REQUEST_DIALOG_TEMPLATE, rollRequestDialogContext(foundry.utils.randomID(), subjects.map((s) => s.name)));
  const form = await askForm(game.i18n.localize("CASE.RollRequest.DialogTitle"), content, "CASE.RollRequest.Send", "fa-solid fa-dice-d20", "send");
  if (!form) return null;
  try {
    const { score, intensity, label } = readRollRequestForm(form);
    return await askForRoll({ score, intensity, label, uuids: subjects.map((s) => s.actorUuid) });
  } catch (error) {
    ui.notifications.error(refusalText(error));
    return null;
  }
}

/**
 * A `[[/case check …]]` link clicked: the GM asks the selected tokens' owners (a request card);
 * a player rolls it at once for their selected character (or their own), intensity set.
 */
export async function rollCheckLink(score: ScoreRef, intensity: number | null, label: string | null): Promise<void> {
  if (game.user.isGM) {
    await askForRoll({ score, intensity, label });
    return;
  }
  const selected = selectedSubjects()[0];
  const actor = selected ? await actorFromUuid(selected.actorUuid) : game.user.character;
  if (!actor || !actor.isOwner) {
    ui.notifications.warn(game.i18n.localize("CASE.RollRequest.NoCharacter"));
    return;
  }
  await rollScore(actor, score, { intensity });
}
