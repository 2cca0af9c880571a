/**
 * The gear compendium: everyday and heroic weapons and armour (CASE-RULES §5). Weapons carry
 * their attack type, how they deal damage (the wielder's Strength or their own rank), range in
 * areas, material strength and ammunition; armour its body-armour rank and energy protection.
 */
import { ARMOR_ABSORBS, ATTACKS, type AttackCode, type RankKey } from "../../../src/rules/index";
import { ITEM_SOURCE_SCHEMA_VERSION, type ItemInput } from "../documents";
import { areaNote, areaSource, attackNote, pullableFor, rank, rankLabel } from "./text";

export interface WeaponDef {
  readonly name: string;
  readonly img: string;
  readonly type: AttackCode;
  /** Range in areas; 0 for melee. Thrown items: the range a Typical thrower gets (Table 24). */
  readonly range: number;
  /** "strength": the wielder's Strength deals the damage; otherwise the weapon's own rank. */
  readonly damage: "strength" | RankKey;
  readonly materialStrength: RankKey | "none";
  /** Rounds or shots a full load holds, for weapons that use ammunition. */
  readonly ammunition?: number;
  /** An area the weapon's attack covers (rules/areas.ts). */
  readonly area?: { readonly shape: "burst" | "line"; readonly radius: number; readonly explosive?: boolean };
  readonly text: string;
}

export interface ArmorDef {
  readonly name: string;
  readonly img: string;
  readonly physical: RankKey | "none";
  readonly energy: RankKey | "none";
  readonly text: string;
}

const THROWN_NOTE = "Thrown: its reach is the thrower's Table 24 range by Strength; the range stored here is what a Typical thrower gets.";

export const WEAPONS: readonly WeaponDef[] = [
  {
    name: "Fists",
    img: "icons/svg/combat.svg",
    type: "BA",
    range: 0,
    damage: "strength",
    materialStrength: "none",
    text: "<p>Punches, kicks, elbows and headbutts. Everyone has them. A blow deals the attacker's Strength rank number, and the attacker may pull the punch to do less, or to land a lesser colour.</p>",
  },
  {
    name: "Club",
    img: "icons/svg/combat.svg",
    type: "BA",
    range: 0,
    damage: "strength",
    materialStrength: "good",
    text: "<p>A baseball bat, table leg, length of pipe or heavy flashlight. It hits with the wielder's Strength; a blow that would break the club (a Strength ACTION against its material strength) leaves the wielder holding splinters.</p>",
  },
  {
    name: "Nightstick",
    img: "icons/svg/combat.svg",
    type: "BA",
    range: 0,
    damage: "strength",
    materialStrength: "good",
    text: "<p>A police baton or telescoping steel stick. It hits with the wielder's Strength, and its grip lets a trained user block blows with it.</p>",
  },
  {
    name: "Crowbar",
    img: "icons/svg/combat.svg",
    type: "BA",
    range: 0,
    damage: "strength",
    materialStrength: "remarkable",
    text: "<p>Forged steel, useful for doors and for heads. It hits with the wielder's Strength and is almost impossible to break by hand.</p>",
  },
  {
    name: "Combat Knife",
    img: "icons/svg/sword.svg",
    type: "EA",
    range: 0,
    damage: "good",
    materialStrength: "remarkable",
    text: "<p>A sturdy fighting knife, switchblade or bayonet. In close combat it is an Edged Attack that deals its own rank; it cannot be pulled, so every strike risks a Kill result.</p>",
  },
  {
    name: "Throwing Knife",
    img: "icons/svg/sword.svg",
    type: "ET",
    range: 1,
    damage: "good",
    materialStrength: "remarkable",
    text: `<p>A balanced blade made for throwing. It is an Edged Throwing attack that deals its own rank and cannot be pulled. ${THROWN_NOTE}</p>`,
  },
  {
    name: "Sword",
    img: "icons/svg/sword.svg",
    type: "EA",
    range: 0,
    damage: "excellent",
    materialStrength: "remarkable",
    text: "<p>A sabre, katana or broadsword. It is an Edged Attack that deals its own rank; like every edged weapon it cannot be pulled.</p>",
  },
  {
    name: "Recurve Bow",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 3,
    damage: "good",
    materialStrength: "good",
    ammunition: 12,
    text: "<p>A modern sporting or hunting bow with a quiver of arrows. Arrows are Shooting attacks that deal the bow's rank; trick arrows (nets, smoke, glue) are the Judge's to rule on.</p>",
  },
  {
    name: "Crossbow",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 3,
    damage: "excellent",
    materialStrength: "good",
    ammunition: 1,
    text: "<p>A powerful crossbow that must be reloaded after every shot (one action). Its bolts are Shooting attacks at its own rank.</p>",
  },
  {
    name: "Handgun",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 3,
    damage: "good",
    materialStrength: "excellent",
    ammunition: 12,
    text: "<p>A semi-automatic pistol, the common sidearm of police and crooks alike. Bullets are Shooting attacks at the gun's rank; they cannot be pulled, and a green Kill? check still costs an ordinary victim Endurance.</p>",
  },
  {
    name: "Heavy Revolver",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 3,
    damage: "excellent",
    materialStrength: "excellent",
    ammunition: 6,
    text: "<p>A large-calibre revolver: six shots, then a reload. Shooting attacks at its rank.</p>",
  },
  {
    name: "Rifle",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 10,
    damage: "excellent",
    materialStrength: "excellent",
    ammunition: 10,
    text: "<p>A hunting or military rifle, accurate out to long range. Shooting attacks at its rank; with a scope and a turn spent aiming, the Judge may allow a called shot at +1 CS.</p>",
  },
  {
    name: "Shotgun",
    img: "icons/svg/target.svg",
    type: "Sh",
    range: 2,
    damage: "excellent",
    materialStrength: "excellent",
    ammunition: 6,
    text: "<p>A pump-action shotgun. Shooting attacks at its rank; at close range the spread of shot makes it hard to miss (the Judge may give +1 CS to hit within one area), but the pellets lose their punch quickly beyond it.</p>",
  },
  {
    name: "Blaster Pistol",
    img: "icons/svg/lightning.svg",
    type: "En",
    range: 5,
    damage: "remarkable",
    materialStrength: "incredible",
    ammunition: 20,
    text: "<p>Alien or super-science hardware that fires a bolt of coherent energy. It is an Energy attack at its own rank: body armour does not stop it, only energy protection. The wielder may turn the power down but not the colour.</p>",
  },
  {
    name: "Throwing Stone",
    img: "icons/svg/mountain.svg",
    type: "BT",
    range: 1,
    damage: "strength",
    materialStrength: "good",
    text: `<p>A rock, brick or bottle grabbed and hurled. Blunt Throwing damage is the lesser of the thrower's Strength and the object's material strength, so a brick hurts no more in a giant's hand than a hard one can take. ${THROWN_NOTE}</p>`,
  },
  {
    name: "Steel Girder",
    img: "icons/svg/anchor.svg",
    type: "BT",
    range: 1,
    damage: "strength",
    materialStrength: "remarkable",
    text: `<p>A length of structural steel torn from a building site. Only the very strong can lift it; thrown, it deals the lesser of the thrower's Strength and its material strength. ${THROWN_NOTE}</p>`,
  },
  {
    name: "Hurled Car",
    img: "icons/svg/anchor.svg",
    type: "BT",
    range: 1,
    damage: "strength",
    materialStrength: "good",
    text: `<p>A parked car lifted and thrown, the classic superhuman brawl move. It deals the lesser of the thrower's Strength and the car's material strength, and the car is wrecked either way. Lifting one takes at least Remarkable Strength. ${THROWN_NOTE}</p>`,
  },
  {
    name: "Concussion Grenade",
    img: "icons/svg/explosion.svg",
    type: "Fo",
    range: 2,
    damage: "excellent",
    materialStrength: "poor",
    ammunition: 3,
    area: { shape: "burst", radius: 1, explosive: true },
    text: "<p>A fist-sized charge that goes off with a bang and a shock wave. It is a Force attack at its own rank on everyone round the square it lands in; armour counts against it. Each throw uses one grenade.</p>",
  },
];

export const ARMORS: readonly ArmorDef[] = [
  {
    name: "Leather Jacket",
    img: "icons/svg/shield.svg",
    physical: "poor",
    energy: "none",
    text: "<p>Heavy motorcycle leathers. They take the edge off scrapes and punches and little else.</p>",
  },
  {
    name: "Ballistic Vest",
    img: "icons/svg/shield.svg",
    physical: "good",
    energy: "none",
    text: "<p>A concealable vest of layered aramid fibre, worn by police and security. It absorbs its rank from blows, blades and bullets to the torso.</p>",
  },
  {
    name: "Riot Armor",
    img: "icons/svg/shield.svg",
    physical: "excellent",
    energy: "poor",
    text: "<p>Full-body plates, helmet and padding worn by riot police and well-funded henchmen. Heavy and hot, but it turns aside most street weapons, and its padding blunts a little energy.</p>",
  },
  {
    name: "Insulated Suit",
    img: "icons/svg/fire-shield.svg",
    physical: "feeble",
    energy: "good",
    text: "<p>A firefighter's or lineworker's protective suit. Almost no use against blows, but it absorbs its energy rank from heat, cold and electricity.</p>",
  },
  {
    name: "Power Armor Plating",
    img: "icons/svg/holy-shield.svg",
    physical: "incredible",
    energy: "excellent",
    text: "<p>Powered exoskeleton plating from a corporate lab or a genius's workshop. It protects against both physical and energy attacks; the suit's other systems (flight, weapons, strength) are separate powers or weapons.</p>",
  },
  {
    name: "Riot Shield",
    img: "icons/svg/shield.svg",
    physical: "excellent",
    energy: "none",
    text: "<p>A large transparent polycarbonate shield. While the bearer carries it and faces the attack, it counts as body armor of its rank; with other armor, use the better of the two (or, if they are within one rank of each other, the Judge may let them stack as a +1 CS, as for Block). It does not protect against attacks from behind.</p>",
  },
  {
    name: "Steel Shield",
    img: "icons/svg/shield.svg",
    physical: "remarkable",
    energy: "good",
    text: "<p>A heavy metal shield, round or kite-shaped, made for a super-strong bearer. Carried and facing the attack, it counts as body armor of its rank and gives some protection against energy as well.</p>",
  },
];

function rankOrZero(key: RankKey | "none"): number {
  return key === "none" ? 0 : rank(key);
}

function absorbs(list: readonly AttackCode[]): string {
  return list.map((c) => `${ATTACKS[c].name} (${c})`).join(", ");
}

export function weaponItem(def: WeaponDef): ItemInput {
  const damage =
    def.damage === "strength"
      ? def.type === "BT"
        ? "<p><strong>Damage:</strong> the lesser of the thrower's Strength and the material strength.</p>"
        : "<p><strong>Damage:</strong> the wielder's Strength.</p>"
      : `<p><strong>Damage:</strong> ${rankLabel(def.damage)}.</p>`;
  const ms = def.materialStrength === "none" ? "" : `<p><strong>Material strength:</strong> ${rankLabel(def.materialStrength)}.</p>`;
  const ammo = def.ammunition === undefined ? "" : `<p><strong>Ammunition:</strong> ${def.ammunition} per load.</p>`;
  return {
    name: def.name,
    type: "weapon",
    img: def.img,
    system: {
      attack: { enabled: true, type: def.type, range: def.range, pullable: pullableFor(def.type), area: areaSource(def.area) },
      damage: { mode: def.damage === "strength" ? "strength" : "rank", rank: def.damage === "strength" ? 0 : rank(def.damage) },
      materialStrength: rankOrZero(def.materialStrength),
      ammunition: { tracked: def.ammunition !== undefined, value: def.ammunition ?? 0, max: def.ammunition ?? 0 },
      equipped: true,
      description: def.text + damage + ms + ammo + attackNote(def.type, def.range) + areaNote(def.area),
      schemaVersion: ITEM_SOURCE_SCHEMA_VERSION,
    },
  };
}

export function armorItem(def: ArmorDef): ItemInput {
  const physical = def.physical === "none" ? "none" : rankLabel(def.physical);
  const energy = def.energy === "none" ? "none" : rankLabel(def.energy);
  return {
    name: def.name,
    type: "armor",
    img: def.img,
    system: {
      physical: rankOrZero(def.physical),
      energy: rankOrZero(def.energy),
      equipped: true,
      description: `${def.text}<p><strong>Body armor:</strong> ${physical}, against ${absorbs(ARMOR_ABSORBS.body)}.</p><p><strong>Energy protection:</strong> ${energy}, against ${absorbs(ARMOR_ABSORBS.energy)}.</p>`,
      schemaVersion: ITEM_SOURCE_SCHEMA_VERSION,
    },
  };
}
