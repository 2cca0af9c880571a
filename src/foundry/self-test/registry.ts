/**
 * The self-test's registry (pure: no Foundry, no DOM): Quench's API as the batches use it, the
 * list of batches and who runs each, the scratch recorder and the registration wrapper. Split
 * from batches.ts (which re-exports all of it) so the core chunk can register every batch at
 * `quenchReady` without the batches' tests and expected values (quench.ts).
 */

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

/** Who runs a batch: the GM in the world's first browser, or a player in a second one. */
export type Runner = "gm" | "player";

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

/** The batches, by id: their display names and who runs them. The tests live in the Foundry modules. */
export const BATCHES = {
  versions: { displayName: "CASE: Foundry 13 and 14 (conditions, flag deletion, enricher links)", runner: "gm" },
  feat: { displayName: "CASE: a FEAT roll (ability and sub-score cards)", runner: "gm" },
  exchange: { displayName: "CASE: an attack exchange (attack, defend, apply, undo through the GM's router)", runner: "gm" },
  turn: { displayName: "CASE: one CASE turn in the tracker (declare to wrap-up)", runner: "gm" },
  compendium: { displayName: "CASE: import a compendium hero (derived values)", runner: "gm" },
  migration: { displayName: "CASE: migrate an old-schema actor", runner: "gm" },
  player: {
    displayName: "CASE: second browser (player): log in as a player who owns a hero with an attack, GM connected, and run this there",
    runner: "player",
  },
  areas: { displayName: "CASE: an area attack (a template on 13; the area's placement is one function for 14's Regions)", runner: "gm" },
  effects: { displayName: "CASE: Active Effects (an ability, a protection, and @rank on a power)", runner: "gm" },
  builder: { displayName: "CASE: the character builder (a power from the Powers pack keeps its rank)", runner: "gm" },
  karma: { displayName: "CASE: the Karma tab (award, advance, log, group pool)", runner: "gm" },
  rest: { displayName: "CASE: rest and recovery (Health and lost Endurance ranks)", runner: "gm" },
  rollRequest: { displayName: "CASE: a roll request (asked, rolled once on the GM)", runner: "gm" },
  minorFoes: { displayName: "CASE: minor foes (one group in the tracker, out of the fight on a hit)", runner: "gm" },
  slam: { displayName: "CASE: a slam moves the token", runner: "gm" },
  firstAid: { displayName: "CASE: first aid in the tracker", runner: "gm" },
  impact: { displayName: "CASE: an impact (a fall)", runner: "gm" },
  regeneration: { displayName: "CASE: regeneration at wrap-up", runner: "gm" },
  applySelected: { displayName: "CASE: Apply to selected tokens", runner: "gm" },
  deletion: { displayName: "CASE: a deletion really deletes (compat flag deletion, a used foe bonus)", runner: "gm" },
  clearChat: {
    displayName: "CASE: Clear Chat Log mid-combat (clears this world's whole chat log: tick it only in a test world with an empty log)",
    runner: "gm",
    destructive: true,
  },
} as const satisfies Record<string, { displayName: string; runner: Runner; destructive?: true }>;

export type BatchId = keyof typeof BATCHES;

/** Quench's key of batch `id`. */
export function batchKey(id: BatchId): string {
  return `case.${id}`;
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
 * test failed) and fails, naming them, if any deletion failed. The batches the registering
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
