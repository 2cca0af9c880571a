/**
 * The first `npm test` on a fresh machine: several vitest workers asked for the packaged
 * Chromium at once, unpacked it into the same file, and one started it half-written
 * (`spawn ETXTBSY`). test/support/chromium-unpack.ts unpacks into a staging folder of its own
 * and renames it into place; vitest's globalSetup does it once before any worker starts.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM_DIR } from "../support/chromium-unpack";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "case-unpack-test-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Unpacks into `dir` in a separate Node process (as a vitest worker of another run would); prints the binary's path. */
async function unpackInProcess(dir: string): Promise<string> {
  const script = `import(${JSON.stringify(new URL("../support/chromium-unpack.ts", import.meta.url).pathname)}).then((m) => m.unpackChromium(${JSON.stringify(dir)})).then((p) => process.stdout.write(p))`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "-e", script], { timeout: 60_000 });
  return stdout;
}

describe("the packaged Chromium", () => {
  it("is chromium unpacked once into its own folder: three processes racing on an empty folder all get one whole, working binary; a claim a dead run left is taken over", async () => {
    const dir = join(scratch, "chromium");
    // A run that died mid-unpack left its claim ten minutes ago: one racer takes it over, the others wait for that one's copy.
    const stale = `${dir}.claim`;
    mkdirSync(stale);
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(stale, tenMinutesAgo, tenMinutesAgo);
    const paths = await Promise.all([1, 2, 3].map(() => unpackInProcess(dir)));
    expect(new Set(paths)).toEqual(new Set([join(dir, "chromium")]));
    const { stdout } = await run(join(dir, "chromium"), ["--version"], { timeout: 30_000 });
    expect(stdout).toMatch(/Chromium \d+/);
    // The claim and every staging copy were removed; only the one folder is left beside nothing else.
    expect(readdirSync(scratch)).toEqual(["chromium"]);
  }, 120_000);

  it("is unpacked before any worker starts, by vitest's globalSetup", () => {
    expect(existsSync(join(CHROMIUM_DIR, ".unpacked"))).toBe(true);
  });
});
