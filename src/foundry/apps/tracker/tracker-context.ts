/**
 * What the CASE tracker shows, built from plain data (the tracker app reads Foundry into a
 * {@link TrackerInput}; tests build one by hand): the phase and what it waits for, each
 * combatant's declaration (or just "declared" for a secret NPC one, to players), actions and
 * defences left, shifts, status, and the buttons this user may press. No Foundry globals, so
 * the templates are rendered from it in vitest and Chromium.
 */
import {
  HEALTH_BAND_FILL,
  HEALTH_SHOWN_TO_OTHERS,
  TURN_PHASES,
  TURN_TABLE,
  healthBand,
  isTurnPhase,
  actionShift,
  actionsLeft,
  canActThisTurn,
  needsAid,
  currentCombatantId,
  declaredDodgeShift,
  freeDefencesLeft,
  mayChangeAction,
  mayChooseExtraMode,
  mayDeclare,
  nextDefencePenalty,
  phaseWaiting,
  turnShiftTotal,
  turnShifts,
  declaredAttackItem,
  type CombatantTurn,
  type Declaration,
  type DeclaredAttackItem,
  type TurnPhase,
  type TurnState,
  type Waiting,
} from "../../../rules/index";
import { turnStateFrom, type CombatSystemData, type CombatantInput, type TurnSettingsInput } from "../../combat/state";
import { formatSigned, type Localize } from "../../core/format";

/** An item of the combatant's character that makes an attack. */
export interface AttackItem extends DeclaredAttackItem {
  readonly itemUuid: string;
  readonly name: string;
}

/** One combatant as the tracker sees it. */
export interface TrackerCombatantInput extends CombatantInput {
  readonly name: string;
  readonly img: string;
  /** Hidden from players by the Judge (Foundry's "hidden"). */
  readonly hidden: boolean;
  /** The viewing user owns it (may declare, roll, act for it). */
  readonly owner: boolean;
  /** Its character's Health, or null without one. */
  readonly health?: { readonly value: number; readonly max: number } | null;
  /** Its token on the viewed scene can be found (pan, ping). */
  readonly onScene?: boolean;
  /** An attack card waits on its defence. */
  readonly defenceWaiting?: boolean;
  /** The attacks its character's items make, when the viewing user owns it (the acting row offers the declared one). */
  readonly attacks?: readonly AttackItem[];
}

/** Everything the tracker's context is built from. */
export interface TrackerInput {
  readonly isGM: boolean;
  readonly combat: { readonly id: string; readonly started: boolean; readonly system: CombatSystemData } | null;
  /** In tracker order. */
  readonly combatants: readonly TrackerCombatantInput[];
  readonly settings: TurnSettingsInput;
  /** The Judge's "back one step": the turn's history as the GM's record holds it (absent for players). */
  readonly history?: { readonly steps: number; readonly phase: TurnPhase; readonly turn: number; readonly cause: "advance" | "done"; readonly name: string | null } | null;
  /** This user folded the phase hint and the waiting list (a client setting). */
  readonly hintFolded?: boolean;
}


export interface PhaseStep {
  readonly key: TurnPhase;
  /** 1 … 6, as the rules number the steps. */
  readonly number: number;
  readonly label: string;
  readonly state: "done" | "current" | "todo";
}

export interface TrackerStatus {
  readonly key: string;
  readonly label: string;
}

export interface TrackerRow {
  readonly id: string;
  readonly name: string;
  readonly img: string;
  readonly css: string;
  readonly active: boolean;
  readonly initiative: string;
  /** The declaration as this user may see it. */
  readonly declaration: {
    readonly text: string;
    readonly pick: string | null;
    readonly actions: number;
    /** Shown in full; declared but secret from this user (an NPC's, to players); not declared. */
    readonly shown: boolean;
    readonly secret: boolean;
    readonly none: boolean;
  };
  readonly actionsLeft: number;
  readonly actionsAllowed: number;
  /** The shift on its next action, as "−1" / "+1", or "" for none. */
  readonly actionShift: string;
  /** Each of those shifts with its reason ("−1 separate action, −2 declared dodge"), for the tooltip; "" for none. */
  readonly actionShiftReasons: string;
  /** A flurry's damage shift, or "". */
  readonly damageShift: string;
  readonly freeDefencesLeft: number;
  /** The shift on its next defence (Table 22), or "" within the free defences. */
  readonly nextDefence: string;
  /** The declared dodge's shift on attacks on it, or "" (none or not yet rolled). */
  readonly dodgeShift: string;
  /** The extra-action roll, for those who asked; `failed` once it failed, `badge` the folded row's short form ("×2"). */
  readonly extra: { readonly wanted: number; readonly required: string; readonly result: string | null; readonly mode: string | null; readonly failed: boolean; readonly badge: string } | null;
  readonly statuses: readonly TrackerStatus[];
  readonly dying: boolean;
  readonly aided: boolean;
  /** The user's own able character that would give first aid on this row ("" when none). */
  readonly aiderId: string;
  /** After a passed extra-action roll, the choice this user may make (empty otherwise); the chosen one is active. */
  readonly modeChoices: readonly { readonly mode: string; readonly label: string; readonly active: boolean }[];
  /** What this user may press on this row. */
  readonly can: {
    readonly declare: boolean;
    readonly chooseMode: boolean;
    readonly rollInitiative: boolean;
    readonly complete: boolean;
    readonly change: boolean;
    readonly aid: boolean;
    /** A player's first aid on another's dying or stunned character (the GM's router and the rules decide). */
    readonly firstAid: boolean;
  };
  /** actionsUsed, sent with "done"/"change" so a replayed click changes nothing. */
  readonly actionIndex: number;
  /** The one-line declaration of the compact row (its full text in the tooltip and the details). */
  readonly summary: string;
  /** The Health bar: exact for the Judge and owners, a band for others (HEALTH_SHOWN_TO_OTHERS), null when not shown. */
  /** `label` names Health (the bar's label and tooltip); `text` is the value alone, under the row's own Health heading. */
  readonly health: { readonly band: string; readonly percent: number; readonly label: string; readonly text: string } | null;
  /** An attack card waits on this combatant's defence. */
  readonly defenceWaiting: boolean;
  readonly hidden: boolean;
  readonly defeated: boolean;
  /** The row's most pressing button for this user (shown on the compact row), or null. */
  readonly primary: { readonly action: string; readonly label: string } | null;
  /** The acting combatant's declared attack, one click from its row (the item's attack dialog), for the users who command it; or null. */
  readonly attack: { readonly itemUuid: string; readonly label: string } | null;
  /** The details start open (a choice waits on this user there). */
  readonly open: boolean;
  /** Core's controls, for this user: hide and defeated (the Judge), ping and find (the token on the scene). */
  readonly controls: { readonly hide: boolean; readonly defeated: boolean; readonly ping: boolean };
  /** The declare button's action: one combatant's, or a group's (one declaration for every member). */
  readonly declareAction: "caseDeclare" | "caseDeclareGroup";
  /** A group of minor foes shown as this one row (outside the acting phases), or null. */
  readonly group: { readonly count: number; readonly memberIds: string; readonly members: readonly { readonly name: string; readonly health: string | null }[] } | null;
}

export interface TrackerContext {
  readonly hasCombat: boolean;
  readonly started: boolean;
  readonly isGM: boolean;
  readonly combatId: string;
  readonly turnNumber: number;
  readonly phase: TurnPhase;
  readonly phaseLabel: string;
  readonly phaseHint: string;
  readonly steps: readonly PhaseStep[];
  readonly round: number;
  readonly roundLabel: string | null;
  /** Who the phase waits for, as a sentence ("" when nobody). */
  readonly waiting: string | null;
  /** The advance button (GM): its label, and whether moving on forgoes something (asks first). */
  readonly advance: { readonly label: string; readonly force: boolean; readonly blockedByRolls: boolean } | null;
  readonly current: { readonly id: string; readonly name: string } | null;
  /** The viewing user commands the combatant acting now. */
  readonly myTurn: boolean;
  readonly rows: readonly TrackerRow[];
  readonly events: readonly string[];
  readonly canNoteEvent: boolean;
  /** The Judge's "back one step": what it goes back to, or null when there is nothing to go back to. */
  readonly back: { readonly steps: number; readonly label: string } | null;
  /** The Judge's bulk declare: for the NPCs who may declare now, and "repeat last turn's". */
  readonly bulkDeclare: boolean;
  /** The phase hint and the waiting list are folded to one line (remembered per user). */
  readonly hintFolded: boolean;
}

/** The localisation keys the tracker builds at run time, by family (tested against en.json). */
export const TRACKER_KEY_PREFIXES = {
  phase: "CASE.Turn.Phase.",
  phaseHint: "CASE.Turn.PhaseHint.",
  advance: "CASE.Turn.Advance.",
  kind: "CASE.Turn.Kind.",
  mode: "CASE.Turn.Mode.",
  status: "CASE.Turn.Status.",
  health: "CASE.Tracker.Health.",
} as const;

const PHASE_LABEL = (p: TurnPhase): string => `${TRACKER_KEY_PREFIXES.phase}${p}`;
const PHASE_HINT = (p: TurnPhase): string => `${TRACKER_KEY_PREFIXES.phaseHint}${p}`;

/** The statuses a row shows, as [key, localisation key, data]. */
export function statusKeys(c: CombatantTurn): [string, string, Record<string, number>][] {
  const out: [string, string, Record<string, number>][] = [];
  const status = TRACKER_KEY_PREFIXES.status;
  if (c.dead) out.push(["dead", `${status}dead`, {}]);
  else if (c.dying) out.push(["dying", `${status}${c.aided ? "aided" : "dying"}`, {}]);
  if (c.unconscious && !c.dead) out.push(["unconscious", `${status}unconscious`, {}]);
  if (c.stunTurns > 0) out.push(["stunned", `${status}stunned`, { turns: c.stunTurns }]);
  if (c.stunPending > 0) out.push(["stunNext", `${status}stunNext`, { turns: c.stunPending }]);
  if (c.hold !== "none") out.push([c.hold, `${status}${c.hold}`, {}]);
  if (c.lostTurn) out.push(["lostTurn", `${status}lostTurn`, {}]);
  if (c.dodge !== null) out.push(["dodging", `${status}dodging`, {}]);
  if (c.defeated) out.push(["defeated", `${status}defeated`, {}]);
  return out;
}

function pickKey(c: CombatantTurn): string | null {
  const d = c.declaration;
  if (!d || d.kind === null) return null;
  if (d.kind === "attack" && d.attack !== null) return `CASE.Attack.${d.attack}`;
  if (d.kind === "defence" && d.defence !== null) return `CASE.Defence.${d.defence}`;
  return `${TRACKER_KEY_PREFIXES.kind}${d.kind}`;
}

function waitingLabel(waiting: readonly Waiting[], names: ReadonlyMap<string, string>, visible: (id: string) => boolean, t: Localize): string | null {
  if (waiting.length === 0) return null;
  const all = [...new Set(waiting.map((w) => w.id))];
  const shown = all.filter(visible);
  const list = shown
    .slice(0, 6)
    .map((id) => names.get(id) ?? id)
    .join(", ");
  const more = all.length - Math.min(shown.length, 6);
  if (list === "") return t("CASE.Turn.WaitingHidden", { more });
  return more > 0 ? t("CASE.Turn.WaitingMore", { names: list, more }) : t("CASE.Turn.Waiting", { names: list });
}

function localizeOrNull(key: string | null, t: Localize): string | null {
  return key === null ? null : t(key);
}

/** Builds the tracker's context. Throws only on data the rules cannot read at all. */
export function buildTrackerContext(input: TrackerInput, t: Localize): TrackerContext {
  const combat = input.combat;
  if (!combat) {
    return {
      hasCombat: false,
      started: false,
      isGM: input.isGM,
      combatId: "",
      turnNumber: 0,
      phase: "declare",
      phaseLabel: t(PHASE_LABEL("declare")),
      phaseHint: t(PHASE_HINT("declare")),
      steps: [],
      round: 0,
      roundLabel: null,
      waiting: null,
      advance: null,
      current: null,
      myTurn: false,
      rows: [],
      events: [],
      canNoteEvent: false,
      back: null,
      bulkDeclare: false,
      hintFolded: input.hintFolded === true,
    };
  }
  const state: TurnState = turnStateFrom(combat.system, input.combatants, input.settings);
  const phase = state.combat.phase;
  const phaseIndex = TURN_PHASES.indexOf(phase);
  const currentId = currentCombatantId(state);
  const byId = new Map(input.combatants.map((c) => [c.id, c]));
  const names = new Map(input.combatants.map((c) => [c.id, c.name]));
  const visible = (id: string): boolean => input.isGM || byId.get(id)?.hidden !== true;
  const waiting = phaseWaiting(state);
  const orderIndex = new Map(state.combat.order.map((id, i) => [id, i]));
  const phaseRules = TURN_TABLE[phase];
  const inOrder = phaseRules.acting && state.combat.order.length > 0;
  const rows: TrackerRow[] = [];
  // A player gives first aid with their first character able to act.
  const aiderId = input.isGM ? "" : (input.combatants.find((x) => x.owner && canActThisTurn(state.combatants.get(x.id) as CombatantTurn))?.id ?? "");
  for (const input_ of input.combatants) {
    if (!visible(input_.id)) continue;
    const c = state.combatants.get(input_.id) as CombatantTurn;
    const mine = input.isGM || input_.owner;
    const decl = c.declaration;
    const shown = decl !== null && (mine || !decl.secret) ? decl : null;
    const active = c.id === currentId;
    const extra = c.extra;
    const able = canActThisTurn(c);
    const can = {
      declare: mine && mayDeclare(state, c),
      chooseMode: mine && mayChooseExtraMode(state, c),
      rollInitiative: mine && waiting.some((w) => w.id === c.id && w.need === "initiativeRoll"),
      complete: mine && active,
      change: mine && mayChangeAction(state, c),
      aid: input.isGM && c.dying && !c.dead,
      firstAid: aiderId !== "" && aiderId !== c.id && needsAid(c),
    };
    const pick = shown ? localizeOrNull(pickKey(c), t) : null;
    const summary = shown ? [pick, shown.text].filter(Boolean).join(" · ") : decl !== null ? t("CASE.Turn.Declared") : t("CASE.Turn.NotDeclared");
    rows.push({
      id: c.id,
      name: input_.name,
      img: input_.img,
      css: [active ? "active" : "", input_.hidden ? "hidden" : "", able ? "" : "cannot-act", c.defeated || c.dead ? "defeated" : ""].filter(Boolean).join(" "),
      active,
      initiative: c.initiative.total === null ? "" : String(c.initiative.total),
      declaration: {
        text: shown?.text ?? "",
        pick,
        actions: shown?.actions ?? 0,
        shown: shown !== null,
        secret: shown === null && decl !== null,
        none: decl === null,
      },
      actionsLeft: actionsLeft(c),
      actionsAllowed: able ? c.actionsAllowed : 0,
      actionShift: mine ? formatSigned(actionShift(c), "") : "",
      actionShiftReasons: mine ? turnShifts(c, "toHit").map((x) => `${formatSigned(x.cs)} ${t(`CASE.TurnShift.${x.reason}`)}`).join(", ") : "",
      damageShift: mine ? formatSigned(turnShiftTotal(turnShifts(c, "damage")), "") : "",
      freeDefencesLeft: freeDefencesLeft(c),
      nextDefence: formatSigned(nextDefencePenalty(c), ""),
      dodgeShift: c.dodge?.roll != null ? formatSigned(declaredDodgeShift(c)) : "",
      extra:
        extra && mine
          ? {
              wanted: extra.wanted,
              required: t(`CASE.Color.${extra.required}`),
              result: extra.roll === null ? null : t(extra.success ? "CASE.Turn.ExtraPassed" : "CASE.Turn.ExtraFailed", { roll: extra.roll, color: t(`CASE.Color.${extra.color ?? "white"}`) }),
              mode: extra.mode === null ? null : t(`${TRACKER_KEY_PREFIXES.mode}${extra.mode}`),
              failed: extra.roll !== null && !extra.success,
              badge: t("CASE.Tracker.ExtraBadge", { actions: extra.wanted }),
            }
          : null,
      statuses: statusKeys(c).map(([key, label, data]) => ({ key, label: t(label, data) })),
      modeChoices:
        mine && extra !== null && mayChooseExtraMode(state, c)
          ? (["separate", "flurry"] as const).map((mode) => ({ mode, label: t(`${TRACKER_KEY_PREFIXES.mode}${mode}`), active: extra.mode === mode }))
          : [],
      dying: c.dying && !c.dead,
      aided: c.aided,
      aiderId,
      can,
      actionIndex: c.actionsUsed,
      summary,
      health: healthView(input_.health ?? null, mine, t),
      defenceWaiting: input_.defenceWaiting === true,
      hidden: input_.hidden,
      defeated: c.defeated || c.dead,
      primary: primaryButton(can, decl === null, t),
      attack: active && mine && able && actionsLeft(c) > 0 ? actingAttack(shown, input_.attacks ?? [], t) : null,
      open: can.chooseMode && extra?.mode == null,
      controls: { hide: input.isGM, defeated: input.isGM, ping: input_.onScene === true },
      declareAction: "caseDeclare",
      group: null,
    });
  }
  if (inOrder) rows.sort((a, b) => (orderIndex.get(a.id) ?? Infinity) - (orderIndex.get(b.id) ?? Infinity));
  // Minor foes grouped: one row per group while nobody acts (in the acting phases each member acts in turn, on its own row).
  const shownRows = phaseRules.acting ? rows : groupRows(rows, byId, input.isGM, t);
  // What may be forced past, and what blocks the Judge until it is rolled (the tracker rolls its own before leaving).
  const rolledByTracker = phaseRules.rollBeforeLeaving !== null;
  const blockedByRolls = !rolledByTracker && waiting.some((w) => !phaseRules.forcible.includes(w.need));
  const forcible = waiting.some((w) => phaseRules.forcible.includes(w.need));
  const current = currentId === null || !visible(currentId) ? null : { id: currentId, name: names.get(currentId) ?? currentId };
  return {
    hasCombat: true,
    started: combat.started,
    isGM: input.isGM,
    combatId: combat.id,
    turnNumber: state.combat.number,
    phase,
    phaseLabel: t(PHASE_LABEL(phase)),
    phaseHint: t(PHASE_HINT(phase)),
    steps: TURN_PHASES.map((key, i) => ({ key, number: i + 1, label: t(PHASE_LABEL(key)), state: i < phaseIndex ? "done" : i === phaseIndex ? "current" : "todo" })),
    round: state.combat.round,
    roundLabel: phaseRules.onlyWhenActionsDue ? t("CASE.Turn.ExtraRound", { round: state.combat.round }) : null,
    waiting: waitingLabel(waiting, names, visible, t),
    advance: input.isGM ? { label: t(`${TRACKER_KEY_PREFIXES.advance}${phase}`), force: forcible, blockedByRolls } : null,
    current,
    myTurn: current !== null && (input.isGM || byId.get(current.id)?.owner === true),
    rows: shownRows,
    events: [...state.combat.events],
    canNoteEvent: input.isGM && phaseRules.notingEvents,
    back: input.isGM && input.history ? { steps: input.history.steps, label: backLabel(input.history, t) } : null,
    bulkDeclare: input.isGM && phaseRules.declaring && input.combatants.some((x) => !x.playerOwned),
    hintFolded: input.hintFolded === true,
  };
}

/** The rows with each group of minor foes (two or more visible members) folded into its first member's row. */
function groupRows(rows: readonly TrackerRow[], inputs: ReadonlyMap<string, TrackerCombatantInput>, isGM: boolean, t: Localize): TrackerRow[] {
  const members = new Map<string, TrackerRow[]>();
  for (const row of rows) {
    const key = inputs.get(row.id)?.minorGroup;
    if (key == null) continue;
    const list = members.get(key);
    if (list) list.push(row);
    else members.set(key, [row]);
  }
  const out: TrackerRow[] = [];
  for (const row of rows) {
    const key = inputs.get(row.id)?.minorGroup;
    const group = key == null ? undefined : members.get(key);
    if (!group || group.length < 2) {
      out.push(row);
      continue;
    }
    if (group[0] !== row) continue;
    const healths = group.map((r) => inputs.get(r.id)?.health ?? null);
    const value = healths.reduce((sum, h) => sum + (h?.value ?? 0), 0);
    const max = healths.reduce((sum, h) => sum + (h?.max ?? 0), 0);
    out.push({
      ...row,
      name: t("CASE.Tracker.Group", { name: row.name, count: group.length }),
      // Groups are the Judge's (a player's minor foe is never grouped): the numbers for the Judge, a band for players.
      health: healths.every((h) => h === null) ? null : healthView({ value, max }, isGM, t),
      declareAction: "caseDeclareGroup",
      // One declaration for the group: declaring waits until no member has one.
      can: { ...row.can, declare: group.every((r) => r.can.declare) },
      primary: row.primary?.action === "caseDeclare" ? (group.every((r) => r.can.declare) ? { ...row.primary, action: "caseDeclareGroup" } : null) : row.primary,
      defenceWaiting: group.some((r) => r.defenceWaiting),
      group: { count: group.length, memberIds: group.map((r) => r.id).join(","), members: group.map((r) => ({ name: r.name, health: r.health?.label ?? null })) },
    });
  }
  return out;
}

/** The Health bar a user sees: the numbers for the Judge and owners; for others a band or nothing (HEALTH_SHOWN_TO_OTHERS). */
function healthView(health: { readonly value: number; readonly max: number } | null, mine: boolean, t: Localize): TrackerRow["health"] {
  if (health === null || !Number.isFinite(health.value) || !Number.isFinite(health.max)) return null;
  const band = healthBand(health.value, health.max);
  const bandLabel = t(`${TRACKER_KEY_PREFIXES.health}${band}`);
  if (mine) {
    const fill = health.max > 0 ? Math.min(1, Math.max(0, health.value / health.max)) : 0;
    const numbers = { value: health.value, max: health.max, band: bandLabel };
    return { band, percent: Math.round(fill * 100), label: t("CASE.Tracker.HealthExact", numbers), text: t("CASE.Tracker.HealthValue", numbers) };
  }
  if (HEALTH_SHOWN_TO_OTHERS === "none") return null;
  return { band, percent: Math.round(HEALTH_BAND_FILL[band] * 100), label: t("CASE.Tracker.HealthBand", { band: bandLabel }), text: bandLabel };
}

/** The row's most pressing button: Done, roll initiative, or declare (when not declared yet). */
function primaryButton(can: TrackerRow["can"], undeclared: boolean, t: Localize): TrackerRow["primary"] {
  if (can.complete) return { action: "caseComplete", label: t("CASE.Turn.Button.Done") };
  if (can.rollInitiative) return { action: "caseRollInitiative", label: t("CASE.Turn.Button.RollInitiative") };
  if (can.declare && undeclared) return { action: "caseDeclare", label: t("CASE.Turn.Button.Declare") };
  return null;
}

/** The acting row's attack button: the item the turn's declaration names (rules `declaredAttackItem`), or null. */
function actingAttack(declaration: Declaration | null, attacks: readonly AttackItem[], t: Localize): TrackerRow["attack"] {
  const item = declaredAttackItem(declaration, attacks);
  return item === null ? null : { itemUuid: item.itemUuid, label: t("CASE.Tracker.AttackWith", { item: item.name }) };
}

/** What "back one step" goes back to, in words. */
function backLabel(history: NonNullable<TrackerInput["history"]>, t: Localize): string {
  const phase = t(PHASE_LABEL(history.phase));
  return history.cause === "done" && history.name !== null
    ? t("CASE.Tracker.BackToDone", { name: history.name, phase, turn: history.turn })
    : t("CASE.Tracker.BackToPhase", { phase, turn: history.turn });
}

/**
 * The advance request a click on the tracker's advance button makes (`data-from`,
 * `data-force`), or null for a button that names no phase. A forcing advance is only sent after
 * the Judge confirmed it (`confirmed`).
 */
export function advanceRequest(combatId: string, dataset: Readonly<Record<string, string | undefined>>, confirmed: boolean): { combatId: string; from: TurnPhase; force: boolean } | null {
  const from = dataset.from;
  if (!isTurnPhase(from)) return null;
  const force = dataset.force === "true";
  if (force && !confirmed) return null;
  return { combatId, from, force };
}
