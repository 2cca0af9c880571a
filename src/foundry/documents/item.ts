/**
 * The system's Item class: powers, talents, weapons, armor, contacts.
 */
export class CaseItem<SubType extends Item.SubType = Item.SubType> extends Item<SubType> {
  /** True when this item can make an attack (a power or weapon with an attack). */
  get isAttack(): boolean {
    if (this.type === "power" || this.type === "weapon") {
      const system = this.system as { attack?: { enabled?: boolean } };
      return system.attack?.enabled === true;
    }
    return false;
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
