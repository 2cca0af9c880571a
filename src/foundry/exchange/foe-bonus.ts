/**
 * The bonus a yellow or red Evasion or Feint gives the defender on its next action against that
 * foe (+1/+2 CS), decided by what only the GM writes. When the GM grants it (gm-actions.ts
 * `defendRow`) it notes the grant in the card's GM record (card-store.ts `journalStep`: a
 * whispered message only a GM writes), then writes the defender's flag
 * `flags.case.foeBonus.<foe key>` as `{ bonus, card, nonce }`: a pointer to that note, on a
 * document the defender's owner may write. At attack time (make-attack.ts) the GM counts a bonus
 * only when the note the flag points at exists, names this defender, this foe and the same bonus
 * (1 or 2), and was not used yet; using it notes that in the same record, so a flag re-added after
 * use (or forged: `foeBonus.<foe>: 60`) gives nothing.
 */
import { SYSTEM_ID } from "../core/constants";
import { journalOf, journalStep, loadCard, type LoadedCard } from "./card-store";
import { cardLock } from "./card-request";
import { caseFlag } from "../core/flags";

/** Where a defender keeps its bonus against a foe: `flags.case.foeBonus.<foe key>`. */
export function foeBonusKey(foeUuid: string): string {
  return foeUuid.replace(/[^A-Za-z0-9]/g, "_");
}

/** The bonuses an Evasion or a Feint may give (rules: +1 CS on yellow, +2 on red). */
const GRANTABLE = [1, 2];

/** The note of a grant on the card's record. */
const GRANT_NOTE = "foeBonus";
const USED_NOTE = "foeBonusUsed";

/** The defender's flag for `foeUuid` as stored (a number from before grants were noted, or the pointer). */
export function foeBonusFlag(actor: Actor.Implementation, foeUuid: string): unknown {
  return caseFlag(actor.flags, "foeBonus")?.[foeBonusKey(foeUuid)];
}

/**
 * Grants `defender` its bonus against `foeUuid`, as the GM: the note on the card's record first
 * (one per revision of the card, so a retry finds it), then the flag pointing at it.
 */
export async function grantFoeBonus(loaded: LoadedCard, targetKey: string, defender: Actor.Implementation, foeUuid: string, bonus: number): Promise<void> {
  if (!GRANTABLE.includes(bonus)) throw new RangeError(`A foe bonus is +1 or +2 CS, not ${String(bonus)}.`);
  const note = await journalStep(loaded, `${GRANT_NOTE}:${targetKey}:${String(loaded.revision)}`, { defender: defender.uuid, foe: foeUuid, bonus });
  await defender.update({ [`flags.${SYSTEM_ID}.foeBonus.${foeBonusKey(foeUuid)}`]: { bonus, card: loaded.message.id ?? "", nonce: note.nonce } });
}

/** A grant the GM noted and an attack may use. */
export interface FoeGrant {
  readonly bonus: number;
  readonly card: LoadedCard;
  readonly nonce: string;
}

/**
 * The grant `actor`'s flag against `foeUuid` points at, when the GM's note backs it: the card is
 * a GM's, its record holds a grant note with the flag's nonce naming this defender, this foe and
 * the flag's bonus (1 or 2), not used yet (or used by the attack request `requestId` itself: its
 * retry). Anything else counts for nothing.
 */
export function grantedFoeBonus(actor: Actor.Implementation, foeUuid: string, requestId = ""): FoeGrant | null {
  const found = noteOfGrant(actor, foeUuid);
  if (!found) return null;
  if (found.usedBy !== null && (requestId === "" || found.usedBy !== requestId)) return null;
  return found.grant;
}

/** The grant note `actor`'s flag against `foeUuid` points at (a GM's card, this defender, foe and bonus), and who used it. */
function noteOfGrant(actor: Actor.Implementation, foeUuid: string): { grant: FoeGrant; usedBy: string | null } | null {
  const flag = foeBonusFlag(actor, foeUuid);
  if (typeof flag !== "object" || flag === null) return null;
  const { bonus, card, nonce } = flag as { bonus?: unknown; card?: unknown; nonce?: unknown };
  if (typeof card !== "string" || typeof nonce !== "string" || typeof bonus !== "number") return null;
  let loaded: LoadedCard;
  try {
    loaded = loadCard(card);
  } catch {
    return null;
  }
  const journal = journalOf(loaded);
  const note = journal.find((e) => e.nonce === nonce && e.id.startsWith(`${GRANT_NOTE}:`));
  if (!note || note.data.defender !== actor.uuid || note.data.foe !== foeUuid || note.data.bonus !== bonus || !GRANTABLE.includes(bonus)) return null;
  const used = journal.find((e) => e.id === `${USED_NOTE}:${nonce}`);
  return { grant: { bonus, card: loaded, nonce }, usedBy: used ? String(used.data.by) : null };
}

/**
 * The locks of the cards whose records an attack by `actor` on these foes may note a grant's use
 * on (those of grants the GM noted: a forged pointer declares nothing, so no one can make the GM
 * queue on a card's lock by writing their own flag).
 */
export function foeBonusLockKeys(actor: Actor.Implementation, foeUuids: readonly string[]): string[] {
  return foeUuids.flatMap((uuid) => {
    const found = noteOfGrant(actor, uuid);
    return found ? [cardLock(found.grant.card.message.id ?? "")] : [];
  });
}

/** Notes in the grant's record that the attack request `requestId` used it (a retry of that request finds its own note). */
export async function consumeFoeBonus(grant: FoeGrant, requestId: string): Promise<void> {
  await journalStep(grant.card, `${USED_NOTE}:${grant.nonce}`, { by: requestId });
}
