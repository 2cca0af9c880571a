import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { karmaLostForKillRuling, registerSettings, settleKarmaPoolDrawLimit } from "../../../src/foundry/core/settings";
import { describeError } from "../../../src/foundry/core/describe-error";
import { stubI18nAndNotifications } from "../../support/foundry-stubs";
import { flattenKeys } from "../../support/lang";
import { SettingsDouble } from "../../support/settings-double";

const known = flattenKeys(JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, unknown>);

describe("registerSettings", () => {
  let settings: SettingsDouble;
  beforeEach(() => {
    settings = new SettingsDouble();
    vi.stubGlobal("game", { settings });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("registers every setting once, in the case namespace", () => {
    registerSettings();
    expect(settings.registered.length).toBeGreaterThan(0);
    for (const s of settings.registered) expect(s.namespace).toBe("case");
  });

  it("every shown setting has a localised name, hint and choice labels", () => {
    registerSettings();
    const missing: string[] = [];
    for (const { key, config } of settings.registered) {
      if (config.config !== true) continue;
      for (const field of ["name", "hint"] as const) {
        const k = config[field];
        if (typeof k !== "string" || !known.has(k)) missing.push(`${key}.${field}: ${String(k)}`);
      }
      const choices = (config.choices ?? {}) as Record<string, string>;
      for (const label of Object.values(choices)) if (!known.has(label)) missing.push(`${key} choice: ${label}`);
    }
    expect(missing).toEqual([]);
  });

  it("a string setting's default is one of its choices", () => {
    registerSettings();
    for (const { key, config } of settings.registered) {
      if (config.choices) expect(Object.keys(config.choices), key).toContain(config.default);
    }
  });
});

describe("a stored setting choice this version does not offer", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("the draw limit an older version stored as \"any\" is set back to the ruling's, and the GM is told; an offered one is left alone", async () => {
    const settings = new SettingsDouble();
    const notifications = stubI18nAndNotifications({ settings });
    registerSettings();
    await settings.set("case", "karmaPoolDrawLimit", "contributed");
    await settleKarmaPoolDrawLimit();
    expect(settings.get("case", "karmaPoolDrawLimit")).toBe("contributed");
    expect(notifications.warn).not.toHaveBeenCalled();
    await settings.set("case", "karmaPoolDrawLimit", "any");
    await settleKarmaPoolDrawLimit();
    expect(settings.get("case", "karmaPoolDrawLimit")).toBe("all");
    expect(notifications.warn).toHaveBeenCalledWith('The world setting "Group Karma pool: what a hero may draw" held "any", which this version does not offer: it is now "Anything in the pool".');
  });

  it("refusals localised: a Karma-for-a-kill ruling this version does not offer tells the Judge the setting and what it holds, not \"something went wrong\"", () => {
    const settings = new SettingsDouble();
    stubI18nAndNotifications({ settings });
    registerSettings();
    void settings.set("case", "karmaLostForKill", "half");
    let said = "";
    try {
      karmaLostForKillRuling();
    } catch (error) {
      said = describeError(error);
    }
    expect(said).toBe('The world setting "Karma lost for a kill" holds "half", which this version does not offer: choose it again in the game settings.');
  });
});
