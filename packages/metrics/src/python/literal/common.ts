// `ast.literal_eval` (CPython 3.11), see ../literal.ts. Options, limits and errors shared by the parts.
import { PythonCompatError } from "../../errors.js";

/** Options of `literalEval`. */
export interface LiteralEvalOptions {
  /**
   * How Python ints come out: `"number"` (default) gives a `number` for safe integers and a
   * `bigint` beyond ±2^53; `"bigint"` gives a `bigint` for every int, so that a `number` is always
   * a Python float.
   */
  readonly ints?: "number" | "bigint";
  /**
   * Resolves a `\N{NAME}` escape to a code point (names are matched case-insensitively, as in
   * Python). Without it only the algorithmic names (`CJK UNIFIED IDEOGRAPH-4E00`,
   * `HANGUL SYLLABLE GA`) resolve, and any other `\N{...}` is a `SyntaxError`. The evalwire
   * subpath passes the full Unicode 14 name table.
   */
  readonly unicodeName?: (name: string) => number | undefined;
}

/**
 * CPython 3.11 raises `RecursionError` while building the `ast` objects of an expression nested
 * this deep (3000 minus three per Python frame on the stack; calibrated at the top of a script).
 */
export const RECURSION_DEPTH = 2978;
/** CPython 3.11's parser gives `MemoryError` past 6000 levels of rule recursion (`MAXSTACK`). */
export const PARSER_STACK = 5976;
/** The tokenizer's bracket nesting limit (`MAXLEVEL`). */
export const MAX_BRACKETS = 200;
/** `sys.int_info.default_max_str_digits`. */
export const MAX_INT_DIGITS = 4300;

export function syntaxError(message: string): never {
  throw new PythonCompatError("SyntaxError", message);
}

export function valueError(message: string): never {
  throw new PythonCompatError("ValueError", message);
}
