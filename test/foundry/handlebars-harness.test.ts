/**
 * The template harness itself (test/support/handlebars.ts): its stand-ins for Foundry's
 * helpers behave as Foundry's do for what the templates use, and it fails loudly where
 * Foundry would quietly show something wrong.
 */
import Handlebars from "handlebars";
import { describe, expect, it } from "vitest";
import { createHandlebars, localize, lookup, markPart, strictContext, EN } from "../support/handlebars";

const hb = createHandlebars();
const render = (source: string, context: object = {}) => hb.compile(source)(context);

describe("template harness", () => {
  it("localize reads the real en.json, including keys that hold a dot", () => {
    expect(render(`{{localize "CASE.Rank.remarkable"}}`)).toBe("Remarkable");
    expect(render(`{{localize key}}`, { key: "CASE.Score.fighting.off" })).toBe("Ftg (off)");
    expect(lookup(EN, "CASE.SubScoreHint.strength.vgr")).toBe("Vigour: running speed");
    expect(localize("CASE.Sheet.InputRefused", { error: "bad" })).toBe("Not saved: bad");
  });

  it("a missing localisation key fails the render", () => {
    expect(() => render(`{{localize "CASE.Sheet.NoSuchKey"}}`)).toThrow(/no key "CASE.Sheet.NoSuchKey"/);
  });

  it("selectOptions: one option per choice, the chosen one selected, labels localised on request, values escaped", () => {
    const html = render(`{{selectOptions choices selected=value localize=true}}`, { choices: { BA: "CASE.Attack.BA", Sh: "CASE.Attack.Sh" }, value: "Sh" });
    expect(html).toBe(`<option value="BA">Blunt Attack</option><option value="Sh" selected>Shooting</option>`);
    expect(render(`{{selectOptions choices selected=v blank=""}}`, { choices: { 'a"b': "<x>" }, v: null })).toBe(`<option value=""></option><option value="a&quot;b">&lt;x&gt;</option>`);
    expect(() => render(`{{selectOptions choices sort=true}}`, { choices: {} })).toThrow(/does not implement sort/);
  });

  it("checked prints the attribute only for a truthy value", () => {
    expect(render(`<input {{checked a}}><input {{checked b}}>`, { a: true, b: false })).toBe(`<input checked><input >`);
  });

  it("an unknown helper fails the render", () => {
    expect(() => render(`{{numberFormat 3 sign=true}}`)).toThrow(/neither in the context nor a helper/);
  });

  it("strictContext: reading a field the context lacks throws, also through block parameters", () => {
    const ctx = strictContext({ list: [{ name: "a" }] });
    expect(hb.compile(`{{#each list as |item|}}{{item.name}}{{/each}}`)(ctx)).toBe("a");
    expect(() => hb.compile(`{{#each list as |item|}}{{item.nmae}}{{/each}}`)(ctx)).toThrow(/context.list.0.nmae/);
  });

  it("markPart puts data-application-part on the part's first element", () => {
    expect(markPart(`{{!-- --}}\n<section class="x">y</section>`, "powers")).toBe(`{{!-- --}}\n<section data-application-part="powers" class="x">y</section>`);
    expect(() => markPart("text only", "p")).toThrow(/renders no element/);
    expect(Handlebars.VERSION.startsWith("4.")).toBe(true);
  });
});
