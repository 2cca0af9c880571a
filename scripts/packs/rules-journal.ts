/**
 * The rules reference journal: every table of CASE-RULES, written in our own words, with each
 * table's cells generated from the rules engine's own data (ranks, Universal Table, attack and
 * defence rows, Tables 22–24, damage and consequence results). test/packs checks that the
 * committed journal equals what this module builds, so the journal cannot drift from the engine.
 *
 * Colour cells carry `case-band color-<colour>` inside a `.case` table, which the system
 * stylesheet colours.
 */
import {
  ABILITY_ABBREVIATIONS,
  ABILITY_KEYS,
  ACTIONS_TABLE,
  ARMOR_ABSORBS,
  ATTACKS,
  ATTACK_CODES,
  AUTO_HIT_MIN_COLOR,
  BUDDY_STACK_CS,
  BUDDY_STACK_MAX_RANK_GAP,
  CALLED_SHOT_RED_SUCCEEDS,
  CATCH_AIMED_AT_CATCHER_CS,
  CATCH_KINDS,
  CATCH_MIN_AGILITY,
  CATCH_MISS_ATTACK_CS,
  CHANGE_ACTION_CS,
  CHANGE_ACTION_REQUIRED_COLOR,
  CHANGE_ACTION_SUB_SCORE,
  CHARGE_DAMAGE_PER_AREA,
  CHARGE_MAX_TO_HIT_CS,
  CHARGE_MIN_AREAS,
  CHARGE_TO_HIT_COLUMN_CAP,
  CHARGE_TO_HIT_CS_PER_AREA,
  COLORS,
  DAMAGE_METHOD_DEFAULT,
  DECLARED_DODGE_MAX_OTHER_ACTIONS,
  DECLARED_DODGE_OTHER_ACTION_CS,
  DEFENCES,
  DEFENCE_CODES,
  DODGE_WEAVE_SHIFTS,
  EXTRA_ACTION_FAIL_CS,
  EXTRA_ACTION_SEPARATE_CS,
  EXTRA_ACTION_SUB_SCORE,
  EXTRA_DEFENCE_CS,
  FLURRY_DAMAGE_CS_PER_DOUBLING,
  FREE_DEFENCE_SUB_SCORE,
  FULL_HOLD_CS,
  FULL_MOVE_CS,
  HOLDER_OTHER_ACTIONS,
  IMPOSSIBLE,
  INITIATIVE_DIE_SIDES,
  INITIATIVE_MODES,
  INITIATIVE_MODIFIERS,
  INITIATIVE_TIES_BY_MODIFIER,
  INTENSITY_DAMAGE_SHIFTS,
  KARMA_MINIMUM,
  KARMA_ROLL_CAP,
  KILL_ENDURANCE_RANK_LOSS,
  LINE_OF_SIGHT,
  MENTAL_ABILITY_KEYS,
  MIN_ACTIONS_PER_TURN,
  OBSTACLE_CS_PER_OBJECT,
  PARTIAL_HOLD_CS,
  PHYSICAL_ABILITY_KEYS,
  POWER_CATEGORIES,
  PROTECTION_SHIFTS,
  RANGE_CS_PER_AREA,
  RANKS,
  RUNNING_SPEED_TABLE,
  SLAM_ONE_AREA_DISTANCE,
  SUB_SCORES,
  SUB_SCORE_REFS,
  TALENTS_STACK,
  TALENT_CS,
  TALENT_DOUBLED_CS,
  THROWN_RANGE_TABLE,
  UNIVERSAL_TABLE,
  abilityOfScore,
  armorApplies,
  attackDefinition,
  avoidanceResult,
  catchResult,
  colorCountsOnColumn,
  defenceApplies,
  escapeResult,
  formatSubScoreRef,
  intensityDamage,
  killResult,
  pullRule,
  rankAt,
  rankByKey,
  requiredColorForRanks,
  slamDirection,
  slamResult,
  stunResult,
  type AbilityKey,
  type AttackCode,
  type AttackDamageSource,
  type CatchKind,
  type Color,
  type CombatSubScore,
  type DefenceCode,
  type InitiativeMode,
  type KillResult,
  type PowerCategory,
  type RequiredColor,
  type SlamResult,
  type StunResult,
  type SubScoreRef,
} from "../../src/rules/index";
import { journalDocument, type DocumentSource } from "./documents";
import { colored, list, table, type Cell } from "./journal-html";
import { rulingPages } from "./rulings-journal";
import { PULL_TEXT, RESULT_NAMES, cs, signed } from "./content/text";

/** The rules pack's name (system.json) and the journal's name. */
export const RULES_PACK = "rules";
export const RULES_JOURNAL_NAME = "CASE Rules Reference";

// ── Formatting ──────────────────────────────────────────────────────────────────────────────

/** A ruling constant read as a plain boolean (the text covers both settings). */
function flag(value: boolean): boolean {
  return value;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const COLOR_NAMES: Readonly<Record<Color, string>> = { white: "White", green: "Green", yellow: "Yellow", red: "Red" };

function abilityName(key: AbilityKey): string {
  return capital(key);
}

function subScore(ref: CombatSubScore | SubScoreRef): string {
  return formatSubScoreRef(ref);
}

function rankName(key: Parameters<typeof rankByKey>[0]): string {
  return rankByKey(key).name;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function rollRange(from: number, to: number): string {
  if (to < from) return "—";
  return from === to ? pad(from) : `${pad(from)}–${pad(to)}`;
}

function attackList(codes: readonly AttackCode[], last = "and"): string {
  const names = codes.map((c) => `${ATTACKS[c].name} (${c})`);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${last} ${names[names.length - 1] ?? ""}`;
}

function colorHeaders(): string[] {
  return COLORS.map((c) => COLOR_NAMES[c]);
}

// ── Pages ───────────────────────────────────────────────────────────────────────────────────

function overviewPage(): string {
  // Required colour by the gap between acting rank and intensity, straight from the engine.
  const acting = rankByKey("excellent");
  const gaps: readonly [string, number][] = [
    ["The acting rank is higher than the intensity", -1],
    ["The two ranks are the same", 0],
    ["The intensity is one rank higher", 1],
    ["The intensity is two or more ranks higher", 2],
  ];
  const rows = gaps.map(([label, gap]): Cell[] => {
    const needed: RequiredColor = requiredColorForRanks(acting, rankAt(acting.index + gap));
    return [label, colored(needed, needed === IMPOSSIBLE ? "Impossible" : `${COLOR_NAMES[needed]} or better`)];
  });
  return [
    "<p>CASE, the Costumed Adventurer Simulation Engine, settles almost everything with one percentile roll. Every ability, power and piece of gear has a <strong>rank</strong> (Feeble, Good, Remarkable …) and a rank number. To act, find the column of the rank you are using on the <strong>Universal Table</strong>, roll d100, and see which coloured band the roll lands in: white, green, yellow or red, from worst to best.</p>",
    "<p>A plain ACTION with nothing special working against it succeeds on green or better. When something resists, such as a locked door, a heavy weight or an enemy's will, that resistance has a rank too, its <strong>intensity</strong>, and the colour you need depends on how your rank compares with it:</p>",
    table("Colour needed against an intensity", ["Comparison", "Needed"], rows),
    "<p>Column shifts (CS) move the column you read up or down the rank ladder before you roll: +1 CS reads one rank higher, −2 CS two ranks lower. Talents, ranges, defences and circumstances all give column shifts. A to-hit roll pushed below Shift 0 cannot succeed at all.</p>",
    `<p><strong>Karma.</strong> Before rolling, a character may declare Karma to spend: at least ${KARMA_MINIMUM} points, added to the d100 result (the total never goes above ${KARMA_ROLL_CAP}). The Karma is gone whether the roll succeeds or not, and a character who is blindsided cannot spend any.</p>`,
  ].join("");
}

function ranksPage(): string {
  const rows = RANKS.map((r): Cell[] => [r.name, r.abbr, String(r.number), Number.isFinite(r.max) ? (r.min === r.max ? String(r.min) : `${r.min}–${r.max}`) : `${r.min}+`]);
  return [
    "<p>Every trait is written as a <strong>rank number</strong>. The rank it belongs to is the row whose range holds it; new characters and items normally use the standard number of a rank. Ranks, not numbers, decide which column of the Universal Table is read and how two traits compare, so 31 and 35 are both simply Remarkable.</p>",
    table("The rank ladder", ["Rank", "Abbreviation", "Standard number", "Numbers in this rank"], rows),
    "<p>A column shift never takes a column above the top of the ladder or below its bottom; it stops there. The one exception is a to-hit roll shifted below Shift 0, which means the attack cannot hit.</p>",
  ].join("");
}

function universalTablePage(): string {
  const rows = RANKS.map((r): Cell[] => {
    const bands = UNIVERSAL_TABLE[r.index];
    if (!bands) throw new Error(`The Universal Table has no column for ${r.name}.`);
    const counts = colorCountsOnColumn(r);
    return [
      `${r.name} (${r.abbr})`,
      colored("white", rollRange(1, bands.green - 1)),
      colored("green", rollRange(bands.green, bands.yellow - 1)),
      colored("yellow", rollRange(bands.yellow, bands.red - 1)),
      colored("red", rollRange(bands.red, 100)),
      `${counts.green + counts.yellow + counts.red}%`,
    ];
  });
  return [
    "<p>Find the row of the rank being used, roll d100 and read the band the result falls in. Higher ranks have wider green, yellow and red bands, so the same roll means more in stronger hands. The last column is the chance of at least a green result.</p>",
    table("The Universal Table (d100)", ["Column", ...colorHeaders(), "Green or better"], rows),
    "<p>What each colour means depends on what is being rolled: an ACTION, an attack (see <em>Attacks</em>), a defence (see <em>Defences</em>) or a Slam, Stun or Kill check (see <em>Slam, Stun and Kill</em>).</p>",
  ].join("");
}

function abilitiesPage(): string {
  const uses = new Map<string, string[]>();
  const add = (ref: string, use: string): void => {
    uses.set(ref, [...(uses.get(ref) ?? []), use]);
  };
  for (const code of ATTACK_CODES) add(ATTACKS[code].rollsOn, `${ATTACKS[code].name} to hit`);
  for (const code of DEFENCE_CODES) add(DEFENCES[code].rollsOn, DEFENCES[code].name);
  add(EXTRA_ACTION_SUB_SCORE, "extra-action rolls");
  add(FREE_DEFENCE_SUB_SCORE, "free defences per turn (Table 22)");
  add(CHANGE_ACTION_SUB_SCORE, "changing a declared action");
  add("strength.mgt", "thrown range (Table 24)");
  add("strength.vgr", "running speed");
  add("endurance.res", "Slam?, Stun? and Kill? checks");
  add("intuition", "initiative (Table 23)");

  const rows = ABILITY_KEYS.map((key): Cell[] => {
    const subs = (SUB_SCORES[key] as readonly string[]).map((s) => `${key}.${s}` as SubScoreRef);
    const subCell = subs.length > 0 ? subs.map((ref) => `${subScore(ref)}: ${(uses.get(ref) ?? ["—"]).join(", ")}`).join("<br>") : "—";
    const own = uses.get(key);
    return [abilityName(key), ABILITY_ABBREVIATIONS[key], subCell, own ? own.join(", ") : subs.length > 0 ? "through its sub-scores" : "ACTIONs of the mind"];
  });
  const sum = (keys: readonly AbilityKey[]): string => keys.map(abilityName).join(" + ");
  return [
    "<p>Every character has seven abilities. The four physical ones each split into two <strong>sub-scores</strong> for combat; a sub-score has the same rank number as its ability unless the character sets the two apart (a brawler whose defence is better than their punch, a marksman whose aim outruns their balance).</p>",
    table("Abilities and what they are rolled for", ["Ability", "Abbreviation", "Sub-scores", "Also rolled for"], rows),
    `<p><strong>Health</strong> is the sum of the physical abilities' rank numbers: ${sum(PHYSICAL_ABILITY_KEYS)}. <strong>Karma</strong> is the sum of the mental ones: ${sum(MENTAL_ABILITY_KEYS)}. Both are pools with a maximum and a current value; damage comes off Health, and Karma is spent on rolls.</p>`,
    "<p><strong>Resources</strong> is a rank that measures wealth and what the character can buy; <strong>Popularity</strong> is a plain number, negative for the feared and the hated, that shows how the public sees them.</p>",
    `<p>Sub-scores in full: ${SUB_SCORE_REFS.map((r) => subScore(r)).join(", ")}.</p>`,
  ].join("");
}

const INITIATIVE_MODE_TEXT: Readonly<Record<InitiativeMode, string>> = {
  everyTurn: `Everyone rolls 1d${INITIATIVE_DIE_SIDES} plus their modifier at the start of every turn (the standard rule).`,
  oncePerCombat: "Everyone rolls once when the fight starts and keeps that result for the whole fight.",
  modifierOnly: "Nobody rolls; the modifier alone sets the order, and only tied characters roll off.",
  fixedOrder: "No initiative at all: characters act in a set order the Judge decides.",
};

function turnPage(): string {
  const table22 = [
    [`Below ${rankName(ACTIONS_TABLE[0]?.rank ?? "remarkable")}`, String(MIN_ACTIONS_PER_TURN)],
    ...ACTIONS_TABLE.map((row): Cell[] => [rankName(row.rank), String(row.actions)]),
  ];
  const table23 = RANKS.map((r): Cell[] => [r.name, signed(INITIATIVE_MODIFIERS[r.key])]);
  return [
    "<p>Combat runs in <strong>turns</strong> of about six seconds. Each turn has six steps:</p>",
    list(
      [
        "<strong>Declare actions.</strong> The Judge decides what the non-player characters will do first and keeps it secret; then each player says what their character intends.",
        "<strong>Extra-action rolls.</strong> Anyone trying to act more than once this turn rolls for it now (below).",
        `<strong>Initiative.</strong> Everyone rolls 1d${INITIATIVE_DIE_SIDES} and adds the modifier for their Intuition (Table 23); highest acts first.`,
        "<strong>Resolve actions</strong> in initiative order.",
        "<strong>Extra rounds.</strong> Those who earned extra actions take them, in the same order.",
        "<strong>Wrap up.</strong> Ongoing effects tick over: regeneration, ammunition, stun counters, and Endurance lost by anyone dying without aid.",
      ],
      true,
    ),
    `<h2>Table 22: actions per turn</h2><p>The number of <em>offensive</em> actions a character can reach in one turn depends on their ${subScore(EXTRA_ACTION_SUB_SCORE)}, and the number of <em>free defences</em> on their ${subScore(FREE_DEFENCE_SUB_SCORE)}. A rank between two rows counts as the lower row; everyone has at least ${MIN_ACTIONS_PER_TURN} of each.</p>`,
    table("Table 22: actions and free defences by rank", ["Rank", "Actions"], table22),
    `<p>Taking more than one action needs a ${subScore(EXTRA_ACTION_SUB_SCORE)} ACTION whose intensity is the rank on Table 22 for that many actions. Fail, and the character gets a single action at ${cs(EXTRA_ACTION_FAIL_CS)}. Succeed, and they choose: take the actions separately at ${cs(EXTRA_ACTION_SEPARATE_CS)} each, or roll them into one <em>flurry</em> that gains ${cs(FLURRY_DAMAGE_CS_PER_DOUBLING)} to damage for every doubling of the number of attacks.</p>`,
    `<p>Defences beyond the free ones cost more each time: the first extra defence is at ${cs(EXTRA_DEFENCE_CS)}, the next at ${cs(EXTRA_DEFENCE_CS * 2)}, and so on. A character who moves their full speed gets one action, at ${cs(FULL_MOVE_CS)} unless it is a charge.</p>`,
    `<p><strong>Changing your mind.</strong> Switching to a different action after declaring takes a ${COLOR_NAMES[CHANGE_ACTION_REQUIRED_COLOR].toLowerCase()} ${subScore(CHANGE_ACTION_SUB_SCORE)} ACTION. Success allows the new action at ${cs(CHANGE_ACTION_CS)}; failure means no action at all this turn.</p>`,
    `<h2>Table 23: initiative</h2><p>Initiative is 1d${INITIATIVE_DIE_SIDES} plus the modifier for the character's Intuition rank. ${flag(INITIATIVE_TIES_BY_MODIFIER) ? "Ties go to the higher modifier, then to a d10 roll-off." : "Ties are settled by a d10 roll-off."}</p>`,
    table("Table 23: initiative modifier by Intuition", ["Intuition", "Modifier"], table23),
    `<p>Optional initiative rules (world settings): ${list(INITIATIVE_MODES.map((m) => INITIATIVE_MODE_TEXT[m]))} With <em>team initiative</em>, one member rolls for each side and the whole side acts on that result.</p>`,
  ].join("");
}

const DAMAGE_SOURCE_TEXT: Readonly<Record<AttackDamageSource, string>> = {
  strengthOrWeapon: "the attacker's Strength, or the weapon's (or natural weapon's) rank",
  thrownItem: "the lesser of the thrower's Strength and the thrown object's material strength",
  weapon: "the thrown weapon's rank",
  powerOrWeapon: "the power's or weapon's rank",
  charge: `the higher of the charger's Endurance and body armor, plus ${CHARGE_DAMAGE_PER_AREA} per area moved (that bonus can at most double it)`,
  holdStrength: "in a full hold, the holder's Strength, but only if the holder is the stronger",
  none: "none; the grab itself does no harm",
};

function attacksPage(): string {
  const results = ATTACK_CODES.map((code): Cell[] => {
    const def = attackDefinition(code);
    return [code, def.name, subScore(def.rollsOn), ...COLORS.map((c) => colored(c, RESULT_NAMES[def.results[c]])), capital(PULL_TEXT[pullRule(code)])];
  });
  const damage = ATTACK_CODES.map((code): Cell[] => {
    const armor = armorApplies(code, "body") ? "body armor" : armorApplies(code, "energy") ? "energy protection" : "none";
    return [`${ATTACKS[code].name} (${code})`, capital(DAMAGE_SOURCE_TEXT[ATTACKS[code].damage]), capital(armor)];
  });
  return [
    "<p>Every attack has a type. The type decides which sub-score rolls to hit, what each colour does, whether the attacker may hold back (pull the blow), and where its damage comes from.</p>",
    table("Attack results", ["Code", "Attack", "To hit", ...colorHeaders(), "May pull"], results),
    "<p><strong>Hit</strong> deals damage. <strong>Bullseye</strong> counts as a hit unless the attacker declared a called shot (a gun hand, a lock, a weak point), which only a Bullseye achieves" +
      (flag(CALLED_SHOT_RED_SUCCEEDS) ? " (a red result also succeeds)" : "") +
      ". <strong>Slam</strong>, <strong>Stun</strong> and <strong>Kill</strong> deal damage and then make the target check for that consequence. <strong>Take</strong> wrests an item away only if the grabber is stronger than whoever holds it; <strong>Grab</strong> takes it; <strong>Break</strong> takes it and may break it. " +
      `A <strong>Partial Hold</strong> leaves the held character at ${cs(PARTIAL_HOLD_CS)} on everything; a <strong>Full Hold</strong> stops them moving at all (${cs(FULL_HOLD_CS)} on their actions), while the holder may still take ${HOLDER_OTHER_ACTIONS} other action.</p>`,
    `<p><strong>Pulling.</strong> An attacker who declares a pulled blow may, after the roll, deal less damage, take a lower colour, or both, as the table allows. ${attackList(ATTACK_CODES.filter((c) => ATTACKS[c].family !== "wrestling" && pullRule(c) === "none"))} can never be pulled.</p>`,
    table("Attack damage and the armor that stops it", ["Attack", "Damage", "Absorbed by"], damage),
    `<p><strong>Body armor</strong> subtracts its rank number from the damage of ${attackList(ARMOR_ABSORBS.body)}; a charger who hits armor takes that number back. <strong>Energy protection</strong> is a separate rank, against ${attackList(ARMOR_ABSORBS.energy)}. Damage never drops below 0.</p>`,
    `<p><strong>Range.</strong> A ranged attack beyond its range takes ${cs(RANGE_CS_PER_AREA)} for each area too far (thrown objects use the thrower's Table 24 range). Every object in the line of fire costs ${cs(OBSTACLE_CS_PER_OBJECT)}, and its material strength comes off the damage. A ranged attack that misses may strike someone next to the target: roll for each.</p>`,
    `<p><strong>Charging.</strong> A charge needs at least ${CHARGE_MIN_AREAS} area of movement and gains ${cs(CHARGE_TO_HIT_CS_PER_AREA)} to hit per area moved, at most ${cs(CHARGE_MAX_TO_HIT_CS)}, and never lifting the column above ${rankName(CHARGE_TO_HIT_COLUMN_CAP)}. Its damage is in the table above.</p>`,
    "<p><strong>Blindsided.</strong> An attack the target does not know is coming (a sniper, an invisible foe, a friend turned traitor) cannot be dodged or defended in any way.</p>",
  ].join("");
}

function defenceResult(code: DefenceCode, color: Color): string {
  const def = DEFENCES[code];
  switch (def.outcome) {
    case "protection": {
      const ability = ABILITY_ABBREVIATIONS[abilityOfScore(def.rollsOn)];
      return `${ability} ${cs(PROTECTION_SHIFTS[color])}`;
    }
    case "columnShift": {
      const shift = DODGE_WEAVE_SHIFTS[color];
      return shift === 0 ? "No effect" : `Attack ${cs(shift)}`;
    }
    case "avoidance": {
      const r = avoidanceResult(color);
      if (r.autoHit) return "Auto-hit";
      return r.bonusCs > 0 ? `Avoided; ${cs(r.bonusCs)} on your next action against that foe` : "Avoided";
    }
    case "catch": {
      const r = catchResult(color);
      if (r === "autoHit") return "Auto-hit";
      if (r === "miss") return `Missed the catch (${cs(CATCH_MISS_ATTACK_CS)} to the attack if it was aimed at you)`;
      if (r === "caughtDamaged") return "Caught, but you may take damage";
      return "Caught cleanly";
    }
    case "escape": {
      const r = escapeResult(color);
      if (r === "fail") return "Still held";
      if (r === "escape") return "Free (no further action this turn)";
      return "Reversal: turn the hold around, or break free and act";
    }
  }
}

const CATCH_KIND_TEXT: Readonly<Record<CatchKind, string>> = {
  bullet: "Bullets",
  arrow: "Arrows and bolts",
  thrown: "Other thrown objects",
  falling: "Falling people and things",
};

function defencesPage(): string {
  const rows = DEFENCE_CODES.map((code): Cell[] => {
    const def = DEFENCES[code];
    const against = [...ATTACK_CODES.filter((a) => defenceApplies(code, a)), ...def.alsoAgainst];
    return [def.name, subScore(def.rollsOn), def.takesAction ? "Yes" : "No", ...COLORS.map((c) => colored(c, defenceResult(code, c))), against.join(", ") || "—"];
  });
  const catchRows = CATCH_KINDS.map((k): Cell[] => {
    const min = rankByKey(CATCH_MIN_AGILITY[k]);
    return [CATCH_KIND_TEXT[k], min.index === 0 ? "Any" : min.name];
  });
  return [
    "<p>A defence answers one incoming attack. Some take the defender's action for the turn; the rest only count against their free defences (Table 22), after which each extra defence is harder.</p>",
    table("Defences", ["Defence", "Rolls", "Uses your action", ...colorHeaders(), "Works against"], rows),
    "<p><strong>Block</strong> and <strong>Brace</strong> give <em>protection</em>: the defender's own Strength or Endurance, shifted by the colour rolled, read as that rank's number. It replaces body armor (use the better of the two) " +
      `unless the two are within ${BUDDY_STACK_MAX_RANK_GAP} rank of each other, when the better one gains ${cs(BUDDY_STACK_CS)}.</p>`,
    "<p><strong>Dodge</strong> and <strong>Weave</strong> shift the attacker's to-hit column; an attack shifted below Shift 0 cannot hit. " +
      `<strong>Evasion</strong>, <strong>Feint</strong> and <strong>Catch</strong> risk an auto-hit on white: the attack then lands as at least ${COLOR_NAMES[AUTO_HIT_MIN_COLOR].toLowerCase()}. <strong>Escape</strong> is only for someone already held.</p>`,
    `<p><strong>Catching</strong> an object thrown at you is at ${cs(CATCH_AIMED_AT_CATCHER_CS)}, and some things need a minimum Agility to catch at all:</p>`,
    table("Minimum Agility to catch", ["Object", "Agility needed"], catchRows),
    `<p><strong>Declared dodge</strong> (optional rule, a world setting): a Dodge declared as the turn's action is rolled once right after initiative, and its shift applies to every attack on the dodger that turn. The dodger moves at half speed, may take at most ${DECLARED_DODGE_MAX_OTHER_ACTIONS} other action, does everything else at ${cs(DECLARED_DODGE_OTHER_ACTION_CS)}, and may not charge.</p>`,
  ].join("");
}

function damagePage(): string {
  const example = rankByKey("amazing");
  const rows = COLORS.map((c): Cell[] => {
    const dealt = intensityDamage(example.number, c);
    const shift = INTENSITY_DAMAGE_SHIFTS[c];
    return [colored(c, COLOR_NAMES[c]), shift === 0 ? "The attack's own rank" : cs(shift), `${dealt} (${RANKS.find((r) => r.number === dealt)?.name ?? ""})`];
  });
  return [
    `<p>The Judge chooses one of two ways to find damage (a world setting; the default is <strong>${DAMAGE_METHOD_DEFAULT}</strong>).</p>`,
    "<p><strong>Static damage:</strong> a hit deals the attack's rank number, every time.</p>",
    "<p><strong>Intensity damage:</strong> after a hit, roll d100 again on the column of the attack's rank, and shift that rank by the colour rolled; the damage is the shifted rank's standard number.</p>",
    table(`Intensity damage (example: an ${example.name} attack, ${example.number})`, ["Damage roll", "Shift", "Damage"], rows),
    "<p>Either way, subtract the target's protection (body armor, energy protection, or a Block or Brace) and take what is left off Health. Health never drops below 0; a character brought to 0 makes a Kill? check, and so does one already at 0 who takes more damage.</p>",
  ].join("");
}

const SLAM_TEXT: Readonly<Record<SlamResult, string>> = {
  grandSlam: "Grand Slam: hurled as far as a Strength equal to the damage dealt could throw them (Table 24)",
  oneArea: `Slammed back ${SLAM_ONE_AREA_DISTANCE} area`,
  stagger: "Staggered, but acts normally",
  none: "Stands firm",
};

const STUN_TEXT: Readonly<Record<StunResult, string>> = {
  outLong: "Out cold for 1d10 turns",
  oneTurn: "Stunned for 1 turn (this one if they have not acted yet, otherwise the next)",
  none: "Not stunned",
};

function killText(color: Color): string {
  const losing = ATTACK_CODES.filter((a) => killResult(color, a) === ("enduranceLoss" satisfies KillResult));
  const loss = `Loses ${KILL_ENDURANCE_RANK_LOSS} Endurance rank, and another each turn without aid`;
  if (losing.length === ATTACK_CODES.length) return loss;
  if (losing.length === 0) return "Unharmed";
  return `As white, but only if the damage came from ${attackList(losing, "or")}`;
}

function consequencesPage(): string {
  const rows: Cell[][] = [
    ["Slam?", ...COLORS.map((c) => colored(c, SLAM_TEXT[slamResult(c)]))],
    ["Stun?", ...COLORS.map((c) => colored(c, STUN_TEXT[stunResult(c)]))],
    ["Kill?", ...COLORS.map((c) => colored(c, killText(c)))],
  ];
  const directions: Cell[][] = [];
  for (let d = 1; d <= 10; ) {
    const dir = slamDirection(d);
    let end = d;
    while (end < 10 && slamDirection(end + 1) === dir) end++;
    directions.push([d === end ? String(d) : `${d}–${end}`, capital(dir)]);
    d = end + 1;
  }
  return [
    `<p>A Slam, Stun or Kill result on an attack only matters if the attack did damage after protection. The target then rolls ${subScore("endurance.res")} and reads the row for that check:</p>`,
    table("Slam, Stun and Kill checks", ["Check", ...colorHeaders()], rows),
    "<p>Roll 1d10 for the direction of a slam:</p>",
    table("Slam direction", ["d10", "Direction"], directions),
    "<p>A Kill? check is also made when damage brings Health to 0, and again whenever a character at 0 Health takes more damage. Endurance lost this way keeps draining each turn until someone gives aid (first aid, a healing power, a trip to hospital); a character whose Endurance falls below Shift 0 dies.</p>",
  ].join("");
}

function rangePage(): string {
  const rows = RANKS.map((r): Cell[] => {
    const areas = THROWN_RANGE_TABLE[r.key];
    return [r.name, areas === LINE_OF_SIGHT ? "Line of sight" : String(areas), String(RUNNING_SPEED_TABLE[r.key])];
  });
  return [
    "<p>How far a character can throw an object depends on their Strength rank (Table 24). A Grand Slam uses the same table, reading the damage dealt as the Strength. Running speed by Strength (vgr) is this system's own table, since the CASE movement table was not available; the Judge may change it.</p>",
    table("Table 24 and running speed (areas; one area is about 44 yards)", ["Strength", "Thrown range", "Running speed per turn"], rows),
  ].join("");
}

const CATEGORY_TEXT: Readonly<Record<PowerCategory, readonly [string, string]>> = {
  physicalEnhancement: ["Physical Enhancement", "a body improved beyond human limits: strength, speed, toughness, senses, flight."],
  physicalControl: ["Physical Control", "command over the shape and substance of one's own body: stretching, shifting, phasing, vanishing."],
  physicalWeaponry: ["Physical Weaponry", "natural weapons: claws, horns, tails, stingers, quills."],
  energyControl: ["Energy Control", "shaping energy that is already there: force fields, absorption, fire, light, weather, magnetism."],
  energyGeneration: ["Energy Generation", "making energy and throwing it: blasts, bolts, beams, blades."],
  matterControl: ["Matter Control", "moving or changing outside matter: earth, water, plants, transmutation."],
  mental: ["Mental", "powers of the mind: telepathy, telekinesis, control, illusion."],
  powerControl: ["Power Control", "powers over other powers: negating, copying, boosting."],
  spells: ["Spells", "sorcery, learned or bargained for."],
};

function powersPage(): string {
  return [
    "<p>A power has a name, a category, a rank and a duration; a power that attacks also has an attack type and a range in areas. Powers and talents are in their own compendiums, each with guidance on what its ranks mean.</p>",
    list(POWER_CATEGORIES.map((c) => `<strong>${CATEGORY_TEXT[c][0]}</strong>: ${CATEGORY_TEXT[c][1]}`)),
    `<p><strong>Talents</strong> are trained skills. Each covers some rolls (an ability, a sub-score, an attack type or a defence) and gives ${cs(TALENT_CS)} to them, or ${cs(TALENT_DOUBLED_CS)} when the character has specialised in it. ${flag(TALENTS_STACK) ? "Talents that cover the same roll add up." : "Talents do not add up: when several cover a roll, only the best one counts."}</p>`,
  ].join("");
}

/** The pages of the rules journal, in reading order. */
export function rulesPages(): { name: string; content: string }[] {
  return [
    { name: "How CASE Works", content: overviewPage() },
    { name: "Ranks", content: ranksPage() },
    { name: "The Universal Table", content: universalTablePage() },
    { name: "Abilities, Health and Karma", content: abilitiesPage() },
    { name: "The Turn", content: turnPage() },
    { name: "Attacks", content: attacksPage() },
    { name: "Defences", content: defencesPage() },
    { name: "Damage", content: damagePage() },
    { name: "Slam, Stun and Kill", content: consequencesPage() },
    { name: "Thrown Range and Movement", content: rangePage() },
    { name: "Powers and Talents", content: powersPage() },
    ...rulingPages(),
  ];
}

/** The rules pack's documents. */
export function rulesJournal(): DocumentSource[] {
  return [journalDocument(RULES_PACK, RULES_JOURNAL_NAME, rulesPages(), 100000)];
}
