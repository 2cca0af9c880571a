/**
 * A refused declaration is told in the reader's language (src/foundry/apps/tracker/declare-dialog.ts):
 * the rules' text of its key from the language file, not the rules' English. The i18n double
 * here has a text of its own for the key, so only the key's text can pass.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubI18nAndNotifications } from "../../../support/foundry-stubs";
import { localize } from "../../../support/handlebars";
import { bulkDeclarationsFromForm, declarationFromForm } from "../../../../src/foundry/apps/tracker/declare-context";
import { notifyBadDeclaration } from "../../../../src/foundry/apps/tracker/declare-dialog";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** game.i18n with this reader's own texts for some keys, en.json's for the rest. */
function readerWith(own: Record<string, string>) {
  const say = (key: string, data: Record<string, unknown> = {}): string => (own[key] ?? localize(key)).replace(/\{(\w+)\}/g, (m, name: string) => (name in data ? String(data[name]) : m));
  return stubI18nAndNotifications({ i18n: { localize: (key: string) => say(key), format: say } });
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("a refused declaration", () => {
  it("rules errors localised: a declaration too long is told from the language file, its numbers filled in", () => {
    const notifications = readerWith({ "CASE.RulesError.turnDeclarationTextLong": "Höchstens {max} Zeichen, nicht {got}." });
    notifyBadDeclaration(thrown(() => declarationFromForm({ text: "x".repeat(501) })));
    expect(notifications.error).toHaveBeenCalledWith("That declaration was not accepted: Höchstens 500 Zeichen, nicht 501.");
  });

  it("rules errors localised: a bad line of the bulk form names its NPC, the refusal in the reader's language", () => {
    const notifications = readerWith({ "CASE.RulesError.notInRange": "{field}: {min}–{max}, nicht {got}.", "CASE.RulesField.turnActionsDeclared": "Aktionen" });
    const npcs = [{ id: "thug000000000001", name: "Gravel Gang Bruiser" }];
    notifyBadDeclaration(thrown(() => bulkDeclarationsFromForm({ "text-thug000000000001": "Run", "actions-thug000000000001": "9" }, npcs)));
    expect(notifications.error).toHaveBeenCalledWith("That declaration was not accepted: Gravel Gang Bruiser: Aktionen: 1–8, nicht 9.");
  });
});
