// Python semantics the DeepEval port depends on: `==` between JSON-like values (where `True == 1`
// and `1 == 1.0`), `repr()` of the values that end up in reason strings, `repr(float)` for the
// numbers in verbose logs, and a hash key consistent with `==` (ToolCall uses it for set membership).

/** A plain object (`{}` or `Object.create(null)`), the analogue of a Python `dict`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isNumeric(value: unknown): value is number | boolean | bigint {
  return typeof value === "number" || typeof value === "boolean" || typeof value === "bigint";
}

/**
 * Python `a == b` for JSON-like values. `undefined` counts as `None`; booleans are numbers
 * (`True == 1`), so are bigints; lists compare item by item, dicts by key set and value. Other
 * objects (Date, Map, class instances) compare by identity.
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  // Loose equality is exactly Python's rule across int/float/bool: 1 == 1.0 == true, NaN != NaN.
  if (isNumeric(a) && isNumeric(b)) return a == b; // eslint-disable-line eqeqeq
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEquals(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const aKeys = Object.keys(a);
    if (aKeys.length !== Object.keys(b).length) return false;
    for (const key of aKeys) {
      if (!Object.prototype.hasOwnProperty.call(b, key) || !pyEquals(a[key], b[key])) return false;
    }
    return true;
  }
  return Object.is(a, b);
}

/**
 * A string key such that `pyEquals(a, b)` implies `pyHashKey(a) === pyHashKey(b)` (DeepEval's
 * `_make_hashable`: dict keys sorted, lists as tuples, `True` and `1` alike).
 */
export function pyHashKey(value: unknown): string {
  if (value === undefined || value === null) return "N";
  if (isNumeric(value)) return `n${String(Number(value))}`;
  if (typeof value === "string") return `s${JSON.stringify(value)}`;
  if (Array.isArray(value)) return `[${value.map(pyHashKey).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${pyHashKey(value[k])}`).join(",")}}`;
  }
  // Unhashable leaves share one key per type, as DeepEval does; equality still decides.
  return `o${typeof value === "object" ? ((value as object).constructor?.name ?? "Object") : typeof value}`;
}

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Python `repr(str)`: single quotes unless the text has a `'` and no `"`; escapes as CPython. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else out += `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/**
 * Python `repr(float)`: integral values keep a `.0`, exponents appear below 1e-4 and from 1e16 on,
 * with a sign and at least two digits (`1e-05`, `1.5e+16`).
 */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (Object.is(value, -0)) return "-0.0";
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    const fixed = String(value);
    return Number.isInteger(value) ? `${fixed}.0` : fixed;
  }
  const sign = exponent < 0 ? "-" : "+";
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/**
 * Python `repr()` of a JSON-like value: `None`, `True`, quoted strings, `[a, b]`, `{'k': v}`.
 * JavaScript has one number type, so integral numbers print as Python ints (`3`, not `3.0`).
 */
export function pyRepr(value: unknown): string {
  if (value === undefined || value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") {
    if (Number.isInteger(value) && Math.abs(value) < 1e16 && !Object.is(value, -0)) return String(value);
    return pyFloatRepr(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .map((k) => `${pyStringRepr(k)}: ${pyRepr(value[k])}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** `json.dumps(value, indent=4, ensure_ascii=False)` for JSON-like values. */
export function pyJsonDumps(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === undefined ? null : v), 4) ?? "null";
}

/** DeepEval's way of listing names in prose: `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`. */
export function englishList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

/** A short, safe description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === "string") return value.length > 40 ? `string(${value.length})` : JSON.stringify(value);
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return `${typeof value} ${String(value)}`;
}
