/**
 * The Universal Table reference window: the whole table in colour, the column the user picked
 * highlighted (remembered per client), and a roll button under every column that rolls a
 * plain ACTION on it. Opened from the Token controls' "Universal Table" button, the keybinding
 * (Shift+U by default) or `CONFIG.CASE.api.openUniversalTable()`. What it shows is
 * `universalTableContext` (universal-table-context.ts, tested with the real template).
 */
import { SYSTEM_ID } from "../../core/constants";
import { rollColumn } from "../../column-roll";
import type { RankKey } from "../../../rules/index";
import { UNIVERSAL_TABLE_ACTIONS, UNIVERSAL_TABLE_TEMPLATE, storedColumn, universalTableContext, type UniversalTableContext, type UniversalTableHost } from "./universal-table-context";
import { systemPath } from "../templates";

declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "case.universalTableColumn": string;
  }
}

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/** The client setting that remembers the selected column. */
export const COLUMN_SETTING = "universalTableColumn";

/** Registers the client setting (call in init). */
export function registerUniversalTableSetting(): void {
  game.settings.register(SYSTEM_ID, COLUMN_SETTING, {
    scope: "client",
    config: false,
    type: String,
    default: "typical",
  });
}

/** The column this client last selected (the default when none, or when the stored one is not a rank). */
export function rememberedColumn(): RankKey {
  return storedColumn(game.settings.get(SYSTEM_ID, COLUMN_SETTING));
}

export class UniversalTableApp extends HandlebarsApplicationMixin(ApplicationV2) implements UniversalTableHost {
  static override DEFAULT_OPTIONS = {
    id: "case-universal-table",
    classes: ["case", "case-reference"],
    tag: "section",
    window: { title: "CASE.UniversalTable.Title", icon: "fa-solid fa-table-cells", resizable: true },
    position: { width: 1100, height: "auto" as const },
    actions: UNIVERSAL_TABLE_ACTIONS,
  };

  static override PARTS = {
    table: { template: systemPath(UNIVERSAL_TABLE_TEMPLATE) },
  };

  /** The one window of this client (re-opening brings it to the front). */
  static #instance: UniversalTableApp | null = null;

  /** Opens the window, or brings it to the front when it is open. */
  static async open(): Promise<UniversalTableApp> {
    const app = (UniversalTableApp.#instance ??= new UniversalTableApp());
    if (app.rendered) app.bringToFront();
    else await app.render({ force: true });
    return app;
  }

  protected override async _prepareContext(options: Parameters<InstanceType<typeof ApplicationV2>["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    const table: UniversalTableContext = universalTableContext(CONFIG.CASE.universalTable, rememberedColumn());
    return { ...base, ...table };
  }

  protected override async _onRender(context: Parameters<InstanceType<typeof ApplicationV2>["_onRender"]>[0], options: Parameters<InstanceType<typeof ApplicationV2>["_onRender"]>[1]) {
    await super._onRender(context, options);
    // The column select stays a change listener, not a click action: ApplicationV2's actions
    // answer clicks, and a click on a select chooses nothing (the value changes later, by
    // mouse or keyboard); `change` is the one event that says a column was picked.
    const select = this.element.querySelector<HTMLSelectElement>("select[data-case-column-select]");
    select?.addEventListener("change", () => {
      const key = storedColumn(select.value);
      void this.selectColumn(key);
    });
  }

  /** Selects a column: remembered for this client, then shown. */
  async selectColumn(key: RankKey): Promise<void> {
    await game.settings.set(SYSTEM_ID, COLUMN_SETTING, key);
    await this.render();
  }

  /** Rolls a plain ACTION on a column (and selects it). */
  async rollOnColumn(key: RankKey): Promise<void> {
    if (rememberedColumn() !== key) await this.selectColumn(key);
    await rollColumn(key);
  }

  protected override _onClose(options: Parameters<InstanceType<typeof ApplicationV2>["_onClose"]>[0]) {
    super._onClose(options);
    if (UniversalTableApp.#instance === this) UniversalTableApp.#instance = null;
  }
}

/** Opens the Universal Table window (the API's `openUniversalTable`). */
export async function openUniversalTable(): Promise<void> {
  await UniversalTableApp.open();
}
