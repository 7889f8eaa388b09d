// A safe port of CPython 3.11's `ast.literal_eval(str)`: the tokenizer, the expression grammar of
// `ast.parse(..., mode="eval")` (so that syntax errors and malformed-node errors fall where Python
// puts them) and the `_convert` walk. Nothing is ever evaluated: names, calls, operators and
// comprehensions are parsed only to be rejected.
//
// Errors are `PythonCompatError`s carrying the Python exception type:
// * `SyntaxError` (also for Python's `IndentationError`): the text is not a Python expression;
// * `ValueError`: an expression, but not a literal (`a`, `1+2`, `f'x'`), or not encodable (lone
//   surrogates; Python raises `UnicodeEncodeError`, a `ValueError`);
// * `TypeError`: an unhashable set element or dict key (`{[1]: 2}`);
// * `OverflowError`: `int + complex` where the int does not fit a double;
// * `RecursionError` / `MemoryError`: expressions nested deeper than CPython can build (see
//   `RECURSION_DEPTH` and `PARSER_STACK`).
//
// The parts, under literal/: common.ts (options, limits, errors), tokens.ts (the tokenizer), tree.ts (the
// syntax tree), strings.ts (string literal decoding), fstrings.ts (f-string syntax checks), parser.ts (the
// `eval` grammar) and convert.ts (`_convert`). This module is the entry point: import from here.
import { PythonCompatError } from "../errors.js";
import type { PyValue } from "./equality.js";
import { RECURSION_DEPTH, syntaxError, valueError, type LiteralEvalOptions } from "./literal/common.js";
import { convert } from "./literal/convert.js";
import { Parser } from "./literal/parser.js";
import { Tokenizer } from "./literal/tokens.js";
import type { Node } from "./literal/tree.js";

export {
  PY_ELLIPSIS,
  PyBytes,
  PyComplex,
  PyDict,
  PyEllipsis,
  PyObject,
  PySet,
  PyTuple,
  pyTypeName,
  type PyStrDict,
  type PyValue,
} from "./equality.js";
export { PARSER_STACK, RECURSION_DEPTH, type LiteralEvalOptions } from "./literal/common.js";

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * Python's `ast.literal_eval(source)` (CPython 3.11), without ever evaluating anything.
 *
 * When to use: reading a Python literal written as text (`"['a', 1]"`, `"(1, 2.5)"`,
 * `"{'k': None}"`, `"b'x'"`, `"1_000"`, `"-1e400"`).
 *
 * Details: leading spaces and tabs are stripped, then the text must be one Python expression,
 * built only from str/bytes literals (all prefixes and escapes, implicit concatenation), numbers
 * (ints in any base with underscores, floats, imaginaries), `True`/`False`/`None`/`...`, tuple,
 * list, set and dict displays, `set()`, one unary `+`/`-` on a number, and `real ± imaginary`.
 *
 * Gotchas: the errors carry Python's exception type in `pythonType`: `SyntaxError` for text that
 * is not an expression, `ValueError` for an expression that is not a literal (`"a"`, `"1+2"`,
 * `"true"`), `TypeError` for unhashable keys (`"{[1]: 2}"`).
 *
 * @example
 * literalEval("['a', 0x10, (1, 2.5), {'k': None}]"); // ["a", 16, PyTuple [1, 2.5], { k: null }]
 */
export function literalEval(source: string, options: LiteralEvalOptions = {}): PyValue {
  if (typeof source !== "string") throw new PythonCompatError("TypeError", "literalEval expects a string");
  const stripped = source.replace(/^[ \t]+/, "");
  if (hasLoneSurrogate(stripped)) valueError("'utf-8' codec can't encode character: surrogates not allowed");
  if (stripped.includes("\0")) syntaxError("source code string cannot contain null bytes");
  const text = stripped.replace(/\r\n?/g, "\n");
  const tokens = new Tokenizer(text).run();
  let tree: Node;
  try {
    tree = new Parser(tokens, options).parseEval();
  } catch (error) {
    // Right-recursive chains (`lambda: lambda: ...`, `a if b else a if b else ...`) can exhaust
    // the JS stack before the emulated parser stack; CPython fails them with MemoryError too.
    if (error instanceof RangeError) {
      throw new PythonCompatError("MemoryError", "Parser stack overflowed - Python source too complex to parse");
    }
    throw error;
  }
  if (tree.depth > RECURSION_DEPTH) {
    throw new PythonCompatError("RecursionError", "maximum recursion depth exceeded during ast construction");
  }
  return convert(tree);
}
