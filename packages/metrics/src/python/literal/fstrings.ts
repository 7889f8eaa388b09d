// `ast.literal_eval` (CPython 3.11), see ../literal.ts. f-string syntax checks.
import { type LiteralEvalOptions, MAX_BRACKETS, syntaxError } from "./common.js";
import { decodeEscapes } from "./strings.js";
import type { StringToken } from "./tokens.js";

// ---------------------------------------------------------------------------------------------
// f-strings (3.11 rules): only checked for syntax; literal_eval rejects them anyway.

export function checkFString(
  tok: StringToken,
  parseExpression: (source: string) => void,
  unicodeName: LiteralEvalOptions["unicodeName"],
): void {
  new FStringChecker(tok, parseExpression, unicodeName).scan(0, 0, false);
}

/** One f-string's body, scanned for replacement fields; each field's expression goes to `parseExpression`. */
class FStringChecker {
  private readonly body: number[] = [];
  /** Literal text since the last field, checked for valid escapes when it ends. */
  private readonly literal: number[] = [];

  constructor(
    private readonly tok: StringToken,
    private readonly parseExpression: (source: string) => void,
    private readonly unicodeName: LiteralEvalOptions["unicodeName"],
  ) {
    for (let k = 0; k < tok.body.length; k++) this.body.push(tok.body.charCodeAt(k));
  }

  private flushLiteral(): void {
    if (!this.tok.raw) decodeEscapes(String.fromCharCode(...this.literal), false, this.unicodeName);
    this.literal.length = 0;
  }

  /** Literal text and fields from `start` (inside a format spec when `inSpec`, up to its "}"); returns where it stopped. */
  scan(start: number, depth: number, inSpec: boolean): number {
    let i = start;
    while (i < this.body.length) {
      const c = this.body[i] as number;
      if (c === 0x5c && !this.tok.raw && this.body[i + 1] === 0x4e && this.body[i + 2] === 0x7b) {
        // `\N{NAME}`: its braces are not a replacement field.
        const close = this.body.indexOf(0x7d, i + 3);
        const end = close < 0 ? this.body.length : close + 1;
        for (let j = i; j < end; j++) this.literal.push(this.body[j] as number);
        i = end;
        continue;
      }
      if (c === 0x7b) {
        if (!inSpec && this.body[i + 1] === 0x7b) {
          this.literal.push(c);
          i += 2;
          continue;
        }
        this.flushLiteral();
        if (depth >= 2) syntaxError("f-string: expressions nested too deeply");
        i = this.expressionField(i + 1, depth);
        continue;
      }
      if (c === 0x7d) {
        if (inSpec) return i;
        if (this.body[i + 1] === 0x7d) {
          this.literal.push(c);
          i += 2;
          continue;
        }
        syntaxError("f-string: single '}' is not allowed");
      }
      this.literal.push(c);
      i++;
    }
    this.flushLiteral();
    return i;
  }

  /** A replacement field after its "{": the expression, `=`, conversion and format spec; returns the index after its "}". */
  private expressionField(start: number, depth: number): number {
    let i = this.expressionEnd(start);
    const text = String.fromCharCode(...this.body.slice(start, i));
    if (text.trim() === "" || /^[ \t\f\n]*$/.test(text)) syntaxError("f-string: empty expression not allowed");
    this.parseExpression(`(${text})`);
    if (this.body[i] === 0x3d) {
      i++;
      const isSpace = (c: number | undefined): boolean => c === 0x20 || (c !== undefined && c >= 0x09 && c <= 0x0d);
      while (isSpace(this.body[i])) i++;
    }
    if (this.body[i] === 0x21) {
      const conversion = this.body[i + 1];
      if (conversion !== 0x73 && conversion !== 0x72 && conversion !== 0x61) {
        syntaxError("f-string: invalid conversion character: expected 's', 'r', or 'a'");
      }
      i += 2;
    }
    if (this.body[i] === 0x3a) i = this.scan(i + 1, depth + 1, true);
    if (this.body[i] !== 0x7d) syntaxError("f-string: expecting '}'");
    return i + 1;
  }

  /** Where the expression part of a field ends (its `!`, `:`, `=` or `}` outside brackets and quotes). */
  private expressionEnd(start: number): number {
    const stack: number[] = [];
    let quote = 0;
    let quoteSize = 0;
    let i = start;
    for (; i < this.body.length; i++) {
      const c = this.body[i] as number;
      if (c === 0x5c) syntaxError("f-string expression part cannot include a backslash");
      if (quote !== 0) {
        if (c === quote) {
          if (quoteSize === 3) {
            if (this.body[i + 1] === quote && this.body[i + 2] === quote) {
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
        if (this.body[i + 1] === c && this.body[i + 2] === c) {
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
        const next = this.body[i + 1];
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
    if (i >= this.body.length) syntaxError("f-string: expecting '}'");
    return i;
  }
}
