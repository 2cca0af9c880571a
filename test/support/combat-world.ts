/**
 * A combat in memory for the turn engine's tests: a {@link TurnHost} over plain data. It does
 * what the engine asks and records it — each write (combat fields, combatants' stored parts,
 * Foundry's initiative value, Endurance, status effects, round/turn), each announcement, each
 * die (dice come from a queue the test fills; an empty queue is an error, never a made-up
 * roll; each die handed out is an object of its own, kept in `rolled`). It decides nothing: tests assert on what the engine and the rules produced.
 */
import { TurnEngine } from "../../src/foundry/combat/engine";
import { combatLock, type Announcement, type TurnDie, type TurnHost, type TurnSnapshot } from "../../src/foundry/combat/turn-host";
import { LockScope } from "../../src/foundry/requests/locks";
import { freshCombatSystem, freshCombatantSystem, type CombatSystemData, type CombatantInput, type CombatantSystemData, type StoredTurnStep, type TurnSettingsInput, type TurnWrite } from "../../src/foundry/combat/state";
import type { CombatantStats, HoldState } from "../../src/rules/index";
import type { TrackerCombatantInput, TrackerInput } from "../../src/foundry/apps/tracker/tracker-context";

export interface WorldCombatant {
  id: string;
  name: string;
  system: CombatantSystemData;
  stats: CombatantStats | null;
  playerOwned: boolean;
  defeated: boolean;
  hidden: boolean;
  /** The character's status effects, as far as the turn reads them. */
  conditions: { dying: boolean; aided: boolean; hold: HoldState; dyingFresh?: boolean } | null;
  /** Foundry's own initiative field. */
  initiative: number | null;
  /** Users (ids) who own its character. */
  owners: string[];
  /** `flags.case.defenceKeys`: the defences already counted, by key. */
  defenceKeys: string[];
  /** Its group of minor foes (as foundry-host's `minorGroupsOf` finds it), or null. */
  minorGroup: string | null;
}

export interface TurnWorld {
  /** The combat's id. */
  readonly combatId: string;
  readonly host: TurnHost & { writer: boolean };
  readonly engine: TurnEngine;
  combat: CombatSystemData;
  readonly combatants: WorldCombatant[];
  settings: TurnSettingsInput;
  /** Dice to hand out, in order. */
  readonly dice: number[];
  /** Every die the host handed the engine, in order (each to be announced on one line). */
  readonly rolled: TurnDie[];
  readonly writes: { write: TurnWrite; sync: { round: number; currentId: string | null } }[];
  readonly announcements: Announcement[];
  /** The GM's record of the turn's history (back one step), as the host stores it. */
  history: StoredTurnStep[];
  /** Foundry's round and turn (combatant id here), as the engine keeps them in step. */
  foundry: { round: number; currentId: string | null };
  get(id: string): WorldCombatant;
}

export function worldCombatant(id: string, stats: CombatantStats | null, options: Partial<Omit<WorldCombatant, "id" | "stats">> = {}): WorldCombatant {
  return {
    id,
    name: options.name ?? id,
    system: options.system ?? freshCombatantSystem(),
    stats,
    playerOwned: options.playerOwned ?? false,
    defeated: options.defeated ?? false,
    hidden: options.hidden ?? false,
    conditions: options.conditions ?? null,
    initiative: options.initiative ?? null,
    owners: options.owners ?? [],
    defenceKeys: [],
    minorGroup: options.minorGroup ?? null,
  };
}

export function turnWorld(combatants: WorldCombatant[], settings: Partial<TurnSettingsInput> = {}, combatId = "combat0000000001"): TurnWorld {
  const world: TurnWorld = {
    combatId,
    combat: freshCombatSystem(),
    combatants,
    settings: { initiativeMode: "everyTurn", teamInitiative: false, declaredDodge: false, ...settings },
    dice: [],
    rolled: [],
    writes: [],
    announcements: [],
    history: [],
    foundry: { round: 1, currentId: null },
    get(id) {
      const c = combatants.find((x) => x.id === id);
      if (!c) throw new Error(`No combatant ${id} in the test world.`);
      return c;
    },
    host: undefined as unknown as TurnHost & { writer: boolean },
    engine: undefined as unknown as TurnEngine,
  };
  const host: TurnHost & { writer: boolean } = {
    writer: true,
    isWriter() {
      return this.writer;
    },
    snapshot(): TurnSnapshot {
      return {
        combat: structuredClone(world.combat),
        combatants: world.combatants.map(
          (c): CombatantInput => ({
            id: c.id,
            system: structuredClone(c.system),
            stats: c.stats,
            playerOwned: c.playerOwned,
            defeated: c.defeated,
            hidden: c.hidden,
            conditions: c.conditions,
            defenceKeys: c.defenceKeys,
            minorGroup: c.minorGroup,
          }),
        ),
        settings: world.settings,
        history: structuredClone(world.history),
      };
    },
    write(write, sync) {
      world.writes.push({ write: structuredClone(write), sync });
      world.combat = { ...world.combat, ...structuredClone(write.combat) };
      // The history goes to the GM's whispered record, replaced whole (an array field).
      if (write.history !== undefined) world.history = JSON.parse(JSON.stringify(write.history)) as StoredTurnStep[];
      for (const c of write.combatants) {
        const target = world.get(c._id);
        target.system = structuredClone(c.system);
        if (c.initiative !== undefined) target.initiative = c.initiative;
        // Foundry stores the flags given in the same combatant update.
        const keys = (c.flags?.case as { defenceKeys?: string[] } | undefined)?.defenceKeys;
        if (keys) target.defenceKeys = [...keys];
      }
      for (const e of write.endurance) {
        const target = world.get(e.combatantId);
        if (target.stats) target.stats = { ...target.stats, endurance: e.value };
      }
      for (const cond of write.conditions) {
        const target = world.get(cond.combatantId);
        const current = target.conditions ?? { dying: false, aided: false, hold: "none" };
        target.conditions = {
          dying: cond.dying === undefined ? current.dying : cond.dying !== null,
          aided: cond.dying === undefined ? current.aided : (cond.dying?.aided ?? false),
          hold: cond.hold ?? current.hold,
          // The Dying effect's "fresh" detail (status-effects.ts), kept as Foundry keeps the effect's flags.
          ...((cond.dying === undefined ? current.dyingFresh : cond.dying?.fresh) ? { dyingFresh: true } : {}),
        };
        if (cond.dead) target.defeated = true;
      }
      world.foundry = { round: sync.round, currentId: sync.currentId };
      return Promise.resolve();
    },
    roll(formula, count) {
      const out: TurnDie[] = [];
      for (let i = 0; i < count; i++) {
        const total = world.dice.shift();
        if (total === undefined) throw new Error(`The test world ran out of dice (wanted ${formula}).`);
        // A die object of its own, as a Foundry Roll is: the test can find where each one was announced.
        const die: TurnDie = { formula, total };
        world.rolled.push(die);
        out.push(die);
      }
      return Promise.resolve(out);
    },
    announce(a) {
      world.announcements.push(a);
      return Promise.resolve();
    },
    nameOf(id) {
      return world.combatants.find((c) => c.id === id)?.name ?? id;
    },
  };
  // The engine writes as a request holding the combat's lock would (the router hands that scope down).
  Object.assign(world, { host, engine: new TurnEngine(host, combatId, new LockScope([combatLock(combatId)])) });
  return world;
}

/** Who views the tracker: a user id and whether it is a GM. */
export interface TrackerViewer {
  readonly id: string;
  readonly isGM: boolean;
}

/**
 * The tracker's input (apps/tracker/tracker-context.ts) for `viewer`, read from a turn world as
 * `trackerInputOf` reads Foundry: each combatant's stored part, stats and standing, its name, a
 * default portrait, and whether the viewer owns it. `row` adds what a test shows beside (Health,
 * on the scene, a defence waiting); `combat` overrides the combat's part (not started: `started: false`).
 */
export function trackerInputFor(
  world: TurnWorld,
  viewer: TrackerViewer,
  options: { readonly started?: boolean; readonly row?: (c: WorldCombatant, index: number) => Partial<TrackerCombatantInput>; readonly history?: TrackerInput["history"] } = {},
): TrackerInput {
  return {
    isGM: viewer.isGM,
    combat: { id: world.combatId, started: options.started ?? true, system: world.combat },
    combatants: world.combatants.map((c, i) => ({
      id: c.id,
      system: c.system,
      stats: c.stats,
      playerOwned: c.playerOwned,
      defeated: c.defeated,
      hidden: c.hidden,
      conditions: c.conditions,
      minorGroup: c.minorGroup,
      name: c.name,
      img: "icons/svg/mystery-man.svg",
      owner: !viewer.isGM && c.owners.includes(viewer.id),
      ...options.row?.(c, i),
    })),
    settings: world.settings,
    ...(options.history !== undefined ? { history: options.history } : {}),
  };
}
