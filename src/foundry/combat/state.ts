/**
 * Translation between the stored turn (`combat.system`, `combatant.system`, the characters'
 * stats, the world settings) and the rules' turn (src/rules/turn/), both ways. Plain
 * functions on plain data: no Foundry globals, so they are tested without Foundry.
 */
import {
  COLORS,
  DEFAULT_INITIATIVE_SETTINGS,
  IMPOSSIBLE,
  createCombatantTurn,
  isInitiativeMode,
  isTurnPhase,
  parseDeclaration,
  type CharacterStats,
  type Color,
  type CombatTurn,
  type CombatantStats,
  type CombatantTurn,
  type Declaration,
  type ExtraActionMode,
  type HoldState,
  type RequiredColor,
  type TurnChange,
  type TurnHistory,
  type TurnSettings,
  type TurnState,
} from "../../rules/index";
import { createTurnState, initiativeTeamOf, initiativeWithMinorGroups } from "../../rules/index";
import type { CombatSchema } from "../data/combat/combat";
import type { CombatantSchema } from "../data/combat/combatant";
import type { RecordedCombatant, SecretDeclaration, StoredTurnStep } from "../data/combat/turn-record";
import type { StoredDeclaration } from "../data/combat/combatant";
import { caseFlag } from "../core/flags";

// ---------------------------------------------------------------------------------------------
// Stored shapes (what the data models hold)
// ---------------------------------------------------------------------------------------------

/**
 * `combat.system` as stored: derived from the data model's schema (data/combat/combat.ts), less
 * the schema version, which the world migration keeps and the turn never writes.
 */
export type CombatSystemData = Omit<foundry.data.fields.SchemaField.SourceData<CombatSchema>, "schemaVersion">;

/** `combatant.system` as stored: derived from the data model's schema (data/combat/combatant.ts), less the schema version. */
export type CombatantSystemData = Omit<foundry.data.fields.SchemaField.SourceData<CombatantSchema>, "schemaVersion">;

/** One combatant as the turn needs it: its id, stored part, character stats and standing. */
export interface CombatantInput {
  readonly id: string;
  readonly system: CombatantSystemData;
  /** The character's stats; null for a combatant without a character (Typical everything). */
  readonly stats: CombatantStats | null;
  /** Owned by a player (its declaration is not secret; it is on the players' team). */
  readonly playerOwned: boolean;
  /** Foundry's "defeated" mark. */
  readonly defeated: boolean;
  /** Hidden from the players by the Judge: its rolls are announced to the GM only. */
  readonly hidden?: boolean;
  /**
   * Conditions read from the character's status effects (src/foundry/status-effects.ts: Dying
   * with its "aided" detail, the holds), which are their truth; null without a character, when
   * the stored values stand.
   */
  readonly conditions?: { readonly dying: boolean; readonly aided: boolean; readonly hold: HoldState; readonly dyingFresh?: boolean; readonly unconscious?: boolean } | null;
  /** The keys of the defences already counted (`flags.case.defenceKeys`): a retried card counts its defence once. */
  readonly defenceKeys?: readonly string[];
  /** Its group of minor foes (rules `minorFoeGroups`), or null: the group declares and rolls initiative as one. */
  readonly minorGroup?: string | null;
}

/** How many defence keys a combatant remembers (the newest). */
export const DEFENCE_KEY_MEMORY = 20;

/** The world settings the turn reads (`case.initiativeMode`, `case.teamInitiative`, `case.declaredDodge`). */
export interface TurnSettingsInput {
  readonly initiativeMode: string;
  readonly teamInitiative: boolean;
  readonly declaredDodge: boolean;
  /** `case.killLossAtOwnWrapUp` (errata §4); absent: the rules' default. */
  readonly killLossAtOwnWrapUp?: boolean;
  /** `case.regenerationTurns` (a recovery ruling); absent: the rules' default. */
  readonly regenerationTurns?: number;
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** The stats of a combatant without a character: Typical (6) everywhere, as a new character. */
export const NEUTRAL_STATS: CombatantStats = Object.freeze({ initiativeModifier: 0, offence: 6, balance: 6, freeDefences: 1, endurance: 6 });

/** The turn's stats from a character's derived stats (src/rules `characterStats`). */
export function statsFromCharacter(stats: Pick<CharacterStats, "initiative" | "freeDefences" | "scores">): CombatantStats {
  return {
    initiativeModifier: stats.initiative,
    offence: stats.scores["fighting.off"],
    balance: stats.scores["agility.bal"],
    freeDefences: stats.freeDefences,
    endurance: stats.scores.endurance,
  };
}

/** The team names used by default under team initiative: the players' side and the Judge's. */
export const DEFAULT_TEAMS = Object.freeze({ players: "players", judge: "judge" });

/** The rules' settings from the world settings (an unknown mode falls back to the standard rule). */
export function turnSettings(input: TurnSettingsInput): TurnSettings {
  const mode = isInitiativeMode(input.initiativeMode) ? input.initiativeMode : DEFAULT_INITIATIVE_SETTINGS.mode;
  return { initiative: { mode, team: input.teamInitiative }, declaredDodge: input.declaredDodge, ...(input.killLossAtOwnWrapUp !== undefined ? { killLossAtOwnWrapUp: input.killLossAtOwnWrapUp } : {}), ...(input.regenerationTurns !== undefined ? { regenerationTurns: input.regenerationTurns } : {}) };
}

function isColor(value: string): value is Color {
  return (COLORS as readonly string[]).includes(value);
}

function declarationFrom(system: CombatantSystemData): Declaration | null {
  const d = system.declaration;
  if (!d.declared) return null;
  try {
    return parseDeclaration({
      text: d.text,
      kind: d.kind === "" ? null : d.kind,
      attack: d.attack === "" ? null : d.attack,
      defence: d.defence === "" ? null : d.defence,
      actions: d.actions,
      secret: d.secret,
    });
  } catch {
    // Stored data the rules would not accept (an edited document): keep what can be kept.
    return parseDeclaration({ text: d.text.slice(0, 500), actions: 1, secret: d.secret });
  }
}

/** The rules' combatant from its stored part. */
export function combatantTurnFromInput(input: CombatantInput, settings: TurnSettings): CombatantTurn {
  const s = input.system;
  const team = initiativeTeamOf(settings.initiative.team, s.team || (input.playerOwned ? DEFAULT_TEAMS.players : DEFAULT_TEAMS.judge), input.minorGroup ?? null);
  const conditions = input.conditions ?? null;
  const hold: HoldState = conditions ? conditions.hold : s.hold === "partialHold" || s.hold === "fullHold" ? s.hold : "none";
  const base = createCombatantTurn(input.id, input.stats ?? NEUTRAL_STATS, { team, defeated: input.defeated, hold, unconscious: conditions?.unconscious === true });
  const required: RequiredColor = isColor(s.extra.required) || s.extra.required === IMPOSSIBLE ? (s.extra.required) : IMPOSSIBLE;
  const extraRolled = s.extra.roll !== null;
  const mode: ExtraActionMode | null = s.extra.mode === "separate" || s.extra.mode === "flurry" ? s.extra.mode : null;
  const count = (n: number): number => (Number.isSafeInteger(n) && n >= 0 ? n : 0);
  const whole = (n: number): number => (Number.isSafeInteger(n) ? n : 0);
  return Object.freeze({
    ...base,
    declaration: declarationFrom(s),
    extra:
      s.extra.wanted >= 2
        ? {
            wanted: s.extra.wanted,
            required,
            roll: s.extra.roll,
            color: extraRolled && isColor(s.extra.color) ? s.extra.color : null,
            success: extraRolled ? s.extra.success : null,
            mode,
          }
        : null,
    actionsAllowed: count(s.actionsAllowed),
    actionsUsed: count(s.actionsUsed),
    actionCs: whole(s.actionCs),
    damageCs: whole(s.damageCs),
    nextActionCs: whole(s.nextActionCs),
    actedInRound: count(s.actedInRound),
    defencesUsed: count(s.defencesUsed),
    initiative: { d10: s.initiative.d10, total: s.initiative.total, rollOffs: [...s.initiative.rollOffs] },
    dodge: s.dodge.declared ? { roll: s.dodge.roll, color: s.dodge.roll !== null && isColor(s.dodge.color) ? s.dodge.color : null, shift: whole(s.dodge.shift) } : null,
    lostTurn: s.lostTurn,
    changedAt: s.changedAt,
    stunTurns: count(s.stunTurns),
    stunPending: count(s.stunPending),
    dying: conditions ? conditions.dying : s.dying,
    aided: conditions ? conditions.aided : s.aided,
    dead: s.dead,
    dyingFresh: conditions?.dyingFresh === true,
  });
}

/** The rules' combat part from `combat.system`. */
export function combatTurnFromSystem(system: CombatSystemData): CombatTurn {
  return {
    number: Number.isSafeInteger(system.turnNumber) && system.turnNumber >= 1 ? system.turnNumber : 1,
    phase: isTurnPhase(system.phase) ? system.phase : "declare",
    round: Math.max(0, system.round),
    order: [...system.order],
    cursor: Math.max(0, system.cursor),
    events: [...system.events],
  };
}

/** The whole rules state of a combat, combatants in tracker order; groups of minor foes roll as teams (rules `initiativeWithMinorGroups`). */
export function turnStateFrom(combat: CombatSystemData, combatants: readonly CombatantInput[], settings: TurnSettingsInput): TurnState {
  const s = turnSettings(settings);
  const initiative = initiativeWithMinorGroups(s.initiative, combatants.some((c) => c.minorGroup != null));
  return createTurnState(
    combatants.map((c) => combatantTurnFromInput(c, s)),
    initiative === s.initiative ? s : { ...s, initiative },
    combatTurnFromSystem(combat),
  );
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/** A combatant's stored declaration (declared by its schema). */
export type { StoredDeclaration };

/**
 * A declaration as it may be stored where every player reads it: a secret one (an NPC's) keeps
 * only that it was made and how many actions it takes; the GM's turn record keeps the rest.
 */
export function publicDeclaration(d: StoredDeclaration): StoredDeclaration {
  return d.declared && d.secret ? { declared: true, text: "", kind: "", attack: "", defence: "", actions: d.actions, secret: true } : d;
}

/** The secret declarations of a turn, by combatant id, as the GM's record keeps them (data/combat/turn-record.ts). */
export type SecretDeclarations = readonly SecretDeclaration[];

/**
 * The record after a write of `combatants`: each written combatant's entry is replaced by its
 * secret declaration (or dropped when it has none); the others' are kept.
 */
export function recordSecrets(record: SecretDeclarations, combatants: readonly { readonly _id: string; readonly system: CombatantSystemData }[]): SecretDeclarations {
  const written = new Set(combatants.map((c) => c._id));
  const kept = record.filter((e) => !written.has(e.id));
  const added = combatants.filter((c) => c.system.declaration.declared && c.system.declaration.secret).map((c) => ({ id: c._id, declaration: c.system.declaration }));
  return [...kept, ...added];
}

/** A combatant's stored system with its secret declaration put back (on the GM, from the record). */
export function withSecretDeclaration(system: CombatantSystemData, id: string, record: SecretDeclarations): CombatantSystemData {
  const entry = record.find((e) => e.id === id);
  return entry && system.declaration.declared && system.declaration.secret ? { ...system, declaration: entry.declaration } : system;
}

export type { RecordedCombatant };

/**
 * The record's combatants after a write of `combatants`: each written one's entry is replaced by
 * its whole system (secret declaration included) and its defence keys (the write's, else those
 * it had: `keysBefore`, the ones the engine read); the others' are kept.
 */
export function recordCombatants(
  record: readonly RecordedCombatant[],
  combatants: TurnWrite["combatants"],
  keysBefore: (id: string) => readonly string[],
): RecordedCombatant[] {
  const written = new Set(combatants.map((c) => c._id));
  const kept = record.filter((e) => !written.has(e.id));
  return [...kept, ...combatants.map((c) => ({ id: c._id, system: c.system, defenceKeys: [...(writtenKeys(c.flags) ?? keysBefore(c._id))] }))];
}

/** The defence keys a write sets (`flags.case.defenceKeys`), or undefined when it sets none. */
function writtenKeys(flags: Readonly<Record<string, unknown>> | undefined): readonly string[] | undefined {
  return caseFlag(flags, "defenceKeys");
}

/** `combatant.system` for a rules combatant (the whole stored part; stats are not stored). */
export function combatantSystemFrom(c: CombatantTurn, team: string): CombatantSystemData {
  const d = c.declaration;
  return {
    declaration: d
      ? { declared: true, text: d.text, kind: d.kind ?? "", attack: d.attack ?? "", defence: d.defence ?? "", actions: d.actions, secret: d.secret }
      : { declared: false, text: "", kind: "", attack: "", defence: "", actions: 1, secret: false },
    extra: c.extra
      ? { wanted: c.extra.wanted, required: c.extra.required, roll: c.extra.roll, color: c.extra.color ?? "", success: c.extra.success === true, mode: c.extra.mode ?? "" }
      : { wanted: 0, required: "", roll: null, color: "", success: false, mode: "" },
    actionsAllowed: c.actionsAllowed,
    actionsUsed: c.actionsUsed,
    actionCs: c.actionCs,
    damageCs: c.damageCs,
    nextActionCs: c.nextActionCs,
    actedInRound: c.actedInRound,
    defencesUsed: c.defencesUsed,
    initiative: { d10: c.initiative.d10, total: c.initiative.total, rollOffs: [...c.initiative.rollOffs] },
    dodge: c.dodge ? { declared: true, roll: c.dodge.roll, color: c.dodge.color ?? "", shift: c.dodge.shift } : { declared: false, roll: null, color: "", shift: 0 },
    lostTurn: c.lostTurn,
    changedAt: c.changedAt,
    stunTurns: c.stunTurns,
    stunPending: c.stunPending,
    dying: c.dying,
    aided: c.aided,
    dead: c.dead,
    hold: c.hold,
    team,
  };
}

/** The `combat.system` fields a change sets. */
export function combatSystemPatch(change: TurnChange): Partial<CombatSystemData> {
  const out: Partial<CombatSystemData> = {};
  const c = change.combat;
  if (c.phase !== undefined) out.phase = c.phase;
  if (c.number !== undefined) out.turnNumber = c.number;
  if (c.round !== undefined) out.round = c.round;
  if (c.order !== undefined) out.order = [...c.order];
  if (c.cursor !== undefined) out.cursor = c.cursor;
  if (c.events !== undefined) out.events = [...c.events];
  return out;
}

/**
 * A condition to put on (or take off) a character's status effects so its token shows what the
 * turn knows. `undefined` fields: no change.
 */
export interface ConditionWrite {
  readonly combatantId: string;
  /** Stunned: turns left (this one included, or from next turn); null takes it off. */
  stunned?: { readonly turns: number; readonly startsNextTurn: boolean } | null;
  /** Dying, with whether someone aided this turn; null takes it off. */
  dying?: { readonly aided: boolean; readonly fresh: boolean } | null;
  hold?: HoldState;
  /** Died (Endurance below Shift 0): mark defeated. */
  dead?: true;
}

/** What to write for a change: the combat's system fields and each changed combatant's whole system. */
export interface TurnWrite {
  readonly combat: Partial<CombatSystemData>;
  readonly combatants: readonly { readonly _id: string; readonly system: CombatantSystemData; readonly initiative?: number | null; readonly flags?: Readonly<Record<string, unknown>> }[];
  /** Characters' Endurance to set (Kill losses at wrap-up). */
  readonly endurance: readonly { readonly combatantId: string; readonly value: number; readonly dead: boolean }[];
  /** Health regenerated at wrap-up, to add under each actor's lock (capped at its maximum); absent when none. */
  readonly health?: readonly { readonly combatantId: string; readonly amount: number }[];
  /** Status effects to bring in line with the turn. */
  readonly conditions: readonly ConditionWrite[];
  /** The turn's history to store (GM's record), when the step changed it. */
  readonly history?: readonly StoredTurnStep[];
}

// ---------------------------------------------------------------------------------------------
// The turn's history (back one step), as the GM's record stores it
// ---------------------------------------------------------------------------------------------

/**
 * One entry of the rules' turn history as stored (declared with the GM's `turnRecord`, which
 * keeps it: a combatant's part holds its secret declaration).
 */
export type { StoredTurnStep };

/** The history as stored (teams kept from the combatants as they are). */
export function storedHistory(history: TurnHistory, inputs: ReadonlyMap<string, CombatantInput>): StoredTurnStep[] {
  return history.map((e) => ({
    cause: e.cause,
    combatantId: e.combatantId,
    combat: { ...freshCombatSystem(), ...combatSystemPatch({ combat: e.combat, combatants: [], enduranceLosses: [] }) },
    combatants: e.combatants.map((c) => ({ id: c.id, system: combatantSystemFrom(c, inputs.get(c.id)?.system.team ?? "") })),
  }));
}

/**
 * The rules' history from the stored one: each part read as the turn reads stored data (its
 * stored conditions stand); combatants no longer in the combat are dropped, and an entry the
 * rules cannot read at all is dropped with a console warning rather than blocking the turn.
 */
export function historyFrom(stored: readonly StoredTurnStep[] | undefined, inputs: ReadonlyMap<string, CombatantInput>, settings: TurnSettingsInput): TurnHistory {
  const s = turnSettings(settings);
  const out = [];
  for (const e of stored ?? []) {
    try {
      const combatants = e.combatants.flatMap((c) => {
        const input = inputs.get(c.id);
        return input ? [combatantTurnFromInput({ ...input, system: c.system, conditions: null }, s)] : [];
      });
      out.push({ cause: e.cause === "done" ? ("done" as const) : ("advance" as const), combatantId: typeof e.combatantId === "string" ? e.combatantId : null, combat: combatTurnFromSystem(e.combat), combatants });
    } catch (error) {
      console.warn("case | a step of the turn's history could not be read and is dropped", error);
    }
  }
  return out;
}

/** The status-effect changes between a combatant before and after a change. */
export function conditionWrite(before: CombatantTurn | undefined, after: CombatantTurn): ConditionWrite | null {
  const out: ConditionWrite = { combatantId: after.id };
  let changed = false;
  if (before?.stunTurns !== after.stunTurns || before.stunPending !== after.stunPending) {
    const turns = after.stunTurns > 0 ? after.stunTurns : after.stunPending;
    out.stunned = turns > 0 ? { turns, startsNextTurn: after.stunTurns === 0 } : null;
    changed ||= before !== undefined || turns > 0;
  }
  if (before?.dying !== after.dying || before.aided !== after.aided || before.dyingFresh !== after.dyingFresh) {
    out.dying = after.dying ? { aided: after.aided, fresh: after.dyingFresh } : null;
    changed ||= before !== undefined || after.dying;
  }
  if ((before?.hold ?? "none") !== after.hold) {
    out.hold = after.hold;
    changed = true;
  }
  if (!(before?.dead ?? false) && after.dead) {
    out.dead = true;
    changed = true;
  }
  return changed ? out : null;
}

/** Turns a rules change into the writes, keeping each combatant's stored team. */
export function turnWrite(change: TurnChange, inputs: ReadonlyMap<string, CombatantInput>, before?: TurnState): TurnWrite {
  return {
    conditions: before
      ? change.combatants.flatMap((c) => {
          const w = conditionWrite(before.combatants.get(c.id), c);
          return w ? [w] : [];
        })
      : [],
    combat: combatSystemPatch(change),
    combatants: change.combatants.map((c) => {
      const system = combatantSystemFrom(c, inputs.get(c.id)?.system.team ?? "");
      const before = inputs.get(c.id)?.system.initiative.total;
      // Foundry's own initiative field shows (and sorts by) the CASE total.
      return c.initiative.total !== before ? { _id: c.id, system, initiative: c.initiative.total } : { _id: c.id, system };
    }),
    endurance: change.enduranceLosses.map((l) => ({ combatantId: l.id, value: l.to, dead: l.dead })),
    ...(change.healing && change.healing.length > 0 ? { health: change.healing.map((h) => ({ combatantId: h.id, amount: h.amount })) } : {}),
  };
}

/** True when the write changes nothing. */
export function isEmptyWrite(write: TurnWrite): boolean {
  return Object.keys(write.combat).length === 0 && write.combatants.length === 0 && write.endurance.length === 0 && write.conditions.length === 0 && write.history === undefined && (write.health?.length ?? 0) === 0;
}

/** A fresh stored combatant part (the data model's initial values), for tests and new combatants. */
export function freshCombatantSystem(): CombatantSystemData {
  return combatantSystemFrom(createCombatantTurn("fresh", NEUTRAL_STATS), "");
}

/** A fresh stored combat part. */
export function freshCombatSystem(): CombatSystemData {
  return { phase: "declare", turnNumber: 1, round: 0, order: [], cursor: 0, events: [] };
}
