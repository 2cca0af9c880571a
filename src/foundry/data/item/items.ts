/**
 * Item data: powers, talents, weapons, armor and contacts (CASE-RULES §5, §10).
 */
import { ABILITY_KEYS, AREA_MAX_RADIUS, AREA_SHAPES, ATTACK_CODES, MAX_RESISTED_TURNS, POWER_CATEGORIES, SUB_SCORE_REFS, TALENT_COVERS, rankOf, type RankKey } from "../../../rules/index";
import { choiceField, countField, htmlField, rankNumberField, importedSchemaVersionField, subScoreField } from "../fields";

import { migrateItemSource } from "../migrations";
import type { EmptyObject } from "fvtt-types/utils";

export const ITEM_SCHEMA_VERSION = 1;

/** A power's, weapon's or contact's rank number when created: Typical (6). */
export const DEFAULT_ITEM_RANK = 6;

/** How a weapon's damage is found: the wielder's Strength (fists, clubs) or its own rank. */
export const WEAPON_DAMAGE_MODES = ["strength", "rank"] as const;
export type WeaponDamageMode = (typeof WEAPON_DAMAGE_MODES)[number];

/** The attack a power or weapon makes. */
function attackSchema(enabled: boolean, type: (typeof ATTACK_CODES)[number]) {
  const f = foundry.data.fields;
  return new f.SchemaField({
    enabled: new f.BooleanField({ required: true, initial: enabled }),
    type: choiceField(ATTACK_CODES, type, "Attack"),
    /** Range in areas (0 = touch or melee). */
    range: countField(0),
    /** Whether the wielder may pull it at all; the attack type's own pull rule still applies (§5). */
    pullable: new f.BooleanField({ required: true, initial: true }),
    area: areaSchema(),
  });
}

/** An attack's area shapes on an item: none (chosen targets), or the rules' shapes (rules/areas.ts). */
export const ITEM_AREA_SHAPES = ["none", ...AREA_SHAPES] as const;

/**
 * The area an attack covers (rules/areas.ts): none (the attacker's chosen targets), a burst of
 * `radius` areas round a point, or a line `radius` areas long from the attacker; an explosive
 * area's damage falls off with distance. One grid square is one area.
 */
function areaSchema() {
  const f = foundry.data.fields;
  return new f.SchemaField({
    shape: choiceField(ITEM_AREA_SHAPES, "none", "Area.Shape"),
    radius: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, max: AREA_MAX_RADIUS, initial: 1 }),
    explosive: new f.BooleanField({ required: true, initial: false }),
  });
}

type RankedDerived = { rankKey: RankKey };

/**
 * The protection a power gives (CASE-RULES §5, Errata: protective powers count as body armor):
 * against the attacks body armor absorbs (`physical`), against Energy (`energy`), and/or against
 * listed attack types only (`against`: a Force Field that stops only Fo and Sh), at one rank:
 * the power's own rank while `rank` is null (so raising the power raises its protection, as a
 * sub-score follows its ability), or `rank` once it is set apart. None by default. The rules
 * read it as a protection source (rules/protection.ts) while `active` is set.
 */
function protectionSchema() {
  const f = foundry.data.fields;
  return new f.SchemaField({
    /** Whether the protection is up (a Force Field may be dropped); a permanent one stays on. */
    active: new f.BooleanField({ required: true, initial: true }),
    physical: new f.BooleanField({ required: true, initial: false }),
    energy: new f.BooleanField({ required: true, initial: false }),
    against: new f.ArrayField(choiceField(ATTACK_CODES, "BA", "Attack"), { required: true, initial: [] }),
    /** The protection's rank number, or null to follow the power's rank. */
    rank: subScoreField(),
  });
}

/** The ability a power is resisted by: none (it is dodged or defended), or an ability or sub-score. */
export const RESISTED_BY_CHOICES = ["none", ...ABILITY_KEYS, ...SUB_SCORE_REFS] as const;

/** What a resisted power does when the resistance fails (rules power-rulings.ts `ResistedEffect`). */
export const RESISTED_EFFECTS = ["condition", "partialHold", "fullHold"] as const;

/**
 * A resisted power (rules power-rulings.ts, exchange/resist.ts): the ability its target rolls
 * against the power's rank, and what a failed resistance does: a named condition for some turns,
 * or a hold. Not resisted (`by` none) by default.
 */
function resistedSchema() {
  const f = foundry.data.fields;
  return new f.SchemaField({
    by: choiceField(RESISTED_BY_CHOICES, "none", "Score"),
    effect: choiceField(RESISTED_EFFECTS, "condition", "Resisted.Effect"),
    condition: new f.StringField({ required: true, blank: true, initial: "" }),
    turns: new f.NumberField({ required: true, nullable: false, integer: true, min: 1, max: MAX_RESISTED_TURNS, initial: 1 }),
  });
}

/** A power stunt as recorded on its power (rules power-rulings.ts `PowerStuntRecord`). */
function stuntSchema() {
  const f = foundry.data.fields;
  return new f.SchemaField({
    name: new f.StringField({ required: true, blank: false, initial: "Stunt" }),
    attempts: countField(0),
    successes: countField(0),
  });
}

// ── power ──────────────────────────────────────────────────────────────────────────────────
function powerSchema() {
  const f = foundry.data.fields;
  return {
    category: choiceField(POWER_CATEGORIES, "energyGeneration", "PowerCategory"),
    rank: rankNumberField(DEFAULT_ITEM_RANK),
    duration: new f.StringField({ required: true, blank: true, initial: "" }),
    /** Whether the power is on: its Active Effects apply only while it is (documents/active-effect.ts). Older powers read as on. */
    active: new f.BooleanField({ required: true, initial: true }),
    attack: attackSchema(false, "En"),
    protection: protectionSchema(),
    /** Regeneration: the power's rank in Health comes back over the wrap-ups (rules recovery.ts; additive, false by default). */
    regeneration: new f.BooleanField({ required: true, initial: false }),
    resisted: resistedSchema(),
    /** Power stunts tried with this power, each with its attempts and successes (the colour the next needs). */
    stunts: new f.ArrayField(stuntSchema(), { required: true, initial: [] }),
    description: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
type PowerSchema = ReturnType<typeof powerSchema>;

export class PowerData extends foundry.abstract.TypeDataModel<PowerSchema, Item.Implementation, EmptyObject, RankedDerived> {
  static override defineSchema(): PowerSchema {
    return powerSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSource(source));
  }
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    this.rankKey = rankOf(this.rank).key;
  }
}

// ── talent ─────────────────────────────────────────────────────────────────────────────────
function talentSchema() {
  const f = foundry.data.fields;
  return {
    /** Abilities, sub-scores, attack codes or defences the talent's +CS applies to. */
    covers: new f.ArrayField(
      new f.StringField({
        required: true,
        blank: false,
        choices: Object.fromEntries(TALENT_COVERS.map((c) => [c, c])),
      }),
      { required: true, initial: [] },
    ),
    /** Doubled up by specialisation: +2 CS instead of +1. */
    doubled: new f.BooleanField({ required: true, initial: false }),
    description: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
type TalentSchema = ReturnType<typeof talentSchema>;

export class TalentData extends foundry.abstract.TypeDataModel<TalentSchema, Item.Implementation> {
  static override defineSchema(): TalentSchema {
    return talentSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSource(source));
  }
}

// ── weapon ─────────────────────────────────────────────────────────────────────────────────
function weaponSchema() {
  const f = foundry.data.fields;
  return {
    attack: attackSchema(true, "BA"),
    damage: new f.SchemaField({
      mode: choiceField(WEAPON_DAMAGE_MODES, "rank", "WeaponDamage"),
      rank: rankNumberField(DEFAULT_ITEM_RANK),
    }),
    /** Material strength of the weapon (thrown blunt items deal the lesser of it and Strength). */
    materialStrength: rankNumberField(10),
    ammunition: new f.SchemaField({
      /** Whether the weapon uses ammunition at all. */
      tracked: new f.BooleanField({ required: true, initial: false }),
      value: countField(0),
      max: countField(0),
    }),
    equipped: new f.BooleanField({ required: true, initial: true }),
    description: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
type WeaponSchema = ReturnType<typeof weaponSchema>;

export class WeaponData extends foundry.abstract.TypeDataModel<WeaponSchema, Item.Implementation, EmptyObject, RankedDerived> {
  static override defineSchema(): WeaponSchema {
    return weaponSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSource(source));
  }
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    this.rankKey = rankOf(this.damage.rank).key;
  }
}

// ── armor ──────────────────────────────────────────────────────────────────────────────────
function armorSchema() {
  const f = foundry.data.fields;
  return {
    /** Body armor: absorbs its rank number from BA, EA, BT, ET, Fo and Sh damage. */
    physical: rankNumberField(DEFAULT_ITEM_RANK),
    /** Protection against Energy attacks (default Shift 0). */
    energy: rankNumberField(0),
    equipped: new f.BooleanField({ required: true, initial: true }),
    description: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
type ArmorSchema = ReturnType<typeof armorSchema>;

export class ArmorData extends foundry.abstract.TypeDataModel<ArmorSchema, Item.Implementation, EmptyObject, RankedDerived & { energyRankKey: RankKey }> {
  static override defineSchema(): ArmorSchema {
    return armorSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSource(source));
  }
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    this.rankKey = rankOf(this.physical).key;
    this.energyRankKey = rankOf(this.energy).key;
  }
}

// ── contact ────────────────────────────────────────────────────────────────────────────────
function contactSchema() {
  return {
    /** How reliable or capable the contact is, as a rank. */
    rank: rankNumberField(DEFAULT_ITEM_RANK),
    description: htmlField(),
    notes: htmlField(),
    schemaVersion: importedSchemaVersionField(),
  };
}
type ContactSchema = ReturnType<typeof contactSchema>;

export class ContactData extends foundry.abstract.TypeDataModel<ContactSchema, Item.Implementation, EmptyObject, RankedDerived> {
  static override defineSchema(): ContactSchema {
    return contactSchema();
  }
  static override migrateData(source: Record<string, unknown>) {
    return super.migrateData(migrateItemSource(source));
  }
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    this.rankKey = rankOf(this.rank).key;
  }
}
