/**
 * Builds every compendium pack of the system from the content modules: ids, keys, embedded
 * copies of pack items on the characters, and the rules journal. Pure: returns the documents,
 * writes nothing (scripts/generate-packs.ts writes them; test/packs compares them with the
 * committed sources).
 */
import { ARMORS, WEAPONS, armorItem, weaponItem } from "./content/gear";
import { HEROES, MINOR_FOES, VILLAINS, characterSystem, type CharacterDef } from "./content/characters";
import { POWERS, powerItem } from "./content/powers";
import { TALENTS, talentItem } from "./content/talents";
import { rank } from "./content/text";
import { embeddedItem, itemDocument, stableId, stats, type DocumentSource, type ItemInput, type PackSource } from "./documents";
import { RULES_JOURNAL_NAME, RULES_PACK, rulesJournal } from "./rules-journal";
import { MACROS, MACROS_PACK, macroDocument } from "./content/macros";

/** Players may browse and import; assistants may edit. */
const OPEN: Readonly<Record<string, string>> = { PLAYER: "OBSERVER", ASSISTANT: "OWNER" };
/** Hidden from players (villain statistics are the Judge's). */
const JUDGE_ONLY: Readonly<Record<string, string>> = { PLAYER: "NONE", ASSISTANT: "OWNER" };

function items(pack: string, inputs: readonly ItemInput[]): DocumentSource[] {
  return inputs.map((input, i) => itemDocument(pack, input, (i + 1) * 100000));
}

type ItemPacks = Readonly<Record<"powers" | "talents" | "gear", readonly DocumentSource[]>>;

/** The token defaults of a character: heroes linked to their actor, foes numbered. */
function prototypeToken(def: CharacterDef): DocumentSource {
  const hero = def.type === "hero";
  return {
    name: def.name,
    actorLink: hero,
    appendNumber: def.minor === true,
    disposition: hero ? 1 : -1,
    displayName: 20,
    displayBars: 20,
    bar1: { attribute: "health" },
    bar2: { attribute: "karma" },
    width: 1,
    height: 1,
    texture: { src: def.img },
    sight: { enabled: hero },
  };
}

function actor(pack: string, def: CharacterDef, sort: number, itemPacks: ItemPacks): DocumentSource {
  const id = stableId(`${pack}.Actor.${def.name}`);
  const embedded = def.items.map((carried, i) => {
    const source = itemPacks[carried.pack].find((d) => d.name === carried.name);
    if (!source) throw new Error(`${def.name} carries "${carried.name}", which is not in the ${carried.pack} pack.`);
    const system: DocumentSource = {};
    if (carried.rank !== undefined) system.rank = rank(carried.rank);
    if (carried.doubled !== undefined) system.doubled = carried.doubled;
    return embeddedItem(id, carried.pack, source, (i + 1) * 100000, carried.rename === undefined ? { system } : { name: carried.rename, system });
  });
  return {
    _id: id,
    _key: `!actors!${id}`,
    name: def.name,
    type: def.type,
    img: def.img,
    system: characterSystem(def),
    prototypeToken: prototypeToken(def),
    items: embedded,
    effects: [],
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: {},
    _stats: stats(),
  };
}

/** Every pack, in system.json order. */
export function buildPacks(): PackSource[] {
  const powers = items("powers", POWERS.map(powerItem));
  const talents = items("talents", TALENTS.map(talentItem));
  const gear = items("gear", [...WEAPONS.map(weaponItem), ...ARMORS.map(armorItem)]);
  const itemPacks: ItemPacks = { powers, talents, gear };
  const heroes = HEROES.map((def, i) => actor("heroes", def, (i + 1) * 100000, itemPacks));
  const villains = [...VILLAINS, ...MINOR_FOES].map((def, i) => actor("villains", def, (i + 1) * 100000, itemPacks));
  return [
    { name: RULES_PACK, label: "Rules Reference", type: "JournalEntry", ownership: OPEN, documents: rulesJournal() },
    { name: "powers", label: "Powers", type: "Item", ownership: OPEN, documents: powers },
    { name: "talents", label: "Talents", type: "Item", ownership: OPEN, documents: talents },
    { name: "gear", label: "Weapons and Armor", type: "Item", ownership: OPEN, documents: gear },
    { name: "heroes", label: "Heroes", type: "Actor", ownership: OPEN, documents: heroes },
    { name: "villains", label: "Villains and Foes", type: "Actor", ownership: JUDGE_ONLY, documents: villains },
    { name: MACROS_PACK, label: "Macros", type: "Macro", ownership: OPEN, documents: MACROS.map((def, i) => macroDocument(MACROS_PACK, def, (i + 1) * 100000)) },
  ];
}

/** The rules journal's name, re-exported for tests that look it up. */
export { RULES_JOURNAL_NAME };

/** system.json `packs` entries for the built packs. */
export function manifestPacks(packs: readonly PackSource[]): DocumentSource[] {
  return packs.map((p) => ({ name: p.name, label: p.label, path: `packs/${p.name}`, type: p.type, system: "case", ownership: { ...p.ownership }, flags: {} }));
}

/** system.json `packFolders`: one CASE folder, rules on top, then items and characters. */
export function manifestPackFolders(): DocumentSource[] {
  return [
    {
      name: "CASE",
      sorting: "m",
      color: "#8a1c1c",
      packs: [RULES_PACK, MACROS_PACK],
      folders: [
        { name: "Powers, Talents and Gear", sorting: "m", color: "#1c4f8a", packs: ["powers", "talents", "gear"], folders: [] },
        { name: "Characters", sorting: "m", color: "#2e6b34", packs: ["heroes", "villains"], folders: [] },
      ],
    },
  ];
}
