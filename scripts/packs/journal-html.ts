/**
 * The HTML of the rules journal's pages: tables inside the system's `.case` scope (so the colour
 * classes apply) and lists. Shared by the rules tables (rules-journal.ts) and the campaign
 * rulings (rulings-journal.ts).
 */
import { IMPOSSIBLE, type Color } from "../../src/rules/index";

export type Cell = string | { readonly html: string; readonly color?: Color | typeof IMPOSSIBLE };

function cell(c: Cell, tag: "td" | "th" = "td"): string {
  if (typeof c === "string") return `<${tag}>${c}</${tag}>`;
  if (c.color === undefined) return `<${tag}>${c.html}</${tag}>`;
  const cls = c.color === IMPOSSIBLE ? "case-band impossible" : `case-band color-${c.color}`;
  return `<${tag} class="${cls}">${c.html}</${tag}>`;
}

export function colored(color: Color | typeof IMPOSSIBLE, html: string): Cell {
  return { html, color };
}

/** A table inside the system's `.case` scope, so the colour classes apply. */
export function table(caption: string, headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const head = `<thead><tr>${headers.map((h) => cell(h, "th")).join("")}</tr></thead>`;
  const body = `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell(c)).join("")}</tr>`).join("")}</tbody>`;
  return `<table class="case case-rules-table"><caption>${caption}</caption>${head}${body}</table>`;
}

export function list(items: readonly string[], ordered = false): string {
  const tag = ordered ? "ol" : "ul";
  return `<${tag}>${items.map((i) => `<li>${i}</li>`).join("")}</${tag}>`;
}
