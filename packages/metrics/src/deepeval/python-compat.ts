// Python semantics the DeepEval port depends on: `==` between JSON-like values (where `True == 1`
// and `1 == 1.0`), `repr()` of the values that end up in reason strings, `repr(float)` for the
// numbers in verbose logs, and a hash key consistent with `==` (ToolCall uses it for set membership).
// `repr()` itself lives in the one Python emulation, `../python/repr.ts`.
export { pyRepr, pyFloatRepr } from "../python/repr.js";

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
  // biome-ignore lint/suspicious/noDoubleEquals: Python's numeric equality is JavaScript's loose equality here
  if (isNumeric(a) && isNumeric(b)) return a == b;
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
