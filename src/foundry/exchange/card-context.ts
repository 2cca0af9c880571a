/**
 * What an attack card shows to one viewer: plain data from the exchange state and the viewer's
 * permissions. No Foundry here, so it is tested directly; the template only lays it out.
 *
 * Who sees what (ARCHITECTURE "An attack exchange"): each target's defence buttons go to that
 * actor's owners and the GM; others see the outcome only. A hidden NPC's defence (setting) shows
 * to players as "defended" without the roll. Data values that are localisation keys ("CASE.…")
 * are localised by the `caseFormat` template helper before formatting. Pull buttons go to the attacker's owners; Apply
 * and Undo to the GM, or also to the target's owners when the setting allows.
 */
import { rowFollowUps, type FollowUp } from "../../rules/index";
import {
  attackDefinition,
  exchangeComplete,
  targetActions,
  mayChangeDefence,
  missMayStrikeOthers,
  takeOutcome,
  mayPullColor,
  rankOf,
  mayPullDamage,
  COLORS,
  colorIndex,
  type Color,
  type DefenceCode,
  type UniversalTable,
  type CsReason,
  type ExchangeState,
  type ExchangeTarget,
  type SlamMove,
  resistedPowerOf,
} from "../../rules/index";
import { pluralKey } from "../core/format";
import { csViews, defenceChoices, defenceEffectOf, type CsView, type DefenceButtonView } from "./defence-view";

export type { CsView, DefenceButtonView } from "./defence-view";
import { resistRowView, type ResistRowView } from "./resist-view";

export interface Viewer {
  readonly isGM: boolean;
  /** Whether the viewer owns the actor with this UUID. */
  owns(actorUuid: string): boolean;
  /** Whether the actor with this UUID is an NPC (for hiding defence choices). */
  isNpc(actorUuid: string): boolean;
  /** The picture of a row's token (its texture) or actor, as this client can see it; null when none. */
  portrait?(uuid: string): string | null;
}

export interface ExchangeSettings {
  readonly hideNpcDefences: boolean;
  readonly ownersApplyDamage: boolean;
  /** The combat turn (round) now, for the one-escape-a-turn rule; null outside a combat. */
  readonly turn?: number | null;
  /**
   * The shifts the GM will put on this row's defender rolling `defence` now (the extra-defence
   * penalty beyond the free defences, talents, conditions: gm-actions `defenceShifts`), or
   * undefined when this client does not know them. Read for the defence buttons' odds.
   */
  readonly defenceCs?: (rowKey: string, defence: DefenceCode) => readonly CsReason[] | undefined;
  /**
   * Whether this row's target may defend now (rules turn/able.ts: not Stunned, Unconscious or
   * dying unaided), or undefined when this client does not know: a helpless target is offered No defence only.
   */
  readonly mayDefend?: (rowKey: string) => boolean;
  /** Whether Karma may be added to a check or a resistance, or to a defence (the world's rulings, power-rulings.ts). */
  readonly karmaOnChecks?: boolean;
  readonly karmaOnDefence?: boolean;
  /** Whether a Kill? that killed may be bought off with Karma (the world's ruling). */
  readonly karmaAgainstDeath?: boolean;
  /** The Universal Table the GM rolls on (CONFIG.CASE.universalTable); the rules' own by default. */
  readonly table?: UniversalTable;
}

/** The card's obstacle lines: each object's material strength, nearest first ("Obstacle: Excellent material −20"). */
export function obstacleLines(materialStrengths: readonly number[]): { rankKey: string; value: number }[] {
  return materialStrengths.map((ms) => ({ rankKey: `CASE.Rank.${rankOf(ms).key}`, value: ms }));
}

function rankKey(key: string | null): string | null {
  return key === null ? null : `CASE.Rank.${key}`;
}

export interface TargetRowView {
  readonly key: string;
  /** A resisted power's row (resist-view.ts), or null on an ordinary attack. */
  readonly resist: ResistRowView | null;
  /** The row's owner may add Karma to a defence roll. */
  readonly defenceKarma: boolean;
  readonly name: string;
  readonly uuid: string;
  /** The token's picture beside the name, or null. */
  readonly img: string | null;
  /** The row's target is a token (a scene's `…Token.<id>`): the card may select it and pan to it. */
  readonly onScene: boolean;
  readonly phase: ExchangeTarget["phase"];
  readonly phaseKey: string;
  /** The phase is said in the row's head (not on a resolved row: its result, buttons or folded line say it). */
  readonly showPhase: boolean;
  /** A bare "No defence" (no die, no shift, not picked) is said in the row's head, after the name, once the to-hit is rolled. */
  readonly defenceInHead: boolean;
  readonly canDefend: boolean;
  readonly defenceButtons: readonly DefenceButtonView[];
  /** The shifts every defence of the row carries (the extra-defence penalty), said once under the buttons. */
  readonly defenceCs: readonly CsView[];
  /** The defence most likely to keep the damage off by itself, with that chance in per cent; null when none can. */
  readonly bestDefence: { readonly labelKey: string; readonly percent: number } | null;
  /** The row folds to one line (a <details>) until opened: finished, or (for the GM) waiting on its defence. */
  readonly fold: boolean;
  /** The row's rarely used actions (Pull, Less damage…, Apply to selected) fold into its menu: shown when it holds one. */
  readonly rowMenu: boolean;
  /** The row has a damage action to show (Apply, Undo or its menu). */
  readonly rowActions: boolean;
  readonly defenceHidden: boolean;
  readonly defence: null | {
    readonly labelKey: string;
    readonly die: number | null;
    readonly karma: number;
    readonly columnKey: string | null;
    readonly colorKey: string | null;
    readonly color: Color | null;
    readonly cs: readonly CsView[];
    readonly effectKey: string | null;
    readonly effectData: Record<string, string>;
  };
  readonly toHit: null | {
    readonly die: number;
    readonly total: number;
    readonly karma: boolean;
    readonly columnKey: string;
    readonly belowShift0: boolean;
    readonly colorKey: string;
    readonly color: Color;
    readonly resultKey: string;
    readonly cs: readonly CsView[];
    readonly calledShotMissed: boolean;
    readonly pulled: boolean;
  };
  readonly damage: null | {
    readonly raw: number;
    readonly dieColorKey: string | null;
    readonly die: number | null;
    readonly protection: number;
    readonly armor: number;
    readonly defenceProtection: number;
    readonly dealt: number;
    readonly rebound: number;
    readonly protectionHidden: boolean;
    /** One line per object in the path that took material strength off the damage (§5). */
    readonly obstacles: readonly { readonly rankKey: string; readonly value: number }[];
  };
  /** A note the result calls for: a Take's strength contest, a ranged miss that may strike someone adjacent. */
  readonly noteKey: string | null;
  readonly canPull: boolean;
  readonly pullColors: readonly { color: Color; labelKey: string }[];
  readonly pullDamage: boolean;
  readonly canApply: boolean;
  /** *Apply to selected tokens*: the row's damage to the tokens the viewer selected instead (who may apply, a row that may take it now, no charge rebound). */
  readonly canApplyToSelected: boolean;
  /** The characters the row's damage went to instead of its target, with their Health. */
  /** `hidden`: a sealed row's numbers are the GM's (players read the names only). */
  readonly appliedTo: readonly { readonly name: string; readonly before: number; readonly after: number; readonly max: number; readonly hidden: boolean }[];
  readonly canUndo: boolean;
  /** The GM may change a defence the GM's client picked (rules `mayChangeDefence`), before damage is applied. */
  readonly canChangeDefence: boolean;
  /** The defence was picked by the GM's client under the NPC-defence setting. */
  readonly defencePicked: boolean;
  /** The GM changed a picked defence on this row (it was rolled again). */
  readonly defenceChanged: boolean;
  readonly applied: null | {
    readonly before: number;
    readonly after: number;
    readonly max: number;
    /** A sealed row: its Health numbers are the GM's, the card says so instead. */
    readonly hidden: boolean;
    readonly reachedZero: boolean;
    readonly rebound: null | { readonly before: number; readonly after: number };
    /** A minor foe the world's minor-foe rule took out of the fight: the card says so. */
    readonly out: boolean;
  };
  /** An area attack's row: its distance in areas from the centre, when it is 1 or more (null at the centre or on a line). */
  readonly areaDistance: number | null;
  /** Shifts on this row's to-hit alone (its own range), shown by its name. */
  readonly ownCs: readonly CsView[];
  readonly consequences: readonly {
    readonly check: string;
    readonly labelKey: string;
    readonly rolled: boolean;
    readonly canRoll: boolean;
    readonly colorKey: string | null;
    readonly die: number | null;
    readonly outcomeKey: string | null;
    readonly outcomeData: Record<string, string>;
    /** Why an unrolled check waits: on the damage being applied, or on its roll. Null once rolled. */
    readonly pendingKey: string | null;
    /** Where a slam moved the token on the board (the "slam moves tokens" setting), or null. */
    readonly movedKey: string | null;
    readonly movedData: Record<string, string>;
  }[];
  readonly canEscape: boolean;
  /** Escapes tried so far: an escape request names it, so a double click is not a second try. */
  readonly escapeAttempt: number;
  readonly escapes: readonly { die: number; colorKey: string; resultKey: string }[];
  /** The seed rules' follow-ups this row offers the GM (rules follow-ups.ts), for templates/chat/follow-ups.hbs. */
  readonly followUps: readonly { kind: FollowUp; labelKey: string }[];
  /**
   * Nothing more may happen to this row (rules `targetActions`: no defence, to-hit, pull, apply,
   * check or escape left; Undo may stay): the card folds it to its one-line outcome.
   */
  readonly finished: boolean;
  /** The one-line outcome of a finished row: the result (or the defence that avoided it) and the damage that got through. */
  readonly outcome: { readonly key: string; readonly data: Record<string, string>; readonly dealt: number | null };
}

export interface ExchangeCardView {
  readonly attackKey: string;
  readonly source: string;
  readonly attacker: string;
  /** Null for an NPC attacker (its rank is the GM's). */
  readonly attackerValue: number | null;
  readonly attackerRankKey: string | null;
  readonly rollsOnKey: string;
  readonly toHitCs: readonly CsView[];
  /** Shifts on the damage column (a flurry), with reasons. */
  readonly damageCs: readonly CsView[];
  /** Made out of the attacker's turn (flagged where the world does not refuse it). */
  readonly outOfTurn: boolean;
  readonly karma: number;
  readonly damageValue: number;
  readonly damageMethodKey: string;
  readonly calledShot: boolean;
  readonly blindsided: boolean;
  readonly complete: boolean;
  /** A to-hit roll is pending (the GM was away when it was due) and this viewer may ask for it. */
  readonly canRollToHit: boolean;
  /** The GM's *Apply all* (in the card's header): shown when two rows or more may take their damage now. */
  readonly canApplyAll: boolean;
  /** The GM's *Roll all due checks*: shown when two Slam?/Stun?/Kill? checks or more are due now. */
  readonly canRollAllChecks: boolean;
  /** An area attack: its shape and size, as a localisation key and its data; null for an attack on chosen targets. */
  readonly area: null | { readonly key: string; readonly data: Record<string, string> };
  readonly rows: readonly TargetRowView[];
}

function defenceEffect(t: ExchangeTarget): { key: string | null; data: Record<string, string> } {
  const d = t.defence;
  // "No defence" says it all: no effect text after it.
  if (!d || d.code === "none") return { key: null, data: {} };
  return defenceEffectOf(d.code, d.outcome, t.sealed === true);
}

function consequenceOutcome(c: ExchangeTarget["consequences"][number], sealed: boolean): { key: string | null; data: Record<string, string> } {
  const o = c.outcome;
  if (!o) return { key: null, data: {} };
  switch (o.check) {
    case "slam":
      return { key: o.result === "grandSlam" && typeof o.areas === "number" ? pluralKey("CASE.Consequence.Slam.GrandSlam.", o.areas) : `CASE.Consequence.Slam.${o.result}`, data: { direction: o.direction ? `CASE.Direction.${o.direction}` : "", areas: String(o.areas ?? "") } };
    case "stun":
      return { key: o.result === "none" ? "CASE.Consequence.Stun.none" : pluralKey(o.thisTurn ? "CASE.Consequence.Stun.ThisTurn." : "CASE.Consequence.Stun.NextTurn.", o.turns), data: { turns: String(o.turns) } };
    case "kill":
      // A sealed row's Endurance is the GM's: players read that a rank was lost, not what is left.
      return { key: o.result === "none" ? "CASE.Consequence.Kill.none" : o.dead ? "CASE.Consequence.Kill.dead" : sealed ? "CASE.Consequence.Kill.lossSecret" : "CASE.Consequence.Kill.loss", data: { endurance: String(o.endurance) } };
  }
}

/** "area" or "areas" after a count. */
export function areaUnitKey(areas: number): string {
  return areas === 1 ? "CASE.Board.Area.one" : "CASE.Board.Area.other";
}

/** The card's line for where a slam moved the token (rules `slamMove`), or none. */
function slamMoveLine(moved: SlamMove | null): { movedKey: string | null; movedData: Record<string, string> } {
  if (!moved) return { movedKey: null, movedData: {} };
  if (moved.areas === 0 && !moved.edge) return { movedKey: "CASE.Board.Slam.stay", movedData: {} };
  return { movedKey: moved.edge ? "CASE.Board.Slam.edge" : "CASE.Board.Slam.moved", movedData: { areas: String(moved.areas), unit: areaUnitKey(moved.areas), heading: `CASE.Board.Heading.${moved.heading}` } };
}

/** §5 notes: a Take grabs only if the grabber is stronger, else a struggle; a ranged miss may hit someone adjacent. */
function resultNote(state: ExchangeState, t: ExchangeTarget): string | null {
  const result = t.toHit?.result;
  // A sealed row's Strength is the GM's secret: the GM's own view (unsealed) names the outcome.
  if (result === "take") {
    // Read as a Strength ACTION (errata §5), its roll decides (and is no secret); else the comparison.
    const contest = t.toHit?.contest;
    if (contest) return `CASE.Exchange.Note.take.${contest.success ? "grabbed" : "struggle"}`;
    return t.sealed === true || state.attacker.sealed === true ? "CASE.Exchange.Note.take.secret" : `CASE.Exchange.Note.take.${takeOutcome(state.attacker.strength, t.scores["strength.mgt"])}`;
  }
  if (result === "break") return "CASE.Exchange.Note.break";
  if (result === "miss" && missMayStrikeOthers(state.attack)) return "CASE.Exchange.Note.missRanged";
  return null;
}

/** A finished row's outcome in one line: the to-hit's result, else what the (visible) defence did. */
function rowOutcome(t: ExchangeTarget, hidden: boolean, effect: { key: string | null; data: Record<string, string> }): TargetRowView["outcome"] {
  const dealt = t.damage ? t.damage.dealt : null;
  if (t.toHit) return { key: t.toHit.calledShotMissed ? "CASE.Exchange.CalledShotMissed" : `CASE.AttackResult.${t.toHit.result}`, data: {}, dealt };
  if (hidden) return { key: "CASE.Exchange.DefenceHidden", data: {}, dealt };
  if (effect.key !== null) return { key: effect.key, data: effect.data, dealt };
  return { key: `CASE.Exchange.Phase.${t.phase}`, data: {}, dealt };
}

/** The card for one viewer. */
export function attackCardContext(state: ExchangeState, viewer: Viewer, settings: ExchangeSettings): ExchangeCardView {
  const def = attackDefinition(state.attack);
  const ownsAttacker = viewer.isGM || viewer.owns(state.attacker.uuid);
  const rows = state.targets.map((t): TargetRowView => {
    const ownsTarget = viewer.isGM || viewer.owns(t.actorUuid);
    // Hidden: kept off the card by the GM (defenceHidden), or an NPC's under the setting for a viewer who does not own it.
    const hidden = t.defenceHidden === true || (settings.hideNpcDefences && !ownsTarget && viewer.isNpc(t.actorUuid));
    const mayApply = viewer.isGM || (settings.ownersApplyDamage && ownsTarget);
    const d = t.defence;
    const effect = defenceEffect(t);
    const dmg = t.damage;
    // What may happen next is the rules' call; the view only says who may press.
    const next = targetActions(state, t.key, settings.turn ?? null, { mayDefend: settings.mayDefend?.(t.key) ?? true });
    const canPull = ownsAttacker && next.pull;
    const rolledIndex = t.toHit ? colorIndex(t.toHit.color) : 0;
    const choices = ownsTarget ? defenceChoices(state, t, next.defend, (code) => settings.defenceCs?.(t.key, code), settings.table) : { buttons: [], sharedCs: [], best: null };
    const canApplyToSelected = mayApply && next.apply && (dmg?.dealt ?? 0) > 0 && (dmg?.rebound ?? 0) === 0;
    return {
      key: t.key,
      name: t.name,
      uuid: t.uuid,
      img: viewer.portrait?.(t.uuid) ?? null,
      onScene: /\.Token\.[^.]+$/.test(t.uuid),
      phase: t.phase,
      phaseKey: `CASE.Exchange.Phase.${t.phase}`,
      showPhase: t.phase !== "resolved",
      defenceInHead: !next.finished && !hidden && d?.code === "none" && d.die === null && t.toHit !== null && t.defencePicked !== true,
      canDefend: ownsTarget && next.awaitingDefence && resistedPowerOf(state) === null,
      resist: resistRowView(state, t, ownsTarget, mayApply, settings.karmaOnChecks === true),
      // Karma on a defence roll (the world's ruling; never when blindsided: such a row has no defence).
      defenceKarma: settings.karmaOnDefence === true && next.defend.length > 0,
      defenceButtons: choices.buttons,
      defenceCs: choices.sharedCs,
      bestDefence: choices.best,
      fold: next.finished || (viewer.isGM && next.awaitingDefence),
      rowMenu: canApplyToSelected || canPull,
      rowActions: canApplyToSelected || canPull || (mayApply && (next.apply || next.undo)),
      defenceHidden: hidden && (d !== null || t.defenceHidden === true),
      defence:
        d === null || hidden
          ? null
          : {
              labelKey: `CASE.Defence.${d.code}`,
              die: d.die,
              karma: d.karma ?? 0,
              columnKey: rankKey(d.column),
              colorKey: d.color ? `CASE.Color.${d.color}` : null,
              color: d.color,
              cs: csViews(d.cs),
              effectKey: effect.key,
              effectData: effect.data,
            },
      toHit: t.toHit
        ? {
            die: t.toHit.die,
            total: t.toHit.total,
            karma: state.karma > 0,
            columnKey: `CASE.Rank.${t.toHit.column}`,
            belowShift0: t.toHit.belowShift0,
            colorKey: `CASE.Color.${t.toHit.color}`,
            color: t.toHit.color,
            resultKey: t.toHit.calledShotMissed ? "CASE.Exchange.CalledShotMissed" : `CASE.AttackResult.${t.toHit.result}`,
            cs: csViews(t.toHit.cs),
            calledShotMissed: t.toHit.calledShotMissed,
            pulled: t.toHit.pulled,
          }
        : null,
      damage: dmg
        ? {
            raw: dmg.raw,
            die: dmg.die,
            dieColorKey: dmg.dieColor ? `CASE.Color.${dmg.dieColor}` : null,
            protection: dmg.protection,
            armor: dmg.armor,
            defenceProtection: dmg.defenceProtection,
            dealt: dmg.dealt,
            rebound: dmg.rebound,
            // A sealed row's armor and protection are the GM's: players see what got through.
            protectionHidden: t.sealed === true,
            obstacles: (dmg.obstacles ?? 0) > 0 ? obstacleLines(state.obstacles ?? []) : [],
          }
        : null,
      noteKey: resultNote(state, t),
      canPull,
      pullColors: canPull && mayPullColor(state.attack) ? COLORS.filter((c) => colorIndex(c) < rolledIndex).map((color) => ({ color, labelKey: `CASE.Color.${color}` })) : [],
      pullDamage: canPull && mayPullDamage(state.attack),
      canApply: mayApply && next.apply,
      canApplyToSelected,
      // A sealed row's Health numbers (and the others') are the GM's: players read only where the damage went.
      appliedTo: (t.applied?.others ?? []).map((o) => ({ name: o.name, before: o.before, after: o.after, max: o.max, hidden: t.sealed === true })),
      canUndo: mayApply && next.undo,
      canChangeDefence: viewer.isGM && mayChangeDefence(state, t.key),
      defencePicked: t.defencePicked === true,
      defenceChanged: (t.defenceChanges ?? 0) > 0,
      applied: t.applied && !t.applied.others
        ? { before: t.applied.healthBefore, after: t.applied.healthAfter, max: t.applied.max, hidden: t.sealed === true, reachedZero: t.applied.reachedZero, rebound: state.attacker.sealed === true ? null : (t.applied.rebound ?? null), out: t.applied.out === true }
        : null,
      areaDistance: state.area && t.areaDistance !== undefined && t.areaDistance > 0 ? t.areaDistance : null,
      ownCs: csViews(t.toHitCs ?? []),
      // A check the viewer's Apply calls for waits off the card until then (the to-hit's result names it).
      consequences: t.consequences.filter((c) => !(mayApply && next.apply && c.outcome === null)).map((c) => {
        const out = consequenceOutcome(c, t.sealed === true);
        return {
          check: c.check,
          labelKey: `CASE.Consequence.${c.check}`,
          rolled: c.outcome !== null,
          canRoll: ownsTarget && next.checks.includes(c.check),
          karmaBox: ownsTarget && next.checks.includes(c.check) && settings.karmaOnChecks === true,
          karma: c.karma ?? 0,
          canBuyOffDeath: ownsTarget && settings.karmaAgainstDeath === true && c.outcome?.check === "kill" && c.outcome.dead && t.phase === "applied",
          colorKey: c.color ? `CASE.Color.${c.color}` : null,
          die: c.die,
          outcomeKey: out.key,
          outcomeData: out.data,
          pendingKey: c.outcome !== null ? null : t.phase === "applied" ? "CASE.Exchange.CheckDue" : "CASE.Exchange.CheckAfterDamage",
          ...slamMoveLine(c.moved ?? null),
        };
      }),
      finished: next.finished,
      outcome: rowOutcome(t, hidden, effect),
      canEscape: ownsTarget && next.escape,
      escapeAttempt: t.escapes.length,
      escapes: t.escapes.map((e) => ({ die: e.die, colorKey: `CASE.Color.${e.color}`, resultKey: `CASE.Exchange.Escape.${e.result}` })),
      followUps: viewer.isGM ? rowFollowUps(state, t).map((kind) => ({ kind, labelKey: `CASE.FollowUp.${kind}` })) : [],
    };
  });
  return {
    attackKey: `CASE.Attack.${state.attack}`,
    source: state.source,
    attacker: state.attacker.name,
    // An NPC attacker's rank is the GM's (secrets.ts): players read the score it rolls on only.
    attackerValue: state.attacker.sealed === true ? null : state.attacker.value,
    attackerRankKey: state.attacker.sealed === true ? null : `CASE.Rank.${rankOf(state.attacker.value).key}`,
    rollsOnKey: `CASE.Score.${def.rollsOn}`,
    toHitCs: csViews(state.toHitCs),
    damageCs: csViews(state.damageCs ?? []),
    outOfTurn: state.outOfTurn === true,
    karma: state.karma,
    damageValue: state.damage.value,
    damageMethodKey: `CASE.Setting.damageMethod.${state.damage.method}`,
    calledShot: state.calledShot,
    blindsided: state.blindsided,
    complete: exchangeComplete(state),
    canRollToHit: ownsAttacker && state.targets.some((t) => targetActions(state, t.key).rollToHit),
    canApplyAll: viewer.isGM && state.targets.filter((t) => targetActions(state, t.key).apply).length >= 2,
    canRollAllChecks: viewer.isGM && state.targets.reduce((n, t) => n + targetActions(state, t.key).checks.length, 0) >= 2,
    area: state.area
      ? { key: `CASE.Area.Card.${state.area.shape}${state.area.explosive === true ? "Explosive" : ""}`, data: { radius: String(state.area.radius), targets: String(state.targets.length) } }
      : null,
    rows,
  };
}
