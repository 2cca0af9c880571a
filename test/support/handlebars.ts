/**
 * Renders the system's real .hbs templates with the real `handlebars` package and the real
 * lang/en.json. It registers the system's partials under the names the sheets load them by
 * (SHEET_PARTIALS), and small, faithful versions of the few Foundry helpers the templates use:
 *
 * - `localize key` — the string at `key` in en.json. A missing key THROWS (Foundry would print
 *   the raw key to the player; a test must fail instead).
 * - `selectOptions choices selected=… localize=… blank=…` — one `<option>` per entry of a
 *   value → label object, the selected one marked `selected`, labels localised on request.
 * - `checked value` — the word `checked` when the value is truthy.
 * - `caseFormat key data` — the system's own helper (src/foundry/core/handlebars-helpers.ts).
 *
 * Any other helper a template uses is unknown here and fails the render, so the set of
 * Foundry helpers the templates depend on stays small and visible.
 */
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { SHEET_PARTIALS } from "../../src/foundry/apps/templates";
import { caseFormat } from "../../src/foundry/core/handlebars-helpers";

type Lang = Record<string, unknown>;

export const EN: Lang = JSON.parse(readFileSync("lang/en.json", "utf8")) as Lang;

/** The en.json string at a dotted key (keys may themselves hold dots, as "CASE.Score.fighting.off" does). */
export function lookup(lang: Lang, key: string): string | undefined {
  const parts = key.split(".");
  const walk = (node: unknown, i: number): string | undefined => {
    if (i === parts.length) return typeof node === "string" ? node : undefined;
    if (typeof node !== "object" || node === null) return undefined;
    const record = node as Record<string, unknown>;
    // Try the longest joined key first ("fighting.off"), then one part at a time.
    for (let j = parts.length; j > i; j--) {
      const candidate = parts.slice(i, j).join(".");
      if (candidate in record) {
        const found = walk(record[candidate], j);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(lang, 0);
}

/** Localises like Foundry's game.i18n: the string at `key`; `{name}` placeholders filled from `data`. */
export function localize(key: string, data?: Record<string, unknown>): string {
  const value = lookup(EN, key);
  if (value === undefined) throw new Error(`lang/en.json has no key "${key}"`);
  if (!data) return value;
  return value.replace(/\{([A-Za-z0-9_]+)\}/g, (match, name: string) => (name in data ? String(data[name]) : match));
}

interface HelperOptions {
  hash: Record<string, unknown>;
}

function selectOptions(choices: unknown, options: HelperOptions): Handlebars.SafeString {
  const { selected, localize: doLocalize, blank, ...rest } = options.hash;
  const unsupported = Object.keys(rest);
  if (unsupported.length > 0) throw new Error(`selectOptions: the test harness does not implement ${unsupported.join(", ")}`);
  if (typeof choices !== "object" || choices === null || Array.isArray(choices)) {
    throw new Error(`selectOptions needs a value → label object, got ${JSON.stringify(choices)}`);
  }
  const chosen = new Set((Array.isArray(selected) ? selected : [selected]).filter((v) => v !== undefined && v !== null).map(String));
  const esc = Handlebars.escapeExpression;
  const html: string[] = [];
  if (blank !== undefined && blank !== null) {
    if (typeof blank !== "string") throw new Error("selectOptions: blank must be a string");
    html.push(`<option value="">${esc(doLocalize === true && blank ? localize(blank) : blank)}</option>`);
  }
  for (const [value, raw] of Object.entries(choices as Record<string, unknown>)) {
    const label = typeof raw === "string" ? raw : (raw as { label?: unknown } | null)?.label;
    if (typeof label !== "string") throw new Error(`selectOptions: no label for ${value}`);
    const text = doLocalize === true ? localize(label) : label;
    html.push(`<option value="${esc(value)}"${chosen.has(value) ? " selected" : ""}>${esc(text)}</option>`);
  }
  return new Handlebars.SafeString(html.join(""));
}

/** A Handlebars environment with the harness's helpers and the system's partials. */
export function createHandlebars(): typeof Handlebars {
  const hb = Handlebars.create();
  hb.registerHelper("localize", (key: unknown, options: HelperOptions) => {
    if (typeof key !== "string") throw new Error(`localize needs a key, got ${JSON.stringify(key)}`);
    return Object.keys(options.hash).length > 0 ? localize(key, options.hash) : localize(key);
  });
  hb.registerHelper("selectOptions", selectOptions);
  hb.registerHelper("checked", (value: unknown) => (value ? "checked" : ""));
  // The system's own helper, the real code, fed with the harness's en.json localisation.
  hb.registerHelper(
    "caseFormat",
    caseFormat(
      (k) => localize(k),
      (k, d) => localize(k, d),
    ),
  );
  hb.registerHelper("helperMissing", function (...args: unknown[]) {
    const options = args[args.length - 1] as { name?: string };
    throw new Error(`The template uses "${String(options.name)}", which is neither in the context nor a helper the harness knows.`);
  });
  for (const [name, path] of Object.entries(SHEET_PARTIALS)) hb.registerPartial(name, readFileSync(path, "utf8"));
  return hb;
}

const env = createHandlebars();
const cache = new Map<string, Handlebars.TemplateDelegate>();

/**
 * The context as the template sees it, where reading a field the object lacks throws (a typo
 * in a template fails the test instead of rendering nothing). Handlebars' own strict mode does
 * not cover block parameters (`{{#each list as |item|}}{{item.nmae}}`); this does.
 */
export function strictContext<T>(value: T, path = "context"): T {
  if (typeof value !== "object" || value === null) return value;
  return new Proxy(value, {
    get(target, prop, receiver) {
      const result: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string") return result;
      if (!(prop in target)) throw new Error(`The template reads "${path}.${prop}", which the context does not have.`);
      return strictContext(result, `${path}.${prop}`);
    },
  });
}

/** Renders a template file (a path relative to the repository) with `context`; a field missing from the context throws. */
export function renderTemplate(path: string, context: object): string {
  let template = cache.get(path);
  if (!template) {
    template = env.compile(readFileSync(path, "utf8"), { strict: true });
    cache.set(path, template);
  }
  return template(strictContext(context));
}

/** Adds `data-application-part="<id>"` to the first element of a part's HTML, as Foundry does. */
export function markPart(html: string, id: string): string {
  const start = html.search(/<[a-zA-Z]/);
  if (start < 0) throw new Error(`Part ${id} renders no element.`);
  const tagEnd = html.slice(start).search(/[\s>]/) + start;
  return `${html.slice(0, tagEnd)} data-application-part="${id}"${html.slice(tagEnd)}`;
}

/**
 * A whole sheet as Foundry lays it out: the application's form element with its classes, a
 * window header, and each part (in order) inside `.window-content`. The frame is a stand-in
 * for Foundry's; what is under test is the parts inside it.
 */
export function renderSheet(
  parts: Readonly<Record<string, string>>,
  context: object,
  options: { classes: readonly string[]; title: string; position?: { width?: unknown; height?: unknown } },
): string {
  const body = Object.entries(parts)
    .map(([id, path]) => markPart(renderTemplate(path, context), id))
    .join("\n");
  const esc = Handlebars.escapeExpression;
  const size = (["width", "height"] as const)
    .filter((k) => typeof options.position?.[k] === "number")
    .map((k) => `${k}: ${String(options.position?.[k])}px;`)
    .join(" ");
  return `<form class="application ${options.classes.map(esc).join(" ")}"${size ? ` style="${size}"` : ""} autocomplete="off">
  <header class="window-header"><h1 class="window-title">${esc(options.title)}</h1></header>
  <section class="window-content">
${body}
  </section>
</form>`;
}
