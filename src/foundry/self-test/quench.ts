/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …"),
 * and one a player runs in a second browser. Each batch makes what it needs in a scratch
 * recorder and deletes it in `after`, even when a test failed. The pure half (batches.ts) is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 */
import { BATCHES, batchSpec, registerBatches, runDeclared, type BatchId, type Quench } from "./registry";
import type * as SuiteModule from "./suite";

type Suite = typeof SuiteModule;

/**
 * Registers the batches when Quench is ready (call in init; nothing happens without Quench).
 * The batches' tests (suite.ts) load with `import()`, so a world without Quench never fetches
 * them; with Quench active they start loading at init. Quench calls `quenchReady` in its
 * `setup` hook and, with its auto-run setting, runs the ticked batches at `ready`, calling each
 * batch's function then and declaring only what that call declares synchronously (Quench's
 * `runSelectedBatches`, public Ethaks/FVTT-Quench src/module/quench.ts). So every batch is
 * registered inside the hook, synchronously, from its name (registry.ts, in the core chunk): loaded by the run, it
 * declares its own tests; still loading, one test that awaits the chunk and runs the batch's
 * tests in order (`runDeclared`), with the same user check and cleanup.
 */
export function registerSelfTest(): void {
  const loading = game.modules.get("quench")?.active === true ? loadSuite() : null;
  let loaded: Suite | null = null;
  // A failed load is reported by the batches' test that awaits it.
  void loading?.then(
    (suite) => (loaded = suite),
    () => undefined,
  );
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => void) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", (quench) => {
    if (loaded) { loaded.registerSuite(quench); return; }
    const pending = loading ?? loadSuite();
    void pending.then((suite) => (loaded = suite), () => undefined);
    const specOf = (suite: Suite, id: BatchId): SuiteModule.SelfTestSpec | undefined => suite.SELF_TEST_BATCHES.find((s) => s.key === `case.${id}`);
    const specs = (Object.keys(BATCHES) as BatchId[]).map((id) =>
      batchSpec(id, (context, scratch) => {
        const spec = loaded && specOf(loaded, id);
        if (spec) { spec.tests(context, scratch); return; }
        context.it("runs once the CASE batches have loaded", async () => {
          const late = specOf(await pending, id);
          if (!late) throw new Error(`The CASE self-test has no batch case.${id}.`);
          await runDeclared((c) => { late.tests(c, scratch); }, context.assert);
        });
      }),
    );
    // As scratch.ts's currentRunner and stillExists (not imported: scratch.ts is the chunk's).
    registerBatches(quench, specs, { runner: () => (game.user.isGM ? "gm" : "player"), exists: (doc) => fromUuidSync(doc.uuid) !== null });
  });
}

function loadSuite(): Promise<Suite> {
  return import("./suite");
}
