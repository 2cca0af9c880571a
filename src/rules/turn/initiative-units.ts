/**
 * Step 3's units [001 Step 3, team initiative]: who takes part, which group rolls as one (a
 * combatant, or a team), and each unit's initiative entry for the order and the ties.
 */
import { INITIATIVE_DIE_SIDES, type InitiativeEntry, type InitiativeSettings, initiativeTotalForMode } from "../initiative";
import type { CombatantTurn, TurnState } from "./state";

/** A group that takes one initiative: one combatant, or a team [001 optional rule]. */
export interface InitiativeUnit {
  /** The unit's key: the combatant id, or "team:<team>". */
  readonly key: string;
  /** The member who rolls for the unit (a team's highest Table 23 modifier; tracker order breaks ties). */
  readonly rollerId: string;
  /** Members in their acting order within the unit (modifier, then tracker order). */
  readonly memberIds: readonly string[];
  readonly modifier: number;
}

export function takesPartInInitiative(c: CombatantTurn): boolean {
  return !c.defeated && !c.dead;
}

/** The initiative units of the turn, in tracker order of their first member. O(n log n). */
export function initiativeUnits(state: TurnState): InitiativeUnit[] {
  const { mode, team } = state.settings.initiative;
  const grouped = new Map<string, CombatantTurn[]>();
  const units: (InitiativeUnit | { key: string; members: CombatantTurn[] })[] = [];
  for (const c of state.combatants.values()) {
    if (!takesPartInInitiative(c)) continue;
    if (team && mode !== "fixedOrder" && c.team !== null) {
      const key = `team:${c.team}`;
      let members = grouped.get(key);
      if (!members) {
        members = [];
        grouped.set(key, members);
        units.push({ key, members });
      }
      members.push(c);
    } else {
      units.push({ key: c.id, rollerId: c.id, memberIds: [c.id], modifier: c.stats.initiativeModifier });
    }
  }
  return units.map((unit) => {
    if (!("members" in unit)) return unit;
    const sorted = unit.members.map((c, i) => ({ c, i })).sort((a, b) => b.c.stats.initiativeModifier - a.c.stats.initiativeModifier || a.i - b.i);
    const roller = (sorted[0] as { c: CombatantTurn }).c;
    return { key: unit.key, rollerId: roller.id, memberIds: sorted.map((s) => s.c.id), modifier: roller.stats.initiativeModifier };
  });
}

/** True for the initiative modes that roll a d10 (every turn, once per combat) [001]. */
export function rollsDie(mode: InitiativeSettings["mode"]): boolean {
  return mode === "everyTurn" || mode === "oncePerCombat";
}

/** Encodes roll-offs (each 1–10, later ones only within a still-tied group) as one sortable number. */
export function rollOffTiebreak(rollOffs: readonly number[], length: number): number | undefined {
  if (rollOffs.length === 0) return undefined;
  let value = 0;
  for (let i = 0; i < length; i++) value = value * (INITIATIVE_DIE_SIDES + 1) + (rollOffs[i] ?? 0);
  return value;
}

export function unitEntries(state: TurnState, units: readonly InitiativeUnit[], get: (id: string) => CombatantTurn | undefined): InitiativeEntry[] | null {
  const { mode } = state.settings.initiative;
  let longest = 0;
  for (const u of units) longest = Math.max(longest, get(u.rollerId)?.initiative.rollOffs.length ?? 0);
  const entries: InitiativeEntry[] = [];
  for (const u of units) {
    const roller = get(u.rollerId);
    if (!roller) return null;
    const { d10, rollOffs } = roller.initiative;
    let total: number | null;
    if (rollsDie(mode)) {
      if (d10 === null) return null;
      total = initiativeTotalForMode(mode, u.modifier, d10);
    } else {
      total = initiativeTotalForMode(mode, u.modifier);
    }
    if (total === null) return null;
    const tiebreak = rollOffTiebreak(rollOffs, longest);
    entries.push(tiebreak === undefined ? { id: u.key, total, modifier: u.modifier } : { id: u.key, total, modifier: u.modifier, tiebreak });
  }
  return entries;
}

/** True when every initiative unit is one combatant (its key and roller are its id): no team initiative in force. */
export function unitsAreCombatants(settings: InitiativeSettings): boolean {
  return !(settings.team && settings.mode !== "fixedOrder");
}
