/**
 * The system's Item class: powers, talents, weapons, armor, contacts.
 */
import { ITEM_SCHEMA_VERSION } from "../data/item/items";
import { withSchemaVersion } from "../data/fields";
import { isItemType } from "../core/guards";
import { keepRefusedNumbers, lostEntries, refusedBy, rememberRefused, warnLostValues } from "./migration-lost";

export class CaseItem<SubType extends Item.SubType = Item.SubType> extends Item<SubType> {
  /**
   * Before Foundry migrates and cleans the raw source: numbers too large to keep are refused
   * and their text recorded in `flags.case.migrationLost` (documents/migration-lost.ts).
   */
  protected override _initializeSource(data: this | Item.CreateData, options?: foundry.abstract.DataModel.InitializeSourceOptions): Item.Source {
    rememberRefused(this, keepRefusedNumbers("Item", data));
    return super._initializeSource(data, options);
  }

  /** A new item gets the current schema version (an imported one keeps its own, and is migrated). */
  protected override async _preCreate(data: Item.CreateData, options: Item.Database.PreCreateOptions, user: User.Implementation): Promise<boolean | undefined> {
    const allowed = await super._preCreate(data, options, user);
    if (allowed === false) return false;
    const version = withSchemaVersion((data as { system?: unknown }).system, ITEM_SCHEMA_VERSION);
    if (version) this.updateSource({ system: version });
    warnLostValues(lostEntries(this.name, refusedBy(this)));
    return undefined;
  }

  /** True when this item can make an attack (a power or weapon with an attack). */
  get isAttack(): boolean {
    return (isItemType(this, "power") || isItemType(this, "weapon")) && this.system.attack.enabled;
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    Item: typeof CaseItem<Item.SubType>;
  }
  interface ConfiguredItem<SubType extends Item.SubType> {
    document: CaseItem<SubType>;
  }
}
