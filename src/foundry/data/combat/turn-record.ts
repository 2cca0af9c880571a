/**
 * ChatMessage subtype `turnRecord`: the GM's record of a combat's secret declarations (an
 * NPC's declared action), whispered to the GMs only, so players never receive it; the
 * combatants keep only that a declaration was made and how many actions it takes. Never shown
 * in the chat log.
 */
import { typedObjectField } from "../fields";
import type { StoredDeclaration } from "./combatant";

/** One combatant's secret declaration, as the record keeps it. */
export type SecretDeclaration = { readonly id: string; readonly declaration: StoredDeclaration };

function turnRecordSchema() {
  const f = foundry.data.fields;
  return {
    /** The combat this record belongs to. */
    combatId: new f.StringField({ required: true, blank: true, initial: "" }),
    /** `{ id, declaration }` per combatant with a secret declaration this turn (an array: an update replaces it whole). */
    declarations: new f.ArrayField(typedObjectField<SecretDeclaration>(), { required: true, initial: [] }),
  };
}
type TurnRecordSchema = ReturnType<typeof turnRecordSchema>;

export class TurnRecordData extends foundry.abstract.TypeDataModel<TurnRecordSchema, ChatMessage.Implementation> {
  static override defineSchema(): TurnRecordSchema {
    return turnRecordSchema();
  }
}
