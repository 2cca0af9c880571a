/**
 * Each stored shape is declared once, in its data model's schema, and src/foundry reads
 * documents through their own types: no `as unknown as` there. ESLint's `no-restricted-syntax`
 * block for src/foundry keeps it so; this checks that the block applies where it should, that
 * its selector catches both spellings of the double cast (and nothing else), and that the
 * source is clean today.
 */
import "../../support/foundry-globals";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ESLint, Linter } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

type RuleEntry = Linter.RuleEntry;

let foundryRule: RuleEntry | undefined;
let rulesRule: RuleEntry | undefined;

beforeAll(async () => {
  const eslint = new ESLint();
  foundryRule = ((await eslint.calculateConfigForFile("src/foundry/combat/state.ts")) as Linter.Config).rules?.["no-restricted-syntax"];
  rulesRule = ((await eslint.calculateConfigForFile("src/rules/turn/state.ts")) as Linter.Config).rules?.["no-restricted-syntax"];
}, 60_000);

/** The rule's messages for `code` linted as a src/foundry file. */
function lint(code: string): Linter.LintMessage[] {
  if (!foundryRule) throw new Error("src/foundry has no no-restricted-syntax rule.");
  const linter = new Linter({ configType: "flat" });
  return linter.verify(code, [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, rules: { "no-restricted-syntax": foundryRule } }], "src/foundry/example.ts");
}

describe("no `as unknown as` in src/foundry", () => {
  it("the lint rule is on for src/foundry, and only there", () => {
    expect(foundryRule).toBeDefined();
    expect(JSON.stringify(foundryRule)).toContain("TSUnknownKeyword");
    expect(JSON.stringify(rulesRule ?? null)).not.toContain("TSUnknownKeyword");
  });

  it("catches the double cast in both spellings", () => {
    const flagged = lint(
      ["declare const v: number;", "export const a = v as unknown as string;", "export const b = <string>(<unknown>v);", "export const c = (v as unknown) as string;"].join("\n"),
    );
    expect(flagged.map((m) => m.line)).toEqual([2, 3, 4]);
    expect(flagged[0]?.message).toMatch(/as unknown as/);
  });

  it("leaves single casts, casts to unknown and type guards alone", () => {
    const code = [
      "declare const v: number | string;",
      "export const a = v as string;",
      "export const b = v as unknown;",
      "export const c = (v as number as unknown);",
      "export const d = typeof v === 'string' ? v : String(v);",
    ].join("\n");
    expect(lint(code)).toEqual([]);
  });

  it("src/foundry has none today", () => {
    const root = join("src", "foundry");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((f) => /\bas\s+unknown\s+as\b/.test(readFileSync(join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("values from outside the types are checked, not cast", () => {
  it("Dice So Nice's game.dice3d counts only with a showForRoll function", async () => {
    const { diceSoNiceOf } = await import("../../../src/foundry/dice/dice-so-nice");
    const dice3d = { showForRoll: () => Promise.resolve(true) };
    expect(diceSoNiceOf({ dice3d })).toBe(dice3d);
    expect(diceSoNiceOf({})).toBeNull();
    expect(diceSoNiceOf({ dice3d: null })).toBeNull();
    expect(diceSoNiceOf({ dice3d: { showForRoll: "no" } })).toBeNull();
  });
});
