/**
 * The build ships each template minified (scripts/minify-template.ts): the same mustaches and
 * the same HTML as its source, as a browser reads it (test/support/template-html.ts), with the
 * indentation and the Handlebars comments gone. Held for every template in templates/, and
 * for the cases where whitespace matters.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Handlebars from "handlebars";
import { describe, expect, it } from "vitest";
import { minifyTemplate } from "../scripts/minify-template";
import { templateShape } from "./support/template-html";

const TEMPLATES = readdirSync("templates", { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".hbs"))
  .map((f) => join("templates", f))
  .sort();

describe("every template, minified", () => {
  it.each(TEMPLATES)("%s renders the same mustaches and the same HTML", (path) => {
    const source = readFileSync(path, "utf8");
    const minified = minifyTemplate(source, path);
    expect(templateShape(minified)).toEqual(templateShape(source));
    expect(minified.length).toBeLessThanOrEqual(source.length);
  });

  it("weighs less in all (gzip, one file at a time, as they are sent)", () => {
    const gz = (text: string): number => gzipSync(text).length;
    const sources = TEMPLATES.map((p) => readFileSync(p, "utf8"));
    const before = sources.reduce((s, t) => s + gz(t), 0);
    const after = sources.reduce((s, t, i) => s + gz(minifyTemplate(t, TEMPLATES[i] ?? "")), 0);
    expect(after).toBeLessThan(before * 0.97);
  });
});

describe("minifyTemplate", () => {
  it("drops Handlebars comments with their lines, and shortens each run of whitespace to a line break or a space", () => {
    const source = '<div class="a">\n    {{!-- why --}}\n    <span>{{x}}</span>  <b>y</b>\n    {{! short }}\n</div>\n';
    expect(minifyTemplate(source, "t")).toBe('<div class="a">\n <span>{{x}}</span> <b>y</b>\n</div>\n');
  });

  it("keeps a comment whose ~ strips whitespace beside it, without the whitespace it strips", () => {
    const source = "<b>a</b>   {{~!-- glue --~}}   <b>b</b>";
    expect(minifyTemplate(source, "t")).toBe("<b>a</b>{{~!-- glue --~}}<b>b</b>");
    expect(templateShape(minifyTemplate(source, "t")).html).toBe("<b>a</b><b>b</b>");
  });

  it("keeps the indentation a standalone partial indents its lines by", () => {
    expect(minifyTemplate("<div>\n    {{> p}}\n    {{#if a}}x{{/if}}\n</div>", "t")).toBe("<div>\n    {{> p}}\n {{#if a}}x{{/if}}\n</div>");
  });

  it("keeps whitespace in a textarea, a pre, an attribute value and an HTML comment", () => {
    const source = '<textarea name="t">\n  a\n    {{b}}\n</textarea>\n  <pre>\n  x\n</pre>\n  <p title="one\n   two">\n  z\n</p><!--\n  c\n-->';
    expect(minifyTemplate(source, "t")).toBe('<textarea name="t">\n  a\n    {{b}}\n</textarea>\n<pre>\n  x\n</pre>\n<p title="one\n   two">\nz\n</p><!--\n  c\n-->');
  });

  it("keeps a block alone on its line standalone, and an inline one inline", () => {
    const source = "<ul>\n  {{#each xs}}\n    <li>{{this}}</li>\n  {{else}}\n    <li>none</li>\n  {{/each}}\n</ul><i>{{#if a}} on {{/if}}</i>";
    const minified = minifyTemplate(source, "t");
    expect(minified).toBe("<ul>\n{{#each xs}}\n <li>{{this}}</li>\n{{else}}\n <li>none</li>\n{{/each}}\n</ul><i>{{#if a}} on {{/if}}</i>");
    const render = (t: string, xs: string[]): string => Handlebars.compile(t)({ xs, a: true });
    for (const xs of [[], ["p", "q"]]) expect(render(minified, xs).replace(/\s+/g, " ")).toBe(render(source, xs).replace(/\s+/g, " "));
  });
});

describe("templateShape (the comparison above)", () => {
  it("tells apart whitespace dropped between elements, changed in a textarea or an attribute, and a changed mustache", () => {
    const base = templateShape('<b>a</b> <i>{{x}}</i><textarea>\n a</textarea><p title="a  b"></p>');
    expect(templateShape('<b>a</b>\n\n  <i>{{x}}</i><textarea>\n a</textarea><p title="a  b"></p>')).toEqual(base);
    expect(templateShape('<b>a</b><i>{{x}}</i><textarea>\n a</textarea><p title="a  b"></p>')).not.toEqual(base);
    expect(templateShape('<b>a</b> <i>{{x}}</i><textarea>\na</textarea><p title="a  b"></p>')).not.toEqual(base);
    expect(templateShape('<b>a</b> <i>{{x}}</i><textarea>\n a</textarea><p title="a b"></p>')).not.toEqual(base);
    expect(templateShape('<b>a</b> <i>{{{x}}}</i><textarea>\n a</textarea><p title="a  b"></p>')).not.toEqual(base);
  });

  it("applies Handlebars' standalone lines before comparing", () => {
    // Alone on its line, the block takes its line break with it; inline, the line break stays.
    expect(templateShape("{{#if x}}\n<i>b</i>{{/if}}").html).toBe("hbs0x<i>b</i>hbs1x");
    expect(templateShape("{{#if x}}<b>a</b>\n<i>b</i>{{/if}}").html).toBe("hbs0x<b>a</b> <i>b</i>hbs1x");
  });
});
