/**
 * The item sheet for powers, talents, weapons, armor and contacts: one class, a part per item
 * type (templates/item/<type>.hbs) between a common header and the rich text. Every field is
 * editable in place and saved on change; selects offer exactly the data model's choices.
 */
import { ITEM_TYPES_WITH_EFFECTS, itemSheetData, type ItemSheetData } from "./item-context";
import { EFFECT_ACTIONS, itemEffects } from "./effect-actions";
import { readEffectChanges } from "../../data/actor/effect-changes";
import { ownRankOf } from "../../documents/effect-items";
import { effectChangesOf } from "../../core/compat";
import { guardPrepare, guardProcess } from "./submit-guard";
import { ITEM_PARTS, partsOf } from "../templates";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ItemSheetV2 } = foundry.applications.sheets;

type SheetOptions = foundry.applications.api.DocumentSheetV2.DefaultOptions;
type BaseSheet = InstanceType<typeof ItemSheetV2>;

/** The parts shown for an item type: the header, that type's fields, the rich text, and the Active Effects of powers, weapons and armor. */
export function itemPartsFor(type: string): string[] {
  const own = type in ITEM_PARTS && !["header", "description", "effects"].includes(type) ? [type] : [];
  return ["header", ...own, "description", ...(ITEM_TYPES_WITH_EFFECTS.includes(type) ? ["effects"] : [])];
}

export class CaseItemSheet extends HandlebarsApplicationMixin(ItemSheetV2) {
  static override DEFAULT_OPTIONS: SheetOptions = {
    classes: ["case", "sheet", "item"],
    form: { submitOnChange: true },
    window: { resizable: true },
    position: { width: 540, height: 620 },
    actions: EFFECT_ACTIONS,
  };

  static override PARTS = partsOf(ITEM_PARTS, ["description"]);

  protected override _configureRenderParts(options: foundry.applications.api.HandlebarsApplicationMixin.RenderOptions) {
    const all = super._configureRenderParts(options);
    return Object.fromEntries(itemPartsFor(this.item.type).flatMap((id) => (all[id] ? [[id, all[id]]] : [])));
  }

  protected async _itemData(): Promise<ItemSheetData> {
    const item = this.item;
    const system = item.system;
    const TextEditor = foundry.applications.ux.TextEditor.implementation;
    const enrich = (html: string | undefined) => TextEditor.enrichHTML(html ?? "", { relativeTo: item, secrets: item.isOwner });
    return itemSheetData({
      name: item.name,
      img: item.img,
      type: item.type,
      system,
      fields: system.schema.fields,
      editable: this.isEditable,
      enriched: { description: await enrich(system.description), notes: await enrich(system.notes) },
      effects: itemEffects(item),
      effectProblems: readEffectChanges(
        item.effects.contents.flatMap((effect) =>
          effectChangesOf(effect).map((c) => ({ effect: effect.name, key: c.key, mode: c.mode, value: c.value, priority: c.priority, ownRank: ownRankOf(item.type, item.system) })),
        ),
      ).problems,
    });
  }

  protected override async _prepareContext(options: Parameters<BaseSheet["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    return { ...base, sheet: await this._itemData() };
  }

  protected override _prepareSubmitData(...args: Parameters<BaseSheet["_prepareSubmitData"]>) {
    return guardPrepare(this, () => super._prepareSubmitData(...args));
  }

  protected override async _processSubmitData(...args: Parameters<BaseSheet["_processSubmitData"]>) {
    await guardProcess(this, () => super._processSubmitData(...args));
  }
}
