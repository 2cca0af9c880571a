/**
 * The self-test's batches, in the order Quench lists them, and their registration with
 * Quench. Loaded only when Quench is ready (quench.ts imports this file with `import()`), so
 * a world without Quench never downloads the batches.
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

/** Registers every batch with Quench. */
export function registerSuite(quench: Quench): void {
  registerBatches(quench, SELF_TEST_BATCHES, { runner: currentRunner, exists: stillExists });
}
