/**
 * A card row's defence choices as one viewer reads them (the card and the defence dialog show
 * the same): each defence's score, shifts and odds, what each colour does against this attack
 * (rules `defenceColourOutcomes`, the button's tooltip), the shifts every defence of the row
 * shares (the extra-defence penalty: said once per row), and the defence with the best chance
 * to keep the damage off. No Foundry here.
 */
import {
  COLORS,
  DEFENCE_SCORE,
  UNIVERSAL_TABLE,
  catchRollShift,
  colorOdds,
  defenceColourOutcomes,
  rankOf,
  shiftColumn,
  type Color,
  type CsReason,
  type DefenceOutcome,
  type DefenceCode,
  type ExchangeState,
  type ExchangeTarget,
  type UniversalTable,
} from "../../rules/index";
import { formatSigned } from "../core/format";

export interface CsView {
  readonly cs: string;
  readonly label: string;
  readonly localize: boolean;
}

export function csViews(list: readonly CsReason[]): CsView[] {
  return list.map((c) => ({ cs: formatSigned(c.cs), label: c.label, localize: c.localize }));
}

/** What one colour does, as a localisation key (through `caseFormat`) and its data. */
export interface ColourOutcomeView {
  readonly colorKey: string;
  readonly key: string;
  readonly data: Record<string, string>;
}

/** A defence button: what it rolls on, the shifts the GM will apply, the odds of each colour on the shifted column, and what each colour does. */
export interface DefenceButtonView {
  readonly code: DefenceCode;
  readonly labelKey: string;
  /** The score it rolls on and its rank ("Agy (bal)", "Remarkable"); null on a sealed row (the NPC's scores are the GM's). */
  readonly scoreKey: string | null;
  readonly rankKey: string | null;
  /** The total shift on the roll ("−2"), null when none. */
  readonly cs: string | null;
  /** This defence's own shifts (Catch's aim); the row's shared ones are said once, on the row. */
  readonly csReasons: readonly CsView[];
  /** The column after the shifts, when they move it. */
  readonly shiftedKey: string | null;
  /** The chance of each colour on that column, in per cent (empty on a sealed row). */
  readonly odds: readonly { readonly color: Color; readonly letterKey: string; readonly percent: number }[];
  /** What each colour does against this attack, white to red (the button's tooltip). */
  readonly outcomes: readonly ColourOutcomeView[];
}

/** The row's defence choices: its buttons, the shifts they all share, the best chance to keep the damage off. */
export interface DefenceChoicesView {
  readonly buttons: readonly DefenceButtonView[];
  readonly sharedCs: readonly CsView[];
  /** The defence most likely to keep the damage off by itself, and that chance in per cent; null when none can. */
  readonly best: { readonly labelKey: string; readonly percent: number } | null;
}

/**
 * The words for what a defence's outcome does to the attack (the card's line of a rolled
 * defence, and each colour of a defence button's tooltip). A sealed row's protection is the GM's
 * secret: players read that it protects, not how much.
 */
export function defenceEffectOf(code: DefenceCode, o: DefenceOutcome, sealed: boolean): { key: string; data: Record<string, string> } {
  if (o.catchResult !== null) return { key: `CASE.Exchange.Catch.${o.catchResult}`, data: {} };
  if (o.autoHit) return { key: "CASE.Exchange.AutoHit", data: {} };
  if (o.avoided) return o.bonusCs > 0 ? { key: "CASE.Exchange.AvoidedBonus", data: { cs: formatSigned(o.bonusCs) } } : { key: "CASE.Exchange.Avoided", data: {} };
  if (o.protection > 0 || code === "block" || code === "brace") return sealed ? { key: "CASE.Exchange.DefenceProtects", data: {} } : { key: "CASE.Exchange.DefenceProtection", data: { value: String(o.protection) } };
  return { key: "CASE.Exchange.AttackShift", data: { cs: formatSigned(o.attackCs) } };
}

/**
 * The defence choices of row `t` (`codes`: the defences the rules offer): `gmShifts` gives the
 * GM's shifts on each defence (undefined when this client does not know them).
 */
export function defenceChoices(state: ExchangeState, t: ExchangeTarget, codes: readonly DefenceCode[], gmShifts: (code: DefenceCode) => readonly CsReason[] | undefined, table: UniversalTable = UNIVERSAL_TABLE): DefenceChoicesView {
  const known = codes.map((code) => [...(gmShifts(code) ?? [])]);
  // A shift every defence of the row carries (the extra-defence penalty) is said once, on the row.
  const shared = (known[0] ?? []).filter((r) => known.every((list) => list.some((x) => x.label === r.label && x.cs === r.cs)));
  let best: DefenceChoicesView["best"] = null;
  const buttons = codes.map((code, i): DefenceButtonView => {
    const labelKey = `CASE.Defence.${code}`;
    const outcomes = defenceColourOutcomes(state, t.key, code);
    const outcomeViews = outcomes.map(({ color, outcome, dealt }) => ({
      colorKey: `CASE.Color.${color}`,
      ...(dealt === null ? defenceEffectOf(code, outcome, t.sealed === true) : { key: dealt === 0 ? "CASE.Exchange.Colour.soaked" : "CASE.Exchange.Colour.through", data: { dealt: String(dealt) } }),
    }));
    if (t.sealed === true) return { code, labelKey, scoreKey: null, rankKey: null, cs: null, csReasons: [], shiftedKey: null, odds: [], outcomes: outcomeViews };
    const score = DEFENCE_SCORE[code];
    const value = t.scores[score];
    // The same list chooseDefence reads: the GM's shifts, then Catch's own (rules catchRollShift).
    const reasons: CsReason[] = [...(known[i] ?? [])];
    if (code === "catch") reasons.push({ cs: catchRollShift(true), label: "CASE.Exchange.CatchAimed", localize: true });
    const total = reasons.reduce((sum, r) => sum + r.cs, 0);
    const odds = colorOdds(value, total, table);
    // The chance this defence alone keeps the damage off: the odds of its colours that stop it.
    const stop = Math.round(outcomes.reduce((sum, o) => sum + (o.stopsDamage ? odds[o.color] : 0), 0) * 100);
    if (stop > 0 && (best === null || stop > best.percent)) best = { labelKey, percent: stop };
    const base = rankOf(value).key;
    const shifted = shiftColumn(value, total).rank.key;
    return {
      code,
      labelKey,
      scoreKey: `CASE.Score.${score}`,
      rankKey: `CASE.Rank.${base}`,
      cs: total !== 0 ? formatSigned(total) : null,
      csReasons: csViews(reasons.filter((r) => !shared.some((x) => x.label === r.label && x.cs === r.cs))),
      shiftedKey: shifted !== base ? `CASE.Rank.${shifted}` : null,
      odds: COLORS.map((color) => ({ color, letterKey: `CASE.Color.Letter.${color}`, percent: Math.round(odds[color] * 100) })),
      outcomes: outcomeViews,
    };
  });
  // A sealed row's shifts are the GM's, as its scores are.
  return { buttons, sharedCs: t.sealed === true ? [] : csViews(shared), best };
}
