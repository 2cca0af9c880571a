/**
 * The CASE turn on one combat: runs the rules' steps (src/rules/turn/) on the combat's stored
 * state and writes what changed — one writer, the active GM. It also does the rolling and the
 * announcing the tracker does for the Judge, where the turn's table (rules TURN_TABLE) says:
 * the extra-action rolls on entering that phase, the NPCs' initiative in one go on entering
 * initiative, and, before initiative ends, every roll still missing, the roll-offs and the
 * declared dodges; the order as initiative ends, and the turn's summary as wrap-up ends.
 *
 * Everything Foundry-specific is behind {@link TurnHost} (FoundryTurnHost in ./foundry-host.ts
 * implements it), so this is tested with a plain host in vitest.
 */
import {
  TURN_TABLE,
  TurnError,
  advancePhase,
  applyStun,
  changeAction,
  chooseExtraMode,
  commitTurnChange,
  completeAction,
  currentCombatantId,
  declareAction,
  initiativeUnits,
  initiativeWaiting,
  isEmptyTurnChange,
  markDying,
  noteEvent,
  parseDeclaration,
  recordDefence,
  forgetDefence,
  recordDodgeRoll,
  recordExtraActionRoll,
  recordInitiativeRollOffs,
  recordInitiativeRolls,
  lastTurnDeclarations,
  mayDeclare,
  rememberTurn,
  setAided,
  stepBack,
  reviveStun,
  restoreStun,
  mayAid,
  aidTargetOf,
  canActThisTurn,
  combatantOf,
  NO_CHANGE,
  type AidVerdict,
  type Aider,
  setHold,
  type CombatantTurn,
  type Declaration,
  type DefenceCode,
  type ExtraActionMode,
  type HoldState,
  type MutableTurnState,
  type PhaseRoll,
  type TurnChange,
  type TurnHistory,
  type TurnHistoryCause,
  type TurnPhase,
  type TurnState,
} from "../../rules/index";
import { DEFENCE_KEY_MEMORY, historyFrom, storedHistory, turnStateFrom, turnWrite, type CombatantInput, type TurnWrite } from "./state";
import { SYSTEM_ID } from "../core/constants";
import { pluralKey } from "../core/format";
import type { WriteScope } from "../requests/locks";
import { type AnnouncementLine, AidRefusedError, combatLock, type ChangeActionAnswer, type DefenceAnswer, NotTurnWriterError, type TurnDie, type TurnHost, dieLine, dieTotal, totalsBy } from "./turn-host";

type Step = (state: TurnState) => TurnChange;

/** Merges successive changes into one (later values win). */
function mergeChanges(a: TurnChange, b: TurnChange): TurnChange {
  if (isEmptyTurnChange(a)) return b;
  if (isEmptyTurnChange(b)) return a;
  const combatants = new Map(a.combatants.map((c) => [c.id, c]));
  for (const c of b.combatants) combatants.set(c.id, c);
  const healing = [...(a.healing ?? []), ...(b.healing ?? [])];
  return { combat: { ...a.combat, ...b.combat }, combatants: [...combatants.values()], enduranceLosses: [...a.enduranceLosses, ...b.enduranceLosses], ...(healing.length > 0 ? { healing } : {}) };
}

/** [RULING] How many roll-off rounds the engine rolls before the tracker order decides (the rules' cap applies too). */
const ROLL_OFF_ROUNDS = 10;

export class TurnEngine {
  /** The combatants as read at the start of the step being run (for who is hidden or an NPC). */
  private inputs: ReadonlyMap<string, CombatantInput> = new Map();

  constructor(
    private readonly host: TurnHost,
    private readonly key: string,
    /** The locks of the request writing through this engine; null for an engine that only reads. */
    private readonly scope: WriteScope | null = null,
  ) {}

  /**
   * Whether a line about `id` goes to the GM only: always for a combatant the Judge hid, and
   * for an NPC's roll that reveals its (secret) declaration when `revealsDeclaration`.
   */
  private secret(id: string, revealsDeclaration: boolean): boolean {
    const input = this.inputs.get(id);
    if (input === undefined) return true;
    return input.hidden === true || (revealsDeclaration && !input.playerOwned);
  }

  /** The combat's turn now (rules shape). */
  state(): TurnState {
    const s = this.host.snapshot();
    return turnStateFrom(s.combat, s.combatants, s.settings);
  }

  // ── steps ─────────────────────────────────────────────────────────────────────────────────

  /** Declares for a combatant (the declaration's secret flag is set here: NPCs' are secret). */
  declare(combatantId: string, declaration: Declaration): Promise<TurnChange> {
    return this.run((state, inputs) => {
      const input = inputs.get(combatantId);
      const secret = input ? !input.playerOwned : true;
      return declareAction(state, combatantId, parseDeclaration({ ...declaration, secret }));
    });
  }

  /**
   * Bulk declare (the Judge, for NPCs): several declarations in one write; a combatant that may
   * not declare now refuses the whole request (nothing half-done).
   */
  declareMany(declarations: readonly { readonly combatantId: string; readonly declaration: Declaration }[]): Promise<TurnChange> {
    return this.runAsync((_state, inputs) =>
      Promise.resolve(
        declarations.map(({ combatantId, declaration }) => (s: TurnState) => declareAction(s, combatantId, parseDeclaration({ ...declaration, secret: inputs.get(combatantId)?.playerOwned !== true }))),
      ),
    );
  }

  /**
   * Repeats last turn's declarations (from the rules' history) for these combatants, where they
   * have none yet and may declare; the others are left alone. The ids repeated.
   */
  async repeatDeclarations(combatantIds: readonly string[]): Promise<string[]> {
    const repeated: string[] = [];
    await this.runAsync((state, inputs, history) => {
      const last = lastTurnDeclarations(state, history);
      const steps: Step[] = [];
      for (const id of combatantIds) {
        const c = state.combatants.get(id);
        const declaration = last.get(id);
        if (!c || !declaration || c.declaration !== null || !mayDeclare(state, c)) continue;
        repeated.push(id);
        steps.push((s) => declareAction(s, id, parseDeclaration({ ...declaration, secret: inputs.get(id)?.playerOwned !== true })));
      }
      return Promise.resolve(steps);
    }, { readHistory: true });
    return repeated;
  }

  chooseExtraMode(combatantId: string, mode: ExtraActionMode): Promise<TurnChange> {
    return this.run((state) => chooseExtraMode(state, combatantId, mode));
  }

  /** Rolls initiative for these combatants (each stands for its team's roller); those already rolled are left alone. */
  async rollInitiative(combatantIds: readonly string[]): Promise<TurnChange> {
    return this.runAsync(async (state) => {
      const units = initiativeUnits(state);
      const waiting = new Set(initiativeWaiting(state).rolls);
      const rollers = [...new Set(combatantIds.map((id) => units.find((u) => u.memberIds.includes(id))?.rollerId ?? id))].filter((id) => waiting.has(id));
      if (rollers.length === 0) return [];
      const dice = await this.host.roll("1d10", rollers.length);
      await this.announceInitiative(state, rollers, dice);
      return [(s: TurnState) => recordInitiativeRolls(s, totalsBy(rollers, dice))];
    });
  }

  /** The acting combatant is done with its action `actionIndex` (its actions used when asked). */
  completeAction(combatantId: string, actionIndex: number): Promise<TurnChange> {
    return this.runAsync(() => Promise.resolve([(s: TurnState) => completeAction(s, combatantId, actionIndex)]), { remember: { cause: "done", combatantId } });
  }

  /** How many steps the Judge can go back (the stored history's length). */
  historyLength(): number {
    return this.host.snapshot().history?.length ?? 0;
  }

  /**
   * Back one step: restores the turn as it was before the last advance or *Done*, from the
   * rules' history. `expectedLength` is the history's length the Judge saw: a replayed request
   * (the step already taken back) is stale and changes nothing.
   */
  stepBack(expectedLength: number): Promise<TurnChange> {
    return this.runAsync((state, _inputs, history) => {
      if (history.length !== expectedLength) throw new TurnError("stale", "turnHistoryChanged");
      const back = stepBack(state, history);
      return Promise.resolve([() => back.change]);
    }, { pop: true });
  }

  /** Tries to change a declared action: the GM rolls the yellow Agy (bal) ACTION. */
  async changeAction(combatantId: string, declaration: Declaration, actionIndex: number): Promise<ChangeActionAnswer> {
    let answer: ChangeActionAnswer = { roll: null, color: null, success: null };
    await this.runAsync(async (state) => {
      const c = state.combatants.get(combatantId);
      // A replay (this action's change already tried) or an impossible change fails in the rules without a roll.
      if (c?.changedAt === actionIndex || (c !== undefined && actionIndex < c.actionsUsed)) return [];
      changeAction(state, combatantId, 100, declaration, actionIndex); // validates before rolling
      const [die] = await this.host.roll("1d100", 1);
      const d100 = dieTotal(die);
      const result = changeAction(state, combatantId, d100, declaration, actionIndex);
      answer = { roll: d100, color: result.color, success: result.success };
      await this.host.announce({
        title: "CASE.Turn.Chat.ChangeTitle",
        lines: [
          {
            key: result.success ? "CASE.Turn.Chat.ChangePassed" : "CASE.Turn.Chat.ChangeFailed",
            data: { name: this.host.nameOf(combatantId), roll: d100, color: result.color ?? "" },
            secret: this.secret(combatantId, true),
            ...(die ? { die } : {}),
          },
        ],
      });
      return [() => result.change];
    });
    return answer;
  }

  /**
   * Records one defence the combatant uses (Table 22's count; Evasion/Feint/Catch take an action).
   * With a `key` (the card's step), a defence already counted under that key is not counted
   * again: the key is stored on the combatant in the same write as the count.
   */
  async recordDefence(combatantId: string, defence?: DefenceCode, key?: string): Promise<DefenceAnswer> {
    let answer: DefenceAnswer = { penalty: 0, tookAction: false };
    const mark = key === undefined ? undefined : { combatantId, key };
    await this.runAsync((_state, inputs) => {
      if (key !== undefined && inputs.get(combatantId)?.defenceKeys?.includes(key)) return Promise.resolve([]);
      return Promise.resolve([
        (s: TurnState) => {
          const r = recordDefence(s, combatantId, defence);
          answer = { penalty: r.penalty, tookAction: r.tookAction };
          return r.change;
        },
      ]);
    }, { mark });
    return answer;
  }

  /** Forgets the defence counted under `key` in turn `countedIn` (rules `forgetDefence`), once: the key leaves the memory in that write. */
  forgetDefence(combatantId: string, defence: DefenceCode, key: string, countedIn: number): Promise<TurnChange> {
    return this.runAsync((_state, inputs) => Promise.resolve(inputs.get(combatantId)?.defenceKeys?.includes(key) ? [(s: TurnState) => forgetDefence(s, combatantId, defence, countedIn)] : []), { mark: { combatantId, key, forget: true } });
  }

  applyStun(combatantId: string, turns: number): Promise<TurnChange> {
    return this.run((state) => applyStun(state, combatantId, turns));
  }

  /** Puts a stun back as it was before an undone stun (the attack card's Undo). */
  restoreStun(combatantId: string, turns: number, pending: number): Promise<TurnChange> {
    return this.run((state) => restoreStun(state, combatantId, turns, pending));
  }

  markDying(combatantId: string): Promise<TurnChange> {
    return this.run((state) => markDying(state, combatantId));
  }

  setAided(combatantId: string, aided: boolean): Promise<TurnChange> {
    return this.run((state) => setAided(state, combatantId, aided));
  }

  /**
   * First aid on `targetId` (rules first-aid.ts `mayAid`): by the Judge (`aiderId` null) or by
   * the aider's character with the facts the Foundry side read (its first aid talent, its reach).
   * Stops a dying character's loss (Aided) and, with the talent, revives a stunned one. Refused
   * with an {@link AidRefusedError} naming the rules' reason; a replay changes nothing.
   */
  async firstAid(aiderId: string | null, targetId: string, facts: { readonly hasFirstAid: boolean; readonly adjacent: boolean }): Promise<{ readonly stopsDying: boolean; readonly revived: boolean }> {
    let verdict: AidVerdict | null = null;
    await this.runAsync(() =>
      Promise.resolve([
        (state: TurnState) => {
          const t = combatantOf(state, targetId);
          const aider: Aider = aiderId === null ? { kind: "judge" } : { kind: "character", self: aiderId === targetId, canAct: canActThisTurn(combatantOf(state, aiderId)), ...facts };
          const v = mayAid(aider, aidTargetOf(t));
          if (!v.ok) throw new AidRefusedError(v.reason);
          verdict = v;
          return v.stopsDying ? setAided(state, targetId, true) : NO_CHANGE;
        },
        (state: TurnState) => (verdict?.ok === true && verdict.revived ? reviveStun(state, targetId) : NO_CHANGE),
      ]),
    );
    const v = verdict as AidVerdict | null;
    return v?.ok === true ? { stopsDying: v.stopsDying, revived: v.revived } : { stopsDying: false, revived: false };
  }

  setHold(combatantId: string, hold: HoldState): Promise<TurnChange> {
    return this.run((state) => setHold(state, combatantId, hold));
  }

  noteEvent(text: string): Promise<TurnChange> {
    return this.run((state) => noteEvent(state, text));
  }

  /**
   * Ends phase `from` and begins the next, rolling what the tracker rolls for the Judge. A
   * second request from the same phase is stale (TurnError) and changes nothing.
   */
  async advance(from: TurnPhase, force = false): Promise<TurnChange> {
    return this.runAsync(async (state, inputs) => {
      if (state.combat.phase !== from) throw new TurnError("stale", "turnAdvanced", { phase: state.combat.phase, from });
      const steps: Step[] = [];
      const scratch: MutableTurnState = { combat: state.combat, combatants: new Map(state.combatants), settings: state.settings };
      const push = (step: Step): void => {
        commitTurnChange(scratch, step(scratch));
        steps.push(step);
      };
      // The turn's table says what is rolled and announced at each edge (rules TURN_TABLE).
      const leaving = TURN_TABLE[from];
      if (leaving.rollBeforeLeaving) await this.rollFor(leaving.rollBeforeLeaving, scratch, push, inputs);
      const advance = advancePhase(scratch, from, { force });
      push(() => advance);
      const entered = TURN_TABLE[scratch.combat.phase];
      if (entered.rollOnEntry) await this.rollFor(entered.rollOnEntry, scratch, push, inputs);
      if (leaving.announceOnLeaving === "turnSummary") await this.announceWrapUp(state, advance);
      if (leaving.announceOnLeaving === "initiativeOrder") await this.announceOrder(scratch);
      return steps;
    }, { remember: { cause: "advance", combatantId: null } });
  }

  // ── the engine's own rolling ──────────────────────────────────────────────────────────────

  /** Rolls what the turn's table names for a phase's edge. */
  private rollFor(roll: PhaseRoll, scratch: MutableTurnState, push: (s: Step) => void, inputs: ReadonlyMap<string, CombatantInput>): Promise<void> {
    switch (roll) {
      case "extraActionRolls":
        return this.rollExtraActions(scratch, push);
      case "npcInitiative":
        return this.rollNpcInitiative(scratch, push, inputs);
      case "missingInitiative":
        return this.finishInitiative(scratch, push);
    }
  }

  private async rollExtraActions(scratch: MutableTurnState, push: (s: Step) => void): Promise<void> {
    const pending = [...scratch.combatants.values()].filter((c) => c.extra !== null && c.extra.roll === null);
    if (pending.length === 0) return;
    const dice = await this.host.roll("1d100", pending.length);
    const lines: AnnouncementLine[] = [];
    pending.forEach((c, i) => {
      const die = dice[i];
      const d100 = dieTotal(die);
      push((s) => recordExtraActionRoll(s, c.id, d100));
      const after = scratch.combatants.get(c.id) as CombatantTurn;
      lines.push({
        key: after.extra?.success ? "CASE.Turn.Chat.ExtraPassed" : "CASE.Turn.Chat.ExtraFailed",
        data: { name: this.host.nameOf(c.id), actions: c.extra?.wanted ?? 0, required: c.extra?.required ?? "", roll: d100, color: after.extra?.color ?? "" },
        secret: this.secret(c.id, true),
        ...(die ? { die } : {}),
      });
    });
    await this.host.announce({ title: "CASE.Turn.Chat.ExtraTitle", lines });
  }

  private async rollNpcInitiative(scratch: MutableTurnState, push: (s: Step) => void, inputs: ReadonlyMap<string, CombatantInput>): Promise<void> {
    const npcRollers = initiativeWaiting(scratch).rolls.filter((id) => inputs.get(id)?.playerOwned !== true);
    if (npcRollers.length === 0) return;
    const dice = await this.host.roll("1d10", npcRollers.length);
    await this.announceInitiative(scratch, npcRollers, dice);
    push((s) => recordInitiativeRolls(s, totalsBy(npcRollers, dice)));
  }

  /** Before leaving initiative: the rolls still missing, the roll-offs, the declared dodges. */
  private async finishInitiative(scratch: MutableTurnState, push: (s: Step) => void): Promise<void> {
    const missing = initiativeWaiting(scratch).rolls;
    if (missing.length > 0) {
      const dice = await this.host.roll("1d10", missing.length);
      await this.announceInitiative(scratch, missing, dice);
      push((s) => recordInitiativeRolls(s, totalsBy(missing, dice)));
    }
    for (let round = 0; round < ROLL_OFF_ROUNDS; round++) {
      const tied = initiativeWaiting(scratch).rollOffs.flat();
      if (tied.length === 0) break;
      const dice = await this.host.roll("1d10", tied.length);
      await this.host.announce({
        title: "CASE.Turn.Chat.RollOffTitle",
        lines: tied.map((id, i) => dieLine({ key: "CASE.Turn.Chat.RollOff", data: { name: this.host.nameOf(id), roll: dieTotal(dice[i]) }, secret: this.secret(id, false) }, dice[i])),
      });
      push((s) => recordInitiativeRollOffs(s, totalsBy(tied, dice)));
    }
    const dodgers = initiativeWaiting(scratch).dodges;
    if (dodgers.length > 0) {
      const dice = await this.host.roll("1d100", dodgers.length);
      const lines: AnnouncementLine[] = [];
      dodgers.forEach((id, i) => {
        const d100 = dieTotal(dice[i]);
        push((s) => recordDodgeRoll(s, id, d100));
        const dodge = scratch.combatants.get(id)?.dodge;
        lines.push(dieLine({ key: "CASE.Turn.Chat.Dodge", data: { name: this.host.nameOf(id), roll: d100, color: dodge?.color ?? "", shift: dodge?.shift ?? 0 }, secret: this.secret(id, true) }, dice[i]));
      });
      await this.host.announce({ title: "CASE.Turn.Chat.DodgeTitle", lines });
    }
  }

  private async announceInitiative(state: TurnState, rollers: readonly string[], dice: readonly TurnDie[]): Promise<void> {
    const units = initiativeUnits(state);
    await this.host.announce({
      title: "CASE.Turn.Chat.InitiativeTitle",
      lines: rollers.map((id, i) => {
        const unit = units.find((u) => u.rollerId === id);
        const d10 = dieTotal(dice[i]);
        const modifier = unit?.modifier ?? 0;
        return dieLine({ key: "CASE.Turn.Chat.Initiative", data: { name: this.host.nameOf(id), roll: d10, modifier, total: d10 + modifier }, secret: this.secret(id, false) }, dice[i]);
      }),
    });
  }

  private async announceOrder(state: TurnState): Promise<void> {
    await this.host.announce({
      title: "CASE.Turn.Chat.OrderTitle",
      lines: state.combat.order.map((id, i) => ({
        key: "CASE.Turn.Chat.OrderLine",
        data: { place: i + 1, name: this.host.nameOf(id), total: state.combatants.get(id)?.initiative.total ?? "\u2014" },
        secret: this.secret(id, false),
      })),
    });
  }

  private async announceWrapUp(before: TurnState, change: TurnChange): Promise<void> {
    const lines: AnnouncementLine[] = before.combat.events.map((text) => ({ key: "CASE.Turn.Chat.Event", data: { text }, secret: false }));
    for (const loss of change.enduranceLosses) {
      lines.push({ key: loss.dead ? "CASE.Turn.Chat.Died" : "CASE.Turn.Chat.EnduranceLoss", data: { name: this.host.nameOf(loss.id), from: loss.from, to: loss.to }, secret: this.secret(loss.id, false) });
    }
    for (const h of change.healing ?? []) {
      lines.push({ key: "CASE.Turn.Chat.Regenerates", data: { name: this.host.nameOf(h.id), amount: h.amount }, secret: this.secret(h.id, false) });
    }
    for (const c of change.combatants) {
      if (c.stunTurns > 0) lines.push({ key: pluralKey("CASE.Turn.Chat.Stunned.", c.stunTurns), data: { name: this.host.nameOf(c.id), turns: c.stunTurns }, secret: this.secret(c.id, false) });
    }
    await this.host.announce({ title: "CASE.Turn.Chat.WrapUpTitle", lines: [{ key: "CASE.Turn.Chat.TurnEnds", data: { turn: before.combat.number }, secret: false }, ...lines] });
  }

  // ── running steps ─────────────────────────────────────────────────────────────────────────

  private run(step: (state: TurnState, inputs: ReadonlyMap<string, CombatantInput>) => TurnChange): Promise<TurnChange> {
    return this.runAsync((_state, inputs) => Promise.resolve([(s: TurnState) => step(s, inputs)]));
  }

  /**
   * Reads the combat, lets `plan` decide the steps (it may roll and announce), applies them in
   * order to an in-memory copy, and writes the merged change once. Nothing is written when the
   * change is empty (a replayed request) or when a step throws (nothing half-done). With
   * `remember`, the turn before the change joins the history (back one step); with `pop`, the
   * newest entry leaves it (it was just restored).
   */
  private async runAsync(
    plan: (state: TurnState, inputs: ReadonlyMap<string, CombatantInput>, history: TurnHistory) => Promise<Step[]>,
    options: { readonly mark?: DefenceMark | undefined; readonly remember?: { readonly cause: TurnHistoryCause; readonly combatantId: string | null }; readonly pop?: true; readonly readHistory?: true } = {},
  ): Promise<TurnChange> {
    if (!this.host.isWriter()) throw new NotTurnWriterError();
    if (!this.scope) throw new Error(`The turn of combat ${this.key} is written only inside a request that holds its lock (${combatLock(this.key)}).`);
    this.scope.require(combatLock(this.key));
    const snapshot = this.host.snapshot();
    const inputs = new Map(snapshot.combatants.map((c) => [c.id, c]));
    this.inputs = inputs;
    const state = turnStateFrom(snapshot.combat, snapshot.combatants, snapshot.settings);
    const history = options.remember || options.pop || options.readHistory ? historyFrom(snapshot.history, inputs, snapshot.settings) : [];
    const steps = await plan(state, inputs, history);
    const scratch: MutableTurnState = { combat: state.combat, combatants: new Map(state.combatants), settings: state.settings };
    let change: TurnChange = { combat: {}, combatants: [], enduranceLosses: [] };
    for (const step of steps) {
      const next = step(scratch);
      commitTurnChange(scratch, next);
      change = mergeChanges(change, next);
    }
    const nextHistory = options.pop ? history.slice(0, -1) : options.remember && !isEmptyTurnChange(change) ? rememberTurn(history, state, change, options.remember.cause, options.remember.combatantId) : null;
    if (isEmptyTurnChange(change) && nextHistory === null) return change;
    const write = markWrite(turnWrite(change, inputs, state), inputs, options.mark);
    await this.host.write(nextHistory === null ? write : { ...write, history: storedHistory(nextHistory, inputs) }, { round: scratch.combat.number, currentId: currentCombatantId(scratch) });
    return change;
  }
}

type DefenceMark = { readonly combatantId: string; readonly key: string; readonly forget?: true };
/** The write with `mark`'s key added to (or dropped from) its combatant's remembered defence keys (in the same update). */
function markWrite(write: TurnWrite, inputs: ReadonlyMap<string, CombatantInput>, mark: DefenceMark | undefined): TurnWrite {
  if (!mark) return write;
  const known = inputs.get(mark.combatantId)?.defenceKeys ?? [];
  const keys = mark.forget ? known.filter((k) => k !== mark.key) : [...known, mark.key].slice(-DEFENCE_KEY_MEMORY);
  return { ...write, combatants: write.combatants.map((c) => (c._id === mark.combatantId ? { ...c, flags: { [SYSTEM_ID]: { defenceKeys: keys } } } : c)) };
}
