/**
 * What a Handlebars template renders, for comparing two versions of one (the source and the
 * build's minified copy): its mustaches in order, and the HTML around them as a browser reads
 * it. Handlebars parses the template (its standalone lines and `~` already applied to the
 * text, as when it renders), each mustache, block opening, `else` and block end becomes a
 * placeholder, and htmlparser2 parses the result. In the canonical form every run of
 * whitespace in text is one space (as a browser renders it; a run is never dropped and never
 * added), except inside <pre>, <textarea>, <script> and <style>, whose text is kept as it is;
 * attribute values are kept as they are.
 */
import Handlebars from "handlebars";
import { parseDocument } from "htmlparser2";
import { isTag, isText, isComment, type ChildNode } from "domhandler";

export interface TemplateShape {
  /** Each mustache, block opening, else and block end, as Handlebars parsed it (without source positions). */
  readonly mustaches: readonly string[];
  /** The HTML with a placeholder for each mustache, in canonical form. */
  readonly html: string;
}

const KEEP_WHITESPACE = new Set(["pre", "textarea", "script", "style"]);

function canonical(nodes: readonly ChildNode[], keep: boolean): string {
  return nodes
    .map((node) => {
      if (isText(node)) return keep ? node.data : node.data.replace(/\s+/g, " ");
      if (isComment(node)) return `<!--${node.data}-->`;
      if (isTag(node)) {
        const attrs = Object.entries(node.attribs).map(([k, v]) => ` ${k}=${JSON.stringify(v)}`);
        return `<${node.name}${attrs.join("")}>${canonical(node.children, keep || KEEP_WHITESPACE.has(node.name))}</${node.name}>`;
      }
      return `<?${node.type}>`;
    })
    .join("");
}

/** A node's description without its source position, its children programs or Handlebars' standalone bookkeeping. */
function describeNode(node: hbs.AST.Node, part: string): string {
  return `${part} ${JSON.stringify(node, (key, value: unknown) => (key === "loc" || key === "program" || key === "inverse" ? undefined : value))}`;
}

export function templateShape(source: string): TemplateShape {
  const mustaches: string[] = [];
  let html = "";
  const mark = (text: string): void => {
    html += `hbs${mustaches.length}x`;
    mustaches.push(text);
  };
  const visit = (program: hbs.AST.Program | undefined): void => {
    for (const node of program?.body ?? []) {
      if (node.type === "ContentStatement") html += (node as hbs.AST.ContentStatement).value;
      else if (node.type === "CommentStatement") continue;
      else if (node.type === "BlockStatement" || node.type === "DecoratorBlock" || node.type === "PartialBlockStatement") {
        const block = node as hbs.AST.BlockStatement;
        // The types say every block has an inverse; only one with {{else}} has.
        const { inverse } = block as { inverse?: hbs.AST.Program };
        mark(describeNode(node, "open"));
        visit(block.program);
        if (inverse) {
          mark("else");
          visit(inverse);
        }
        mark("close");
      } else mark(describeNode(node, "mustache"));
    }
  };
  visit(Handlebars.parse(source));
  return { mustaches, html: canonical(parseDocument(html).children, false) };
}
