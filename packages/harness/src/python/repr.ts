// Python `str()` / `repr()` of JSON-like values, for text the originals build with `str(value)`:
// prompt templates (BYOB `str.format`), CSV cells (DSPy's `csv.DictWriter`) and result tables.
//
// JSON loses Python's int/float distinction: an integral number is written as an int (`1`, Python
// would print `1.0` for a float read from `1.0`).

/** Python `repr(float)` for a non-integral or huge/tiny number; ints print as ints. */
export function pyNumber(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return Object.is(x, -0) ? "-0.0" : String(x);
  // shortest round-trip digits, Python's exponent rules: scientific when exp < -4 or >= 16
  const [digits, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const mant = digits.includes(".") ? digits : digits;
    return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python `repr(value)` for JSON-like values (None, bools, numbers, str, lists, dicts). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "bigint") return String(value);
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const v = value as { toDict?: () => Record<string, unknown> };
    const obj = typeof v.toDict === "function" ? v.toDict() : (value as Record<string, unknown>);
    return `{${Object.entries(obj)
      .map(([k, x]) => `${pyStringRepr(k)}: ${pyRepr(x)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** Python `str(value)`: strings as they are, everything else as `repr`. */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}
