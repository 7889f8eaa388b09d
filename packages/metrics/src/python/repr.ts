// Python `str()` and `repr()` of values, as the BYOB scorers use them when they turn a target into
// text (`_to_str`, gsm8k's `str(target)`; rule-metrics.md §0.1).
//
// The value model: JSON-ish JS values stand for Python values. The one thing JSON cannot say is
// whether an integral number is an `int` or a `float` (`42` vs `42.0`), and `str()` tells them apart
// (`"42"` vs `"42.0"`, and `1e20` is `"1e+20"` as a float but `"100000000000000000000"` as an int).
// So: a `number` that is an integer is a Python `int` (a `bigint` too), any other `number` is a
// `float`, and `PyFloat` boxes a float whose value happens to be integral.
import { PythonCompatError } from "../errors.js";

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

/** The Python type of a value under the model above. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return Number.isInteger(v) && !Object.is(v, -0) ? "int" : "float";
  if (PyFloat.isInstance(v)) return "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
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

/** `repr(str)`: Python's quoting and escapes (`'it\'s'` becomes `"it's"`). */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + cp.toString(16).padStart(2, "0");
    else if (cp < 0x7f) out += ch;
    else if (!isPrintable(ch)) {
      if (cp <= 0xff) out += "\\x" + cp.toString(16).padStart(2, "0");
      else if (cp <= 0xffff) out += "\\u" + cp.toString(16).padStart(4, "0");
      else out += "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

/** `str.isprintable()` for one character: not Other (C*) nor Separator (Z*) except the space. */
const isPrintable = (ch: string): boolean => ch === " " || !/^[\p{C}\p{Z}]$/u.test(ch);

/** Python `repr(v)`. */
export function pyRepr(v: unknown): string {
  if (typeof v === "string") return pyStrRepr(v);
  return pyStrOrRepr(v, pyRepr);
}

/**
 * Python `str(v)`: a str as is, `None`, `True`/`False`, ints in full, floats as `repr`, and lists and
 * dicts with their items in `repr` form.
 *
 * @example
 * pyStr(null) === "None"; pyStr([1, "a"]) === "[1, 'a']"; pyStr({ a: 1 }) === "{'a': 1}"
 */
export function pyStr(v: unknown): string {
  if (typeof v === "string") return v;
  return pyStrOrRepr(v, pyRepr);
}

function pyStrOrRepr(v: unknown, item: (x: unknown) => string): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isInteger(v) && !Object.is(v, -0)) return BigInt(v).toString();
    return pyFloatRepr(v);
  }
  if (PyFloat.isInstance(v)) return pyFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(item).join(", ")}]`;
  if (typeof v === "object") {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyStrRepr(k)}: ${item(x)}`)
      .join(", ")}}`;
  }
  throw new PythonCompatError("TypeError", `no Python counterpart for a JS ${typeof v}`);
}
