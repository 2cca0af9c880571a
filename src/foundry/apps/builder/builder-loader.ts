/**
 * What the character builder needs loaded with the system: the compendium catalogue it draws
 * from (the sheet's "Learn a talent" reads it too), and its opener. The window itself
 * (character-builder.ts and its view model, builder-context.ts) is fetched the first time it
 * opens: `openCharacterBuilder` here imports it with `import()`, so the build ships it as a
 * chunk of its own. Only this file may import character-builder.ts's code (type imports
 * aside): a static import anywhere else would pull the window back into what every client
 * loads (test/build.test.ts checks the chunk).
 */
import { SYSTEM_ID } from "../../core/constants";
import type { BuilderCatalogue, CatalogueEntry } from "./builder-context";
import type { CharacterBuilder } from "./character-builder";
import type * as BuilderWindow from "./character-builder";

/** The compendiums the builder draws from. */
export const BUILDER_PACKS = { powers: `${SYSTEM_ID}.powers`, talents: `${SYSTEM_ID}.talents` } as const;

/**
 * The index fields the catalogue reads beyond the default index (`_id`, name, img, type …, with
 * no `system` at all on 13 and 14): a power's rank. dnd5e asks for its own the same way
 * (`pack.getIndex({ fields: ["system.identifier"] })`).
 */
export const BUILDER_INDEX_FIELDS = ["system.rank"] as const;

/** A compendium's index as catalogue entries (sorted by name); empty when the pack is missing. */
async function packEntries(id: string): Promise<CatalogueEntry[]> {
  const pack = game.packs.get(id);
  if (!pack) return [];
  // The v13 types list only top-level names as fields; Foundry takes dotted paths (as dnd5e's calls do).
  const options: { fields: string[] } = { fields: [...BUILDER_INDEX_FIELDS] };
  const index = await pack.getIndex(options as Parameters<typeof pack.getIndex>[0]);
  const out: CatalogueEntry[] = [];
  for (const e of index) {
    const system: unknown = "system" in e ? e.system : undefined;
    const rank = typeof system === "object" && system !== null && "rank" in system ? system.rank : undefined;
    out.push({ uuid: e.uuid, name: e.name ?? "", rank: typeof rank === "number" ? rank : null });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The powers and talents the system's compendiums hold. */
export async function loadBuilderCatalogue(): Promise<BuilderCatalogue> {
  return { powers: await packEntries(BUILDER_PACKS.powers), talents: await packEntries(BUILDER_PACKS.talents) };
}

/**
 * Opens the character builder on the actor `actorUuid` names (a character the user owns), or,
 * without one, on the user's own character, or for a new hero when the user may create actors
 * (character-builder.ts's `openCharacterBuilder`, loaded on first use). Resolves to the window, or null.
 */
export async function openCharacterBuilder(actorUuid?: string): Promise<CharacterBuilder | null> {
  const builder = await loadBuilderWindow();
  return builder ? builder.openCharacterBuilder(actorUuid) : null;
}

/**
 * The builder's window, fetched on first use; null, with an error the user sees, when the chunk
 * cannot be had: a system updated while this browser kept the old build asks for a chunk the
 * server no longer has, and the click would otherwise do nothing.
 */
export async function loadBuilderWindow(load: () => Promise<typeof BuilderWindow> = () => import("./character-builder")): Promise<typeof BuilderWindow | null> {
  try {
    return await load();
  } catch (error) {
    console.error(error);
    ui.notifications.error(game.i18n.localize("CASE.Builder.LoadFailed"));
    return null;
  }
}
