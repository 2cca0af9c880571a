/**
 * The Actors sidebar's "Build a hero" button: opens the character builder (for a new hero when
 * the user may create actors, else on the user's own character; see character-builder.ts).
 * ActorDirectory is an ApplicationV2, so Foundry calls `renderActorDirectory(app, element)`
 * after each render (ApplicationV2 `_onRender` → `render<ClassName>` hooks, as dnd5e and pf2e
 * use them); the button is added to the header's actions once per render.
 */
import { openCharacterBuilder } from "../apps/builder/builder-loader";

export const BUILDER_BUTTON_CLASS = "case-build-hero";

/**
 * Adds the button to the directory's header actions (no-op when already there). Where a system or
 * module left the directory without `.header-actions` (core's ActorDirectory has it; dnd5e makes
 * its own), the button goes in a `.header-actions` of its own at the top of the directory's
 * header, or of the directory: players are never left without it.
 */
export function addBuilderButton(element: HTMLElement): void {
  if (element.querySelector(`.${BUILDER_BUTTON_CLASS}`)) return;
  const actions = element.querySelector(".header-actions") ?? headerActions(element);
  const button = document.createElement("button");
  button.type = "button";
  button.className = BUILDER_BUTTON_CLASS;
  const icon = document.createElement("i");
  icon.className = "fa-solid fa-user-plus";
  icon.inert = true;
  button.append(icon, ` ${game.i18n.localize("CASE.Builder.BuildHero")}`);
  button.addEventListener("click", () => void openCharacterBuilder());
  actions.append(button);
}

/** A `.header-actions` of the button's own, first in the directory's header (or the directory). */
function headerActions(element: HTMLElement): HTMLElement {
  const actions = document.createElement("div");
  actions.className = "header-actions action-buttons flexrow";
  (element.querySelector(".directory-header") ?? element).prepend(actions);
  return actions;
}

/** Registers the hook (call in init). */
export function registerBuilderEntry(): void {
  Hooks.on("renderActorDirectory", (_app: unknown, element: unknown) => {
    if (element instanceof HTMLElement) addBuilderButton(element);
  });
}
