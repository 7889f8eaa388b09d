// Field access with dsrs's data model (docs/spec/dsrs.md §0.2) over an `Example`/`Prediction` or a plain object.
// Field order is insertion order (dsrs's HashMap order is unspecified, so any order is faithful).
// A field whose value is `undefined` is treated as absent: JSON has no `undefined`.
import { Example, type FieldSource } from "../contracts/example.js";
import { InvalidArgumentError } from "../errors.js";

export type Fields = Record<string, unknown>;

function checkSource(source: unknown, argument: string): asserts source is FieldSource {
  if (typeof source !== "object" || source === null || Array.isArray(source)) {
    throw new InvalidArgumentError(`${argument} must be an Example, a Prediction or a plain object of fields`, {
      argument,
      expected: "Example | Prediction | Record<string, unknown>",
      actual: source === null ? "null" : Array.isArray(source) ? "array" : typeof source,
    });
  }
}

/** The `[name, value]` pairs of a field source, in insertion order, without `undefined` values. */
export function fieldEntries(source: FieldSource, argument = "output"): Array<[string, unknown]> {
  checkSource(source, argument);
  const record = source instanceof Example ? source.toDict() : (source as Fields);
  return Object.entries(record).filter(([, value]) => value !== undefined);
}

/** The value of `key`, or `undefined` when absent. */
export function fieldValue(source: FieldSource, key: string, argument = "output"): unknown {
  checkSource(source, argument);
  if (source instanceof Example) return source.get(key);
  return Object.prototype.hasOwnProperty.call(source, key) ? (source as Fields)[key] : undefined;
}

/** The string value of `key`, or `""` when absent or not a string (`as_str().unwrap_or("")`). */
export function stringField(source: FieldSource, key: string, argument = "output"): string {
  const value = fieldValue(source, key, argument);
  return typeof value === "string" ? value : "";
}

/** dsrs `Prediction.get(key, None)`: the stored value, or the JSON string `""` when missing. */
export function predictionGet(source: FieldSource, key: string): unknown {
  const value = fieldValue(source, key, "prediction");
  return value === undefined ? "" : value;
}

/** The string values of all string fields, in field order. */
export function stringFieldValues(source: FieldSource, argument = "output"): string[] {
  const out: string[] = [];
  for (const [, value] of fieldEntries(source, argument)) if (typeof value === "string") out.push(value);
  return out;
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `Value::get(key).is_some()`: `key` is present on a JSON object (any value, null included). */
export function hasKey(value: unknown, key: string): boolean {
  return isJsonObject(value) && Object.prototype.hasOwnProperty.call(value, key) && value[key] !== undefined;
}
