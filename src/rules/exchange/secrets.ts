/**
 * What of an attack exchange the players may not see. The attack card is a document every
 * player receives, so the GM keeps a row's secrets apart: a sealed row (an NPC target) keeps
 * its scores, armor and protection off the card; a hidden defence (an NPC's, under the "hide
 * NPC defences" setting) keeps its choice, die and shifts off the card. {@link sealExchange}
 * splits a full exchange into the public card and the secrets; {@link unsealExchange} joins
 * them again on the GM before a transition. Both are pure and exact inverses.
 */
import { resistanceOf, type ResistanceRecord } from "./resist";
import { ExchangeError, targetOf, type AppliedRecord, type ConsequenceRecord, type CsReason, type DamageRecord, type ExchangeAttacker, type ExchangeState, type ExchangeTarget, type TargetDefence, type TargetScores } from "./state";

/** The secrets of one row. */
export interface RowSecrets {
  readonly scores: TargetScores | null;
  readonly armor: { readonly body: number; readonly energy: number } | null;
  readonly damage: DamageRecord | null;
  readonly defence: TargetDefence | null;
  readonly toHitCs: readonly CsReason[] | null;
  /** A sealed row's Health before and after (and the charger's, the others'); absent in records made before they were sealed. */
  readonly applied?: AppliedRecord | null;
  /** A sealed row's checks (a Kill?'s Endurance after it); absent in records made before. */
  readonly consequences?: readonly ConsequenceRecord[] | null;
  /** A sealed row's resistance to a resisted power: the ability's rank and its shifts (resist.ts); absent in records made before. */
  readonly resistance?: ResistanceRecord | null;
  /** Under {@link ATTACKER_SECRETS} only: a sealed attacker's numbers. */
  readonly attacker?: AttackerNumbers;
}

/** An attacker's numbers, kept by the GM when the attacker is an NPC. */
export interface AttackerNumbers {
  readonly value: number;
  readonly strength: number;
  readonly armor: number;
}

/**
 * The secrets of an exchange, by row key; a sealed attacker's numbers under
 * {@link ATTACKER_SECRETS} (row keys are digits, so it never names a row).
 */
export type ExchangeSecrets = Readonly<Record<string, RowSecrets>>;

/** The key of a sealed attacker's numbers among an exchange's secrets. */
export const ATTACKER_SECRETS = "attacker";

/** Which rows hold secrets. */
export interface SealOptions {
  /** Rows whose scores, armor and protection are secret (NPC targets). */
  readonly sealed: ReadonlySet<string>;
  /** Rows whose defence is secret (NPC defences under the hiding setting). */
  readonly hiddenDefence: ReadonlySet<string>;
  /** The attacker's numbers (rank, Strength, armor) are secret (an NPC attacker). */
  readonly attacker?: boolean;
}

const NO_SCORES: TargetScores = { "agility.bal": 0, "fighting.def": 0, "strength.mgt": 0, "endurance.res": 0 };

/** The label prefix of the to-hit shift a defence puts on the attack (rollToHit). */
const DEFENCE_LABEL = "CASE.Defence.";

/** A sealed row's Health record on the card: what happened (reached 0, out), no numbers. */
function sealedApplied(a: AppliedRecord, attackerSealed: boolean): AppliedRecord {
  const others = a.others ? a.others.map((o) => ({ ...o, before: 0, after: 0, max: 0 })) : a.others;
  const rebound = a.rebound && attackerSealed ? { before: 0, after: 0 } : a.rebound;
  return { ...a, healthBefore: 0, healthAfter: 0, max: 0, ...(others !== undefined ? { others } : {}), ...(rebound !== undefined ? { rebound } : {}) };
}

/** A sealed row's checks on the card: a Kill?'s Endurance after it left out. */
function sealedConsequences(list: readonly ConsequenceRecord[]): readonly ConsequenceRecord[] {
  return list.map((c) => (c.outcome?.check === "kill" ? { ...c, outcome: { ...c.outcome, endurance: 0 } } : c));
}

function sealRow(t: ExchangeTarget, sealed: boolean, hideDefence: boolean, attackerSealed: boolean): { row: ExchangeTarget; secrets: RowSecrets | null } {
  const hide = hideDefence && t.defence !== null;
  // An NPC attacker's charge rebound names its Health on a row that is otherwise public.
  const reboundSecret = attackerSealed && !sealed && t.applied?.rebound != null;
  if (!sealed && !hide && !reboundSecret) return { row: { ...t, sealed: false, defenceHidden: false }, secrets: null };
  const sealApplied = (sealed || reboundSecret) && t.applied !== null;
  const secrets: RowSecrets = {
    scores: sealed ? t.scores : null,
    armor: sealed ? t.armor : null,
    damage: sealed || hide ? t.damage : null,
    defence: hide ? t.defence : null,
    toHitCs: hide && t.toHit ? t.toHit.cs : null,
    applied: sealApplied ? t.applied : null,
    consequences: sealed ? t.consequences : null,
    resistance: sealed ? resistanceOf(t) : null,
  };
  const resistance = resistanceOf(t);
  const damage = t.damage && (sealed || hide) ? { ...t.damage, armor: 0, defenceProtection: 0, protection: 0, rolledRaw: t.damage.raw } : t.damage;
  const toHit = hide && t.toHit ? { ...t.toHit, cs: t.toHit.cs.filter((c) => !c.label.startsWith(DEFENCE_LABEL)) } : t.toHit;
  return {
    row: {
      ...t,
      scores: sealed ? NO_SCORES : t.scores,
      armor: sealed ? { body: 0, energy: 0 } : t.armor,
      defence: hide ? null : t.defence,
      toHit,
      damage,
      applied: sealApplied ? (sealed ? sealedApplied(t.applied, attackerSealed) : { ...t.applied, rebound: { before: 0, after: 0 } }) : t.applied,
      consequences: sealed ? sealedConsequences(t.consequences) : t.consequences,
      // The target's rank in the resisting ability and its talents' shifts are its scores: sealed too.
      ...(resistance ? { resistance: sealed ? { ...resistance, value: 0, cs: [] } : resistance } : {}),
      sealed,
      defenceHidden: hide,
    },
    secrets,
  };
}

/** Splits a full exchange into what the card may show and the secrets the GM keeps. */
export function sealExchange(state: ExchangeState, options: SealOptions): { card: ExchangeState; secrets: ExchangeSecrets } {
  const secrets: Record<string, RowSecrets> = {};
  const attackerSealed = options.attacker === true;
  const targets = state.targets.map((t) => {
    const { row, secrets: s } = sealRow(t, options.sealed.has(t.key), options.hiddenDefence.has(t.key), attackerSealed);
    if (s) secrets[t.key] = s;
    return row;
  });
  if (!attackerSealed) return { card: { ...state, targets }, secrets };
  const a = state.attacker;
  secrets[ATTACKER_SECRETS] = { scores: null, armor: null, damage: null, defence: null, toHitCs: null, attacker: { value: a.value, strength: a.strength, armor: a.armor } };
  const attacker: ExchangeAttacker = { ...a, value: 0, strength: 0, armor: 0, sealed: true };
  return { card: { ...state, attacker, targets }, secrets };
}

/**
 * Joins a card and its secrets into the full exchange. A sealed row without its secrets is
 * refused: the GM must never run a transition on a row's blank scores.
 */
export function unsealExchange(card: ExchangeState, secrets: ExchangeSecrets): ExchangeState {
  const targets = card.targets.map((t): ExchangeTarget => {
    const s = secrets[t.key];
    if (!s) {
      if (t.sealed === true || t.defenceHidden === true) throw new ExchangeError("invalid", "exchangeRowRecordMissing", { name: t.name });
      return t;
    }
    return {
      ...t,
      scores: s.scores ?? t.scores,
      armor: s.armor ?? t.armor,
      damage: s.damage ?? t.damage,
      defence: s.defence ?? t.defence,
      toHit: t.toHit && s.toHitCs ? { ...t.toHit, cs: s.toHitCs } : t.toHit,
      applied: s.applied ?? t.applied,
      consequences: s.consequences ?? t.consequences,
      ...(s.resistance ? { resistance: s.resistance } : {}),
      sealed: false,
      defenceHidden: false,
    };
  });
  if (card.attacker.sealed !== true) return { ...card, targets };
  const numbers = secrets[ATTACKER_SECRETS]?.attacker;
  if (!numbers) throw new ExchangeError("invalid", "exchangeAttackerRecordMissing", { name: card.attacker.name });
  const { sealed: _sealed, ...attacker } = card.attacker;
  return { ...card, attacker: { ...attacker, ...numbers }, targets };
}

/** True when the row `key` of this card keeps secrets the players may not see. */
export function rowIsSecret(card: ExchangeState, key: string): boolean {
  const t = targetOf(card, key);
  return t.sealed === true || t.defenceHidden === true;
}
