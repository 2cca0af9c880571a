/**
 * Registers the system's sheets as the default for their types, and preloads the partials
 * the sheets use.
 */
import { SYSTEM_ID } from "../core/constants";
import { HeroSheet, NpcSheet } from "./sheet/actor-sheets";
import { CaseItemSheet } from "./sheet/item-sheet";
import { TeamSheet } from "./sheet/team-sheet";
import { SHEET_PARTIALS, systemPath } from "./templates";

export function registerSheets(): void {
  const { Actors, Items } = foundry.documents.collections;
  Actors.registerSheet(SYSTEM_ID, HeroSheet, { types: ["hero"], makeDefault: true, label: "CASE.Sheet.HeroSheet" });
  Actors.registerSheet(SYSTEM_ID, NpcSheet, { types: ["npc"], makeDefault: true, label: "CASE.Sheet.NpcSheet" });
  Actors.registerSheet(SYSTEM_ID, TeamSheet, { types: ["team"], makeDefault: true, label: "CASE.Team.Sheet" });
  Items.registerSheet(SYSTEM_ID, CaseItemSheet, {
    types: ["power", "talent", "weapon", "armor", "contact"],
    makeDefault: true,
    label: "CASE.Sheet.ItemSheet",
  });
}

/** Loads the sheets' partials (call in `init`; Foundry registers each under its short name). */
export async function preloadSheetTemplates(): Promise<void> {
  const partials = Object.fromEntries(Object.entries(SHEET_PARTIALS).map(([name, path]) => [name, systemPath(path)]));
  try {
    await foundry.applications.handlebars.loadTemplates(partials);
  } catch (error) {
    console.error(`${SYSTEM_ID} | Could not load the sheets' templates`, error);
  }
}
