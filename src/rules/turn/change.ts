/**
 * What a step of the turn changes, and how: a {@link Draft} a step builds its change on without
 * touching the state, the change itself, and its commit; with the cursor moves every acting
 * step shares.
 */
import { type Mutable, assignOwn, combatWith, combatantCopy, fieldsThatDiffer, hasOwnKeys } from "./copy";
import { TurnError, type TurnPhase, isActingPhase } from "./phases";
import { type CombatTurn, type CombatantTurn, type EnduranceLoss, type HealthRegained, type MutableTurnState, type TurnChange, type TurnState, isDue } from "./state";

// ── Changes ───────────────────────────────────────────────────────────────────────────────────
/** The empty parts of a change, shared (a change is read-only: nobody adds to them). */
export const NO_FIELDS: Partial<CombatTurn> = Object.freeze({});
export const NO_COMBATANTS: readonly CombatantTurn[] = Object.freeze([]);
export const NO_LOSSES: readonly EnduranceLoss[] = Object.freeze([]);

/**
 * Builds a change against a state without touching it. A step changes a combatant on a copy
 * ({@link Draft.edit}) that it sets field by field; the copies are frozen when the change is
 * made. So a step makes one copy per combatant it changes, however many fields it sets.
 */
export class Draft {
  /** The copies of the combatants changed, in the order first changed; frozen and handed out by {@link change}. */
  private readonly copies: Mutable<CombatantTurn>[] = [];
  /**
   * Each copy's place in `copies` by id, made only when a step with more than one copy looks
   * one up: a pass over every combatant ({@link editNew}) never does, and a map of ten thousand
   * ids per pass was a good share of a turn's garbage.
   */
  private at: Map<string, number> | null = null;
  /** The combat fields the step set, whether or not they differ from the state's (made at the first). */
  private combatSet: Record<string, unknown> | null = null;
  /** Endurance lost and Health regained at wrap-up; made only by the step that has some (most steps have none). */
  private losses: EnduranceLoss[] | null = null;
  private healing: HealthRegained[] | null = null;

  constructor(readonly state: TurnState) {}

  /** The place in `copies` of the copy of `id`, if the step made one. */
  private placeOf(id: string): number | undefined {
    const copies = this.copies;
    if (copies.length === 0) return undefined;
    if (copies.length === 1) return (copies[0] as CombatantTurn).id === id ? 0 : undefined;
    if (this.at === null) {
      this.at = new Map();
      for (let i = 0; i < copies.length; i++) this.at.set((copies[i] as CombatantTurn).id, i);
    }
    return this.at.get(id);
  }

  /** The combatant `id` as the step has it so far. */
  get(id: string): CombatantTurn | undefined {
    const i = this.placeOf(id);
    return i === undefined ? this.state.combatants.get(id) : this.copies[i];
  }

  /** `c` as the step has it so far: its copy when the step changed it, else `c` (no lookup while the step has changed nobody). */
  current(c: CombatantTurn): CombatantTurn {
    const i = this.placeOf(c.id);
    return i === undefined ? c : (this.copies[i] as CombatantTurn);
  }

  /**
   * The step's copy of `c` to set fields on: `c` itself when it is already this step's copy
   * (read back through {@link get}), else a new copy of `c` ({@link combatantCopy}) that replaces
   * every earlier copy of the same combatant — as a spread of `c` would.
   */
  edit(c: CombatantTurn): Mutable<CombatantTurn> {
    const copies = this.copies;
    if (copies[copies.length - 1] === c) return c;
    const i = this.placeOf(c.id);
    if (i !== undefined && copies[i] === c) return c;
    const copy = combatantCopy(c);
    if (i !== undefined) copies[i] = copy;
    else this.add(copy);
    return copy;
  }

  /** True while the step has changed no combatant: a pass over the state's combatants, each once, may then use {@link editNew}. */
  get changedNobody(): boolean {
    return this.copies.length === 0;
  }

  /**
   * {@link edit} for a combatant the step has not changed yet, which the caller knows (a pass
   * over the state's combatants, each once, begun while {@link changedNobody}): no lookup by id.
   */
  editNew(c: CombatantTurn): Mutable<CombatantTurn> {
    const copy = combatantCopy(c);
    this.add(copy);
    return copy;
  }

  private add(copy: Mutable<CombatantTurn>): void {
    this.at?.set(copy.id, this.copies.length);
    this.copies.push(copy);
  }

  /** Sets `fields` on the step's copy of `c` ({@link edit}): the change holds `Object.freeze({ ...c, ...fields })`. */
  put(c: CombatantTurn, fields: Partial<CombatantTurn>): CombatantTurn {
    return assignOwn(this.edit(c), fields);
  }

  lose(loss: EnduranceLoss): void {
    (this.losses ??= []).push(loss);
  }

  heal(healing: HealthRegained): void {
    (this.healing ??= []).push(healing);
  }

  /** The combat's field `key` as the step has it so far (without copying the combat part). */
  combatField<K extends keyof CombatTurn>(key: K): CombatTurn[K] {
    const set = this.combatSet;
    return set !== null && Object.prototype.hasOwnProperty.call(set, key) ? (set[key] as CombatTurn[K]) : this.state.combat[key];
  }

  setCombat(fields: Partial<CombatTurn>): void {
    const set = (this.combatSet ??= {});
    for (const key in fields) if (Object.prototype.hasOwnProperty.call(fields, key)) set[key] = fields[key as keyof CombatTurn];
  }

  change(): TurnChange {
    const copies = this.copies;
    for (let i = 0; i < copies.length; i++) Object.freeze(copies[i]);
    const combatants: readonly CombatantTurn[] = copies.length === 0 ? NO_COMBATANTS : copies;
    // Only what differs from the state, so an edit undone within a step is no change.
    const fields = this.combatSet === null ? NO_FIELDS : fieldsThatDiffer(this.state.combat, this.combatSet);
    const combat = fields === NO_FIELDS || !hasOwnKeys(fields) ? NO_FIELDS : Object.freeze(fields);
    const change: TurnChange = { combat, combatants, enduranceLosses: this.losses ?? NO_LOSSES };
    return this.healing === null ? change : { ...change, healing: this.healing };
  }
}

/** The change of a step that changed one combatant and nothing else: its copy `next`, frozen (what a {@link Draft} with that one edit makes). */
export function changeOf(next: Mutable<CombatantTurn>): TurnChange {
  return { combat: NO_FIELDS, combatants: [Object.freeze(next)], enduranceLosses: NO_LOSSES };
}

/** The change that changes nothing. */
export const NO_CHANGE: TurnChange = Object.freeze({ combat: NO_FIELDS, combatants: NO_COMBATANTS, enduranceLosses: NO_LOSSES });

/** True when `change` changes nothing. */
export function isEmptyTurnChange(change: TurnChange): boolean {
  return !hasOwnKeys(change.combat) && change.combatants.length === 0 && change.enduranceLosses.length === 0 && (change.healing?.length ?? 0) === 0;
}

/** Applies `change` to a state the caller owns, in place: O(size of the change). */
export function commitTurnChange(state: MutableTurnState, change: TurnChange): void {
  if (hasOwnKeys(change.combat)) state.combat = Object.freeze(combatWith(state.combat, change.combat));
  // An index, not for-of: for-of over a frozen array (NO_CHANGE's) made V8 iterate every change the slow way.
  const { combatants } = change;
  for (let i = 0; i < combatants.length; i++) {
    const c = combatants[i] as CombatantTurn;
    state.combatants.set(c.id, c);
  }
}

/** The state after `change`, as a new state (`state` is not touched): O(n). */
export function withTurnChange(state: TurnState, change: TurnChange): TurnState {
  const combatants = new Map(state.combatants);
  for (const c of change.combatants) combatants.set(c.id, c);
  return { combat: Object.freeze({ ...state.combat, ...change.combat }), combatants, settings: state.settings };
}

/** TurnError("wrongPhase") unless the turn is in one of `phases` (a stale refusal: it shows no text, the phases say enough for the logs). */
export function assertPhase(state: TurnState, phases: readonly TurnPhase[]): void {
  if (!phases.includes(state.combat.phase)) {
    throw new TurnError("wrongPhase", "turnWrongPhase", { phases: phases.join(", "), phase: state.combat.phase });
  }
}

/**
 * The first combatant due at or after `from` in `round` of `order`, each read as the step has it:
 * the step's `draft` when it has one, else the state's `combatants` with `changed` (the one
 * combatant the step changed) in place of its old part. In the extra rounds, when a round runs
 * out and someone is due in the next, the walk goes on from the start of that round; nobody due:
 * the cursor stops at the end of the order. The answer is one number, not an object per action
 * (the acting steps run thousands of times a turn): the cursor when it stays in `round`, or
 * `-1 - cursor` when it goes on into the next round ({@link settledCursor}, {@link settledRound}).
 *
 * The next round is looked for once, from its start, and its first due combatant is where the
 * cursor goes (the walk once asked whether anyone was due and then walked the same way again).
 */
function settle(order: readonly string[], phase: TurnPhase, round: number, from: number, draft: Draft | null, combatants: ReadonlyMap<string, CombatantTurn>, changed: CombatantTurn | null): number {
  for (let i = from; i < order.length; i++) if (isDue(read(order[i] as string, draft, combatants, changed), round)) return i;
  if (phase === "extraRounds") {
    for (let i = 0; i < order.length; i++) if (isDue(read(order[i] as string, draft, combatants, changed), round + 1)) return -1 - i;
  }
  return order.length;
}

/** The cursor of a {@link settle} answer. */
function settledCursor(spot: number): number {
  return spot < 0 ? -1 - spot : spot;
}

/** The round of a {@link settle} answer walked from `round`. */
function settledRound(spot: number, round: number): number {
  return spot < 0 ? round + 1 : round;
}

/** The combatant `id` as {@link settle} reads it (a function, not a closure: one per action was garbage). */
function read(id: string, draft: Draft | null, combatants: ReadonlyMap<string, CombatantTurn>, changed: CombatantTurn | null): CombatantTurn | undefined {
  if (draft !== null) return draft.get(id);
  return changed !== null && id === changed.id ? changed : combatants.get(id);
}

/**
 * Moves the cursor to the first combatant due at or after `from` in the current round. In the
 * extra rounds, when a round runs out and someone still has actions, the next round begins.
 */
export function settleCursor(draft: Draft, from: number): void {
  const round = draft.combatField("round");
  const spot = settle(draft.combatField("order"), draft.combatField("phase"), round, from, draft, draft.state.combatants, null);
  draft.setCombat({ cursor: settledCursor(spot), round: settledRound(spot, round) });
}

/**
 * The change of an acting step that changed one combatant, `next` (not yet frozen), and moves the
 * cursor on from `from` ({@link settleCursor}): what a {@link Draft} with that edit and that
 * cursor move makes, without the Draft (the step every action of a turn takes).
 */
export function changeAndSettle(state: TurnState, next: Mutable<CombatantTurn>, from: number): TurnChange {
  Object.freeze(next);
  const combat = state.combat;
  const spot = settle(combat.order, combat.phase, combat.round, from, null, state.combatants, next);
  const cursor = settledCursor(spot);
  const round = settledRound(spot, combat.round);
  let fields: Partial<CombatTurn> = NO_FIELDS;
  // As the Draft's change: the fields set (cursor, then round) that differ from the state's.
  if (cursor !== combat.cursor) fields = round !== combat.round ? { cursor, round } : { cursor };
  else if (round !== combat.round) fields = { round };
  return { combat: fields === NO_FIELDS ? NO_FIELDS : Object.freeze(fields), combatants: [next], enduranceLosses: NO_LOSSES };
}

/** True when someone in `order` is due in `round`. */
export function anyDue(draft: Draft, order: readonly string[], round: number): boolean {
  for (let i = 0; i < order.length; i++) if (isDue(draft.get(order[i] as string), round)) return true;
  return false;
}

/** After a change to `id`, move the cursor on if `id` was the one acting and is no longer due. */
export function resettleIfCurrent(draft: Draft, id: string): void {
  const cursor = draft.combatField("cursor");
  if (isActingPhase(draft.combatField("phase")) && draft.combatField("order")[cursor] === id) settleCursor(draft, cursor);
}
