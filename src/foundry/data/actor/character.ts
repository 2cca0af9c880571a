/**
 * The data of a character (Actor types `hero` and `npc`): seven abilities as rank numbers,
 * the physical ones with two sub-scores that follow the ability until set apart, Resources,
 * Popularity, Health and Karma pools, biography and notes. Everything derived comes from
 * `characterStats` in src/rules.
 */
import {
  ABILITY_KEYS,
  KARMA_ENTRY_KINDS,
  SUB_SCORES,
  abilitiesAfterEffects,
  applyScoreChanges,
  characterStats,
  effectiveEndurance,
  rankOf,
  type AbilityKey,
  type CharacterStats,
  type RankKey,
  type ScoreRef,
  type ThrownRange,
} from "../../../rules/index";
import { countField, htmlField, rankNumberField, importedSchemaVersionField, subScoreField } from "../fields";

import { migrateCharacterSource } from "../migrations";
import { readEffectChanges, type EffectChangeInput, type EffectProblem, type EffectProtectionKind } from "./effect-changes";
import type { EmptyObject } from "fvtt-types/utils";

/** One line of the Karma log, the shape of the rules' `KarmaLogEntry`. */
function karmaLogEntryField() {
  const f = foundry.data.fields;
  return new f.SchemaField({
    kind: new f.StringField({ required: true, blank: false, choices: [...KARMA_ENTRY_KINDS], initial: "award" }),
    date: new f.StringField({ required: true, blank: false, initial: "1970-01-01" }),
    reason: new f.StringField({ required: true, blank: false, initial: "-" }),
    amount: countField(0),
    balanceAfter: countField(0),
  });
}

/** The schema version written by this code; see migrations.ts. */
export const CHARACTER_SCHEMA_VERSION = 1;

/** A new character's abilities: Typical (6) everywhere. */
export const DEFAULT_ABILITY_VALUE = 6;

function mentalAbility() {
  return new foundry.data.fields.SchemaField({ value: rankNumberField(DEFAULT_ABILITY_VALUE) });
}

function pool() {
  // `max` is derived; only the current value is stored.
  return new foundry.data.fields.SchemaField({ value: countField(0) });
}

export function characterSchema() {
  const f = foundry.data.fields;
  return {
    abilities: new f.SchemaField({
      fighting: new f.SchemaField({ value: rankNumberField(DEFAULT_ABILITY_VALUE), off: subScoreField(), def: subScoreField() }),
      agility: new f.SchemaField({ value: rankNumberField(DEFAULT_ABILITY_VALUE), dex: subScoreField(), bal: subScoreField() }),
      strength: new f.SchemaField({ value: rankNumberField(DEFAULT_ABILITY_VALUE), mgt: subScoreField(), vgr: subScoreField() }),
      endurance: new f.SchemaField({ value: rankNumberField(DEFAULT_ABILITY_VALUE), res: subScoreField(), sta: subScoreField() }),
      reason: mentalAbility(),
      intuition: mentalAbility(),
      psyche: mentalAbility(),
    }),
    resources: rankNumberField(DEFAULT_ABILITY_VALUE),
    popularity: new f.NumberField({ required: true, nullable: false, integer: true, initial: 0 }),
    health: pool(),
    karma: pool(),
    /** The Karma log (rules karma.ts): awards, spends and advancements, oldest first; the writers keep the newest `KARMA_LOG_SIZE` (karma-log.ts). */
    karmaLog: new f.ArrayField(karmaLogEntryField(), { required: true, initial: [] }),
    /** Endurance ranks lost to Kill results, kept apart from the ability (rules recovery.ts `effectiveEndurance`). */
    lostEnduranceRanks: countField(0),
    biography: htmlField(),
    notes: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
export type CharacterSchema = ReturnType<typeof characterSchema>;

/** Values prepareDerivedData adds. */
export type CharacterDerived = {
  /** Every derived value of the rules (ranks, effective scores, Table 22/23/24 …). */
  stats: CharacterStats;
  /** Table 23 initiative modifier; also `@initiative` in the initiative formula. */
  initiative: number;
  /** The rank key of Resources. */
  resourcesRank: RankKey;
  /** Health max and Karma max (the stored part is `value`). */
  health: { value: number; max: number };
  karma: { value: number; max: number };
  /** Table 24 thrown range in areas, or "sight". */
  thrownRange: ThrownRange;
  /** The abilities as stored, before Active Effects and lost Endurance ranks: what the sheet's inputs edit. */
  baseAbilities: StoredAbilityValues;
  /** Protection the character's Active Effects give (rank numbers; 0 for none): a protection source like armor. */
  effectProtection: Record<EffectProtectionKind, number>;
  /** Changes of applicable effects that CASE refused (shown on the sheet's Effects tab). */
  effectProblems: EffectProblem[];
  /** Endurance before and after its lost ranks (rules recovery.ts `effectiveEndurance`). */
  endurance: EnduranceState;
};

/** The stored abilities' numbers (sub-scores null while they follow). */
export type StoredAbilityValues = Record<AbilityKey, Record<string, number | null>>;

/** Endurance and its lost ranks, as the sheet and the Kill? check read them. */
export interface EnduranceState {
  /** Endurance after Active Effects, before lost ranks. */
  readonly beforeLoss: number;
  readonly lost: number;
  /** Endurance after lost ranks: what is rolled and what Health is derived from. */
  readonly value: number;
  /** More ranks lost than the ladder holds below (rules recovery.ts). */
  readonly dead: boolean;
}

/**
 * The sub-scores of each physical ability, as the schema stores them, for code that walks
 * the abilities generically.
 */
export const STORED_SUB_SCORES: Readonly<Record<AbilityKey, readonly string[]>> = SUB_SCORES;

/** Reads the stored abilities in the shape `characterStats` takes. */
export function abilitiesInput(abilities: Record<AbilityKey, Record<string, number | null>>): Parameters<typeof characterStats>[0] {
  const out = {} as Record<AbilityKey, { value: number; [sub: string]: number | null }>;
  for (const key of ABILITY_KEYS) {
    const stored = abilities[key] as Record<string, number | null> | undefined;
    if (!stored) throw new RangeError(`The character has no ${key}.`);
    const value = stored.value;
    if (value === null || value === undefined) throw new RangeError(`The character's ${key} has no value.`);
    out[key] = { ...stored, value };
  }
  return out;
}

/**
 * What heroes and NPCs share: the character schema's fields (a subtype's schema adds its own to
 * {@link characterSchema}), migration of old sources, the derived values and `score`. The
 * schema is a type parameter so each subtype's `system` keeps its own fields.
 */
export abstract class CharacterData<Schema extends CharacterSchema = CharacterSchema> extends foundry.abstract.TypeDataModel<
  Schema,
  Actor.Implementation,
  EmptyObject,
  CharacterDerived
> {
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateCharacterSource(source));
  }

  /**
   * Foundry prepares an actor in this order (ClientDocumentMixin#prepareData: base data, then
   * embedded documents, whose end in Actor#prepareEmbeddedDocuments applies the Active Effects,
   * then derived data). Base data keeps the stored abilities for the sheet's inputs and clears
   * what the effects will give.
   */
  override prepareBaseData(): void {
    super.prepareBaseData();
    // From the source: never from abilities a previous preparation changed.
    this.baseAbilities = structuredClone(this._source.abilities);
    this.effectProtection = { physical: 0, energy: 0 };
    this.effectProblems = [];
  }

  /**
   * Applies the changes of the character's applicable Active Effects that CASE reads itself
   * (scores and protection: effect-changes.ts), by the rules' `abilitiesAfterEffects`. The
   * actor calls it from `applyActiveEffects` (on v14 in the initial phase only, never the final
   * one after derived data), so it runs after base data and before derived data.
   * A refused change is recorded in `effectProblems` and does not apply. It starts from the
   * stored abilities each time, so calling it twice changes nothing more.
   */
  applyEffectChanges(inputs: Iterable<EffectChangeInput>): void {
    const read = readEffectChanges(inputs);
    this.effectProblems = [...read.problems];
    // From the stored abilities, so a second pass (v14 applies effects in phases) gives the same result, never a doubled add.
    const changed = abilitiesAfterEffects(abilitiesInput(this.baseAbilities), read.scores);
    for (const key of ABILITY_KEYS) Object.assign(this.abilities[key], changed[key]);
    this.effectProtection = {
      physical: applyScoreChanges(0, read.protection.physical),
      energy: applyScoreChanges(0, read.protection.energy),
    };
  }

  /**
   * Fills the derived values (everything from the rules' `characterStats`) from the abilities
   * as the effects left them, with Endurance lowered by its lost ranks: so Health max, Karma,
   * initiative, speeds and ranges follow both. The stored Health is kept as it is: healing never
   * takes it above the (lowered) maximum (rules damage.ts `applyHealing`), damage takes it down.
   */
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    // A model prepared without its actor (a compendium preview, the tests' bare models) had no base step.
    if (!Object.hasOwn(this, "baseAbilities")) this.prepareBaseData();
    const beforeLoss = this.abilities.endurance.value;
    const after = effectiveEndurance(beforeLoss, this.lostEnduranceRanks);
    this.abilities.endurance.value = after.value;
    this.endurance = { beforeLoss, lost: this.lostEnduranceRanks, value: after.value, dead: after.dead };
    const stats = characterStats(abilitiesInput(this.abilities));
    this.stats = stats;
    this.initiative = stats.initiative;
    this.thrownRange = stats.thrownRange;
    this.resourcesRank = rankOf(this.resources).key;
    this.health.max = stats.healthMax;
    this.karma.max = stats.karmaMax;
  }

  /** The effective rank number of an ability or sub-score ("fighting", "agility.dex"). */
  score(ref: ScoreRef): number {
    return this.stats.scores[ref];
  }
}

/** Actor type `hero`: a player character. */
export class HeroData extends CharacterData {
  static override defineSchema(): CharacterSchema {
    return characterSchema();
  }
}

function npcSchema() {
  return {
    ...characterSchema(),
    /** A minor foe (thug, guard, robot): the tracker and cards may treat it as a mook. */
    minor: new foundry.data.fields.BooleanField({ required: true, initial: false }),
  };
}
type NpcSchema = ReturnType<typeof npcSchema>;

/** Actor type `npc`: a character the Judge runs. */
export class NpcData extends CharacterData<NpcSchema> {
  static override defineSchema(): NpcSchema {
    return npcSchema();
  }
}
