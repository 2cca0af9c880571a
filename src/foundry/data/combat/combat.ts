/**
 * `combat.system`: the combat's part of the CASE turn (src/rules/turn/ `CombatTurn`) — the
 * phase, the turn's number, the action round, the acting order, who acts now, and the Judge's
 * events. Registered for Foundry's default Combat type ("base"), so every combat has it.
 *
 * Foundry's own `round`/`turn` fields are not the CASE turn: the GM keeps them in step (round
 * = CASE turn number, turn = the acting combatant) so core features (turn markers, hooks)
 * follow, but the CASE state lives here and survives startCombat() and a reload.
 */
import { TURN_PHASES } from "../../../rules/index";
import { countField, schemaVersionField } from "../fields";

/** The schema version written by this code. */
export const COMBAT_SCHEMA_VERSION = 1;

export function combatSchema() {
  const f = foundry.data.fields;
  return {
    phase: new f.StringField({
      required: true,
      nullable: false,
      blank: false,
      initial: "declare",
      choices: Object.fromEntries(TURN_PHASES.map((p) => [p, `CASE.Turn.Phase.${p}`])),
    }),
    /** The CASE turn's number, from 1. */
    turnNumber: new f.NumberField({ required: true, nullable: false, integer: true, min: 1, initial: 1 }),
    /** 0 before resolve, 1 while resolving, 2+ in the extra rounds. */
    round: countField(0),
    /** Combatant ids in acting order (set when resolve begins). */
    order: new f.ArrayField(new f.StringField({ required: true, blank: false }), { required: true, initial: [] }),
    /** Index in `order` of the one acting; `order.length` when nobody is due. */
    cursor: countField(0),
    /** The Judge's events noted at wrap-up. */
    events: new f.ArrayField(new f.StringField({ required: true, blank: false }), { required: true, initial: [] }),
    schemaVersion: schemaVersionField(COMBAT_SCHEMA_VERSION),
  };
}
export type CombatSchema = ReturnType<typeof combatSchema>;

/** Combat type "base": the CASE turn. */
export class CaseCombatData extends foundry.abstract.TypeDataModel<CombatSchema, Combat.Implementation> {
  static override defineSchema(): CombatSchema {
    return combatSchema();
  }
}
