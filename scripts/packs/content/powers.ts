/**
 * The powers compendium: common superhuman abilities across the nine CASE power categories
 * (CASE-RULES §10). Each has a default rank, a duration, rank guidance and, where it attacks,
 * an attack type (§5) and range in areas. All text is our own.
 */
import { ARMOR_ABSORBS, ATTACKS, type AttackCode, type PowerCategory, type RankKey, type ScoreRef } from "../../../src/rules/index";
import { ITEM_SOURCE_SCHEMA_VERSION, type DocumentSource, type EffectInput, type ItemInput } from "../documents";
import { areaNote, areaSource, attackNote, guidanceList, pullableFor, rank } from "./text";

export interface PowerDef {
  readonly name: string;
  readonly category: PowerCategory;
  /** The default rank a new copy of the power starts at. */
  readonly rank: RankKey;
  readonly duration: string;
  readonly img: string;
  /** Present when the power attacks: its attack type and range in areas (0 = touch or melee), and an area if it covers one. */
  readonly attack?: { readonly type: AttackCode; readonly range: number; readonly area?: { readonly shape: "burst" | "line"; readonly radius: number; readonly explosive?: boolean } };
  /**
   * Present when the power protects like armor (CASE-RULES §5, Errata): at the power's rank,
   * against the attacks body armor absorbs (`physical`), against Energy (`energy`), and/or
   * against listed attack types only (`against`).
   */
  readonly protection?: { readonly physical?: boolean; readonly energy?: boolean; readonly against?: readonly AttackCode[] };
  /**
   * Present when the power changes the character's scores while it is active: Active Effects
   * the power carries to its owner (src/foundry/documents/active-effect.ts), with "@rank" for
   * the power's rank so a re-ranked copy follows it.
   */
  readonly effects?: readonly EffectInput[];
  /** False for a power a character switches on when needed (Growth); its effects then wait. */
  readonly startsActive?: boolean;
  /** True for a power that regenerates Health at each wrap-up (rules recovery.ts). */
  readonly regeneration?: boolean;
  /**
   * Present when the power is resisted, not dodged (rules power-rulings.ts): the ability its
   * target rolls against the power's rank, and what a failure does (a condition for some turns, or a hold).
   */
  readonly resisted?: { readonly by: ScoreRef; readonly effect: "condition" | "partialHold" | "fullHold"; readonly condition?: string; readonly turns?: number };
  /** What the power does, as HTML paragraphs. */
  readonly text: string;
  readonly guidance: readonly (readonly [RankKey, string])[];
}

const PERMANENT = "Permanent (always on)";
const AT_WILL = "At will: on or off as a free choice";
const CONCENTRATION = "Concentration: lasts while the user keeps it up and takes no other action that needs focus";
const INSTANT = "Instant";
const ONE_ACTION = "One action per use";

/** Foundry's CONST.ACTIVE_EFFECT_MODES.UPGRADE (public API): the score becomes at least the value. */
const UPGRADE = 4;

/** An effect that makes Strength at least the power's rank (Super Strength, Growth). */
function strengthAtLeastRank(name: string, img: string): EffectInput {
  return {
    name,
    img,
    description: "<p>Strength is at least the power's rank while the power is active; Strength (mgt) and (vgr) follow it unless set apart.</p>",
    changes: [{ key: "system.abilities.strength.value", mode: UPGRADE, value: "@rank" }],
  };
}

function codes(list: readonly AttackCode[]): string {
  return list.map((c) => `${ATTACKS[c].name} (${c})`).join(", ");
}

export const POWERS: readonly PowerDef[] = [
  // ── Physical Enhancement ────────────────────────────────────────────────────────────────
  {
    name: "Body Armor",
    category: "physicalEnhancement",
    rank: "excellent",
    duration: PERMANENT,
    img: "icons/svg/statue.svg",
    protection: { physical: true },
    text: `<p>Thick hide, scales, rubbery flesh or plates under the skin. Every hit from ${codes(ARMOR_ABSORBS.body)} loses the power's rank number in damage before it reaches Health; a charger who slams into it takes that number back. Energy attacks go straight through unless the character also has Energy Resistance.</p>`,
    guidance: [
      ["good", "a punch from an ordinary person barely bruises."],
      ["excellent", "knives skate off and most handgun rounds are stopped."],
      ["remarkable", "rifle fire and car crashes are shrugged off."],
      ["monstrous", "cannon shells and collapsing floors are an inconvenience."],
    ],
  },
  {
    name: "Energy Resistance",
    category: "physicalEnhancement",
    rank: "good",
    duration: PERMANENT,
    img: "icons/svg/fire-shield.svg",
    protection: { energy: true },
    text: `<p>The body tolerates heat, cold, electricity and radiation far beyond human limits. Subtract the rank number from the damage of every ${codes(ARMOR_ABSORBS.energy)} attack, the same way body armor works against blows and bullets. The player should name the energies covered if the resistance is narrower than "all of them".</p>`,
    guidance: [
      ["good", "walks through a kitchen fire or a live wire without lasting harm."],
      ["remarkable", "stands in a blast furnace or takes a lightning strike."],
      ["amazing", "ignores most energy blasts from other heroes."],
    ],
  },
  {
    name: "Super Strength",
    category: "physicalEnhancement",
    rank: "remarkable",
    duration: PERMANENT,
    img: "icons/svg/upgrade.svg",
    effects: [strengthAtLeastRank("Super Strength", "icons/svg/upgrade.svg")],
    text: "<p>Muscle far past the human peak. The power's Active Effect makes the character's Strength at least the power's rank (raise the power and Strength follows; nothing to edit by hand): the rules read Strength for blows, lifting, throwing range, grabbing, holds and Block, so the power itself makes no separate rolls. Punches with it are Blunt Attacks that deal the Strength rank number.</p>",
    guidance: [
      ["excellent", "bends a steel bar; lifts one end of a small car."],
      ["remarkable", "flips a car; tears a door off its hinges."],
      ["incredible", "lifts a loaded truck."],
      ["monstrous", "holds up a collapsing bridge span for a few turns."],
      ["unearthly", "drags a ship; few things on Earth are too heavy."],
    ],
  },
  {
    name: "Super Speed",
    category: "physicalEnhancement",
    rank: "excellent",
    duration: AT_WILL,
    img: "icons/svg/wingfoot.svg",
    text: "<p>The character runs, reacts and works at a blurring pace. Use the power's rank for ACTIONs of pure speed: outrunning a vehicle, crossing a city, doing an hour's chore in a moment. Running speed on the ground is set by the Judge from the rank; a speedster who moves full speed still takes only one action that turn, as anyone does.</p>",
    guidance: [
      ["good", "keeps pace with a car in town traffic."],
      ["remarkable", "outruns cars on the highway."],
      ["amazing", "faster than a light aircraft."],
      ["unearthly", "breaks the sound barrier on foot."],
    ],
  },
  {
    name: "Flight",
    category: "physicalEnhancement",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/wing.svg",
    text: "<p>Unaided flight by wings, jets, gravity control or sheer will. The rank measures speed and manoeuvring: roll it for tight turns, catching a falling friend mid-air or staying aloft in a storm. Flying into a target at speed is a charge (Ch).</p>",
    guidance: [
      ["good", "about as fast as a car; hovers steadily."],
      ["remarkable", "matches a light aircraft."],
      ["monstrous", "outpaces jet fighters."],
      ["unearthly", "reaches orbit given time."],
    ],
  },
  {
    name: "Regeneration",
    category: "physicalEnhancement",
    rank: "good",
    duration: PERMANENT,
    img: "icons/svg/regen.svg",
    regeneration: true,
    text: "<p>Wounds close, bones knit and lost blood returns far faster than nature allows. Healing happens in the wrap-up step at the end of each turn, by itself: the power's rank number in Health every ten turns (the world's Regeneration setting), a share each turn, at least 1. Suggested (a Judge's call): a regenerator who takes a Kill result still loses the Endurance rank, but the power counts as aid, so the loss does not continue.</p>",
    guidance: [
      ["good", "heals a day's worth of injury in an hour."],
      ["remarkable", "closes gunshot wounds within a minute."],
      ["amazing", "regrows lost fingers in days."],
    ],
  },
  {
    name: "Enhanced Senses",
    category: "physicalEnhancement",
    rank: "excellent",
    duration: PERMANENT,
    img: "icons/svg/eye.svg",
    text: "<p>One or more senses sharpened beyond human range: a bloodhound's nose, hearing that picks a heartbeat from a crowd, sight in near darkness. Roll the power's rank instead of Intuition to notice, track or search with the enhanced sense. A character with this power is rarely blindsided by anything the sense could detect.</p>",
    guidance: [
      ["good", "hears a whisper across a room; sees well by starlight."],
      ["excellent", "follows a day-old scent trail."],
      ["incredible", "reads a newspaper a kilometre away."],
    ],
  },
  {
    name: "Self-Sustenance",
    category: "physicalEnhancement",
    rank: "remarkable",
    duration: PERMANENT,
    img: "icons/svg/angel.svg",
    text: "<p>The body needs little or nothing: no air, food, water or sleep, and it endures vacuum, deep water and extreme pressure. Roll the rank to resist gas, drowning, hunger or the cold of space.</p>",
    guidance: [
      ["good", "holds breath for half an hour; goes days without food."],
      ["remarkable", "breathes underwater or in smoke; needs no sleep."],
      ["unearthly", "survives unprotected in open space indefinitely."],
    ],
  },

  // ── Physical Control ────────────────────────────────────────────────────────────────────
  {
    name: "Elongation",
    category: "physicalControl",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/net.svg",
    attack: { type: "BA", range: 1 },
    text: "<p>Limbs, neck and body stretch like taffy. The character can punch someone in the next area, reach through gaps, wrap around a foe or become a living net or trampoline. A stretching blow is a Blunt Attack that deals Strength damage; wrapping someone up uses the normal grappling rules. Roll the power's rank for unusual feats of stretching.</p>",
    guidance: [
      ["good", "reaches across a street."],
      ["remarkable", "stretches up the side of a building."],
      ["amazing", "covers a city block; wraps a vehicle."],
    ],
  },
  {
    name: "Shape-Shifting",
    category: "physicalControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/mystery-man.svg",
    text: "<p>The character reshapes their own body: another person's face and voice, an animal's form, or simply a different height and build. Fooling someone who knows the original is an ACTION on the power's rank against the observer's Intuition as intensity. Abilities stay the character's own unless the Judge rules a form grants something.</p>",
    guidance: [
      ["good", "changes face, hair and voice."],
      ["remarkable", "passes as any human of roughly the same mass."],
      ["monstrous", "becomes animals or objects of very different size."],
    ],
  },
  {
    name: "Growth",
    category: "physicalControl",
    rank: "excellent",
    duration: AT_WILL,
    img: "icons/svg/upgrade.svg",
    startsActive: false,
    effects: [strengthAtLeastRank("Grown", "icons/svg/upgrade.svg")],
    text: "<p>The character swells to giant size. Switch the power on while grown: its Active Effect makes Strength at least the power's rank, and the Judge may grant body armor for the sheer bulk; in exchange the giant is easy to hit and cannot hide. Shrinking back is free (switch it off).</p>",
    guidance: [
      ["good", "up to about twice normal height."],
      ["remarkable", "as tall as a two-storey house."],
      ["monstrous", "towers over office buildings."],
    ],
  },
  {
    name: "Shrinking",
    category: "physicalControl",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/downgrade.svg",
    text: "<p>The character dwindles to a fraction of their height, keeping their strength. Attacks against a shrunken target are harder to aim (the Judge applies a column shift to hit, growing with the rank), and the character can slip through keyholes, vents and gaps.</p>",
    guidance: [
      ["good", "the size of a mouse."],
      ["remarkable", "the size of an insect."],
      ["unearthly", "small enough to walk between molecules."],
    ],
  },
  {
    name: "Phasing",
    category: "physicalControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/paralysis.svg",
    text: "<p>The character turns intangible and passes through walls, floors and people. While phased, physical attacks pass harmlessly through them, and they cannot strike anyone either. Energy and mental attacks may still affect them at the Judge's discretion. Barriers of higher rank than the power (force fields, mystic wards) can stop a phaser.</p>",
    guidance: [
      ["good", "walks through wooden doors and plaster walls."],
      ["remarkable", "passes through concrete and steel."],
      ["amazing", "slips through most force fields."],
    ],
  },
  {
    name: "Invisibility",
    category: "physicalControl",
    rank: "remarkable",
    duration: AT_WILL,
    img: "icons/svg/invisible.svg",
    text: "<p>The character cannot be seen. Anyone who cannot sense them by other means is blindsided by their attacks, so those attacks cannot be defended against, and the invisible character can only be attacked if a foe guesses or hears where they are. Spotting them with other senses is an Intuition ACTION against the power's rank as intensity.</p>",
    guidance: [
      ["good", "fades to a shimmer in still conditions."],
      ["remarkable", "wholly invisible, clothes and all."],
      ["amazing", "invisible to infrared and other instruments too."],
    ],
  },
  {
    name: "Teleportation",
    category: "physicalControl",
    rank: "excellent",
    duration: INSTANT,
    img: "icons/svg/daze.svg",
    text: "<p>The character vanishes and reappears elsewhere without crossing the space between. A hop within sight takes one action; a long jump to a place they know well may need a power ACTION, and a failure lands them off target. Carrying a passenger is an ACTION against the passenger's Endurance as intensity, unless they go willingly.</p>",
    guidance: [
      ["good", "a few areas, within sight."],
      ["excellent", "anywhere in the same city."],
      ["incredible", "across a continent."],
      ["unearthly", "anywhere on the planet."],
    ],
  },
  {
    name: "Surface Adhesion",
    category: "physicalControl",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/falling.svg",
    text: "<p>Hands and feet cling to walls and ceilings, so the character climbs at running speed and can hang upside down. Being torn loose takes a Strength greater than the power's rank.</p>",
    guidance: [
      ["good", "clings to brick, glass and steel."],
      ["remarkable", "stays put on a moving vehicle or in a gale."],
    ],
  },

  // ── Physical Weaponry ───────────────────────────────────────────────────────────────────
  {
    name: "Claws",
    category: "physicalWeaponry",
    rank: "excellent",
    duration: AT_WILL,
    img: "icons/svg/blood.svg",
    attack: { type: "EA", range: 0 },
    text: "<p>Retractable or permanent claws, talons or blades grown from the body. A claw strike is an Edged Attack that deals the power's rank number (or Strength, if higher). Claws also cut through materials whose material strength is below the power's rank.</p>",
    guidance: [
      ["good", "as sharp as a hunting knife."],
      ["excellent", "slices car doors."],
      ["remarkable", "carves through steel plate."],
      ["amazing", "parts almost any metal."],
    ],
  },
  {
    name: "Tail Strike",
    category: "physicalWeaponry",
    rank: "good",
    duration: PERMANENT,
    img: "icons/svg/pawprint.svg",
    attack: { type: "BA", range: 0 },
    text: "<p>A strong prehensile or armoured tail. Swinging it is a Blunt Attack that deals the power's rank number or Strength, whichever is higher; it can also hold objects or sweep a foe's legs.</p>",
    guidance: [
      ["good", "a hard whip, like a thick branch."],
      ["remarkable", "knocks a motorbike over."],
    ],
  },
  {
    name: "Spine Volley",
    category: "physicalWeaponry",
    rank: "good",
    duration: ONE_ACTION,
    img: "icons/svg/thrust.svg",
    attack: { type: "ET", range: 2 },
    text: "<p>The character flings quills, bone darts or crystal shards grown from the body. The volley is an Edged Throwing attack that deals the power's rank number; the spines grow back over a few hours, so long fights may run out (track uses if the Judge asks).</p>",
    guidance: [
      ["good", "like a thrown knife."],
      ["excellent", "punches through a leather jacket."],
      ["remarkable", "pins a target to a wall."],
    ],
  },
  {
    name: "Venom Sting",
    category: "physicalWeaponry",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/poison.svg",
    attack: { type: "EA", range: 0 },
    text: "<p>Fangs, a stinger or spurs that inject venom. The sting is an Edged Attack that deals the power's rank number; if it does damage, the victim also makes an Endurance ACTION against the power's rank as intensity or is weakened (−1 CS on all actions) for the rest of the fight.</p>",
    guidance: [
      ["good", "as bad as a wasp swarm."],
      ["remarkable", "drops an ordinary person in seconds."],
    ],
  },
  {
    name: "Battering Horns",
    category: "physicalWeaponry",
    rank: "excellent",
    duration: PERMANENT,
    img: "icons/svg/bones.svg",
    attack: { type: "Ch", range: 0 },
    text: "<p>Horns, a bony crest or a reinforced skull built for ramming. When charging, use the power's rank in place of body armor for the charge's damage if it is higher; the usual charge bonuses for distance apply.</p>",
    guidance: [
      ["good", "butts like an angry ram."],
      ["excellent", "stoves in a car door at a run."],
      ["incredible", "knocks down brick walls."],
    ],
  },

  // ── Energy Control ──────────────────────────────────────────────────────────────────────
  {
    name: "Force Field",
    category: "energyControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/mage-shield.svg",
    protection: { physical: true, energy: true },
    text: "<p>A shell of solid energy around the user, or a wall they place nearby. While it is up, subtract the power's rank number from the damage of every attack that strikes it, energy included. Anything that does more damage than the field's rank gets the excess through, and the user may need an ACTION to keep the field up afterwards. Raising the field around others is possible at −1 CS per extra person.</p>",
    guidance: [
      ["good", "stops fists and thrown bottles."],
      ["remarkable", "turns aside gunfire and most energy blasts."],
      ["amazing", "survives an exploding fuel tanker."],
      ["unearthly", "shelters a city block."],
    ],
  },
  {
    name: "Energy Absorption",
    category: "energyControl",
    rank: "excellent",
    duration: PERMANENT,
    img: "icons/svg/aura.svg",
    text: "<p>The character soaks up one form of energy (name it: electricity, heat, light, kinetic force …). Damage of that kind up to the power's rank is absorbed instead of taken. The stored energy can be let out later as a blast of up to the same rank (treat it as Energy Blast), and it fades if not used within an hour.</p>",
    guidance: [
      ["good", "drinks the current from a wall socket."],
      ["remarkable", "absorbs an energy blast from a hero."],
      ["unearthly", "drains a power station dry."],
    ],
  },
  {
    name: "Fire Control",
    category: "energyControl",
    rank: "good",
    duration: CONCENTRATION,
    img: "icons/svg/fire.svg",
    text: "<p>The character shapes flames that already exist: making a fire leap, shrink, take a shape or go out. Putting out a blaze is an ACTION against the fire's intensity; fire turned on someone uses the fire's intensity or the power's rank, whichever is lower, as an Energy attack.</p>",
    guidance: [
      ["good", "snuffs a room fire; makes a campfire flare."],
      ["remarkable", "turns back a burning building's flames."],
      ["amazing", "holds back a forest fire."],
    ],
  },
  {
    name: "Light Control",
    category: "energyControl",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/sun.svg",
    text: "<p>The character bends and shapes light: lighting a dark area, casting simple illusions, bending light around someone to hide them, or dazzling a foe. A dazzle is an ACTION on the power's rank against the target's Endurance as intensity; success leaves the target at −2 CS to hit for a turn.</p>",
    guidance: [
      ["good", "lights a street; throws a blinding flash."],
      ["excellent", "paints detailed images in the air."],
      ["incredible", "hides a group in plain sight."],
    ],
  },
  {
    name: "Weather Control",
    category: "energyControl",
    rank: "incredible",
    duration: CONCENTRATION,
    img: "icons/svg/lightning.svg",
    text: "<p>The character calls up wind, rain, fog, snow or storms over a wide area. Changes build over several turns; the power's rank is the intensity of the weather and sets how large an area it covers. A lightning strike from the storm is an Energy attack of up to the power's rank, once per turn.</p>",
    guidance: [
      ["good", "a fog bank or a stiff breeze over a few blocks."],
      ["incredible", "a thunderstorm over a town."],
      ["unearthly", "a hurricane."],
    ],
  },
  {
    name: "Magnetic Control",
    category: "energyControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/anchor.svg",
    attack: { type: "BT", range: 3 },
    text: "<p>The character pushes and pulls metal at a distance. Lifting metal uses the power's rank as Strength; flinging a metal object at a foe is a Blunt Throwing attack whose damage is the lesser of the power's rank and the object's material strength. Pulling a gun from a hand is a grab against the holder's Strength.</p>",
    guidance: [
      ["good", "yanks tools and guns out of hands."],
      ["remarkable", "lifts and hurls a car."],
      ["monstrous", "tears the steel frame out of a building."],
    ],
  },

  // ── Energy Generation ───────────────────────────────────────────────────────────────────
  {
    name: "Energy Blast",
    category: "energyGeneration",
    rank: "remarkable",
    duration: ONE_ACTION,
    img: "icons/svg/lightning.svg",
    attack: { type: "En", range: 3 },
    text: "<p>A beam of raw power (cosmic energy, light, heat, plasma) shot from hands or eyes. It is an Energy attack that deals the power's rank number; body armor does not stop it, only energy protection. The user may dial the damage down but not the colour.</p>",
    guidance: [
      ["good", "scorches and stuns an ordinary person."],
      ["remarkable", "blows a hole in a brick wall."],
      ["amazing", "wrecks a tank."],
      ["unearthly", "levels a building."],
    ],
  },
  {
    name: "Fire Blast",
    category: "energyGeneration",
    rank: "excellent",
    duration: ONE_ACTION,
    img: "icons/svg/fire.svg",
    attack: { type: "En", range: 3 },
    text: "<p>A jet of flame or superheated air. It is an Energy attack that deals the power's rank number and can set flammable things alight. With a separate ACTION the user may instead wreathe themselves in fire, so anyone touching them takes half the rank as damage.</p>",
    guidance: [
      ["good", "like a blowtorch."],
      ["excellent", "ignites a car's fuel tank."],
      ["incredible", "melts steel."],
    ],
  },
  {
    name: "Lightning Bolt",
    category: "energyGeneration",
    rank: "incredible",
    duration: ONE_ACTION,
    img: "icons/svg/lightning.svg",
    attack: { type: "En", range: 4 },
    text: "<p>A crackling arc of electricity. It is an Energy attack that deals the power's rank number, and it jumps easily through metal: a target in metal armor or touching a metal surface gets no cover from it. Overloading a machine is an ACTION against the machine's material strength.</p>",
    guidance: [
      ["good", "a stun-gun jolt at range."],
      ["incredible", "fries a car's electrics and its driver."],
      ["unearthly", "a bolt like a natural lightning strike."],
    ],
  },
  {
    name: "Ice Blast",
    category: "energyGeneration",
    rank: "excellent",
    duration: ONE_ACTION,
    img: "icons/svg/frozen.svg",
    attack: { type: "En", range: 3 },
    text: "<p>A freezing ray that deals the power's rank number as an Energy attack. Instead of damage, the user may encase a target in ice: the target is held as if in a full hold with Strength equal to the power's rank until they break out (Escape) or the ice melts.</p>",
    guidance: [
      ["good", "frosts a windscreen; numbs a hand."],
      ["excellent", "freezes a person to the pavement."],
      ["amazing", "freezes a river solid enough to walk on."],
    ],
  },
  {
    name: "Force Blast",
    category: "energyGeneration",
    rank: "remarkable",
    duration: ONE_ACTION,
    img: "icons/svg/explosion.svg",
    attack: { type: "Fo", range: 3, area: { shape: "line", radius: 3 } },
    text: "<p>A wave of invisible force that hits like a speeding truck. It is a Force attack that deals the power's rank number; body armor counts against it. It is good at knocking foes over and pushing things rather than burning them.</p>",
    guidance: [
      ["good", "knocks a person flat."],
      ["remarkable", "flips a parked car."],
      ["monstrous", "topples a small building."],
    ],
  },
  {
    name: "Sonic Scream",
    category: "energyGeneration",
    rank: "excellent",
    duration: ONE_ACTION,
    img: "icons/svg/sound.svg",
    attack: { type: "Fo", range: 2 },
    text: "<p>A focused blast of sound from the voice or a device. It is a Force attack that deals the power's rank number; glass, crystal and brittle materials of lower material strength shatter. Characters with sensitive hearing take a further −1 CS to their next action.</p>",
    guidance: [
      ["good", "shatters windows."],
      ["excellent", "knocks a person off their feet."],
      ["incredible", "cracks concrete."],
    ],
  },
  {
    name: "Kinetic Darts",
    category: "energyGeneration",
    rank: "excellent",
    duration: ONE_ACTION,
    img: "icons/svg/target.svg",
    attack: { type: "Sh", range: 4 },
    text: "<p>Hard, bullet-like pellets of solid energy fired from the fingertips. They work as Shooting: the volley deals the power's rank number, body armor absorbs it, and it cannot be pulled. The darts vanish a moment after they strike.</p>",
    guidance: [
      ["good", "like a light pistol."],
      ["excellent", "like a hunting rifle."],
      ["remarkable", "like a heavy machine gun."],
    ],
  },
  {
    name: "Force Disc",
    category: "energyGeneration",
    rank: "good",
    duration: ONE_ACTION,
    img: "icons/svg/target.svg",
    attack: { type: "BT", range: 3 },
    text: "<p>The user shapes a glowing disc, ball or brick of solid energy and hurls it. It is a Blunt Throwing attack: treat the construct as an object whose material strength is the power's rank, hurled with the power's rank as Strength, so a hit deals the power's rank number.</p>",
    guidance: [
      ["good", "a hard-thrown brick."],
      ["remarkable", "a wrecking ball."],
    ],
  },
  {
    name: "Energy Blades",
    category: "energyGeneration",
    rank: "excellent",
    duration: ONE_ACTION,
    img: "icons/svg/sword.svg",
    attack: { type: "ET", range: 2 },
    text: "<p>Shimmering blades, stars or shards of energy flung at a foe. They count as Edged Throwing: the power's rank number in damage, and they cannot be pulled. The user can also hold one as a melee blade (an Edged Attack at the same rank).</p>",
    guidance: [
      ["good", "like a thrown knife."],
      ["excellent", "cuts through a car door."],
      ["incredible", "slices a lamp post in two."],
    ],
  },
  {
    name: "Shock Touch",
    category: "energyGeneration",
    rank: "good",
    duration: AT_WILL,
    img: "icons/svg/lightning.svg",
    attack: { type: "En", range: 0 },
    text: "<p>A jolt of electricity delivered by touch. It is an Energy attack at touch range that deals the power's rank number, and anyone holding or grappling the user takes it automatically at the start of each turn the user chooses.</p>",
    guidance: [
      ["good", "like a police stun gun."],
      ["remarkable", "like touching a power line."],
    ],
  },
  {
    name: "Blinding Flash",
    category: "energyGeneration",
    rank: "good",
    duration: ONE_ACTION,
    img: "icons/svg/blind.svg",
    attack: { type: "En", range: 1 },
    resisted: { by: "endurance", effect: "condition", condition: "Blinded", turns: 5 },
    text: "<p>A burst of brilliant light. Each target looking the user's way resists with an Endurance FEAT against the power's rank as intensity (the card's <em>Resist</em>); those who fail are Blinded for 5 turns and fight at −2 CS, and cannot see the user to defend against them.</p>",
    guidance: [
      ["good", "like a camera flash in the eyes."],
      ["remarkable", "like staring at a welding arc."],
    ],
  },

  // ── Matter Control ──────────────────────────────────────────────────────────────────────
  {
    name: "Earth Control",
    category: "matterControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/mountain.svg",
    attack: { type: "BT", range: 3 },
    text: "<p>The character moves soil, rock and stone: raising walls, opening pits, riding a wave of earth. Hurling a boulder is a Blunt Throwing attack dealing the lesser of the power's rank and the rock's material strength. A raised wall has the power's rank as its material strength.</p>",
    guidance: [
      ["good", "raises a waist-high berm; throws rocks."],
      ["remarkable", "opens a pit under a car."],
      ["unearthly", "triggers a small earthquake."],
    ],
  },
  {
    name: "Water Control",
    category: "matterControl",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/acid.svg",
    text: "<p>The character shapes water: parting it, raising waves, drawing moisture from the air, or lifting a column to carry them. A wave smashing into a foe is a Force attack at the power's rank. Without a nearby source of water the power works at −2 CS.</p>",
    guidance: [
      ["good", "a fire hose's worth of water."],
      ["excellent", "a wave that sweeps a street."],
      ["monstrous", "parts a bay."],
    ],
  },
  {
    name: "Transmutation",
    category: "matterControl",
    rank: "amazing",
    duration: CONCENTRATION,
    img: "icons/svg/stoned.svg",
    text: "<p>The character changes one substance into another: steel to glass, stone to sand, air to water. Changing an object is an ACTION against its material strength as intensity; living things can only be affected with the Judge's approval and an ACTION against their Endurance.</p>",
    guidance: [
      ["excellent", "one hand-sized object at a time."],
      ["amazing", "a car or a section of wall."],
      ["unearthly", "a whole building."],
    ],
  },
  {
    name: "Plant Control",
    category: "matterControl",
    rank: "good",
    duration: CONCENTRATION,
    img: "icons/svg/oak.svg",
    attack: { type: "Gp", range: 2 },
    text: "<p>The character makes plants grow, move and obey. Vines or roots that seize a foe make a Grappling attack: the power's rank stands in for Strength for the hold and for any attempt to escape it.</p>",
    guidance: [
      ["good", "grass and creepers tangle a foe's feet."],
      ["remarkable", "trees bend to grab a car."],
      ["amazing", "a forest rises in hours."],
    ],
  },

  // ── Mental ──────────────────────────────────────────────────────────────────────────────
  {
    name: "Telepathy",
    category: "mental",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/eye.svg",
    text: "<p>The character reads surface thoughts and speaks mind to mind. Contact with a willing mind is automatic; reading an unwilling one is an ACTION on the power's rank against the target's Psyche as intensity. A yellow result or better reaches memories, not just what the target is thinking now.</p>",
    guidance: [
      ["good", "senses moods; talks to one person in sight."],
      ["excellent", "reads thoughts in the same building."],
      ["amazing", "links a whole team across a city."],
    ],
  },
  {
    name: "Mind Control",
    category: "mental",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/terror.svg",
    attack: { type: "En", range: 1 },
    resisted: { by: "psyche", effect: "condition", condition: "Mind-controlled", turns: 10 },
    text: "<p>The character imposes their will on another mind. The victim resists with a Psyche FEAT against the power's rank as intensity (the card's <em>Resist</em>; Karma may be added); on a failure they are Mind-controlled for 10 turns and obey simple commands while the controller concentrates. An order against the victim's nature allows a new Psyche FEAT to break free.</p>",
    guidance: [
      ["good", "a single short command (\"drop it\", \"sleep\")."],
      ["remarkable", "a puppet for a scene."],
      ["monstrous", "a whole crowd at once."],
    ],
  },
  {
    name: "Telekinesis",
    category: "mental",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/daze.svg",
    attack: { type: "BT", range: 3 },
    text: "<p>The character moves objects with the mind, using the power's rank as Strength. Hurling an object at a foe is a Blunt Throwing attack dealing the lesser of the power's rank and the object's material strength. Holding a person still works like a grappling hold, with the power's rank as Strength.</p>",
    guidance: [
      ["good", "lifts a person; snatches a gun."],
      ["remarkable", "lifts a car."],
      ["monstrous", "holds up a collapsing building."],
    ],
  },
  {
    name: "Illusions",
    category: "mental",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/mystery-man.svg",
    text: "<p>The character plants false sights and sounds in the minds around them. Seeing through an illusion is an Intuition ACTION against the power's rank as intensity, tried only when something seems wrong. Illusions cannot do damage themselves, but foes can be tricked into walking off a roof.</p>",
    guidance: [
      ["good", "one person sees one simple thing."],
      ["excellent", "a whole room sees a convincing scene."],
      ["amazing", "a city street full of phantom traffic."],
    ],
  },
  {
    name: "Mind Shield",
    category: "mental",
    rank: "excellent",
    duration: PERMANENT,
    img: "icons/svg/holy-shield.svg",
    text: "<p>A guarded mind. Any mental power used against the character must beat the higher of their Psyche and the shield's rank, and they always know when someone tries.</p>",
    guidance: [
      ["good", "shrugs off hypnosis."],
      ["excellent", "stops most telepaths cold."],
      ["unearthly", "a mind no one can open."],
    ],
  },
  {
    name: "Danger Sense",
    category: "mental",
    rank: "good",
    duration: PERMANENT,
    img: "icons/svg/hazard.svg",
    text: "<p>A tingling warning moments before harm. When the character would be blindsided, roll the power's rank: on a green or better they are not blindsided after all and may defend as normal.</p>",
    guidance: [
      ["good", "warns of an ambush a moment early."],
      ["remarkable", "feels a sniper's aim."],
    ],
  },

  // ── Power Control ───────────────────────────────────────────────────────────────────────
  {
    name: "Power Negation",
    category: "powerControl",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/cancel.svg",
    text: "<p>The character shuts down other people's powers nearby. Negating one power is an ACTION on this rank against that power's rank as intensity; success switches it off while the negator concentrates. Gadgets and armour are unaffected unless the Judge says they are powered.</p>",
    guidance: [
      ["good", "one power of one person within reach."],
      ["remarkable", "every power of one person in the same area."],
      ["amazing", "everyone in the area."],
    ],
  },
  {
    name: "Nullifier",
    category: "powerControl",
    rank: "remarkable",
    duration: INSTANT,
    img: "icons/svg/silenced.svg",
    attack: { type: "En", range: 2 },
    resisted: { by: "psyche", effect: "condition", condition: "Nullified", turns: 3 },
    text: "<p>A pulse that unravels a target's powers. The target resists with a Psyche FEAT against the power's rank as intensity (the card's <em>Resist</em>); on a failure they are Nullified for 3 turns: the Judge switches their powers off (each power's <em>Active</em> switch) until it wears off.</p>",
    guidance: [
      ["good", "snuffs a street-level power for a moment."],
      ["remarkable", "grounds a flier mid-battle."],
      ["amazing", "silences a cosmic power for a few heartbeats."],
    ],
  },
  {
    name: "Power Mimicry",
    category: "powerControl",
    rank: "excellent",
    duration: "Until the next mimicry or the end of the scene",
    img: "icons/svg/clockwork.svg",
    text: "<p>By touching another super-powered being, the character copies one of their powers. The copy works at the lower of the original rank and this power's rank and lasts until the character copies another power or the scene ends.</p>",
    guidance: [
      ["good", "copies one minor power."],
      ["excellent", "copies most powers of street-level heroes."],
      ["monstrous", "copies several powers at once."],
    ],
  },
  {
    name: "Power Boost",
    category: "powerControl",
    rank: "good",
    duration: CONCENTRATION,
    img: "icons/svg/upgrade.svg",
    text: "<p>The character strengthens someone else's power. Touching an ally and succeeding at an ACTION on this rank gives one of the ally's powers +1 CS (+2 CS on a red) while the booster concentrates.</p>",
    guidance: [
      ["good", "one ally at a time."],
      ["remarkable", "everyone in the same area."],
    ],
  },

  // ── Spells ──────────────────────────────────────────────────────────────────────────────
  {
    name: "Eldritch Bolt",
    category: "spells",
    rank: "remarkable",
    duration: ONE_ACTION,
    img: "icons/svg/aura.svg",
    attack: { type: "Fo", range: 4 },
    text: "<p>A bolt of mystic force summoned with a word and a gesture. It is a Force attack that deals the spell's rank number. Beings of magic or from other dimensions take +1 CS more damage at the Judge's discretion.</p>",
    guidance: [
      ["good", "a novice's first spell."],
      ["remarkable", "a practised sorcerer's staple."],
      ["unearthly", "a master's wrath."],
    ],
  },
  {
    name: "Mystic Shield",
    category: "spells",
    rank: "remarkable",
    duration: CONCENTRATION,
    img: "icons/svg/mage-shield.svg",
    protection: { physical: true, energy: true },
    text: "<p>A glowing ward conjured around the caster (and those close by at −1 CS each). It absorbs the spell's rank number from every attack, magic included, and it blocks spells and mental powers of lower rank completely.</p>",
    guidance: [
      ["good", "turns aside knives and minor hexes."],
      ["remarkable", "stops bullets and most spells."],
      ["monstrous", "withstands a demon's fury."],
    ],
  },
  {
    name: "Dimensional Gate",
    category: "spells",
    rank: "incredible",
    duration: CONCENTRATION,
    img: "icons/svg/portal.svg",
    text: "<p>The caster tears open a doorway to another place or another plane. Opening it is an ACTION on the spell's rank; the gate stays open while the caster concentrates, and anyone can step through. Unfamiliar destinations are an ACTION against an intensity the Judge sets.</p>",
    guidance: [
      ["excellent", "a door to a place the caster can see."],
      ["incredible", "a door anywhere on Earth."],
      ["unearthly", "a door to other dimensions."],
    ],
  },
  {
    name: "Binding Bands",
    category: "spells",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/net.svg",
    attack: { type: "Gp", range: 3 },
    text: "<p>Glowing ribbons, chains or rings of force wrap the target. It is a Grappling attack at range, with the spell's rank standing in for Strength: a partial hold on yellow, a full hold on red. The target breaks free with an Escape against the spell's rank.</p>",
    guidance: [
      ["good", "ties a thug's hands."],
      ["excellent", "binds a street-level hero."],
      ["amazing", "holds a rampaging giant."],
    ],
  },
  {
    name: "Snare",
    category: "spells",
    rank: "excellent",
    duration: CONCENTRATION,
    img: "icons/svg/trap.svg",
    attack: { type: "En", range: 3 },
    resisted: { by: "strength", effect: "fullHold" },
    text: "<p>Sticky strands, a net of light or grasping roots snap shut round the target. The target resists with a Strength FEAT against the power's rank as intensity (the card's <em>Resist</em>); on a failure they are in a Full Hold until freed. Unlike Binding Bands it is not dodged.</p>",
    guidance: [
      ["good", "tangles a thug's legs."],
      ["excellent", "pins a street-level hero."],
      ["amazing", "holds a rampaging giant."],
    ],
  },
  {
    name: "Scrying",
    category: "spells",
    rank: "good",
    duration: CONCENTRATION,
    img: "icons/svg/eye.svg",
    text: "<p>The caster watches a distant place or person through a crystal, bowl of water or mirror. Finding a target is an ACTION on the spell's rank; a target who guards their mind or is mystically hidden raises the intensity to their Psyche or ward rank.</p>",
    guidance: [
      ["good", "a place the caster knows well."],
      ["remarkable", "any person whose name the caster knows."],
    ],
  },
];

/** The `system.protection` of a pack power: at the power's own rank (so a character's re-ranked copy follows it). */
export function powerProtection(def: PowerDef): DocumentSource {
  const p = def.protection;
  return { active: true, physical: p?.physical === true, energy: p?.energy === true, against: [...(p?.against ?? [])], rank: null };
}

/** A power's Item source, with its description built from the text, attack note and guidance. */
/** A resisted power's use on the attack card: no to-hit, each target resists. */
function resistedNote(type: AttackCode, range: number): string {
  return `<p><strong>Use:</strong> ${ATTACKS[type].name} (${type}) at targets within ${String(range)} area${range === 1 ? "" : "s"}, from the attack button; no to-hit roll: each target resists on the card.</p>`;
}

export function powerItem(def: PowerDef): ItemInput {
  const attack = def.attack;
  return {
    name: def.name,
    type: "power",
    img: def.img,
    system: {
      category: def.category,
      rank: rank(def.rank),
      duration: def.duration,
      active: def.startsActive ?? true,
      attack: attack
        ? { enabled: true, type: attack.type, range: attack.range, pullable: pullableFor(attack.type), area: areaSource(attack.area) }
        : { enabled: false, type: "En", range: 0, pullable: true, area: areaSource(undefined) },
      protection: powerProtection(def),
      regeneration: def.regeneration === true,
      resisted: { by: "none", condition: "", turns: 1, ...def.resisted, effect: def.resisted?.effect ?? "condition" },
      stunts: [],
      description: def.text + (attack ? (def.resisted ? resistedNote(attack.type, attack.range) : attackNote(attack.type, attack.range)) + areaNote(attack.area) : "") + guidanceList(def.guidance),
      schemaVersion: ITEM_SOURCE_SCHEMA_VERSION,
    },
    ...(def.effects ? { effects: def.effects } : {}),
  };
}
