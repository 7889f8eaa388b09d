// Option schemas of lexical metrics: each key's type, allowed values, default and help text. Checking
// options against a schema rejects unknown or misspelled keys (with a did-you-mean) and wrong types
// before a kernel sees them; range checks stay with the kernels (core-wasm's `InvalidArgumentError`).
import { MetricOptionError, UnknownOptionError } from "./errors.js";
import { didYouMean, OPTION_KEY_NEARNESS } from "../options.js";

export { didYouMean };

/** `json`: any JSON value (promptfoo's assertion `value`: a string, a list, a number or an object). */
export type OptionType = "boolean" | "integer" | "number" | "string" | "string[]" | "json";

export interface OptionSchema {
  readonly type: OptionType;
  /** Allowed values (strings). */
  readonly values?: readonly string[];
  /** The default, when there is a fixed one (documentation; the kernels apply it). */
  readonly default?: unknown;
  /** One line of help, as `--help` prints it after `key=`. */
  readonly help: string;
}

export type OptionSchemas = Readonly<Record<string, OptionSchema>>;

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return typeof v === "object" ? "an object" : `${typeof v} ${String(v)}`;
}

function typeOk(type: OptionType, v: unknown): boolean {
  switch (type) {
    case "boolean":
      return typeof v === "boolean";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "string":
      return typeof v === "string";
    case "string[]":
      return typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string"));
    case "json":
      return true;
  }
}

const TYPE_WORDS: Record<OptionType, string> = {
  boolean: "a boolean",
  integer: "an integer",
  number: "a finite number",
  string: "a string",
  "string[]": "a list of strings",
  json: "a JSON value",
};

/**
 * Check `options` against a metric's schema. Unknown keys → `UnknownOptionError` (`UNKNOWN_OPTION`, naming
 * the metric and the key, with a did-you-mean); wrong types or values → `MetricOptionError` (`INVALID_OPTION`). `undefined`
 * values are treated as absent. `where` prefixes the `argument` of the error (e.g. `metrics[0].options`).
 */
export function checkOptions(metric: string, schema: OptionSchemas, options: Readonly<Record<string, unknown>>, where = "options"): void {
  const keys = Object.keys(schema);
  for (const [key, value] of Object.entries(options)) {
    const s = Object.prototype.hasOwnProperty.call(schema, key) ? schema[key] : undefined;
    if (!s) {
      const suggestion = didYouMean(key, keys, OPTION_KEY_NEARNESS);
      throw new UnknownOptionError(metric, key, keys, { argument: where, ...(suggestion !== undefined ? { suggestion } : {}) });
    }
    if (value === undefined) continue;
    if (!typeOk(s.type, value)) {
      throw new MetricOptionError(`${metric}: option ${key} must be ${TYPE_WORDS[s.type]}, got ${describeValue(value)}`, {
        metric,
        key,
        argument: `${where}.${key}`,
        expected: TYPE_WORDS[s.type],
        actual: describeValue(value),
      });
    }
    if (s.values) {
      const list = Array.isArray(value) ? (value as string[]) : [value];
      for (const item of list) {
        if (!s.values.includes(item as string)) {
          const hint = typeof item === "string" ? didYouMean(item, s.values) : undefined;
          throw new MetricOptionError(
            `${metric}: option ${key} must be ${s.type === "string[]" ? "a list of " : ""}` +
              `${s.values.map((x) => JSON.stringify(x)).join(" | ")}` +
              `, got ${describeValue(item)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}`,
            {
              metric,
              key,
              argument: `${where}.${key}`,
              expected: s.values.join(" | "),
              actual: describeValue(item),
              ...(hint ? { suggestion: hint } : {}),
            },
          );
        }
      }
    }
  }
}

/** Options as plain JSON (a copy), or a typed error when they are not an object or not serialisable. */
export function plainOptions(metric: string, value: unknown, where = "options"): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new MetricOptionError(`${where} must be an options object`, { metric, key: "", argument: where, actual: describeValue(value) });
  }
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch {
    throw new MetricOptionError(`${where} must be JSON-serialisable (it is sent to worker threads)`, { metric, key: "", argument: where });
  }
}

/** Stable JSON (sorted keys), for signatures. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
