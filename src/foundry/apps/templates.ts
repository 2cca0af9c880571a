/**
 * Where the sheets' templates live. Paths are relative to the system's folder; Foundry serves
 * them under `systems/case/`. The partials are registered under short names, so the
 * templates read `{{> case-item-list …}}` both in Foundry and in the tests' Handlebars.
 */
import { SYSTEM_PATH } from "../core/constants";

/** Partial name → template path (relative to the system folder). */
export const SHEET_PARTIALS = {
  "case-item-list": "templates/parts/item-list.hbs",
  "case-pool": "templates/parts/pool.hbs",
  "case-rank-input": "templates/parts/rank-input.hbs",
  "case-attack-fields": "templates/parts/attack-fields.hbs",
  "case-roll-preview": "templates/dialog/roll-preview.hbs",
  "case-item-tag": "templates/parts/item-tag.hbs",
  "case-effects": "templates/parts/effects.hbs",
  "case-follow-ups": "templates/chat/follow-ups.hbs",
  "case-resist-row": "templates/chat/resist-row.hbs",
} as const;

/** The hero sheet's parts, in render order. */
export const HERO_PARTS = {
  header: "templates/actor/hero-header.hbs",
  abilities: "templates/actor/abilities.hbs",
  tabs: "templates/actor/hero-tabs.hbs",
  powers: "templates/actor/tab-powers.hbs",
  talents: "templates/actor/tab-talents.hbs",
  gear: "templates/actor/tab-gear.hbs",
  contacts: "templates/actor/tab-contacts.hbs",
  effects: "templates/actor/tab-effects.hbs",
  karma: "templates/actor/tab-karma.hbs",
  biography: "templates/actor/tab-biography.hbs",
} as const;

/** The NPC sheet: one compact page. */
export const NPC_PARTS = {
  sheet: "templates/actor/npc-sheet.hbs",
} as const;

/** The item sheet: a header, the item type's own fields, its rich text. */
export const ITEM_PARTS = {
  header: "templates/item/header.hbs",
  power: "templates/item/power.hbs",
  talent: "templates/item/talent.hbs",
  weapon: "templates/item/weapon.hbs",
  armor: "templates/item/armor.hbs",
  contact: "templates/item/contact.hbs",
  description: "templates/item/description.hbs",
  effects: "templates/item/effects.hbs",
} as const;

/** A system-relative path as Foundry serves it. */
export function systemPath(path: string): string {
  return `${SYSTEM_PATH}/${path}`;
}

/** Foundry `PARTS` from a part → path record. */
export function partsOf<K extends string>(parts: Readonly<Record<K, string>>, scrollable: readonly NoInfer<K>[] = []): Record<K, { template: string; scrollable?: string[] }> {
  return Object.fromEntries(
    (Object.entries(parts) as [K, string][]).map(([id, path]) => [id, scrollable.includes(id) ? { template: systemPath(path), scrollable: [""] } : { template: systemPath(path) }]),
  ) as Record<K, { template: string; scrollable?: string[] }>;
}
