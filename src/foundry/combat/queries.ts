/**
 * The CASE turn's cross-user requests (see ../requests/router.ts): everything the tracker's buttons do
 * goes through the active GM, who owns the combat. Players may act for combatants whose
 * character they own (declare, choose separate or flurry, roll initiative, finish or change
 * their action, record a defence); the phase, aid, events and conditions are the Judge's.
 *
 * Each handler reads the combat through the {@link TurnDirectory} in its context's services
 * (Foundry's is `foundryTurnDirectory` in ./foundry-host.ts; tests pass their own), validates
 * the payload, checks ownership, and runs one engine step; a replayed request changes nothing, a stale one is refused as "stale".
 */
import {
  DEFENCE_CODES,
  MAX_ACTIONS_PER_TURN,
  TURN_PHASES,
  TurnError,
  parseDeclaration,
  type Declaration,
  type DefenceCode,
  type ExtraActionMode,
  type HoldState,
  type TurnPhase,
} from "../../rules/index";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryDefinition } from "../requests/router";
import type { LockScope } from "../requests/locks";
import { errorRef } from "../core/describe-error";
import type { TurnEngine } from "./engine";
import { AidRefusedError, NotTurnWriterError, combatLock, type ChangeActionAnswer, type DefenceAnswer } from "./turn-host";

/** A Foundry document id (16 letters and digits). */
export const DOCUMENT_ID = /^[A-Za-z0-9]{16}$/;

/** What the handlers need of the world's combats. */
export interface TurnDirectory {
  /** The engine of a combat writing under `scope` (the request's locks), or null when there is no such combat. */
  engine(combatId: string, scope: LockScope): TurnEngine | null;
  /**
   * The locks a turn request on this combat declares besides the combat's own: the actors of
   * its combatants (a step may write their Endurance, Health and conditions). Absent: none.
   */
  actorLocks?(combatId: string): readonly string[];
  /** Whether the user owns the combatant (its character, or the combatant itself without one); null when there is no such combatant. */
  owns(user: AskingUser, combatId: string, combatantId: string): boolean | null;
  /** A combatant's name for messages (its id when unknown). */
  nameOf(combatId: string, combatantId: string): string;
  /**
   * What first aid needs to know of the world (rules first-aid.ts): whether the aider's character
   * has a first aid talent, and whether its token stands within reach of the aided one's. Null
   * when either combatant is gone. Absent: characters cannot give first aid (the Judge still can).
   */
  aidFacts?(combatId: string, aiderId: string, targetId: string): { readonly hasFirstAid: boolean; readonly adjacent: boolean } | null;
  /**
   * Sets core's mark on a combatant under `scope`: hidden from players, or defeated (with the
   * actor's defeated status). False when there is no such combatant. Absent: no marks.
   */
  mark?(scope: LockScope, combatId: string, combatantId: string, mark: CombatantMark, on: boolean): Promise<boolean>;
}

/** Core's tracker marks the Judge toggles on a combatant. */
export type CombatantMark = "hidden" | "defeated";

/** What every turn request declares: the combat, and the actors of its combatants. */
export function turnLockKeys(turns: TurnDirectory, combatId: string): string[] {
  return [combatLock(combatId), ...(turns.actorLocks?.(combatId) ?? [])];
}

function engineOf(turns: TurnDirectory, combatId: string, scope: LockScope): TurnEngine {
  const engine = turns.engine(combatId, scope);
  if (!engine) throw QueryRefusal.keyed("stale", "combatGone");
  return engine;
}

function mustOwn(turns: TurnDirectory, user: AskingUser, combatId: string, combatantIds: readonly string[]): void {
  if (user.isGM) return;
  for (const id of combatantIds) {
    const owns = turns.owns(user, combatId, id);
    if (owns === null) throw new QueryRefusal("stale", game.i18n.localize("CASE.Turn.CombatantGone"));
    if (!owns) throw QueryRefusal.keyed("forbidden", "notYourCombatant", { name: turns.nameOf(combatId, id) });
  }
}

function mustBeGM(user: AskingUser): void {
  if (!user.isGM) throw QueryRefusal.keyed("forbidden", "judgeRunsTurn");
}

/** Runs an engine step, turning the rules' refusals into query refusals (ids named by name). */
async function step<T>(turns: TurnDirectory, combatId: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const named = (message: string): string => message.replace(/"([A-Za-z0-9]{16})"/g, (_m, id: string) => turns.nameOf(combatId, id));
    // The rules name combatants by id: the reader sees their names (in the text's data too).
    const ref = errorRef(error);
    const namedRef = ref && { key: ref.key, data: Object.fromEntries(Object.entries(ref.data).map(([k, v]) => [k, typeof v === "string" ? v.replace(/\b[A-Za-z0-9]{16}\b/g, (id) => turns.nameOf(combatId, id)) : v])) };
    if (error instanceof TurnError) {
      const reason = error.code === "stale" || error.code === "wrongPhase" || error.code === "unknownCombatant" ? "stale" : "forbidden";
      throw new QueryRefusal(reason, named(error.message), namedRef);
    }
    if (error instanceof NotTurnWriterError) throw QueryRefusal.keyed("notGM", "turnWriter");
    // One that names no text (not the rules'): "see the GM's console", never its English.
    if (error instanceof RangeError || error instanceof TypeError) throw namedRef ? new QueryRefusal("malformed", named(error.message), namedRef) : QueryRefusal.of("malformed", error);
    throw error;
  }
}

function ids(r: Record<string, unknown>): { combatId: string; combatantId: string } {
  return { combatId: stringField(r, "combatId", DOCUMENT_ID), combatantId: stringField(r, "combatantId", DOCUMENT_ID) };
}

function declarationField(r: Record<string, unknown>): Declaration {
  try {
    // The secret flag is not the asker's to set: the engine sets it (NPCs' are secret).
    const raw = r.declaration;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return parseDeclaration(raw); // refused there, by the rules' text
    return parseDeclaration({ ...(raw as Record<string, unknown>), secret: false });
  } catch (error) {
    throw QueryRefusal.of("malformed", error);
  }
}

/** A whole-number summary of a step's effect: whether anything changed. */
export interface Changed {
  readonly changed: boolean;
}

function changedOf(change: { combat: object; combatants: readonly unknown[] }): Changed {
  return { changed: Object.keys(change.combat).length > 0 || change.combatants.length > 0 };
}

/** What the turn's handlers need: the world's combats (Foundry's or a test's directory). */
export interface TurnServices {
  readonly turns: TurnDirectory;
}

/**
 * The one shape of a turn query: it locks the combat and its combatants' actors, lets the
 * owners of `owners(payload)` (or the Judge) ask, or only the Judge when `owners` is absent,
 * and runs one engine step with the rules' refusals turned into query refusals.
 */
export interface TurnQuerySpec<P extends { readonly combatId: string }, R> {
  readonly name: string;
  parse(raw: unknown): P;
  /** The combatants whose owners may ask; absent: the Judge only. */
  readonly owners?: (payload: NoInfer<P>) => readonly string[];
  run(engine: TurnEngine, payload: NoInfer<P>, services: TurnServices, scope: LockScope): Promise<R>;
}

/** Declares a turn query of the one shape ({@link TurnQuerySpec}). */
export function defineTurnQuery<P extends { readonly combatId: string }, R>(spec: TurnQuerySpec<P, R>): QueryDefinition<P, R, TurnServices> {
  const { owners } = spec;
  return defineQuery({
    name: spec.name,
    parse: (raw) => spec.parse(raw),
    lockKeys: (p, { turns }) => turnLockKeys(turns, p.combatId),
    authorize: (user, p, { services }) => {
      if (owners) mustOwn(services.turns, user, p.combatId, owners(p));
      else mustBeGM(user);
    },
    handle: (_user, p, { services, scope }) => step(services.turns, p.combatId, () => spec.run(engineOf(services.turns, p.combatId, scope), p, services, scope)),
  });
}

/** The asked-for combatant: the one its owners may command. */
const theCombatant = (p: { readonly combatantId: string }): readonly string[] => [p.combatantId];

/** A list of combatant ids (1 to 1000, each once). */
function combatantIdsField(r: Record<string, unknown>): string[] {
  const list = r.combatantIds;
  if (!Array.isArray(list) || list.length === 0 || list.length > 1000 || !list.every((id) => typeof id === "string" && DOCUMENT_ID.test(id))) {
    throw QueryRefusal.keyed("malformed", "fieldList", { key: "combatantIds", min: 1, max: 1000 });
  }
  return [...new Set(list as string[])];
}

// ── players (owners) ─────────────────────────────────────────────────────────────────────

export const declareActionQuery = defineTurnQuery({
  name: "declareAction",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { ...ids(r), declaration: declarationField(r) };
  },
  owners: theCombatant,
  run: async (engine, p): Promise<Changed> => changedOf(await engine.declare(p.combatantId, p.declaration)),
});

export const chooseExtraModeQuery = defineTurnQuery({
  name: "chooseExtraMode",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { ...ids(r), mode: choiceOf<ExtraActionMode>(r, "mode", ["separate", "flurry"]) };
  },
  owners: theCombatant,
  run: async (engine, p): Promise<Changed> => changedOf(await engine.chooseExtraMode(p.combatantId, p.mode)),
});

export const rollTurnInitiativeQuery = defineTurnQuery({
  name: "rollTurnInitiative",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), combatantIds: combatantIdsField(r) };
  },
  owners: (p) => p.combatantIds,
  run: async (engine, p): Promise<Changed> => changedOf(await engine.rollInitiative(p.combatantIds)),
});

export const completeActionQuery = defineTurnQuery({
  name: "completeAction",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { ...ids(r), actionIndex: intField(r, "actionIndex", 0, MAX_ACTIONS_PER_TURN) };
  },
  owners: theCombatant,
  run: async (engine, p): Promise<Changed> => changedOf(await engine.completeAction(p.combatantId, p.actionIndex)),
});

export const changeActionQuery = defineTurnQuery({
  name: "changeAction",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { ...ids(r), declaration: declarationField(r), actionIndex: intField(r, "actionIndex", 0, MAX_ACTIONS_PER_TURN) };
  },
  owners: theCombatant,
  run: (engine, p): Promise<ChangeActionAnswer> => engine.changeAction(p.combatantId, p.declaration, p.actionIndex),
});

export const recordDefenceQuery = defineTurnQuery({
  name: "recordDefence",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    const defence = r.defence === undefined || r.defence === null ? null : choiceOf<DefenceCode>(r, "defence", DEFENCE_CODES);
    return { ...ids(r), defence };
  },
  owners: theCombatant,
  run: (engine, p): Promise<DefenceAnswer> => engine.recordDefence(p.combatantId, p.defence ?? undefined),
});

// ── the Judge ────────────────────────────────────────────────────────────────────────────

export const advancePhaseQuery = defineTurnQuery({
  name: "advancePhase",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    const force = r.force ?? false;
    if (typeof force !== "boolean") throw QueryRefusal.keyed("malformed", "fieldChoice", { key: "force", allowed: "true, false" });
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), from: choiceOf<TurnPhase>(r, "from", TURN_PHASES), force };
  },
  run: async (engine, p): Promise<Changed> => changedOf(await engine.advance(p.from, p.force)),
});

export const setAidedQuery = defineTurnQuery({
  name: "setAided",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    const aided = r.aided;
    if (typeof aided !== "boolean") throw QueryRefusal.keyed("malformed", "fieldChoice", { key: "aided", allowed: "true, false" });
    return { ...ids(r), aided };
  },
  run: async (engine, p): Promise<Changed> => changedOf(await engine.setAided(p.combatantId, p.aided)),
});

/**
 * First aid from the tracker: a player's character (`aiderId`, which the asker must own) aids
 * `combatantId`; the GM's handler reads the facts (talent, reach) from the world, never the
 * payload, and the rules decide (first-aid.ts). Aided stops a dying one's loss; the first aid
 * talent also revives a stunned one.
 */
export const firstAidQuery = defineTurnQuery({
  name: "firstAid",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { ...ids(r), aiderId: stringField(r, "aiderId", DOCUMENT_ID) };
  },
  owners: (p) => [p.aiderId],
  run: async (engine, p, { turns }): Promise<{ stopsDying: boolean; revived: boolean }> => {
    const facts = turns.aidFacts?.(p.combatId, p.aiderId, p.combatantId) ?? null;
    if (facts === null) throw new QueryRefusal("stale", game.i18n.localize("CASE.Aid.Refused.gone"));
    try {
      return await engine.firstAid(p.aiderId, p.combatantId, facts);
    } catch (error) {
      if (error instanceof AidRefusedError) throw new QueryRefusal("forbidden", game.i18n.format(`CASE.Aid.Refused.${error.reason}`, { name: turns.nameOf(p.combatId, p.combatantId) }));
      throw error;
    }
  },
});

export const noteEventQuery = defineTurnQuery({
  name: "noteEvent",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), text: stringField(r, "text") };
  },
  run: async (engine, p): Promise<Changed> => changedOf(await engine.noteEvent(p.text)),
});

export const setConditionQuery = defineTurnQuery({
  name: "setTurnCondition",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    const condition = choiceOf(r, "condition", ["stun", "dying", "hold"] as const);
    if (condition === "stun") return { ...ids(r), condition, turns: intField(r, "turns", 1, 10), hold: "none" as HoldState };
    if (condition === "hold") return { ...ids(r), condition, turns: 0, hold: choiceOf<HoldState>(r, "hold", ["none", "partialHold", "fullHold"]) };
    return { ...ids(r), condition, turns: 0, hold: "none" as HoldState };
  },
  run: async (engine, p): Promise<Changed> => {
    if (p.condition === "stun") return changedOf(await engine.applyStun(p.combatantId, p.turns));
    if (p.condition === "hold") return changedOf(await engine.setHold(p.combatantId, p.hold));
    return changedOf(await engine.markDying(p.combatantId));
  },
});

/** How many declarations one bulk request may carry. */
const BULK_MAX = 200;

/** Bulk declare: the Judge declares for several NPCs at once (one dialog, one write). */
export const declareManyQuery = defineTurnQuery({
  name: "declareMany",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    const list = r.declarations;
    if (!Array.isArray(list) || list.length === 0 || list.length > BULK_MAX) throw QueryRefusal.keyed("malformed", "fieldList", { key: "declarations", min: 1, max: BULK_MAX });
    const declarations = list.map((entry: unknown) => {
      const e = payloadRecord(entry);
      return { combatantId: stringField(e, "combatantId", DOCUMENT_ID), declaration: declarationField(e) };
    });
    if (new Set(declarations.map((d) => d.combatantId)).size !== declarations.length) throw QueryRefusal.keyed("malformed", "combatantTwice");
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), declarations };
  },
  run: async (engine, p): Promise<Changed> => changedOf(await engine.declareMany(p.declarations)),
});

/** Bulk declare: the Judge repeats last turn's declarations for these combatants (those without one yet). */
export const repeatDeclarationsQuery = defineTurnQuery({
  name: "repeatDeclarations",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), combatantIds: combatantIdsField(r) };
  },
  run: async (engine, p): Promise<{ repeated: string[] }> => ({ repeated: await engine.repeatDeclarations(p.combatantIds) }),
});

/** Core's Hide and Defeated toggles (the Judge): the mark as the Judge asks, written by the active GM. */
export const markCombatantQuery = defineTurnQuery({
  name: "markCombatant",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    if (typeof r.on !== "boolean") throw QueryRefusal.keyed("malformed", "fieldChoice", { key: "on", allowed: "true, false" });
    return { ...ids(r), mark: choiceOf<CombatantMark>(r, "mark", ["hidden", "defeated"]), on: r.on };
  },
  run: async (_engine, p, { turns }, scope): Promise<Changed> => {
    if (!turns.mark || !(await turns.mark(scope, p.combatId, p.combatantId, p.mark, p.on))) throw new QueryRefusal("stale", game.i18n.localize("CASE.Turn.CombatantGone"));
    return { changed: true };
  },
});

/**
 * Back one step: the Judge restores the turn as it was before the last advance or *Done*
 * (the rules' history). `steps` is the history's length the Judge saw: a replay is stale.
 */
export const stepBackQuery = defineTurnQuery({
  name: "stepBack",
  parse: (raw: unknown) => {
    const r = payloadRecord(raw);
    return { combatId: stringField(r, "combatId", DOCUMENT_ID), steps: intField(r, "steps", 1, 1000) };
  },
  run: async (engine, p): Promise<Changed> => changedOf(await engine.stepBack(p.steps)),
});

/** Every turn query, for registration. */
export const TURN_QUERIES = [
  declareActionQuery,
  chooseExtraModeQuery,
  rollTurnInitiativeQuery,
  completeActionQuery,
  changeActionQuery,
  recordDefenceQuery,
  advancePhaseQuery,
  setAidedQuery,
  firstAidQuery,
  noteEventQuery,
  setConditionQuery,
  declareManyQuery,
  repeatDeclarationsQuery,
  stepBackQuery,
  markCombatantQuery,
] as const;

