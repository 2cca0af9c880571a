/**
 * What a rolled Slam?, Stun? or Kill? check writes on the target, and how the card's Undo takes
 * it back. Before a check writes anything, the GM notes in the card's record (never a document
 * a player may write: card-store.ts `journalStep`) how the target stood: its conditions, its
 * lost Endurance ranks, its stun in the turn, its token's square. Undo reads those notes and
 * the card, and puts each thing back as a state (not a toggle), so a GM taking over half-way
 * through finishes it and nothing is done twice.
 */
import { TurnError, targetOf, type DefenceCode, type ExchangeState, type UndoPlan } from "../../rules/index";
import { ledgerEntry, writeOnce } from "../actor-writes";
import { SYSTEM_ID } from "../core/constants";
import { isCharacter } from "../core/guards";
import { setStatus, clearStatus, statusDetails, type CaseStatus, type StatusDetails } from "../status-effects";
import type { CombatBridge } from "../combat/bridge";
import type { WriteScope } from "../requests/locks";
import { journalStep, type LoadedCard } from "./card-store";
import { tokenLock } from "./slam-move";
import { caseFlag } from "../core/flags";

/** What the writers here need of the request: its lock scope (they take no lock) and the turn's bridge. */
export interface EffectContext {
  readonly scope: WriteScope;
  readonly services: { readonly combat: CombatBridge };
}

export type Check = "slam" | "stun" | "kill";

/** How the target stood before a check's effects (the GM's note of the step). */
export interface CheckBefore {
  readonly lost: number;
  readonly stunned: StatusDetails | null;
  readonly slammed: StatusDetails | null;
  readonly dying: StatusDetails | null;
  readonly dead: boolean;
  readonly turnStun: { readonly turns: number; readonly pending: number } | null;
  /** The target's token's position (pixels), when the row is a token. */
  readonly token: { readonly x: number; readonly y: number } | null;
}

interface PositionedToken {
  readonly x: number;
  readonly y: number;
  readonly flags: Record<string, unknown>;
  update(data: Record<string, unknown>): Promise<unknown>;
}

function isPositionedToken(doc: unknown): doc is PositionedToken {
  return doc instanceof TokenDocument;
}

/** Reads how the target stands now, for a check's note. */
export async function checkBefore(bridge: CombatBridge, actor: Actor.Implementation, tokenUuid: string): Promise<CheckBefore> {
  const doc: unknown = await fromUuid(tokenUuid);
  return {
    lost: isCharacter(actor) ? actor.system.lostEnduranceRanks : 0,
    stunned: statusDetails(actor, "stunned"),
    slammed: statusDetails(actor, "slammed"),
    dying: statusDetails(actor, "dying"),
    dead: actor.statuses.has(CONFIG.specialStatusEffects.DEFEATED),
    turnStun: await bridge.stunOf(actor),
    token: isPositionedToken(doc) ? { x: doc.x, y: doc.y } : null,
  };
}

function detailsOf(value: unknown): StatusDetails | null {
  return typeof value === "object" && value !== null ? value : null;
}

function countOf(value: unknown): number {
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}

/** A note's data read back (a missing or malformed field as "nothing there"). */
export function readCheckBefore(data: Record<string, unknown>): CheckBefore {
  const turnStun = detailsOf(data.turnStun) as { turns?: unknown; pending?: unknown } | null;
  const token = detailsOf(data.token) as { x?: unknown; y?: unknown } | null;
  return {
    lost: countOf(data.lost),
    stunned: detailsOf(data.stunned),
    slammed: detailsOf(data.slammed),
    dying: detailsOf(data.dying),
    dead: data.dead === true,
    turnStun: turnStun ? { turns: countOf(turnStun.turns), pending: countOf(turnStun.pending) } : null,
    token: token && typeof token.x === "number" && typeof token.y === "number" ? { x: token.x, y: token.y } : null,
  };
}

/** Writes what a rolled check did to the target (its step `id`, its note's `nonce` on the ledger entry). */
export async function consequenceEffects(context: EffectContext, state: ExchangeState, key: string, check: Check, actor: Actor.Implementation, lostBefore: number, id: string, nonce: string): Promise<void> {
  const outcome = targetOf(state, key).consequences.find((c) => c.check === check)?.outcome;
  if (!outcome) return;
  switch (outcome.check) {
    case "slam":
      if (outcome.result === "grandSlam" || outcome.result === "oneArea") {
        await setStatus(actor, "slammed", { direction: outcome.direction ?? "", ...(outcome.areas !== null ? { areas: outcome.areas } : {}) });
      }
      return;
    case "stun":
      if (outcome.result !== "none") {
        await setStatus(actor, "stunned", { turns: outcome.turns, startsNextTurn: !outcome.thisTurn });
        // The turn's write runs under this request's locks (the actor's and its combat's, declared by cardLockKeys): no lock is taken again.
        await context.services.combat.recordStun(context.scope, actor, outcome.turns, !outcome.thisTurn);
      }
      return;
    case "kill":
      if (outcome.result === "enduranceLoss") {
        // The rank is recorded apart from the ability, so rest heals it back (rules recovery.ts).
        await writeOnce(context.scope, actor, id, "system.lostEnduranceRanks", lostBefore, lostBefore + 1, nonce);
        await setStatus(actor, "dying", { aided: false, fresh: true });
        if (outcome.dead) await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: true, overlay: true });
      }
      return;
  }
}

/** Puts a condition back as it stood (`before`: its details, or null when the target did not have it). */
async function restoreStatus(actor: Actor.Implementation, status: CaseStatus, before: StatusDetails | null): Promise<void> {
  if (before === null) await clearStatus(actor, status);
  else await setStatus(actor, status, before);
}

/** The notes of the checks a row's undo takes back, by check (each the newest note of that check on the row). */
export type CheckNotes = Partial<Record<Check, { readonly id: string; readonly nonce: string; readonly data: Record<string, unknown> }>>;

/**
 * Takes back what the row's rolled checks did on the actor and its token (rules `undoPlan`),
 * from the GM's notes of them: Stunned, Slammed and the token's move, Dying, death and the lost
 * rank. `id` and `nonce` are the undo step's (the rank's ledger entry). Call it holding the
 * actor's lock; every write sets a state, so a retry writes nothing new. The turn's stun is put
 * back apart ({@link undoTurnStun}).
 */
export async function undoChecks(context: EffectContext, actor: Actor.Implementation, tokenUuid: string, plan: UndoPlan, notes: CheckNotes, id: string, nonce: string): Promise<void> {
  const stun = notes.stun ? readCheckBefore(notes.stun.data) : null;
  if (plan.stun && stun) await restoreStatus(actor, "stunned", stun.stunned);
  const slam = notes.slam ? readCheckBefore(notes.slam.data) : null;
  if (plan.slam && slam && notes.slam) {
    await restoreStatus(actor, "slammed", slam.slammed);
    if (plan.slam.moved && slam.token) await moveTokenBack(context.scope, tokenUuid, notes.slam, id, slam.token);
  }
  const kill = notes.kill ? readCheckBefore(notes.kill.data) : null;
  if (plan.kill && kill && isCharacter(actor)) {
    const field = "system.lostEnduranceRanks";
    const lost = ledgerEntry(actor, id, field, nonce)?.before ?? actor.system.lostEnduranceRanks;
    await writeOnce(context.scope, actor, id, field, lost, Math.max(0, lost - 1), nonce);
    await restoreStatus(actor, "dying", kill.dying);
    if (plan.kill.dead && !kill.dead && actor.statuses.has(CONFIG.specialStatusEffects.DEFEATED)) await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: false, overlay: true });
  }
}

/** Puts the turn's stun back as the Stun? check's note found it (a set, not a change: a retry changes nothing). */
export async function undoTurnStun(context: EffectContext, actor: Actor.Implementation, plan: UndoPlan, notes: CheckNotes): Promise<void> {
  const before = plan.stun && notes.stun ? readCheckBefore(notes.stun.data).turnStun : null;
  if (before) await context.services.combat.restoreStun(context.scope, actor, before);
}

/**
 * Moves a slammed token back to where it stood, when its last slam move is still this check's
 * (`flags.case.slamMove`: the check's id and its note's nonce); it then names the undo, so a
 * retry does not move it again.
 */
async function moveTokenBack(scope: WriteScope, tokenUuid: string, check: { readonly id: string; readonly nonce: string }, undoId: string, to: { readonly x: number; readonly y: number }): Promise<void> {
  const doc: unknown = await fromUuid(tokenUuid);
  if (!isPositionedToken(doc)) return;
  const flag = caseFlag(doc.flags, "slamMove");
  if (flag?.id !== check.id || flag.nonce !== check.nonce) return;
  // The slammed token's position: its lock is among the card's (card-request.ts cardLockKeys).
  scope.require(tokenLock(tokenUuid));
  await doc.update({ x: to.x, y: to.y, [`flags.${SYSTEM_ID}.slamMove`]: { id: undoId, move: null } });
}

/**
 * Counts a row's defence in the turn under `key` (the card's defence step), after noting in the
 * card's record (the GM's) the turn it is counted in, so that Undo gives it back in that turn
 * only ({@link giveBackDefence}). A retry finds the note and the key, and counts nothing twice.
 */
export async function countDefence(context: EffectContext, loaded: LoadedCard, actor: Actor.Implementation, defence: DefenceCode, key: string): Promise<void> {
  const standing = await context.services.combat.standing(actor);
  if (standing) await journalStep(loaded, key, { turn: standing.state.combat.number });
  await context.services.combat.recordDefence(context.scope, actor, defence, key);
}

/**
 * Gives back the defence the undone row counted (rules `forgetDefence`, `UNDONE_DEFENCE_GIVEN_BACK`),
 * from the note {@link countDefence} kept: its key and turn; no note, nothing was counted. The
 * key makes a retry (a GM taking over) forget nothing twice. A count the turn refuses to give
 * back (changed by hand since) does not stop the Undo: the row is voided, the count is left as
 * the Judge made it, and the GM's console says why (as an attack's action the tracker could
 * not spend: turn-feed.ts).
 */
export async function giveBackDefence(context: EffectContext, actor: Actor.Implementation, plan: UndoPlan, note: { readonly id: string; readonly data: Record<string, unknown> } | undefined): Promise<void> {
  const turn = note?.data.turn;
  if (!plan.defence || !note || typeof turn !== "number") return;
  try {
    await context.services.combat.forgetDefence(context.scope, actor, plan.defence, note.id, turn);
  } catch (error) {
    if (!(error instanceof TurnError)) throw error;
    console.warn("case | The undone row's defence was not given back to the turn", error);
  }
}

/** Clears the hold the undone row's to-hit put on the target, when the hold still names this card (another card's hold stays). Call it holding the actor's lock. */
export async function undoHold(actor: Actor.Implementation, plan: UndoPlan, messageId: string): Promise<void> {
  if (plan.hold && statusDetails(actor, plan.hold)?.messageId === messageId) await clearStatus(actor, plan.hold);
}
