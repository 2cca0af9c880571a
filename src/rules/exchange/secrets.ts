/**
 * What of an attack exchange the players may not see. The attack card is a document every
 * player receives, so the GM keeps a row's secrets apart: a sealed row (an NPC target) keeps
 * its scores, armor and protection off the card; a hidden defence (an NPC's, under the "hide
 * NPC defences" setting) keeps its choice, die and shifts off the card. {@link sealExchange}
 * splits a full exchange into the public card and the secrets; {@link unsealExchange} joins
 * them again on the GM before a transition. Both are pure and exact inverses.
 */
import { ExchangeError, targetOf, type CsReason, type DamageRecord, type ExchangeState, type ExchangeTarget, type TargetDefence, type TargetScores } from "./state";

/** The secrets of one row. */
export interface RowSecrets {
  readonly scores: TargetScores | null;
  readonly armor: { readonly body: number; readonly energy: number } | null;
  readonly damage: DamageRecord | null;
  readonly defence: TargetDefence | null;
  readonly toHitCs: readonly CsReason[] | null;
}

/** The secrets of an exchange, by row key. */
export type ExchangeSecrets = Readonly<Record<string, RowSecrets>>;

/** Which rows hold secrets. */
export interface SealOptions {
  /** Rows whose scores, armor and protection are secret (NPC targets). */
  readonly sealed: ReadonlySet<string>;
  /** Rows whose defence is secret (NPC defences under the hiding setting). */
  readonly hiddenDefence: ReadonlySet<string>;
}

const NO_SCORES: TargetScores = { "agility.bal": 0, "fighting.def": 0, "strength.mgt": 0, "endurance.res": 0 };

/** The label prefix of the to-hit shift a defence puts on the attack (rollToHit). */
const DEFENCE_LABEL = "CASE.Defence.";

function sealRow(t: ExchangeTarget, sealed: boolean, hideDefence: boolean): { row: ExchangeTarget; secrets: RowSecrets | null } {
  const hide = hideDefence && t.defence !== null;
  if (!sealed && !hide) return { row: { ...t, sealed: false, defenceHidden: false }, secrets: null };
  const secrets: RowSecrets = {
    scores: sealed ? t.scores : null,
    armor: sealed ? t.armor : null,
    damage: sealed || hide ? t.damage : null,
    defence: hide ? t.defence : null,
    toHitCs: hide && t.toHit ? t.toHit.cs : null,
  };
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
      sealed,
      defenceHidden: hide,
    },
    secrets,
  };
}

/** Splits a full exchange into what the card may show and the secrets the GM keeps. */
export function sealExchange(state: ExchangeState, options: SealOptions): { card: ExchangeState; secrets: ExchangeSecrets } {
  const secrets: Record<string, RowSecrets> = {};
  const targets = state.targets.map((t) => {
    const { row, secrets: s } = sealRow(t, options.sealed.has(t.key), options.hiddenDefence.has(t.key));
    if (s) secrets[t.key] = s;
    return row;
  });
  return { card: { ...state, targets }, secrets };
}

/**
 * Joins a card and its secrets into the full exchange. A sealed row without its secrets is
 * refused: the GM must never run a transition on a row's blank scores.
 */
export function unsealExchange(card: ExchangeState, secrets: ExchangeSecrets): ExchangeState {
  const targets = card.targets.map((t): ExchangeTarget => {
    const s = secrets[t.key];
    if (!s) {
      if (t.sealed === true || t.defenceHidden === true) throw new ExchangeError("invalid", `${t.name}: the GM's record of this row is missing.`);
      return t;
    }
    return {
      ...t,
      scores: s.scores ?? t.scores,
      armor: s.armor ?? t.armor,
      damage: s.damage ?? t.damage,
      defence: s.defence ?? t.defence,
      toHit: t.toHit && s.toHitCs ? { ...t.toHit, cs: s.toHitCs } : t.toHit,
      sealed: false,
      defenceHidden: false,
    };
  });
  return { ...card, targets };
}

/** True when the row `key` of this card keeps secrets the players may not see. */
export function rowIsSecret(card: ExchangeState, key: string): boolean {
  const t = targetOf(card, key);
  return t.sealed === true || t.defenceHidden === true;
}
