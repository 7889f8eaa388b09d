// Python `str()` of the values evalwire's `_parse_expected` yields, because the original formats the
// expected item into the prompt with `str.format` (ints and floats stay apart: ints arrive as bigint).
import { PyBytes, PyComplex, PyDict, PyEllipsis, PySet, PyTuple, type PyValue } from "@evalkern/metrics/evalwire";
import { pyFloatRepr, pyRepr as pyStringRepr } from "@evalkern/metrics/deepeval";

function bytesRepr(bytes: Uint8Array): string {
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
 * How JS numbers map to Python: `"json"` — an integral number is an int, others floats (values that came
 * from JSON); `"floats"` — every number is a float, ints being bigints (values from `literal_eval` with
 * `ints: "bigint"`).
 */
export type NumberModel = "json" | "floats";

/** Python `repr(v)`. */
export function pyRepr(v: PyValue, numbers: NumberModel = "json"): string {
  if (typeof v === "string") return pyStringRepr(v);
  return pyStr(v, numbers);
}

/** Python `str(v)` (a str as is; containers show their items with `repr`). */
export function pyStr(v: PyValue, numbers: NumberModel = "json"): string {
  const repr = (x: PyValue): string => pyRepr(x, numbers);
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    const isInt = numbers === "json" && Number.isInteger(v) && !Object.is(v, -0);
    return isInt ? BigInt(v).toString() : pyFloatRepr(v);
  }
  if (Array.isArray(v)) return `[${(v as PyValue[]).map(repr).join(", ")}]`;
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${repr(v.items[0] as PyValue)},)` : `(${v.items.map(repr).join(", ")})`;
  if (v instanceof PySet) return v.size === 0 ? "set()" : `{${v.items.map(repr).join(", ")}}`;
  if (v instanceof PyDict) return `{${v.entries().map(([k, x]) => `${repr(k)}: ${repr(x)}`).join(", ")}}`;
  if (v instanceof PyBytes) return bytesRepr(v.bytes);
  if (v instanceof PyComplex) {
    if (v.real === 0 && !Object.is(v.real, -0)) return `${complexPart(v.imag)}j`;
    const imag = complexPart(v.imag);
    return `(${complexPart(v.real)}${imag.startsWith("-") ? "" : "+"}${imag}j)`;
  }
  if (v instanceof PyEllipsis) return "Ellipsis";
  return `{${Object.entries(v as Record<string, PyValue>).map(([k, x]) => `${pyStringRepr(k)}: ${repr(x)}`).join(", ")}}`;
}
