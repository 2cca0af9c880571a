/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …"),
 * and one a player runs in a second browser. Each batch makes what it needs in a scratch
 * recorder and deletes it in `after`, even when a test failed. The pure half (batches.ts) is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 */
import { BATCHES, batchKey, type BatchId, type Runner } from "./batch-list";
import type { Quench, QuenchContext } from "./batches";
import type * as SuiteModule from "./suite";

type Suite = typeof SuiteModule;

/**
 * Registers the batches when Quench is ready (call in init; nothing happens without Quench).
 * The batches (suite.ts) load with `import()`, so a world without Quench never fetches them;
 * with Quench active they start loading at init. Quench calls `quenchReady` in its `setup` hook
 * and, with its auto-run setting, runs the ticked batches at `ready`, calling each registered
 * batch's function then and keeping only what that call declares synchronously (Quench's
 * `runSelectedBatches`, public Ethaks/FVTT-Quench src/module/quench.ts). So when the batches
 * have not loaded by `quenchReady`, every batch is registered there and then from its name
 * (batch-list.ts); a run before they load declares one test per batch that awaits them and
 * runs the batch as registered (its user check, tests and cleanup: `runDeclared`); a run after
 * declares the batch's own tests.
 */
export function registerSelfTest(): void {
  const loading = game.modules.get("quench")?.active === true ? loadSuite() : null;
  let loaded: Suite | null = null;
  // A failed load is reported by the test that awaits it (or the hook below).
  void loading?.then(
    (suite) => (loaded = suite),
    () => undefined,
  );
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => void) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", (quench) => {
    if (loaded) { loaded.registerSuite(quench); return; }
    const real = new Map<string, (context: QuenchContext) => void>();
    const ready = (loading ?? loadSuite()).then((suite) => {
      suite.registerSuite({ registerBatch: (key, fn) => real.set(key, fn) });
      return suite;
    });
    const me: Runner = game.user.isGM ? "gm" : "player";
    for (const id of Object.keys(BATCHES) as BatchId[]) {
      const key = batchKey(id);
      const batch: { displayName: string; runner: Runner; destructive?: true } = BATCHES[id];
      const body = (context: QuenchContext): void => {
        const fn = real.get(key);
        if (fn) {
          fn(context);
          return;
        }
        context.it("runs once the CASE batches have loaded", async () => {
          const suite = await ready;
          const late = real.get(key);
          if (!late) throw new Error(`The CASE self-test has no batch ${key}.`);
          await suite.runDeclared(late, context.assert);
        });
      };
      quench.registerBatch(key, body, { displayName: batch.displayName, preSelected: batch.runner === me && batch.destructive !== true });
    }
  });
}

function loadSuite(): Promise<Suite> {
  return import("./suite");
}
