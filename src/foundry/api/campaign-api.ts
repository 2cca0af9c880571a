/**
 * The Judge's campaign tools between fights, at `CONFIG.CASE.api`:
 * - `awardKarma(actorUuids, amount, reason)`: Karma to each named character (rules karma.ts
 *   `awardKarma`), the pool and its log line in one update;
 * - `restSelected(days, care)`: a rest for the characters of the controlled tokens (rules
 *   recovery.ts, by the world's recovery settings): Health and lost Endurance ranks.
 *
 * Both run on the active GM through the query router, GM only, under each actor's lock
 * (`actorLock`, shared with the cards and the turn), and each write carries a ledger entry
 * naming the request (actor-writes.ts): a replayed request changes nothing twice.
 */
import { CARE_LEVELS, awardKarma, karmaLostForKill, type CareLevel, type KarmaChange, type KarmaKillRuling } from "../../rules/index";
import { actorFromUuid, characterSystem, isCharacter } from "../core/guards";
import { karmaLostForKillRuling, recoveryRulings } from "../core/settings";
import { requestGM } from "../requests/gm";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, uuidListField, type AskingUser } from "../requests/router";
import { MAX_REST_DAYS, actorLock, actorLocksOf, karmaUpdate, logDate, restOutcome, writeOnceWith } from "../actor-writes";
import { KARMA_REASON_LENGTH } from "../data/actor/karma-log";
import { MAX_KARMA_AWARD_AMOUNT, MAX_TARGETS } from "./damage-limits";
import { SYSTEM_PATH } from "../core/constants";
import { askForm } from "../ui/dialogs";
import { awardPromptContext, readAwardForm, type AwardChoice, type AwardPreset } from "./campaign-forms";
import { readRestForm, restDialogContext } from "../apps/sheet/sheet-campaign";
import { refusalText } from "../ui/error-text";

export const AWARD_PROMPT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/karma-award.hbs`;
const REST_PROMPT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/rest-dialog.hbs`;

const REQUEST_ID = /^[A-Za-z0-9]{16}$/;



/** The characters the UUIDs name (tokens or actors), one per actor; refused when one is gone or not a character. */
export async function charactersOf(uuids: readonly string[]): Promise<Actor.Implementation[]> {
  const actors = new Map<string, Actor.Implementation>();
  for (const uuid of uuids) {
    const actor = await actorFromUuid(uuid);
    if (!actor) throw new QueryRefusal("stale", game.i18n.format("CASE.DamageApi.TargetGone", { uuid }));
    if (!isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.format("CASE.DamageApi.NotCharacter", { name: actor.name }));
    if (!actors.has(actor.uuid)) actors.set(actor.uuid, actor);
  }
  return [...actors.values()];
}

/** Refuses anyone but a GM (the GM-only requests of the API). */
export function gmOnly(user: AskingUser): void {
  if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Campaign.GMOnly"));
}

// ---------------------------------------------------------------------------------------------
// Karma awards
// ---------------------------------------------------------------------------------------------

export interface AwardPayload {
  readonly requestId: string;
  readonly actorUuids: readonly string[];
  /** "award" adds `amount`; "kill" takes what the world's ruling takes for a kill (`KARMA_LOST_FOR_KILL`). */
  readonly kind: "award" | "kill";
  /** The Karma each character gains (0 for a kill). */
  readonly amount: number;
  readonly reason: string;
}

/** One character's award. */
export interface AwardedCharacter {
  readonly uuid: string;
  readonly name: string;
  readonly before: number;
  readonly after: number;
}

/** Validates untrusted data into an award, or throws QueryRefusal("malformed"). A kind absent is an award. */
export function parseAwardPayload(raw: unknown): AwardPayload {
  const r = payloadRecord(raw);
  const requestId = stringField(r, "requestId", REQUEST_ID);
  const kind = r.kind === undefined ? "award" : choiceOf(r, "kind", ["award", "kill"] as const);
  const amount = kind === "award" ? intField(r, "amount", 1, MAX_KARMA_AWARD_AMOUNT) : 0;
  const reason = typeof r.reason === "string" ? r.reason.trim() : "";
  if (reason === "" || reason.length > KARMA_REASON_LENGTH) throw QueryRefusal.keyed("malformed", "fieldLength", { key: "reason", min: 1, max: KARMA_REASON_LENGTH });
  return { requestId, actorUuids: uuidListField(r, "actorUuids", MAX_TARGETS), kind, amount, reason };
}

/** The award (or the kill's loss) for one character's pool, or null when it changes nothing. */
function karmaChangeFor(payload: AwardPayload, before: number, date: string, ruling: KarmaKillRuling): KarmaChange | null {
  return payload.kind === "award" ? awardKarma(before, payload.amount, payload.reason, date) : karmaLostForKill(before, payload.reason, date, ruling);
}

export const awardKarmaQuery = defineQuery({
  name: "awardKarma",
  parse: parseAwardPayload,
  lockKeys: (p) => actorLocksOf(p.actorUuids),
  authorize: gmOnly,
  async handle(user: AskingUser, payload: AwardPayload, context): Promise<AwardedCharacter[]> {
    const id = `karma:${user.id}:${payload.requestId}`;
    const field = "system.karma.value";
    // Read on the GM: the world's ruling, never the payload, decides what a kill costs.
    const ruling: KarmaKillRuling = payload.kind === "kill" ? karmaLostForKillRuling() : "none";
    if (payload.kind === "kill" && ruling === "none") throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Campaign.Award.NoKillLoss"));
    const actors = await charactersOf(payload.actorUuids);
    const date = logDate();
    // Each named character's Karma pool, Karma log and ledger: their locks are declared (lockKeys).
    return context.scope.within(actors.map((a) => actorLock(a.uuid)), async () => {
      const out: AwardedCharacter[] = [];
      for (const actor of actors) {
        const before = characterSystem(actor).karma.value;
        const change = karmaChangeFor(payload, before, date, ruling);
        if (!change) {
          out.push({ uuid: actor.uuid, name: actor.name, before, after: before });
          continue;
        }
        const update = karmaUpdate(actor, change.entry) as Record<string, unknown>;
        const { [field]: _pool, ...extra } = update;
        // Written once per request: a replay finds its ledger entry and leaves pool and log alone.
        const wrote = await writeOnceWith(context.scope, actor, id, field, before, change.balance, extra);
        out.push({ uuid: actor.uuid, name: actor.name, before, after: wrote ? change.balance : before });
      }
      return out;
    });
  },
});

/** A character the Judge's tools act for: its UUID and name (the team sheet's members). */
export interface Named {
  readonly uuid: string;
  readonly name: string;
}

/** The player characters of the world (heroes with a player owner): "all player characters". */
export function playerCharacterUuids(): string[] {
  return game.actors.filter((a) => a.type === "hero" && a.hasPlayerOwner).map((a) => a.uuid);
}

/** The characters of the user's controlled tokens (their actors' UUIDs). */
export function controlledActorUuids(): string[] {
  const tokens = canvas.tokens?.controlled ?? [];
  return [...new Set(tokens.map((t) => t.actor?.uuid).filter((u): u is string => typeof u === "string"))];
}

function invalid(error: unknown): null {
  ui.notifications.error(game.i18n.format("CASE.Campaign.Invalid", { message: refusalText(error) }));
  return null;
}

async function requestAward(actorUuids: readonly string[], kind: "award" | "kill", amount: number, reason: string): Promise<AwardedCharacter[] | null> {
  const payload = { requestId: foundry.utils.randomID(16), actorUuids: [...actorUuids], kind, amount, reason };
  try {
    parseAwardPayload(payload);
  } catch (error) {
    return invalid(error);
  }
  return (await requestGM(awardKarmaQuery, payload)) ?? null;
}

/**
 * Awards `amount` Karma with `reason` to each character the UUIDs name, through the active GM
 * (GM only). Resolves to what each character had before and after, or null (after a localised
 * notification) when the request is refused.
 */
export async function awardKarmaTo(actorUuids: readonly string[], amount: number, reason: string): Promise<AwardedCharacter[] | null> {
  return requestAward(actorUuids, "award", amount, reason);
}

/** The award dialog's label of a category (localised). */
export function awardChoiceLabel(choice: AwardChoice): string {
  return game.i18n.localize(choice === "custom" ? "CASE.Campaign.Award.Custom" : choice === "kill" ? "CASE.Campaign.Award.KillReason" : `CASE.Campaign.Award.Category.${choice}`);
}

/**
 * The Judge's award prompt (the Actors directory's *Award Karma*, the compendium macro): a
 * FASERIP category (its Karma times the events) or a free amount, a reason, and to whom (the
 * controlled tokens' characters, or every player character); then the award through the GM.
 * The kill category takes Karma by the world's ruling instead.
 */
export async function promptAwardKarma(members?: readonly Named[], preset: AwardPreset | null = null): Promise<AwardedCharacter[] | null> {
  if (!game.user.isGM) {
    ui.notifications.error(game.i18n.localize("CASE.Campaign.GMOnly"));
    return null;
  }
  const names = members ? members.map((m) => m.name) : (canvas.tokens?.controlled ?? []).map((t) => t.name);
  const context = awardPromptContext(names, foundry.utils.randomID(), karmaLostForKillRuling(), members !== undefined, preset);
  const content = await foundry.applications.handlebars.renderTemplate(AWARD_PROMPT_TEMPLATE, context);
  const form = await askForm(game.i18n.localize("CASE.Campaign.Award.Title"), content, "CASE.Campaign.Award.Give", "fa-solid fa-star");
  if (!form) return null;
  const answer = readAwardForm(form, awardChoiceLabel);
  if (!answer) {
    ui.notifications.error(game.i18n.localize("CASE.Campaign.Award.InvalidForm"));
    return null;
  }
  const uuids = members ? members.map((m) => m.uuid) : answer.to === "all" ? playerCharacterUuids() : controlledActorUuids();
  if (uuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Campaign.NoneSelected"));
    return null;
  }
  return requestAward(uuids, answer.kind, answer.amount, answer.reason);
}

// ---------------------------------------------------------------------------------------------
// Rest
// ---------------------------------------------------------------------------------------------

export interface RestPayload {
  readonly requestId: string;
  readonly actorUuids: readonly string[];
  readonly days: number;
  readonly care: CareLevel;
}

/** One character's rest. */
export interface RestedCharacter {
  readonly uuid: string;
  readonly name: string;
  readonly health: { readonly before: number; readonly after: number };
  readonly lostEnduranceRanks: { readonly before: number; readonly after: number };
}

/** Validates untrusted data into a rest, or throws QueryRefusal("malformed"). */
export function parseRestPayload(raw: unknown): RestPayload {
  const r = payloadRecord(raw);
  return { requestId: stringField(r, "requestId", REQUEST_ID), actorUuids: uuidListField(r, "actorUuids", MAX_TARGETS), days: intField(r, "days", 1, MAX_REST_DAYS), care: choiceOf(r, "care", CARE_LEVELS) };
}

export const restQuery = defineQuery({
  name: "restCharacters",
  parse: parseRestPayload,
  lockKeys: (p) => actorLocksOf(p.actorUuids),
  authorize: gmOnly,
  async handle(user: AskingUser, payload: RestPayload, context): Promise<RestedCharacter[]> {
    const id = `rest:${user.id}:${payload.requestId}`;
    const rulings = recoveryRulings();
    const actors = await charactersOf(payload.actorUuids);
    return context.scope.within(actors.map((a) => actorLock(a.uuid)), async () => {
      const out: RestedCharacter[] = [];
      for (const actor of actors) {
        if (!isCharacter(actor)) continue;
        const outcome = restOutcome(actor.system, payload.days, payload.care, rulings);
        const wrote = await writeOnceWith(context.scope, actor, id, "system.health.value", outcome.health.before, outcome.health.after, {
          "system.lostEnduranceRanks": outcome.lostEnduranceRanks.after,
        });
        out.push({ uuid: actor.uuid, name: actor.name, ...(wrote ? outcome : { health: { before: outcome.health.before, after: outcome.health.before }, lostEnduranceRanks: { before: outcome.lostEnduranceRanks.before, after: outcome.lostEnduranceRanks.before } }) });
      }
      return out;
    });
  },
});

/**
 * A rest of `days` (under `care`) for the characters of the controlled tokens, through the
 * active GM. Resolves to each character's change, or null (after a notification) when there is
 * nothing selected or the request is refused.
 */
export async function restSelected(days = 1, care: CareLevel = "none"): Promise<RestedCharacter[] | null> {
  return restCharacters(controlledActorUuids(), days, care);
}

/** A rest of `days` (under `care`) for the characters the UUIDs name, through the active GM (see {@link restSelected}). */
export async function restCharacters(actorUuids: readonly string[], days = 1, care: CareLevel = "none"): Promise<RestedCharacter[] | null> {
  if (actorUuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Campaign.NoneSelected"));
    return null;
  }
  const payload = { requestId: foundry.utils.randomID(16), actorUuids: [...actorUuids], days, care };
  try {
    parseRestPayload(payload);
  } catch (error) {
    return invalid(error);
  }
  return (await requestGM(restQuery, payload)) ?? null;
}

/** The rest dialog for the controlled tokens' characters (or the team sheet's `members`): days and care, then the rest. */
export async function promptRestSelected(members?: readonly Named[]): Promise<RestedCharacter[] | null> {
  const content = await foundry.applications.handlebars.renderTemplate(REST_PROMPT_TEMPLATE, restDialogContext(foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Rest.Selected"), content, "CASE.Rest.Rest", "fa-solid fa-bed");
  if (!form) return null;
  const answer = readRestForm(form);
  if (!answer) {
    ui.notifications.error(game.i18n.format("CASE.Rest.Invalid", { max: String(MAX_REST_DAYS) }));
    return null;
  }
  return members ? restCharacters(members.map((m) => m.uuid), answer.days, answer.care) : restSelected(answer.days, answer.care);
}
