/**
 * The Judge's impacts at `CONFIG.CASE.api`: `impact(actorUuids, { kind, areas, materialStrength })`
 * resolves a fall (a charge against the ground) or a charge at an object of that material
 * strength for each named character (rules impacts.ts: the material strength as body armor, the
 * rebound on the charger), takes the rebound off its Health, and posts a chat card saying what
 * happened; `promptImpact()` asks for the impact and applies it to the controlled tokens.
 *
 * GM only, on the active GM through the query router, under each actor's lock (`actorLock`,
 * shared with the cards and the turn); each Health write carries a ledger entry naming the
 * request (actor-writes.ts), so a replayed request changes nothing twice; its card (an `impact`
 * message, impact-card.ts) carries the request's id, so a replay posts the card only when the
 * first run was cut before posting it.
 */
import { IMPACT_KINDS, MAX_IMPACT_AREAS, applyDamageToHealth, catchFallingAlly, clampHealth, killCheckDue, rankOf, resolveImpact, universalColor, type Color, type ImpactKind, type ImpactOutcome } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { isCharacter, isMessageType } from "../core/guards";
import { requestGM } from "../requests/gm";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, uuidListField, type AskingUser } from "../requests/router";
import { actorLock, actorLocksOf, ledgerEntry, writeOnce } from "../actor-writes";
import { bodyProtection } from "../exchange/protection";
import { charactersOf, gmOnly } from "./campaign-api";
import { gmIds } from "../dice/dice-so-nice";
import { syncUnconscious } from "../status-effects";
import { askForm } from "../ui/dialogs";
import { MAX_TARGETS } from "./damage-limits";
import { impactPromptContext, readImpactForm } from "./impact-forms";
import { controlledActorUuids } from "./campaign-api";
import { rollDie } from "../exchange/card-store";
import { refusalText } from "../ui/error-text";

export const IMPACT_PROMPT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/impact-prompt.hbs`;
export const IMPACT_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/impact-card.hbs`;

const REQUEST_ID = /^[A-Za-z0-9]{16}$/;
/** The largest material strength an impact accepts (Class 5000's range is open: a guard on input). */
const MAX_MATERIAL_STRENGTH = 1_000_000;

export interface ImpactPayload {
  readonly requestId: string;
  readonly actorUuids: readonly string[];
  readonly kind: ImpactKind;
  readonly areas: number;
  readonly materialStrength: number;
  /** A fall only: the character trying to catch the fallers (a falling ally, rules `catchFallingAlly`), or null. */
  readonly catcherUuid: string | null;
}

/** One character's impact, as the card shows it. */
export interface ImpactedCharacter {
  readonly uuid: string;
  readonly name: string;
  readonly damage: number;
  readonly objectDamage: number;
  readonly breaks: boolean;
  readonly rebound: number;
  readonly before: number;
  readonly after: number;
  readonly max: number;
  readonly reachedZero: boolean;
  /** The impact calls for a Kill? check (§8: Health reaching 0, or damage at 0): the card says so; the GM rolls it. */
  readonly killCheck: boolean;
}

// A type, not an interface: the impact card stores it whole (impact-card.ts `typedObjectField`).
export type ImpactSummary = {
  readonly requestId: string;
  readonly kind: ImpactKind;
  readonly areas: number;
  readonly materialStrength: number;
  readonly targets: readonly ImpactedCharacter[];
  /** The catch of a falling ally: the catcher, the Agy (bal) die and colour, its result, and the Health it lost. */
  readonly caught?: { readonly name: string; readonly die: number; readonly color: Color; readonly result: string; readonly damage: number } | null;
  /** True when this answer is the remembered result of an earlier request with the same id. */
  readonly replayed: boolean;
};

/** Validates untrusted data into an impact, or throws QueryRefusal("malformed"). */
export function parseImpactPayload(raw: unknown): ImpactPayload {
  const r = payloadRecord(raw);
  return {
    requestId: stringField(r, "requestId", REQUEST_ID),
    actorUuids: uuidListField(r, "actorUuids", MAX_TARGETS),
    kind: choiceOf(r, "kind", IMPACT_KINDS),
    areas: intField(r, "areas", 1, MAX_IMPACT_AREAS),
    materialStrength: intField(r, "materialStrength", 0, MAX_MATERIAL_STRENGTH),
    catcherUuid: r.catcherUuid === undefined || r.catcherUuid === null ? null : uuidListField({ c: [r.catcherUuid] }, "c", 1)[0] ?? null,
  };
}

/** The impact card's template data. */
export function impactCardContext(summary: ImpactSummary, by: string) {
  return {
    ...summary,
    by,
    titleKey: `CASE.Impact.Title.${summary.kind}`,
    materialKey: `CASE.Rank.${rankOf(summary.materialStrength).key}`,
    caughtColorKey: summary.caught ? `CASE.Color.${summary.caught.color}` : "",
    caughtResultKey: summary.caught ? `CASE.Exchange.Catch.${summary.caught.result}` : "",
  };
}

/** The rules' impact for this character (its Endurance (res) and body protection); a refusal for what the rules refuse. */
function impactOn(actor: Actor.OfType<"hero" | "npc">, payload: ImpactPayload): ImpactOutcome {
  try {
    return resolveImpact({ kind: payload.kind, areas: payload.areas, endurance: actor.system.score("endurance.res"), bodyArmor: bodyProtection(actor), materialStrength: payload.materialStrength });
  } catch (error) {
    throw QueryRefusal.of("malformed", error);
  }
}

/** Whether the card of impact request `requestId` is in the chat log (a GM-written impact card of that request). */
function impactCardPosted(requestId: string): boolean {
  for (const m of game.messages) {
    if (isMessageType(m, "impact") && m.system.requestId === requestId && m.author?.isGM === true) return true;
  }
  return false;
}

export const impactQuery = defineQuery({
  name: "impact",
  parse: parseImpactPayload,
  lockKeys: (p) => actorLocksOf(p.catcherUuid ? [...p.actorUuids, p.catcherUuid] : p.actorUuids),
  authorize: gmOnly,
  async handle(user: AskingUser, payload: ImpactPayload, context): Promise<ImpactSummary> {
    const id = `impact:${user.id}:${payload.requestId}`;
    const field = "system.health.value";
    const actors = await charactersOf(payload.actorUuids);
    // A falling ally caught (seed [000], [001]): the catcher's Agy (bal) roll decides each faller's impact by the one rule.
    const catcher = payload.kind === "fall" && payload.catcherUuid ? ((await charactersOf([payload.catcherUuid]))[0] ?? null) : null;
    const die = catcher && isCharacter(catcher) ? await rollDie("1d100") : null;
    const color = die && catcher && isCharacter(catcher) ? universalColor(catcher.system.score("agility.bal"), die.total, 0) : null;
    const box: { caught: ImpactSummary["caught"] } = { caught: null };
    let replayed = true as boolean;
    const targets = await context.scope.within(actors.map((a) => actorLock(a.uuid)), async () => {
      const out: ImpactedCharacter[] = [];
      for (const actor of actors) {
        if (!isCharacter(actor)) continue;
        let outcome = impactOn(actor, payload);
        if (catcher && isCharacter(catcher) && color && die && catcher.uuid !== actor.uuid) {
          const c = catchFallingAlly({ catchColor: color, areasFallen: payload.areas, faller: { endurance: actor.system.score("endurance.res"), bodyArmor: bodyProtection(actor) }, catcher: { endurance: catcher.system.score("endurance.res"), bodyArmor: bodyProtection(catcher) }, groundMaterialStrength: payload.materialStrength });
          outcome = { ...outcome, rebound: c.toFaller };
          box.caught = { name: catcher.name, die: die.total, color, result: c.result, damage: (box.caught?.damage ?? 0) + c.toCatcher };
        }
        // Read inside the lock; a replay reuses what its ledger entry recorded.
        const health = actor.system.health;
        const entry = ledgerEntry(actor, id, field);
        if (!entry) replayed = false;
        const before = entry?.before ?? clampHealth(health.value, health.max);
        const after = entry?.after ?? applyDamageToHealth(before, health.max, outcome.rebound).health;
        await writeOnce(context.scope, actor, id, field, before, after);
        await syncUnconscious(actor, after);
        out.push({ uuid: actor.uuid, name: actor.name, ...outcome, before, after, max: health.max, reachedZero: after === 0 && before > 0, killCheck: killCheckDue(before, outcome.rebound) });
      }
      return out;
    });
    const { caught } = box;
    const catchDamage = caught?.damage ?? 0;
    if (catcher && isCharacter(catcher) && catchDamage > 0) {
      await context.scope.within([actorLock(catcher.uuid)], async () => {
        const health = catcher.system.health;
        const before = ledgerEntry(catcher, `${id}:catch`, field)?.before ?? clampHealth(health.value, health.max);
        const after = applyDamageToHealth(before, health.max, catchDamage).health;
        await writeOnce(context.scope, catcher, `${id}:catch`, field, before, after);
        await syncUnconscious(catcher, after);
      });
    }
    const summary: ImpactSummary = { requestId: payload.requestId, kind: payload.kind, areas: payload.areas, materialStrength: payload.materialStrength, targets, caught, replayed };
    if (!replayed || !impactCardPosted(payload.requestId)) {
      // The card names each character's charge damage and rebound, which give away an NPC's
      // Endurance and body armor: with an NPC among them (or catching them), only the GMs receive it.
      const npc = actors.some((a) => a.type === "npc") || catcher?.type === "npc";
      const whisper = npc ? gmIds() : [];
      await ChatMessage.implementation.create({ type: "impact", system: { requestId: payload.requestId, by: user.name, summary }, whisper, speaker: { scene: null, actor: null, token: null, alias: user.name } });
    }
    return summary;
  },
});

/**
 * A fall or a charge at an object (`kind`, `areas` moved or fallen, the object's or ground's
 * `materialStrength`) for each character the UUIDs name, through the active GM (GM only).
 * Resolves to the summary, or null (after a localised notification) when refused.
 */
export async function impact(actorUuids: readonly string[], options: { kind: ImpactKind; areas: number; materialStrength: number; catcherUuid?: string | null }): Promise<ImpactSummary | null> {
  const payload = { requestId: foundry.utils.randomID(16), actorUuids: [...actorUuids], kind: options.kind, areas: options.areas, materialStrength: options.materialStrength, catcherUuid: options.catcherUuid ?? null };
  try {
    parseImpactPayload(payload);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.Campaign.Invalid", { message: refusalText(error) }));
    return null;
  }
  return (await requestGM(impactQuery, payload)) ?? null;
}

/** The Judge tool: asks for a fall or a charge at an object, then resolves it for the controlled tokens' characters. */
export async function promptImpact(): Promise<ImpactSummary | null> {
  const uuids = controlledActorUuids();
  if (uuids.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Campaign.NoneSelected"));
    return null;
  }
  const names = (canvas.tokens?.controlled ?? []).map((t) => t.name);
  const content = await foundry.applications.handlebars.renderTemplate(IMPACT_PROMPT_TEMPLATE, impactPromptContext(names, foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize("CASE.Impact.PromptTitle"), content, "CASE.Impact.Resolve", "fa-solid fa-person-falling");
  if (!form) return null;
  const answer = readImpactForm(form);
  if (!answer) {
    ui.notifications.error(game.i18n.localize("CASE.Impact.InvalidForm"));
    return null;
  }
  // A fall with a token targeted: the target tries to catch the fallers (a falling ally).
  const catcher = answer.kind === "fall" ? [...game.user.targets][0]?.document.uuid : undefined;
  return impact(uuids, { ...answer, catcherUuid: catcher ?? null });
}
