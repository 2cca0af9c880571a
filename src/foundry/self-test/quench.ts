/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …"),
 * and one a player runs in a second browser. Each batch makes what it needs in a scratch
 * recorder and deletes it in `after`, even when a test failed. The pure half (batches.ts) is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 */
import type { Quench } from "./batches";

/**
 * Registers the batches when Quench is ready (call in init; nothing happens without Quench).
 * The batches (suite.ts) load then, with `import()`: a world without Quench never fetches them.
 * They register a moment later than the hook (Quench's own example batches register later
 * still, on `ready`).
 */
export function registerSelfTest(): void {
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => Promise<void>) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", async (quench) => {
    const { registerSuite } = await import("./suite");
    registerSuite(quench);
  });
}
