/**
 * A template as the build ships it: the same Handlebars, with the indentation and the
 * Handlebars comments the browser never needs taken out (vite.config.ts's copySystemFiles).
 *
 * Handlebars itself decides which whitespace a template renders: a block, partial, `else` or
 * comment alone on its line takes that line's whitespace with it ("standalone"), and `~`
 * strips the whitespace beside a mustache. So each text between the mustaches is read as
 * Handlebars reads it, in three parts: the whitespace it strips before, the text it renders,
 * and the whitespace it strips after. The text it renders is minified, and each stripped part
 * is cut to a line break if it held one (which keeps every line standalone, or not, as it
 * was), else to nothing:
 *
 * - In the rendered text, a run of whitespace becomes one line break if it held one, else one
 *   space. A browser renders any run of whitespace as one space, and a run is never dropped
 *   nor added. Nothing changes inside a quoted attribute value, an HTML comment, or the text
 *   of a <pre>, <textarea>, <script> or <style> element, where whitespace is kept as written.
 * - `{{!-- … --}}` and `{{! … }}` comments go, with the whitespace their own line would have
 *   stripped. One with a `~` stays (its whitespace control is part of the layout).
 * - The indentation before a partial alone on its line stays: Handlebars indents every line
 *   the partial renders by it (a textarea's text included).
 *
 * The result is parsed again, and must render exactly the minified texts, or the build stops.
 * test/template-minify.test.ts holds every shipped template to the same HTML as its source.
 */
import Handlebars from "handlebars";

/** A text between mustaches, as written and as Handlebars renders it. */
interface Text {
  readonly kind: "text";
  readonly start: number;
  readonly end: number;
  /** The whitespace Handlebars strips at its start (the mustache before it is standalone, or ends in `~`). */
  readonly before: string;
  /** What Handlebars renders of it. */
  readonly value: string;
  /** The whitespace Handlebars strips at its end. */
  readonly after: string;
}

/** A mustache of any kind (block openings and ends, partials, comments): its source range. */
interface Mustache {
  readonly kind: "comment" | "partial" | "other";
  readonly start: number;
  readonly end: number;
  /** Comments: a `~` strips whitespace beside it. */
  readonly strips: boolean;
}

type Piece = Text | Mustache;

/** The source offset of each line's start (Handlebars locations are line and column). */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * A text as Handlebars reads it: the whitespace it strips at the start (the mustache before is
 * processed first: up to the first line break when it is standalone, all of it after a `~`),
 * what it renders, and the whitespace it strips at the end. Undefined if they do not add up.
 */
function splitStripped(original: string, value: string, startStripped: boolean, endStripped: boolean): Pick<Text, "before" | "value" | "after"> | undefined {
  const whitespace = /^\s*$/;
  const candidates = !startStripped ? [""] : endStripped ? [/^[ \t]*\r?\n?/.exec(original)?.[0] ?? "", /^\s*/.exec(original)?.[0] ?? ""] : [original.slice(0, original.length - value.length)];
  for (const before of candidates) {
    const rest = original.slice(before.length);
    const after = rest.slice(value.length);
    if (rest.startsWith(value) && whitespace.test(before) && whitespace.test(after) && (endStripped || after === "")) return { before, value, after };
  }
  return undefined;
}

/** The texts and the mustaches of a template (those inside blocks too), in source order. */
function read(source: string, name: string): Piece[] {
  const starts = lineStarts(source);
  const offset = (p: hbs.AST.Position): number => (starts[p.line - 1] ?? Number.NaN) + p.column;
  const pieces: Piece[] = [];
  const visit = (program: hbs.AST.Program | undefined): void => {
    for (const node of program?.body ?? []) {
      const start = offset(node.loc.start);
      const end = offset(node.loc.end);
      if (node.type === "ContentStatement") {
        const content = node as hbs.AST.ContentStatement & { rightStripped?: boolean; leftStripped?: boolean };
        const original = source.slice(start, end);
        const split = splitStripped(original, content.value, content.rightStripped === true, content.leftStripped === true);
        if (original !== (content.original as unknown) || !split) throw new Error(`${name}: the text at line ${node.loc.start.line} is not where, or what, Handlebars says.`);
        pieces.push({ kind: "text", start, end, ...split });
        continue;
      }
      if (node.type === "CommentStatement") {
        const { strip } = node as hbs.AST.CommentStatement;
        pieces.push({ kind: "comment", start, end, strips: strip.open || strip.close });
        continue;
      }
      pieces.push({ kind: node.type === "PartialStatement" || node.type === "PartialBlockStatement" ? "partial" : "other", start, end, strips: false });
      if (node.type === "BlockStatement" || node.type === "DecoratorBlock" || node.type === "PartialBlockStatement") {
        const block = node as hbs.AST.BlockStatement;
        visit(block.program);
        visit(block.inverse);
      }
    }
  };
  visit(Handlebars.parse(source));
  // A block's range covers its body: its pieces follow its own, by where they start.
  return pieces.sort((a, b) => a.start - b.start);
}

type HtmlState = "text" | "tag" | "doubleQuoted" | "singleQuoted" | "comment" | "raw";

/** Elements whose text keeps its whitespace. */
const RAW_TEXT = /^<(pre|textarea|script|style)\b/i;

/**
 * The HTML between the mustaches, read in order: each rendered text is minified in the state
 * the text before it left (a mustache changes no state: `<input {{checked x}}>` is one tag).
 */
class HtmlWhitespace {
  private state: HtmlState = "text";
  /** The raw-text element whose tag is open, then whose text this is. */
  private raw = "";

  minify(text: string): string {
    let out = "";
    let i = 0;
    const spaces = /\s+/y;
    while (i < text.length) {
      spaces.lastIndex = i;
      const space = spaces.exec(text)?.[0];
      if (space) {
        out += this.state === "text" || this.state === "tag" ? (space.includes("\n") ? "\n" : " ") : space;
        i += space.length;
        continue;
      }
      const step = this.step(text.slice(i));
      out += text.slice(i, i + step);
      i += step;
    }
    return out;
  }

  /** Reads the next token of `rest` (not whitespace), moves the state on, and says how long it was. */
  private step(rest: string): number {
    switch (this.state) {
      case "text":
        if (rest.startsWith("<!--")) {
          this.state = "comment";
          return 4;
        }
        if (/^<[A-Za-z/!?]/.test(rest)) {
          this.raw = RAW_TEXT.exec(rest)?.[1]?.toLowerCase() ?? "";
          this.state = "tag";
        }
        return 1;
      case "tag": {
        const c = rest[0];
        if (c === '"') this.state = "doubleQuoted";
        else if (c === "'") this.state = "singleQuoted";
        else if (c === ">") this.state = this.raw ? "raw" : "text";
        return 1;
      }
      case "doubleQuoted":
      case "singleQuoted":
        if (rest[0] === (this.state === "doubleQuoted" ? '"' : "'")) this.state = "tag";
        return 1;
      case "comment":
        if (rest.startsWith("-->")) {
          this.state = "text";
          return 3;
        }
        return 1;
      case "raw":
        if (rest.toLowerCase().startsWith(`</${this.raw}`)) {
          const length = 2 + this.raw.length;
          this.raw = "";
          this.state = "tag";
          return length;
        }
        return 1;
    }
  }
}

/**
 * The shortest stand-in for whitespace Handlebars strips: a line break if it held one (so a
 * standalone line stays standalone), else nothing (nothing is left for a `~` to strip).
 */
function strippedStandIn(stripped: string): string {
  return stripped.includes("\n") ? "\n" : "";
}

/** What Handlebars renders of a template's texts, in order (an empty one renders nothing, and may be gone). */
function renderedTexts(template: string, name: string): string[] {
  return read(template, name).flatMap((p) => (p.kind === "text" && p.value !== "" ? [p.value] : []));
}

/** The template as the build ships it (see the header). `name` is for errors. */
export function minifyTemplate(source: string, name: string): string {
  const pieces = read(source, name);
  const dropped = (p: Piece | undefined): boolean => p?.kind === "comment" && !p.strips;
  const html = new HtmlWhitespace();
  /** What each text of the result must render (texts a dropped comment separated are one). */
  const wanted: string[] = [];
  let out = "";
  let at = 0;
  pieces.forEach((piece, i) => {
    const previous = pieces[i - 1];
    const next = pieces[i + 1];
    // Mustache syntax between the pieces (a block's opening, else, end) is copied as written.
    out += source.slice(at, piece.start);
    at = piece.start;
    if (piece.kind !== "text") {
      if (dropped(piece)) at = piece.end;
      return;
    }
    const { before, after } = piece;
    // Whitespace a dropped comment stripped goes with it; what a kept mustache strips is cut to its
    // stand-in, except the indentation a standalone partial indents its lines by.
    const lead = previous?.end === piece.start && dropped(previous) ? "" : strippedStandIn(before);
    const touching = next?.start === piece.end ? next : undefined;
    const trail = dropped(touching) ? "" : touching?.kind === "partial" ? after : strippedStandIn(after);
    const text = html.minify(piece.value);
    const joined = previous?.end === piece.start && dropped(previous) && pieces[i - 2]?.kind === "text" && pieces[i - 2]?.end === previous.start;
    wanted.push(joined ? `${wanted.pop() ?? ""}${text}` : text);
    out += lead + text + trail;
    at = piece.end;
  });
  out += source.slice(at);
  if (JSON.stringify(renderedTexts(out, name)) !== JSON.stringify(wanted.filter((t) => t !== ""))) {
    throw new Error(`${name}: the minified template would render other whitespace than its source; ship it as written or mend the minifier.`);
  }
  return out;
}
