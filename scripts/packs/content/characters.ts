/**
 * Ready-to-play characters: original heroes and villains from street level (Typical) to
 * cosmic (Unearthly), and minor foes for mob fights. Abilities are written as rank keys and
 * stored as standard rank numbers; Health and Karma start at their maximum, computed by the
 * rules engine (characterStats). Their powers, talents and gear are copies of the pack items.
 */
import { ABILITY_KEYS, SUB_SCORES, characterStats, type AbilityKey, type RankKey, type SubScoreRef } from "../../../src/rules/index";
import { CHARACTER_SOURCE_SCHEMA_VERSION, type DocumentSource } from "../documents";
import { rank } from "./text";

/** A pack item a character carries, optionally renamed or re-ranked for them. */
export interface CarriedItem {
  readonly pack: "powers" | "talents" | "gear";
  readonly name: string;
  readonly rename?: string;
  /** Powers: the character's rank in it. */
  readonly rank?: RankKey;
  /** Talents: doubled up by specialisation. */
  readonly doubled?: boolean;
}

export interface CharacterDef {
  readonly name: string;
  readonly type: "hero" | "npc";
  /** A minor foe (thug, guard, robot) for mob fights. */
  readonly minor?: boolean;
  readonly img: string;
  readonly abilities: Readonly<Record<AbilityKey, RankKey>>;
  /** Sub-scores set apart from their ability, where the character's concept calls for it. */
  readonly setApart?: Readonly<Partial<Record<SubScoreRef, RankKey>>>;
  readonly resources: RankKey;
  readonly popularity: number;
  readonly biography: string;
  readonly notes: string;
  readonly items: readonly CarriedItem[];
}

function abilities(f: RankKey, a: RankKey, s: RankKey, e: RankKey, r: RankKey, i: RankKey, p: RankKey): Record<AbilityKey, RankKey> {
  return { fighting: f, agility: a, strength: s, endurance: e, reason: r, intuition: i, psyche: p };
}

const power = (name: string, at: RankKey, rename?: string): CarriedItem => (rename === undefined ? { pack: "powers", name, rank: at } : { pack: "powers", name, rank: at, rename });
const talent = (name: string, doubled = false): CarriedItem => ({ pack: "talents", name, doubled });
const gear = (name: string, rename?: string): CarriedItem => (rename === undefined ? { pack: "gear", name } : { pack: "gear", name, rename });

export const HEROES: readonly CharacterDef[] = [
  {
    name: "Corner Man",
    type: "hero",
    img: "icons/svg/combat.svg",
    abilities: abilities("good", "typical", "good", "good", "typical", "good", "typical"),
    setApart: { "fighting.def": "excellent" },
    resources: "poor",
    popularity: 5,
    biography:
      "<p><strong>Desmond \"Dez\" Okafor</strong> fought twenty-six professional bouts and lost the only one that mattered, the night a promoter's men broke his hand for refusing to take a dive. He came home to Harlan Street, opened a gym in a shuttered laundromat and started teaching the neighbourhood kids to keep their guard up.</p><p>When the kids started getting hurt anyway, Dez started walking the block at night in a hooded sweatshirt and taped hands. He has no powers at all, only a boxer's instincts, a granite chin and a stubborn belief that someone has to stand on the corner.</p>",
    notes:
      "<p><strong>Playing Corner Man:</strong> a Typical-to-Good street fighter. His Fighting (def) is set apart at Excellent: he is far better at not getting hit than at hitting. Weave with Boxing, wear the opponent down, and lean on Tough as Nails when a Stun? check comes.</p>",
    items: [talent("Boxing", true), talent("Brawling"), talent("Tough as Nails"), talent("Streetwise"), gear("Fists"), gear("Leather Jacket")],
  },
  {
    name: "Vesper Lark",
    type: "hero",
    img: "icons/svg/target.svg",
    abilities: abilities("good", "excellent", "typical", "good", "good", "excellent", "good"),
    setApart: { "agility.dex": "remarkable" },
    resources: "good",
    popularity: 10,
    biography:
      "<p><strong>Anaïs Lark</strong> grew up in a travelling circus, the third generation of a family trick-shot act. When the circus folded under a crooked owner's debts, she followed the money to the men who had bled it dry, and found they were moving far worse cargo than stolen tents.</p><p>Now she works the rooftops of the harbour district with a recurve bow and a quiver of home-made trick arrows, and keeps a day job teaching archery at a community college.</p>",
    notes:
      "<p><strong>Playing Vesper Lark:</strong> an Excellent-rank skill hero. Her Agility (dex) is set apart at Remarkable, so her arrows hit like a master's while her balance is merely excellent. Archery is doubled up (+2 CS). Keep range, use Acrobatics to stay off the ground, and count arrows.</p>",
    items: [talent("Archery", true), talent("Acrobatics"), talent("Thrown Weapons"), gear("Recurve Bow"), gear("Combat Knife"), gear("Fists")],
  },
  {
    name: "Halogen",
    type: "hero",
    img: "icons/svg/sun.svg",
    abilities: abilities("typical", "excellent", "typical", "excellent", "remarkable", "good", "excellent"),
    resources: "typical",
    popularity: 15,
    biography:
      "<p><strong>Priya Sethi</strong> was a physics graduate student running the night shift on a prototype photon emitter when the containment failed. The light went into her instead of the walls. She now glows faintly in the dark, flies on a column of her own radiance, and can focus it into a beam that punches through brick.</p><p>Priya treats being a hero like a research project: careful notes, measured risks and a habit of lecturing criminals about wavelength while she blinds them.</p>",
    notes:
      "<p><strong>Playing Halogen:</strong> a Remarkable-rank energy projector. Her Photon Beam is an Energy attack that ignores body armor; Light Control can dazzle a foe or hide the team. She is fragile up close (Typical Fighting and Strength): stay airborne.</p>",
    items: [
      power("Energy Blast", "remarkable", "Photon Beam"),
      power("Flight", "excellent"),
      power("Light Control", "excellent"),
      power("Energy Resistance", "good", "Radiant Body"),
      talent("Power Focus"),
      talent("Engineering"),
      gear("Fists"),
    ],
  },
  {
    name: "Switchback",
    type: "hero",
    img: "icons/svg/daze.svg",
    abilities: abilities("remarkable", "incredible", "good", "excellent", "good", "remarkable", "excellent"),
    setApart: { "fighting.def": "incredible" },
    resources: "good",
    popularity: 20,
    biography:
      "<p><strong>Tomás Reyes</strong> was the fastest bicycle courier in the city long before he could teleport. The first jump happened mid-crash, a heartbeat before a bus; he found himself three streets away with his bike in pieces and his head ringing. A few hundred practice jumps later, he can step out of a fight and back in behind his opponent before they finish swinging.</p><p>He still runs a courier business. Nobody asks how the parcels arrive so fast.</p>",
    notes:
      "<p><strong>Playing Switchback:</strong> an Incredible-rank skirmisher. Teleport behind foes, strike with Martial Arts, vanish before the return blow. His Fighting (def) is set apart at Incredible, so his Evasion and Weave roll on the Incredible column; Danger Sense keeps him from being blindsided.</p>",
    items: [power("Teleportation", "remarkable"), power("Danger Sense", "good"), talent("Martial Arts"), talent("Acrobatics"), talent("Driving"), gear("Fists")],
  },
  {
    name: "Mountainside",
    type: "hero",
    img: "icons/svg/statue.svg",
    abilities: abilities("excellent", "good", "monstrous", "amazing", "good", "excellent", "remarkable"),
    setApart: { "strength.vgr": "remarkable" },
    resources: "good",
    popularity: 25,
    biography:
      "<p><strong>Olusegun \"Olu\" Adeyemi</strong> was a field geologist sampling a meteorite crater when the ground opened under him. He climbed out three days later with skin like polished granite, the strength to lift a bulldozer and no idea why. He weighs nearly a tonne, breaks most chairs, and has a gentle voice that surprises everyone.</p><p>Olu joined the city's heroes because somebody that strong ought to be holding up the things that fall down. He would rather rescue than fight, and he is very good at both.</p>",
    notes:
      "<p><strong>Playing Mountainside:</strong> a Monstrous-strength bruiser. His body armor absorbs Remarkable damage from blows and bullets (not energy). His Strength (vgr) is set apart at Remarkable: he is mighty but not fast on his feet. Grab, grapple, throw cars, and stand between civilians and danger.</p>",
    items: [
      power("Super Strength", "monstrous"),
      power("Body Armor", "remarkable", "Granite Skin"),
      talent("Wrestling"),
      talent("Linebacker"),
      gear("Fists"),
      gear("Hurled Car"),
      gear("Steel Girder"),
    ],
  },
  {
    name: "Greywater",
    type: "hero",
    img: "icons/svg/eye.svg",
    abilities: abilities("poor", "good", "poor", "good", "excellent", "remarkable", "amazing"),
    resources: "typical",
    popularity: 10,
    biography:
      "<p><strong>Mara Quill</strong> is an emergency-room nurse who has heard patients' thoughts since she was a girl. For years she told no one; then a hostage-taker walked into her ward, and she heard exactly where he had hidden the detonator. She has worked quietly with the police ever since, and more loudly with the city's heroes.</p><p>Mara can lift a car with her mind and read a liar from across a room, but she still works three night shifts a week, and she is tired.</p>",
    notes:
      "<p><strong>Playing Greywater:</strong> a mentalist with Amazing Psyche and the team's largest Karma pool. Telepathy links the team and finds hidden foes; Telekinesis disarms and hurls. She has Poor Fighting and Strength: keep her out of melee.</p>",
    items: [power("Telepathy", "amazing"), power("Telekinesis", "remarkable"), power("Mind Shield", "excellent"), talent("First Aid"), talent("Medicine"), talent("Detective"), gear("Fists")],
  },
];

export const VILLAINS: readonly CharacterDef[] = [
  {
    name: "Scrimshaw",
    type: "npc",
    img: "icons/svg/bones.svg",
    abilities: abilities("remarkable", "excellent", "excellent", "remarkable", "typical", "excellent", "good"),
    resources: "poor",
    popularity: -10,
    biography:
      "<p><strong>Silas Marrow</strong> was a whaling-museum curator who carved bone as a hobby, until a black-market gene treatment gave him bone to spare. Ivory-white claws slide from his knuckles, his wounds seal in moments, and he can smell fear through a closed door.</p><p>He now hires out to whoever pays for a frightening message delivered in person, and signs his work with small carved figures left at the scene.</p>",
    notes:
      "<p><strong>Tactics:</strong> Scrimshaw stalks rather than charges. He closes through cover, strikes with his claws (an Edged Attack: no pulled blows, and a red result is a Kill), and retreats to let Regeneration work before striking again. He flees if reduced below a third of his Health.</p>",
    items: [power("Claws", "remarkable", "Bone Claws"), power("Regeneration", "excellent"), power("Enhanced Senses", "excellent"), talent("Blades"), talent("Tracking"), gear("Fists")],
  },
  {
    name: "Arc Duchess",
    type: "npc",
    img: "icons/svg/lightning.svg",
    abilities: abilities("good", "excellent", "typical", "remarkable", "excellent", "good", "remarkable"),
    resources: "remarkable",
    popularity: -15,
    biography:
      "<p><strong>Valentina Morrow</strong> inherited a power company and lost it in a fraud trial. In the last hours before the receivers took over, she locked herself inside the experimental capacitor hall and threw every switch at once. She walked out crackling, and the grid has belonged to her ever since.</p><p>She plays at being an aristocrat of the storm: silver gowns, old-fashioned manners, and blackouts imposed on whole districts until the city pays her tribute.</p>",
    notes:
      "<p><strong>Tactics:</strong> she hovers out of reach and throws Lightning Bolts (Energy: body armor does not help). Anyone who grabs her gets a Shock Touch. Electrical attacks against her are absorbed and returned. Cutting her off from power lines is a good way to end the fight.</p>",
    items: [
      power("Lightning Bolt", "incredible"),
      power("Energy Absorption", "remarkable", "Current Drinker"),
      power("Shock Touch", "excellent"),
      power("Flight", "good", "Magnetic Levitation"),
      talent("Power Focus"),
      talent("Leadership"),
      gear("Fists"),
    ],
  },
  {
    name: "Lady Lullaby",
    type: "npc",
    img: "icons/svg/sleep.svg",
    abilities: abilities("poor", "typical", "poor", "typical", "excellent", "remarkable", "amazing"),
    resources: "excellent",
    popularity: 10,
    biography:
      "<p><strong>Celeste Vane</strong> fills theatres as a stage hypnotist, and her shows are genuinely astonishing, because the volunteers are not acting. Offstage, she uses the same soft voice to empty bank vaults, turn bodyguards against their employers and make witnesses forget her face.</p><p>The public adores her, which is her best protection: arresting a beloved entertainer takes more proof than anyone has ever kept hold of.</p>",
    notes:
      "<p><strong>Tactics:</strong> she never fights fair or alone. She puts Mind Control on the strongest hero present and sets them against their friends, hides behind Illusions, and carries a small handgun she would rather not use. Physically she is Poor: anyone who reaches her ends the fight quickly.</p>",
    items: [power("Mind Control", "amazing"), power("Illusions", "remarkable"), power("Mind Shield", "good"), talent("Leadership"), gear("Handgun"), gear("Fists")],
  },
  {
    name: "Double-Time",
    type: "npc",
    img: "icons/svg/wingfoot.svg",
    abilities: abilities("excellent", "remarkable", "good", "excellent", "good", "excellent", "typical"),
    resources: "good",
    popularity: -5,
    biography:
      "<p><strong>Nico Brandt</strong> was a getaway driver who kept getting caught because the cars were too slow. After a lab break-in went wrong, he does not need cars. He robs armoured vans by emptying them between one tick of the clock and the next, and taunts the police with postcards from wherever he spent the money.</p>",
    notes:
      "<p><strong>Tactics:</strong> Double-Time hits and runs. He uses Super Speed to reach the loot, Quick Reflexes to dodge anything fired at him, and flees rather than trade blows. Catching him takes a trap, a grab on a lucky turn, or someone faster.</p>",
    items: [power("Super Speed", "amazing"), talent("Quick Reflexes"), talent("Stealth"), talent("Driving"), gear("Fists")],
  },
  {
    name: "Hexwright",
    type: "npc",
    img: "icons/svg/book.svg",
    abilities: abilities("good", "good", "typical", "excellent", "incredible", "remarkable", "amazing"),
    resources: "remarkable",
    popularity: -20,
    biography:
      "<p><strong>Cornelius Ashgrove</strong> spent forty years collecting forbidden books and ten more reading them. His patience paid off: he now speaks words that bend the world, opens doors to places without names, and has not aged a day in the last twenty years.</p><p>He wants the rest of the books. Museums, private collections and other sorcerers' libraries are all the same to him.</p>",
    notes:
      "<p><strong>Tactics:</strong> Hexwright opens with Binding Bands on the most dangerous hero, keeps his Mystic Shield up and throws Eldritch Bolts from a distance. When the fight turns, he steps through a Dimensional Gate. He has a deep Karma pool and spends it freely on defence.</p>",
    items: [
      power("Eldritch Bolt", "amazing"),
      power("Mystic Shield", "remarkable"),
      power("Binding Bands", "remarkable"),
      power("Dimensional Gate", "incredible"),
      power("Scrying", "good"),
      talent("Mystic Lore", true),
      gear("Fists"),
    ],
  },
  {
    name: "Sovereign Null",
    type: "npc",
    img: "icons/svg/skull.svg",
    abilities: abilities("amazing", "remarkable", "unearthly", "unearthly", "incredible", "remarkable", "amazing"),
    resources: "monstrous",
    popularity: -50,
    biography:
      "<p>The being that calls itself <strong>Sovereign Null</strong> arrived in a black ship that hung over the harbour for a single night and then sank into the sea without a splash. It claims to be the last ruler of an empire that collapsed into nothing, and it has decided that Earth will be the first province of the next one.</p><p>It is courteous, patient and nearly unstoppable. It does not regard humans as enemies, any more than a flood does.</p>",
    notes:
      "<p><strong>Tactics:</strong> an Unearthly threat for a whole team. It shrugs off most weapons (Monstrous body armor, Amazing energy resistance), hits with Unearthly Strength and fires a Null Beam that can level buildings. It fights to make a point, not to win quickly, and may withdraw once it has made one. Heroes win by outthinking it, not outpunching it.</p>",
    items: [
      power("Super Strength", "unearthly"),
      power("Body Armor", "monstrous", "Null Carapace"),
      power("Energy Resistance", "amazing"),
      power("Energy Blast", "unearthly", "Null Beam"),
      power("Flight", "remarkable"),
      power("Self-Sustenance", "unearthly"),
      talent("Leadership"),
      talent("Brawling"),
      gear("Fists"),
    ],
  },
];

export const MINOR_FOES: readonly CharacterDef[] = [
  {
    name: "Street Thug",
    type: "npc",
    minor: true,
    img: "icons/svg/cowled.svg",
    abilities: abilities("typical", "typical", "good", "typical", "poor", "typical", "poor"),
    resources: "poor",
    popularity: 0,
    biography: "<p>A gang member, mugger or hired muscle. Brave in groups, quick to run when the odds turn.</p>",
    notes: "<p>Use in packs of three to six. Thugs gang up on one target and scatter when half of them are down.</p>",
    items: [talent("Brawling"), gear("Club"), gear("Fists")],
  },
  {
    name: "Gunman",
    type: "npc",
    minor: true,
    img: "icons/svg/cowled.svg",
    abilities: abilities("typical", "good", "typical", "typical", "typical", "typical", "typical"),
    resources: "typical",
    popularity: 0,
    biography: "<p>A crook with a pistol and more nerve than sense: bank robbers, getaway crews, a villain's hired guns.</p>",
    notes: "<p>Gunmen shoot from cover and keep their distance. Their bullets cannot be pulled, so heroes should take them seriously.</p>",
    items: [gear("Handgun"), gear("Fists"), gear("Leather Jacket")],
  },
  {
    name: "Security Guard",
    type: "npc",
    minor: true,
    img: "icons/svg/padlock.svg",
    abilities: abilities("good", "typical", "typical", "good", "typical", "good", "typical"),
    resources: "typical",
    popularity: 0,
    biography: "<p>A uniformed guard at a bank, museum or corporate lobby. Trained, armed and paid too little to die for the job.</p>",
    notes: "<p>Guards call for backup first and fight second. They can be on either side of a fight, depending on who hired them.</p>",
    items: [gear("Nightstick"), gear("Handgun"), gear("Ballistic Vest"), gear("Fists")],
  },
  {
    name: "Riot Trooper",
    type: "npc",
    minor: true,
    img: "icons/svg/shield.svg",
    abilities: abilities("good", "good", "good", "good", "typical", "typical", "good"),
    resources: "typical",
    popularity: 0,
    biography: "<p>A heavily armoured officer or mercenary in riot gear, trained to fight as part of a line.</p>",
    notes: "<p>Troopers advance behind their shields, shotguns ready. Their armor and shield together make them tough for street heroes; energy attacks get past both more easily.</p>",
    items: [talent("Shield Training"), gear("Shotgun"), gear("Nightstick"), gear("Riot Armor"), gear("Riot Shield"), gear("Fists")],
  },
  {
    name: "Security Robot",
    type: "npc",
    minor: true,
    img: "icons/svg/clockwork.svg",
    abilities: abilities("good", "good", "remarkable", "remarkable", "poor", "typical", "shift0"),
    resources: "shift0",
    popularity: 0,
    biography: "<p>A man-sized patrol robot built by a corporation, or a villain who shopped at one. Steel chassis, an arm-mounted blaster and no imagination at all.</p>",
    notes: "<p>Robots follow orders to the letter. With Shift 0 Psyche there is no mind to control or frighten. Their plating is body armor; energy attacks and clever tricks work better than fists.</p>",
    items: [power("Body Armor", "excellent", "Steel Chassis"), gear("Blaster Pistol", "Arm Blaster"), gear("Fists")],
  },
];

/** A character's complete `system` data, with Health and Karma at the maximum the rules derive. */
export function characterSystem(def: CharacterDef): DocumentSource {
  const stored: Record<string, DocumentSource> = {};
  const input: Record<string, { value: number; [sub: string]: number | null }> = {};
  for (const key of ABILITY_KEYS) {
    const ability: { value: number; [sub: string]: number | null } = { value: rank(def.abilities[key]) };
    for (const sub of SUB_SCORES[key] as readonly string[]) {
      const apart = def.setApart?.[`${key}.${sub}` as SubScoreRef];
      ability[sub] = apart === undefined ? null : rank(apart);
    }
    stored[key] = ability;
    input[key] = ability;
  }
  const stats = characterStats(input as Parameters<typeof characterStats>[0]);
  const system: DocumentSource = {
    abilities: stored,
    resources: rank(def.resources),
    popularity: def.popularity,
    health: { value: stats.healthMax },
    karma: { value: stats.karmaMax },
    karmaLog: [],
    lostEnduranceRanks: 0,
    biography: def.biography,
    notes: def.notes,
    schemaVersion: CHARACTER_SOURCE_SCHEMA_VERSION,
  };
  if (def.type === "npc") system.minor = def.minor ?? false;
  return system;
}
