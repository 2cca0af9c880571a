/**
 * ChatMessage subtype `turnRecord`: the GM's record of a combat's secret declarations (an
 * NPC's declared action), of the turn's history (the Judge's "back one step") and of every
 * combatant's turn state as the GM last wrote it (what the GM's engine reads: an owner may
 * write their combatant's own `system` and `flags`), whispered to the GMs only, so players
 * never receive it; the combatants keep only that a declaration was made and how many actions it takes. Never shown
 * in the chat log.
 */
import { typedObjectField } from "../fields";
import { CaseMessageModel } from "../message-model";
import type { CombatantSchema, StoredDeclaration } from "./combatant";
import type { CombatSchema } from "./combat";

type Source<Schema extends foundry.data.fields.DataSchema> = Omit<foundry.data.fields.SchemaField.SourceData<Schema>, "schemaVersion">;

/**
 * One step of the turn's history (rules/turn/history.ts) as stored: the combat's part and the
 * changed combatants' parts before the step, each as its data model holds it.
 */
export type StoredTurnStep = {
  readonly cause: "advance" | "done";
  readonly combatantId: string | null;
  readonly combat: Source<CombatSchema>;
  readonly combatants: readonly { readonly id: string; readonly system: Source<CombatantSchema> }[];
};

/**
 * One combatant's turn state as the GM last wrote it: its whole `system` part (with its secret
 * declaration, as the history keeps it) and the defence keys it has counted. The GM's engine
 * reads these, never the combatant's own `system` and `flags`, which its owner may write.
 */
export type RecordedCombatant = { readonly id: string; readonly system: Source<CombatantSchema>; readonly defenceKeys: readonly string[] };

/** One combatant's secret declaration, as the record keeps it. */
export type SecretDeclaration = { readonly id: string; readonly declaration: StoredDeclaration };

function turnRecordSchema() {
  const f = foundry.data.fields;
  return {
    /** The combat this record belongs to. */
    combatId: new f.StringField({ required: true, blank: true, initial: "" }),
    /** `{ id, declaration }` per combatant with a secret declaration this turn (an array: an update replaces it whole). */
    declarations: new f.ArrayField(typedObjectField<SecretDeclaration>(), { required: true, initial: [] }),
    /** `{ id, system, defenceKeys }` per combatant the GM has written: the authoritative copy of its turn state (an array: an update replaces it whole). */
    combatants: new f.ArrayField(typedObjectField<RecordedCombatant>(), { required: true, initial: [] }),
    /** The turn's history for "back one step" (rules/turn/history.ts), oldest first: it holds secret declarations too. */
    history: new f.ArrayField(typedObjectField<StoredTurnStep>(), { required: true, initial: [] }),
  };
}
type TurnRecordSchema = ReturnType<typeof turnRecordSchema>;

export class TurnRecordData extends CaseMessageModel<TurnRecordSchema> {
  static override defineSchema(): TurnRecordSchema {
    return turnRecordSchema();
  }
}
