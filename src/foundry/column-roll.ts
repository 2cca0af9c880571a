/**
 * A plain roll on a Universal Table column, with no character behind it: what the reference
 * window's roll buttons, the `[[/case …]]` enricher and the "Universal Table roll" macro do.
 * The card is a CaseRoll action card (so an attack's to-hit roll shows the attack's result);
 * the speaker is the user's character, or the user when there is none — never a token that
 * happens to be selected.
 */
import { CaseRoll } from "./dice/case-roll";
import { columnCheck, columnOf, ERROR_KEYS, parseAttackCode } from "./table-command";
import { ATTACK_CODES, type AttackCode } from "../rules/index";

export interface ColumnRollOptions {
  /** Roll the to-hit roll of this attack (the card shows its result row). */
  readonly attack?: string | null;
  /** The card's title (shown as written); default "Universal Table" or the attack's name. */
  readonly label?: string | null;
}

/** The speaker of a plain roll: the user's character, else the user. */
function speaker(): ReturnType<typeof ChatMessage.getSpeaker> {
  const character = game.user.character;
  if (character) return ChatMessage.getSpeaker({ actor: character });
  return { scene: null, actor: null, token: null, alias: game.user.name };
}

/**
 * Rolls a plain ACTION (green succeeds) on a column — a rank key or name ("remarkable",
 * "Rm", "Shift X") or a rank number (30) — and posts its card. A column or attack that is
 * not one gets a localised error notification and no roll. Resolves to the roll, or null.
 */
export async function rollColumn(column: number | string, options: ColumnRollOptions = {}): Promise<CaseRoll | null> {
  const parsed = columnOf(column);
  if (!parsed.ok) {
    ui.notifications.error(game.i18n.format(parsed.error.key, { ...parsed.error.data }));
    return null;
  }
  let attack: AttackCode | null = null;
  if (options.attack !== undefined && options.attack !== null && options.attack !== "") {
    attack = parseAttackCode(options.attack);
    if (attack === null) {
      ui.notifications.error(game.i18n.format(ERROR_KEYS.unknownAttack, { text: options.attack, known: ATTACK_CODES.join(", ") }));
      return null;
    }
  }
  const roll = CaseRoll.fromCheck(columnCheck(parsed.value, { attack, label: options.label ?? null }));
  await roll.evaluate();
  await roll.toMessage({ type: "action", speaker: speaker() });
  return roll;
}
