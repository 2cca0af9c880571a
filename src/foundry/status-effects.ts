/**
 * CASE's conditions as Foundry status effects (token HUD icons and ActiveEffects): Stunned,
 * Slammed, Partial Hold (−2 CS on all the held character's actions), Full Hold, Dying,
 * Unconscious (at 0 Health, by the world's ruling: rules recovery.ts UNCONSCIOUS_AT_ZERO_HEALTH). The
 * details a condition needs (turns left, who holds whom, Endurance lost) live in the
 * effect's `flags.case`, so the tracker and the cards read them from one place.
 */
import { holdEffects, unconsciousAt, type CharacterStanding, type StandingRulings } from "../rules/index";
import { isCharacter } from "./core/guards";
import { SYSTEM_ID, SYSTEM_PATH } from "./core/constants";
import { replaceStatusEffects } from "./core/compat";
import { statusDetailsOf, type StatusDetails } from "./core/flags";

export const CASE_STATUSES = ["stunned", "slammed", "partialHold", "fullHold", "dying", "unconscious"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** The status effect id of a CASE condition in CONFIG.statusEffects. */
export function statusId(status: CaseStatus): string {
  return `${SYSTEM_ID}-${status}`;
}

const ICONS: Record<CaseStatus, string> = {
  stunned: "icons/svg/daze.svg",
  slammed: "icons/svg/falling.svg",
  partialHold: "icons/svg/net.svg",
  fullHold: "icons/svg/padlock.svg",
  dying: "icons/svg/blood.svg",
  unconscious: "icons/svg/unconscious.svg",
};

export type { StatusDetails } from "./core/flags";

/**
 * Core's statuses that CASE's conditions replace in the token HUD, by core id (as dnd5e and pf2e
 * replace core's list with their own): the same name (stun: Stunned; unconscious: Unconscious) or
 * the same icon for a look-alike (prone: Slammed; restrain: Partial Hold; bleeding: Dying). Every
 * other core status stays, after CASE's six, so each icon in the HUD means one thing.
 */
export const CORE_LOOKALIKES = ["stun", "unconscious", "prone", "restrain", "bleeding"] as const;

/** Puts CASE's conditions first in CONFIG.statusEffects, in place of core's look-alikes (call in init). */
export function registerStatusEffects(): void {
  replaceStatusEffects(
    CASE_STATUSES.map((status) => ({ id: statusId(status), name: `CASE.Status.${status}`, img: ICONS[status] })),
    CORE_LOOKALIKES,
  );
}

/** The most turns a stun icon counts; more show as "10+" (a stun lasts 1d10 turns). */
export const STUN_ICON_MAX = 10;

/**
 * A Stunned effect's icon with its turns left on it (icons/stunned-N.svg), so the token shows
 * the count (core draws an effect's icon, with no counter of its own); the plain icon when the
 * stun lasts until removed.
 */
export function stunIcon(turns = 0): string {
  if (turns <= 0) return ICONS.stunned;
  return `${SYSTEM_PATH}/icons/stunned-${turns > STUN_ICON_MAX ? `${String(STUN_ICON_MAX)}plus` : String(turns)}.svg`;
}

/**
 * A Stunned effect's name with its turns left ("Stunned (2 turns)"), which the effect carries
 * (its tooltip and the actor's effects list); 0 = until removed: plain "Stunned".
 */
export function stunName(turns = 0): string {
  if (turns <= 0) return game.i18n.localize("CASE.Status.stunned");
  return game.i18n.format(turns === 1 ? "CASE.Status.stunnedTurn" : "CASE.Status.stunnedTurns", { turns: String(turns) });
}

/**
 * The column shift a character's conditions put on its actions: a hold's `heldActionCs` from the
 * rules (Partial Hold −2 CS on all actions; Full Hold [RULING FULL_HOLD_CS] on actions other than
 * the Escape it allows). A Full Hold counts over a Partial one; they do not add up.
 */
export function statusShift(statuses: ReadonlySet<string>, action: "other" | "escape" = "other"): { cs: number; label: string }[] {
  if (statuses.has(statusId("fullHold"))) {
    if (action === "escape") return [];
    return [{ cs: holdEffects("fullHold").heldActionCs, label: "CASE.Status.fullHold" }];
  }
  if (statuses.has(statusId("partialHold"))) return [{ cs: holdEffects("partialHold").heldActionCs, label: "CASE.Status.partialHold" }];
  return [];
}

/**
 * Sets a condition on an actor with its details (idempotent: an existing effect of that
 * condition is updated, not duplicated).
 */
export async function setStatus(actor: Actor.Implementation, status: CaseStatus, details: StatusDetails = {}): Promise<void> {
  const id = statusId(status);
  // A stun's turns left are kept in step on its effect's name and icon, each time its details change.
  const update = { [`flags.${SYSTEM_ID}`]: details, ...(status === "stunned" ? { name: stunName(details.turns), img: stunIcon(details.turns) } : {}) } as ActiveEffect.UpdateData;
  if (!actor.effects.some((e) => e.statuses.has(id))) await actor.toggleStatusEffect(id, { active: true });
  await actor.effects.find((e) => e.statuses.has(id))?.update(update);
}

/** Removes a condition (idempotent). */
export async function clearStatus(actor: Actor.Implementation, status: CaseStatus): Promise<void> {
  const id = statusId(status);
  if (actor.effects.some((e) => e.statuses.has(id))) await actor.toggleStatusEffect(id, { active: false });
}

/** The details of a condition on an actor, or null when it does not have it. */
export function statusDetails(actor: Actor.Implementation, status: CaseStatus): StatusDetails | null {
  const id = statusId(status);
  const effect = actor.effects.find((e) => e.statuses.has(id));
  if (!effect) return null;
  return statusDetailsOf(effect.flags);
}

/**
 * What the Unconscious condition needs after Health became `health` (rules recovery.ts
 * `unconsciousAt`, by the world's `unconsciousAtZeroHealth` ruling): "set" at 0, "clear" above
 * it, null when it is already right.
 */
export function unconsciousChange(actor: Actor.Implementation, health: number): "set" | "clear" | null {
  const out = unconsciousAt(health, { unconsciousAtZeroHealth: game.settings.get(SYSTEM_ID, "unconsciousAtZeroHealth") });
  const has = actor.statuses.has(statusId("unconscious"));
  return out === has ? null : out ? "set" : "clear";
}

/** Brings the Unconscious condition in line with `health`. Call it holding the actor's lock; idempotent. */
export async function syncUnconscious(actor: Actor.Implementation, health: number): Promise<void> {
  const change = unconsciousChange(actor, health);
  if (change === "set") await setStatus(actor, "unconscious");
  else if (change === "clear") await clearStatus(actor, "unconscious");
}

/**
 * A character's standing as its document says (rules able.ts `CharacterStanding`): Health and
 * the conditions that leave it helpless. Read on the GM's client from the actor itself.
 */
export function characterStanding(actor: Actor.Implementation): CharacterStanding {
  const health = isCharacter(actor) ? actor.system.health.value : null;
  return {
    health,
    stunned: actor.statuses.has(statusId("stunned")),
    unconscious: actor.statuses.has(statusId("unconscious")),
    dying: actor.statuses.has(statusId("dying")),
    aided: statusDetails(actor, "dying")?.aided === true,
  };
}

/** The world's standing rulings (Unconscious at 0 Health). */
export function standingRulings(): StandingRulings {
  return { unconsciousAtZeroHealth: game.settings.get(SYSTEM_ID, "unconsciousAtZeroHealth") };
}

/** True when the character is Unconscious: the condition, or 0 Health under the world's ruling. */
export function isUnconscious(actor: Actor.Implementation): boolean {
  const s = characterStanding(actor);
  return s.unconscious || (s.health !== null && unconsciousAt(s.health, standingRulings()));
}
