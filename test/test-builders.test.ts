/**
 * One home for what tests build: an attack exchange's input comes from
 * test/support/exchange-input.ts (`exchangeInput`, `exchangeTarget`) and the tracker's input
 * from test/support/combat-world.ts (`trackerInputFor`), never written out again in a test.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const testFiles = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join("test", f));

/** The test files (other than `home`) whose text matches `pattern`. */
function writtenAgain(pattern: RegExp, home: string): string[] {
  return testFiles.filter((f) => f !== join("test", "support", home) && f !== join("test", "test-builders.test.ts") && pattern.test(readFileSync(f, "utf8")));
}

describe("one home: the tests' builders", () => {
  it("every test that makes an attack exchange by hand takes its input from exchangeInput", () => {
    // A whole input written out: the builder's defaults spelled again.
    expect(writtenAgain(/^\s*toHitCs: \[\],$|calledShot: false,\s*blindsided: (?:false|true),\s*projectile:/m, "exchange-input.ts")).toEqual([]);
  });

  it("every test that shows the tracker of a turn world takes its input from trackerInputFor", () => {
    expect(writtenAgain(/started(?:: \w+)?, system: \w+\.combat\b/, "combat-world.ts")).toEqual([]);
  });
});
