// `ast.literal_eval` (CPython 3.11), see ../literal.ts. The syntax tree.
import type { PyValue } from "../equality.js";

// ---------------------------------------------------------------------------------------------
// Syntax tree: only what `literal_eval` looks at is kept; every other construct is `other`.

export type Node = { depth: number } & (
  | { k: "const"; value: PyValue; pyType: "int" | "float" | "complex" | "str" | "bytes" | "other" }
  | { k: "tuple" | "list" | "set"; elts: Node[] }
  | { k: "dict"; keys: Array<Node | null>; values: Node[] }
  | { k: "call"; func: Node; argCount: number }
  | { k: "unary"; op: string; operand: Node }
  | { k: "binop"; op: string; left: Node; right: Node }
  | { k: "name"; id: string }
  | { k: "starred"; value: Node }
  | { k: "other"; what: string; children: Node[] }
);

type NodeBody = Node extends infer T ? (T extends Node ? Omit<T, "depth"> : never) : never;

export function node(body: NodeBody, children: readonly (Node | null)[] = []): Node {
  let depth = 0;
  for (const child of children) if (child !== null && child.depth > depth) depth = child.depth;
  const result = body as Node;
  result.depth = depth + 1;
  return result;
}

export const other = (what: string, children: Node[]): Node => node({ k: "other", what, children }, children);
