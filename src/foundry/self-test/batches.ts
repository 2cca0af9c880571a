/**
 * The pure half of the in-Foundry self-test (no Foundry, no DOM): Quench's API as these
 * batches use it, the list of batches and who runs each, the scratch recorder that deletes
 * everything a batch made (even after a failed test), and the values the batches expect.
 * test/foundry/self-test/self-test.test.ts tests all of it against a fake Quench; the Foundry halves
 * (scratch.ts, feat.ts, exchange.ts, turn.ts, compendium.ts, migration.ts, player.ts,
 * versions.ts) only drive documents and compare with what is here.
 *
 * Quench's public API (its README): `Hooks.on("quenchReady", quench => quench.registerBatch(key,
 * fn, { displayName }))`; `fn` receives a context with mocha's `describe`/`it`/`before`/`after`
 * and chai's `assert`. It is declared here narrowly, for these batches only.
 */
import { TURN_PHASES, type TurnPhase } from "../../rules/index";
import { BATCHES, batchKey, type BatchId, type Runner } from "./batch-list";

export { BATCHES, batchKey, type BatchId, type Runner } from "./batch-list";

export type Test = () => Promise<void> | void;

/** The chai `assert` methods the batches use. */
export interface QuenchAssert {
  ok(value: unknown, message?: string): void;
  equal(actual: unknown, expected: unknown, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  isUndefined(value: unknown, message?: string): void;
  include(haystack: readonly unknown[] | string, needle: unknown, message?: string): void;
  isAbove(value: number, above: number, message?: string): void;
  fail(message?: string): never;
}

export interface QuenchContext {
  readonly describe: (name: string, fn: () => void) => void;
  readonly it: (name: string, fn: Test) => void;
  readonly before: (fn: Test) => void;
  readonly after: (fn: Test) => void;
  readonly assert: QuenchAssert;
}

export interface Quench {
  /** `preSelected` (Quench 0.6+, its README): whether the batch starts ticked in Quench's window. */
  registerBatch(key: string, fn: (context: QuenchContext) => void, options: { displayName: string; preSelected: boolean }): void;
}

// ── the scratch recorder ────────────────────────────────────────────────────────────────

/** Something a batch made and must delete: a document, as far as the recorder needs it. */
export interface ScratchDocument {
  readonly uuid: string;
  delete(): Promise<unknown>;
}

/** What a cleanup did. */
export interface CleanupReport {
  /** UUIDs deleted now. */
  readonly deleted: string[];
  /** UUIDs already gone (deleted with their parent: tokens with their scene, combatants with their combat). */
  readonly gone: string[];
  /** UUIDs whose deletion failed, with why. */
  readonly failed: { readonly uuid: string; readonly error: string }[];
}

/** Every scratch document's name starts with this, so a GM can find a leftover by eye. */
export const SCRATCH_PREFIX = "CASE self-test";

/** The name of a scratch document. */
export function scratchName(what: string): string {
  if (what.trim() === "") throw new RangeError("A scratch document needs a name.");
  return `${SCRATCH_PREFIX}: ${what}`;
}

/**
 * Records every document a batch makes, and deletes them all (newest first, so children go
 * before their parents) when asked. A document already gone is skipped; a deletion that
 * fails does not stop the others. Cleaning up twice deletes nothing twice.
 */
export class ScratchRecorder<D extends ScratchDocument = ScratchDocument> {
  readonly #made: D[] = [];

  /** @param exists Whether a recorded document still exists (the Foundry side asks the world). */
  constructor(private readonly exists: (doc: D) => boolean) {}

  /** Records `doc` and returns it; a missing document (a failed create) is a clear error. */
  record<T extends D>(doc: T | null | undefined, what = "a document"): T {
    if (doc === null || doc === undefined) throw new Error(`The self-test could not create ${what}.`);
    if (!this.#made.some((d) => d.uuid === doc.uuid)) this.#made.push(doc);
    return doc;
  }

  /** Records each of `docs`. */
  recordAll<T extends D>(docs: readonly T[]): T[] {
    for (const doc of docs) this.record(doc);
    return [...docs];
  }

  /** The UUIDs recorded and not yet cleaned up, oldest first. */
  get uuids(): string[] {
    return this.#made.map((d) => d.uuid);
  }

  /**
   * Deletes everything recorded, newest first, chat messages last (the active GM writes a turn
   * or attack record again while its combat or card is there: exchange/kept-records.ts); forgets
   * it all whatever happened.
   */
  async cleanup(): Promise<CleanupReport> {
    const report: CleanupReport = { deleted: [], gone: [], failed: [] };
    const newest = this.#made.splice(0).reverse();
    const isMessage = (d: D): boolean => d.uuid.startsWith("ChatMessage.");
    const made = [...newest.filter((d) => !isMessage(d)), ...newest.filter(isMessage)];
    for (const doc of made) {
      if (!this.exists(doc)) {
        report.gone.push(doc.uuid);
        continue;
      }
      try {
        await doc.delete();
        report.deleted.push(doc.uuid);
      } catch (error) {
        report.failed.push({ uuid: doc.uuid, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return report;
  }
}

// ── the batches ─────────────────────────────────────────────────────────────────────────


export interface BatchSpec<D extends ScratchDocument = ScratchDocument> {
  /** Quench's key (`case.<id>`). */
  readonly key: string;
  /** The name Quench shows. A player's batch says what to do. */
  readonly displayName: string;
  readonly runner: Runner;
  /** It changes more than its own documents (Clear Chat Log empties the world's chat log): never ticked by default. */
  readonly destructive: boolean;
  /** Declares the batch's tests; `scratch` records what they make (deleted in `after`). */
  readonly tests: (context: QuenchContext, scratch: ScratchRecorder<D>) => void;
}

/** The ids of the batches that need a second user (a player's browser). */
export function secondUserBatches(): BatchId[] {
  return (Object.keys(BATCHES) as BatchId[]).filter((id) => BATCHES[id].runner === "player");
}

/** Builds the spec of batch `id` from its tests. */
export function batchSpec<D extends ScratchDocument>(id: BatchId, tests: BatchSpec<D>["tests"]): BatchSpec<D> {
  const batch: { displayName: string; runner: Runner; destructive?: true } = BATCHES[id];
  return { key: batchKey(id), displayName: batch.displayName, runner: batch.runner, destructive: batch.destructive === true, tests };
}

/** What the wrapper needs from the world: who this user is, and whether a document still exists. */
export interface BatchHost<D extends ScratchDocument> {
  readonly runner: () => Runner;
  readonly exists: (doc: D) => boolean;
}

/** The refusal a batch gives when run by the wrong user. */
export function wrongRunnerMessage(spec: Pick<BatchSpec, "displayName" | "runner">): string {
  return spec.runner === "gm"
    ? `Run "${spec.displayName}" as a GM: it makes and deletes scenes, actors and combats.`
    : `Run "${spec.displayName}" as a player (a second browser, logged in as a player, with the GM connected in the first).`;
}

/**
 * Registers every batch with Quench. Each gets its own scratch recorder, a `before` that
 * refuses the wrong user, and an `after` that deletes everything it made (it runs even when a
 * test failed) and fails, naming them, if a deletion failed. The batches the registering
 * user can run start ticked, the others not: one click on Quench's *Run* (or its auto-run)
 * runs exactly what this browser can prove. A destructive batch (Clear Chat Log) is never
 * ticked: the GM ticks it in a test world.
 */
export function registerBatches<D extends ScratchDocument>(quench: Quench, specs: readonly BatchSpec<D>[], host: BatchHost<D>): void {
  const keys = new Set<string>();
  for (const spec of specs) {
    if (keys.has(spec.key)) throw new Error(`Two self-test batches share the key ${spec.key}.`);
    keys.add(spec.key);
    quench.registerBatch(
      spec.key,
      (context) => {
        const scratch = new ScratchRecorder<D>(host.exists);
        context.before(() => {
          if (host.runner() !== spec.runner) throw new Error(wrongRunnerMessage(spec));
        });
        context.after(async () => {
          const report = await scratch.cleanup();
          if (report.failed.length > 0) {
            throw new Error(`The self-test could not delete ${report.failed.map((f) => `${f.uuid} (${f.error})`).join(", ")}; delete them by hand (their names start with "${SCRATCH_PREFIX}").`);
          }
        });
        spec.tests(context, scratch);
      },
      { displayName: spec.displayName, preSelected: host.runner() === spec.runner && !spec.destructive },
    );
  }
}

/** A suite as {@link runDeclared} collects it. */
interface Declared {
  readonly before: Test[];
  readonly after: Test[];
  readonly steps: ({ readonly title: string; readonly fn: Test } | { readonly suite: Declared })[];
}

/**
 * Runs the tests `declare` declares, as mocha would (a suite's `before` hooks, its tests and
 * suites in order, its `after` hooks even after a failure; a failed `before` skips the suite),
 * inside one test: a batch whose tests loaded after Quench's run began (quench.ts). Throws
 * once, naming every failure.
 */
export async function runDeclared(declare: (context: QuenchContext) => void, assert: QuenchAssert): Promise<void> {
  const root: Declared = { before: [], after: [], steps: [] };
  let current = root;
  const failed: string[] = [];
  const attempt = async (name: string, fn: Test): Promise<boolean> => {
    try {
      await fn();
      return true;
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
  declare({
    describe: (_name, body) => {
      const parent = current;
      current = { before: [], after: [], steps: [] };
      parent.steps.push({ suite: current });
      body();
      current = parent;
    },
    it: (title, fn) => current.steps.push({ title, fn }),
    before: (fn) => current.before.push(fn),
    after: (fn) => current.after.push(fn),
    assert,
  });
  const run = async (suite: Declared): Promise<void> => {
    let ok = true;
    for (const hook of suite.before) if (ok) ok = await attempt("before", hook);
    for (const step of ok ? suite.steps : []) await ("suite" in step ? run(step.suite) : attempt(step.title, step.fn));
    for (const hook of suite.after) await attempt("after", hook);
  };
  await run(root);
  if (failed.length > 0) throw new Error(failed.join("; "));
}

// ── what the batches expect ─────────────────────────────────────────────────────────────

/**
 * The compendium hero the import batch brings in, and its derived values as the rules work
 * them out from the pack's abilities (test/foundry/self-test/self-test.test.ts checks these against the
 * pack source and the rules).
 */
export const COMPENDIUM_HERO = { pack: "heroes", name: "Halogen", healthMax: 52, karmaMax: 60, initiative: 1, items: 7 } as const;

/**
 * An actor as an old version stored it: bare-number abilities, a digit string, pools with only
 * `max` or `current`. The migration batch creates it and runs the real migration.
 */
export const OLD_SCHEMA_HERO = {
  abilities: { fighting: 30, agility: "20", strength: 10, endurance: 40, reason: 6, intuition: 10, psyche: 20 },
  health: { max: 77 },
  karma: { current: "12" },
} as const;

/** What the old-schema actor holds once migrated (stored values). */
export const MIGRATED_HERO = {
  abilities: { fighting: 30, agility: 20, strength: 10, endurance: 40, reason: 6, intuition: 10, psyche: 20 },
  health: 77,
  karma: 12,
} as const;

/** The exchange's attacker: an Unearthly fighter, so a hit comes within a few tries. */
export const EXCHANGE_ATTACKER = { abilities: { fighting: { value: 100 }, strength: { value: 30 } } } as const;
/** The exchange's target: a hero (no NPC auto-rolls, so Undo stays possible) with Health to spare. */
export const EXCHANGE_TARGET = { abilities: { endurance: { value: 100 } } } as const;
/** The weapon: a blunt melee weapon of its default rank, no ammunition. */
export const EXCHANGE_WEAPON = { attack: { enabled: true, type: "BA", range: 0 }, damage: { mode: "rank", rank: 10 }, ammunition: { tracked: false } } as const;
/** How many attacks the exchange batch makes at most before a hit (each a miss otherwise; all are deleted). */
export const MAX_ATTACK_TRIES = 8;

/** The Health a row's Apply leaves and its Undo gives back, from the card's record. */
export function expectedHealth(applied: { readonly healthBefore: number; readonly healthAfter: number }): { afterApply: number; afterUndo: number } {
  if (applied.healthAfter > applied.healthBefore) throw new RangeError("Applied damage cannot raise Health.");
  return { afterApply: applied.healthAfter, afterUndo: applied.healthBefore };
}

/** The most phase steps the turn batch takes before it gives up (a whole turn is six). */
export const MAX_TURN_STEPS = 12;

/**
 * Checks a walk through one CASE turn as the tracker went: it starts in Declare, visits the
 * phases in the table's order (Extra actions and Extra rounds may be passed by), and ends in
 * the next turn's Declare, one turn number later. Returns what is wrong (empty when right).
 */
export function turnWalkProblems(phases: readonly TurnPhase[], startNumber: number, endNumber: number): string[] {
  const problems: string[] = [];
  if (phases[0] !== "declare") problems.push(`the turn starts in ${String(phases[0])}, not declare`);
  if (phases.at(-1) !== "declare" || phases.length < 2) problems.push("the turn does not come back to declare");
  const inner = phases.slice(1, -1);
  const order = inner.map((p) => TURN_PHASES.indexOf(p));
  for (let i = 1; i < order.length; i++) {
    if ((order[i] ?? 0) < (order[i - 1] ?? 0)) problems.push(`${String(inner[i])} came after ${String(inner[i - 1])}`);
  }
  for (const needed of ["initiative", "resolve", "wrapUp"] as const) if (!inner.includes(needed)) problems.push(`the turn skipped ${needed}`);
  if (new Set(inner).size !== inner.length && !inner.every((p, i) => p === "extraRounds" || inner.indexOf(p) === i)) problems.push("a phase came twice");
  if (endNumber !== startNumber + 1) problems.push(`the turn number went from ${String(startNumber)} to ${String(endNumber)}`);
  return problems;
}

/**
 * What a player's Apply damage must meet, by the world's "who may apply damage" setting: the
 * owners may apply (then Undo too), or only the GM may (a player's click is refused as forbidden).
 */
export function playerApplyExpectation(damageAppliedBy: string): "applies" | "forbidden" {
  return damageAppliedBy === "owners" ? "applies" : "forbidden";
}
