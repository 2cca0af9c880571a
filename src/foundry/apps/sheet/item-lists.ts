/**
 * The item lists' own behaviour on a character sheet, beside the click actions: which
 * sections this client keeps folded (a client setting), the filter box (applied to the rows
 * as the user types, kept across re-renders by the sheet), and the rows' right-click menu,
 * whose entries run the same handlers as the buttons in a row's summary.
 */
import { SYSTEM_ID } from "../../core/constants";
import { CHARACTER_ITEM_TYPES, isCharacterItemType, matchesFilter, type CharacterItemType } from "./item-rows";

declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "case.collapsedItemLists": string;
  }
}

/** The client setting: the item list types folded on this client, comma-separated. */
export const COLLAPSED_SETTING = "collapsedItemLists";

/** Registers the client setting (call in init). */
export function registerItemListSetting(): void {
  game.settings.register(SYSTEM_ID, COLLAPSED_SETTING, {
    scope: "client",
    config: false,
    type: String,
    default: "",
  });
}

/** The stored setting read strictly: known list types only (anything else is dropped). */
export function parseCollapsed(stored: unknown): CharacterItemType[] {
  if (typeof stored !== "string") return [];
  const wanted = new Set(stored.split(","));
  return CHARACTER_ITEM_TYPES.filter((type) => wanted.has(type));
}

/** The list types folded on this client. */
export function collapsedLists(): CharacterItemType[] {
  return parseCollapsed(game.settings.get(SYSTEM_ID, COLLAPSED_SETTING));
}

/** Folds or unfolds a list type on this client; returns whether it is now folded. */
export async function toggleCollapsed(type: string): Promise<boolean> {
  if (!isCharacterItemType(type)) throw new RangeError(`"${type}" is not an item list.`);
  const folded = new Set(collapsedLists());
  const now = !folded.delete(type);
  if (now) folded.add(type);
  await game.settings.set(SYSTEM_ID, COLLAPSED_SETTING, CHARACTER_ITEM_TYPES.filter((t) => folded.has(t)).join(","));
  return now;
}

/**
 * Shows only the rows of `section` whose name matches `query` (item-rows `matchesFilter`),
 * and the "no match" line when a filter hides every row.
 */
export function applyFilter(section: Element, query: string): void {
  const rows = [...section.querySelectorAll<HTMLElement>("li[data-item-id]")];
  let shown = 0;
  for (const row of rows) {
    const match = matchesFilter(row.dataset.itemName ?? "", query);
    row.hidden = !match;
    if (match) shown++;
  }
  const none = section.querySelector<HTMLElement>(".case-filter-empty");
  if (none) none.hidden = rows.length === 0 || shown > 0;
}

/**
 * Wires the filter boxes of a rendered sheet: typing filters at once, the text is kept in
 * `filters` (by list type) and restored after a re-render. The box is no form field: its
 * changes never reach the sheet's submit-on-change.
 */
export function bindFilters(root: HTMLElement, filters: Map<string, string>): void {
  for (const input of root.querySelectorAll<HTMLInputElement>("input.case-item-filter")) {
    const type = input.dataset.filter ?? "";
    const section = input.closest(".case-item-section");
    if (!section) continue;
    input.value = filters.get(type) ?? "";
    applyFilter(section, input.value);
    input.addEventListener("input", () => {
      filters.set(type, input.value);
      applyFilter(section, input.value);
    });
    input.addEventListener("change", (event) => {
      event.stopPropagation();
    });
  }
}

/** Folds or unfolds a rendered section: its list and filter hide, its heading button says so. */
export function setSectionFolded(section: Element, folded: boolean): void {
  section.classList.toggle("collapsed", folded);
  for (const el of section.querySelectorAll<HTMLElement>(".case-item-list, .case-item-filter")) el.hidden = folded;
  section.querySelector(".case-section-toggle")?.setAttribute("aria-expanded", String(!folded));
}

/** Opens or closes a row's summary; returns whether it is now open. */
export function setSummaryOpen(row: Element, open: boolean): boolean {
  row.classList.toggle("expanded", open);
  const summary = row.querySelector<HTMLElement>(".case-item-summary");
  if (summary) summary.hidden = !open;
  row.querySelector(".case-summary-toggle")?.setAttribute("aria-expanded", String(open));
  return open;
}

/** A right-click menu entry as Foundry v13's ContextMenu takes it (name localised by Foundry). */
export interface RowMenuEntry {
  readonly name: string;
  readonly icon: string;
  readonly condition: (row: HTMLElement) => boolean;
  readonly callback: (row: HTMLElement) => unknown;
}

/** What a menu entry does: the handler of the summary button with that action. */
export type RowMenuHandler = (row: HTMLElement) => Promise<void>;

/**
 * The rows' right-click menu: edit, duplicate, delete, post to chat; each runs the handler of
 * the summary button with the same action (so the keyboard and the menu do the same thing).
 * Duplicate and delete need an editable sheet.
 */
export function rowMenuEntries(run: (action: "editItem" | "duplicateItem" | "deleteItem" | "postItem") => RowMenuHandler, editable: () => boolean): RowMenuEntry[] {
  const always = () => true;
  return [
    { name: "CASE.Sheet.Edit", icon: '<i class="fa-solid fa-pen-to-square"></i>', condition: always, callback: run("editItem") },
    { name: "CASE.ItemList.Duplicate", icon: '<i class="fa-solid fa-copy"></i>', condition: editable, callback: run("duplicateItem") },
    { name: "CASE.Sheet.Delete", icon: '<i class="fa-solid fa-trash"></i>', condition: editable, callback: run("deleteItem") },
    { name: "CASE.ItemList.Post", icon: '<i class="fa-solid fa-comment"></i>', condition: always, callback: run("postItem") },
  ];
}
