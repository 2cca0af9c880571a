/**
 * `flags.case` is declared once (src/foundry/core/flags.ts: the keys, their types, one reader),
 * and `system` is read through the models' types or type guards. ESLint's `no-restricted-syntax`
 * block for src/foundry keeps `system as { … }` and hand-cast flag reads out; this checks the
 * rule on samples, that src/foundry is clean today, and that the reader refuses malformed flags
 * with a clear result.
 */
import "../../support/foundry-globals";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ESLint, Linter } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { caseFlag, readCaseFlag, statusDetailsOf } from "../../../src/foundry/core/flags";

let foundryRule: Linter.RuleEntry | undefined;

beforeAll(async () => {
  const eslint = new ESLint();
  foundryRule = ((await eslint.calculateConfigForFile("src/foundry/combat/state.ts")) as Linter.Config).rules?.["no-restricted-syntax"];
}, 60_000);

/** The rule's messages for `code` linted as a src/foundry file (syntax only: no type information needed). */
function lint(code: string, file = "src/foundry/example.ts"): Linter.LintMessage[] {
  if (!foundryRule) throw new Error("src/foundry has no no-restricted-syntax rule.");
  const linter = new Linter({ configType: "flat" });
  return linter.verify(code, [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, rules: { "no-restricted-syntax": foundryRule } }], file);
}

const DECLARATIONS = [
  "declare const SYSTEM_ID: string;",
  "declare const actor: { system: unknown; flags: Record<string, unknown> };",
  "declare const card: { system: unknown } | undefined;",
  "declare const system: unknown;",
  "declare const flags: Record<string, unknown> | undefined;",
];

describe("flags declared: the lint rule", () => {
  it("flags declared: fires on `system as {` in each spelling and on hand-cast flag reads", () => {
    const samples = [
      "export const a = (actor.system as { health: number }).health;",
      "export const b = (card?.system as { recordId?: string } | undefined)?.recordId;",
      "export const c = (system as { x?: unknown } | null)?.x;",
      "export const d = (actor.flags as Record<string, unknown>)[SYSTEM_ID];",
      "export const e = (flags?.[SYSTEM_ID] as { k?: unknown } | undefined)?.k;",
      "export const f = (actor.flags[SYSTEM_ID] as { k?: unknown } | undefined)?.k;",
    ];
    const messages = lint([...DECLARATIONS, ...samples].join("\n"));
    expect(messages.map((m) => m.line)).toEqual(samples.map((_, i) => DECLARATIONS.length + i + 1));
    expect(messages.slice(0, 3).every((m) => m.message.includes("system as {"))).toBe(true);
    expect(messages.slice(3).every((m) => m.message.includes("core/flags.ts"))).toBe(true);
  });

  it("flags declared: leaves the declared reader, the guards and other casts alone", () => {
    const code = [
      ...DECLARATIONS,
      "declare function caseFlag(flags: unknown, key: string): unknown;",
      "declare function fieldOf(value: unknown, key: string): unknown;",
      "export const a = caseFlag(actor.flags, 'outOfFight');",
      "export const b = fieldOf(actor.system, 'description');",
      "export const c = actor.system as number;",
      "export const d = (card as { id: string } | undefined)?.id;",
    ].join("\n");
    expect(lint(code)).toEqual([]);
  });

  it("flags declared: src/foundry has no `system as {` and no hand-cast flag read today", () => {
    const root = join("src", "foundry");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(50);
    // Every form the rule catches has one of these words right before `as`; only such files are parsed.
    const suspects = files.map((f) => ({ f, code: readFileSync(join(root, f), "utf8") })).filter(({ code }) => /(system|flags|SYSTEM_ID\])\s+as\s/.test(code));
    const offenders = suspects.flatMap(({ f, code }) => lint(code, join(root, f)).map((m) => `${f}:${String(m.line)}`));
    expect(offenders).toEqual([]);
  });
});

describe("flags declared: the one reader", () => {
  const ledgerEntry = { id: "r1", field: "system.health.value", before: 30, after: 20, nonce: "n1" };
  const move = { heading: "away", to: { x: 3, y: 4 }, areas: 2, edge: false };

  it("flags declared: reads each key through its declared type, absent as undefined", () => {
    const flags = { case: { outOfFight: 1, defenceKeys: ["dodge", 3, "block"], slamMove: { id: "s", move, nonce: "n" }, areaItem: "Item.x", ledger: [ledgerEntry, { id: 5 }] } };
    expect(readCaseFlag(flags, "outOfFight")).toEqual({ ok: true, value: 1 });
    expect(caseFlag(flags, "defenceKeys")).toEqual(["dodge", "block"]);
    expect(caseFlag(flags, "slamMove")).toEqual({ id: "s", move, nonce: "n" });
    expect(caseFlag(flags, "areaItem")).toBe("Item.x");
    expect(caseFlag(flags, "ledger")).toEqual([ledgerEntry]);
    expect(readCaseFlag(flags, "foeBonus")).toEqual({ ok: true, value: undefined });
    expect(readCaseFlag({}, "ledger")).toEqual({ ok: true, value: undefined });
    expect(readCaseFlag(null, "areaItem")).toEqual({ ok: true, value: undefined });
    expect(readCaseFlag({ case: "not a record" }, "areaItem")).toEqual({ ok: true, value: undefined });
  });

  it("flags declared: rejects malformed flags with a clear result, and caseFlag reads them as absent", () => {
    const flags = { case: { outOfFight: "yes", defenceKeys: "dodge", slamMove: { id: "s", move: { heading: "up" } }, foeBonus: 2, areaItem: 7, ledger: {} } };
    expect(readCaseFlag(flags, "outOfFight")).toEqual({ ok: false, error: 'flags.case.outOfFight is not 0 or 1: "yes"' });
    const slam = readCaseFlag(flags, "slamMove");
    expect(slam.ok).toBe(false);
    expect(slam.ok ? "" : slam.error).toMatch(/^flags\.case\.slamMove is not a slam move/);
    for (const key of ["defenceKeys", "foeBonus", "areaItem", "ledger"] as const) {
      const read = readCaseFlag(flags, key);
      expect(read.ok, key).toBe(false);
      expect(read.ok ? "" : read.error).toContain(`flags.case.${key} is not`);
      expect(caseFlag(flags, key)).toBeUndefined();
    }
  });

  it("flags declared: a condition's details keep only the fields of their declared types", () => {
    expect(statusDetailsOf({ case: { turns: 2, startsNextTurn: true, areas: "sight", holderUuid: 5, aided: "yes", other: 1 } })).toEqual({ turns: 2, startsNextTurn: true, areas: "sight" });
    expect(statusDetailsOf(undefined)).toEqual({});
  });
});
