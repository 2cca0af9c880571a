/**
 * The reference tools' API (CONFIG.CASE.api): plain column rolls through the real CaseRoll
 * (on a stand-in for Foundry's Roll that records what it is given), the macros' dialogs
 * rendered with the real templates, starting a combat, the keybinding and scene control, and
 * the Macros compendium's commands run as Foundry runs a script macro.
 */
import "../../support/foundry-globals";
import { runInNewContext } from "node:vm";
import type * as DamageApi from "../../../src/foundry/api/damage-api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** What the stand-in Roll records: rolls made and messages posted. */
const record = vi.hoisted(() => ({ dice: [] as number[], messages: [] as { roll: unknown; data: Record<string, unknown> }[] }));

vi.hoisted(() => {
  // Foundry's Roll, as much as CaseRoll uses: options kept, a queued die for evaluate, toMessage recorded.
  class RollStandIn {
    _evaluated = false;
    total: number | undefined;
    constructor(
      readonly formula: string,
      readonly data: Record<string, unknown> = {},
      public options: Record<string, unknown> = {},
    ) {}
    evaluate(): Promise<this> {
      const die = record.dice.shift();
      if (die === undefined) throw new Error("No die queued.");
      this.total = die;
      this._evaluated = true;
      return Promise.resolve(this);
    }
    toMessage(data: Record<string, unknown>): Promise<void> {
      record.messages.push({ roll: this, data });
      return Promise.resolve();
    }
  }
  (globalThis as Record<string, unknown>).Roll = RollStandIn;
});

vi.mock("../../../src/foundry/api/damage-api", async (importOriginal) => ({
  ...(await importOriginal<typeof DamageApi>()),
  applyDamage: vi.fn(() => Promise.resolve(null)),
}));

import { rollColumn } from "../../../src/foundry/column-roll";
import { REFERENCE_API } from "../../../src/foundry/api/reference-api";
import { CASE_API } from "../../../src/foundry/api/index";
import { applyDamage } from "../../../src/foundry/api/damage-api";
import { promptColumnRoll, promptDamageToControlled, startCombatTurn } from "../../../src/foundry/api/macro-api";
import { columnPromptContext, damagePromptContext, readColumnPrompt, readDamageAmount } from "../../../src/foundry/api/macro-forms";
import { CaseRoll } from "../../../src/foundry/dice/case-roll";
import { UniversalTableApp } from "../../../src/foundry/apps/table/universal-table-app";
import { TOOL_NAME, addUniversalTableTool, registerUniversalTableControls } from "../../../src/foundry/hooks/reference-controls";
import { MACROS } from "../../../scripts/packs/content/macros";
import { ATTACK_CODES, RANKS, UNIVERSAL_TABLE } from "../../../src/rules/index";
import { foundryDouble } from "../../support/foundry-double";
import { localize, renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";
import { stubI18nAndNotifications, type Notifications } from "../../support/foundry-stubs";
import { readPack } from "../../support/pack-files";

let notifications: Notifications;
let settings: Map<string, unknown>;
let getSpeaker: ReturnType<typeof vi.fn>;
let dialogAnswer: unknown;
let dialogContent: string[];

function installGlobals(user: Record<string, unknown> = {}, extraGame: Record<string, unknown> = {}): void {
  settings = new Map([["case.universalTableColumn", "amazing"]]);
  notifications = stubI18nAndNotifications({
    user: { name: "Alice", isGM: false, character: null, ...user },
    settings: { get: (ns: string, key: string) => settings.get(`${ns}.${key}`), set: (ns: string, key: string, v: unknown) => Promise.resolve(settings.set(`${ns}.${key}`, v)) },
    ...extraGame,
  });
  getSpeaker = vi.fn(({ actor }: { actor: { id: string; name: string } }) => ({ scene: "scene1", actor: actor.id, token: null, alias: actor.name }));
  vi.stubGlobal("ChatMessage", { getSpeaker });
  vi.stubGlobal("CONFIG", { CASE: { universalTable: UNIVERSAL_TABLE } });
  dialogContent = [];
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => "dlg0000000000001" },
    applications: {
      ...foundryDouble.applications,
      handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
      api: {
        ...foundryDouble.applications.api,
        DialogV2: {
          wait: vi.fn((config: { content: string }) => {
            dialogContent.push(config.content);
            return Promise.resolve(dialogAnswer);
          }),
        },
      },
    },
    helpers: { interaction: { KeyboardManager: { MODIFIER_KEYS: { SHIFT: "Shift" } } } },
  });
}

beforeEach(() => {
  record.dice.length = 0;
  record.messages.length = 0;
  dialogAnswer = null;
  installGlobals();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(applyDamage).mockClear();
});

/** The one message posted, as a CaseRoll and its message data. */
function posted(): { roll: CaseRoll; data: Record<string, unknown> } {
  expect(record.messages).toHaveLength(1);
  const message = record.messages[0];
  if (!message) throw new Error("No message.");
  expect(message.roll).toBeInstanceOf(CaseRoll);
  return { roll: message.roll as CaseRoll, data: message.data };
}

describe("CONFIG.CASE.api.rollColumn", () => {
  it("rolls a plain ACTION on a column named by key, and posts its card as the user", async () => {
    record.dice.push(36);
    const roll = await rollColumn("remarkable");
    const { roll: sent, data } = posted();
    expect(sent).toBe(roll);
    expect(sent.check).toMatchObject({ value: 30, attack: null, shifts: [], karma: 0, intensity: null, label: "CASE.UniversalTable.RollLabel" });
    // Remarkable: green from 36 (rules §2) — a success.
    expect(sent.outcome).toMatchObject({ color: "green", success: true });
    expect(data.speaker).toEqual({ scene: null, actor: null, token: null, alias: "Alice" });
    expect(getSpeaker).not.toHaveBeenCalled();
  });

  it("by rank number; the user's character speaks when there is one (not a selected token)", async () => {
    installGlobals({ character: { id: "kestrel", name: "Kestrel" } });
    record.dice.push(10);
    await rollColumn(31);
    const { roll, data } = posted();
    expect(roll.check.value).toBe(31);
    expect(roll.outcome).toMatchObject({ color: "white", success: false });
    expect(getSpeaker).toHaveBeenCalledWith({ actor: { id: "kestrel", name: "Kestrel" } });
    expect(data.speaker).toMatchObject({ actor: "kestrel", alias: "Kestrel" });
  });

  it("an attack's to-hit roll: the card carries the attack and its label", async () => {
    record.dice.push(91);
    await rollColumn("incredible", { attack: "ba", label: "Haymaker" });
    const { roll } = posted();
    expect(roll.check).toMatchObject({ value: 40, attack: "BA", label: "Haymaker", localizeLabel: false });
    expect(roll.outcome?.color).toBe("red"); // Incredible: red from 91 → Blunt Attack: Stun
  });

  it.each([
    ["mighty", {}, "“mighty” is not a column"],
    [-3, {}, "“-3” is not a column"],
    [2.5, {}, "“2.5” is not a column"],
    ["good", { attack: "ZZ" }, "“ZZ” is not an attack type"],
  ] as const)("refuses %j %j with a localised error, and rolls nothing", async (column, options, message) => {
    await expect(rollColumn(column, options)).resolves.toBeNull();
    expect(notifications.error).toHaveBeenCalledTimes(1);
    expect(String(vi.mocked(notifications.error).mock.calls[0]?.[0])).toContain(message);
    expect(record.messages).toHaveLength(0);
  });
});

describe("the Universal Table roll macro's dialog", () => {
  it("offers every column (the remembered one selected) and every attack, in words", async () => {
    dialogAnswer = null;
    await expect(promptColumnRoll()).resolves.toBeNull();
    const doc = parseHtml(dialogContent[0] ?? "");
    const options = queryAll(doc, 'select[name="column"] option');
    expect(options.map(text)).toEqual(RANKS.map((r) => `${r.name} (${String(r.number)})`));
    expect(options.filter((o) => "selected" in o.attribs).map((o) => attr(o, "value"))).toEqual(["amazing"]);
    expect(queryAll(doc, 'select[name="attack"] option').map((o) => attr(o, "value"))).toEqual(["", ...ATTACK_CODES]);
    expect(text(queryOne(doc, 'select[name="attack"] option[value="BA"]'))).toBe("Blunt Attack (BA)");
    expect(record.messages).toHaveLength(0); // closed: nothing rolled
  });

  it("rolls on the column (and attack, and label) chosen", async () => {
    dialogAnswer = { column: "shiftX", attack: "Sh", label: "  Long shot " };
    record.dice.push(99);
    await promptColumnRoll();
    expect(posted().roll.check).toMatchObject({ value: 150, attack: "Sh", label: "Long shot" });
  });

  it("a form that names no rank is refused, not rolled", async () => {
    dialogAnswer = { column: "mighty", attack: "" };
    await expect(promptColumnRoll()).resolves.toBeNull();
    expect(notifications.error).toHaveBeenCalledWith(localize("CASE.Macro.ColumnPrompt.Invalid"));
    expect(record.messages).toHaveLength(0);
  });

  it("reads the form strictly", () => {
    expect(readColumnPrompt({ column: "good", attack: "", label: "" })).toEqual({ column: "good", attack: null, label: null });
    expect(readColumnPrompt({ column: "good", attack: "ea" })).toEqual({ column: "good", attack: "EA", label: null });
    expect(readColumnPrompt({ column: "good", attack: "ZZ" })).toBeNull();
    expect(readColumnPrompt({ column: 30 })).toBeNull();
    expect(columnPromptContext("poor", "x").columns.filter((c) => c.selected).map((c) => c.key)).toEqual(["poor"]);
  });
});

describe("the Apply damage macro's dialog", () => {
  function withTokens(tokens: { name: string; uuid: string }[]): void {
    vi.stubGlobal("canvas", { tokens: { controlled: tokens.map((t) => ({ name: t.name, document: { uuid: t.uuid } })) } });
  }

  it("with no token selected: a warning, no dialog, no damage", async () => {
    withTokens([]);
    await expect(promptDamageToControlled()).resolves.toBeNull();
    expect(notifications.warn).toHaveBeenCalledWith(localize("CASE.Macro.DamagePrompt.NoTokens"));
    expect(dialogContent).toHaveLength(0);
    expect(applyDamage).not.toHaveBeenCalled();
  });

  it("names the selected tokens and applies the amount to their UUIDs", async () => {
    withTokens([
      { name: "Kestrel", uuid: "Scene.s.Token.a" },
      { name: "Dock Thug", uuid: "Scene.s.Token.b" },
    ]);
    dialogAnswer = { amount: 20 };
    await promptDamageToControlled();
    expect(queryAll(parseHtml(dialogContent[0] ?? ""), ".damage-prompt-targets strong").map(text)).toEqual(["Kestrel", "Dock Thug"]);
    expect(applyDamage).toHaveBeenCalledWith(["Scene.s.Token.a", "Scene.s.Token.b"], 20);
  });

  it.each([[-1], [2.5], ["ten"], [""], [100_001], [null]])("refuses an amount of %j", async (amount) => {
    withTokens([{ name: "Kestrel", uuid: "Scene.s.Token.a" }]);
    dialogAnswer = { amount };
    await expect(promptDamageToControlled()).resolves.toBeNull();
    expect(notifications.error).toHaveBeenCalledWith(localize("CASE.Macro.DamagePrompt.Invalid"));
    expect(applyDamage).not.toHaveBeenCalled();
  });

  it("reads the amount typed", () => {
    expect(readDamageAmount("15")).toBe(15);
    expect(readDamageAmount(0)).toBe(0);
    expect(readDamageAmount(" 7 ")).toBe(7);
    expect(damagePromptContext(["A"], "id").max).toBe(100_000);
  });
});

describe("CONFIG.CASE.api.startCombatTurn", () => {
  function combat(started: boolean) {
    return { started, startCombat: vi.fn(() => Promise.resolve()) };
  }

  it("starts a combat that has not started (GM)", async () => {
    const c = combat(false);
    installGlobals({ isGM: true }, { combat: c });
    await expect(startCombatTurn()).resolves.toBe(true);
    expect(c.startCombat).toHaveBeenCalledTimes(1);
  });

  it("no combat, a started one, or a player: says why, starts nothing", async () => {
    installGlobals({ isGM: true }, { combat: null });
    await expect(startCombatTurn()).resolves.toBe(false);
    expect(notifications.warn).toHaveBeenCalledWith(localize("CASE.Macro.StartTurn.NoCombat"));
    const started = combat(true);
    installGlobals({ isGM: true }, { combat: started });
    await expect(startCombatTurn()).resolves.toBe(false);
    expect(notifications.info).toHaveBeenCalledWith(localize("CASE.Macro.StartTurn.AlreadyStarted"));
    const waiting = combat(false);
    installGlobals({ isGM: false }, { combat: waiting });
    await expect(startCombatTurn()).resolves.toBe(false);
    expect(notifications.warn).toHaveBeenCalledWith(localize("CASE.Macro.StartTurn.GMOnly"));
    expect(started.startCombat).not.toHaveBeenCalled();
    expect(waiting.startCombat).not.toHaveBeenCalled();
  });
});

describe("opening the window", () => {
  it("a keybinding, Shift+U by default, with a localised name and hint; and a Token controls button", () => {
    const register = vi.fn();
    const on = vi.fn();
    installGlobals({}, { keybindings: { register } });
    vi.stubGlobal("Hooks", { on });
    const open = vi.spyOn(UniversalTableApp, "open").mockResolvedValue({} as UniversalTableApp);
    try {
      registerUniversalTableControls();
      expect(register).toHaveBeenCalledTimes(1);
      const [namespace, action, config] = register.mock.calls[0] as [string, string, { name: string; hint: string; editable: unknown; onDown: () => boolean }];
      expect([namespace, action]).toEqual(["case", "openUniversalTable"]);
      expect(localize(config.name)).toBe("Open the Universal Table");
      expect(localize(config.hint).length).toBeGreaterThan(20);
      expect(config.editable).toEqual([{ key: "KeyU", modifiers: ["Shift"] }]);
      expect(config.onDown()).toBe(true);
      expect(open).toHaveBeenCalledTimes(1);

      expect(on).toHaveBeenCalledWith("getSceneControlButtons", addUniversalTableTool);
      const controls = { tokens: { tools: { select: { name: "select" } } as Record<string, unknown> } };
      addUniversalTableTool(controls as unknown as Parameters<typeof addUniversalTableTool>[0]);
      const tool = controls.tokens.tools[TOOL_NAME] as { title: string; button: boolean; onChange: () => void };
      expect(tool).toMatchObject({ name: TOOL_NAME, button: true, visible: true });
      expect(localize(tool.title)).toBe("Open the Universal Table");
      tool.onChange();
      expect(open).toHaveBeenCalledTimes(2);
      // No Token controls (no scene viewed): nothing to add to, nothing thrown.
      expect(() => {
        addUniversalTableTool({});
      }).not.toThrow();
    } finally {
      open.mockRestore();
    }
  });
});

describe("the Macros compendium", () => {
  const api = { ...CASE_API, ...REFERENCE_API };

  it("holds the ten macros, as script macros the generator wrote", () => {
    const docs = readPack("macros").map((f) => f.doc ?? {});
    expect(docs.map((d) => d.name).sort()).toEqual([
      "Apply damage to selected tokens",
      "Ask the selected tokens for a roll",
      "Award Karma",
      "Fall or charge an object (selected tokens)",
      "Heal selected tokens",
      "Import a stat block",
      "Open the Universal Table",
      "Rest selected tokens",
      "Start a CASE turn",
      "Universal Table roll",
    ]);
    for (const doc of docs) expect(doc).toMatchObject({ type: "script", scope: "global" });
    expect(docs.map((d) => d.command).sort()).toEqual(MACROS.map((m) => m.command).sort());
  });

  it.each(MACROS.map((m) => [m.name, m] as const))("%s: its command only calls CONFIG.CASE.api, and calls what it says", async (name, macro) => {
    expect(macro.command).toMatch(/^(?:await CONFIG\.CASE\.api\.[A-Za-z]+\(\);\s*)+$/);
    const calls: string[] = [];
    const recorder = Object.fromEntries(
      Object.keys(api).map((key) => [
        key,
        () => {
          calls.push(key);
          return Promise.resolve(null);
        },
      ]),
    );
    // Foundry runs a script macro's command as the body of an async function; only CONFIG is given.
    await (runInNewContext(`(async () => { ${macro.command} })()`, { CONFIG: { CASE: { api: recorder } } }) as Promise<void>);
    const expected: Record<string, string> = {
      "Universal Table roll": "promptColumnRoll",
      "Open the Universal Table": "openUniversalTable",
      "Apply damage to selected tokens": "promptDamageToControlled",
      "Start a CASE turn": "startCombatTurn",
      "Ask the selected tokens for a roll": "promptRollRequest",
      "Fall or charge an object (selected tokens)": "promptImpact",
      "Award Karma": "promptAwardKarma",
      "Heal selected tokens": "promptHeal",
      "Rest selected tokens": "promptRestSelected",
      "Import a stat block": "importStatBlock",
    };
    expect(calls).toEqual([expected[name]]);
  });
});
