import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerSettings } from "../../../src/foundry/core/settings";
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
