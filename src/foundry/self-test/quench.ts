/**
 * The in-Foundry self-test: when the Quench module (the community's in-Foundry test runner)
 * is active, CASE registers batches a GM runs in their own world (Quench's window, "CASE: …"),
 * and one a player runs in a second browser. Each batch makes what it needs in a scratch
 * recorder and deletes it in `after`, even when a test failed. The pure half (batches.ts) is
 * tested in this repository; these batches prove the Foundry side on a real server, on
 * Foundry 13 or 14.
 */
import { registerBatches, type BatchSpec, type Quench } from "./batches";
import { compendiumBatch } from "./compendium";
import { exchangeBatch } from "./exchange";
import { featBatch } from "./feat";
import { migrationBatch } from "./migration";
import { playerBatch } from "./player";
import { currentRunner, stillExists, type Scratch } from "./scratch";
import { turnBatch } from "./turn";
import { versionsBatch } from "./versions";

/** Every batch, in the order Quench lists them. */
export const SELF_TEST_BATCHES: readonly BatchSpec<Scratch>[] = [versionsBatch, featBatch, exchangeBatch, turnBatch, compendiumBatch, migrationBatch, playerBatch];

/** Registers the batches when Quench is ready (call in init; nothing happens without Quench). */
export function registerSelfTest(): void {
  // Quench's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const once: (this: typeof Hooks, hook: string, fn: (quench: Quench) => void) => number = Reflect.get(Hooks, "once");
  once.call(Hooks, "quenchReady", (quench) => {
    registerBatches(quench, SELF_TEST_BATCHES, { runner: currentRunner, exists: stillExists });
  });
}
