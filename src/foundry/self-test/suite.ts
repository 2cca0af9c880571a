/**
 * The self-test's batches, in the order Quench lists them, and their registration with
 * Quench. Loaded only when Quench is ready (quench.ts imports this file with `import()`), so
 * a world without Quench never downloads the batches.
 */
import { applySelectedBatch } from "./apply-selected";
import { areasBatch } from "./areas";
import { registerBatches, type BatchSpec, type Quench } from "./batches";
import { builderBatch } from "./builder";
import { clearChatBatch } from "./clear-chat";
import { compendiumBatch } from "./compendium";
import { deletionBatch } from "./deletion";
import { effectsBatch } from "./effects";
import { exchangeBatch } from "./exchange";
import { featBatch } from "./feat";
import { firstAidBatch } from "./first-aid";
import { impactBatch } from "./impact";
import { karmaBatch } from "./karma";
import { migrationBatch } from "./migration";
import { minorFoesBatch } from "./minor-foes";
import { playerBatch } from "./player";
import { regenerationBatch } from "./regeneration";
import { restBatch } from "./rest";
import { rollRequestBatch } from "./roll-request";
import { currentRunner, stillExists, type Scratch } from "./scratch";
import { slamBatch } from "./slam";
import { turnBatch } from "./turn";
import { versionsBatch } from "./versions";

/** One batch of this suite. */
export type SelfTestSpec = BatchSpec<Scratch>;

/** Runs a batch whose tests loaded after Quench's run began (quench.ts). */
export { runDeclared } from "./batches";

/** Every batch, in the order Quench lists them. */
export const SELF_TEST_BATCHES: readonly SelfTestSpec[] = [
  versionsBatch,
  featBatch,
  exchangeBatch,
  turnBatch,
  compendiumBatch,
  migrationBatch,
  playerBatch,
  areasBatch,
  effectsBatch,
  builderBatch,
  karmaBatch,
  restBatch,
  rollRequestBatch,
  minorFoesBatch,
  slamBatch,
  firstAidBatch,
  impactBatch,
  regenerationBatch,
  applySelectedBatch,
  deletionBatch,
  clearChatBatch,
];

/** Registers every batch with Quench. */
export function registerSuite(quench: Quench): void {
  registerBatches(quench, SELF_TEST_BATCHES, { runner: currentRunner, exists: stillExists });
}
