/**
 * `combatant.system`: one combatant's part of the CASE turn (src/rules/turn/
 * `CombatantTurn`, less what is read fresh from the character each time: its stats). The
 * declaration, the extra-action roll, actions allowed and used, the shifts on them, defences
 * used, initiative (with the once-per-combat d10 and roll-offs), the declared dodge, stun
 * counters, dying, the hold, and a team for team initiative. Registered for Foundry's default
 * Combatant type ("base"). Converted to and from the rules' shape in ../../combat/state.ts.
 */
import { ATTACK_CODES, COLORS, DECLARED_ACTION_KINDS, DEFENCE_CODES, IMPOSSIBLE, MAX_ACTIONS_PER_TURN, MIN_ACTIONS_PER_TURN } from "../../../rules/index";
import { countField, schemaVersionField } from "../fields";

/** The schema version written by this code. */
export const COMBATANT_SCHEMA_VERSION = 1;

/** The hold states of CASE-RULES §5. */
export const HOLD_STATES = ["none", "partialHold", "fullHold"] as const;

/** The extra-action modes of CASE-RULES §4. */
export const EXTRA_ACTION_MODES = ["separate", "flurry"] as const;

/** `{ value: value }` choices with "" allowed: an unset pick is stored as "". */
function blankable(values: readonly string[]): Record<string, string> {
  return Object.fromEntries(["", ...values].map((v) => [v, v]));
}

function text(choices?: readonly string[]) {
  const f = foundry.data.fields;
  return choices
    ? new f.StringField({ required: true, nullable: false, blank: true, initial: "", choices: blankable(choices) })
    : new f.StringField({ required: true, nullable: false, blank: true, initial: "" });
}

function shift() {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, initial: 0 });
}

function maybeCount() {
  return new foundry.data.fields.NumberField({ required: true, nullable: true, integer: true, min: 0, initial: null });
}

function flag() {
  return new foundry.data.fields.BooleanField({ required: true, initial: false });
}

export function combatantSchema() {
  const f = foundry.data.fields;
  return {
    /** The declared action(s) [CASE-RULES §4 Step 1]; `declared` false means none yet. */
    declaration: new f.SchemaField({
      declared: flag(),
      text: text(),
      kind: text(DECLARED_ACTION_KINDS),
      attack: text(ATTACK_CODES),
      defence: text(DEFENCE_CODES),
      actions: new f.NumberField({ required: true, nullable: false, integer: true, min: MIN_ACTIONS_PER_TURN, max: MAX_ACTIONS_PER_TURN, initial: MIN_ACTIONS_PER_TURN }),
      secret: flag(),
    }),
    /** The extra-action roll [Step 2]; `wanted` 0 means none this turn. */
    extra: new f.SchemaField({
      wanted: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, max: MAX_ACTIONS_PER_TURN, initial: 0 }),
      required: text([...COLORS, IMPOSSIBLE]),
      roll: maybeCount(),
      color: text(COLORS),
      success: flag(),
      mode: text(EXTRA_ACTION_MODES),
    }),
    actionsAllowed: countField(MIN_ACTIONS_PER_TURN),
    actionsUsed: countField(0),
    actionCs: shift(),
    damageCs: shift(),
    nextActionCs: shift(),
    actedInRound: countField(0),
    /** Defences used this turn that count against the free defences (Table 22). */
    defencesUsed: countField(0),
    initiative: new f.SchemaField({
      d10: maybeCount(),
      total: new f.NumberField({ required: true, nullable: true, integer: true, initial: null }),
      rollOffs: new f.ArrayField(new f.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 10 }), { required: true, initial: [] }),
    }),
    /** The declared dodge (optional rule, §6): `declared` false means none this turn. */
    dodge: new f.SchemaField({
      declared: flag(),
      roll: maybeCount(),
      color: text(COLORS),
      shift: shift(),
    }),
    lostTurn: flag(),
    changedAt: maybeCount(),
    stunTurns: countField(0),
    stunPending: countField(0),
    dying: flag(),
    aided: flag(),
    dead: flag(),
    hold: new f.StringField({ required: true, nullable: false, blank: false, initial: "none", choices: Object.fromEntries(HOLD_STATES.map((h) => [h, h])) }),
    /** Team initiative: a team name the Judge set, or "" for the default (players / the Judge's side). */
    team: text(),
    schemaVersion: schemaVersionField(COMBATANT_SCHEMA_VERSION),
  };
}
export type CombatantSchema = ReturnType<typeof combatantSchema>;

/** A combatant's declaration as stored (public, or sealed to "declared" for an NPC's). */
export type StoredDeclaration = foundry.data.fields.SchemaField.SourceData<CombatantSchema>["declaration"];

/** Combatant type "base": a combatant's part of the CASE turn. */
export class CaseCombatantData extends foundry.abstract.TypeDataModel<CombatantSchema, Combatant.Implementation> {
  static override defineSchema(): CombatantSchema {
    return combatantSchema();
  }
}
