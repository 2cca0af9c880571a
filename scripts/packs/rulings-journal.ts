/**
 * The campaign rulings' pages of the rules journal: one page per ruling the engine implements
 * where CASE's text is silent (rest, advancement costs, Resources and Popularity, creation, minor
 * foes, areas, first aid, falls and impacts, the other combat results, powers and Karma). Each
 * row names the engine's constant and shows the value the engine reads, imported from
 * src/rules, so the book and the code cannot disagree; test/packs/rules-journal.test.ts checks
 * every `[RULING]` constant of those modules has its row.
 */
import {
  ABILITY_CREST_COST,
  ABILITY_POINT_COST_FACTOR,
  AID_REACH_CELLS,
  AREA_CANNOT_BE_CAUGHT,
  AREA_DISTANCE_METRIC,
  AREA_DISTANCE_METRICS,
  AREA_EACH_TARGET_DEFENDS,
  AREA_FALLOFF_CS_PER_AREA,
  AREA_MAX_RADIUS,
  AREA_NO_CALLED_SHOT,
  AREA_ONLY_EXPLOSIONS_FALL_OFF,
  AREA_ROLLS_TO_HIT_EACH,
  AREA_SPARES_ATTACKER,
  AREA_WITHIN_RANGE,
  AUTO_HIT_ENDS_FALL,
  BYSTANDER_FIRST_HIT_STOPS,
  BYSTANDER_MAY_DEFEND,
  CAREEN_ROLLS_AGAIN,
  CATCH_DAMAGE_CHARGER,
  CONTACT_COST,
  CONTACT_COUNT_TABLE,
  DAYS_PER_ENDURANCE_RANK,
  DAYS_PER_ENDURANCE_RANK_MEDICAL,
  DEFAULT_GROUND_MATERIAL_STRENGTH,
  DEFAULT_POINT_RULES,
  FIRST_AID_NEEDS_ROLL,
  FIRST_AID_TALENTS,
  GROUP_INITIATIVE_PICK_DEFAULT,
  HEALTH_PER_DAY_ENDURANCE_FACTOR,
  IMPACT_DAMAGE_LIMIT,
  KARMA_AGAINST_DEATH,
  KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME,
  KARMA_AWARD_ARREST_THEFT,
  KARMA_AWARD_ARREST_VIOLENT_CRIME,
  KARMA_AWARD_FOE_BEATEN,
  KARMA_AWARD_RESCUE,
  KARMA_AWARD_STOP_DESTRUCTIVE_CRIME,
  KARMA_AWARD_STOP_THEFT,
  KARMA_AWARD_STOP_VIOLENT_CRIME,
  KARMA_AWARD_WEEKLY,
  KARMA_LOST_FOR_KILL,
  KARMA_AGAINST_DEATH_MINIMUM,
  KARMA_ON_CHECKS,
  KARMA_ON_DEFENCE,
  KARMA_POOL_DRAW_LIMIT,
  MAX_ADVANCEMENT_STEP,
  MEDICAL_CARE_HEALTH_FACTOR,
  MERCY_FAILURE_STUN,
  MINOR_FOE_OUT_AT_ZERO_HEALTH,
  MINOR_FOE_RULE_DEFAULT,
  MIN_POINT_COST,
  NEGATIVE_POPULARITY_COUNTS_WITH,
  POPULARITY_FEAT_KARMA_ALLOWED,
  POWER_COUNT_TABLE,
  POWER_CREST_COST,
  POWER_POINT_COST_FACTOR,
  POWER_STUNT_FREE_AFTER_ATTEMPTS,
  POWER_STUNT_KARMA_COST,
  POWER_STUNTS_ALLOWED,
  POWER_STUNT_PROGRESSION,
  RANDOM_RANK_TABLE,
  RECOVERY_AFTER_TURNS,
  REGENERATION_STACKS,
  REGENERATION_TURNS,
  RESISTANCE_AGAINST_POWER_RANK,
  RESOURCES_FEAT_KARMA_ALLOWED,
  RESOURCES_FEAT_RETRY_DAYS,
  RESOURCES_RETRY_BY_COST,
  REVERSAL_KEEPS_HOLD_KIND,
  SLAM_COLLISION_RESULT,
  STARTING_POPULARITY,
  TALENT_COST,
  TALENT_COUNT_TABLE,
  UNCONSCIOUS_AT_ZERO_HEALTH,
  TAKEN_OUT_STUNS,
  FOE_BEATEN_BY_ALLY_ONLY,
  RESCUE_NEEDS_DYING,
  MERCY_OFFERED_BEFORE_APPLY,
  rankByKey,
  type D100Row,
} from "../../src/rules/index";
import { table } from "./journal-html";
import { RESULT_NAMES, cs } from "./content/text";

/** A ruling's value as the engine holds it. */
export type RulingValue = number | boolean | string | readonly unknown[] | object;

/** One row: what the ruling decides (HTML), the engine's constant and its value. */
export interface RulingEntry {
  readonly constant: string;
  readonly value: RulingValue;
  readonly text: string;
}

/** One page of campaign rulings. */
export interface RulingPage {
  readonly name: string;
  readonly intro: string;
  readonly entries: readonly RulingEntry[];
}

function d100Rows(rows: readonly D100Row<unknown>[], name: (v: unknown) => string): string {
  let from = 1;
  return rows
    .map((r) => {
      const range = from === r.upTo ? pad(from) : `${pad(from)}–${pad(r.upTo)}`;
      from = r.upTo + 1;
      return `${range} ${name(r.value)}`;
    })
    .join(", ");
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The value in words, for the page's Value column. */
export function showValue(value: RulingValue): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return value < 0 ? `\u2212${-value}` : String(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    if (items.every(isD100Row)) return d100Rows(items, (v) => (typeof v === "string" ? rankByKey(v).name : String(v)));
    return items.map((v) => (typeof v === "object" && v !== null ? pairs(v, " ") : String(v))).join("; ");
  }
  return pairs(value, ", ");
}

function isD100Row(v: unknown): v is D100Row<unknown> {
  return typeof v === "object" && v !== null && "upTo" in v;
}

/** "budget 100, talentCost 2" from an object's own fields. */
function pairs(value: object, separator: string): string {
  return Object.entries(value)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(separator);
}

function entry(constant: string, value: RulingValue, text: string): RulingEntry {
  return { constant, value, text };
}

/** Every campaign ruling page, in reading order, from the engine's constants. */
export function campaignRulingPages(): RulingPage[] {
  return [
    {
      name: "Rulings: Rest and Recovery",
      intro: "<p>CASE's text says only that lost Endurance \"must heal normally\". The engine heals with the classic FASERIP rates; the first four are world settings.</p>",
      entries: [
        entry("HEALTH_PER_DAY_ENDURANCE_FACTOR", HEALTH_PER_DAY_ENDURANCE_FACTOR, `A day of rest gives back ${HEALTH_PER_DAY_ENDURANCE_FACTOR} × the Endurance rank number in Health.`),
        entry("MEDICAL_CARE_HEALTH_FACTOR", MEDICAL_CARE_HEALTH_FACTOR, `Bed rest under medical care multiplies that by ${MEDICAL_CARE_HEALTH_FACTOR}.`),
        entry("DAYS_PER_ENDURANCE_RANK", DAYS_PER_ENDURANCE_RANK, `A lost Endurance rank heals after ${DAYS_PER_ENDURANCE_RANK} days of rest.`),
        entry("DAYS_PER_ENDURANCE_RANK_MEDICAL", DAYS_PER_ENDURANCE_RANK_MEDICAL, `Under care, after ${DAYS_PER_ENDURANCE_RANK_MEDICAL} day.`),
        entry("RECOVERY_AFTER_TURNS", RECOVERY_AFTER_TURNS, `A conscious character ${RECOVERY_AFTER_TURNS} turns after the last damage regains the Endurance rank number in Health, once a day (Recovery).`),
        entry("REGENERATION_TURNS", REGENERATION_TURNS, `Regeneration gives back its rank number in Health every ${REGENERATION_TURNS} turns, a share at each wrap-up.`),
        entry("REGENERATION_STACKS", REGENERATION_STACKS, "Several regenerating powers do not add up: the best one's rank counts."),
        entry("UNCONSCIOUS_AT_ZERO_HEALTH", UNCONSCIOUS_AT_ZERO_HEALTH, "A character at 0 Health is unconscious until healed."),
      ],
    },
    {
      name: "Rulings: Advancement Costs",
      intro: "<p>Karma is also experience: it buys higher abilities and powers, new talents and new contacts. A raise is paid for every rank number, more to cross into the next rank.</p>",
      entries: [
        entry("ABILITY_POINT_COST_FACTOR", ABILITY_POINT_COST_FACTOR, `Raising an ability by 1 costs ${ABILITY_POINT_COST_FACTOR} × its current rank number.`),
        entry("ABILITY_CREST_COST", ABILITY_CREST_COST, `Crossing into the next rank costs ${ABILITY_CREST_COST} more.`),
        entry("POWER_POINT_COST_FACTOR", POWER_POINT_COST_FACTOR, `Raising a power by 1 costs ${POWER_POINT_COST_FACTOR} × its current rank number.`),
        entry("POWER_CREST_COST", POWER_CREST_COST, `A power crossing into the next rank costs ${POWER_CREST_COST} more.`),
        entry("MIN_POINT_COST", MIN_POINT_COST, `No raise costs less than ${MIN_POINT_COST} (a Shift 0 score is not free).`),
        entry("TALENT_COST", TALENT_COST, `A new talent costs ${TALENT_COST} Karma.`),
        entry("CONTACT_COST", CONTACT_COST, `A new contact costs ${CONTACT_COST} Karma.`),
        entry("MAX_ADVANCEMENT_STEP", MAX_ADVANCEMENT_STEP, `One advancement raises a score by at most ${MAX_ADVANCEMENT_STEP} rank numbers.`),
        entry("KARMA_POOL_DRAW_LIMIT", KARMA_POOL_DRAW_LIMIT, "What a hero may draw from the group Karma pool: \"all\" (anything in it) or \"contributed\" (no more than they put in)."),
      ],
    },
    {
      name: "Rulings: Resources and Popularity",
      intro: "<p>A Resources FEAT buys what the hero's money can reach; a Popularity FEAT asks a crowd for help.</p>",
      entries: [
        entry("RESOURCES_FEAT_KARMA_ALLOWED", RESOURCES_FEAT_KARMA_ALLOWED, "Karma may be spent on a Resources FEAT."),
        entry("RESOURCES_FEAT_RETRY_DAYS", RESOURCES_FEAT_RETRY_DAYS, `A failed Resources FEAT for the same thing may be tried again after ${RESOURCES_FEAT_RETRY_DAYS} days.`),
        entry("RESOURCES_RETRY_BY_COST", RESOURCES_RETRY_BY_COST, "The thing a failed Resources FEAT was for is known by its cost rank: another FEAT at that cost waits."),
        entry("NEGATIVE_POPULARITY_COUNTS_WITH", NEGATIVE_POPULARITY_COUNTS_WITH, "The audience with whom a negative Popularity counts by its size (with the other, it rolls on Shift 0)."),
        entry("POPULARITY_FEAT_KARMA_ALLOWED", POPULARITY_FEAT_KARMA_ALLOWED, "Karma may be spent on a Popularity FEAT."),
      ],
    },
    {
      name: "Rulings: Creating a Hero",
      intro: "<p>The character builder rolls or buys a hero. Random heroes use the tables below; a point build spends the budget.</p>",
      entries: [
        entry("RANDOM_RANK_TABLE", RANDOM_RANK_TABLE, "The d100 Random Ranks table for abilities and Resources."),
        entry("POWER_COUNT_TABLE", POWER_COUNT_TABLE, "How many powers a random hero has (d100)."),
        entry("TALENT_COUNT_TABLE", TALENT_COUNT_TABLE, "How many talents (d100)."),
        entry("CONTACT_COUNT_TABLE", CONTACT_COUNT_TABLE, "How many contacts (d100)."),
        entry("STARTING_POPULARITY", STARTING_POPULARITY, `A new hero's Popularity is ${STARTING_POPULARITY}; Health and Karma start full.`),
        entry("DEFAULT_POINT_RULES", DEFAULT_POINT_RULES, `A point build: ${DEFAULT_POINT_RULES.budget} points; nothing above ${rankByKey(DEFAULT_POINT_RULES.maxRank).name}.`),
      ],
    },
    {
      name: "Rulings: Minor Foes",
      intro: "<p>NPCs marked as minor foes follow the world's minor-foe rule when damage is applied to them.</p>",
      entries: [
        entry("MINOR_FOE_RULE_DEFAULT", MINOR_FOE_RULE_DEFAULT, "The default rule: \"normal\" is CASE as written; \"outOnAnyDamage\" takes a foe out on any damage; \"outOnSlamOrStun\" on a Slam, Stun or Kill result."),
        entry("MINOR_FOE_OUT_AT_ZERO_HEALTH", MINOR_FOE_OUT_AT_ZERO_HEALTH, "Under another rule, a minor foe at 0 Health is out of the fight, with no Kill? check."),
        entry("GROUP_INITIATIVE_PICK_DEFAULT", GROUP_INITIATIVE_PICK_DEFAULT, "Minor foes of one kind roll initiative as a group, with this member's modifier."),
      ],
    },
    {
      name: "Rulings: Area Attacks",
      intro: "<p>One grid square is one area. An area attack covers every token in its squares.</p>",
      entries: [
        entry("AREA_DISTANCE_METRIC", AREA_DISTANCE_METRIC, "How areas are counted on the grid (\"chebyshev\": a diagonal step is one area)."),
        entry("AREA_DISTANCE_METRICS", AREA_DISTANCE_METRICS, "The ways of counting a world may choose."),
        entry("AREA_MAX_RADIUS", AREA_MAX_RADIUS, `An area is at most ${AREA_MAX_RADIUS} areas across from its centre.`),
        entry("AREA_ONLY_EXPLOSIONS_FALL_OFF", AREA_ONLY_EXPLOSIONS_FALL_OFF, "Only an explosion's damage falls off with distance."),
        entry("AREA_FALLOFF_CS_PER_AREA", AREA_FALLOFF_CS_PER_AREA, `An explosion's damage changes by ${cs(AREA_FALLOFF_CS_PER_AREA)} per area from the centre.`),
        entry("AREA_ROLLS_TO_HIT_EACH", AREA_ROLLS_TO_HIT_EACH, "The attack rolls to hit each target in the area."),
        entry("AREA_EACH_TARGET_DEFENDS", AREA_EACH_TARGET_DEFENDS, "Each target defends on its own row."),
        entry("AREA_CANNOT_BE_CAUGHT", AREA_CANNOT_BE_CAUGHT, "An area attack cannot be caught."),
        entry("AREA_NO_CALLED_SHOT", AREA_NO_CALLED_SHOT, "An area attack cannot be a called shot."),
        entry("AREA_SPARES_ATTACKER", AREA_SPARES_ATTACKER, "The attacker is not hit by their own area; allies are."),
        entry("AREA_WITHIN_RANGE", AREA_WITHIN_RANGE, "A burst's centre lies within the attack's range of the attacker's token (a line starts at the attacker)."),
      ],
    },
    {
      name: "Rulings: First Aid",
      intro: "<p>Any aid stops a dying character's Endurance loss; the first aid talent also revives the stunned.</p>",
      entries: [
        entry("FIRST_AID_TALENTS", FIRST_AID_TALENTS, "The talents that count as the first aid talent."),
        entry("AID_REACH_CELLS", AID_REACH_CELLS, `The aider stands within ${AID_REACH_CELLS} grid step of the patient.`),
        entry("FIRST_AID_NEEDS_ROLL", FIRST_AID_NEEDS_ROLL, "Reviving a stun with the talent needs a roll."),
      ],
    },
    {
      name: "Rulings: Falls and Impacts",
      intro: "<p>CASE: charging an object \"works the same\" as charging a character, and a fall is a charge against the ground. One rule deals every impact: the mover's Endurance or body armor, whichever is higher, plus 2 per area moved (the bonus at most that value); what is struck absorbs it with its body armor or material strength, and that armor rebounds onto the mover (less the mover's own armor).</p>",
      entries: [
        entry("IMPACT_DAMAGE_LIMIT", IMPACT_DAMAGE_LIMIT, `No impact deals more than ${IMPACT_DAMAGE_LIMIT} (Shift Z): not a fall, not a charge at an object, not a charge at a character.`),
        entry("DEFAULT_GROUND_MATERIAL_STRENGTH", DEFAULT_GROUND_MATERIAL_STRENGTH, `The ground a fall strikes is ${rankByKey("good").name} (${DEFAULT_GROUND_MATERIAL_STRENGTH}) unless the Judge says otherwise.`),
        entry("SLAM_COLLISION_RESULT", SLAM_COLLISION_RESULT, `A slammed character who strikes something charges it over the areas flown; it always connects, as a ${RESULT_NAMES[SLAM_COLLISION_RESULT]} (no Slam? or Stun?).`),
        entry("CAREEN_ROLLS_AGAIN", CAREEN_ROLLS_AGAIN, "A white charge in a crowded area careens: the charge's to-hit is rolled again against the one thing the Judge names in its path."),
        entry("CATCH_DAMAGE_CHARGER", CATCH_DAMAGE_CHARGER, "On a catch's Damage result, a caught person takes the catch as a charge by this side, over the areas they fell or flew."),
        entry("AUTO_HIT_ENDS_FALL", AUTO_HIT_ENDS_FALL, "A falling ally who strikes the would-be catcher stops there (no second impact against the ground)."),
      ],
    },
    {
      name: "Rulings: Other Combat Results",
      intro: "<p>What the attack card adds to CASE's other combat results: bystanders, Break, Reversal and Mercy Bullets.</p>",
      entries: [
        entry("MERCY_OFFERED_BEFORE_APPLY", MERCY_OFFERED_BEFORE_APPLY, "Mercy Bullets are the Judge's call on a Shooting hit not yet applied: the card offers them there, instead of applying the damage."),
        entry("BYSTANDER_FIRST_HIT_STOPS", BYSTANDER_FIRST_HIT_STOPS, "After a ranged miss, each person next to the target is rolled for in the Judge's order; the first one hit takes the attack."),
        entry("BYSTANDER_MAY_DEFEND", BYSTANDER_MAY_DEFEND, "A bystander defends against the stray attack (it rolls on the attacker's column with the attacker's own shifts)."),
        entry("REVERSAL_KEEPS_HOLD_KIND", REVERSAL_KEEPS_HOLD_KIND, "A Reversal puts the former holder in the same hold; a power's hold cannot be reversed."),
        entry("MERCY_FAILURE_STUN", MERCY_FAILURE_STUN, "Mercy Bullets deal no damage: the target makes an Endurance FEAT against the weapon's rank, and a failure counts as this Stun? colour (out 1d10 turns)."),
      ],
    },
    {
      name: "Rulings: Powers, Stunts and Karma",
      intro: "<p>CASE's text names no resistance roll, no stunt and no Karma beyond the roll; these are the classic FASERIP values.</p>",
      entries: [
        entry("RESISTANCE_AGAINST_POWER_RANK", RESISTANCE_AGAINST_POWER_RANK, "A resisted power is resisted by a FEAT of the ability it names against the power's rank; success resists it all."),
        entry("POWER_STUNTS_ALLOWED", POWER_STUNTS_ALLOWED, "A hero may try power stunts (the power's Stunt button; a world setting)."),
        entry("POWER_STUNT_KARMA_COST", POWER_STUNT_KARMA_COST, `Each attempt of a power stunt costs ${POWER_STUNT_KARMA_COST} Karma, success or not.`),
        entry("POWER_STUNT_PROGRESSION", POWER_STUNT_PROGRESSION, `The colour a stunt needs by its successes so far: ${POWER_STUNT_PROGRESSION.map((s) => `${s.needed} from ${s.fromSuccesses}`).join(", ")}.`),
        entry("POWER_STUNT_FREE_AFTER_ATTEMPTS", POWER_STUNT_FREE_AFTER_ATTEMPTS, `After ${POWER_STUNT_FREE_AFTER_ATTEMPTS} attempts a stunt costs no Karma.`),
        entry("KARMA_ON_DEFENCE", KARMA_ON_DEFENCE, "Karma may be added to a defence roll."),
        entry("KARMA_ON_CHECKS", KARMA_ON_CHECKS, "Karma may be added to a Slam?, Stun? or Kill? check and to a resistance."),
        entry("KARMA_AGAINST_DEATH", KARMA_AGAINST_DEATH, "A loss that would take Endurance below Shift 0 may be bought off with all the character's Karma."),
        entry("KARMA_AGAINST_DEATH_MINIMUM", KARMA_AGAINST_DEATH_MINIMUM, `Buying off death needs at least ${KARMA_AGAINST_DEATH_MINIMUM} Karma.`),
      ],
    },
    {
      name: "Rulings: Karma Awards",
      intro: "<p>The Judge's <em>Award Karma</em> offers the FASERIP Karma chart's categories as presets (each for one event and one hero), and a free amount and reason. The crime values are the chart's; the others are ours in its scale.</p>",
      entries: [
        entry("KARMA_AWARD_STOP_VIOLENT_CRIME", KARMA_AWARD_STOP_VIOLENT_CRIME, "Stopping or preventing a violent crime."),
        entry("KARMA_AWARD_ARREST_VIOLENT_CRIME", KARMA_AWARD_ARREST_VIOLENT_CRIME, "Bringing in the criminals of a violent crime."),
        entry("KARMA_AWARD_STOP_DESTRUCTIVE_CRIME", KARMA_AWARD_STOP_DESTRUCTIVE_CRIME, "Stopping or preventing a destructive crime."),
        entry("KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME", KARMA_AWARD_ARREST_DESTRUCTIVE_CRIME, "Bringing in the criminals of a destructive crime."),
        entry("KARMA_AWARD_STOP_THEFT", KARMA_AWARD_STOP_THEFT, "Stopping or preventing a theft."),
        entry("KARMA_AWARD_ARREST_THEFT", KARMA_AWARD_ARREST_THEFT, "Bringing in a thief."),
        entry("KARMA_AWARD_RESCUE", KARMA_AWARD_RESCUE, "Each rescue of an innocent."),
        entry("KARMA_AWARD_FOE_BEATEN", KARMA_AWARD_FOE_BEATEN, "Each foe beaten in a fight."),
        entry("KARMA_AWARD_WEEKLY", KARMA_AWARD_WEEKLY, "The weekly award for keeping up a hero's life."),
        entry("KARMA_LOST_FOR_KILL", KARMA_LOST_FOR_KILL, "What a hero who kills loses: \"all\" their Karma, or \"none\" (the Judge decides). A world setting."),
        entry("TAKEN_OUT_STUNS", TAKEN_OUT_STUNS, "The fight log counts a target as taken out when, applied and not undone, its Health reached 0, the minor-foe rule took it out, its Stun? left it out for 1–10 turns (these Stun? results; a one-turn stun does not), or its Kill? made it dying or dead."),
        entry("FOE_BEATEN_BY_ALLY_ONLY", FOE_BEATEN_BY_ALLY_ONLY, "A foe beaten, for the award dialog, is a foe taken out by an ally's blow, counted once however often it went down."),
        entry("RESCUE_NEEDS_DYING", RESCUE_NEEDS_DYING, "A rescue, for the award dialog, is a character not a foe who was dying in the fight and is alive when the log is read, counted once."),
      ],
    },
  ];
}

/** The caption of a ruling page's table. */
export function rulingTableCaption(page: RulingPage): string {
  return page.name;
}

/** A ruling page as HTML: its intro, then one row per ruling (what it decides, the value, the constant). */
export function rulingPageHtml(page: RulingPage): string {
  const rows = page.entries.map((e) => [e.text, showValue(e.value), `<code>${e.constant}</code>`]);
  return page.intro + table(rulingTableCaption(page), ["Ruling", "Value", "Engine constant"], rows);
}

/** The journal pages of the campaign rulings. */
export function rulingPages(): { name: string; content: string }[] {
  return campaignRulingPages().map((p) => ({ name: p.name, content: rulingPageHtml(p) }));
}
