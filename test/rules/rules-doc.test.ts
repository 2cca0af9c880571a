import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULES_DOC_PATH, SHARED_RULES_DOC_PATH } from "../support/rules-doc";

describe("the rules document the tests read", () => {
  it.runIf(existsSync(SHARED_RULES_DOC_PATH))("is the same as ../shared/rules/CASE-RULES.md", () => {
    expect(readFileSync(RULES_DOC_PATH, "utf8")).toBe(readFileSync(SHARED_RULES_DOC_PATH, "utf8"));
  });
});
