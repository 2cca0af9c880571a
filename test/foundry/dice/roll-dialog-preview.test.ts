/**
 * The roll dialog preview: what the dialog shows, live, before the roll (the column after
 * shifts, the colour needed, its odds and the chance of success), from the rules'
 * `previewAction`, rendered with the real templates. Expected values are read off the
 * reference's Universal Table (test/fixtures/CASE-RULES.md §2), worked by hand.
 */
import "../../support/foundry-globals";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IMPOSSIBLE, previewAction, resolveAction } from "../../../src/rules/index";
import { rollDialogContext, rollPreviewContext, type RollDialogSubject } from "../../../src/foundry/dice/roll-dialog";
import { DEFAULT_ROLL_INPUT } from "../../../src/foundry/dice/roll-input";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, queryOne, text } from "../../support/html";

/** Kestrel's Agy (dex): Remarkable 30, Marksman +1 CS, 56 Karma. */
const DEX: RollDialogSubject = { subject: "Kestrel: Agy (dex)", value: 30, karmaPool: 56, talents: ["Marksman"], talentCs: "+1", talentShift: 1 };

function previewHtml(form: Record<string, unknown>) {
  return parseHtml(renderTemplate("templates/dialog/roll-preview.hbs", { preview: rollPreviewContext(DEX, form) }));
}

describe("roll dialog preview: the rules", () => {
  it("Remarkable +2 CS against an Incredible intensity: read on Amazing, red needed (rank before shifts), 10% (red from 91)", () => {
    const p = previewAction({ value: 30, cs: 2, intensity: 40 });
    expect([p.column.key, p.required, p.success]).toEqual(["amazing", "red", 0.1]);
    // Amazing: green from 26, yellow from 56, red from 91.
    expect(p.odds).toEqual({ white: 0.25, green: 0.3, yellow: 0.35, red: 0.1 });
    // 10 Karma adds 10 to the roll: red from 81.
    expect(previewAction({ value: 30, cs: 2, intensity: 40, karma: 10 }).success).toBe(0.2);
  });

  it("no intensity: green needed; shifted below Shift 0: impossible, 0%", () => {
    const p = previewAction({ value: 30 });
    expect([p.column.key, p.required, p.success]).toEqual(["remarkable", "green", 0.65]);
    const low = previewAction({ value: 2, cs: -2 });
    expect([low.belowShift0, low.required, low.success]).toEqual([true, IMPOSSIBLE, 0]);
  });

  it("property: the preview agrees with the roll (column, colour needed; a passing face means a chance above 0, a failing one below 100%), and more shift never lowers the chance", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150),
        fc.integer({ min: -6, max: 6 }),
        fc.integer({ min: 0, max: 5 }),
        fc.option(fc.constantFrom(6, 10, 20, 30, 40, 50, 75), { nil: undefined }),
        fc.integer({ min: 1, max: 100 }),
        (value, cs, extra, intensity, roll) => {
          const check = { value, cs, ...(intensity === undefined ? {} : { intensity }) };
          const p = previewAction(check);
          const r = resolveAction({ ...check, roll });
          expect(p.column.key).toBe(r.column.key);
          expect(p.required).toBe(r.required);
          if (r.success) expect(p.success).toBeGreaterThan(0);
          else expect(p.success).toBeLessThan(1);
          expect(previewAction({ ...check, cs: cs + extra }).success).toBeGreaterThanOrEqual(p.success);
        },
      ),
    );
  });
});

describe("roll dialog preview: the dialog", () => {
  it("opens with the talents' shift already counted: Remarkable +1 reads on Incredible, green needed", () => {
    const ctx = rollDialogContext(DEX, DEFAULT_ROLL_INPUT, "r1");
    expect(ctx.preview).toMatchObject({ ok: true, cs: "+1", columnKey: "CASE.Rank.incredible", moved: true, requiredKey: "CASE.Color.green", success: 70 });
    const doc = parseHtml(renderTemplate("templates/dialog/roll-dialog.hbs", ctx));
    const section = queryOne(doc, "section.roll-dialog-preview");
    expect(text(queryOne(section, ".roll-preview-column"))).toBe("Read on: Incredible (after +1 CS)");
  });

  it("updates as the user changes shifts, intensity and Karma (form values as the browser sends them)", () => {
    const doc = previewHtml({ cs: "1", intensity: "40", karma: "10", reason: "", blindsided: false });
    expect(text(queryOne(doc, ".roll-preview-column"))).toBe("Read on: Amazing (after +2 CS)");
    expect(text(queryOne(doc, ".roll-preview-needed"))).toBe("Needs: Red · Chance of success: 20% (with 10 Karma)");
    expect(queryAll(doc, ".roll-preview-odds .odds").map(text)).toEqual(["W 25%", "G 30%", "Y 35%", "R 10%"]);
  });

  it("names the refused entry instead of guessing (Karma below the minimum, a shift too large)", () => {
    expect(text(queryOne(previewHtml({ cs: "0", karma: "5", intensity: "" }), ".roll-preview-error"))).toBe("Spend no Karma, or at least 10.");
    expect(text(queryOne(previewHtml({ cs: "40", karma: "0", intensity: "" }), ".roll-preview-error"))).toBe("The column shift must be a whole number from −16 to +16.");
  });

  it("a shift below Shift 0 says the roll cannot succeed", () => {
    const doc = previewHtml({ cs: "-8", karma: "0", intensity: "" });
    expect(text(queryOne(doc, ".roll-preview-column"))).toBe("Read on: Shift 0 (after −7 CS) · below Shift 0: cannot succeed");
    expect(text(queryOne(doc, ".roll-preview-needed"))).toContain("Needs: Impossible · Chance of success: 0%");
  });
});
