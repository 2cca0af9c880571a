/**
 * A resisted power's row on the attack card (templates/chat/resist-row.hbs): the *Resist* button
 * (with the Karma its owner may add) instead of the defences, the resistance roll and what it
 * decided, and *Apply effect* / *Undo* for those who may apply damage. The buttons ask the GM
 * (resist-steps.ts `RESIST_ACTIONS`); the rules decide what is offered (exchange/resist.ts).
 */
import { KARMA_MINIMUM, resistActions, resistanceOf, resistedPowerOf, type ExchangeState, type ExchangeTarget, type ResistedEffect } from "../../rules/index";

/** What the row's partial shows. */
export interface ResistRowView {
  readonly abilityKey: string;
  readonly canResist: boolean;
  /** The owner may add Karma to the resistance (the world's Karma-on-checks ruling). */
  readonly karma: { readonly min: number } | null;
  readonly roll: { readonly die: number; readonly total: number; readonly karma: number; readonly color: string; readonly colorKey: string; readonly resisted: boolean } | null;
  readonly effectKey: string;
  readonly effectData: Record<string, string>;
  readonly canApply: boolean;
  readonly canUndo: boolean;
}

function effectLine(effect: ResistedEffect): { effectKey: string; effectData: Record<string, string> } {
  if (effect.kind === "hold") return { effectKey: `CASE.Resisted.Effect.${effect.hold}`, effectData: {} };
  return { effectKey: "CASE.Resisted.ConditionFor", effectData: { condition: effect.condition, turns: String(effect.turns) } };
}

/** Row `t`'s resisted-power view, or null on an ordinary attack. */
export function resistRowView(state: ExchangeState, t: ExchangeTarget, ownsTarget: boolean, mayApply: boolean, karmaOnChecks: boolean): ResistRowView | null {
  const power = resistedPowerOf(state);
  if (!power) return null;
  const next = resistActions(state, t.key);
  const r = resistanceOf(t);
  const canResist = ownsTarget && next.resist;
  return {
    abilityKey: `CASE.Score.${power.resistedBy}`,
    canResist,
    karma: canResist && karmaOnChecks ? { min: KARMA_MINIMUM } : null,
    roll: r ? { die: r.die, total: r.total, karma: r.karma, color: r.color, colorKey: `CASE.Color.${r.color}`, resisted: r.resisted } : null,
    ...effectLine(power.effect),
    canApply: mayApply && next.apply,
    canUndo: mayApply && next.undo,
  };
}
