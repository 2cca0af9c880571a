/**
 * The request card as each viewer sees it (request-card-context.ts → templates/chat/roll-request.hbs,
 * rendered with real Handlebars), and the Judge's dialog (templates/dialog/roll-request.hbs).
 */
import { describe, expect, it } from "vitest";
import { createRollRequest, recordRequestResult, type RollRequest } from "../../../src/rules/index";
import { readRollRequestForm, requestCardContext, rollRequestDialogContext, type RequestViewer } from "../../../src/foundry/roll-requests/request-card-context";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../support/html";

const NAMES = ["Kestrel of the Thousand Winds and the Seven Storms", "Wren", "Doctor Gravelbottom-Featherstonehaugh", "Miss Incomprehensibilities"];

function fourRows(): RollRequest {
  let r = createRollRequest("endurance", 40, null, NAMES.map((name, i) => ({ actorUuid: `Actor.a${String(i)}`, name })));
  r = recordRequestResult(r, "0", { die: 20, value: 100, shift: -2, karma: 10, color: "green", success: true });
  r = recordRequestResult(r, "1", { die: 10, value: null, shift: null, karma: 0, color: "white", success: false });
  return r;
}

const viewer = (isGM: boolean, owned: readonly string[]): RequestViewer => ({ isGM, owns: (uuid) => owned.includes(uuid), portrait: () => null });

function rendered(request: RollRequest, v: RequestViewer) {
  return parseHtml(renderTemplate("templates/chat/roll-request.hbs", requestCardContext(request, v)));
}

describe("request card, rendered", () => {
  it("request card: a player sees a Roll button only on an unrolled row of a character they own; the GM on every unrolled row", () => {
    const player = rendered(fourRows(), viewer(false, ["Actor.a2"]));
    const buttons = queryAll(player, "button.request-roll");
    expect(buttons.map((b) => attr(b, "data-row-key"))).toEqual(["2"]);
    expect(buttons.map((b) => text(b).trim())).toEqual(["Roll"]);
    expect(queryAll(player, ".request-waiting").map((w) => text(w).trim())).toEqual(["Waiting"]);
    const gm = rendered(fourRows(), viewer(true, []));
    expect(queryAll(gm, "button.request-roll").map((b) => attr(b, "data-row-key"))).toEqual(["2", "3"]);
  });

  it("request card: rolled rows show the total with Karma, the shift, the colour with its letter, and success; the card says what was asked and the tally", () => {
    const doc = rendered(fourRows(), viewer(false, []));
    const rows = queryAll(doc, ".request-row");
    expect(rows).toHaveLength(4);
    const first = text(rows[0] ?? doc).replace(/\s+/g, " ");
    expect(first).toContain("30"); // 20 + 10 Karma
    expect(first).toContain("−2 CS");
    // The letter is drawn by the stylesheet (::before), not written again in the text.
    expect(first).toContain("Green");
    expect(first).not.toContain("G · Green");
    expect(first).toContain("Success");
    expect(text(rows[1] ?? doc).replace(/\s+/g, " ")).toContain("White");
    // A sealed (NPC) row shows its total and colour, never the column it rolled on.
    expect(queryAll(rows[1] ?? doc, "[data-tooltip]")).toHaveLength(0);
    expect(queryAll(rows[0] ?? doc, ".die[data-tooltip]")).toHaveLength(1);
    expect(text(rows[1] ?? doc)).toContain("Failure");
    const all = text(doc).replace(/\s+/g, " ");
    expect(all).toContain("Roll Endurance against Incredible.");
    expect(all).toContain("2 of 4 rolled · 1 succeeded");
    expect(queryAll(doc, ".request-name").map((n) => attr(n, "title"))).toEqual(NAMES);
  });

  it("request card: the Judge's dialog offers every ability and sub-score and every rank, and its fields are read strictly", () => {
    const html = renderTemplate("templates/dialog/roll-request.hbs", rollRequestDialogContext("x", ["Kestrel", "Wren"]));
    const doc = parseHtml(html);
    expect(queryAll(doc, 'select[name="score"] option').length).toBe(7 + 8);
    expect(queryAll(doc, 'select[name="intensity"] option').length).toBe(1 + 17);
    expect(text(doc)).toContain("Kestrel");
    for (const el of [...queryAll(doc, "input"), ...queryAll(doc, "select")]) expect(queryAll(doc, `label[for="${attr(el, "id") ?? ""}"]`)).toHaveLength(1);
    expect(readRollRequestForm({ score: "endurance.res", intensity: "40", label: "  Brace " })).toEqual({ score: "endurance.res", intensity: 40, label: "Brace" });
    expect(readRollRequestForm({ score: "psyche", intensity: "", label: "" })).toEqual({ score: "psyche", intensity: null, label: null });
    expect(() => readRollRequestForm({ score: "luck", intensity: "" })).toThrow(/luck/);
    expect(() => readRollRequestForm({ score: "psyche", intensity: "-3" })).toThrow(/-3/);
  });
});
