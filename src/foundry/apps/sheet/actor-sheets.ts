/**
 * The character sheets: the hero sheet (header, abilities, tabs for powers, talents, gear,
 * contacts and biography) and the NPC sheet (one compact page a Judge runs at a glance).
 * Both are edited in place and saved on change; what they show comes from
 * `characterSheetData` (sheet-context.ts), their buttons from `CHARACTER_SHEET_ACTIONS`.
 */
import { CHARACTER_SHEET_ACTIONS, itemRowMenu } from "./sheet-actions";
import { bindFilters, collapsedLists } from "./item-lists";
import { characterSheetData, type CharacterSheetData } from "./sheet-context";
import { isCharacterItemType } from "./item-rows";
import { fieldOf, isCharacter } from "../../core/guards";
import { contextMenuEntries } from "../../core/compat";
import { rollDragData } from "./roll-drag";
import { karmaPoolEnabled, karmaPoolState } from "../../core/settings";
import type { GroupPoolView } from "./sheet-campaign";
import { guardPrepare, guardProcess } from "./submit-guard";
import { HERO_PARTS, NPC_PARTS, partsOf } from "../templates";
import { characterEffects } from "./effect-actions";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

type SheetOptions = foundry.applications.sheets.ActorSheetV2.DefaultOptions;
type BaseSheet = InstanceType<typeof ActorSheetV2>;

/** Enriches stored rich text for display (links, inline rolls), relative to its document. */
async function enrich(html: string, document: Actor.Implementation | Item.Implementation): Promise<string> {
  return foundry.applications.ux.TextEditor.implementation.enrichHTML(html, { relativeTo: document, secrets: document.isOwner });
}

/** The group Karma pool as this hero's Karma tab shows it (null when the world does not use one). */
function groupPoolView(uuid: string): GroupPoolView | null {
  if (!karmaPoolEnabled()) return null;
  const pool = karmaPoolState();
  return { total: pool.total, yours: pool.contributed[uuid] ?? 0 };
}

// @ts-expect-error TS2321: fvtt-types' HandlebarsApplicationMixin(ActorSheetV2) is too deep for tsc; members are still checked.
export class CaseCharacterSheet extends HandlebarsApplicationMixin(ActorSheetV2) {
  static override DEFAULT_OPTIONS: SheetOptions = {
    classes: ["case", "sheet", "actor", "character"],
    form: { submitOnChange: true },
    window: { resizable: true },
    actions: CHARACTER_SHEET_ACTIONS,
  };

  /** The items whose summary is open in this window, kept across re-renders. */
  readonly expandedItems = new Set<string>();

  /** The filter box's text per item list, kept across re-renders. */
  readonly #filters = new Map<string, string>();

  /** The sheet's data for its templates (see characterSheetData). */
  protected async _characterData(): Promise<CharacterSheetData> {
    const actor = this.actor;
    if (!isCharacter(actor)) throw new TypeError(`A character sheet shows heroes and NPCs, not a "${actor.type}" actor.`);
    const system = actor.system;
    const descriptions: Record<string, string> = {};
    for (const item of actor.items) {
      const description = fieldOf(item.system, "description");
      if (item.id !== null && typeof description === "string" && description !== "") descriptions[item.id] = await enrich(description, item);
    }
    return characterSheetData({
      name: actor.name,
      img: actor.img,
      type: actor.type,
      system,
      biography: system.biography,
      notes: system.notes,
      items: actor.items.contents,
      editable: this.isEditable,
      activeTab: this.tabGroups.primary,
      enriched: { biography: await enrich(system.biography, actor), notes: await enrich(system.notes, actor) },
      descriptions,
      collapsed: collapsedLists(),
      expanded: [...this.expandedItems],
      effects: characterEffects(actor),
      groupPool: groupPoolView(actor.uuid),
    });
  }

  protected override async _prepareContext(options: Parameters<BaseSheet["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    return { ...base, sheet: await this._characterData() };
  }

  /** The rows' right-click menu (Foundry's ContextMenu, delegated from the window, so made once; its entries in this version's form: core/compat.ts). */
  protected override async _onFirstRender(...args: Parameters<BaseSheet["_onFirstRender"]>) {
    await super._onFirstRender(...args);
    // The v13 types know only v13's entry form; v14's is built by compat for v14 alone.
    const entries = contextMenuEntries(itemRowMenu(this)) as foundry.applications.ux.ContextMenu.Entry<HTMLElement>[];
    new foundry.applications.ux.ContextMenu.implementation(this.element, ".case-item[data-item-id]", entries, { jQuery: false, fixed: true });
  }

  /** The filter boxes filter as the user types, and keep their text when the sheet re-renders. */
  protected override async _onRender(...args: Parameters<BaseSheet["_onRender"]>) {
    await super._onRender(...args);
    bindFilters(this.element, this.#filters);
    // Where the tab strip scrolls (a narrow window), the active tab is shown.
    this.element.querySelector(".case-tabs > .active")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** A refused value (a rank of −3) is shown, not swallowed; nothing is saved and the stored values come back. */
  protected override _prepareSubmitData(...args: Parameters<BaseSheet["_prepareSubmitData"]>) {
    return guardPrepare(this, () => super._prepareSubmitData(...args));
  }

  protected override async _processSubmitData(...args: Parameters<BaseSheet["_processSubmitData"]>) {
    await guardProcess(this, () => super._processSubmitData(...args));
  }

  /**
   * An item dropped from a compendium, the sidebar or another actor is copied onto this
   * character (keeping its compendium source); one dropped from this character is sorted.
   */
  protected override async _onDropItem(event: DragEvent, item: Item.Implementation): Promise<Item.Implementation | null> {
    if (!this.isEditable) return null;
    if (item.parent?.uuid === this.actor.uuid) return super._onDropItem(event, item);
    if (!isCharacterItemType(item.type)) {
      ui.notifications.warn(game.i18n.format("CASE.Drop.WrongItemType", { name: item.name, type: item.type }));
      return null;
    }
    const keepId = item.id !== null && !this.actor.items.has(item.id);
    const data = game.items.fromCompendium(item, { keepId, clearFolder: true });
    const created = await Item.implementation.create(data, { parent: this.actor, keepId });
    return (created as Item.Implementation | undefined) ?? null;
  }

  /**
   * An ability, sub-score or Resources/Popularity FEAT button dragged out (`.draggable` with
   * `data-case-drag="score"`, the same drag selector as the item rows) carries a roll for the
   * hotbar (hooks/hotbar.ts); every other drag is Foundry's.
   */
  protected override async _onDragStart(event: DragEvent): Promise<void> {
    const source = event.currentTarget instanceof HTMLElement ? event.currentTarget : null;
    const data = source ? rollDragData(this.actor.uuid, source.dataset) : null;
    if (data && event.dataTransfer) {
      event.dataTransfer.setData("text/plain", JSON.stringify(data));
      return;
    }
    return super._onDragStart(event);
  }

  /** Sorting moves an item among the items of its own list (its type) only. */
  protected override _onSortItem(event: DragEvent, item: Item.Implementation) {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-item-id]") : null;
    const target = row?.dataset.itemId === undefined ? undefined : this.actor.items.get(row.dataset.itemId);
    if (target?.type !== item.type) return;
    return super._onSortItem(event, item);
  }
}

/** The hero sheet. */
export class HeroSheet extends CaseCharacterSheet {
  static override DEFAULT_OPTIONS: SheetOptions = {
    classes: ["hero"],
    position: { width: 860, height: 800 },
  };

  static override PARTS = partsOf(HERO_PARTS, ["abilities", "powers", "talents", "gear", "contacts", "effects", "karma", "biography"]);

  override tabGroups: Record<string, string | null> = { primary: "powers" };
}

/** The NPC sheet. */
export class NpcSheet extends CaseCharacterSheet {
  static override DEFAULT_OPTIONS: SheetOptions = {
    classes: ["npc"],
    position: { width: 640, height: 720 },
  };

  static override PARTS = partsOf(NPC_PARTS, ["sheet"]);
}
