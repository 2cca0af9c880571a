/**
 * The talents compendium (CASE-RULES §10): trained skills that give +1 CS (+2 CS when doubled
 * up by specialisation) to the rolls they cover. `covers` lists abilities, sub-scores, attack
 * codes and defences from the rules' TALENT_COVERS; a talent whose scope is narrower than its
 * covers says so in its text, and the Judge keeps it to that scope.
 */
import {
  ABILITY_ABBREVIATIONS,
  ATTACKS,
  DEFENCES,
  TALENT_CS,
  TALENT_DOUBLED_CS,
  formatSubScoreRef,
  isAbilityKey,
  isAttackCode,
  isDefenceCode,
  isSubScoreRef,
  type TalentCover,
} from "../../../src/rules/index";
import { ITEM_SOURCE_SCHEMA_VERSION, type ItemInput } from "../documents";

export interface TalentDef {
  readonly name: string;
  readonly img: string;
  readonly covers: readonly TalentCover[];
  readonly text: string;
}

export const TALENTS: readonly TalentDef[] = [
  // ── Fighting ────────────────────────────────────────────────────────────────────────────
  { name: "Martial Arts", img: "icons/svg/combat.svg", covers: ["BA", "evasion"], text: "<p>Years of training in an unarmed fighting style. Sharper strikes and a trained body that slips out of the way of blows and grabs.</p>" },
  { name: "Boxing", img: "icons/svg/combat.svg", covers: ["BA", "weave"], text: "<p>Ring-trained punching and head movement: better jabs and hooks, and the habit of rolling with the other fighter's punches.</p>" },
  { name: "Brawling", img: "icons/svg/combat.svg", covers: ["BA", "Ch"], text: "<p>Bar-fight experience: dirty punches, tackles and shoulder charges.</p>" },
  { name: "Wrestling", img: "icons/svg/net.svg", covers: ["Gb", "Gp", "escape"], text: "<p>Holds, throws and pins, and knowing how to wriggle out of someone else's.</p>" },
  { name: "Blades", img: "icons/svg/sword.svg", covers: ["EA"], text: "<p>Fencing, knife-fighting or swordsmanship: any hand-held edged weapon, including claws the character grew.</p>" },
  { name: "Thrown Weapons", img: "icons/svg/thrust.svg", covers: ["BT", "ET"], text: "<p>A practised arm for anything thrown: knives, stars, bottles, bricks and shields.</p>" },
  { name: "Marksman", img: "icons/svg/target.svg", covers: ["Sh"], text: "<p>Training with firearms: pistols, rifles and shotguns. Only for guns and similar shooting weapons.</p>" },
  { name: "Archery", img: "icons/svg/target.svg", covers: ["Sh"], text: "<p>Skill with bows and crossbows. Only for bows; a character who also wants guns takes Marksman.</p>" },
  { name: "Power Focus", img: "icons/svg/lightning.svg", covers: ["En", "Fo"], text: "<p>Practice in aiming one's own blasts: energy and force attacks land where they are meant to.</p>" },
  { name: "Shield Training", img: "icons/svg/shield.svg", covers: ["block"], text: "<p>Trained to take blows on a shield, arm or braced body.</p>" },
  { name: "Quick Reflexes", img: "icons/svg/wingfoot.svg", covers: ["dodge", "feint"], text: "<p>A body that moves before the mind knows why: diving out of a line of fire and drawing shots away.</p>" },
  { name: "Acrobatics", img: "icons/svg/falling.svg", covers: ["agility.bal", "dodge"], text: "<p>Flips, rolls and tightrope balance. Covers balance rolls and dodging.</p>" },
  { name: "Catching", img: "icons/svg/dice-target.svg", covers: ["catch"], text: "<p>Quick hands for snatching thrown things and falling people out of the air.</p>" },
  { name: "Tough as Nails", img: "icons/svg/statue.svg", covers: ["endurance.res"], text: "<p>Hard to put down: better resilience rolls when bracing, charging, or resisting Slam, Stun and Kill.</p>" },
  { name: "Escape Artist", img: "icons/svg/padlock.svg", covers: ["escape"], text: "<p>Locks, ropes, handcuffs and holds: getting out of things.</p>" },
  { name: "Linebacker", img: "icons/svg/thrust.svg", covers: ["Ch"], text: "<p>Knows how to hit someone at a run with all their weight behind it.</p>" },
  { name: "Athletics", img: "icons/svg/wingfoot.svg", covers: ["strength.vgr"], text: "<p>Running, climbing, swimming and jumping; covers vigour rolls.</p>" },

  // ── Knowledge and skills ────────────────────────────────────────────────────────────────
  { name: "First Aid", img: "icons/svg/heal.svg", covers: ["reason"], text: "<p>Stopping bleeding, setting bones and keeping the dying alive. Only for Reason rolls to treat injuries; a Kill victim who receives aid stops losing Endurance.</p>" },
  { name: "Medicine", img: "icons/svg/heal.svg", covers: ["reason"], text: "<p>A physician's training: diagnosis, surgery and drugs. Only for Reason rolls about medicine and the body.</p>" },
  { name: "Engineering", img: "icons/svg/clockwork.svg", covers: ["reason"], text: "<p>Building, repairing and understanding machines. Only for Reason rolls about mechanisms and structures.</p>" },
  { name: "Computers", img: "icons/svg/clockwork.svg", covers: ["reason"], text: "<p>Programming, networks and breaking into systems. Only for Reason rolls with computers.</p>" },
  { name: "Chemistry", img: "icons/svg/acid.svg", covers: ["reason"], text: "<p>Compounds, reactions and labs. Only for Reason rolls about chemicals.</p>" },
  { name: "Criminology", img: "icons/svg/book.svg", covers: ["reason"], text: "<p>Forensics, police procedure and how crooks think on paper. Only for Reason rolls about crime and evidence.</p>" },
  { name: "Mystic Lore", img: "icons/svg/book.svg", covers: ["reason", "psyche"], text: "<p>Study of the occult: spells, summonings, other dimensions and the things that live there. Only for rolls about the supernatural.</p>" },
  { name: "Detective", img: "icons/svg/eye.svg", covers: ["intuition"], text: "<p>Noticing clues, reading people and putting the pieces together. Only for Intuition rolls to investigate.</p>" },
  { name: "Tracking", img: "icons/svg/pawprint.svg", covers: ["intuition"], text: "<p>Following a trail in the wild or the city. Only for Intuition rolls to track.</p>" },
  { name: "Streetwise", img: "icons/svg/cowled.svg", covers: ["intuition"], text: "<p>Knowing who runs which corner, where to buy what, and when a deal is going bad. Only for Intuition rolls on the street.</p>" },
  { name: "Stealth", img: "icons/svg/invisible.svg", covers: ["agility.bal"], text: "<p>Moving silently and staying out of sight. Only for balance rolls to sneak.</p>" },
  { name: "Pilot", img: "icons/svg/wing.svg", covers: ["agility.dex"], text: "<p>Flying aircraft, from light planes to jets. Only for dexterity rolls at the controls.</p>" },
  { name: "Driving", img: "icons/svg/wingfoot.svg", covers: ["agility.dex"], text: "<p>Stunt and pursuit driving. Only for dexterity rolls behind the wheel.</p>" },
  { name: "Leadership", img: "icons/svg/angel.svg", covers: ["psyche"], text: "<p>Inspiring, commanding and rallying others. Only for Psyche rolls to lead.</p>" },
  { name: "Iron Will", img: "icons/svg/holy-shield.svg", covers: ["psyche"], text: "<p>A mind that does not bend: resisting mind control, fear and temptation. Only for Psyche rolls to resist.</p>" },
];

/** A cover in words: "Blunt Attack (BA)", "Agy (bal)", "Dodge", "Fighting". */
export function coverLabel(cover: TalentCover): string {
  if (isAttackCode(cover)) return `${ATTACKS[cover].name} (${cover})`;
  if (isDefenceCode(cover)) return DEFENCES[cover].name;
  if (isSubScoreRef(cover)) return formatSubScoreRef(cover);
  if (isAbilityKey(cover)) return `${cover.charAt(0).toUpperCase()}${cover.slice(1)} (${ABILITY_ABBREVIATIONS[cover]})`;
  throw new RangeError(`Unknown talent cover "${String(cover)}".`);
}

export function talentItem(def: TalentDef): ItemInput {
  const covers = def.covers.map(coverLabel).join(", ");
  return {
    name: def.name,
    type: "talent",
    img: def.img,
    system: {
      covers: [...def.covers],
      doubled: false,
      description: `${def.text}<p><strong>Covers:</strong> ${covers}. +${TALENT_CS} CS on those rolls (+${TALENT_DOUBLED_CS} CS when doubled up by specialisation).</p>`,
      schemaVersion: ITEM_SOURCE_SCHEMA_VERSION,
    },
  };
}
