/**
 * What an Active Effect needs to know of the item carrying it: whether the item is in use (so
 * its effects apply) and the rank "@rank" stands for. No document class is defined here, so the
 * actor, the sheets and the tests read it without Foundry's ActiveEffect loaded.
 */

/** The rank that "@rank" stands for in an effect carried by an item of `type`, or null. */
export function ownRankOf(type: string, system: unknown): number | null {
  const s = (typeof system === "object" && system !== null ? system : {}) as Record<string, unknown>;
  const pick = (value: unknown): number | null => (typeof value === "number" ? value : null);
  switch (type) {
    case "power":
    case "contact":
      return pick(s.rank);
    case "weapon":
      return pick((s.damage as Record<string, unknown> | undefined)?.rank);
    case "armor":
      return pick(s.physical);
    default:
      return null;
  }
}

/** Whether an item of `type` is in use, so its effects apply: a weapon or armor equipped, a power active. */
export function itemInUse(type: string, system: unknown): boolean {
  const s = (typeof system === "object" && system !== null ? system : {}) as Record<string, unknown>;
  if (type === "weapon" || type === "armor") return s.equipped !== false;
  if (type === "power") return s.active !== false;
  return true;
}

/** The item an effect lives on, or null (an effect on the actor itself). */
export function effectItem(effect: { readonly parent: unknown }): { readonly type: string; readonly system: unknown } | null {
  const parent = effect.parent;
  return parent instanceof Item ? parent : null;
}
