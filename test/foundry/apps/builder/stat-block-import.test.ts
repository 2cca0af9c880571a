/**
 * Stat-block import on the Foundry side (issue 23 item 6): the paste and preview dialogs with
 * the real templates, every line the reader did not understand named in the preview, and
 * nothing written until *Create NPC* — then one Actor.create of an NPC with its powers.
 */
import "../../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { importStatBlock, npcCreateData, statBlockPasteContext, statBlockPreviewContext } from "../../../../src/foundry/apps/builder/stat-block-import";
import { readStatBlock, statBlockNpc } from "../../../../src/rules/index";
import { foundryDouble } from "../../../support/foundry-double";
import { localize, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../../support/html";
import { stubI18nOverriding } from "../../../support/foundry-stubs";

const BLOCK = `Doctor Gravel
F: Excellent (20)
A: Good 10
S: RM (30)
E: Incredible
R: Ty (6)
I: 10
P: Poor
Health: 120
Powers:
Body Armor: Remarkable (30)
Stone Skin: Good (30)
He hates the sun.`;

let answers: unknown[] = [];
const created: unknown[] = [];
const errors: string[] = [];
let mayCreate = true;

beforeEach(() => {
  answers = [];
  created.length = 0;
  errors.length = 0;
  mayCreate = true;
  vi.stubGlobal("game", {
    user: { can: (what: string) => what === "ACTOR_CREATE" && mayCreate },
    i18n: { localize: (k: string) => localize(k), format: (k: string, d: Record<string, unknown>) => localize(k, d) },
  });
  vi.stubGlobal("ui", { notifications: { error: (m: string) => errors.push(m), info: vi.fn(), warn: vi.fn() } });
  vi.stubGlobal("Actor", {
    implementation: {
      create: (data: { name: string }) => {
        created.push(data);
        return Promise.resolve({ name: data.name });
      },
    },
  });
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => "sb" },
    applications: {
      ...foundryDouble.applications,
      api: { ...foundryDouble.applications.api, DialogV2: { wait: () => Promise.resolve(answers.shift() ?? null) } },
      handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("stat block import", () => {
  it("stat block import: the paste dialog is a labelled text area; the preview shows the NPC and names each line not understood", () => {
    const paste = parseHtml(renderTemplate("templates/dialog/stat-block-paste.hbs", statBlockPasteContext("sb", "Mook")));
    const area = queryAll(paste, "textarea");
    expect(area.map((a) => [attr(a, "name"), attr(a, "id"), text(a)])).toEqual([["text", "sb-text", "Mook"]]);
    expect(queryAll(paste, "label").map((l) => attr(l, "for"))).toEqual(["sb-text"]);
    const preview = parseHtml(renderTemplate("templates/dialog/stat-block-preview.hbs", statBlockPreviewContext(readStatBlock(BLOCK))));
    expect(text(queryAll(preview, "h2")[0] ?? preview)).toBe("Doctor Gravel");
    const rows = queryAll(preview, "tr").map((r) => [text(queryAll(r, "th")[0] ?? r), text(queryAll(r, "td")[0] ?? r)]);
    expect(rows).toContainEqual(["Fighting", "Excellent (20)"]);
    expect(rows).toContainEqual(["Endurance", "Incredible (40)"]);
    // Health: the block says 120; F+A+S+E = 20+10+30+40 = 100.
    expect(rows).toContainEqual(["Health", "100 (the block says 120; the abilities give at most 100)"]);
    expect(queryAll(preview, "ul.stat-block-powers li").map((li) => text(li))).toEqual(["Body Armor: Remarkable (30)"]);
    expect(queryAll(preview, "ul.stat-block-unread li").map((li) => text(li).replace(/\s+/g, " "))).toEqual([
      "Line 12: Stone Skin: Good (30) (the number is not of the rank named, or no rank number)",
      "Line 13: He hates the sun. (not understood)",
    ]);
  });

  it("stat block import: nothing is written until Create NPC; then one NPC with its abilities, pools and powers", async () => {
    answers = [{ text: BLOCK }, null];
    expect(await importStatBlock()).toBeNull();
    expect(created).toEqual([]);
    answers = [{ text: BLOCK }, {}];
    expect(await importStatBlock()).toEqual({ name: "Doctor Gravel" });
    expect(created).toEqual([npcCreateData(statBlockNpc(readStatBlock(BLOCK)))]);
    expect(created[0]).toMatchObject({
      name: "Doctor Gravel",
      type: "npc",
      system: { abilities: { fighting: { value: 20 }, endurance: { value: 40 }, psyche: { value: 4 } }, health: { value: 100 }, karma: { value: 20 } },
      items: [{ name: "Body Armor", type: "power", system: { rank: 30 } }],
    });
  });

  it("stat block import: an incomplete block is refused with what it lacks, even when confirmed; a user who may not create actors is refused first", async () => {
    answers = [{ text: "Mook\nF: Good\nA: Good" }, {}];
    expect(await importStatBlock()).toBeNull();
    expect(created).toEqual([]);
    expect(errors).toEqual(["Cannot create the NPC: The stat block lacks strength, endurance, reason, intuition, psyche. Nothing was written."]);
    mayCreate = false;
    answers = [{ text: BLOCK }, {}];
    expect(await importStatBlock()).toBeNull();
    expect(created).toEqual([]);
    expect(errors.at(-1)).toBe("You may not create actors.");
  });

  it("rules errors localised: a stat block pasted without a name is refused in en.json's words (preview and notification), not the rules' English", async () => {
    const nameless = BLOCK.split("\n").slice(1).join("\n");
    const notifications = stubI18nOverriding({ "CASE.RulesError.statBlockNoName": "NAMELESS BLOCK" }, { user: { can: () => true } });
    expect(statBlockPreviewContext(readStatBlock(nameless)).problem).toBe("NAMELESS BLOCK");
    answers = [{ text: nameless }, {}];
    expect(await importStatBlock()).toBeNull();
    expect(created).toEqual([]);
    expect(notifications.error).toHaveBeenCalledWith(localize("CASE.StatBlock.Incomplete", { problem: "NAMELESS BLOCK" }));
  });
});
