// Python's `json.loads` (CPython 3.11, the C scanner), for json_match and schema_valid
// (docs/spec/rule-metrics.md §3.6): `NaN`, `Infinity` and `-Infinity` are accepted; a leading BOM, trailing
// commas and trailing garbage are not; whitespace is ` \t\n\r` only; duplicate keys keep the last
// value; ints are exact (a `bigint` beyond ±2^53) and `-0` is the int 0.
//
// Errors carry the Python type: `json.JSONDecodeError` (caught by evalwire), `TypeError` for a
// value that is not str/bytes (caught too), and three that evalwire lets through: `ValueError` for
// an int literal of more than 4300 digits, `RecursionError` for nesting deeper than CPython's
// recursion limit allows, `UnicodeDecodeError` for undecodable bytes.
import { PythonCompatError } from "../errors.js";
import { PyBytes, pyTypeName, setOwn, type PyStrDict, type PyValue } from "../python/equality.js";

/**
 * CPython counts each nested array/object against the recursion limit (1000) on top of the
 * frames already on the stack; 990 matches a shallow caller (a script calling the evaluator).
 */
export const JSON_MAX_DEPTH = 990;
const MAX_INT_DIGITS = 4300;

function decodeError(message: string, position: number): never {
  throw new PythonCompatError("json.JSONDecodeError", `${message}: char ${position}`);
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Options of `pyJsonLoads`. */
export interface JsonLoadsOptions {
  /** `"number"` (default): ints are numbers, `bigint` beyond ±2^53. `"bigint"`: every int is a `bigint`. */
  readonly ints?: "number" | "bigint";
}

class Scanner {
  #pos = 0;
  readonly #text: string;
  readonly #bigints: boolean;

  constructor(text: string, bigints: boolean) {
    this.#text = text;
    this.#bigints = bigints;
  }

  #code(at = this.#pos): number {
    return at < this.#text.length ? this.#text.charCodeAt(at) : -1;
  }

  #skipWhitespace(): void {
    while (isWhitespace(this.#code())) this.#pos++;
  }

  document(): PyValue {
    this.#skipWhitespace();
    const value = this.#value(0);
    this.#skipWhitespace();
    if (this.#pos !== this.#text.length) decodeError("Extra data", this.#pos);
    return value;
  }

  #value(depth: number): PyValue {
    const c = this.#code();
    const text = this.#text;
    const at = this.#pos;
    if (c === 0x22) return this.#string();
    if (c === 0x7b || c === 0x5b) {
      if (depth >= JSON_MAX_DEPTH) {
        throw new PythonCompatError("RecursionError", "maximum recursion depth exceeded while decoding a JSON document");
      }
      return c === 0x7b ? this.#object(depth + 1) : this.#array(depth + 1);
    }
    if (text.startsWith("null", at)) return this.#literal(4, null);
    if (text.startsWith("true", at)) return this.#literal(4, true);
    if (text.startsWith("false", at)) return this.#literal(5, false);
    if (text.startsWith("NaN", at)) return this.#literal(3, NaN);
    if (text.startsWith("Infinity", at)) return this.#literal(8, Infinity);
    if (text.startsWith("-Infinity", at)) return this.#literal(9, -Infinity);
    const number = this.#number();
    if (number === undefined) decodeError("Expecting value", at);
    return number;
  }

  #literal(length: number, value: PyValue): PyValue {
    this.#pos += length;
    return value;
  }

  /** `_match_number_unicode`: ASCII digits only, floats via correct rounding. */
  #number(): PyValue | undefined {
    const start = this.#pos;
    let i = start;
    if (this.#code(i) === 0x2d) i++;
    const first = this.#code(i);
    if (first >= 0x31 && first <= 0x39) {
      i++;
      while (isDigit(this.#code(i))) i++;
    } else if (first === 0x30) {
      i++;
    } else {
      return undefined;
    }
    let isFloat = false;
    if (this.#code(i) === 0x2e && isDigit(this.#code(i + 1))) {
      isFloat = true;
      i += 2;
      while (isDigit(this.#code(i))) i++;
    }
    if (this.#code(i) === 0x65 || this.#code(i) === 0x45) {
      let j = i + 1;
      if (this.#code(j) === 0x2b || this.#code(j) === 0x2d) j++;
      const digitsStart = j;
      while (isDigit(this.#code(j))) j++;
      if (j > digitsStart) {
        isFloat = true;
        i = j;
      }
    }
    this.#pos = i;
    const literal = this.#text.slice(start, i);
    if (isFloat) return Number(literal);
    const digits = literal.startsWith("-") ? literal.length - 1 : literal.length;
    if (digits > MAX_INT_DIGITS) {
      throw new PythonCompatError(
        "ValueError",
        `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits} digits`,
      );
    }
    const big = BigInt(literal);
    if (this.#bigints) return big;
    return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
  }

  #string(): string {
    const start = this.#pos;
    this.#pos++;
    let out = "";
    let chunk = this.#pos;
    for (;;) {
      const c = this.#code();
      if (c === -1) decodeError("Unterminated string starting at", start);
      if (c === 0x22) {
        out += this.#text.slice(chunk, this.#pos);
        this.#pos++;
        return out;
      }
      if (c < 0x20) decodeError("Invalid control character at", this.#pos);
      if (c !== 0x5c) {
        this.#pos++;
        continue;
      }
      out += this.#text.slice(chunk, this.#pos);
      const escape = this.#code(this.#pos + 1);
      if (escape === -1) decodeError("Unterminated string starting at", start);
      const simple = ESCAPES[String.fromCharCode(escape)];
      if (simple !== undefined) {
        out += simple;
        this.#pos += 2;
      } else if (escape === 0x75) {
        let unit = this.#hex4(this.#pos + 2);
        this.#pos += 6;
        // A high surrogate followed by `\u` + low surrogate is one character.
        if (unit >= 0xd800 && unit <= 0xdbff && this.#code() === 0x5c && this.#code(this.#pos + 1) === 0x75) {
          const low = this.#hex4(this.#pos + 2);
          if (low >= 0xdc00 && low <= 0xdfff) {
            unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
            this.#pos += 6;
          }
        }
        out += String.fromCodePoint(unit);
      } else {
        decodeError("Invalid \\escape", this.#pos);
      }
      chunk = this.#pos;
    }
  }

  #hex4(at: number): number {
    const digits = this.#text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) decodeError("Invalid \\uXXXX escape", at - 1);
    return parseInt(digits, 16);
  }

  #object(depth: number): PyStrDict {
    const result: PyStrDict = {};
    this.#pos++;
    this.#skipWhitespace();
    if (this.#code() === 0x7d) {
      this.#pos++;
      return result;
    }
    for (;;) {
      if (this.#code() !== 0x22) decodeError("Expecting property name enclosed in double quotes", this.#pos);
      const key = this.#string();
      this.#skipWhitespace();
      if (this.#code() !== 0x3a) decodeError("Expecting ':' delimiter", this.#pos);
      this.#pos++;
      this.#skipWhitespace();
      setOwn(result, key, this.#value(depth));
      this.#skipWhitespace();
      const c = this.#code();
      this.#pos++;
      if (c === 0x7d) return result;
      if (c !== 0x2c) decodeError("Expecting ',' delimiter", this.#pos - 1);
      this.#skipWhitespace();
    }
  }

  #array(depth: number): PyValue[] {
    const result: PyValue[] = [];
    this.#pos++;
    this.#skipWhitespace();
    if (this.#code() === 0x5d) {
      this.#pos++;
      return result;
    }
    for (;;) {
      result.push(this.#value(depth));
      this.#skipWhitespace();
      const c = this.#code();
      this.#pos++;
      if (c === 0x5d) return result;
      if (c !== 0x2c) decodeError("Expecting ',' delimiter", this.#pos - 1);
      this.#skipWhitespace();
    }
  }
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

// ---------------------------------------------------------------------------------------------
// bytes input: `json.detect_encoding`, then decoding with `surrogatepass`

function unicodeDecodeError(encoding: string): never {
  throw new PythonCompatError("UnicodeDecodeError", `'${encoding}' codec can't decode the input`);
}

function decodeUtf8(bytes: Uint8Array, start: number): string {
  const codes: number[] = [];
  for (let i = start; i < bytes.length; ) {
    const b0 = bytes[i] as number;
    let length: number;
    let code: number;
    let min: number;
    if (b0 < 0x80) {
      codes.push(b0);
      i++;
      continue;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      length = 2;
      code = b0 & 0x1f;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      code = b0 & 0x0f;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      code = b0 & 0x07;
      min = 0x10000;
    } else {
      return unicodeDecodeError("utf-8");
    }
    for (let k = 1; k < length; k++) {
      const b = bytes[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) unicodeDecodeError("utf-8");
      code = (code << 6) | (b & 0x3f);
    }
    if (code < min || code > 0x10ffff) unicodeDecodeError("utf-8");
    // `surrogatepass` lets encoded surrogates through as lone surrogates.
    codes.push(code);
    i += length;
  }
  return codesToString(codes);
}

function decodeUnits(bytes: Uint8Array, start: number, width: 2 | 4, littleEndian: boolean, name: string): string {
  if ((bytes.length - start) % width !== 0) unicodeDecodeError(name);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const codes: number[] = [];
  for (let i = start; i < bytes.length; i += width) {
    const code = width === 2 ? view.getUint16(i, littleEndian) : view.getUint32(i, littleEndian);
    if (code > 0x10ffff) unicodeDecodeError(name);
    codes.push(code);
  }
  // UTF-16 surrogate pairs join when the JS string is built, as Python's decoder joins them.
  return codesToString(codes);
}

function codesToString(codes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < codes.length; i += 4096) {
    out += String.fromCodePoint(...codes.slice(i, i + 4096));
  }
  return out;
}

function decodeBytes(bytes: Uint8Array): string {
  const at = (i: number): number => bytes[i] ?? -1;
  const startsWith = (...prefix: number[]): boolean => prefix.every((b, i) => at(i) === b);
  if (startsWith(0x00, 0x00, 0xfe, 0xff)) return decodeUnits(bytes, 4, 4, false, "utf-32");
  if (startsWith(0xff, 0xfe, 0x00, 0x00)) return decodeUnits(bytes, 4, 4, true, "utf-32");
  if (startsWith(0xfe, 0xff)) return decodeUnits(bytes, 2, 2, false, "utf-16");
  if (startsWith(0xff, 0xfe)) return decodeUnits(bytes, 2, 2, true, "utf-16");
  if (startsWith(0xef, 0xbb, 0xbf)) return decodeUtf8(bytes, 3);
  if (bytes.length >= 4) {
    if (at(0) === 0) return at(1) !== 0 ? decodeUnits(bytes, 0, 2, false, "utf-16-be") : decodeUnits(bytes, 0, 4, false, "utf-32-be");
    if (at(1) === 0) {
      return at(2) !== 0 || at(3) !== 0 ? decodeUnits(bytes, 0, 2, true, "utf-16-le") : decodeUnits(bytes, 0, 4, true, "utf-32-le");
    }
  } else if (bytes.length === 2) {
    if (at(0) === 0) return decodeUnits(bytes, 0, 2, false, "utf-16-be");
    if (at(1) === 0) return decodeUnits(bytes, 0, 2, true, "utf-16-le");
  }
  return decodeUtf8(bytes, 0);
}

/**
 * Python `json.loads(value)`: `str` or `bytes` (a `PyBytes` or `Uint8Array`, encoding detected as
 * Python does) to a value of the model. Objects become plain objects, ints `number` or `bigint`.
 *
 * @example
 * pyJsonLoads('{"a": NaN, "b": 12345678901234567891}'); // { a: NaN, b: 12345678901234567891n }
 */
export function pyJsonLoads(value: unknown, options: JsonLoadsOptions = {}): PyValue {
  let text: string;
  if (typeof value === "string") {
    if (value.startsWith("\ufeff")) decodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    text = value;
  } else if (value instanceof PyBytes || value instanceof Uint8Array) {
    text = decodeBytes(value instanceof PyBytes ? value.bytes : value);
  } else {
    const type = value === undefined ? "NoneType" : pyTypeName(value as PyValue);
    throw new PythonCompatError("TypeError", `the JSON object must be str, bytes or bytearray, not ${type}`);
  }
  return new Scanner(text, options.ints === "bigint").document();
}
