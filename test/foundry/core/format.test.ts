/**
 * One home: the whole-number form reader (src/foundry/core/format.ts `readWhole`), which every
 * dialog and window form reads a typed whole number through, and which reads back what the
 * signed-number formatter writes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSigned, readWhole } from "../../../src/foundry/core/format";

describe("one home: the whole-number form reader", () => {
  it("reads what formatSigned writes, and numbers a form already holds", () => {
    for (const n of [-16, -2, 0, 3, 1000]) expect(readWhole(formatSigned(n))).toBe(n);
    expect(readWhole(" 7 ")).toBe(7);
    expect(readWhole("\u2013" + "4")).toBe(-4);
    expect(readWhole(12)).toBe(12);
  });

  it("refuses what is not a whole number in range, never rounding or clamping", () => {
    for (const bad of ["1.5", "abc", "5 5", "--3", 2.5, Number.NaN, 2 ** 53, {}, true]) expect(readWhole(bad), JSON.stringify(bad)).toBeNull();
    expect(readWhole("11", { min: 0, max: 10 })).toBeNull();
    expect(readWhole("-1", { min: 0, max: 10 })).toBeNull();
    expect(readWhole("10", { min: 0, max: 10 })).toBe(10);
  });

  it("a blank field is refused unless the form says what a blank means", () => {
    for (const blank of ["", "   ", null, undefined]) {
      expect(readWhole(blank)).toBeNull();
      expect(readWhole(blank, { blank: 0 })).toBe(0);
    }
  });

  it("no form in src/foundry keeps a copy of its own", () => {
    const files = readdirSync("src/foundry", { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join("src/foundry", f));
    const copies = files.filter((f) => f !== join("src/foundry", "core", "format.ts") && /\.trim\(\) !== "" \? Number\(|function whole[A-Za-z]*\(/.test(readFileSync(f, "utf8")));
    expect(copies).toEqual([]);
  });
});
