/**
 * Unpacks the browser tests' Chromium (the npm package @sparticuz/chromium ships it compressed
 * inside the package) once, into a folder no concurrent run can be writing.
 *
 * The package unpacks into the system's temporary folder and, on a later call, returns the
 * binary as soon as its path exists. Several vitest workers starting on a fresh machine all
 * found no binary, all began writing the same file, and one started it while another was still
 * writing it (`spawn ETXTBSY`). So: each unpack goes into a staging folder of its own (the
 * package's temporary folder pointed there for the call), a marker file is written when it is
 * whole, and the folder is renamed into place. A rename is atomic: a reader sees no folder or a
 * whole one. Runs that start together do not each unpack: the first to claim the folder does,
 * the others wait for its whole copy (should two ever unpack, the later rename loses and takes
 * the winner's copy).
 *
 * vitest's globalSetup (./chromium-global-setup.ts) calls this once before any worker starts;
 * a worker calls it again (test/support/browser.ts) and finds the folder ready.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import packagedChromium from "@sparticuz/chromium";

const NODE_MODULES = resolve(import.meta.dirname, "../../node_modules");

/** The package's version (its package.json is not among its exports): an update unpacks afresh beside the old one. */
const VERSION = (JSON.parse(readFileSync(join(NODE_MODULES, "@sparticuz/chromium/package.json"), "utf8")) as { version: string }).version;

/** Where the browser is unpacked: under node_modules/.cache, so it goes with the install. */
export const CHROMIUM_DIR = join(NODE_MODULES, ".cache/case-chromium", VERSION);

/** The file written last into a whole unpack. */
const READY_MARKER = ".unpacked";

/**
 * The unpacked Chromium's binary in `dir`, unpacking it first when it is not there. Safe to
 * call from many processes and threads at once.
 */
export async function unpackChromium(dir: string = CHROMIUM_DIR): Promise<string> {
  const binary = join(dir, "chromium");
  if (isReady(dir)) return binary;
  mkdirSync(dirname(dir), { recursive: true });
  // One run unpacks (the one whose claim, a folder, was made first: mkdir is atomic); the others
  // wait for its whole copy instead of unpacking 200 MB each. A claim left by a run that died
  // (older than CLAIM_STALE_MS, the folder still not ready) is taken over.
  const claim = `${dir}.claim`;
  for (;;) {
    if (claimed(claim)) break;
    if (await readyWithin(dir, claim)) return binary;
  }
  try {
    await unpackOnce(dir);
  } finally {
    rmSync(claim, { recursive: true, force: true });
  }
  return binary;
}

/** How old a claim may grow before another run takes it over: an unpack takes some 2 s. */
const CLAIM_STALE_MS = 60_000;

/** Makes the claim; false when another run holds it. */
function claimed(claim: string): boolean {
  try {
    mkdirSync(claim);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Waits while another run holds the claim: true once the folder is ready, false when the claim is gone or went stale (try again). */
async function readyWithin(dir: string, claim: string): Promise<boolean> {
  for (;;) {
    if (isReady(dir)) return true;
    let since: number;
    try {
      since = statSync(claim).mtimeMs;
    } catch {
      return isReady(dir);
    }
    if (Date.now() - since > CLAIM_STALE_MS) {
      rmSync(claim, { recursive: true, force: true });
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Unpacks into a staging folder of its own and renames it into place (a reader sees no folder or a whole one). */
async function unpackOnce(dir: string): Promise<void> {
  if (isReady(dir)) return;
  const staging = mkdtempSync(join(dirname(dir), ".staging-"));
  try {
    const unpacked = await unpackInto(staging);
    if (unpacked !== join(staging, "chromium")) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${staging}.`);
    writeFileSync(join(staging, READY_MARKER), VERSION);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another run renamed its whole copy into place first: take that one.
      if (!isReady(dir)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function isReady(dir: string): boolean {
  const marker = join(dir, READY_MARKER);
  return existsSync(marker) && readFileSync(marker, "utf8") === VERSION;
}

/** Calls after one another in this thread: the temporary folder is this thread's environment. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The package's unpack with the temporary folder pointed at `staging` for the call. A worker
 * thread has its own copy of `process.env`, so this changes nothing for other threads.
 */
function unpackInto(staging: string): Promise<string> {
  const run = queue.then(async () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    try {
      return await packagedChromium.executablePath();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
