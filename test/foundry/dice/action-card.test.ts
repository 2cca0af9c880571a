import { describe, expect, it } from "vitest";
import { actionCardContext, columnBands } from "../../../src/foundry/dice/action-card-context";
import { formatSigned } from "../../../src/foundry/core/format";
import { parseRollCheck, type RollCheck } from "../../../src/foundry/dice/roll-check";
import { parseRollInput } from "../../../src/foundry/dice/roll-input";
import { parseAttackInput } from "../../../src/foundry/exchange/attack-input";
import { UNIVERSAL_TABLE, universalColor, colorOdds } from "../../../src/rules/index";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, queryOne, text, attr } from "../../support/html";

const base: RollCheck = {
  label: "CASE.Score.agility.dex",
  localizeLabel: true,
  score: "agility.dex",
  value: 30,
  shifts: [],
  karma: 0,
  intensity: null,
  needed: null,
  blindsided: false,
  attack: null,
};

function card(check: RollCheck, die: number | null) {
  return parseHtml(renderTemplate("templates/chat/action-card.hbs", { ...actionCardContext(check, die, UNIVERSAL_TABLE), formula: "1d100" }));
}

describe("the Universal Table card", () => {
  it("before the roll: the column, its four bands with the exact odds, in a tooltip too", () => {
    const doc = card(base, null);
    expect(text(queryOne(doc, ".card-title"))).toBe("Agy (dex)");
    expect(text(queryOne(doc, ".card-rank"))).toBe("Remarkable (30)");
    const bands = queryAll(doc, "li.band").map((b) => [attr(b, "class"), text(b)]);
    // Remarkable: green from 36, yellow 66, red 95 (the rules table); odds 35/30/29/6.
    expect(bands).toEqual([
      ["band color-white", "1–35"],
      ["band color-green", "36–65"],
      ["band color-yellow", "66–94"],
      ["band color-red", "95–100"],
    ]);
    const odds = colorOdds(30);
    expect(attr(queryOne(doc, ".card-column"), "data-tooltip")).toBe(
      `White ${String(Math.round(odds.white * 100))}% · Green ${String(Math.round(odds.green * 100))}% · Yellow ${String(Math.round(odds.yellow * 100))}% · Red ${String(Math.round(odds.red * 100))}%`,
    );
    expect(queryAll(doc, ".card-result")).toHaveLength(0);
  });

  it("after the roll: the die, the colour, the band hit, success against the colour needed", () => {
    const doc = card(base, 70);
    expect(text(queryOne(doc, ".die"))).toBe("70");
    expect(text(queryOne(doc, ".color-chip"))).toBe("Yellow");
    expect(attr(queryOne(doc, "li.hit"), "class")).toContain("color-yellow");
    expect(text(queryOne(doc, ".card-outcome"))).toBe("Success (needed: Green)");
  });

  it("shifts with reasons, Karma added, and an intensity two ranks up is impossible", () => {
    const check: RollCheck = { ...base, shifts: [{ cs: -2, label: "Cover", localize: false }, { cs: 1, label: "Marksman", localize: false }], karma: 10, intensity: 40 };
    const view = actionCardContext(check, 30, UNIVERSAL_TABLE);
    expect(view.columnKey).toBe("CASE.Rank.excellent");
    expect(view.total).toBe(40);
    expect(view.color).toBe(universalColor(30, 40, -1));
    expect(view.required).toBe("red"); // Remarkable against an Incredible intensity, one rank higher: red is needed
    const doc = card(check, 30);
    expect(queryAll(doc, ".card-shifts li").map(text)).toEqual(["−2 CS Cover", "+1 CS Marksman"]);
    expect(text(queryOne(doc, ".karma"))).toBe("+ 10 Karma = 40");
    // Two or more ranks higher (Remarkable against Amazing) is impossible, even on a 100.
    const impossible = actionCardContext({ ...base, intensity: 50 }, 100, UNIVERSAL_TABLE);
    expect(impossible.required).toBe("impossible");
    expect(impossible.success).toBe(false);
  });

  it("an attack roll below Shift 0 is a miss whatever the die says", () => {
    const view = actionCardContext({ ...base, value: 6, shifts: [{ cs: -5, label: "Dodge", localize: false }], attack: "Sh" }, 100, UNIVERSAL_TABLE);
    expect(view.belowShift0).toBe(true);
    expect(view.attackResultKey).toBe("CASE.AttackResult.miss");
    expect(text(queryOne(card({ ...base, attack: "Sh" }, 99), ".card-attack-result"))).toBe("Shooting: Kill");
  });

  it("bands sum to 100 faces on every column", () => {
    for (let v = 0; v <= 5000; v += 97) {
      expect(columnBands(v, 0, UNIVERSAL_TABLE, null).reduce((s, b) => s + b.to - b.from + 1, 0)).toBe(100);
    }
    expect(formatSigned(3)).toBe("+3");
    expect(formatSigned(-2)).toBe("−2");
    expect(formatSigned(0)).toBe("0");
  });

  it("a recorded roll with bad data is refused clearly, never guessed", () => {
    expect(parseRollCheck({ ...base })).toEqual(base);
    // Each refusal names the faulty part (its text is en.json's CASE.Refusal.rollDataBad, in the reader's language).
    const part = (p: string) => expect.objectContaining({ key: "rollDataBad", data: { part: p } }) as unknown;
    expect(() => parseRollCheck({ ...base, value: -3 })).toThrow(RangeError);
    expect(() => parseRollCheck({ ...base, value: -3 })).toThrow(part("value"));
    expect(() => parseRollCheck({ ...base, shifts: [{ cs: 0.5, label: "x" }] })).toThrow(part("shifts"));
    expect(() => parseRollCheck({ ...base, needed: "blue" })).toThrow(part("needed"));
    expect(() => parseRollCheck({ ...base, attack: "Zz" })).toThrow(part("attack"));
    expect(() => parseRollCheck(null)).toThrow(part("case"));
  });
});

describe("the roll dialog's input", () => {
  it("accepts shifts, intensity and Karma within the pool", () => {
    expect(parseRollInput({ cs: "−2", reason: " cover ", intensity: "50", karma: "10" }, 20)).toEqual({ ok: true, value: { cs: -2, reason: "cover", intensity: 50, karma: 10, blindsided: false } });
    expect(parseRollInput({}, 0)).toMatchObject({ ok: true, value: { cs: 0, karma: 0, intensity: null } });
  });

  it.each([
    [{ karma: "5" }, 50, "CASE.Dialog.Error.KarmaMinimum"],
    [{ karma: "60" }, 50, "CASE.Dialog.Error.KarmaPool"],
    [{ karma: "-10" }, 50, "CASE.Dialog.Error.Karma"],
    [{ karma: "10", blindsided: "on" }, 50, "CASE.Dialog.Error.KarmaBlindsided"],
    [{ cs: "1.5" }, 50, "CASE.Dialog.Error.Shift"],
    [{ cs: "40" }, 50, "CASE.Dialog.Error.Shift"],
    [{ intensity: "-3" }, 50, "CASE.Dialog.Error.Intensity"],
  ])("refuses %o (pool %i) with %s", (form, pool, key) => {
    expect(parseRollInput(form, pool)).toMatchObject({ ok: false, errorKey: key });
  });

  it("the attack dialog refuses negative distances and Karma under 10", () => {
    expect(parseAttackInput({ distance: "3", objects: "1", calledShot: "on" }, 0)).toMatchObject({ ok: true, value: { distance: 3, objects: 1, calledShot: true } });
    expect(parseAttackInput({ distance: "-1" }, 0)).toMatchObject({ ok: false, errorKey: "CASE.Dialog.Error.Distance" });
    expect(parseAttackInput({ karma: "9" }, 50)).toMatchObject({ ok: false, errorKey: "CASE.Dialog.Error.KarmaMinimum" });
    expect(parseAttackInput({ objects: "x" }, 50)).toMatchObject({ ok: false, errorKey: "CASE.Dialog.Error.Objects" });
  });
});
