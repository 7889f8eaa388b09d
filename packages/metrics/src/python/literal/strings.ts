// `ast.literal_eval` (CPython 3.11), see ../literal.ts. String literal decoding.
import { type LiteralEvalOptions, syntaxError, valueError } from "./common.js";
import { isHexDigit } from "./tokens.js";
import { lookupUnicodeName } from "../char-names.js";

// ---------------------------------------------------------------------------------------------
// String literal decoding

/**
 * The value of a non-raw literal body: a string for `str`, or a "binary string" of char codes
 * 0-255 for `bytes`. Invalid escapes are `SyntaxError`s (`ValueError` inside bytes, which the
 * parser reports as a `SyntaxError` too); unknown ones stay as written.
 */
export function decodeEscapes(body: string, bytes: boolean, unicodeName: LiteralEvalOptions["unicodeName"]): string {
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
      case 0x0a:
        break;
      case 0x5c:
        out += "\\";
        break;
      case 0x27:
        out += "'";
        break;
      case 0x22:
        out += '"';
        break;
      case 0x62:
        out += "\b";
        break;
      case 0x66:
        out += "\f";
        break;
      case 0x74:
        out += "\t";
        break;
      case 0x6e:
        out += "\n";
        break;
      case 0x72:
        out += "\r";
        break;
      case 0x76:
        out += "\v";
        break;
      case 0x61:
        out += "\x07";
        break;
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
