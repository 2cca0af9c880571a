/**
 * The README's pictures come from the tests: every image the README shows is under
 * docs/first-fight/ and named in scripts/docs-pictures.ts, whose screenshot a browser test
 * takes (the test file writes that path), so `npm run docs:pictures` can make it again.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PICTURES } from "../scripts/docs-pictures";

describe("the README's pictures", () => {
  it("README pictures come from the tests: each one shown is made by a named browser test's screenshot", () => {
    const shown = [...readFileSync("README.md", "utf8").matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1] ?? "");
    expect(shown.length).toBeGreaterThan(0);
    const made = new Map(PICTURES.map((p) => [`docs/first-fight/${p.name}`, p]));
    for (const path of shown) {
      const picture = made.get(path);
      expect(picture, `${path} is not made by scripts/docs-pictures.ts`).toBeDefined();
      expect(existsSync(path), path).toBe(true);
      if (picture) expect(readFileSync(picture.test, "utf8")).toContain(picture.written ?? `test/artifacts/${picture.screenshot}`);
    }
  });
});
