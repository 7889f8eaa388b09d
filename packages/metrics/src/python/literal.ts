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
import { PythonCompatError } from "../errors.js";
import {
  PY_ELLIPSIS,
  PyBytes,
  PyComplex,
  PyDict,
  PySet,
  PyTuple,
  setOwn,
  type PyStrDict,
  type PyValue,
} from "./equality.js";

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
const MAX_BRACKETS = 200;
/** `sys.int_info.default_max_str_digits`. */
const MAX_INT_DIGITS = 4300;

function syntaxError(message: string): never {
  throw new PythonCompatError("SyntaxError", message);
}

function valueError(message: string): never {
  throw new PythonCompatError("ValueError", message);
}

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = "NAME" | "NUMBER" | "STRING" | "OP" | "NEWLINE" | "END";

interface StringToken {
  readonly bytes: boolean;
  readonly raw: boolean;
  readonly fstring: boolean;
  /** The source text between the quotes. */
  readonly body: string;
}

interface NumberToken {
  readonly type: "int" | "float" | "complex";
  readonly text: string;
  readonly radix: number;
}

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly str?: StringToken;
  readonly num?: NumberToken;
}

const KEYWORDS = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
]);

// Longest first, so that `**=` wins over `**` and `*`.
const OPERATORS = [
  "**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=",
  "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=", "%", "&", "(", ")", "*", "+", ",", "-", ".", "/",
  ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~",
];

const XID_START = /^\p{XID_Start}$/u;
const XID_CONTINUE = /^\p{XID_Continue}$/u;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isIdentifierStart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 128;
const isIdentifierChar = (c: number): boolean => isIdentifierStart(c) || isDigit(c);

const EOF = -1;

// The tokenizer walks UTF-16 units: every unit at or above 128 (surrogates included) may be part
// of an identifier, and identifiers are then checked by code point, as CPython does.
class Tokenizer {
  readonly #src: string;
  #pos = 0;
  readonly #brackets: number[] = [];
  readonly tokens: Token[] = [];

  constructor(source: string) {
    this.#src = source;
  }

  #peek(offset = 0): number {
    const c = this.#src.charCodeAt(this.#pos + offset);
    return Number.isNaN(c) ? EOF : c;
  }

  #text(start: number, end: number): string {
    return this.#src.slice(start, end);
  }

  run(): Token[] {
    let atLineStart = true;
    for (;;) {
      if (atLineStart) {
        atLineStart = false;
        // Indentation of a logical line; blank and comment-only lines do not count. Any indent is
        // an error in eval mode (`IndentationError: unexpected indent`).
        let column = 0;
        for (;;) {
          const c = this.#peek();
          if (c === 0x20) column++;
          else if (c === 0x09) column = (Math.floor(column / 8) + 1) * 8;
          else if (c === 0x0c) column = 0;
          else break;
          this.#pos++;
        }
        const c = this.#peek();
        if (c !== 0x23 && c !== 0x0a && column > 0) syntaxError("unexpected indent");
      }
      // Whitespace between tokens.
      while (this.#peek() === 0x20 || this.#peek() === 0x09 || this.#peek() === 0x0c) this.#pos++;
      let c = this.#peek();
      if (c === 0x23) {
        while (this.#peek() !== 0x0a && this.#peek() !== EOF) this.#pos++;
        c = this.#peek();
      }
      if (c === EOF) {
        if (this.#brackets.length > 0) syntaxError("unexpected EOF while parsing");
        this.tokens.push({ kind: "END", text: "" });
        return this.tokens;
      }
      if (c === 0x0a) {
        this.#pos++;
        if (this.#brackets.length > 0) continue;
        const last = this.tokens[this.tokens.length - 1];
        if (last !== undefined && last.kind !== "NEWLINE") this.tokens.push({ kind: "NEWLINE", text: "\n" });
        atLineStart = true;
        continue;
      }
      if (c === 0x5c) {
        // Explicit line joining; the next line carries no indentation.
        this.#pos++;
        const next = this.#peek();
        if (next === EOF) syntaxError("unexpected EOF while parsing");
        if (next !== 0x0a) syntaxError("unexpected character after line continuation character");
        this.#pos++;
        if (this.#peek() === EOF) syntaxError("unexpected EOF while parsing");
        continue;
      }
      if (isIdentifierStart(c)) {
        this.#nameOrString();
        continue;
      }
      if (c === 0x22 || c === 0x27) {
        this.#string({ bytes: false, raw: false, fstring: false });
        continue;
      }
      if (isDigit(c) || (c === 0x2e && isDigit(this.#peek(1)))) {
        this.#number();
        continue;
      }
      this.#operator(c);
    }
  }

  #nameOrString(): void {
    const start = this.#pos;
    let sawB = false;
    let sawR = false;
    let sawU = false;
    let sawF = false;
    for (;;) {
      const c = this.#peek();
      if (!(sawB || sawU || sawF) && (c === 0x62 || c === 0x42)) sawB = true;
      else if (!(sawB || sawU || sawR || sawF) && (c === 0x75 || c === 0x55)) sawU = true;
      else if (!(sawR || sawU) && (c === 0x72 || c === 0x52)) sawR = true;
      else if (!(sawF || sawB || sawU) && (c === 0x66 || c === 0x46)) sawF = true;
      else break;
      this.#pos++;
      const q = this.#peek();
      if (q === 0x22 || q === 0x27) {
        this.#string({ bytes: sawB, raw: sawR, fstring: sawF });
        return;
      }
    }
    let nonAscii = false;
    while (isIdentifierChar(this.#peek())) {
      if (this.#peek() >= 128) nonAscii = true;
      this.#pos++;
    }
    const text = this.#text(start, this.#pos);
    if (nonAscii) {
      const chars = Array.from(text);
      chars.forEach((ch, index) => {
        const ok = index === 0 ? XID_START.test(ch) || ch === "_" : XID_CONTINUE.test(ch);
        if (!ok) {
          const code = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
          syntaxError(`invalid character '${ch}' (U+${code})`);
        }
      });
    }
    this.tokens.push({ kind: "NAME", text });
  }

  #string(flags: { bytes: boolean; raw: boolean; fstring: boolean }): void {
    const quote = this.#peek();
    this.#pos++;
    let quoteSize = 1;
    let endQuoteSize = 0;
    if (this.#peek() === quote) {
      if (this.#peek(1) === quote) {
        quoteSize = 3;
        this.#pos += 2;
      } else {
        this.#pos++;
        endQuoteSize = 1;
      }
    }
    const bodyStart = this.#pos;
    while (endQuoteSize !== quoteSize) {
      const c = this.#peek();
      if (c === EOF || (quoteSize === 1 && c === 0x0a)) {
        syntaxError(quoteSize === 3 ? "unterminated triple-quoted string literal" : "unterminated string literal");
      }
      this.#pos++;
      if (c === quote) {
        endQuoteSize++;
      } else {
        endQuoteSize = 0;
        if (c === 0x5c) {
          if (this.#peek() === EOF) {
            syntaxError(quoteSize === 3 ? "unterminated triple-quoted string literal" : "unterminated string literal");
          }
          this.#pos++;
        }
      }
    }
    const body = this.#src.slice(bodyStart, this.#pos - quoteSize);
    this.tokens.push({ kind: "STRING", text: "", str: { bytes: flags.bytes, raw: flags.raw, fstring: flags.fstring, body } });
  }

  /** CPython's `verify_end_of_number`: a keyword may follow (with a warning), a name may not. */
  #verifyEnd(kind: string): void {
    const c = this.#peek();
    const rest = (s: string): boolean => Array.from(s).every((ch, i) => this.#peek(1 + i) === ch.charCodeAt(0));
    let keyword = false;
    if (c === 0x61) keyword = rest("nd");
    else if (c === 0x65) keyword = rest("lse");
    else if (c === 0x66) keyword = rest("or");
    else if (c === 0x69) keyword = [0x66, 0x6e, 0x73].includes(this.#peek(1));
    else if (c === 0x6f) keyword = rest("r");
    else if (c === 0x6e) keyword = rest("ot");
    if (!keyword && isIdentifierChar(c)) syntaxError(`invalid ${kind} literal`);
  }

  /** Digits with single underscores between them (`tok_decimal_tail`); the first is consumed. */
  #decimalTail(): void {
    for (;;) {
      while (isDigit(this.#peek())) this.#pos++;
      if (this.#peek() !== 0x5f) return;
      this.#pos++;
      if (!isDigit(this.#peek())) syntaxError("invalid decimal literal");
    }
  }

  #radixDigits(radix: number, name: string): void {
    const ok = (c: number): boolean =>
      radix === 16 ? isHexDigit(c) : radix === 8 ? c >= 0x30 && c <= 0x37 : c === 0x30 || c === 0x31;
    do {
      if (this.#peek() === 0x5f) this.#pos++;
      if (!ok(this.#peek())) {
        if (radix !== 16 && isDigit(this.#peek())) {
          syntaxError(`invalid digit '${String.fromCharCode(this.#peek())}' in ${name} literal`);
        }
        syntaxError(`invalid ${name} literal`);
      }
      while (ok(this.#peek())) this.#pos++;
    } while (this.#peek() === 0x5f);
    if (radix !== 16 && isDigit(this.#peek())) {
      syntaxError(`invalid digit '${String.fromCharCode(this.#peek())}' in ${name} literal`);
    }
    this.#verifyEnd(name);
  }

  #number(): void {
    const start = this.#pos;
    const push = (type: NumberToken["type"], radix = 10): void => {
      const text = this.#text(start, this.#pos);
      this.tokens.push({ kind: "NUMBER", text, num: { type, text, radix } });
    };
    let c = this.#peek();
    if (c === 0x2e) {
      this.#pos++;
      return this.#fraction(start, push);
    }
    if (c === 0x30) {
      this.#pos++;
      c = this.#peek();
      const radix = c === 0x78 || c === 0x58 ? 16 : c === 0x6f || c === 0x4f ? 8 : c === 0x62 || c === 0x42 ? 2 : 0;
      if (radix !== 0) {
        this.#pos++;
        this.#radixDigits(radix, radix === 16 ? "hexadecimal" : radix === 8 ? "octal" : "binary");
        return push("int", radix);
      }
      // Zeros, then maybe a float or imaginary that happens to start with 0.
      for (;;) {
        if (this.#peek() === 0x5f) {
          this.#pos++;
          if (!isDigit(this.#peek())) syntaxError("invalid decimal literal");
        }
        if (this.#peek() !== 0x30) break;
        this.#pos++;
      }
      let nonzero = false;
      if (isDigit(this.#peek())) {
        nonzero = true;
        this.#decimalTail();
      }
      c = this.#peek();
      if (c === 0x2e) {
        this.#pos++;
        return this.#fraction(start, push);
      }
      if (c === 0x65 || c === 0x45) return this.#exponent(start, push);
      if (c === 0x6a || c === 0x4a) {
        this.#pos++;
        this.#verifyEnd("imaginary");
        return push("complex");
      }
      if (nonzero) {
        syntaxError("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
      }
      this.#verifyEnd("decimal");
      return push("int");
    }
    this.#decimalTail();
    c = this.#peek();
    if (c === 0x2e) {
      this.#pos++;
      return this.#fraction(start, push);
    }
    if (c === 0x65 || c === 0x45) return this.#exponent(start, push);
    if (c === 0x6a || c === 0x4a) {
      this.#pos++;
      this.#verifyEnd("imaginary");
      return push("complex");
    }
    this.#verifyEnd("decimal");
    return push("int");
  }

  #fraction(start: number, push: (type: NumberToken["type"]) => void): void {
    if (isDigit(this.#peek())) this.#decimalTail();
    const c = this.#peek();
    if (c === 0x65 || c === 0x45) return this.#exponent(start, push);
    if (c === 0x6a || c === 0x4a) {
      this.#pos++;
      this.#verifyEnd("imaginary");
      return push("complex");
    }
    this.#verifyEnd("decimal");
    push("float");
  }

  #exponent(start: number, push: (type: NumberToken["type"]) => void): void {
    const ePos = this.#pos;
    this.#pos++;
    let c = this.#peek();
    if (c === 0x2b || c === 0x2d) {
      this.#pos++;
      if (!isDigit(this.#peek())) syntaxError("invalid decimal literal");
    } else if (!isDigit(c)) {
      // `1else`: the number ends before the `e` (a keyword follows); `1e` alone is an error.
      this.#pos = ePos;
      this.#verifyEnd("decimal");
      const text = this.#text(start, this.#pos);
      push(/[.]/.test(text) ? "float" : "int");
      return;
    }
    this.#decimalTail();
    c = this.#peek();
    if (c === 0x6a || c === 0x4a) {
      this.#pos++;
      this.#verifyEnd("imaginary");
      return push("complex");
    }
    this.#verifyEnd("decimal");
    push("float");
  }

  #operator(c: number): void {
    for (const op of OPERATORS) {
      let match = true;
      for (let i = 0; i < op.length; i++) {
        if (this.#peek(i) !== op.charCodeAt(i)) {
          match = false;
          break;
        }
      }
      if (!match) continue;
      if (op === "(" || op === "[" || op === "{") {
        if (this.#brackets.length >= MAX_BRACKETS) syntaxError("too many nested parentheses");
        this.#brackets.push(op.charCodeAt(0));
      } else if (op === ")" || op === "]" || op === "}") {
        const open = this.#brackets.pop();
        if (open === undefined) syntaxError(`unmatched '${op}'`);
        const expected = open === 0x28 ? ")" : open === 0x5b ? "]" : "}";
        if (expected !== op) syntaxError(`closing parenthesis '${op}' does not match`);
      }
      this.#pos += op.length;
      this.tokens.push({ kind: "OP", text: op });
      return;
    }
    const code = c.toString(16).toUpperCase().padStart(4, "0");
    if (c < 0x20 || c === 0x7f) syntaxError(`invalid non-printable character U+${code}`);
    syntaxError(`invalid character (U+${code})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Syntax tree: only what `literal_eval` looks at is kept; every other construct is `other`.

type Node = { depth: number } & (
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

function node(body: NodeBody, children: readonly (Node | null)[] = []): Node {
  let depth = 0;
  for (const child of children) if (child !== null && child.depth > depth) depth = child.depth;
  const result = body as Node;
  result.depth = depth + 1;
  return result;
}

const other = (what: string, children: Node[]): Node => node({ k: "other", what, children }, children);

// ---------------------------------------------------------------------------------------------
// String literal decoding

/**
 * The value of a non-raw literal body: a string for `str`, or a "binary string" of char codes
 * 0-255 for `bytes`. Invalid escapes are `SyntaxError`s (`ValueError` inside bytes, which the
 * parser reports as a `SyntaxError` too); unknown ones stay as written.
 */
function decodeEscapes(body: string, bytes: boolean, unicodeName: LiteralEvalOptions["unicodeName"]): string {
  if (!body.includes("\\")) return body;
  const hex = (at: number, count: number, what: string): number => {
    let value = 0;
    for (let j = 0; j < count; j++) {
      const c = body.charCodeAt(at + j);
      if (!isHexDigit(c)) {
        if (bytes) valueError(`invalid \\x escape at position ${at - 2}`);
        syntaxError(`(unicode error) 'unicodeescape' codec can't decode bytes: truncated ${what} escape`);
      }
      value = value * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);
    }
    return value;
  };
  let out = "";
  let i = 0;
  for (;;) {
    const slash = body.indexOf("\\", i);
    if (slash < 0) return out + body.slice(i);
    out += body.slice(i, slash);
    const e = body.charCodeAt(slash + 1);
    i = slash + 2;
    switch (e) {
      case 0x0a: break;
      case 0x5c: out += "\\"; break;
      case 0x27: out += "'"; break;
      case 0x22: out += '"'; break;
      case 0x62: out += "\b"; break;
      case 0x66: out += "\f"; break;
      case 0x74: out += "\t"; break;
      case 0x6e: out += "\n"; break;
      case 0x72: out += "\r"; break;
      case 0x76: out += "\v"; break;
      case 0x61: out += "\x07"; break;
      case 0x78:
        out += String.fromCharCode(hex(i, 2, "\\xXX"));
        i += 2;
        break;
      case 0x75:
      case 0x55:
      case 0x4e: {
        if (bytes) {
          // `\u`, `\U` and `\N` mean nothing in bytes: kept as written.
          out += "\\";
          i = slash + 1;
          break;
        }
        if (e === 0x4e) {
          const close = body.indexOf("}", i + 1);
          if (body.charCodeAt(i) !== 0x7b || close < 0 || close === i + 1) {
            syntaxError("(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape");
          }
          const code = lookupUnicodeName(body.slice(i + 1, close), unicodeName);
          if (code === undefined) {
            syntaxError("(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name");
          }
          out += String.fromCodePoint(code);
          i = close + 1;
          break;
        }
        const count = e === 0x75 ? 4 : 8;
        const value = hex(i, count, e === 0x75 ? "\\uXXXX" : "\\UXXXXXXXX");
        if (value > 0x10ffff) syntaxError("(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character");
        out += String.fromCodePoint(value);
        i += count;
        break;
      }
      default:
        if (e >= 0x30 && e <= 0x37) {
          let value = e - 0x30;
          for (let j = 0; j < 2; j++) {
            const d = body.charCodeAt(i);
            if (!(d >= 0x30 && d <= 0x37)) break;
            value = value * 8 + (d - 0x30);
            i++;
          }
          out += String.fromCharCode(bytes ? value & 0xff : value);
        } else {
          // Unknown escapes stay as written (a DeprecationWarning in 3.11); a lone trailing
          // backslash cannot occur (the tokenizer pairs it with the next character).
          out += "\\";
          i = slash + 1;
        }
    }
  }
}

const HANGUL_L = ["G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"];
const HANGUL_V = ["A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"];
const HANGUL_T = ["", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"];

// Unicode 14 `Unified_Ideograph` blocks that `unicodedata` names algorithmically.
const CJK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0x20000, 0x2a6df], [0x2a700, 0x2b738], [0x2b740, 0x2b81d],
  [0x2b820, 0x2cea1], [0x2ceb0, 0x2ebe0], [0x30000, 0x3134a],
];

function lookupUnicodeName(name: string, table: LiteralEvalOptions["unicodeName"]): number | undefined {
  // The two algorithmic families are matched case-sensitively (uppercase hex), as CPython does.
  if (name.startsWith("HANGUL SYLLABLE ")) {
    const rest = name.slice(16);
    let at = 0;
    // CPython's `find_syllable`: the longest jamo short name at each step, the first on ties.
    const take = (list: readonly string[]): number => {
      let best = -1;
      let length = -1;
      list.forEach((jamo, index) => {
        if (jamo.length > length && rest.startsWith(jamo, at)) {
          best = index;
          length = jamo.length;
        }
      });
      if (best >= 0) at += length;
      return best;
    };
    const l = take(HANGUL_L);
    const v = take(HANGUL_V);
    const t = take(HANGUL_T);
    if (l >= 0 && v >= 0 && t >= 0 && at === rest.length) return 0xac00 + (l * 21 + v) * 28 + t;
  }
  if (name.startsWith("CJK UNIFIED IDEOGRAPH-")) {
    const digits = name.slice(22);
    if ((digits.length === 4 || digits.length === 5) && /^[0-9A-F]+$/.test(digits)) {
      const code = parseInt(digits, 16);
      if (CJK_RANGES.some(([lo, hi]) => code >= lo && code <= hi)) return code;
    }
  }
  // Every other name (and alias) is matched case-insensitively.
  return table?.(name.replace(/[a-z]/g, (ch) => ch.toUpperCase()));
}

// ---------------------------------------------------------------------------------------------
// f-strings (3.11 rules): only checked for syntax; literal_eval rejects them anyway.

function checkFString(tok: StringToken, parseExpression: (source: string) => void, unicodeName: LiteralEvalOptions["unicodeName"]): void {
  const body: number[] = [];
  for (let k = 0; k < tok.body.length; k++) body.push(tok.body.charCodeAt(k));
  const literal: number[] = [];
  const flushLiteral = (): void => {
    if (!tok.raw) decodeEscapes(String.fromCharCode(...literal), false, unicodeName);
    literal.length = 0;
  };
  const scan = (start: number, depth: number, inSpec: boolean): number => {
    let i = start;
    while (i < body.length) {
      const c = body[i] as number;
      if (c === 0x5c && !tok.raw && body[i + 1] === 0x4e && body[i + 2] === 0x7b) {
        // `\N{NAME}`: its braces are not a replacement field.
        const close = body.indexOf(0x7d, i + 3);
        const end = close < 0 ? body.length : close + 1;
        for (let j = i; j < end; j++) literal.push(body[j] as number);
        i = end;
        continue;
      }
      if (c === 0x7b) {
        if (!inSpec && body[i + 1] === 0x7b) {
          literal.push(c);
          i += 2;
          continue;
        }
        flushLiteral();
        if (depth >= 2) syntaxError("f-string: expressions nested too deeply");
        i = expressionField(i + 1, depth);
        continue;
      }
      if (c === 0x7d) {
        if (inSpec) return i;
        if (body[i + 1] === 0x7d) {
          literal.push(c);
          i += 2;
          continue;
        }
        syntaxError("f-string: single '}' is not allowed");
      }
      literal.push(c);
      i++;
    }
    flushLiteral();
    return i;
  };
  const expressionField = (start: number, depth: number): number => {
    const stack: number[] = [];
    let quote = 0;
    let quoteSize = 0;
    let i = start;
    for (; i < body.length; i++) {
      const c = body[i] as number;
      if (c === 0x5c) syntaxError("f-string expression part cannot include a backslash");
      if (quote !== 0) {
        if (c === quote) {
          if (quoteSize === 3) {
            if (body[i + 1] === quote && body[i + 2] === quote) {
              i += 2;
              quote = 0;
            }
          } else {
            quote = 0;
          }
        }
        continue;
      }
      if (c === 0x27 || c === 0x22) {
        if (body[i + 1] === c && body[i + 2] === c) {
          quoteSize = 3;
          i += 2;
        } else {
          quoteSize = 1;
        }
        quote = c;
        continue;
      }
      if (c === 0x5b || c === 0x28 || c === 0x7b) {
        if (stack.length >= MAX_BRACKETS) syntaxError("f-string: too many nested parenthesis");
        stack.push(c);
        continue;
      }
      if (c === 0x23) syntaxError("f-string expression part cannot include '#'");
      if (stack.length === 0) {
        const next = body[i + 1];
        if (c === 0x21 && next === 0x3d) {
          i++;
          continue;
        }
        if (c === 0x3d && next === 0x3d) {
          i++;
          continue;
        }
        if ((c === 0x3c || c === 0x3e) && next === 0x3d) {
          i++;
          continue;
        }
        if (c === 0x21 || c === 0x3a || c === 0x7d || c === 0x3d) break;
      }
      if (c === 0x5d || c === 0x29 || c === 0x7d) {
        const open = stack.pop();
        if (open === undefined) syntaxError(`f-string: unmatched '${String.fromCharCode(c)}'`);
        const expected = open === 0x28 ? 0x29 : open === 0x5b ? 0x5d : 0x7d;
        if (c !== expected) syntaxError("f-string: closing parenthesis does not match");
      }
    }
    if (quote !== 0) syntaxError("f-string: unterminated string");
    if (stack.length > 0) syntaxError("f-string: unmatched '('");
    if (i >= body.length) syntaxError("f-string: expecting '}'");
    const text = String.fromCharCode(...body.slice(start, i));
    if (text.trim() === "" || /^[ \t\f\n]*$/.test(text)) syntaxError("f-string: empty expression not allowed");
    parseExpression(`(${text})`);
    if (body[i] === 0x3d) {
      i++;
      while (body[i] === 0x20 || (body[i] !== undefined && (body[i] as number) >= 0x09 && (body[i] as number) <= 0x0d)) i++;
    }
    if (body[i] === 0x21) {
      const conversion = body[i + 1];
      if (conversion !== 0x73 && conversion !== 0x72 && conversion !== 0x61) {
        syntaxError("f-string: invalid conversion character: expected 's', 'r', or 'a'");
      }
      i += 2;
    }
    if (body[i] === 0x3a) i = scan(i + 1, depth + 1, true);
    if (body[i] !== 0x7d) syntaxError("f-string: expecting '}'");
    return i + 1;
  };
  scan(0, 0, false);
}

// ---------------------------------------------------------------------------------------------
// Parser: the `eval` start rule of the 3.11 grammar (expressions only).

const COMPARISON_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const BINARY_LEVELS: readonly (readonly string[])[] = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "//", "%", "@"]];

class Parser {
  readonly #tokens: Token[];
  #i = 0;
  #stack = 0;
  readonly #options: LiteralEvalOptions;

  constructor(tokens: Token[], options: LiteralEvalOptions) {
    this.#tokens = tokens;
    this.#options = options;
  }

  #peek(offset = 0): Token {
    return this.#tokens[Math.min(this.#i + offset, this.#tokens.length - 1)] as Token;
  }
  #next(): Token {
    const tok = this.#peek();
    if (this.#i < this.#tokens.length - 1) this.#i++;
    return tok;
  }
  #isOp(text: string, offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "OP" && tok.text === text;
  }
  #isKeyword(text: string, offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "NAME" && tok.text === text;
  }
  #isName(offset = 0): boolean {
    const tok = this.#peek(offset);
    return tok.kind === "NAME" && !KEYWORDS.has(tok.text);
  }
  #eatOp(text: string): boolean {
    if (!this.#isOp(text)) return false;
    this.#next();
    return true;
  }
  #eatKeyword(text: string): boolean {
    if (!this.#isKeyword(text)) return false;
    this.#next();
    return true;
  }
  #expectOp(text: string): void {
    if (!this.#eatOp(text)) this.#fail();
  }
  #fail(message = "invalid syntax"): never {
    syntaxError(message);
  }
  /** Tracks CPython's parser stack; the limits are the ones CPython hits. */
  #enter(levels: number): void {
    this.#stack += levels;
    if (this.#stack > PARSER_STACK) {
      throw new PythonCompatError("MemoryError", "Parser stack overflowed - Python source too complex to parse");
    }
  }
  #leave(levels: number): void {
    this.#stack -= levels;
  }

  /** Whether the current token can begin an `expression`. */
  #startsExpression(): boolean {
    const tok = this.#peek();
    if (tok.kind === "NUMBER" || tok.kind === "STRING") return true;
    if (tok.kind === "NAME") {
      return !KEYWORDS.has(tok.text) || ["not", "lambda", "await", "True", "False", "None"].includes(tok.text);
    }
    return tok.kind === "OP" && ["(", "[", "{", "-", "+", "~", "..."].includes(tok.text);
  }

  parseEval(): Node {
    const result = this.#expressions();
    while (this.#peek().kind === "NEWLINE") this.#next();
    if (this.#peek().kind !== "END") this.#fail();
    return result;
  }

  parseFStringExpression(): void {
    // `(text)` as a star_expressions group: a tuple, a starred item or a yield are allowed.
    this.#expectOp("(");
    if (this.#isKeyword("yield")) this.#yieldExpression();
    else this.#starExpressions();
    this.#expectOp(")");
    while (this.#peek().kind === "NEWLINE") this.#next();
    if (this.#peek().kind !== "END") this.#fail("f-string: invalid syntax");
  }

  #expressions(): Node {
    const first = this.#expression();
    if (!this.#isOp(",")) return first;
    const elts = [first];
    while (this.#eatOp(",")) {
      if (!this.#startsExpression()) break;
      elts.push(this.#expression());
    }
    return node({ k: "tuple", elts }, elts);
  }

  #starExpressions(): Node {
    const first = this.#starExpression();
    if (!this.#isOp(",")) return first;
    const elts = [first];
    while (this.#eatOp(",")) {
      if (!this.#startsExpression() && !this.#isOp("*")) break;
      elts.push(this.#starExpression());
    }
    return node({ k: "tuple", elts }, elts);
  }

  #starExpression(): Node {
    if (this.#eatOp("*")) {
      const value = this.#bitwiseOr();
      return node({ k: "starred", value }, [value]);
    }
    return this.#expression();
  }

  #expression(): Node {
    this.#enter(1);
    try {
      if (this.#isKeyword("lambda")) return this.#lambda();
      const body = this.#disjunction();
      if (!this.#eatKeyword("if")) return body;
      const test = this.#disjunction();
      if (!this.#eatKeyword("else")) this.#fail("expected 'else' after 'if' expression");
      const orelse = this.#expression();
      return other("IfExp", [body, test, orelse]);
    } finally {
      this.#leave(1);
    }
  }

  #namedExpression(): Node {
    if (this.#isName() && this.#isOp(":=", 1)) {
      const target = this.#next().text;
      this.#next();
      const value = this.#expression();
      return other("NamedExpr", [node({ k: "name", id: target }), value]);
    }
    const result = this.#expression();
    if (this.#isOp(":=")) this.#fail();
    return result;
  }

  #starNamedExpression(): Node {
    if (this.#eatOp("*")) {
      const value = this.#bitwiseOr();
      return node({ k: "starred", value }, [value]);
    }
    return this.#namedExpression();
  }

  #yieldExpression(): Node {
    this.#next();
    if (this.#eatKeyword("from")) return other("YieldFrom", [this.#expression()]);
    if (this.#startsExpression() || this.#isOp("*")) return other("Yield", [this.#starExpressions()]);
    return other("Yield", []);
  }

  #lambda(): Node {
    this.#next();
    this.#lambdaParameters();
    this.#expectOp(":");
    return other("Lambda", [this.#expression()]);
  }

  #lambdaParameters(): void {
    // Positional-only and plain parameters (defaults must not be followed by non-defaults),
    // then `*` / `*name` with keyword-only parameters, then `**name`, each with an optional
    // trailing comma.
    let sawDefault = false;
    let sawSlash = false;
    let sawStar = false;
    let params = 0;
    let keywordOnly = 0;
    let bareStar = false;
    while (!this.#isOp(":")) {
      if (this.#eatOp("**")) {
        if (!this.#isName()) this.#fail();
        this.#next();
        this.#eatOp(",");
        if (bareStar && keywordOnly === 0) this.#fail("named arguments must follow bare *");
        if (!this.#isOp(":")) this.#fail();
        return;
      }
      if (this.#eatOp("*")) {
        if (sawStar) this.#fail();
        sawStar = true;
        if (this.#isName()) this.#next();
        else bareStar = true;
      } else if (this.#eatOp("/")) {
        if (sawSlash || sawStar || params === 0) this.#fail();
        sawSlash = true;
      } else {
        if (!this.#isName()) this.#fail();
        this.#next();
        params++;
        if (sawStar) keywordOnly++;
        if (this.#eatOp("=")) {
          this.#expression();
          if (!sawStar) sawDefault = true;
        } else if (sawDefault && !sawStar) {
          this.#fail("non-default argument follows default argument");
        }
      }
      if (!this.#eatOp(",")) break;
    }
    if (bareStar && keywordOnly === 0) this.#fail("named arguments must follow bare *");
  }

  #disjunction(): Node {
    const first = this.#conjunction();
    if (!this.#isKeyword("or")) return first;
    const values = [first];
    while (this.#eatKeyword("or")) values.push(this.#conjunction());
    return other("BoolOp", values);
  }

  #conjunction(): Node {
    const first = this.#inversion();
    if (!this.#isKeyword("and")) return first;
    const values = [first];
    while (this.#eatKeyword("and")) values.push(this.#inversion());
    return other("BoolOp", values);
  }

  #inversion(): Node {
    let count = 0;
    while (this.#isKeyword("not")) {
      this.#next();
      count++;
    }
    this.#enter(count);
    try {
      let result = this.#comparison();
      for (let j = 0; j < count; j++) result = node({ k: "unary", op: "not", operand: result }, [result]);
      return result;
    } finally {
      this.#leave(count);
    }
  }

  #comparisonOperator(): boolean {
    const tok = this.#peek();
    if (tok.kind === "OP" && COMPARISON_OPS.has(tok.text)) {
      this.#next();
      return true;
    }
    if (this.#isKeyword("in")) {
      this.#next();
      return true;
    }
    if (this.#isKeyword("not") && this.#isKeyword("in", 1)) {
      this.#next();
      this.#next();
      return true;
    }
    if (this.#isKeyword("is")) {
      this.#next();
      this.#eatKeyword("not");
      return true;
    }
    return false;
  }

  #comparison(): Node {
    const first = this.#bitwiseOr();
    const operands = [first];
    while (this.#comparisonOperator()) operands.push(this.#bitwiseOr());
    return operands.length === 1 ? first : other("Compare", operands);
  }

  #bitwiseOr(): Node {
    return this.#binary(0);
  }

  #binary(level: number): Node {
    if (level >= BINARY_LEVELS.length) return this.#factor();
    const ops = BINARY_LEVELS[level] as readonly string[];
    let left = this.#binary(level + 1);
    for (;;) {
      const tok = this.#peek();
      if (tok.kind !== "OP" || !ops.includes(tok.text)) return left;
      this.#next();
      const right = this.#binary(level + 1);
      left = node({ k: "binop", op: tok.text, left, right }, [left, right]);
    }
  }

  #factor(): Node {
    const ops: string[] = [];
    for (;;) {
      const tok = this.#peek();
      if (tok.kind === "OP" && (tok.text === "+" || tok.text === "-" || tok.text === "~")) {
        ops.push(tok.text);
        this.#next();
      } else {
        break;
      }
    }
    this.#enter(ops.length);
    try {
      let result = this.#power();
      for (let j = ops.length - 1; j >= 0; j--) {
        result = node({ k: "unary", op: ops[j] as string, operand: result }, [result]);
      }
      return result;
    } finally {
      this.#leave(ops.length);
    }
  }

  #power(): Node {
    const base = this.#awaitPrimary();
    if (!this.#eatOp("**")) return base;
    this.#enter(2);
    try {
      const exponent = this.#factor();
      return node({ k: "binop", op: "**", left: base, right: exponent }, [base, exponent]);
    } finally {
      this.#leave(2);
    }
  }

  #awaitPrimary(): Node {
    if (this.#eatKeyword("await")) return other("Await", [this.#primary()]);
    return this.#primary();
  }

  #primary(): Node {
    let result = this.#atom();
    for (;;) {
      if (this.#eatOp(".")) {
        if (!this.#isName()) this.#fail();
        this.#next();
        result = other("Attribute", [result]);
      } else if (this.#eatOp("(")) {
        const args = this.#arguments();
        result = node({ k: "call", func: result, argCount: args.length }, [result, ...args]);
      } else if (this.#eatOp("[")) {
        const slice = this.#slices();
        result = other("Subscript", [result, slice]);
      } else {
        return result;
      }
    }
  }

  /** Call arguments after `(`, through `)`. */
  #arguments(): Node[] {
    const args: Node[] = [];
    if (this.#eatOp(")")) return args;
    // A lone generator expression argument: `f(x for x in y)`.
    let phase = 0; // 0: positional, 1: keywords and `*`, 2: keywords and `**`
    for (;;) {
      if (this.#eatOp("*")) {
        if (phase === 2) this.#fail("iterable argument unpacking follows keyword argument unpacking");
        const value = this.#expression();
        args.push(node({ k: "starred", value }, [value]));
      } else if (this.#eatOp("**")) {
        phase = 2;
        args.push(this.#expression());
      } else if (this.#isName() && this.#isOp("=", 1)) {
        this.#next();
        this.#next();
        if (phase === 0) phase = 1;
        args.push(this.#expression());
      } else {
        if (phase !== 0) {
          this.#namedExpression();
          this.#fail("positional argument follows keyword argument");
        }
        const value = this.#namedExpression();
        if (this.#isOp("=")) this.#fail("expression cannot contain assignment, perhaps you meant \"==\"?");
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          if (args.length > 0 || !this.#isOp(")")) this.#fail("Generator expression must be parenthesized");
          args.push(other("GeneratorExp", [value]));
        } else {
          args.push(value);
        }
      }
      if (this.#eatOp(")")) return args;
      this.#expectOp(",");
      if (this.#eatOp(")")) return args;
    }
  }

  /** Subscript contents after `[`, through `]`. */
  #slices(): Node {
    const items: Node[] = [];
    let sawComma = false;
    for (;;) {
      if (this.#eatOp("*")) {
        const value = this.#expression();
        items.push(node({ k: "starred", value }, [value]));
      } else {
        items.push(this.#slice());
      }
      if (this.#eatOp("]")) break;
      this.#expectOp(",");
      sawComma = true;
      if (this.#eatOp("]")) break;
    }
    const lone = items[0] as Node;
    // `a[*b]` is a one-element tuple subscript (3.11).
    return sawComma || lone.k === "starred" ? node({ k: "tuple", elts: items }, items) : lone;
  }

  #slice(): Node {
    if (this.#isName() && this.#isOp(":=", 1)) return this.#namedExpression();
    const parts: Node[] = [];
    const boundary = (): boolean => this.#isOp(":") || this.#isOp(",") || this.#isOp("]");
    if (!this.#isOp(":")) {
      const lower = this.#expression();
      if (!this.#isOp(":")) {
        if (this.#isOp(":=")) this.#fail();
        return lower;
      }
      parts.push(lower);
    }
    this.#expectOp(":");
    if (!boundary()) parts.push(this.#expression());
    if (this.#eatOp(":") && !boundary()) parts.push(this.#expression());
    return other("Slice", parts);
  }

  /** `for ... in ... if ...` clauses (at least one). */
  #comprehensionClauses(): void {
    let clauses = 0;
    for (;;) {
      if (this.#isKeyword("async") && this.#isKeyword("for", 1)) this.#next();
      if (!this.#eatKeyword("for")) break;
      this.#starTargets();
      if (!this.#eatKeyword("in")) this.#fail();
      this.#disjunction();
      while (this.#eatKeyword("if")) this.#disjunction();
      clauses++;
    }
    if (clauses === 0) this.#fail();
  }

  #starTargets(): void {
    for (;;) {
      this.#starTarget();
      if (!this.#eatOp(",")) return;
      if (this.#isKeyword("in")) return;
    }
  }

  #starTarget(): void {
    if (this.#eatOp("*")) {
      if (this.#isOp("*")) this.#fail();
      this.#starTarget();
      return;
    }
    const target = this.#primary();
    this.#validateTarget(target);
  }

  #validateTarget(target: Node): void {
    if (target.k === "name") return;
    if (target.k === "other" && (target.what === "Attribute" || target.what === "Subscript")) return;
    if ((target.k === "tuple" || target.k === "list") && target.elts.length >= 0) {
      for (const elt of target.elts) {
        if (elt.k === "starred") {
          if (elt.value.k === "starred") this.#fail();
          this.#validateTarget(elt.value);
        } else {
          this.#validateTarget(elt);
        }
      }
      return;
    }
    if (target.k === "starred") {
      this.#validateTarget(target.value);
      return;
    }
    this.#fail("cannot assign to expression");
  }

  #atom(): Node {
    const tok = this.#peek();
    if (tok.kind === "NUMBER") {
      this.#next();
      return this.#number(tok.num as NumberToken);
    }
    if (tok.kind === "STRING") return this.#strings();
    if (tok.kind === "NAME") {
      if (tok.text === "True" || tok.text === "False") {
        this.#next();
        return node({ k: "const", value: tok.text === "True", pyType: "other" });
      }
      if (tok.text === "None") {
        this.#next();
        return node({ k: "const", value: null, pyType: "other" });
      }
      if (KEYWORDS.has(tok.text)) this.#fail();
      this.#next();
      return node({ k: "name", id: tok.text });
    }
    if (tok.kind !== "OP") this.#fail();
    switch (tok.text) {
      case "...":
        this.#next();
        return node({ k: "const", value: PY_ELLIPSIS, pyType: "other" });
      case "(":
        this.#next();
        return this.#parenthesized();
      case "[":
        this.#next();
        return this.#bracketed();
      case "{":
        this.#next();
        return this.#braced();
      default:
        return this.#fail();
    }
  }

  #parenthesized(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp(")")) return node({ k: "tuple", elts: [] });
      if (this.#isKeyword("yield")) {
        const result = this.#yieldExpression();
        this.#expectOp(")");
        return result;
      }
      const first = this.#starNamedExpression();
      if (this.#eatOp(")")) {
        if (first.k === "starred") this.#fail("cannot use starred expression here");
        return first;
      }
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        if (first.k === "starred") this.#fail();
        this.#comprehensionClauses();
        this.#expectOp(")");
        return other("GeneratorExp", [first]);
      }
      const elts = [first];
      this.#expectOp(",");
      while (!this.#eatOp(")")) {
        elts.push(this.#starNamedExpression());
        if (this.#eatOp(")")) break;
        this.#expectOp(",");
      }
      return node({ k: "tuple", elts }, elts);
    } finally {
      this.#leave(1);
    }
  }

  #bracketed(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp("]")) return node({ k: "list", elts: [] });
      const first = this.#starNamedExpression();
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        if (first.k === "starred") this.#fail();
        this.#comprehensionClauses();
        this.#expectOp("]");
        return other("ListComp", [first]);
      }
      const elts = [first];
      while (!this.#eatOp("]")) {
        this.#expectOp(",");
        if (this.#eatOp("]")) break;
        elts.push(this.#starNamedExpression());
      }
      return node({ k: "list", elts }, elts);
    } finally {
      this.#leave(1);
    }
  }

  #braced(): Node {
    this.#enter(1);
    try {
      if (this.#eatOp("}")) return node({ k: "dict", keys: [], values: [] });
      if (this.#isOp("**")) return this.#dictRest([], []);
      if (this.#isOp("*")) return this.#setRest([]);
      if (this.#isName() && this.#isOp(":=", 1)) {
        const first = this.#namedExpression();
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          this.#expectOp("}");
          return other("SetComp", [first]);
        }
        return this.#setRest([first]);
      }
      const first = this.#expression();
      if (this.#eatOp(":")) {
        const value = this.#expression();
        if (this.#isKeyword("for") || this.#isKeyword("async")) {
          this.#comprehensionClauses();
          this.#expectOp("}");
          return other("DictComp", [first, value]);
        }
        return this.#dictRest([first], [value]);
      }
      if (this.#isOp(":=")) this.#fail();
      if (this.#isKeyword("for") || this.#isKeyword("async")) {
        this.#comprehensionClauses();
        this.#expectOp("}");
        return other("SetComp", [first]);
      }
      return this.#setRest([first]);
    } finally {
      this.#leave(1);
    }
  }

  #dictRest(keys: Array<Node | null>, values: Node[]): Node {
    for (;;) {
      if (keys.length > 0) {
        if (this.#eatOp("}")) break;
        this.#expectOp(",");
        if (this.#eatOp("}")) break;
      }
      if (this.#eatOp("**")) {
        keys.push(null);
        values.push(this.#bitwiseOr());
      } else {
        keys.push(this.#expression());
        this.#expectOp(":");
        values.push(this.#expression());
      }
    }
    return node({ k: "dict", keys, values }, [...keys, ...values]);
  }

  #setRest(elts: Node[]): Node {
    for (;;) {
      if (elts.length > 0) {
        if (this.#eatOp("}")) break;
        this.#expectOp(",");
        if (this.#eatOp("}")) break;
      }
      elts.push(this.#starNamedExpression());
    }
    return node({ k: "set", elts }, elts);
  }

  #number(num: NumberToken): Node {
    const digits = num.text.replace(/_/g, "");
    if (num.type === "int") {
      let value: bigint;
      if (num.radix === 10) {
        if (digits.length > MAX_INT_DIGITS) {
          syntaxError(`Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits.length} digits`);
        }
        value = BigInt(digits);
      } else {
        value = BigInt(digits.slice(0, 2).toLowerCase() + digits.slice(2));
      }
      return node({ k: "const", value: this.#int(value), pyType: "int" });
    }
    if (num.type === "float") return node({ k: "const", value: Number(digits), pyType: "float" });
    return node({ k: "const", value: new PyComplex(0, Number(digits.slice(0, -1))), pyType: "complex" });
  }

  #int(value: bigint): number | bigint {
    if (this.#options.ints === "bigint") return value;
    return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
  }

  #strings(): Node {
    const parts: StringToken[] = [];
    while (this.#peek().kind === "STRING") parts.push(this.#next().str as StringToken);
    const bytes = (parts[0] as StringToken).bytes;
    if (parts.some((part) => part.bytes !== bytes)) syntaxError("cannot mix bytes and nonbytes literals");
    const unicodeName = this.#options.unicodeName;
    if (parts.some((part) => part.fstring)) {
      for (const part of parts) {
        if (part.fstring) {
          checkFString(part, (source) => parseFString(source, this.#options), unicodeName);
        } else if (!part.raw) {
          decodeEscapes(part.body, false, unicodeName);
        }
      }
      return other("JoinedStr", []);
    }
    let text = "";
    for (const part of parts) {
      if (bytes && /[^\x00-\x7f]/.test(part.body)) syntaxError("bytes can only contain ASCII literal characters");
      text += part.raw ? part.body : decodeEscapes(part.body, bytes, unicodeName);
    }
    if (bytes) {
      const data = new Uint8Array(text.length);
      for (let k = 0; k < text.length; k++) data[k] = text.charCodeAt(k);
      return node({ k: "const", value: new PyBytes(data), pyType: "bytes" });
    }
    return node({ k: "const", value: text, pyType: "str" });
  }
}

function parseFString(source: string, options: LiteralEvalOptions): void {
  const tokens = new Tokenizer(source).run();
  new Parser(tokens, options).parseFStringExpression();
}

// ---------------------------------------------------------------------------------------------
// `ast.literal_eval`'s `_convert`

function malformed(what: string): never {
  valueError(`malformed node or string: <ast.${what} object>`);
}

const NODE_NAMES: Record<string, string> = {
  const: "Constant", tuple: "Tuple", list: "List", set: "Set", dict: "Dict", call: "Call",
  unary: "UnaryOp", binop: "BinOp", name: "Name", starred: "Starred",
};

function nodeName(n: Node | null): string {
  if (n === null) return "None";
  return n.k === "other" ? n.what : (NODE_NAMES[n.k] ?? n.k);
}

function convertNumber(n: Node | null): PyValue {
  if (n === null || n.k !== "const" || (n.pyType !== "int" && n.pyType !== "float" && n.pyType !== "complex")) {
    malformed(nodeName(n));
  }
  return n.value;
}

function negate(value: PyValue): PyValue {
  if (typeof value === "bigint") return -value;
  if (typeof value === "number") return -value;
  const c = value as PyComplex;
  return new PyComplex(-c.real, -c.imag);
}

function convertSignedNumber(n: Node | null): PyValue {
  if (n !== null && n.k === "unary" && (n.op === "+" || n.op === "-")) {
    const operand = convertNumber(n.operand);
    if (n.op === "+") return operand;
    // `-0` is the int 0; `-0.0` is the float -0.0. A const node knows which one it holds.
    if (n.operand.k === "const" && n.operand.pyType === "int" && operand === 0) return 0;
    return negate(operand);
  }
  return convertNumber(n);
}

function toDouble(value: number | bigint): number {
  if (typeof value === "number") return value;
  const double = Number(value);
  if (!Number.isFinite(double)) throw new PythonCompatError("OverflowError", "int too large to convert to float");
  return double;
}

function buildDict(pairs: Array<[PyValue, PyValue]>): PyStrDict | PyDict {
  const dict = new PyDict();
  for (const [key, value] of pairs) dict.set(key, value);
  if (!dict.keys().every((key) => typeof key === "string")) return dict;
  const plain: PyStrDict = {};
  for (const [key, value] of dict.entries()) setOwn(plain, key as string, value);
  return plain;
}

function convert(n: Node): PyValue {
  switch (n.k) {
    case "const":
      return n.value;
    case "tuple":
      return new PyTuple(n.elts.map(convert));
    case "list":
      return n.elts.map(convert);
    case "set": {
      const set = new PySet();
      for (const elt of n.elts) set.add(convert(elt));
      return set;
    }
    case "call":
      if (n.func.k === "name" && n.func.id === "set" && n.argCount === 0) return new PySet();
      break;
    case "dict": {
      const dict = new PyDict();
      n.keys.forEach((key, index) => {
        const k = key === null ? malformed("None") : convert(key);
        const v = convert(n.values[index] as Node);
        dict.set(k, v);
      });
      return buildDict(dict.entries());
    }
    case "binop":
      if (n.op === "+" || n.op === "-") {
        const left = convertSignedNumber(n.left);
        const right = convertNumber(n.right);
        if ((typeof left === "number" || typeof left === "bigint") && right instanceof PyComplex) {
          const real = toDouble(left);
          return n.op === "+"
            ? new PyComplex(real + right.real, 0 + right.imag)
            : new PyComplex(real - right.real, 0 - right.imag);
        }
      }
      break;
    default:
      break;
  }
  return convertSignedNumber(n);
}

// ---------------------------------------------------------------------------------------------

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
