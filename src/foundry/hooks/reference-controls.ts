/**
 * Ways to open the Universal Table window besides the API: a "Universal Table" button in the
 * Token controls (the left-hand scene controls, shown whenever a scene is viewed) and a
 * keybinding, "Open the Universal Table" (Shift+U by default; Configure Controls → CASE).
 */
import { SYSTEM_ID } from "../core/constants";
import { openUniversalTable } from "../apps/table/universal-table-app";

/** The scene control tool's name. */
export const TOOL_NAME = "caseUniversalTable";

/** Adds the button to the Token controls ("getSceneControlButtons"). */
export function addUniversalTableTool(controls: Record<string, foundry.applications.ui.SceneControls.Control>): void {
  const tokens = controls.tokens;
  if (!tokens) return;
  tokens.tools[TOOL_NAME] = {
    name: TOOL_NAME,
    title: "CASE.UniversalTable.Open",
    icon: "fa-solid fa-table-cells",
    order: Object.keys(tokens.tools).length + 1,
    button: true,
    visible: true,
    onChange: () => {
      void openUniversalTable();
    },
  };
}

/** Registers the keybinding and the scene control button (call in init). */
export function registerUniversalTableControls(): void {
  game.keybindings.register(SYSTEM_ID, "openUniversalTable", {
    name: "CASE.Keybinding.OpenUniversalTable.Name",
    hint: "CASE.Keybinding.OpenUniversalTable.Hint",
    editable: [{ key: "KeyU", modifiers: [foundry.helpers.interaction.KeyboardManager.MODIFIER_KEYS.SHIFT] }],
    onDown: () => {
      void openUniversalTable();
      return true;
    },
  });
  Hooks.on("getSceneControlButtons", addUniversalTableTool);
}
