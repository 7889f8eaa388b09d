// The few Python `str` methods the BYOB scorers lean on, with Python's character classes
// (docs/spec/rule-metrics.md §0.1). Case mapping goes through core-wasm (Unicode 14.0, CPython 3.11's tables);
// strip, split and lower live in src/python/str.ts, shared with the DeepEval rule metrics.
import { pythonLowerBatch } from "@evalkern/core-wasm";
import { PythonCompatError } from "../errors.js";
import { pyDecimalValue, pyIsDigit } from "../python/re/unicode.js";
import { PyFloat, pyStr, pyTypeName } from "../python/repr.js";

import { pyStrip } from "../python/str.js";

export { pyStrip, pySplit, pyLower } from "../python/str.js";

/** `str.lower()` of several strings in one kernel call. */
export const pyLowerMany = (s: readonly string[]): string[] => pythonLowerBatch(s);

/** `str.upper()` (full mapping: `ß` → `SS`). The runtime's case tables. */
export const pyUpper = (s: string): string => s.toUpperCase();

/** Code points of a string (Python indexes and measures strings this way). */
export const codePoints = (s: string): string[] => Array.from(s);

/** `str.isdigit()`: non-empty and every character a digit (decimals, superscripts, circled digits…). */
export function pyIsDigitStr(s: string): boolean {
  if (s === "") return false;
  for (const ch of s) if (!pyIsDigit(ch.codePointAt(0)!)) return false;
  return true;
}

/** `str.isalpha()`: non-empty and every character a letter (L*). The runtime's Unicode tables. */
export const pyIsAlphaStr = (s: string): boolean => /^\p{L}+$/u.test(s);

/** CPython 3.11's `sys.get_int_max_str_digits()` default: `int()` of a longer decimal string raises ValueError. */
const INT_MAX_STR_DIGITS = 4300;

/**
 * Python `int(s)` for a str: surrounding whitespace, one optional sign, decimal digits of any script,
 * single underscores between digits. Throws `ValueError` like Python.
 */
export function pyIntFromStr(s: string): bigint {
  const t = pyStrip(s);
  let i = 0;
  const chars = Array.from(t);
  let negative = false;
  if (chars[0] === "+" || chars[0] === "-") {
    negative = chars[0] === "-";
    i = 1;
  }
  let value = 0n;
  let digits = 0;
  let lastUnderscore = true;
  for (; i < chars.length; i++) {
    if (digits > INT_MAX_STR_DIGITS) {
      // past CPython 3.11's limit only validity matters: stop accumulating (BigInt growth is quadratic)
      const ch = chars[i]!;
      if (ch === "_") {
        if (lastUnderscore) break;
        lastUnderscore = true;
      } else if (pyDecimalValue(ch.codePointAt(0)!) < 0) break;
      else {
        digits++;
        lastUnderscore = false;
      }
      continue;
    }
    const ch = chars[i]!;
    if (ch === "_") {
      if (lastUnderscore) break;
      lastUnderscore = true;
      continue;
    }
    const d = pyDecimalValue(ch.codePointAt(0)!);
    if (d < 0) break;
    value = value * 10n + BigInt(d);
    digits++;
    lastUnderscore = false;
  }
  if (digits === 0 || i !== chars.length || lastUnderscore) {
    throw new PythonCompatError("ValueError", `invalid literal for int() with base 10: ${JSON.stringify(s)}`);
  }
  if (digits > INT_MAX_STR_DIGITS) {
    throw new PythonCompatError(
      "ValueError",
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits` +
        `; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return negative ? -value : value;
}

/** BYOB `_to_str`: a str as is, anything else through Python `str()`. */
export const toStr = (v: unknown): string => (typeof v === "string" ? v : pyStr(v));

/** Python truthiness of a JSON-ish value. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "string") return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") {
    // no valueOf() call: a null-prototype object (what some JSON parsers return) has none, and a
    // user object's own valueOf decides nothing in Python
    if (PyFloat.isInstance(v)) return v.value !== 0;
    return Object.keys(v).length > 0; // a dict: non-empty
  }
  return true;
}

/** Throws Python's `AttributeError` for calling a str method on a non-str. */
export function requireStrFor(v: unknown, method: string): string {
  if (typeof v === "string") return v;
  throw new PythonCompatError("AttributeError", `'${pyTypeName(v)}' object has no attribute '${method}'`);
}
