/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …"),
 * and one a player runs in a second browser. Each batch makes what it needs in a scratch
 * recorder and deletes it in `after`, even when a test failed. The pure half (batches.ts) is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 */
import type { Quench } from "./batches";
import type * as SuiteModule from "./suite";

type Suite = typeof SuiteModule;

/**
 * Registers the batches when Quench is ready (call in init; nothing happens without Quench).
 * The batches (suite.ts) load with `import()`, so a world without Quench never fetches them.
 * When Quench is active they start loading at init: Quench calls `quenchReady` in its `setup`
 * hook and, with its auto-run setting, runs the ticked batches at `ready`; loaded by then, they
 * register inside the hook, as Quench's README shows, and auto-run finds them.
 */
export function registerSelfTest(): void {
  const loading = game.modules.get("quench")?.active === true ? loadSuite() : null;
  let loaded: Suite | null = null;
  // A failed load is reported once, by the hook below (it awaits the same promise).
  void loading?.then(
    (suite) => (loaded = suite),
    () => undefined,
  );
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => Promise<void>) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", async (quench) => {
    const suite = loaded ?? (await (loading ?? loadSuite()));
    suite.registerSuite(quench);
  });
}

function loadSuite(): Promise<Suite> {
  return import("./suite");
}
