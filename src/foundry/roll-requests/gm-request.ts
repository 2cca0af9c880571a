/**
 * The GM's side of a roll request: making the card, and rolling a row when its owner asks.
 *
 * The card is a `rollRequest` chat message a GM writes; a card another user wrote (or
 * edited: Foundry lets a message's author update it) counts for nothing. A row's owner asks
 * the active GM through the request router (`answerRollRequestQuery`); the GM checks the
 * server-stamped asker owns the row's actor, reads the actor's score, talents and conditions
 * itself, spends the declared Karma once (a ledger entry keyed by the request), rolls the d100
 * as a real Roll on its own client and writes the row's result on the card, holding the card's
 * lock. A row is rolled once; a replayed request changes nothing.
 */
import {
  KARMA_MINIMUM,
  RollRequestError,
  createRollRequest,
  mayRollRequestRow,
  readRollRequest,
  recordRequestResult,
  requestRow,
  type RollRequest,
  type RollRequestSubject,
  type ScoreRef,
} from "../../rules/index";
import { actorFromUuid, isCharacter, isMessageType } from "../core/guards";
import { resolveCheck } from "../dice/action-card-context";
import { showDice } from "../dice/dice-so-nice";
import { MAX_DIALOG_CS } from "../dice/roll-input";
import { rollShifts } from "../dice/talents";
import type { RollCheck, ShiftReason } from "../dice/roll-check";
import { userOwns } from "../requests/gm";
import { actorLocksOf, spendKarmaOnce } from "../actor-writes";
import { QueryRefusal, defineQuery, intField, payloadRecord, stringField, type AskingUser } from "../requests/router";
import { messageUpdate } from "../data/system-data";
import { refuseHelpless, turnRollShifts } from "../combat/turn-feed";
import type { CombatBridge } from "../combat/bridge";
import { beginSpend } from "../requests/spend-note";
import { RefusalError } from "../core/refusal-texts";

/** The stored shape's version (request-card-model.ts): a card records the one that wrote it. */
export const ROLL_REQUEST_CARD_SCHEMA_VERSION = 1;

/** How many handled request ids a card remembers (the newest): a replay changes nothing. */
export const REQUEST_CARD_MEMORY = 200;

const ID = /^[A-Za-z0-9]{16}$/;
const KEY = /^\d{1,3}$/;

/** The lock every answer on one request card holds. */
export function requestCardLock(messageId: string): string {
  return `rollRequest:${messageId}`;
}

/** Turns a rules refusal into a request refusal. */
function refusal(error: unknown): never {
  if (error instanceof RollRequestError) throw QueryRefusal.of(error.kind === "stale" ? "stale" : "malformed", error);
  if (error instanceof RangeError || error instanceof TypeError) throw QueryRefusal.of("malformed", error);
  throw error;
}

/** A request card as the GM works on it. */
interface LoadedRequestCard {
  readonly message: ChatMessage.Implementation;
  readonly request: RollRequest;
  readonly requests: readonly string[];
}

/**
 * The request card `messageId`, checked. Refused: gone ("stale"), not a request card
 * ("malformed"), or not written by a GM ("forbidden").
 */
export function loadRequestCard(messageId: string): LoadedRequestCard {
  const message = game.messages.get(messageId);
  if (!message) throw new QueryRefusal("stale", game.i18n.localize("CASE.RollRequest.CardGone"));
  if (!isMessageType(message, "rollRequest")) throw new QueryRefusal("malformed", game.i18n.localize("CASE.RollRequest.NotRequest"));
  if (message.author?.isGM !== true) throw QueryRefusal.keyed("forbidden", "notWrittenByGM");
  const system = message.system;
  try {
    return { message, request: readRollRequest(system.request), requests: system.requests };
  } catch (error) {
    return refusal(error);
  }
}

/** What the Judge asks for: a score, an optional intensity and label, and the characters asked. */
export interface RollRequestInput {
  readonly score: ScoreRef;
  readonly intensity: number | null;
  readonly label: string | null;
  readonly subjects: readonly RollRequestSubject[];
}

/**
 * Posts a request card (a GM only: the card counts only when a GM wrote it). RollRequestError
 * naming the fault for a bad request (no one asked, an unknown score, a bad intensity).
 */
export async function createRequestCard(input: RollRequestInput): Promise<ChatMessage.Implementation> {
  if (!game.user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.RollRequest.GMOnly"));
  const request = createRollRequest(input.score, input.intensity, input.label, input.subjects);
  const message = await ChatMessage.implementation.create({
    type: "rollRequest",
    speaker: { alias: game.user.name },
    content: "",
    system: { request, requests: [], schemaVersion: ROLL_REQUEST_CARD_SCHEMA_VERSION },
  });
  if (!message) throw new RefusalError("notPosted");
  return message;
}

/** What the row's owner chose in the roll dialog. */
export interface AnswerPayload {
  readonly messageId: string;
  readonly rowKey: string;
  readonly cs: number;
  readonly reason: string;
  readonly karma: number;
}

function parseAnswer(raw: unknown): AnswerPayload {
  const r = payloadRecord(raw);
  const reason = r.reason ?? "";
  if (typeof reason !== "string" || reason.length > 100) throw QueryRefusal.keyed("malformed", "fieldLength", { key: "reason", min: 0, max: 100 });
  const karma = intField(r, "karma", 0, 1_000_000);
  if (karma > 0 && karma < KARMA_MINIMUM) throw new QueryRefusal("malformed", game.i18n.format("CASE.Dialog.Error.KarmaMinimum", { min: String(KARMA_MINIMUM) }));
  return { messageId: stringField(r, "messageId", ID), rowKey: stringField(r, "rowKey", KEY), cs: intField(r, "cs", -MAX_DIALOG_CS, MAX_DIALOG_CS), reason: reason.trim(), karma };
}

/** The GM or an owner of the row's actor may roll it; anyone else is refused. */
async function mustOwnRow(user: AskingUser, p: AnswerPayload): Promise<void> {
  if (user.isGM) return;
  const { request } = loadRequestCard(p.messageId);
  let row;
  try {
    row = requestRow(request, p.rowKey);
  } catch (error) {
    refusal(error);
  }
  const actor = await actorFromUuid(row.actorUuid);
  if (!actor || !userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.RollRequest.NotYours", { name: row.name }));
}

/**
 * The check the GM rolls for a row: the actor's own score, talents and conditions, the running
 * turn's shifts on its FEATs (`turn`, read from the combat: rules turn/shifts.ts), plus the
 * roller's shift and Karma.
 */
function rowCheck(actor: Actor.Implementation, request: RollRequest, p: AnswerPayload, turn: readonly ShiftReason[] = []): RollCheck {
  if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
  const own: ShiftReason[] = p.cs === 0 ? [] : [{ cs: p.cs, label: p.reason || "CASE.Dialog.Modifier", localize: p.reason === "" }];
  return {
    label: request.label ?? `CASE.Score.${request.score}`,
    localizeLabel: request.label === null,
    score: request.score,
    value: actor.system.score(request.score),
    shifts: [...rollShifts(actor, { score: request.score }), ...turn, ...own],
    karma: p.karma,
    intensity: request.intensity,
    needed: null,
    blindsided: false,
    attack: null,
  };
}

/** A row's owner (or the GM) rolls it: once per row, the die rolled on the GM. */
export const answerRollRequestQuery = defineQuery<AnswerPayload, null, { readonly combat: CombatBridge }>({
  name: "answerRollRequest",
  parse: parseAnswer,
  // The card, and the row's character (its Karma is spent on the roll).
  async lockKeys(p) {
    let actorUuid: string | null = null;
    try {
      actorUuid = requestRow(loadRequestCard(p.messageId).request, p.rowKey).actorUuid;
    } catch {
      // a card or row that cannot be read: the handler refuses it
    }
    return [requestCardLock(p.messageId), ...(actorUuid ? await actorLocksOf([actorUuid]) : [])];
  },
  authorize: mustOwnRow,
  async handle(_user, p, context) {
    const card = loadRequestCard(p.messageId);
    if (card.requests.includes(context.requestId)) return null;
    const row = (() => {
      try {
        return requestRow(card.request, p.rowKey);
      } catch (error) {
        return refusal(error);
      }
    })();
    if (!mayRollRequestRow(card.request, p.rowKey)) throw new QueryRefusal("stale", game.i18n.format("CASE.RollRequest.AlreadyRolled", { name: row.name }));
    const actor = await actorFromUuid(row.actorUuid);
    if (!actor) throw new QueryRefusal("stale", game.i18n.format("CASE.RollRequest.ActorGone", { name: row.name }));
    // The helpless make no FEAT; in a running combat the turn's shifts reach it (both read by the GM from the actor and the combat).
    const standing = await context.services.combat.standing(actor);
    refuseHelpless(actor, standing, "Feat");
    const check = rowCheck(actor, card.request, p, turnRollShifts(standing, "feat"));
    const what = check.localizeLabel ? game.i18n.localize(check.label) : check.label;
    // The GM's whispered note of this spend first (requests/spend-note.ts): a ledger entry on the
    // player's own actor counts only with its nonce, which no player receives. The note names the
    // card and the row too: a request id its author reuses (keepId) on another row gets a new one.
    const nonce = p.karma > 0 ? await beginSpend(`${context.requestId}:${p.messageId}:${p.rowKey}`) : undefined;
    await spendKarmaOnce(actor, p.karma, context, game.i18n.format("CASE.KarmaLog.RollReason", { label: what }), nonce);
    // The die is a real Roll on this (the GM's) client, read on the Universal Table in use.
    const roll = await new Roll("1d100").evaluate();
    // Shown once (the card's copy is not animated again); the result is written after the dice land.
    const landed = showDice(roll, false);
    const outcome = resolveCheck(check, roll.total, CONFIG.CASE.universalTable);
    if (!outcome) throw QueryRefusal.keyed("failed", "rollNoResult");
    const shift = check.shifts.reduce((sum, s) => sum + s.cs, 0);
    let next: RollRequest;
    try {
      // The card is public: an NPC's row keeps its score and shifts off it (players never see an NPC's scores).
      const sealed = actor.type === "npc";
      const shifts = check.shifts.filter((x) => x.cs !== 0).map((x) => ({ cs: x.cs, label: x.label, localize: x.localize }));
      next = recordRequestResult(card.request, p.rowKey, { die: outcome.roll, value: sealed ? null : check.value, shift: sealed ? null : shift, ...(sealed ? {} : { shifts }), karma: p.karma, color: outcome.color, success: outcome.success });
    } catch (error) {
      refusal(error);
    }
    const rolls = [...card.message.rolls.map((r) => JSON.stringify(r.toJSON())), JSON.stringify(roll.toJSON())];
    await landed;
    await card.message.update(
      messageUpdate("rollRequest", { "system.request": next, "system.requests": [...card.requests, context.requestId].slice(-REQUEST_CARD_MEMORY) }, { rolls }),
    );
    return null;
  },
});
