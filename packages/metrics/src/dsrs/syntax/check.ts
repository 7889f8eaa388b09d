// Per-language syntax validation and syntax-tree equivalence with tree-sitter. New behaviour: dsrs stores
// `SyntaxMetric.language` without using it and leaves `DiffStrictness::AstEquivalent` as a TODO.
import { parseJsonSerde } from "../serde-json.js";
import { LANGUAGE_LABELS, type SyntaxLanguage } from "./languages.js";
import { withTree, type SyntaxNode } from "./tree-sitter.js";

/** Where and why code does not parse. `line`/`column` are 1-based; columns count code points. */
export interface SyntaxProblem {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** 1-based line and code-point column of a UTF-16 index (tree-sitter's web indices are UTF-16). */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(index, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < end; i++) {
    const unit = text.charCodeAt(i);
    // Count a surrogate pair once.
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > lineStart && isHighSurrogate(text.charCodeAt(i - 1)))) column++;
  }
  return { line, column };
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function snippet(text: string): string {
  const firstLine = text.split("\n", 1)[0] ?? "";
  const points = [...firstLine];
  return points.length > 30 ? `${points.slice(0, 30).join("")}…` : firstLine;
}

function problemAt(code: string, index: number, language: SyntaxLanguage, detail: string): SyntaxProblem {
  const { line, column } = lineColumn(code, index);
  return {
    message: `Syntax error (${LANGUAGE_LABELS[language]}) at line ${line}, column ${column}${detail}`,
    line,
    column,
  };
}

/** The first ERROR or MISSING node in document order, if the tree has one. */
function firstErrorNode(root: SyntaxNode): SyntaxNode | undefined {
  if (!root.hasError) return undefined;
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.type === "ERROR" || node.isMissing) return node;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as SyntaxNode;
      if (child.hasError || child.isMissing || child.type === "ERROR") stack.push(child);
    }
  }
  return root;
}

function treeProblem(code: string, root: SyntaxNode, language: SyntaxLanguage): SyntaxProblem | undefined {
  const node = firstErrorNode(root);
  if (node === undefined) return undefined;
  if (node.isMissing) return problemAt(code, node.startIndex, language, `: missing ${JSON.stringify(node.type)}`);
  const text = node.text;
  return problemAt(code, node.startIndex, language, text.length > 0 ? `: unexpected ${JSON.stringify(snippet(text))}` : "");
}

// tree-sitter-json accepts comments and several top-level values; serde_json accepts neither, and also
// rejects what §0.3 lists (depth > 127, f64 overflow, unpaired surrogate escapes).
function jsonProblem(code: string, root: SyntaxNode): SyntaxProblem | undefined {
  const children = root.namedChildren;
  const comment = children.find((child) => child.type === "comment");
  if (comment !== undefined) return problemAt(code, comment.startIndex, "json", ": comments are not allowed in JSON");
  const values = children;
  if (values.length === 0) return problemAt(code, code.length, "json", ": expected a JSON value");
  if (values.length > 1) {
    return problemAt(code, (values[1] as SyntaxNode).startIndex, "json", ": trailing characters after the JSON value");
  }
  const serde = parseJsonSerde(code);
  if (serde.ok) return undefined;
  return problemAt(code, serde.index ?? 0, "json", `: ${serde.index === undefined ? "not valid JSON" : serde.reason}`);
}

/**
 * Parse `code` as `language`: `undefined` when it parses without errors, else the first problem.
 * JSON follows serde_json's rules (one value, no comments, §0.3 limits).
 *
 * @example
 * await checkSyntax("fn main() { let x = 1 }", "rust");
 * // { message: 'Syntax error (Rust) at line 1, column 22: missing ";"', line: 1, column: 22 }
 */
export function checkSyntax(code: string, language: SyntaxLanguage): Promise<SyntaxProblem | undefined> {
  return withTree(code, language, (tree) => {
    const problem = treeProblem(code, tree.rootNode, language);
    if (problem !== undefined || language !== "json") return problem;
    return jsonProblem(code, tree.rootNode);
  });
}

interface Token {
  readonly text: string;
  readonly index: number;
}

const CLOSERS = new Set([")", "]", "}", ">"]);
// Statement terminators: `;`, and the newline tokens Go and Bash accept in its place.
const TERMINATORS = new Set([";", "\n"]);
const JS_LIKE = new Set<SyntaxLanguage>(["javascript", "typescript", "tsx"]);

// Each web-tree-sitter accessor is a call into WebAssembly; a node's fields are read once into this.
interface NodeInfo {
  readonly node: SyntaxNode;
  readonly type: string;
  readonly named: boolean;
  readonly start: number;
  readonly end: number;
  readonly leaf: boolean;
}

function info(node: SyntaxNode): NodeInfo {
  return { node, type: node.type, named: node.isNamed, start: node.startIndex, end: node.endIndex, leaf: node.childCount === 0 };
}

/**
 * Which children count for equivalence: extras (comments, Python line continuations) are dropped, as
 * are terminator tokens (`;`, Go's and Bash's newline) and a `,` right before a closing bracket or at
 * the end of a list. Named node types keep every distinction these tokens make (Rust's `{ x }` vs
 * `{ x; }`, Python's `(1,)` vs `(1)`).
 */
function significance(children: readonly NodeInfo[]): boolean[] {
  const keep = children.map((child) => (child.named ? !child.node.isExtra : !TERMINATORS.has(child.type)));
  let next: NodeInfo | undefined;
  for (let i = children.length - 1; i >= 0; i--) {
    if (!keep[i]) continue;
    const child = children[i] as NodeInfo;
    if (child.type === "," && !child.named && (next === undefined || (CLOSERS.has(next.type) && !next.named))) keep[i] = false;
    else next = child;
  }
  return keep;
}

// Nodes whose text between children is content, not layout: string and character literals. Some
// grammars keep that text in no node at all (Rust's `string_literal` has only its quotes and escapes as
// children), so it is read from the gaps. `concatenated_string` is excluded: its gaps are layout.
const STRING_LIKE = /(^|_)(string|char|rune|heredoc|regex)(_|$)/;

function isStringLike(type: string): boolean {
  return STRING_LIKE.test(type) && !type.includes("concatenated");
}

function leafText(node: NodeInfo, parentType: string | undefined, language: SyntaxLanguage, code: string): string {
  if (!node.named) {
    // Quote style is formatting: 'a' and "a" are the same JS/TS string.
    if (JS_LIKE.has(language) && (node.type === "'" || node.type === '"') && parentType === "string") return '"';
    return node.type;
  }
  const text = code.slice(node.start, node.end);
  if (language === "python" && (node.type === "string_start" || node.type === "string_end")) {
    return `${node.type}:${text.replaceAll("'", '"')}`;
  }
  return `${node.type}:${text}`;
}

type Frame = { readonly info: NodeInfo; readonly parentType: string | undefined };

/** The children of `node` that count, interleaved with the gap texts that count, in order. */
function expand(node: NodeInfo, code: string): Array<Frame | Token> {
  const children = node.node.children.map(info);
  const keep = significance(children);
  const stringLike = isStringLike(node.type);
  const items: Array<Frame | Token> = [];
  let cursor = node.start;
  const gap = (end: number): void => {
    if (end <= cursor) return;
    const text = code.slice(cursor, end);
    if (stringLike) items.push({ text: `text:${text}`, index: cursor });
    else if (text.trim() !== "") items.push({ text: `text:${text.trim()}`, index: cursor });
  };
  children.forEach((child, i) => {
    gap(child.start);
    if (keep[i]) items.push({ info: child, parentType: node.type });
    cursor = Math.max(cursor, child.end);
  });
  gap(node.end);
  return items;
}

function canonicalTokens(root: SyntaxNode, language: SyntaxLanguage, code: string): Token[] {
  const tokens: Token[] = [];
  // An explicit stack: deeply nested input must not overflow the JS call stack.
  const stack: Array<Frame | Token> = [{ info: info(root), parentType: undefined }];
  while (stack.length > 0) {
    const item = stack.pop() as Frame | Token;
    if (!("info" in item)) {
      tokens.push(item);
      continue;
    }
    const node = item.info;
    if (node.leaf) {
      tokens.push({ text: leafText(node, item.parentType, language, code), index: node.start });
      continue;
    }
    tokens.push({ text: `(${node.type}`, index: node.start });
    stack.push({ text: ")", index: node.end });
    const items = expand(node, code);
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i] as Frame | Token);
  }
  return tokens;
}

/** The outcome of comparing two programs' syntax trees. */
export type TreeComparison =
  | { readonly kind: "equal" }
  | { readonly kind: "different"; readonly line: number; readonly column: number }
  | { readonly kind: "expected-invalid"; readonly problem: SyntaxProblem }
  | { readonly kind: "actual-invalid"; readonly problem: SyntaxProblem };

/**
 * Compare `expected` and `actual` as `language` syntax trees (dsrs's `AstEquivalent`, a TODO there).
 *
 * Details: ignores layout, comments and other tree-sitter extras, statement terminators (`;`, Go's and
 * Bash's newline), trailing commas and the quote style of JS/TS and Python strings. Node types, leaf
 * texts and string contents (including text a grammar keeps in no node, such as Rust string bodies)
 * must match. The reported position of a difference is in `actual`. Unparsable input is reported as
 * `actual-invalid` (checked first) or `expected-invalid`.
 *
 * @example
 * await compareSyntaxTrees("f(a,b,)", "f(a, b) // call", "javascript"); // { kind: "equal" }
 */
export async function compareSyntaxTrees(expected: string, actual: string, language: SyntaxLanguage): Promise<TreeComparison> {
  const expectedSide = await withTree(expected, language, (tree) => ({
    problem: treeProblem(expected, tree.rootNode, language) ?? (language === "json" ? jsonProblem(expected, tree.rootNode) : undefined),
    tokens: canonicalTokens(tree.rootNode, language, expected),
  }));
  const actualSide = await withTree(actual, language, (tree) => ({
    problem: treeProblem(actual, tree.rootNode, language) ?? (language === "json" ? jsonProblem(actual, tree.rootNode) : undefined),
    tokens: canonicalTokens(tree.rootNode, language, actual),
  }));
  if (actualSide.problem !== undefined) return { kind: "actual-invalid", problem: actualSide.problem };
  if (expectedSide.problem !== undefined) return { kind: "expected-invalid", problem: expectedSide.problem };
  const a = expectedSide.tokens;
  const b = actualSide.tokens;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if ((a[i] as Token).text !== (b[i] as Token).text) return { kind: "different", ...lineColumn(actual, (b[i] as Token).index) };
  }
  if (a.length === b.length) return { kind: "equal" };
  const index = b.length > n ? (b[n] as Token).index : actual.length;
  return { kind: "different", ...lineColumn(actual, index) };
}
