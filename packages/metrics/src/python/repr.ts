// Python `str()` and `repr()` of values, as the BYOB scorers use them when they turn a target into
// text (`_to_str`, gsm8k's `str(target)`; docs/spec/rule-metrics.md §0.1).
//
// The value model: JSON-ish JS values stand for Python values. The one thing JSON cannot say is
// whether an integral number is an `int` or a `float` (`42` vs `42.0`), and `str()` tells them apart
// (`"42"` vs `"42.0"`, and `1e20` is `"1e+20"` as a float but `"100000000000000000000"` as an int).
// So: a `number` that is an integer is a Python `int` (a `bigint` too), any other `number` is a
// `float`, and `PyFloat` boxes a float whose value happens to be integral (`pyFloat(1e16)` prints
// `1e+16`, the number `1e16` prints `10000000000000000`). The `"floats"` number model reads every
// `number` as a float (values parsed with ints as `bigint`, as evalwire's `literal_eval` port does).
//
// This is the one home of Python `str()`/`repr()` in evalkern: every package imports it from
// `@evalkern/metrics/python`.
import { PythonCompatError } from "../errors.js";
import { PyBytes, PyComplex, PyDict, PyEllipsis, PySet, PyTuple } from "./equality.js";
import { NON_PRINTABLE_RANGES } from "./printable.generated.js";

const PY_FLOAT = Symbol.for("evalkern.python.float");

/**
 * A Python `float` whose value is integral (`42.0`, `-0.0`, `1e20`): a plain JS number would read as a
 * Python `int`. Non-integral floats can stay plain numbers.
 *
 * @example
 * pyStr(pyFloat(42)) === "42.0"; pyStr(42) === "42"
 */
export class PyFloat {
  readonly [PY_FLOAT] = true;
  constructor(readonly value: number) {
    if (typeof value !== "number") throw new PythonCompatError("TypeError", "PyFloat holds a number");
  }
  static isInstance(v: unknown): v is PyFloat {
    return typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[PY_FLOAT] === true;
  }
  valueOf(): number {
    return this.value;
  }
}

/** Box `x` as a Python float. */
export const pyFloat = (x: number): PyFloat => new PyFloat(x);

/**
 * How JS numbers map to Python: `"json"` (default) — an integral number is an int, any other number a
 * float (`PyFloat` for integral floats); `"floats"` — every number is a float, ints being bigints.
 */
export type NumberModel = "json" | "floats";

const isJsonInt = (v: number): boolean => Number.isInteger(v) && !Object.is(v, -0);

/** The Python type of a value under the model above. */
export function pyTypeName(v: unknown, numbers: NumberModel = "json"): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return numbers !== "floats" && isJsonInt(v) ? "int" : "float";
  if (PyFloat.isInstance(v)) return "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (
    v instanceof PyTuple ||
    v instanceof PySet ||
    v instanceof PyDict ||
    v instanceof PyBytes ||
    v instanceof PyComplex ||
    v instanceof PyEllipsis
  )
    return v.pyType;
  if (typeof v === "object") return "dict";
  return typeof v;
}

/** Is `v` a Python float (a non-integral number, -0, or a PyFloat)? */
export function isPyFloat(v: unknown): v is number | PyFloat {
  return pyTypeName(v) === "float";
}

/** Is `v` a Python int (not bool)? */
export function isPyInt(v: unknown): v is number | bigint {
  return pyTypeName(v) === "int";
}

/**
 * `repr(float)`: the shortest string that round-trips, in scientific notation when the decimal
 * exponent is below -4 or at least 16, always with a `.0` in positional form.
 *
 * @example
 * pyFloatRepr(1e-5) === "1e-05"; pyFloatRepr(1e16) === "1e+16"; pyFloatRepr(42) === "42.0"
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // JS gives the same shortest round-trip digits; only the layout differs
  const [mant, expText] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mant.replace(".", "");
  const exp = Number(expText); // x = d.ddd × 10^exp
  const sign = x < 0 ? "-" : "";
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

let nonPrintable: Uint32Array | undefined;

/** [start0, end0, start1, end1, ...] of the code points CPython 3.11 does not print. */
function nonPrintableRanges(): Uint32Array {
  if (nonPrintable !== undefined) return nonPrintable;
  const n = NON_PRINTABLE_RANGES.split(",").map((x) => parseInt(x, 36));
  const out = new Uint32Array(n.length);
  let prev = 0;
  for (let i = 0; i < n.length; i += 2) {
    const a = prev + n[i]!;
    const b = a + n[i + 1]!;
    out[i] = a;
    out[i + 1] = b;
    prev = b;
  }
  return (nonPrintable = out);
}

/**
 * `str.isprintable()` for one code point, on CPython 3.11's Unicode 14.0 tables (not the JS engine's,
 * which are newer): false for Other (C*, unassigned included) and Separator (Z*) but the space.
 */
export function pyIsPrintable(cp: number): boolean {
  const r = nonPrintableRanges();
  let lo = 0;
  let hi = r.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < r[2 * mid]!) hi = mid - 1;
    else if (cp > r[2 * mid + 1]!) lo = mid + 1;
    else return false;
  }
  return true;
}

/** `repr(str)`: Python's quoting and escapes (`'it\'s'` becomes `"it's"`, `'\x07'`, `'\u200b'`). */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x7f && cp >= 0x20) out += ch;
    else if (!pyIsPrintable(cp)) {
      if (cp <= 0xff) out += "\\x" + cp.toString(16).padStart(2, "0");
      else if (cp <= 0xffff) out += "\\u" + cp.toString(16).padStart(4, "0");
      else out += "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

/** `repr(bytes)`: `b'...'` with Python's quoting, `\t \n \r` and `\xNN` for the rest outside ASCII printables. */
export function pyBytesRepr(bytes: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const b of bytes) {
    if (b === 0x27) hasSingle = true;
    if (b === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = `b${quote}`;
  for (const b of bytes) {
    if (b === 0x5c) out += "\\\\";
    else if (b === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (b === 0x09) out += "\\t";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`;
    else out += String.fromCharCode(b);
  }
  return out + quote;
}

function complexPart(x: number): string {
  const repr = pyFloatRepr(x);
  return repr.endsWith(".0") ? repr.slice(0, -2) : repr;
}

/**
 * Python `repr(v)`.
 *
 * @example
 * pyRepr("\x07") === "'\\x07'"; pyRepr(pyFloat(1)) === "1.0"; pyRepr(pyFloat(1e16)) === "1e+16"
 */
export function pyRepr(v: unknown, numbers: NumberModel = "json"): string {
  if (typeof v === "string") return pyStrRepr(v);
  return pyStrOrRepr(v, numbers);
}

/**
 * Python `str(v)`: a str as is, `None`, `True`/`False`, ints in full, floats as `repr`, and lists and
 * dicts with their items in `repr` form.
 *
 * @example
 * pyStr(null) === "None"; pyStr([1, "a"]) === "[1, 'a']"; pyStr({ a: 1 }) === "{'a': 1}"
 */
export function pyStr(v: unknown, numbers: NumberModel = "json"): string {
  if (typeof v === "string") return v;
  return pyStrOrRepr(v, numbers);
}

function pyStrOrRepr(v: unknown, numbers: NumberModel): string {
  const item = (x: unknown): string => pyRepr(x, numbers);
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return numbers !== "floats" && isJsonInt(v) ? BigInt(v).toString() : pyFloatRepr(v);
  if (PyFloat.isInstance(v)) return pyFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(item).join(", ")}]`;
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${item(v.items[0])},)` : `(${v.items.map(item).join(", ")})`;
  if (v instanceof PySet) return v.size === 0 ? "set()" : `{${v.items.map(item).join(", ")}}`;
  if (v instanceof PyDict)
    return `{${v
      .entries()
      .map(([k, x]) => `${item(k)}: ${item(x)}`)
      .join(", ")}}`;
  if (v instanceof PyBytes) return pyBytesRepr(v.bytes);
  if (v instanceof PyComplex) {
    if (v.real === 0 && !Object.is(v.real, -0)) return `${complexPart(v.imag)}j`;
    const imag = complexPart(v.imag);
    return `(${complexPart(v.real)}${imag.startsWith("-") ? "" : "+"}${imag}j)`;
  }
  if (v instanceof PyEllipsis) return "Ellipsis";
  if (typeof v === "object") {
    // DSPy's Example / Prediction print as the dict they hold
    const withDict = v as { toDict?: () => Record<string, unknown> };
    const obj = typeof withDict.toDict === "function" ? withDict.toDict() : (v as Record<string, unknown>);
    return `{${Object.entries(obj)
      .map(([k, x]) => `${pyStrRepr(k)}: ${item(x)}`)
      .join(", ")}}`;
  }
  throw new PythonCompatError("TypeError", `no Python counterpart for a JS ${typeof v}`);
}
