/**
 * The tracker's right-click menu on a combatant row. Core's entries that would change the turn
 * behind the CASE turn's back go: *Clear initiative* (writes the combatant's initiative) and
 * *Update combatant* (its form edits the initiative too); the CASE turn keeps initiative in its
 * own record (combat/foundry-host.ts). Core's *Reroll initiative* is replaced by the CASE turn's
 * roll (the combat's `rollInitiative`, which asks the GM's turn query), offered where the turn
 * waits on that roll. Draw Steel's v13 tracker (MIT) removes the same two core entries in its
 * `_getEntryContextOptions`; the names are core's localisation keys, as it matches them.
 */

/** Core's entries that bypass the CASE turn. */
export const BYPASSING_ENTRIES: readonly string[] = ["COMBAT.CombatantClear", "COMBAT.CombatantUpdate"];

/** Core's initiative reroll, replaced by the CASE turn's roll. */
export const CORE_REROLL_ENTRY = "COMBAT.CombatantReroll";

/** An entry's name: v13's `name`, v14's `label` (core/compat.ts `contextMenuEntries`). */
const nameOf = (entry: object): unknown => ("name" in entry ? entry.name : "label" in entry ? entry.label : undefined);

/** The menu's entries: core's without those that bypass the turn, the CASE roll in the reroll's place (or last). */
export function caseEntryOptions<T extends object>(core: readonly T[], caseRoll: T): T[] {
  const kept = core.filter((entry) => !BYPASSING_ENTRIES.includes(String(nameOf(entry))));
  const at = kept.findIndex((entry) => nameOf(entry) === CORE_REROLL_ENTRY);
  if (at === -1) return [...kept, caseRoll];
  return kept.map((entry, i) => (i === at ? caseRoll : entry));
}
