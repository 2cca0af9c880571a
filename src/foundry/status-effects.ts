/**
 * CASE's conditions as Foundry status effects (token HUD icons and ActiveEffects): Stunned,
 * Slammed, Partial Hold (−2 CS on all the held character's actions), Full Hold, Dying. The
 * details a condition needs (turns left, who holds whom, Endurance lost) live in the
 * effect's `flags.case`, so the tracker and the cards read them from one place.
 */
import { PARTIAL_HOLD_CS } from "../rules/index";
import { SYSTEM_ID } from "./constants";

export const CASE_STATUSES = ["stunned", "slammed", "partialHold", "fullHold", "dying"] as const;
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
};

/** Details kept on a condition's effect. */
export interface StatusDetails {
  /** Stunned: turns left, this one included; 0 = until removed. */
  turns?: number;
  /** Stunned: it starts at the next turn (the target had already acted). */
  startsNextTurn?: boolean;
  /** Slammed: direction and areas. */
  direction?: string;
  areas?: number | "sight";
  /** Holds: the holder's actor UUID, and the card that made the hold. */
  holderUuid?: string;
  messageId?: string;
  /** Dying: aided (the Endurance loss stops). */
  aided?: boolean;
}

/** Adds CASE's conditions to CONFIG.statusEffects (call in init). */
export function registerStatusEffects(): void {
  for (const status of CASE_STATUSES) {
    const id = statusId(status);
    if (CONFIG.statusEffects.some((e) => e.id === id)) continue;
    CONFIG.statusEffects.push({ id, name: `CASE.Status.${status}`, img: ICONS[status] });
  }
}

/** The column shift a character's conditions put on all its actions (Partial Hold −2 CS). */
export function statusShift(statuses: ReadonlySet<string>): { cs: number; label: string }[] {
  return statuses.has(statusId("partialHold")) ? [{ cs: PARTIAL_HOLD_CS, label: "CASE.Status.partialHold" }] : [];
}

/**
 * Sets a condition on an actor with its details (idempotent: an existing effect of that
 * condition is updated, not duplicated).
 */
export async function setStatus(actor: Actor.Implementation, status: CaseStatus, details: StatusDetails = {}): Promise<void> {
  const id = statusId(status);
  const existing = actor.effects.find((e) => e.statuses.has(id));
  if (existing) {
    await existing.update({ [`flags.${SYSTEM_ID}`]: details } as ActiveEffect.UpdateData);
    return;
  }
  await actor.toggleStatusEffect(id, { active: true });
  const created = actor.effects.find((e) => e.statuses.has(id));
  if (created) await created.update({ [`flags.${SYSTEM_ID}`]: details } as ActiveEffect.UpdateData);
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
  const flags: unknown = (effect.flags as Record<string, unknown>)[SYSTEM_ID];
  return typeof flags === "object" && flags !== null ? flags : {};
}
