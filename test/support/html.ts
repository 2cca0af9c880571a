/**
 * Reading rendered HTML in tests: htmlparser2 parses it, and a small selector matcher finds
 * elements. Selectors: compound parts (`li.case-item[data-item-id="x"]`, `#id`, `[attr]`)
 * joined by spaces (descendant). Nothing else — a test that needs more uses the browser.
 */
import { parseDocument } from "htmlparser2";
import { getAttributeValue, textContent } from "domutils";
import { isTag, type AnyNode, type Document, type Element } from "domhandler";

export type { Element };

export function parseHtml(html: string): Document {
  return parseDocument(html);
}

interface Compound {
  readonly tag: string | null;
  readonly id: string | null;
  readonly classes: readonly string[];
  readonly attrs: readonly { readonly name: string; readonly value: string | null }[];
}

function parseCompound(text: string): Compound {
  const re = /^([a-zA-Z][\w-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let tag: string | null = null;
  let id: string | null = null;
  const classes: string[] = [];
  const attrs: { name: string; value: string | null }[] = [];
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    if (m.index !== consumed) break;
    consumed += m[0].length;
    if (m[1]) tag = m[1].toLowerCase();
    else if (m[2]) id = m[2];
    else if (m[3]) classes.push(m[3]);
    else if (m[4]) attrs.push({ name: m[4], value: m[5] ?? null });
  }
  if (consumed !== text.length) throw new Error(`Unsupported selector part "${text}"`);
  return { tag, id, classes, attrs };
}

/** Splits on spaces outside [..] and quotes. */
function splitSelector(selector: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  for (const ch of selector.trim()) {
    if (ch === "[") depth++;
    if (ch === "]") depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (current) parts.push(current);
      current = "";
    } else current += ch;
  }
  if (current) parts.push(current);
  return parts;
}

function isElement(node: AnyNode | null): node is Element {
  return node !== null && isTag(node);
}

function matches(el: Element, c: Compound): boolean {
  if (c.tag && el.name.toLowerCase() !== c.tag) return false;
  if (c.id && el.attribs.id !== c.id) return false;
  const classList = (el.attribs.class ?? "").split(/\s+/);
  if (!c.classes.every((cls) => classList.includes(cls))) return false;
  return c.attrs.every((a) => (a.value === null ? a.name in el.attribs : el.attribs[a.name] === a.value));
}

function allElements(root: AnyNode): Element[] {
  const out: Element[] = [];
  const visit = (node: AnyNode): void => {
    if (isElement(node)) out.push(node);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(root);
  return out;
}

/** Every element under `root` matching `selector`, in document order. */
export function queryAll(root: AnyNode, selector: string): Element[] {
  const chain = splitSelector(selector).map(parseCompound);
  const last = chain[chain.length - 1];
  if (!last) throw new Error("Empty selector");
  return allElements(root).filter((el) => {
    if (el === root || !matches(el, last)) return false;
    let i = chain.length - 2;
    let node: AnyNode | null = el.parent;
    while (i >= 0 && node && node !== root.parent) {
      const part = chain[i];
      if (part && isElement(node) && matches(node, part)) i--;
      node = node.parent;
    }
    return i < 0;
  });
}

/** The one element matching `selector`; throws when there are none or several. */
export function queryOne(root: AnyNode, selector: string): Element {
  const found = queryAll(root, selector);
  if (found.length !== 1) throw new Error(`Expected one "${selector}", found ${String(found.length)}`);
  return found[0] as Element;
}

export function attr(el: Element, name: string): string | undefined {
  return getAttributeValue(el, name);
}

/** The text of an element, whitespace collapsed. */
export function text(el: AnyNode): string {
  return textContent(el).replace(/\s+/g, " ").trim();
}
