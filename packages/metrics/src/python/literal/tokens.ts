// `ast.literal_eval` (CPython 3.11), see ../literal.ts. The tokenizer.
import { MAX_BRACKETS, syntaxError } from "./common.js";

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = "NAME" | "NUMBER" | "STRING" | "OP" | "NEWLINE" | "END";

export interface StringToken {
  readonly bytes: boolean;
  readonly raw: boolean;
  readonly fstring: boolean;
  /** The source text between the quotes. */
  readonly body: string;
}

export interface NumberToken {
  readonly type: "int" | "float" | "complex";
  readonly text: string;
  readonly radix: number;
}

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly str?: StringToken;
  readonly num?: NumberToken;
}

export const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

// Longest first, so that `**=` wins over `**` and `*`.
const OPERATORS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "...",
  "!=",
  "%=",
  "&=",
  "**",
  "*=",
  "+=",
  "-=",
  "->",
  "//",
  "/=",
  ":=",
  "<<",
  "<=",
  "==",
  ">=",
  ">>",
  "@=",
  "^=",
  "|=",
  "%",
  "&",
  "(",
  ")",
  "*",
  "+",
  ",",
  "-",
  ".",
  "/",
  ":",
  ";",
  "<",
  "=",
  ">",
  "@",
  "[",
  "]",
  "^",
  "{",
  "|",
  "}",
  "~",
];

const XID_START = /^\p{XID_Start}$/u;
const XID_CONTINUE = /^\p{XID_Continue}$/u;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
export const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isIdentifierStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 128;
const isIdentifierChar = (c: number): boolean => isIdentifierStart(c) || isDigit(c);

const EOF = -1;

// The tokenizer walks UTF-16 units: every unit at or above 128 (surrogates included) may be part
// of an identifier, and identifiers are then checked by code point, as CPython does.
export class Tokenizer {
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
    const ok = (c: number): boolean => (radix === 16 ? isHexDigit(c) : radix === 8 ? c >= 0x30 && c <= 0x37 : c === 0x30 || c === 0x31);
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
