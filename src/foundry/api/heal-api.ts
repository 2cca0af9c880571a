/**
 * The Judge's *Heal* (`CONFIG.CASE.api.heal`, `promptHeal`, the Actors directory's button and
 * the compendium macro): Health back for the named characters, three ways (heal-forms.ts):
 *
 * - "amount": that many points, never above the maximum (rules damage.ts `applyHealing`);
 * - "recovery": the FASERIP Recovery (rules recovery.ts `shortRestRecovery`): the effective
 *   Endurance rank number, once a game day (the day of `game.time.worldTime`), when the turns
 *   since the last damage reach `RECOVERY_AFTER_TURNS` and the character is conscious;
 * - "wake": waking from 0 Health (rules recovery.ts `wakeFromZeroHealth`): the GM rolls an
 *   Endurance FEAT (a plain ACTION on the effective Endurance); success wakes the character
 *   with Health equal to its Endurance rank number.
 *
 * It runs on the active GM through the query router: a GM may heal anyone, a player only
 * characters they own (every one named, or nothing happens). Each write takes the actor's lock
 * (`actorLock`, shared with the cards and the turn) and carries a ledger entry naming the
 * request (actor-writes.ts): a replay writes nothing twice and rolls no second FEAT. The day's
 * Recovery is itself a ledger entry (`recovery:day:<n>`), so a second Recovery that day finds it.
 */
import { RECOVERY_AFTER_TURNS, applyHealing, clampHealth, effectiveEndurance, resolveAction, shortRestRecovery, unconsciousAt, wakeFromZeroHealth } from "../../rules/index";
import { characterSystem, isCharacter } from "../core/guards";
import { recoveryRulings } from "../core/settings";
import { requestGM, userOwns } from "../requests/gm";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, uuidListField, type AskingUser } from "../requests/router";
import { actorLock, actorLocksOf, ledgerEntry, writeOnce } from "../actor-writes";
import type { WriteScope } from "../requests/locks";
import { MAX_DAMAGE } from "./damage-limits";
import { charactersOf, controlledActorUuids, type Named } from "./campaign-api";
import { HEAL_MODES, MAX_HEAL_TURNS, healDialogContext, readHealForm, type HealRequest } from "./heal-forms";
import { SYSTEM_PATH } from "../core/constants";
import { askForm } from "../ui/dialogs";
import { refusalText } from "../ui/error-text";

export const HEAL_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/heal-dialog.hbs`;

const REQUEST_ID = /^[A-Za-z0-9]{16}$/;

/** Seconds in a game day (Foundry's world time counts seconds). */
const DAY_SECONDS = 86_400;

export type HealPayload = { readonly requestId: string; readonly actorUuids: readonly string[] } & HealRequest;

/** What healing did to one character. */
export type HealOutcome = "healed" | "unchanged" | "recoveredAlready" | "notDue" | "woke" | "stillOut" | "notOut";

export interface HealedCharacter {
  readonly uuid: string;
  readonly name: string;
  readonly before: number;
  readonly after: number;
  readonly outcome: HealOutcome;
  /** The Endurance FEAT's d100 (waking only, on its first run). */
  readonly roll?: number;
}

/** Validates untrusted data into a heal, or throws QueryRefusal("malformed"). */
export function parseHealPayload(raw: unknown): HealPayload {
  const r = payloadRecord(raw);
  const base = { requestId: stringField(r, "requestId", REQUEST_ID), actorUuids: uuidListField(r, "actorUuids", 100) };
  const mode = choiceOf(r, "mode", HEAL_MODES);
  if (mode === "amount") return { ...base, mode, amount: intField(r, "amount", 1, MAX_DAMAGE) };
  if (mode === "recovery") return { ...base, mode, turns: intField(r, "turns", 0, MAX_HEAL_TURNS) };
  return { ...base, mode };
}

/** The game day of the world's clock. */
export function worldDay(): number {
  const seconds = (game as { time?: { worldTime?: number } }).time?.worldTime ?? 0;
  return Math.floor(seconds / DAY_SECONDS);
}

interface HealthState {
  readonly before: number;
  readonly max: number;
  readonly endurance: number;
}

function healthState(actor: Actor.Implementation): HealthState {
  const system = characterSystem(actor);
  return { before: clampHealth(system.health.value, system.health.max), max: system.health.max, endurance: effectiveEndurance(system.endurance.beforeLoss, system.endurance.lost).value };
}

async function healOne(scope: WriteScope, actor: Actor.Implementation, id: string, payload: HealPayload): Promise<HealedCharacter> {
  const field = "system.health.value";
  const who = { uuid: actor.uuid, name: actor.name };
  const done = ledgerEntry(actor, id, field);
  if (done) return { ...who, before: done.before, after: done.after, outcome: done.after > done.before ? "healed" : "unchanged" };
  const { before, max, endurance } = healthState(actor);
  switch (payload.mode) {
    case "amount": {
      const after = applyHealing(before, max, payload.amount);
      if (after === before) return { ...who, before, after, outcome: "unchanged" };
      await writeOnce(scope, actor, id, field, before, after);
      return { ...who, before, after, outcome: "healed" };
    }
    case "recovery": {
      const dayId = `recovery:day:${worldDay()}`;
      const recoveredToday = ledgerEntry(actor, dayId, field) !== undefined;
      if (recoveredToday) return { ...who, before, after: before, outcome: "recoveredAlready" };
      const state = { health: before, max, endurance, turnsSinceDamage: payload.turns, recoveredToday, unconscious: unconsciousAt(before, recoveryRulings()) };
      const after = shortRestRecovery(state, RECOVERY_AFTER_TURNS);
      if (after === before) return { ...who, before, after, outcome: "notDue" };
      await writeOnce(scope, actor, dayId, field, before, after);
      return { ...who, before, after, outcome: "healed" };
    }
    case "wake": {
      if (before > 0) return { ...who, before, after: before, outcome: "notOut" };
      const roll = (await new Roll("1d100").evaluate()).total;
      const feat = resolveAction({ value: endurance, roll });
      const woke = wakeFromZeroHealth(feat.success, endurance, max);
      const after = woke ?? before;
      // Written either way: a replay finds the FEAT already rolled.
      await writeOnce(scope, actor, id, field, before, after);
      return { ...who, before, after, outcome: woke === null ? "stillOut" : "woke", roll };
    }
  }
}

export const healQuery = defineQuery({
  name: "healCharacters",
  parse: parseHealPayload,
  // Each named character's Health and ledger.
  lockKeys: (p) => actorLocksOf(p.actorUuids),
  async authorize(user: AskingUser, payload: HealPayload) {
    if (user.isGM) return;
    for (const actor of await charactersOf(payload.actorUuids)) {
      if (!userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Heal.NotYours", { name: actor.name }));
    }
  },
  async handle(user: AskingUser, payload: HealPayload, context): Promise<HealedCharacter[]> {
    const id = `heal:${user.id}:${payload.requestId}`;
    const actors = (await charactersOf(payload.actorUuids)).filter(isCharacter);
    return context.scope.within(actors.map((a) => actorLock(a.uuid)), async () => {
      const out: HealedCharacter[] = [];
      for (const actor of actors) out.push(await healOne(context.scope, actor, id, payload));
      return out;
    });
  },
});

/** One line of the notification that reports a heal. */
function reportLine(c: HealedCharacter): string {
  return game.i18n.format(`CASE.Heal.Outcome.${c.outcome}`, { name: c.name, before: String(c.before), after: String(c.after), roll: c.roll === undefined ? "" : String(c.roll) });
}

/**
 * Heals the characters the UUIDs name (tokens or actors) through the active GM, and tells the
 * user what each got. Resolves to each character's change, or null (after a localised
 * notification) when the request is refused.
 */
export async function heal(actorUuids: readonly string[], request: HealRequest): Promise<HealedCharacter[] | null> {
  const payload = { requestId: foundry.utils.randomID(16), actorUuids: [...actorUuids], ...request };
  try {
    parseHealPayload(payload);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.Campaign.Invalid", { message: refusalText(error) }));
    return null;
  }
  const result = (await requestGM(healQuery, payload)) ?? null;
  if (result) ui.notifications.info(result.map(reportLine).join(" "));
  return result;
}

/** The Heal dialog for the controlled tokens' characters (or the team sheet's `members`): a number of points, Recovery, or waking; then {@link heal}. */
export async function promptHeal(members?: readonly Named[]): Promise<HealedCharacter[] | null> {
  const actorUuids = members ? members.map((m) => m.uuid) : controlledActorUuids();
  if (actorUuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Campaign.NoneSelected"));
    return null;
  }
  const names = members ? members.map((m) => m.name) : (canvas.tokens?.controlled ?? []).map((t) => t.name);
  const content = await foundry.applications.handlebars.renderTemplate(HEAL_DIALOG_TEMPLATE, healDialogContext(names, foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Heal.Title"), content, "CASE.Heal.Heal", "fa-solid fa-kit-medical");
  if (!form) return null;
  const request = readHealForm(form);
  if (!request) {
    ui.notifications.error(game.i18n.localize("CASE.Heal.InvalidForm"));
    return null;
  }
  return heal(actorUuids, request);
}
