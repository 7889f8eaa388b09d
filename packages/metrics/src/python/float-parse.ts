// Python's `float(x)` (CPython 3.11): the string rules (docs/spec/rule-metrics.md §3.8) and the other types.
//
// `float(str)` first maps every non-ASCII whitespace character (`str.isspace()`) to a space and every
// non-ASCII decimal digit (`str.isdecimal()`, Unicode 14) to its ASCII digit; any other non-ASCII
// character makes the text invalid. Then single underscores between digits are dropped, ASCII
// whitespace (` \t\n\v\f\r`, not U+001C-U+001F) is stripped, and what is left must be a decimal
// float (`.5`, `5.`, `1e-3`), or `inf`, `infinity`, `nan` in any case, each with an optional sign.
import { PythonCompatError } from "../errors.js";
import { PyBytes, pyTypeName, type PyValue } from "./equality.js";
import { pyDecimalValue, pyIsSpace } from "./re/unicode.js";

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;
const ASCII_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

function invalid(text: string): never {
  throw new PythonCompatError("ValueError", `could not convert string to float: ${JSON.stringify(text)}`);
}

/** The ASCII text Python parses, or undefined when a character cannot appear in a float. */
function toAscii(text: string): string | undefined {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 128) {
      out += ch;
      continue;
    }
    if (pyIsSpace(cp)) {
      out += " ";
      continue;
    }
    const digit = pyDecimalValue(cp);
    if (digit < 0) return undefined;
    out += String(digit);
  }
  return out;
}

/** CPython's `_Py_string_to_number_with_underscores`: `_` only between two digits, then dropped. */
function dropUnderscores(text: string): string | undefined {
  if (!text.includes("_")) return text;
  let out = "";
  let previous = "";
  for (const ch of text) {
    const isDigit = ch >= "0" && ch <= "9";
    if (ch === "_") {
      if (!(previous >= "0" && previous <= "9")) return undefined;
    } else {
      if (previous === "_" && !isDigit) return undefined;
      out += ch;
    }
    previous = ch;
  }
  return previous === "_" ? undefined : out;
}

function parseAscii(text: string): number | undefined {
  if (text.includes("\0")) return undefined;
  const plain = dropUnderscores(text);
  if (plain === undefined) return undefined;
  let start = 0;
  let end = plain.length;
  while (start < end && ASCII_SPACE.has(plain.charCodeAt(start))) start++;
  while (end > start + 1 && ASCII_SPACE.has(plain.charCodeAt(end - 1))) end--;
  const body = plain.slice(start, end);
  const special = SPECIAL.exec(body);
  if (special !== null) {
    const negative = special[1] === "-";
    if ((special[2] as string).toLowerCase() === "nan") return negative ? -NaN : NaN;
    return negative ? -Infinity : Infinity;
  }
  // JS `Number` rounds a decimal string correctly, as `_Py_dg_strtod` does.
  return DECIMAL.test(body) ? Number(body) : undefined;
}

/** Python `float(text)` for a `str`; throws `ValueError` (pythonType) when Python would. */
export function parsePythonFloat(text: string): number {
  const ascii = toAscii(text);
  const value = ascii === undefined ? undefined : parseAscii(ascii);
  if (value === undefined) invalid(text);
  return value;
}

/**
 * Python `float(x)` over the value model: `str` and `bytes` by the string rules, `bool` as 0.0 or
 * 1.0, ints exactly rounded (`OverflowError` beyond the double range), floats unchanged.
 *
 * Gotchas: unlike JS `Number()`, `""`, `"0x10"` and `"1 2"` are errors while `"1_000"`, `" inf "`,
 * `"١٢٣"` and `"nan"` are numbers. A list, dict, `None` or complex is a `TypeError`.
 *
 * @example
 * pyFloat("\u3000 1_000.5 "); // 1000.5
 * pyFloat("0x10");           // throws PythonCompatError (pythonType "ValueError")
 */
export function pyFloat(value: PyValue): number {
  if (typeof value === "string") return parsePythonFloat(value);
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") {
    const double = Number(value);
    if (!Number.isFinite(double)) throw new PythonCompatError("OverflowError", "int too large to convert to float");
    return double;
  }
  if (value instanceof PyBytes) {
    const text = String.fromCharCode(...value.bytes);
    const parsed = Array.from(value.bytes).some((byte) => byte >= 128) ? undefined : parseAscii(text);
    if (parsed === undefined) invalid(text);
    return parsed;
  }
  throw new PythonCompatError("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(value ?? null)}'`);
}
