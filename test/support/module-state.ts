/**
 * Finds module-level mutable state in TypeScript files (the house test keeps src/rules free of
 * it): a module-level `let` or `var`; a module-level const that is written through (a property
 * or element set, `++`/`--`, `delete`, a mutating method such as `set`/`push`/`fill`/`sort`,
 * `Object.assign`/`defineProperty` on it, `exec`/`test` on a global or sticky regex), directly
 * or through a local name given it or one of its parts; a class's static field that is not
 * readonly. Frozen tables and tables only read are fine. A WeakMap or WeakSet keyed by what it
 * caches may be written: it holds nothing past its keys. Not followed: a table handed to
 * another function or returned, and written there.
 *
 * Read with the TypeScript compiler's checker, so names are matched by symbol (imports and
 * shadowing as the compiler sees them), not by spelling.
 */
import ts from "typescript";

const MUTATORS = new Set(["set", "add", "delete", "clear", "push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]);
const WEAK = new Set(["WeakMap", "WeakSet"]);
const OBJECT_WRITERS = new Set(["assign", "defineProperty", "defineProperties", "setPrototypeOf"]);

interface Held {
  /** The module-level const this name reaches. */
  readonly origin: string;
  readonly weak: boolean;
  readonly statefulRegex: boolean;
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${file.fileName}:${String(line + 1)}`;
}

/** `node` without the parentheses and type assertions around it. */
function outer(node: ts.Node): ts.Node {
  let n = node;
  while (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isSatisfiesExpression(n.parent) || ts.isTypeAssertionExpression(n.parent)) n = n.parent;
  return n;
}

/** How a use of a held name treats it: "write", a local name it is given to ("alias"), or nothing. */
function useOf(id: ts.Identifier, held: Held): { kind: "write" | "alias" | "read"; alias?: ts.Identifier; whole?: boolean } {
  let node = outer(id);
  let reached = false; // through a property or element of the held value
  for (;;) {
    const parent = node.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      const name = parent.name.text;
      const call = outer(parent).parent;
      if (ts.isCallExpression(call) && call.expression === outer(parent)) {
        if (MUTATORS.has(name) && !(held.weak && !reached)) return { kind: "write" };
        if (held.statefulRegex && !reached && (name === "exec" || name === "test")) return { kind: "write" };
        return { kind: "read" };
      }
      if (held.statefulRegex && !reached && name === "lastIndex") return { kind: "write" };
      node = outer(parent);
      reached = true;
      continue;
    }
    if (ts.isElementAccessExpression(parent) && parent.expression === node) {
      node = outer(parent);
      reached = true;
      continue;
    }
    break;
  }
  const parent = node.parent;
  if (reached && ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return { kind: "write" };
  if (reached && (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return { kind: "write" };
  if (reached && ts.isDeleteExpression(parent)) return { kind: "write" };
  if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
    const callee = parent.expression;
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Object" && OBJECT_WRITERS.has(callee.name.text)) return { kind: "write" };
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) return { kind: "alias", alias: parent.name, whole: !reached };
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(parent.left)) return { kind: "alias", alias: parent.left, whole: !reached };
  return { kind: "read" };
}

function initialiserKind(init: ts.Expression | undefined): { weak: boolean; statefulRegex: boolean } {
  let e = init;
  while (e !== undefined && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
  const weak = e !== undefined && ts.isNewExpression(e) && ts.isIdentifier(e.expression) && WEAK.has(e.expression.text);
  const statefulRegex = e !== undefined && ts.isRegularExpressionLiteral(e) && /\/[a-z]*[gy][a-z]*$/.test(e.text);
  return { weak, statefulRegex };
}

/**
 * The module-level state in `files` (paths; `texts` may give a path's text instead of the disk's),
 * one line per finding: "path:line: what".
 */
export function moduleStateFaults(files: readonly string[], texts: Readonly<Record<string, string>> = {}): string[] {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [], skipLibCheck: true, noLib: true };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => texts[name] ?? read(name);
  host.fileExists = (name) => name in texts || ts.sys.fileExists(name);
  const program = ts.createProgram(files as string[], options, host);
  const checker = program.getTypeChecker();
  const sources = files.map((f) => program.getSourceFile(f)).filter((s): s is ts.SourceFile => s !== undefined);
  const faults: string[] = [];
  const held = new Map<ts.Symbol, Held>();
  /** The names of {@link held}'s symbols: only an identifier so spelled is looked up (the checker is the slow part). */
  const names = new Set<string>();
  const symbolOf = (id: ts.Identifier): ts.Symbol | undefined => {
    const s = checker.getSymbolAtLocation(id);
    return s !== undefined && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  };
  for (const source of sources) {
    for (const statement of source.statements) {
      if (ts.isVariableStatement(statement)) {
        const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
        for (const d of statement.declarationList.declarations) {
          if (!isConst) {
            faults.push(`${where(d)}: module-level let "${d.name.getText(source)}"`);
            continue;
          }
          if (!ts.isIdentifier(d.name)) continue;
          const symbol = symbolOf(d.name);
          if (symbol !== undefined) held.set(symbol, { origin: d.name.text, ...initialiserKind(d.initializer) });
          names.add(d.name.text);
        }
      } else if (ts.isClassDeclaration(statement)) {
        for (const m of statement.members) {
          const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
          const isStatic = mods.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
          const isReadonly = mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
          if (ts.isPropertyDeclaration(m) && isStatic && !isReadonly) faults.push(`${where(m)}: static field "${m.name.getText(source)}" of class ${statement.name?.text ?? "(anonymous)"}`);
        }
      }
    }
  }
  // Walk every name until no new local name reaches a held const.
  const found = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const source of sources) {
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && names.has(node.text)) {
          const symbol = symbolOf(node);
          const h = symbol === undefined ? undefined : held.get(symbol);
          if (h !== undefined) {
            const use = useOf(node, h);
            if (use.kind === "write") {
              const fault = `${where(node)}: module-level "${h.origin}" is written${node.text === h.origin ? "" : ` (through "${node.text}")`}`;
              if (!found.has(fault)) {
                found.add(fault);
                faults.push(fault);
              }
            } else if (use.kind === "alias" && use.alias !== undefined) {
              const local = symbolOf(use.alias);
              if (local !== undefined && !held.has(local)) {
                names.add(use.alias.text);
                held.set(local, { origin: h.origin, weak: h.weak && use.whole === true, statefulRegex: h.statefulRegex && use.whole === true });
                grew = true;
              }
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return faults;
}

/** {@link moduleStateFaults} of one file's text, given as if at `path` (for the finder's own test). */
export function moduleStateFaultsOfText(path: string, text: string): string[] {
  return moduleStateFaults([path], { [path]: text });
}
